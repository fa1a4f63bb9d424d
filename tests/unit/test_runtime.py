"""Runtime, cycles and energy as the core counts them from the relays a thermostat reports.

Each test drives the device session's PUT (the path firmware's reports take) with a clock the
test moves, and reads the figures the sensors show.
"""

from __future__ import annotations

import logging

from hypothesis import given, settings, strategies as st
import pytest

from custom_components.thermostat_cloud.server import (
    ServiceConfig,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import SERIAL, FakeClock, LoopClock, MemoryStorage

from .conftest import DEVICE, SHARED, pair, report, timed_reports


def clock_of(service: ThermostatService) -> FakeClock:
    """Return the test's clock."""
    assert isinstance(service.clock, FakeClock)
    return service.clock


def seconds(service: ThermostatService, equipment: str) -> float:
    """Return the seconds counted for one piece of equipment."""
    return service.runtime.figures(SERIAL).seconds.get(equipment, 0.0)


def run(service: ThermostatService, minutes: float, step_s: float = 60) -> None:
    """Let time pass with the thermostat in contact every `step_s` (as its subscribes are)."""
    clock = clock_of(service)
    left = minutes * 60
    while left > 0:
        step = min(step_s, left)
        clock.advance(step)
        left -= step
        report(service)


def max_step(service: ThermostatService) -> float:
    """Return the longest time counted between two contacts: a held subscribe and its grace."""
    return service.config.hold_timeout + service.config.availability_grace


@pytest.fixture
async def paired(service: ThermostatService) -> ThermostatService:
    """Return the service with the thermostat paired and in contact, everything off."""
    report(service, hvac_heater_state=False, hvac_ac_state=False, hvac_fan_state=False)
    pair(service, SERIAL)
    report(service)
    return service


async def test_heating_counts_from_the_report_that_started_it_to_the_one_that_stopped_it(
    paired: ThermostatService,
) -> None:
    """Ten minutes of heating with the fan: 600 s each, one heating cycle, no cooling."""
    report(paired, hvac_heater_state=True, hvac_fan_state=True)
    run(paired, 10)
    report(paired, hvac_heater_state=False, hvac_fan_state=False)
    run(paired, 30)

    figures = paired.runtime.figures(SERIAL)
    assert figures.seconds == {"heating_stage_1": 600.0, "fan": 600.0}
    assert figures.cycles == {"heating": 1}


async def test_cycles_count_starts_not_stage_changes(paired: ThermostatService) -> None:
    """Stage 2 joining a running first stage is no new cycle; each start of cooling is one."""
    report(paired, hvac_heater_state=True)
    run(paired, 5)
    report(paired, hvac_heat_x2_state=True)
    run(paired, 5)
    report(paired, hvac_heater_state=False, hvac_heat_x2_state=False)
    for _ in range(3):
        report(paired, hvac_ac_state=True)
        run(paired, 2)
        report(paired, hvac_ac_state=False)
        run(paired, 2)

    figures = paired.runtime.figures(SERIAL)
    assert figures.cycles == {"heating": 1, "cooling": 3}
    assert figures.seconds["heating_stage_1"] == 600.0
    assert figures.seconds["heating_stage_2"] == 300.0
    assert figures.seconds["cooling_stage_1"] == 360.0


async def test_humidity_equipment_and_airwave_count_where_firmware_reports_them(
    paired: ThermostatService,
) -> None:
    """`device.humidifier_state`, `auto_dehum_state` (cool to dry), `fan_cooling_state`."""
    report(paired, DEVICE, humidifier_state=True, auto_dehum_state=True, fan_cooling_state=True)
    run(paired, 3)
    report(paired, DEVICE, humidifier_state=False, auto_dehum_state=False, fan_cooling_state=False)

    assert paired.runtime.figures(SERIAL).seconds == {
        "humidifier": 180.0,
        "dehumidifier": 180.0,
        "airwave": 180.0,
    }


async def test_a_restart_while_heating_does_not_count_the_downtime() -> None:
    """Heating when Home Assistant stops: counted to the stop, then from the first contact."""
    storage, clock = MemoryStorage(), FakeClock()
    config = ServiceConfig(api_origin="http://127.0.0.1:8000", save_delay=0)
    first = ThermostatService(config, storage, clock)
    await first.async_load()
    report(first, hvac_heater_state=False)
    pair(first, SERIAL)
    report(first, hvac_heater_state=True)
    run(first, 10)
    await first.async_stop()

    clock.advance(3600)  # an hour down; the furnace may or may not have run
    second = ThermostatService(config, storage, clock)
    await second.async_load()
    assert seconds(second, "heating_stage_1") == 600.0
    clock.advance(120)  # started, the thermostat not heard yet
    report(second)
    assert seconds(second, "heating_stage_1") == 600.0
    run(second, 5)
    report(second, hvac_heater_state=False)
    await second.async_stop()

    assert seconds(second, "heating_stage_1") == 900.0
    # Still on when Home Assistant stopped, and still on after: the same cycle.
    assert second.runtime.figures(SERIAL).cycles == {"heating": 1}


async def test_the_previous_versions_stored_data_loads_and_starts_at_zero() -> None:
    """A document without `runtime` (every version before) keeps its state and counts on."""
    clock = FakeClock()
    config = ServiceConfig(api_origin="http://127.0.0.1:8000", save_delay=0)
    before = ThermostatService(config, MemoryStorage(), clock)
    await before.async_load()
    report(before, hvac_heater_state=True)
    pair(before, SERIAL)
    await before.async_stop()
    stored = harness(before).snapshot()
    stored.pop("runtime")  # as the previous version saved it
    storage = MemoryStorage()
    await storage.async_save(stored)

    upgraded = ThermostatService(config, storage, clock)
    await upgraded.async_load()
    assert upgraded.pairing.is_paired(SERIAL)
    assert upgraded.runtime.figures(SERIAL).seconds == {}
    report(upgraded)
    run(upgraded, 4)
    assert seconds(upgraded, "heating_stage_1") == 240.0
    await upgraded.async_stop()
    assert storage.data is not None
    assert storage.data["runtime"][SERIAL]["seconds"] == {"heating_stage_1": 240.0}


async def test_unpairing_and_pairing_again_keeps_the_figures(paired: ThermostatService) -> None:
    """Figures go on from where they were: a reset would corrupt long-term statistics."""
    report(paired, hvac_ac_state=True)
    run(paired, 5)
    assert paired.pairing.unpair(SERIAL)
    await paired.async_flush()
    run(paired, 5)  # unpaired: not counted
    assert seconds(paired, "cooling_stage_1") == 300.0

    pair(paired, SERIAL)
    report(paired)
    run(paired, 1)
    assert seconds(paired, "cooling_stage_1") == 360.0
    assert paired.runtime.figures(SERIAL).cycles == {"cooling": 1}


async def test_a_thermostat_that_goes_silent_stops_counting_at_its_last_contact(
    clock: LoopClock, paired: ThermostatService
) -> None:
    """Unavailable while the fan was on: the time after its last request is not known."""
    report(paired, hvac_fan_state=True)
    run(paired, 2)
    clock_of(paired).advance(max_step(paired) + 10)
    # Availability's timer finds it gone once the grace ran out (on the loop's clock).
    await clock.advance(max_step(paired) + 10)
    assert seconds(paired, "fan") == 120.0
    clock_of(paired).advance(600)
    report(paired)  # back: the fan still reported on counts again from here
    run(paired, 1)
    assert seconds(paired, "fan") == 180.0


async def test_clock_jumps_count_nothing_or_at_most_the_longest_silence(
    paired: ThermostatService, caplog: pytest.LogCaptureFixture
) -> None:
    """A clock set back counts nothing; one set a year ahead counts one step, with a warning."""
    report(paired, hvac_heater_state=True)
    run(paired, 1)
    clock = clock_of(paired)
    clock.advance(-3600)
    report(paired)
    assert seconds(paired, "heating_stage_1") == 60.0
    assert "clock went back" in caplog.text
    run(paired, 1)
    assert seconds(paired, "heating_stage_1") == 120.0

    clock.advance(365 * 86400)
    with caplog.at_level(logging.WARNING):
        report(paired)
    assert seconds(paired, "heating_stage_1") == 120.0 + max_step(paired)
    assert "which cannot be" in caplog.text


async def test_relay_states_of_the_wrong_type_are_off(paired: ThermostatService) -> None:
    """`"true"`, 1, null, an object: not JSON true, so not running; nothing raises."""
    for value in ("true", 1, None, {"on": True}, [True]):
        report(paired, hvac_heater_state=value)
        run(paired, 1)
    assert paired.runtime.figures(SERIAL).seconds == {}
    assert paired.runtime.figures(SERIAL).cycles == {}


async def test_energy_accrues_at_the_rate_of_its_time(paired: ThermostatService) -> None:
    """2 kW for 30 min is 1 kWh; a new rate applies from then on, not to what ran before."""
    paired.runtime.set_rates(SERIAL, {"heating_stage_1": {"electricity": 2.0, "gas": 1.5}})
    report(paired, hvac_heater_state=True)
    run(paired, 30)
    assert paired.runtime.figures(SERIAL).energy == pytest.approx({"electricity": 1.0, "gas": 0.75})
    paired.runtime.set_rates(SERIAL, {"heating_stage_1": {"electricity": 4.0}})
    run(paired, 15)
    report(paired, hvac_heater_state=False)
    assert paired.runtime.figures(SERIAL).energy == pytest.approx({"electricity": 2.0, "gas": 0.75})


async def test_implausible_rates_are_refused_with_a_warning(
    paired: ThermostatService, caplog: pytest.LogCaptureFixture
) -> None:
    """A negative, infinite or huge rate, or one of unknown equipment, counts nothing."""
    paired.runtime.set_rates(
        SERIAL,
        {
            "heating_stage_1": {"electricity": -1.0, "gas": float("inf")},
            "fan": {"electricity": 5000.0},
            "boiler": {"electricity": 1.0},
        },
    )
    report(paired, hvac_heater_state=True, hvac_fan_state=True)
    run(paired, 10)
    assert paired.runtime.figures(SERIAL).energy == {}
    assert caplog.text.count("Ignoring") >= 3


async def test_stored_figures_that_cannot_be_are_dropped(caplog: pytest.LogCaptureFixture) -> None:
    """Negative, text or unknown figures in the file are left out; the rest loads."""
    storage = MemoryStorage(
        {
            "runtime": {
                SERIAL: {
                    "seconds": {
                        "fan": 12.5,
                        "heating_stage_1": -4,
                        "boiler": 3,
                        "cooling_stage_1": "x",
                    },
                    "cycles": {"heating": 2, "cooling": float("nan")},
                    "energy": "lots",
                },
                "OTHER": [],
            }
        }
    )
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000", save_delay=0), storage, FakeClock()
    )
    await service.async_load()
    figures = service.runtime.figures(SERIAL)
    assert figures.seconds == {"fan": 12.5}
    assert figures.cycles == {"heating": 2}
    assert figures.energy == {}
    assert "Ignoring stored" in caplog.text
    await service.async_stop()


