"""The health monitor's findings, from the reports a thermostat PUTs, on a clock the test moves.

Each test drives the device session's PUT (the path firmware's reports take) and reads
`service.health`, as the host does. The timers (silence, the close of a day) run on the
`clock` fixture's frozen event loop.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import timedelta
import logging
from typing import Any

from hypothesis import given, settings, strategies as st
import pytest

from custom_components.thermostat_cloud.server import (
    EventKind,
    FindingKind,
    HealthThresholds,
    ServiceConfig,
    ServiceEvent,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import SERIAL, FakeClock, LoopClock, MemoryStorage

from .conftest import DEVICE, pair, report, timed_reports

IDLE: dict[str, Any] = {
    "hvac_heater_state": False,
    "hvac_ac_state": False,
    "current_temperature": 20.0,
}
HEAT_PUMP: dict[str, Any] = {
    "has_heat_pump": True,
    "has_aux_heat": True,
    "heat_pump_aux_threshold": 5.0,
    "heat_pump_aux_threshold_enabled": True,
}


def kinds(service: ThermostatService) -> set[FindingKind]:
    """Return the kinds the thermostat's findings are of."""
    return {finding.kind for finding in service.health.findings(SERIAL)}


def figures(service: ThermostatService, kind: FindingKind) -> dict[str, Any]:
    """Return the figures of the thermostat's finding of `kind`."""
    return next(dict(f.figures) for f in service.health.findings(SERIAL) if f.kind is kind)


class Run:
    """The thermostat reporting on a fake clock: minutes pass with a contact every few."""

    def __init__(self, service: ThermostatService) -> None:
        """Follow `service`, whose clock is a `FakeClock`."""
        assert isinstance(service.clock, FakeClock)
        self.service = service
        self.clock = service.clock
        self.events: list[ServiceEvent] = []
        service.events.listen(
            lambda event: self.events.append(event) if event.kind is EventKind.HEALTH else None
        )

    def minutes(self, minutes: float, step: float = 4, **fields: Any) -> None:
        """Let minutes pass; the thermostat is heard every `step` minutes (reporting `fields`)."""
        left = minutes
        while left > 0:
            self.clock.advance(min(step, left) * 60)
            left -= step
            report(self.service, **fields)


async def loaded(
    clock: FakeClock | None = None, document: dict[str, Any] | None = None, **health: Any
) -> ThermostatService:
    """Return a loaded, started service (on a fake clock unless None: the system's)."""
    service = ThermostatService(
        ServiceConfig(
            api_origin="http://127.0.0.1:8000", save_delay=0, health=HealthThresholds(**health)
        ),
        MemoryStorage(document),
        clock,
    )
    await service.async_load()
    service.start()
    return service


@pytest.fixture
async def paired() -> AsyncGenerator[ThermostatService]:
    """Return a started service with the thermostat paired, idle at 20 °C, heard."""
    service = await loaded(FakeClock())
    report(service, **IDLE)
    report(service, DEVICE, lower_safety_temp=7.2222, lower_safety_temp_enabled=True)
    pair(service, SERIAL)
    report(service)
    yield service
    await service.async_stop()


# -- heating that does not warm --------------------------------------------------------------


async def test_heating_that_does_not_warm_is_found_and_clears_when_the_room_warms(
    paired: ThermostatService,
) -> None:
    """Heat on 30 min, room 20 -> 19.8: not_heating with its figures; warming clears it."""
    run = Run(paired)
    report(paired, hvac_heater_state=True)
    run.minutes(16, current_temperature=19.9)
    run.minutes(12, current_temperature=19.8)
    assert kinds(paired) == set()
    run.minutes(4)
    assert kinds(paired) == {FindingKind.NOT_HEATING}
    assert figures(paired, FindingKind.NOT_HEATING) == {
        "minutes": 32,
        "room_start": 20.0,
        "room_now": 19.8,
        "stage": "heating_stage_1",
    }
    assert [event.serial for event in run.events] == [SERIAL]
    run.minutes(8, current_temperature=20.3)
    assert kinds(paired) == set()
    assert len(run.events) == 2


