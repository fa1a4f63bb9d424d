"""Many simulated thermostats at once, each running the firmware's subscribe loop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable, Iterator, Sequence
import gc
import statistics
import time
from typing import Any

import aiohttp

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import SimulatedThermostat

from .options import int_options
from .unsaved import UnsavedStorage


def bench_serial(index: int) -> str:
    """Return a valid serial (alphanumeric, 16 characters) for the index-th simulated thermostat."""
    return f"BENCH{index:011d}"


def initial_buckets(serial: str) -> dict[str, dict[str, object]]:
    """Return what a freshly booted heat/cool thermostat reports on its first subscribe."""
    return {
        f"shared.{serial}": {
            "target_temperature": 20.0,
            "target_temperature_type": "heat",
            "current_temperature": 20.5,
            "can_heat": True,
            "can_cool": True,
            "hvac_heater_state": False,
        },
        f"device.{serial}": {"temperature_scale": "C", "has_fan": True},
    }


def seed(service: ThermostatService, serials: Iterable[str]) -> None:
    """Give the service thermostats that reported `initial_buckets` (no socket, no session)."""
    for serial in serials:
        harness(service).seed(serial, initial_buckets(serial))


async def seeded_service(size: int) -> tuple[ThermostatService, list[str]]:
    """Return a started service core with `size` thermostats `seed`ed, and their serials."""
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:1", max_unpaired_devices=1 << 20),
        UnsavedStorage(),
    )
    await service.async_load()
    service.start()
    fleet = [bench_serial(index) for index in range(size)]
    seed(service, fleet)
    return service, fleet


def cpu_us_each[T](items: Sequence[T], act: Callable[[T], object]) -> float:
    """Return the CPU time (µs) per item of `act` over `items`, the garbage collector held off."""
    gc.collect()
    gc.disable()
    try:
        started = time.thread_time()
        for item in items:
            act(item)
        return (time.thread_time() - started) / len(items) * 1e6
    finally:
        gc.enable()


def print_cpu_figures(
    description: str,
    size: str,
    measure: Callable[[int, int], Coroutine[Any, Any, list[float]]],
    what: Callable[[int], str],
) -> None:
    """Run a CPU bench from its command line (`--rounds`, `--<size>`) and print its median."""
    args = int_options(description, rounds=15, **{size: 1000})
    count = getattr(args, size)
    figures = asyncio.run(measure(args.rounds, count))
    print(
        f"{what(count)}: median {statistics.median(figures):.1f} µs "
        f"(min {min(figures):.1f}, {args.rounds} rounds)"
    )


class Fleet:
    """Simulated thermostats sharing one HTTP client, started in waves."""

    def __init__(self, device_url: str, *, wave: int = 250, timeout: float = 120.0) -> None:
        """Initialize an empty fleet against a device URL."""
        self.device_url = device_url
        self.wave = wave
        self.timeout = timeout
        """Upper bound, in seconds, on any one wait for the fleet."""
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, limit_per_host=0),
            timeout=aiohttp.ClientTimeout(total=30),
        )
        self.thermostats: list[SimulatedThermostat] = []

    def __len__(self) -> int:
        """Return how many thermostats the fleet has."""
        return len(self.thermostats)

    def __iter__(self) -> Iterator[SimulatedThermostat]:
        """Iterate over the fleet's thermostats."""
        return iter(self.thermostats)

    async def grow(self, count: int) -> None:
        """Start thermostats until `count` run; returns when every one holds an idle subscribe.

        A new thermostat's first subscribe carries its state inline and gets it back with
        server revisions at once; it resubscribes after the batch window and is then idle.
        Waves keep the connection rate within the listener's accept backlog.
        """
        async with asyncio.timeout(self.timeout):
            while len(self.thermostats) < count:
                first = len(self.thermostats)
                batch = []
                for index in range(first, min(count, first + self.wave)):
                    serial = bench_serial(index)
                    thermostat = SimulatedThermostat(
                        self.device_url, serial, self.http, buckets=initial_buckets(serial)
                    )
                    thermostat.start()
                    batch.append(thermostat)
                self.thermostats.extend(batch)
                await asyncio.gather(*(t.closes.get() for t in batch))
        await self.settle()

    async def settle(self) -> None:
        """Wait until every thermostat holds a subscribe that nothing was pushed on yet."""
        async with asyncio.timeout(self.timeout):
            for thermostat in self.thermostats:
                await thermostat.waiting.wait()
        self.drain()

    def drain(self) -> None:
        """Forget chunks and closes seen so far."""
        for thermostat in self.thermostats:
            while not thermostat.received.empty():
                thermostat.received.get_nowait()
            while not thermostat.closes.empty():
                thermostat.closes.get_nowait()

    async def next_waiting(
        self, start: int, among: Sequence[SimulatedThermostat] | None = None
    ) -> tuple[int, SimulatedThermostat]:
        """Return the first thermostat waiting idle, round robin from `start`.

        Return the first thermostat from index `start` on (round robin) that is waiting idle, of
        `among` (default: the whole fleet); the index is into `among`.
        """
        pool = self.thermostats if among is None else among
        size = len(pool)
        for offset in range(size):
            index = (start + offset) % size
            if pool[index].waiting.is_set():
                return index, pool[index]
        thermostat = pool[start % size]
        async with asyncio.timeout(self.timeout):
            await thermostat.waiting.wait()
        return start % size, thermostat

    async def close(self) -> None:
        """Stop every subscribe loop and close the client."""
        await asyncio.gather(*(t.stop() for t in self.thermostats))
        self.thermostats.clear()
        await self.http.close()
