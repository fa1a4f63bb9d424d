"""What the health monitor adds to a device PUT: `python -m bench.health_cost`.

Pairs N thermostats in the service core and times the device session's PUT (what the HTTP
handler calls once it parsed a request) of reports of the room temperature (the usual report:
each one judges the room against its limits), on a fleet of its own, and of reports that
switch a relay (each one starts or ends a call and counts a start: the worst case, as within
a round every thermostat flips its relay so often that all of them are found short-cycling), with the monitor following
and with it taken off every path it hears (as before it existed), in
alternating rounds (which goes first alternating too), so both see the same machine. Timed as
the process's CPU time: the neighbours' load on a shared machine does not inflate it.
"""

from __future__ import annotations

import asyncio
import time

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService

from .core_listeners import Costs, arguments, pair, print_costs, with_and_without
from .fleet import bench_serial
from .runtime_cost import time_puts
from .unsaved import UnsavedStorage


async def _time_kind(thermostats: int, puts: int, rounds: int, relay: bool) -> Costs:
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
    try:
        return with_and_without(
            service,
            "health",
            rounds,
            ("relay" if relay else "temperature",),
            lambda _: time_puts(service, claims, puts, relay, time.process_time_ns),
        )
    finally:
        await service.async_stop()


async def _run(thermostats: int, puts: int, rounds: int) -> Costs:
    return {
        **await _time_kind(thermostats, puts, rounds, relay=False),
        **await _time_kind(thermostats, puts, rounds, relay=True),
    }


def main() -> None:
    """Print the mean cost of a PUT with and without the health monitor."""
    args = arguments("health_cost", __doc__, puts=20_000)
    print_costs(args, asyncio.run(_run(args.thermostats, args.puts, args.rounds)), "monitor")


if __name__ == "__main__":
    main()