async def test_reaching_the_setpoint_a_dial_turn_and_a_setback_raise_nothing(
    paired: ThermostatService,
) -> None:
    """Heat that warms, the dial turned up and down, a night setback: no finding."""
    run = Run(paired)
    report(paired, hvac_heater_state=True, target_temperature=21.0)
    for tenth in range(1, 11):
        run.minutes(4, current_temperature=20.0 + tenth / 10)
    report(paired, hvac_heater_state=False)
    report(paired, target_temperature=23.0, hvac_heater_state=True)
    report(paired, target_temperature=21.0, hvac_heater_state=False)
    report(paired, target_temperature=16.0)
    for tenth in range(1, 40):
        run.minutes(10, current_temperature=21.0 - tenth / 10)
    assert kinds(paired) == set()
    assert run.events == []


async def test_a_heat_pump_with_aux_heat_is_judged_by_what_ran(paired: ThermostatService) -> None:
    """Heat pump and aux heat called, no warmth: the finding names both stages."""
    report(paired, DEVICE, **HEAT_PUMP)
    run = Run(paired)
    report(paired, hvac_heater_state=True)
    run.minutes(12, current_temperature=19.9)
    report(paired, hvac_aux_heater_state=True)
    run.minutes(24, current_temperature=19.8)
    assert figures(paired, FindingKind.NOT_HEATING)["stage"] == "heat_pump,aux_heat"


async def test_cooling_that_does_not_cool_is_found(paired: ThermostatService) -> None:
    """Cooling on 32 min, the room 26 -> 26.4: not_cooling."""
    report(paired, current_temperature=26.0, hvac_ac_state=True)
    Run(paired).minutes(32, current_temperature=26.4)
    assert figures(paired, FindingKind.NOT_COOLING)["stage"] == "cooling_stage_1"


async def test_a_restart_mid_run_judges_from_the_first_reading_after_it() -> None:
    """Heat on at the stop; the room fell meanwhile, then warms: nothing is found."""
    clock = FakeClock()
    first = await loaded(clock)
    report(first, **IDLE)
    pair(first, SERIAL)
    report(first, hvac_heater_state=True, current_temperature=20.5)
    await first.async_stop()
    document = harness(first).storage.data  # type: ignore[attr-defined]
    clock.advance(3600)
    second = await loaded(clock, document)
    run = Run(second)
    report(second)  # contact: heat still on as stored, room unknown since
    run.minutes(8)
    report(second, current_temperature=19.5)
    for tenth in range(1, 9):
        run.minutes(5, current_temperature=19.5 + tenth / 10)
    assert kinds(second) == set()
    await second.async_stop()


# -- short cycling ---------------------------------------------------------------------------


async def test_short_cycling_is_found_above_the_limit_and_calms_down(
    paired: ThermostatService,
) -> None:
    """Seven starts in an hour (limit 6): short_cycling; an hour of quiet clears it."""
    run = Run(paired)
    for start in range(7):
        report(paired, hvac_ac_state=True, current_temperature=24.0 - start / 10)
        run.minutes(2)
        report(paired, hvac_ac_state=False)
        run.minutes(4)
    assert figures(paired, FindingKind.SHORT_CYCLING) == {
        "starts_per_hour": 7,
        "limit": 6,
        "cycle": "cooling",
    }
    run.minutes(60)
    assert kinds(paired) == set()


async def test_one_relay_flip_is_no_short_cycling(paired: ThermostatService) -> None:
    """A relay on and off at once, a few times an hour: nothing found."""
    run = Run(paired)
    for _ in range(3):
        report(paired, hvac_heater_state=True)
        report(paired, hvac_heater_state=False)
        run.minutes(20)
    assert kinds(paired) == set()


# -- the room too cold or too hot ------------------------------------------------------------


