"""What the health monitor adds to a device PUT: `python -m bench.health_cost`.

Pairs N thermostats in the service core and times the device session's PUT (what the HTTP
handler calls once it parsed a request) of reports of the room temperature (the usual report:
each one judges the room against its limits), on a fleet of its own, and of reports that
switch a relay (each one starts or ends a call and counts a start: the worst case, as within
a round every thermostat flips its relay so often that all of them are found short-cycling), with the monitor following
and with it taken off the write path and the contact path (as before it existed), in
alternating rounds (which goes first alternating too), so both see the same machine. Timed as
the process's CPU time: the neighbours' load on a shared machine does not inflate it.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService

from .core_listeners import pair, unhook
from .fleet import bench_serial
from .runtime_cost import time_puts
from .unsaved import UnsavedStorage


async def _time_kind(
    thermostats: int, puts: int, rounds: int, relay: bool
) -> dict[str, list[float]]:
    """Time one kind of report on its own fleet (relay flips leave every one short-cycling)."""
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000", max_unpaired_devices=1 << 20),
        UnsavedStorage(),
    )
    await service.async_load()
    service.start()
    claims = [
        (serial, pair(service, serial, {"can_heat": True}))
        for serial in map(bench_serial, range(thermostats))
    ]
    service.health.note_outdoor(3.0)
    results: dict[str, list[float]] = {"with": [], "without": []}
    try:
        for round_ in range(rounds):
            for monitor in ("with", "without") if round_ % 2 else ("without", "with"):
                rehook = unhook(service, service._health) if monitor == "without" else None
                results[monitor].append(
                    time_puts(service, claims, puts, relay, time.process_time_ns)
                )
                if rehook is not None:
                    rehook()
    finally:
        await service.async_stop()
    return results


async def _run(thermostats: int, puts: int, rounds: int) -> dict[str, dict[str, list[float]]]:
    return {
        "temperature": await _time_kind(thermostats, puts, rounds, relay=False),
        "relay": await _time_kind(thermostats, puts, rounds, relay=True),
    }


def main() -> None:
    """Print the mean cost of a PUT with and without the health monitor."""
    parser = argparse.ArgumentParser(prog="python -m bench.health_cost", description=__doc__)
    parser.add_argument("--thermostats", type=int, default=100)
    parser.add_argument("--puts", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    results = asyncio.run(_run(args.thermostats, args.puts, args.rounds))
    print(
        f"{args.thermostats} paired thermostats, {args.puts} PUTs per round, {args.rounds} rounds"
    )
    print("report      | monitor | µs per PUT: median (min..max)")
    for kind, by_monitor in results.items():
        for monitor, values in by_monitor.items():
            print(
                f"{kind:<11} | {monitor:<7} | {statistics.median(values):.1f} "
                f"({min(values):.1f}..{max(values):.1f})"
            )


if __name__ == "__main__":
    main()
