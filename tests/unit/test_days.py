"""Each thermostat's days as the core keeps them: runtime, degree-days, eco and away, reasons.

The thermostat reports through the device session's PUT (the path firmware's reports take), the
host gives the outdoor temperature every five minutes, and the test moves the clock through
whole days of the home's time zone (Europe/Berlin: its daylight saving days are 23 and 25 hours).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from custom_components.thermostat_cloud.server import Author, ServiceConfig, ThermostatService
from tests.conftest import SERIAL, FakeClock, MemoryStorage

from .conftest import DEVICE, pair, report
from .test_runtime import clock_of

BERLIN = ZoneInfo("Europe/Berlin")
CONFIG = ServiceConfig(api_origin="http://127.0.0.1:8000", save_delay=0, time_zone="Europe/Berlin")
STEP_S = 300


def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> int:
    """Return a wall-clock time of the home as Unix ms."""
    return int(datetime(year, month, day, hour, minute, tzinfo=BERLIN).timestamp() * 1000)


async def started(storage: MemoryStorage, clock: FakeClock) -> ThermostatService:
    """Return a service loaded from `storage`, the thermostat in contact and everything off."""
    service = ThermostatService(CONFIG, storage, clock)
    await service.async_load()
    report(service, hvac_heater_state=False, hvac_ac_state=False)
    return service


@pytest.fixture
async def paired() -> AsyncGenerator[ThermostatService]:
    """Return a service whose thermostat is paired, on Monday 2 November 2026 at midnight."""
    service = await started(MemoryStorage(), FakeClock(at(2026, 11, 2)))
    pair(service, SERIAL)
    report(service)
    yield service
    await service.async_stop()


def live(service: ThermostatService, until_ms: int, outdoor_c: float | None, **relays: Any) -> None:
    """Let time pass to `until_ms` in five-minute steps: the weather taken, the thermostat heard."""
    if relays:
        report(service, **relays)
    clock = clock_of(service)
    while clock.now_ms() < until_ms:
        clock.now = min(until_ms, clock.now_ms() + STEP_S * 1000)
        if outdoor_c is not None:
            service.days.note_outdoor(outdoor_c)
        report(service)


def live_day(service: ThermostatService, day: date, outdoor_c: float, heating_h: float) -> None:
    """Live one day: the heating from 08:00 for `heating_h` hours, the weather all day."""
    y, m, d = day.year, day.month, day.day
    service.days.note_outdoor(outdoor_c)  # at midnight: the day's weather from its start
    live(service, at(y, m, d, 8), outdoor_c)
    live(service, at(y, m, d, 8) + int(heating_h * 3600_000), outdoor_c, hvac_heater_state=True)
    report(service, hvac_heater_state=False)
    live(service, at(y, m, d, 23, 59) + 60_000, outdoor_c)


def day_of(service: ThermostatService, day: date) -> dict[str, Any]:
    """Return the report of one day."""
    (found,) = service.days.report(SERIAL, day, day)["days"]
    return dict(found)


async def test_a_cold_day_and_a_mild_day_against_the_weeks_average(
    paired: ThermostatService,
) -> None:
    """Five days at 10 °C with 2 h of heating; then -5 °C and 6 h, then 16 °C and half an hour."""
    for day in range(2, 7):
        live_day(paired, date(2026, 11, day), 10.0, 2)
    live_day(paired, date(2026, 11, 7), -5.0, 6)
    live_day(paired, date(2026, 11, 8), 16.0, 0.5)

    usual, cold, mild = (day_of(paired, date(2026, 11, d)) for d in (6, 7, 8))
    assert usual["heating_degree_days"] == 8.0
    assert usual["runtime_hours"] == {"heating_stage_1": 2.0}
    assert usual["main_reason"] is None
    assert cold["heating_degree_days"] == 23.0
    assert cold["heating_hours"] == 6.0
    assert cold["main_reason"] == "colder"
    assert mild["heating_degree_days"] == 2.0
    assert mild["main_reason"] == "warmer"

    week = paired.days.report(SERIAL, date(2026, 11, 2), date(2026, 11, 8))["totals"]
    assert week["heating_hours"] == 5 * 2 + 6 + 0.5
    assert week["heating_degree_days"] == 5 * 8 + 23 + 2
    assert week["days_with_weather"] == 7


async def test_a_day_without_weather_has_no_degree_days(paired: ThermostatService) -> None:
    """No outdoor temperature that day: degree-days None, and the totals say so."""
    live(paired, at(2026, 11, 3), None)
    day = day_of(paired, date(2026, 11, 2))
    assert day["heating_degree_days"] is None
    assert day["cooling_degree_days"] is None
    totals = paired.days.report(SERIAL, date(2026, 11, 2), date(2026, 11, 2))["totals"]
    assert totals["days_with_weather"] == 0
    assert totals["heating_degree_days"] is None


@pytest.mark.parametrize(
    ("day", "hours"),
    [(date(2026, 10, 25), 25.0), (date(2026, 3, 29), 23.0)],
    ids=["autumn", "spring"],
)
async def test_the_daylight_saving_days_have_their_own_length(day: date, hours: float) -> None:
    """A whole day in eco is 25 hours in October, 23 in March; its neighbours 24 each."""
    service = await started(MemoryStorage(), FakeClock(at(day.year, day.month, day.day - 1, 12)))
    pair(service, SERIAL)
    report(service, DEVICE, eco={"mode": "manual-eco"})
    live(service, at(day.year, day.month, day.day + 1, 12), 5.0)

    before, that_day, after = service.days.report(
        SERIAL, date(day.year, day.month, day.day - 1), date(day.year, day.month, day.day + 1)
    )["days"]
    assert that_day["hours"] == hours
    assert that_day["eco_hours"] == hours
    assert before["eco_hours"] == 12.0
    assert after["eco_hours"] == 12.0
    # 13 °C below the base for the whole day, however long the day.
    assert that_day["heating_degree_days"] == round(13 * hours / 24, 2)
    await service.async_stop()


async def test_a_restart_on_the_months_boundary_loses_no_day_and_counts_none_twice() -> None:
    """Heating from 23:00 on 30 November; stopped 23:30 to 00:10; heating on to 01:00."""
    storage, clock = MemoryStorage(), FakeClock(at(2026, 11, 30, 22))
    first = await started(storage, clock)
    pair(first, SERIAL)
    live(first, at(2026, 11, 30, 23), 3.0)
    live(first, at(2026, 11, 30, 23, 30), 3.0, hvac_heater_state=True)
    await first.async_stop()

    clock.now = at(2026, 12, 1, 0, 10)
    second = ThermostatService(CONFIG, storage, clock)
    await second.async_load()
    report(second, hvac_heater_state=True)
    live(second, at(2026, 12, 1, 1), 3.0)
    report(second, hvac_heater_state=False)

    november = second.days.report(SERIAL, date(2026, 11, 1), date(2026, 11, 30))["totals"]
    december = second.days.report(SERIAL, date(2026, 12, 1), date(2026, 12, 31))["totals"]
    assert november["heating_hours"] == 0.5
    assert december["heating_hours"] == round(50 / 60, 2)
    total_s = second.runtime.figures(SERIAL).seconds["heating_stage_1"]
    assert total_s == 30 * 60 + 50 * 60  # the ledger's total is the days' sum: none twice
    await second.async_stop()


async def test_the_previous_versions_document_loads_and_the_days_begin() -> None:
    """A document saved before the days were kept (no `days` key): its runtime stays the past."""
    storage, clock = MemoryStorage(), FakeClock(at(2026, 11, 2, 8))
    first = await started(storage, clock)
    pair(first, SERIAL)
    live(first, at(2026, 11, 2, 9), 10.0, hvac_heater_state=True)
    report(first, hvac_heater_state=False)
    await first.async_stop()
    assert storage.data is not None
    previous = {key: value for key, value in storage.data.items() if key != "days"}

    second = await started(MemoryStorage(previous), clock)
    assert second.runtime.figures(SERIAL).seconds["heating_stage_1"] == 3600.0
    live(second, at(2026, 11, 2, 10), 10.0, hvac_heater_state=True)
    report(second, hvac_heater_state=False)
    assert day_of(second, date(2026, 11, 2))["heating_hours"] == 1.0
    await second.async_stop()


async def test_changes_are_counted_by_who_made_them(paired: ThermostatService) -> None:
    """Two dial turns and a command of the control API, on the day they were made."""
    report(paired, target_temperature=20.0)
    live(paired, at(2026, 11, 2, 9), 10.0)
    report(paired, target_temperature=21.0)
    report(paired, target_temperature=21.5)
    with paired.commands.acting_as(Author.api()):
        paired.commands.set_temperature(SERIAL, 19)
    assert day_of(paired, date(2026, 11, 2))["changes"] == {"api": 1, "dial": 2}
