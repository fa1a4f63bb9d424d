"""The home's monthly report as the core builds it from the thermostat's days.

The same home as test_days (Europe/Berlin, a thermostat reporting through the device session's
PUT, the weather every five minutes); the clock jumps over the days the test does not live.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from custom_components.thermostat_cloud.server import MIN_DAYS_WITH_DATA, ThermostatService
from tests.conftest import SERIAL, FakeClock, MemoryStorage

from .conftest import DEVICE, pair, report
from .test_days import at, live_day, started
from .test_runtime import clock_of

GAS_RATES = {SERIAL: {"heating_stage_1": {"gas": 1.5}}}


def live_days(
    service: ThermostatService, first: date, count: int, outdoor_c: float, hours: float
) -> None:
    """Jump to `first` and live `count` days from it."""
    clock_of(service).now = at(first.year, first.month, first.day)
    for n in range(count):
        live_day(service, date(first.year, first.month, first.day + n), outdoor_c, hours)


def month_report(
    service: ThermostatService, month: date, health_findings: Mapping[str, int] | None = None
) -> dict[str, Any] | None:
    """Return the report of `month` with the gas rates and a gas price."""
    return service.monthly_report(
        month, [SERIAL], rates=GAS_RATES, prices={"gas": 0.9}, health_findings=health_findings or {}
    )


async def test_a_month_against_the_month_before_per_degree_day() -> None:
    """September's last 10 days at 10 °C, 2 h a day. October: 10 days at 5 °C, 3 h a day.

    October ran 50 % more, but per degree-day (8 then, 13 now) 7.7 % less.
    """
    service = await started(MemoryStorage(), FakeClock(at(2026, 9, 21)))
    pair(service, SERIAL)
    live_days(service, date(2026, 9, 21), 10, 10.0, 2)
    live_days(service, date(2026, 10, 1), 10, 5.0, 3)
    report(service, DEVICE, filter_replacement_needed=True, filter_runtime_sec=360000)

    october = month_report(service, date(2026, 10, 1), health_findings={"short_cycling": 2})
    assert october is not None
    assert october["month"] == "2026-10"
    assert october["days_with_data"] == 10
    assert october["runtime_hours"] == {"heating_stage_1": 30.0}
    assert october["heating_degree_days"] == 130.0
    assert october["energy"] == {"gas": 45.0}
    assert october["cost"] == {"gas": 40.5}
    assert october["against_last_month"] == {
        "runtime_hours": 20.0,
        "change_percent": -7.7,
        "normalised": True,
    }
    assert october["against_last_year"] is None  # no October 2025
    # The first cold days stand out against September's average.
    assert october["top_reasons"][0]["reason"] == "colder"
    assert october["health_findings"] == {"short_cycling": 2}
    assert october["filters"] == {SERIAL: {"replacement_needed": True, "runtime_hours": 100.0}}
    await service.async_stop()


async def test_a_month_with_too_few_days_has_no_report() -> None:
    """One day short of the rule: no report, and none to compare with either."""
    service = await started(MemoryStorage(), FakeClock(at(2026, 10, 1)))
    pair(service, SERIAL)
    live_days(service, date(2026, 10, 1), MIN_DAYS_WITH_DATA - 1, 5.0, 1)
    assert month_report(service, date(2026, 10, 1)) is None
    live_days(service, date(2026, 10, MIN_DAYS_WITH_DATA), 1, 5.0, 1)
    assert month_report(service, date(2026, 10, 1)) is not None
    await service.async_stop()


async def test_the_month_reported_is_kept_and_the_previous_document_loads() -> None:
    """Saved under `days`; a document from before (no `monthly_reported`) has reported none."""
    storage, clock = MemoryStorage(), FakeClock(at(2026, 11, 1, 0, 1))
    first = await started(storage, clock)
    pair(first, SERIAL)
    assert first.days.reported_month is None
    first.days.mark_reported("2026-10")
    await first.async_stop()

    second = await started(storage, clock)
    assert second.days.reported_month == "2026-10"
    await second.async_stop()

    assert storage.data is not None
    previous = dict(storage.data)
    previous["days"] = {k: v for k, v in previous["days"].items() if k != "monthly_reported"}
    third = await started(MemoryStorage(previous), clock)
    assert third.days.reported_month is None
    await third.async_stop()
