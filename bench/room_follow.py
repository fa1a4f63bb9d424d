"""What following a room costs: `python -m bench.room_follow`.

The service core in this process, one thermostat holding a connection whose writes go nowhere,
following a room. Timed: one followed-sensor update (the glue's call on a sensor's state; here
each one also brings the room back in control, so it re-sends the setpoint), and one re-shift
(a new offset: the setpoint is sent again through the command layer). The line gives the
medians.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness
from custom_components.thermostat_cloud.server.delivery import HeldConnection

from .confirmation_cost import _Nowhere
from .fleet import bench_serial, initial_buckets, seed
from .options import int_options
from .unsaved import UnsavedStorage


class _Clock:
    """A wall clock the bench moves past the re-send rate limit."""

    def __init__(self) -> None:
        self.ms = time.time_ns() // 1_000_000

    def now_ms(self) -> int:
        return self.ms


async def measure(rounds: int) -> str:
    """Return one line: per followed-sensor update, and per re-shift."""
    clock = _Clock()
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:1"), UnsavedStorage(), clock
    )
    await service.async_load()
    service.start()
    serial = bench_serial(0)
    seed(service, [serial])
    conn = HeldConnection(serial=serial, session="bench")
    harness(service).delivery.hold(conn, dict.fromkeys(initial_buckets(serial), 0), _Nowhere())
    rooms = service.rooms
    rooms.configure(serial, offset=0.0, sensors=("sensor.room",))
    own = service.thermostat(serial).current_temperature or 20.0
    updates: list[float] = []
    reshifts: list[float] = []
    for index in range(rounds):
        started = time.perf_counter()
        rooms.note_room(serial, own + 0.01 * (index % 3), ("sensor.room",))
        updates.append(time.perf_counter() - started)
        # Each offset is a step away from the last: the configured change re-sends at once.
        started = time.perf_counter()
        rooms.configure(serial, offset=1.0 if index % 2 else -1.0)
        reshifts.append(time.perf_counter() - started)
        rooms.configure(serial, offset=0.0, sensors=("sensor.room",))
        clock.ms += 6 * 60_000  # past the rate limit, so every re-shift sends
    service.close_connections()
    await service.async_stop()
    return (
        f"room follow: sensor update {statistics.median(updates) * 1e6:.1f} µs, "
        f"re-shift {statistics.median(reshifts) * 1e6:.1f} µs (medians of {rounds})"
    )


def main() -> None:
    """Print the costs."""
    args = int_options(__doc__, rounds=200)
    print(asyncio.run(measure(args.rounds)))


if __name__ == "__main__":
    main()