async def test_too_cold_below_the_safety_temperature_even_while_it_heats(
    paired: ThermostatService,
) -> None:
    """Below the 7.2 °C safety temperature for 5 min (its protection heating): too_cold."""
    run = Run(paired)
    report(paired, current_temperature=6.5, hvac_heater_state=True)
    run.minutes(4)
    assert kinds(paired) == set()
    run.minutes(4)
    assert figures(paired, FindingKind.TOO_COLD) == {"room_now": 6.5, "limit": 7.2222}
    run.minutes(4, current_temperature=7.5)
    assert FindingKind.TOO_COLD in kinds(paired)  # within the margin: still too cold
    run.minutes(4, current_temperature=7.8)
    assert FindingKind.TOO_COLD not in kinds(paired)


async def test_the_users_own_thresholds_and_one_reading_beyond_them() -> None:
    """A user's 30 °C too-hot: one reading above is nothing, five minutes above is."""
    service = await loaded(FakeClock(), too_hot_c=30.0)
    report(service, **IDLE)
    pair(service, SERIAL)
    run = Run(service)
    report(service, current_temperature=31.0)
    report(service, current_temperature=29.0)
    run.minutes(10)
    assert kinds(service) == set()
    report(service, current_temperature=31.0)
    run.minutes(8)
    assert figures(service, FindingKind.TOO_HOT) == {"room_now": 31.0, "limit": 30.0}
    await service.async_stop()


# -- aux heat above its lockout ----------------------------------------------------------------


async def test_aux_heat_above_its_lockout_needs_the_outdoor_temperature(
    paired: ThermostatService, caplog: pytest.LogCaptureFixture
) -> None:
    """Aux on 12 min at 9 °C outside, lockout 5 °C: found; without weather: not, logged once."""
    report(paired, DEVICE, **HEAT_PUMP)
    run = Run(paired)
    report(paired, hvac_heater_state=True, hvac_aux_heater_state=True)
    run.minutes(12, step=2)
    assert kinds(paired) == set()
    assert caplog.text.count("No outdoor temperature") == 1
    paired.health.note_outdoor(9.0)
    run.minutes(12, step=2, current_temperature=20.5)
    assert figures(paired, FindingKind.AUX_ABOVE_LOCKOUT) == {
        "minutes": 10,
        "outdoor": 9.0,
        "lockout": 5.0,
    }
    report(paired, hvac_aux_heater_state=False)
    assert kinds(paired) == set()


async def test_aux_heat_in_emergency_mode_is_no_finding(paired: ThermostatService) -> None:
    """Emergency heat runs aux whatever the lockout says: nothing found."""
    report(paired, DEVICE, **HEAT_PUMP)
    paired.health.note_outdoor(12.0)
    report(paired, target_temperature_type="emergency", hvac_aux_heater_state=True)
    Run(paired).minutes(20, current_temperature=20.6)
    assert kinds(paired) == set()


# -- silent in the frost -----------------------------------------------------------------------


@pytest.fixture
async def frozen(clock: LoopClock) -> AsyncGenerator[ThermostatService]:
    """Return a started service on the system clock the `clock` fixture freezes, paired."""
    service = await loaded(None)
    report(service, **IDLE)
    pair(service, SERIAL)
    report(service)
    yield service
    await service.async_stop()


async def test_a_thermostat_silent_in_the_frost_is_found_and_clears_when_heard(
    frozen: ThermostatService, clock: LoopClock
) -> None:
    """-3 °C outside, silent 31 min: silent_in_frost; a request clears it."""
    frozen.health.note_outdoor(-3.0)
    await clock.advance(29 * 60)
    assert kinds(frozen) == set()
    await clock.advance(2 * 60)
    assert figures(frozen, FindingKind.SILENT_IN_FROST) == {
        "minutes": 31,
        "outdoor": -3.0,
        "limit": 2.0,
    }
    report(frozen)
    assert kinds(frozen) == set()


