"""What runtime accounting adds to a device PUT: `python -m bench.runtime_cost`.

Pairs N thermostats in the service core and times the device session's PUT (what the HTTP
handler calls once it parsed a request) of reports that switch a relay, the worst case for the
runtime ledger (each one closes or opens an interval, counts a cycle and publishes), and of
reports of the room temperature, the common case. Each kind is timed with the ledger as it runs
and with it unhooked from the contact path and the event bus (as before it existed), in
alternating rounds, so both see the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry

from .core_listeners import pair, unhook
from .fleet import bench_serial
from .unsaved import UnsavedStorage


def _time_puts(
    service: ThermostatService, claims: list[tuple[str, IdentityClaim]], puts: int, relay: bool
) -> float:
    """Return the mean µs per PUT of `puts` reports spread over the thermostats."""
    started = time.perf_counter_ns()
    for n in range(puts):
        serial, claim = claims[n % len(claims)]
        fields: dict[str, Any] = (
            {"hvac_heater_state": (n // len(claims)) % 2 == 0}
            if relay
            else {"current_temperature": 18 + (n % 40) / 10}
        )
        service.sessions.put(claim, [PutEntry(f"shared.{serial}", fields, None, 0)])
    return (time.perf_counter_ns() - started) / puts / 1000


async def _run(thermostats: int, puts: int, rounds: int) -> dict[str, dict[str, list[float]]]:
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000", max_unpaired_devices=1 << 20),
        UnsavedStorage(),
    )
    await service.async_load()
    claims = [
        (serial, pair(service, serial, {"can_heat": True}))
        for serial in map(bench_serial, range(thermostats))
    ]
    results: dict[str, dict[str, list[float]]] = {
        kind: {"with": [], "without": []} for kind in ("relay", "temperature")
    }
    try:
        for _ in range(rounds):
            for kind in results:
                relay = kind == "relay"
                results[kind]["with"].append(_time_puts(service, claims, puts, relay))
                rehook = unhook(service, service._runtime)
                results[kind]["without"].append(_time_puts(service, claims, puts, relay))
                rehook()
    finally:
        await service.async_stop()
    return results


def main() -> None:
    """Print the mean cost of a PUT with and without runtime accounting."""
    parser = argparse.ArgumentParser(prog="python -m bench.runtime_cost", description=__doc__)
    parser.add_argument("--thermostats", type=int, default=100)
    parser.add_argument("--puts", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    results = asyncio.run(_run(args.thermostats, args.puts, args.rounds))
    print(
        f"{args.thermostats} paired thermostats, {args.puts} PUTs per round, {args.rounds} rounds"
    )
    print("report      | ledger  | µs per PUT: median (min..max)")
    for kind, by_ledger in results.items():
        for ledger, values in by_ledger.items():
            print(
                f"{kind:<11} | {ledger:<7} | {statistics.median(values):.1f} "
                f"({min(values):.1f}..{max(values):.1f})"
            )


if __name__ == "__main__":
    main()
