"""What planning an arrival costs: `python -m bench.arrival`.

Pairs N thermostats in the service core, each with a week schedule, its eco temperatures and
a time-to-target (a rate to plan by), and times the two things an arrival does: planning its
start (`arrivals.start_ms`: the longest lead of the home's thermostats, what the sensor, the
card and every re-plan read) and `arrivals.set` (checked, saved, announced, the timer armed).
Both are per call, never per device report: learning stays incremental (bench.house_model).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
import statistics
import time

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core import PutEntry
from thermostat_sim import WEEK_SCHEDULE

from .core_listeners import pair
from .fleet import bench_serial
from .options import int_options
from .unsaved import UnsavedStorage


def _median_us(call: object, repeats: int) -> tuple[float, float, float]:
    """Return the median, lowest and highest µs of `repeats` calls."""
    assert callable(call)
    times = []
    for _ in range(repeats):
        started = time.perf_counter_ns()
        call()
        times.append((time.perf_counter_ns() - started) / 1000)
    return statistics.median(times), min(times), max(times)


async def _run(thermostats: int, repeats: int) -> tuple[dict[str, tuple[float, float, float]], int]:
    """Return the costs, and the lead planned (minutes): proof the planning had rates."""
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000", max_unpaired_devices=1 << 20),
        UnsavedStorage(),
    )
    await service.async_load()
    now_s = int(time.time())
    for serial in map(bench_serial, range(thermostats)):
        shared = {
            "can_heat": True,
            "target_temperature_type": "heat",
            "target_temperature": 21.0,
            "current_temperature": 18.0,
        }
        claim = pair(service, serial, shared)
        service.sessions.put(
            claim,
            [
                PutEntry(f"schedule.{serial}", dict(WEEK_SCHEDULE), None, 0),
                PutEntry(
                    f"device.{serial}",
                    {
                        "away_temperature_low": 12.5,
                        "away_temperature_high": 30.0,
                        "time_to_target": now_s + 1800,
                    },
                    None,
                    0,
                ),
            ],
        )
    service.start()
    arrivals = service.arrivals
    try:
        arrival = arrivals.set(travel=timedelta(hours=5))
        start_ms = arrivals.start_ms()
        assert start_ms is not None
        costs = {
            "plan the start": _median_us(arrivals.start_ms, repeats),
            "set_arrival": _median_us(lambda: arrivals.set(travel=timedelta(hours=5)), repeats),
        }
        return costs, (arrival.arrival_ms - start_ms) // 60_000
    finally:
        arrivals.cancel()
        await service.async_stop()


def main() -> None:
    """Print the µs of planning an arrival's start and of setting one, for N thermostats."""
    args = int_options(__doc__, "python -m bench.arrival", thermostats=10, repeats=1000)
    costs, lead_min = asyncio.run(_run(args.thermostats, args.repeats))
    print(
        f"{args.thermostats} paired thermostats in the home, {args.repeats} calls each; "
        f"the home leaves eco {lead_min} min ahead"
    )
    for name, (median, low, high) in costs.items():
        print(f"{name:<15} | {median:.1f} µs median ({low:.1f}..{high:.1f})")


if __name__ == "__main__":
    main()
