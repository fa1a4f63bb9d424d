"""The push path of a fan-out, without sockets: `python -m bench.fanout_cost`.

The service core in this process, a fleet of thermostats each holding a subscribe (through
the device sessions, as the device surface does) whose sink takes every write at once, and a
setpoint for each of them in one loop turn, as `bench/server.py`'s fan-out. The figure is the
CPU time (`time.thread_time`, so a loaded machine's waiting is left out) per command, median
of the rounds: what the command layer and delivery cost per pushed thermostat, without the
socket write that dominates the end-to-end fan-out.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
import gc
import statistics
import time

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, ObjectDescriptor

from .fleet import bench_serial, initial_buckets
from .unsaved import UnsavedStorage


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
        if (bucket := service._buckets.get(key)) is not None
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


async def measure(rounds: int, fanout: int) -> list[float]:
    """Return the CPU time per command (µs) of each round's fan-out."""
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:1", max_unpaired_devices=1 << 20),
        UnsavedStorage(),
    )
    await service.async_load()
    service.start()
    fleet = [bench_serial(index) for index in range(fanout)]
    for serial in fleet:
        service._devices.touch(serial)
        for key, value in initial_buckets(serial).items():
            service._buckets.merge(key, value)
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
        gc.collect()
        gc.disable()
        started = time.thread_time()
        for serial in fleet:  # one loop turn
            service.commands.set_temperature(serial, setpoint)
        per_command.append((time.thread_time() - started) / len(fleet) * 1e6)
        gc.enable()
        service._subscriptions.close_all()
        await asyncio.gather(*holds)
        service._subscriptions.reopen()
    await service.async_stop()
    return per_command


def main() -> None:
    """Print the median CPU time per command of a fan-out's push path."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--fanout", type=int, default=1000)
    args = parser.parse_args()
    figures = asyncio.run(measure(args.rounds, args.fanout))
    print(
        f"CPU per command in a fan-out to {args.fanout:,}: median "
        f"{statistics.median(figures):.1f} µs (min {min(figures):.1f}, {args.rounds} rounds)"
    )


if __name__ == "__main__":
    main()