async def test_figures_the_host_showed_raise_lower_ones(paired: ThermostatService) -> None:
    """After a crash between a recorded state and its save, the recorded figure wins."""
    report(paired, hvac_fan_state=True)
    run(paired, 1)
    paired.runtime.note_shown(SERIAL, {"fan": 30.0, "heating_stage_1": 7200.0}, {"heating": 4}, {})
    figures = paired.runtime.figures(SERIAL)
    assert figures.seconds == {"fan": 60.0, "heating_stage_1": 7200.0}
    assert figures.cycles == {"heating": 4}


# Values a JSON document can carry (the store refuses integers beyond 64 bits on its own).
RELAY_VALUES = st.one_of(
    st.booleans(), st.none(), st.integers(-(2**63), 2**63 - 1), st.text(max_size=3)
)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    steps=timed_reports(
        7 * 86400, ["hvac_heater_state", "hvac_ac_state", "hvac_fan_state"], RELAY_VALUES
    )
)
async def test_any_reports_at_any_times_only_ever_add_plausible_time(
    steps: list[tuple[float, str, object]],
) -> None:
    """Whatever the thermostat reports, whenever: figures never fall, never pass wall time."""
    clock = FakeClock()
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000", save_delay=0), MemoryStorage(), clock
    )
    await service.async_load()
    pair(service, SERIAL)
    report(service)
    last = service.runtime.figures(SERIAL)
    counted_limit = 0.0
    try:
        for advance, field, value in steps:
            clock.advance(advance)
            counted_limit += min(max(advance, 0), max_step(service))
            report(service, SHARED, **{field: value})
            now = service.runtime.figures(SERIAL)
            for equipment, total in now.seconds.items():
                assert total >= last.seconds.get(equipment, 0.0)
                assert total <= counted_limit + 1e-6
            for cycle, count in now.cycles.items():
                assert count >= last.cycles.get(cycle, 0)
            last = now
    finally:
        await service.async_stop()