async def test_silence_in_mild_weather_or_without_weather_is_no_finding(
    frozen: ThermostatService, clock: LoopClock, caplog: pytest.LogCaptureFixture
) -> None:
    """Silent an hour at 8 °C, then without weather: nothing; the frost later finds it."""
    frozen.health.note_outdoor(8.0)
    await clock.advance(60 * 60)
    frozen.health.note_outdoor(None)
    await clock.advance(60)
    assert kinds(frozen) == set()
    assert caplog.text.count("No outdoor temperature") == 1
    frozen.health.note_outdoor(1.0)
    assert FindingKind.SILENT_IN_FROST in kinds(frozen)


async def test_a_thermostat_that_never_returns_after_a_restart_is_found_silent(
    clock: LoopClock,
) -> None:
    """Heard before Home Assistant stopped, never after: silent_in_frost from its last request."""
    first = await loaded(None)
    report(first, **IDLE)
    pair(first, SERIAL)
    report(first)
    await first.async_stop()
    document = harness(first).storage.data  # type: ignore[attr-defined]
    await clock.advance(60)
    second = await loaded(None, document)
    second.health.note_outdoor(-5.0)
    await clock.advance(25 * 60)
    assert kinds(second) == set()
    await clock.advance(10 * 60)
    assert figures(second, FindingKind.SILENT_IN_FROST)["minutes"] >= 30
    await second.async_stop()


# -- running much longer than usual ------------------------------------------------------------


async def heat_for_a_day(service: ThermostatService, clock: LoopClock, hours: float) -> None:
    """Heat `hours` (heard every 100 s, the room warming), then idle past the next midnight."""
    report(service, hvac_heater_state=True, current_temperature=19.0)
    for step in range(int(hours * 36)):
        await clock.advance(100)
        report(service, current_temperature=round(19.0 + step / 100, 2))
    report(service, hvac_heater_state=False, current_temperature=20.0)
    now = service.clock.now_ms() / 1000
    await clock.advance(86400 - now % 86400 + 60)
    report(service, current_temperature=20.1)


async def test_a_day_of_much_longer_heating_than_usual_is_found(
    frozen: ThermostatService, clock: LoopClock
) -> None:
    """15 days at 2 h a day, then 6 h on a day as cold: long_runtime; back to 2 h clears it."""
    frozen.health.note_outdoor(5.0)
    for _ in range(16):
        await heat_for_a_day(frozen, clock, 2)
        frozen.health.note_outdoor(5.0)
    assert kinds(frozen) == set()
    await heat_for_a_day(frozen, clock, 6)
    found = figures(frozen, FindingKind.LONG_RUNTIME)
    assert found["runtime_minutes"] == pytest.approx(360, abs=5)
    assert found["degree_days"] == 13.0
    assert found["days"] >= 14
    await heat_for_a_day(frozen, clock, 2)
    assert kinds(frozen) == set()


# -- restarts and upgrades -------------------------------------------------------------------


async def test_findings_and_starts_survive_a_restart(paired: ThermostatService) -> None:
    """A finding and the last hour's starts are saved and loaded back."""
    run = Run(paired)
    report(paired, current_temperature=6.0)
    run.minutes(8)
    for _ in range(3):
        report(paired, hvac_ac_state=True)
        report(paired, hvac_ac_state=False)
    await paired.async_flush()
    document = harness(paired).storage.data  # type: ignore[attr-defined]
    again = await loaded(paired.clock, document)  # type: ignore[arg-type]
    assert kinds(again) == {FindingKind.TOO_COLD}
    assert again.health.findings(SERIAL) == paired.health.findings(SERIAL)
    assert document["health"]["thermostats"][SERIAL]["starts"]["cooling"]
    # The monthly report counts the findings raised in its month, across the restart too.
    since = paired.health.findings(SERIAL)[0].since
    a_day = timedelta(days=1)
    assert again.health.raised_between(SERIAL, since - a_day, since + a_day) == {"too_cold": 1}
    assert again.health.raised_between(SERIAL, since + timedelta(seconds=1), since + a_day) == {}
    await again.async_stop()


