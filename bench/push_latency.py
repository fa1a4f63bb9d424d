"""Command to bytes written, with Home Assistant's listeners attached: `python -m bench.push_latency`.

The service core in this process, one thermostat holding a subscribe (through the device
sessions, as the device surface does) whose sink notes when a push is handed to it, and
listeners on the service's event bus that stand for Home Assistant's: the coordinator, the
sensors, the binary sensors, the pairing sync (each `--listener-ms` of CPU per event) and the
repairs (`--repair-ms` more on a COMMANDS event: a repair issue written). A setpoint per round;
the figure is the CPU time (`time.thread_time`: a loaded machine's waiting is left out) from
the command's call to its push reaching the sink, median of the rounds. Where the push waits
for the listeners, their time is in it. For a before and after, copy this file, `fleet.py`
and `unsaved.py` into another checkout's `bench/` and run it there.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
import statistics
import time

from custom_components.thermostat_cloud.server import (
    EventKind,
    ServiceConfig,
    ServiceEvent,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core import IdentityClaim, ObjectDescriptor
from custom_components.thermostat_cloud.server.core.testing import harness

from .fleet import bench_serial, initial_buckets
from .unsaved import UnsavedStorage

LISTENERS = ("coordinator", "sensors", "binary sensors", "pairing sync")


def _burn(ms: float) -> None:
    """Spend `ms` of this thread's CPU time, as a listener doing its work would."""
    until = time.thread_time_ns() + int(ms * 1e6)
    while time.thread_time_ns() < until:
        pass


def _listener(ms: float, commands_ms: float = 0.0) -> Callable[[ServiceEvent], None]:
    def listen(event: ServiceEvent) -> None:
        _burn(ms + (commands_ms if event.kind is EventKind.COMMANDS else 0.0))

    return listen


class _NotesWrites:
    """A held subscribe's answer that notes when the first push reached it."""

    def __init__(self) -> None:
        self.written_ns: int | None = None

    async def write(self, data: bytes, /) -> None:
        """Note the time of the first chunk."""
        if self.written_ns is None:
            self.written_ns = time.thread_time_ns()


async def measure(rounds: int, listener_ms: float, repair_ms: float) -> list[float]:
    """Return each round's CPU time (ms) from a setpoint's call to its push written."""
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:1", max_unpaired_devices=16), UnsavedStorage()
    )
    await service.async_load()
    service.start()
    serial = bench_serial(0)
    core = harness(service)
    core.touch(serial)
    for key, value in initial_buckets(serial).items():
        core.merge(key, value)
    for _ in LISTENERS:
        service.events.listen(_listener(listener_ms))
    service.events.listen(_listener(listener_ms, repair_ms))  # the repairs
    sessions = service.sessions
    identity = sessions.contact(IdentityClaim(user_id=f"d.{serial}.bench"), session="bench")
    latencies: list[float] = []
    setpoint = 18.0
    for _ in range(rounds):
        listed = [
            ObjectDescriptor(key, bucket.revision, bucket.timestamp, None)
            for key in initial_buckets(serial)
            if (bucket := core.bucket(key)) is not None
        ]
        subscription = sessions.subscribe(identity, "bench", listed)
        sink = _NotesWrites()
        sessions.hold(subscription, sink)
        setpoint = 18.0 if setpoint >= 25.0 else setpoint + 0.5
        started = time.thread_time_ns()
        service.commands.set_temperature(serial, setpoint)
        assert sink.written_ns is not None, "the push was not written"
        latencies.append((sink.written_ns - started) / 1e6)
        service.close_connections()
        await subscription.connection.closed
        sessions.release(subscription)
        core.reopen()
    await service.async_stop()
    return latencies


def main() -> None:
    """Print the median CPU time from a setpoint's call to its push written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--listener-ms", type=float, default=0.3)
    parser.add_argument("--repair-ms", type=float, default=3.0)
    args = parser.parse_args()
    figures = asyncio.run(measure(args.rounds, args.listener_ms, args.repair_ms))
    print(
        f"command to push written, {len(LISTENERS) + 1} listeners of {args.listener_ms} ms "
        f"(+{args.repair_ms} ms on COMMANDS): median {statistics.median(figures):.3f} ms "
        f"CPU (min {min(figures):.3f}, max {max(figures):.3f}, {args.rounds} rounds)"
    )


if __name__ == "__main__":
    main()
