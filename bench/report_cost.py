"""What the energy history costs: `python -m bench.report_cost`.

Two figures (docs/energy-history.md):

- a month's report of a home with 3 thermostats, each with a year of days saved: the time of
  `days.report` for the three, the whole month with each day's reason against its 14 days;
- a thermostat's PUT through the device session, with the attribution (who made a change: the
  dial or its schedule, which reads the schedule) and with it switched off in the same process,
  in microseconds per PUT, median of runs after a warm-up: a PUT of the room temperature (what
  thermostats send all day) and a dial turn (a few a day).
"""

from __future__ import annotations

import asyncio
from datetime import date, timedelta
import statistics
import time

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry
from custom_components.thermostat_cloud.server.core.testing import harness

from .options import int_options
from .unsaved import UnsavedStorage

SERIALS = ("02AA01AC331400B1", "02AA01AC331400B2", "02AA01AC331400B3")
WEEK_SCHEDULE = {
    "ver": 2,
    "schedule_mode": "HEAT",
    "days": {
        str(day): {
            "0": {"time": 7 * 3600, "type": "HEAT", "temp": 21.0},
            "1": {"time": 22 * 3600, "type": "HEAT", "temp": 17.5},
        }
        for day in range(7)
    },
}


class ManualClock:
    """A clock the benchmark moves."""

    def __init__(self, now_ms: int) -> None:
        """Start at `now_ms`."""
        self.now = now_ms

    def now_ms(self) -> int:
        """Return the time in milliseconds."""
        return self.now


def year_of_days(last: date) -> dict[str, object]:
    """Return a saved `days` document: a year of days for each thermostat, weather every day."""
    thermostats: dict[str, dict[str, object]] = {}
    weather: dict[str, object] = {}
    for serial in SERIALS:
        days: dict[str, object] = {}
        total = 0.0
        for back in range(365, -1, -1):
            day = last - timedelta(days=back)
            heated = 3600.0 + (back % 7) * 600
            days[day.isoformat()] = {
                "opened": {"heating_stage_1": total},
                "closed": {"heating_stage_1": total + heated},
                "seconds": {"eco": 8 * 3600.0, "leaf": 3600.0},
                "changes": {"dial": back % 3, "person": back % 2},
                "schedule_edits": int(back % 30 == 0),
            }
            total += heated
            weather[day.isoformat()] = {
                "heating": (8 + back % 5) * 86400.0,
                "cooling": 0.0,
                "covered": 86400.0,
            }
        thermostats[serial] = days
    return {"thermostats": thermostats, "weather": weather}


async def month_report_s(runs: int) -> tuple[list[float], list[float]]:
    """Return the seconds each build of a month's report for the three thermostats took.

    First `get_energy_report`'s month, then the home's monthly report (with its comparisons
    with the month before and the same month a year before).
    """
    last = date(2026, 11, 30)
    clock = ManualClock(1_796_000_000_000)  # early December 2026
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:1", time_zone="Europe/Berlin"),
        UnsavedStorage(),
        clock,
    )
    await service.async_load()
    harness(service).load_days(year_of_days(last))
    times, monthly = [], []
    rates = {serial: {"heating_stage_1": {"gas": 1.5}} for serial in SERIALS}
    for _ in range(runs):
        started = time.perf_counter()
        for serial in SERIALS:
            service.days.report(serial, date(2026, 11, 1), last)
        times.append(time.perf_counter() - started)
        started = time.perf_counter()
        made = service.monthly_report(
            last, list(SERIALS), rates=rates, prices={"gas": 0.9}, health_findings={}
        )
        monthly.append(time.perf_counter() - started)
        assert made is not None
    await service.async_stop()
    return times, monthly


async def put_us(puts: int) -> dict[tuple[str, bool], float]:
    """Return microseconds per PUT by (field, attribution on)."""
    serial = SERIALS[0]
    claim = IdentityClaim(user_id=f"d.{serial}.abc", password="secret", address="127.0.0.5")
    clock = ManualClock(1_796_000_000_000)
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:1", time_zone="Europe/Berlin"),
        UnsavedStorage(),
        clock,
    )
    await service.async_load()
    service.sessions.put(
        claim, [PutEntry(f"shared.{serial}", {"target_temperature": 20.0}, None, 0)]
    )
    service.sessions.put(claim, [PutEntry(f"schedule.{serial}", WEEK_SCHEDULE, None, 0)])
    service.pairing.register(harness(service).pairing_code(serial))

    def timed(field: str, base: float) -> float:
        started = time.perf_counter()
        for index in range(puts):
            clock.now += 1000
            fields = {field: base + (index % 2)}
            service.sessions.put(claim, [PutEntry(f"shared.{serial}", fields, None, 0)])
        return (time.perf_counter() - started) / puts * 1e6

    found: dict[tuple[str, bool], float] = {}
    timed("target_temperature", 19.0)  # warm-up
    for on in (True, False, True, False):
        restore = None if on else harness(service).mute_attribution()
        for field, base in (("current_temperature", 20.0), ("target_temperature", 19.0)):
            found[(field, on)] = min(found.get((field, on), 1e9), timed(field, base))
        if restore is not None:
            restore()
    await service.async_stop()
    return found


async def main(runs: int, puts: int) -> None:
    """Print both figures."""
    times, monthly = await month_report_s(runs)
    for what, taken in (("month report", times), ("home's monthly report", monthly)):
        print(
            f"{what}, 3 thermostats, a year of days each: median "
            f"{statistics.median(taken) * 1000:.1f} ms, max {max(taken) * 1000:.1f} ms ({runs} runs)"
        )
    runs_us = [await put_us(puts) for _ in range(runs)]
    for field, what in (
        ("current_temperature", "room temperature"),
        ("target_temperature", "dial turn"),
    ):
        on = statistics.median(r[(field, True)] for r in runs_us)
        off = statistics.median(r[(field, False)] for r in runs_us)
        print(
            f"PUT of a {what}: attributed {on:.0f} us, attribution off {off:.0f} us ({runs} runs of {puts})"
        )


if __name__ == "__main__":
    arguments = int_options(__doc__, runs=5, puts=2000)
    asyncio.run(main(arguments.runs, arguments.puts))
