"""The house's heating model as the core learns it from the runs a thermostat reports.

A house with known rates (heating 3 °C/h less 0.05 °C/h per degree between the room and
outdoors; drift the same loss with the equipment off) reports through the device session's
PUT (the path firmware's reports take), with a clock the test moves.
"""

from __future__ import annotations

import logging
from typing import Any

from hypothesis import given, settings, strategies as st
import pytest

from custom_components.thermostat_cloud.server import (
    COOLING,
    DRIFT,
    HEATING,
    MIN_RUNS,
    EventKind,
    ServiceConfig,
    ServiceEvent,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core import PutEntry
from custom_components.thermostat_cloud.server.core.testing import harness
from custom_components.thermostat_cloud.server.core.watch.house_model import (
    MAX_SAMPLES,
    Sample,
    fit,
)
from tests.conftest import SERIAL, FakeClock, MemoryStorage

from .conftest import CLAIM, SHARED, pair

ROOM_C = 20.0
POWER = 3.0
LOSS = 0.05
DAY_MS = 86_400_000


def heating_rate(outdoor: float) -> float:
    """°C/h the known house warms at with the heat on."""
    return POWER - LOSS * (ROOM_C - outdoor)


def drift_rate(outdoor: float) -> float:
    """°C/h the known house changes by with everything off (it loses heat)."""
    return -LOSS * (ROOM_C - outdoor)


def report(service: ThermostatService, **fields: Any) -> None:
    """PUT shared fields as the thermostat does (none: contact only, as a subscribe is)."""
    service.sessions.put(CLAIM, [PutEntry(SHARED, fields, None, 0)] if fields else [])


def run(service: ThermostatService, minutes: float) -> None:
    """Let minutes pass with the thermostat in contact every minute."""
    clock = service.clock
    assert isinstance(clock, FakeClock)
    for _ in range(int(minutes)):
        clock.advance(60)
        report(service)


def heat_cycle(service: ThermostatService, outdoor: float, *, window_open: bool = False) -> None:
    """Heat 30 minutes, then 60 off, as the known house does at this outdoor temperature.

    With the window open the heat barely moves the room and it falls fast while off.
    """
    service.house_model.note_outdoor(outdoor)
    heat = 0.1 if window_open else heating_rate(outdoor)
    drift = -3.0 if window_open else drift_rate(outdoor)
    room = service.thermostat(SERIAL).current_temperature
    assert room is not None
    report(service, hvac_heater_state=True)
    run(service, 30)
    report(service, hvac_heater_state=False, current_temperature=room + heat / 2)
    run(service, 60)
    report(service, current_temperature=room + heat / 2 + drift)


def rate(service: ThermostatService, kind: str, outdoor: float | None = None) -> float | None:
    return service.house_model.estimate(SERIAL, kind, outdoor).rate


@pytest.fixture
async def paired(service: ThermostatService) -> ThermostatService:
    """Return the service with the thermostat paired and in contact, its heat off."""
    report(service, hvac_heater_state=False, current_temperature=ROOM_C)
    pair(service, SERIAL)
    report(service)
    return service


async def test_rates_are_shown_once_enough_runs_are_learned(paired: ThermostatService) -> None:
    """Four runs show nothing yet (but are counted); the fifth shows the house's rate."""
    for _ in range(MIN_RUNS - 1):
        heat_cycle(paired, 5.0)
    found = paired.house_model.estimate(SERIAL, HEATING)
    assert found.rate is None
    assert found.runs == MIN_RUNS - 1

    heat_cycle(paired, 5.0)
    report(paired, hvac_heater_state=True)  # ends the fifth time off
    found = paired.house_model.estimate(SERIAL, HEATING)
    assert found.runs == MIN_RUNS
    assert found.rate == pytest.approx(heating_rate(5.0))
    assert rate(paired, DRIFT) == pytest.approx(drift_rate(5.0))
    assert rate(paired, COOLING) is None
    diagnostics = paired.diagnostics()["thermostats"][SERIAL]["house_model"]
    assert diagnostics["heating"]["runs"] == MIN_RUNS
    assert diagnostics["heating"]["mean"] == pytest.approx(heating_rate(5.0), abs=0.001)


async def test_rates_follow_the_outdoor_temperature_within_what_was_learned(
    paired: ThermostatService,
) -> None:
    """Learned on cold and mild days: read in between on the line, beyond held at its ends."""
    for outdoor in (0.0, 10.0) * 4:
        heat_cycle(paired, outdoor)
    for outdoor in (0.0, 5.0, 10.0):
        assert rate(paired, HEATING, outdoor) == pytest.approx(heating_rate(outdoor))
        assert rate(paired, DRIFT, outdoor) == pytest.approx(drift_rate(outdoor))
    assert rate(paired, HEATING, -20.0) == pytest.approx(heating_rate(0.0))
    paired.house_model.note_outdoor(2.0)
    assert rate(paired, HEATING) == pytest.approx(heating_rate(2.0))


async def test_a_window_left_open_does_not_move_the_model(paired: ThermostatService) -> None:
    """A few runs with the window open are outliers: dropped, and the rates stay the house's."""
    for _ in range(12):
        heat_cycle(paired, 5.0)
    for _ in range(3):
        heat_cycle(paired, 5.0, window_open=True)

    found = paired.house_model.estimate(SERIAL, HEATING)
    assert found.rate == pytest.approx(heating_rate(5.0))
    assert found.runs == 12
    assert rate(paired, DRIFT) == pytest.approx(drift_rate(5.0))


async def test_a_run_with_a_gap_in_its_reports_is_not_learned(paired: ThermostatService) -> None:
    """Heating, then a day of silence (unavailable), then the heat off: nothing learned."""
    report(paired, hvac_heater_state=True, current_temperature=ROOM_C)
    clock = paired.clock
    assert isinstance(clock, FakeClock)
    clock.advance(86_400)
    assert not paired.devices.is_available(SERIAL)
    report(paired, hvac_heater_state=False, current_temperature=ROOM_C + 1)
    run(paired, 60)
    report(paired, hvac_heater_state=True, current_temperature=ROOM_C + 0.5)

    assert paired.house_model.estimate(SERIAL, HEATING).runs == 0
    assert paired.house_model.estimate(SERIAL, DRIFT).runs == 1  # the hour after it


async def test_short_runs_and_impossible_rates_are_not_learned(
    paired: ThermostatService, caplog: pytest.LogCaptureFixture
) -> None:
    """Five minutes of heat teach nothing (the sensor lags); 40 °C in an hour is no house."""
    report(paired, hvac_heater_state=True, current_temperature=ROOM_C)
    run(paired, 5)
    report(paired, hvac_heater_state=False, current_temperature=ROOM_C + 1)
    run(paired, 60)
    report(paired, hvac_heater_state=True, current_temperature=ROOM_C)
    run(paired, 60)
    with caplog.at_level(logging.INFO):
        report(paired, hvac_heater_state=False, current_temperature=ROOM_C + 40)

    assert paired.house_model.estimate(SERIAL, HEATING).runs == 0
    assert "no house changes that fast" in caplog.text


async def test_learning_tells_the_host_once_per_finished_run(paired: ThermostatService) -> None:
    """One HOUSE_MODEL event per finished phase; temperature reports in between send none."""
    events: list[ServiceEvent] = []
    paired.events.listen(lambda e: events.append(e) if e.kind is EventKind.HOUSE_MODEL else None)
    heat_cycle(paired, 5.0)  # heat on (starts), off (heating learned), then 60 min of reports
    assert [e.serial for e in events] == [SERIAL]
    report(paired, hvac_heater_state=True)  # the drift ends
    assert len(events) == 2


async def test_the_model_survives_a_restart_and_stays_bounded() -> None:
    """Saved under `house_model`: a restart keeps the rates; a long history keeps the newest."""
    storage, clock = MemoryStorage(), FakeClock()
    config = ServiceConfig(api_origin="http://127.0.0.1:8000", save_delay=0)
    first = ThermostatService(config, storage, clock)
    await first.async_load()
    report(first, hvac_heater_state=False, current_temperature=ROOM_C)
    pair(first, SERIAL)
    for _ in range(MIN_RUNS):
        heat_cycle(first, 5.0)
    await first.async_stop()
    assert storage.data is not None
    saved = storage.data["house_model"][SERIAL][HEATING]
    assert len(saved) == MIN_RUNS

    # A year of runs, as a long-running install has them: only the newest are loaded.
    now = clock.now_ms()
    storage.data["house_model"][SERIAL][HEATING] = [
        [now - i * 3_600_000, 5.0, heating_rate(5.0)] for i in range(2 * MAX_SAMPLES)
    ]
    second = ThermostatService(config, storage, clock)
    await second.async_load()
    assert rate(second, HEATING, 5.0) == pytest.approx(heating_rate(5.0))
    assert second.house_model.estimate(SERIAL, HEATING).runs == MAX_SAMPLES
    second.start()
    heat_cycle(second, 5.0)
    await second.async_stop()
    assert len(storage.data["house_model"][SERIAL][HEATING]) == MAX_SAMPLES

    clock.advance(61 * 86_400)  # two months without a run: nothing left to trust
    third = ThermostatService(config, storage, clock)
    await third.async_load()
    assert third.house_model.estimate(SERIAL, HEATING).runs == 0


async def test_the_previous_versions_document_and_damaged_samples_load(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A document without `house_model` loads with no model; a damaged sample is dropped."""
    storage = MemoryStorage()
    config = ServiceConfig(api_origin="http://127.0.0.1:8000", save_delay=0)
    first = ThermostatService(config, storage, FakeClock())
    await first.async_load()
    document = harness(first).snapshot()
    del document["house_model"]
    storage.data = document
    second = ThermostatService(config, storage, FakeClock())
    await second.async_load()
    assert second.house_model.estimate(SERIAL, HEATING).runs == 0

    now = FakeClock().now_ms()
    good = [[now - i * 60_000, 5.0, 2.0] for i in range(MIN_RUNS)]
    document["house_model"] = {SERIAL: {HEATING: [*good, ["x", 5.0, 2.0], [now, 5.0, 99.0]]}}
    storage.data = document
    third = ThermostatService(config, storage, FakeClock())
    await third.async_load()
    assert third.house_model.estimate(SERIAL, HEATING, 5.0).rate == pytest.approx(2.0)
    assert "Ignoring 2 stored heating samples" in caplog.text


async def test_an_impossible_outdoor_temperature_is_ignored(
    paired: ThermostatService, caplog: pytest.LogCaptureFixture
) -> None:
    """A weather entity reporting 500 °C changes nothing, with a warning."""
    paired.house_model.note_outdoor(4.0)
    paired.house_model.note_outdoor(500.0)
    assert paired.house_model.outdoor == 4.0
    assert "Ignoring outdoor temperature 500.0" in caplog.text


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    base=st.floats(0.5, 5.0),
    slope=st.floats(-0.1, 0.1),
    outliers=st.lists(st.floats(-10.0, 10.0), max_size=6),
)
def test_the_fit_recovers_a_line_through_a_minority_of_outliers(
    base: float, slope: float, outliers: list[float]
) -> None:
    """Twenty runs on a line from -5 to 14 °C outdoors, up to six wild ones: the line stands."""
    now = 1_800_000_000_000
    on_line = [Sample(now - i * 3_600_000, i - 5.0, base + slope * (i - 5.0)) for i in range(20)]
    wild = [Sample(now, 3.0, value) for value in outliers]
    found = fit([*on_line, *wild], now)
    assert found is not None
    for outdoor in (-5.0, 0.0, 14.0):
        assert found.at(outdoor) == pytest.approx(base + slope * outdoor, abs=0.1)


def test_recent_weeks_weigh_more() -> None:
    """A house that changed (new insulation) a month ago is mostly its new self."""
    now = 1_800_000_000_000
    old = [Sample(now - (40 + i) * DAY_MS, None, 1.0) for i in range(10)]
    new = [Sample(now - i * DAY_MS, None, 2.0) for i in range(10)]
    found = fit([*old, *new], now)
    assert found is not None
    assert found.at(None) > 1.8
