"""What runtime accounting adds to a device PUT: `python -m bench.runtime_cost`.

Pairs N thermostats in the service core and times the device session's PUT (what the HTTP
handler calls once it parsed a request) of reports that switch a relay, the worst case for the
runtime ledger (each one closes or opens an interval, counts a cycle and publishes), and of
reports of the room temperature, the common case. Each kind is timed with the ledger as it runs
and with it unhooked from every path it hears (as before it existed), in
alternating rounds, so both see the same machine.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import time
from typing import Any

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry

from .core_listeners import Costs, arguments, pair, print_costs, with_and_without
from .fleet import bench_serial
from .unsaved import UnsavedStorage


def time_puts(
    service: ThermostatService,
    claims: list[tuple[str, IdentityClaim]],
    puts: int,
    relay: bool,
    clock: Callable[[], int] = time.perf_counter_ns,
) -> float:
    """Return the mean µs per PUT of `puts` reports spread over the thermostats.

    Timed by `clock` (ns): wall time by default, `time.process_time_ns` for CPU time alone.
    """
    started = clock()
    for n in range(puts):
        serial, claim = claims[n % len(claims)]
        fields: dict[str, Any] = (
            {"hvac_heater_state": (n // len(claims)) % 2 == 0}
            if relay
            else {"current_temperature": 18 + (n % 40) / 10}
        )
        service.sessions.put(claim, [PutEntry(f"shared.{serial}", fields, None, 0)])
    return (clock() - started) / puts / 1000


async def _run(thermostats: int, puts: int, rounds: int) -> Costs:
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000", max_unpaired_devices=1 << 20),
        UnsavedStorage(),
    )
    await service.async_load()
    claims = [
        (serial, pair(service, serial, {"can_heat": True}))
        for serial in map(bench_serial, range(thermostats))
    ]
    try:
        return with_and_without(
            service,
            "runtime",
            rounds,
            ("relay", "temperature"),
            lambda kind: time_puts(service, claims, puts, kind == "relay"),
        )
    finally:
        await service.async_stop()


def main() -> None:
    """Print the mean cost of a PUT with and without runtime accounting."""
    args = arguments("runtime_cost", __doc__, puts=20_000)
    print_costs(args, asyncio.run(_run(args.thermostats, args.puts, args.rounds)), "ledger")


if __name__ == "__main__":
    main()
