"""The push path of a fan-out, without sockets: `python -m bench.fanout_cost`.

The service core in this process, a fleet of thermostats each holding a subscribe (through
the device sessions, as the device surface does) whose sink takes every write at once, and a
setpoint for each of them in one loop turn, as `bench/server.py`'s fan-out. The figure is the
CPU time (`time.thread_time`, so a loaded machine's waiting is left out) per command, median
of the rounds: what the command layer and delivery cost per pushed thermostat, without the
socket write that dominates the end-to-end fan-out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial

from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, ObjectDescriptor
from custom_components.thermostat_cloud.server.core.testing import harness

from .fleet import cpu_us_each, initial_buckets, print_cpu_figures, seeded_service


class _TakesEverything:
    """A held subscribe's answer whose socket takes every write at once."""

    async def write(self, data: bytes, /) -> None:
        """Take the chunk."""


async def _hold(service: ThermostatService, serial: str, ready: Callable[[], None]) -> None:
    """Hold one thermostat's subscribe, listing what it has, until the connection closes."""
    sessions = service.sessions
    identity = sessions.contact(IdentityClaim(user_id=f"d.{serial}.bench"), session="bench")
    listed = [
        ObjectDescriptor(key, bucket.revision, bucket.timestamp, None)
        for key in initial_buckets(serial)
        if (bucket := harness(service).bucket(key)) is not None
    ]
    subscription = sessions.subscribe(identity, "bench", listed)
    sessions.hold(subscription, _TakesEverything())
    ready()
    try:
        await subscription.connection.closed
    finally:
        sessions.release(subscription)


def _count_down(waiting: list[int], held: asyncio.Event) -> Callable[[], None]:
    """Return a callback that sets `held` once called `waiting[0]` times in all."""

    def ready() -> None:
        waiting[0] -= 1
        if not waiting[0]:
            held.set()

    return ready


def _set(service: ThermostatService, setpoint: float, serial: str) -> None:
    service.commands.set_temperature(serial, setpoint)


async def measure(rounds: int, fanout: int) -> list[float]:
    """Return the CPU time per command (µs) of each round's fan-out."""
    service, fleet = await seeded_service(fanout)
    setpoint = 18.0
    per_command: list[float] = []
    for _ in range(rounds):
        waiting = [len(fleet)]
        held = asyncio.Event()
        holds = [
            asyncio.create_task(_hold(service, serial, _count_down(waiting, held)))
            for serial in fleet
        ]
        await held.wait()
        setpoint = 18.0 if setpoint >= 25.0 else setpoint + 0.5
        per_command.append(  # one loop turn
            cpu_us_each(fleet, partial(_set, service, setpoint))
        )
        service.close_connections()
        await asyncio.gather(*holds)
        harness(service).reopen()
    await service.async_stop()
    return per_command


if __name__ == "__main__":
    print_cpu_figures(
        __doc__, "fanout", measure, lambda size: f"CPU per command in a fan-out to {size:,}"
    )