async def test_the_previous_versions_document_loads_with_nothing_found() -> None:
    """A document saved before health findings existed (no `health` key) loads as it was."""
    clock = FakeClock()
    before = await loaded(clock)
    report(before, **IDLE)
    pair(before, SERIAL)
    await before.async_flush()
    document = dict(harness(before).storage.data)  # type: ignore[attr-defined]
    del document["health"]
    await before.async_stop()
    after = await loaded(clock, document)
    assert after.pairing.is_paired(SERIAL)
    assert after.health.findings(SERIAL) == ()
    assert "health" in harness(after).snapshot()
    await after.async_stop()


async def test_a_stored_health_record_that_does_not_parse_is_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Broken stored findings: each dropped with a warning, the rest loaded."""
    document = {
        "health": {
            "day": "tuesday",
            "thermostats": {
                SERIAL: {
                    "findings": [
                        {"kind": "too_cold", "since_ms": 1_800_000_000_000, "figures": {}},
                        {"kind": "on_fire", "since_ms": 1, "figures": {}},
                        {"kind": "too_hot", "since_ms": "yesterday", "figures": {}},
                    ],
                    "starts": {"heating": [1, "x"], "cooling": "many"},
                    "days": [[1, 2], [739000, 120.0, 13.0]],
                },
                "OTHER": "no",
            },
        }
    }
    service = await loaded(FakeClock(), document)
    assert kinds(service) == {FindingKind.TOO_COLD}
    assert caplog.text.count("Ignoring a stored health finding") == 2
    assert "Ignoring stored health of OTHER" in caplog.text
    await service.async_stop()


def test_thresholds_below_their_minimums_are_refused() -> None:
    """N and M under 10 minutes, an upside-down range: refused; strict is stricter."""
    with pytest.raises(ValueError, match="not_warming_minutes"):
        HealthThresholds(not_warming_minutes=9)
    with pytest.raises(ValueError, match="silent_minutes"):
        HealthThresholds(silent_minutes=5)
    with pytest.raises(ValueError, match="too_cold_c"):
        HealthThresholds(too_cold_c=25.0, too_hot_c=20.0)
    strict = HealthThresholds(too_cold_c=10.0).strict()
    assert strict.silent_minutes == 10
    assert strict.too_cold_c == 10.0
    assert strict.max_starts_per_hour < HealthThresholds().max_starts_per_hour


# -- bad input -------------------------------------------------------------------------------


class Recorder(logging.Handler):
    """Keep every record logged."""

    def __init__(self) -> None:
        """Initialize with nothing recorded."""
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record."""
        self.records.append(record)


BAD_VALUES = st.one_of(
    st.text(max_size=3),
    st.integers(-(2**63), 2**63 - 1).filter(lambda n: not -40 <= n <= 60),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not -40 <= f <= 60),
    st.lists(st.booleans(), max_size=2),
)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    steps=timed_reports(
        86400, ["hvac_heater_state", "hvac_ac_state", "current_temperature"], BAD_VALUES
    )
)
async def test_bad_reports_at_any_times_build_no_finding_and_are_logged_once(
    steps: list[tuple[float, str, object]],
) -> None:
    """Wrong relays, absurd rooms, a clock going back or jumping: no crash, nothing found."""
    clock = FakeClock()
    service = await loaded(clock)
    report(service, **IDLE)
    pair(service, SERIAL)
    report(service, hvac_heater_state=True)
    handler = Recorder()
    records = handler.records
    logger = logging.getLogger(
        "custom_components.thermostat_cloud.server.core.watch.health_monitor"
    )
    logger.addHandler(handler)
    try:
        for advance, field, value in steps:
            clock.advance(advance)
            report(service, **{field: value})
            report(service)
            assert kinds(service) == set()
        messages = [record.msg for record in records if record.levelno >= logging.WARNING]
        assert len(messages) == len(set(messages))
    finally:
        logger.removeHandler(handler)
        await service.async_stop()
