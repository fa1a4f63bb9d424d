"""What following commands until they are confirmed costs: `python -m bench.confirmation_cost`.

The service core in this process, one thermostat holding a connection whose writes go
nowhere, and the two paths the bookkeeping sits on: a command that is pushed (the push path:
`Commands.set_temperature` to the written push), a device PUT (the report path: a reading,
then the acknowledgement that confirms the command) and a fan-out (a command to each of many
thermostats in one loop turn). Each is timed with the bookkeeping as it
runs and with it replaced by no-ops, in alternating rounds so the machine's load falls on
both alike; the line gives the medians and the difference.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from typing import Any

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry
from custom_components.thermostat_cloud.server.core.testing import harness
from custom_components.thermostat_cloud.server.delivery import HeldConnection

from .fleet import bench_serial, initial_buckets, seed
from .options import int_options
from .unsaved import UnsavedStorage


def _nothing(*_: Any) -> None:
    """Do nothing, in place of the bookkeeping."""


class _Nowhere:
    """A held connection's sink whose writes go nowhere (the socket is not measured)."""

    async def write(self, data: bytes, /) -> None:
        """Take the chunk."""


def _hold(service: ThermostatService, serial: str) -> None:
    """Give the service a thermostat holding a connection whose writes go nowhere."""
    seed(service, [serial])
    conn = HeldConnection(serial=serial, session="bench")
    harness(service).delivery.hold(conn, dict.fromkeys(initial_buckets(serial), 0), _Nowhere())


async def measure(rounds: int, per_round: int, fanout: int) -> str:
    """Return one line: per command, per PUT and per fanned-out command, with and without."""
    service = ThermostatService(ServiceConfig(api_origin="http://127.0.0.1:1"), UnsavedStorage())
    await service.async_load()
    service.start()
    serial = bench_serial(0)
    fleet = [bench_serial(index) for index in range(fanout)]
    for each in fleet:
        _hold(service, each)
    claim = IdentityClaim(user_id=f"d.{serial}.bench")
    key = f"shared.{serial}"
    setpoint = 18.0
    confirmations = harness(service).confirmations
    real = {
        name: getattr(confirmations, name)
        for name in ("asked", "written", "reported", "listed", "conflicted")
    }

    def switch(on: bool) -> None:
        for name, method in real.items():
            setattr(confirmations, name, method if on else _nothing)
        harness(service).on_written(real["written"] if on else _nothing)

    timings: dict[tuple[str, bool], list[float]] = {}
    for index in range(rounds):
        for on in (index % 2 == 0, index % 2 == 1):
            switch(on)
            command = put = 0.0
            for _ in range(per_round):
                setpoint = 18.0 if setpoint >= 25.0 else setpoint + 0.5
                started = time.perf_counter()
                service.commands.set_temperature(serial, setpoint)
                command += time.perf_counter() - started
                revision = harness(service).bucket(key).revision  # type: ignore[union-attr]
                started = time.perf_counter()
                service.sessions.put(
                    claim, [PutEntry(key, {"current_temperature": setpoint}, revision, revision)]
                )
                revision = harness(service).bucket(key).revision  # type: ignore[union-attr]
                service.sessions.put(
                    claim,
                    [
                        PutEntry(
                            key,
                            {"target_temperature": setpoint, "target_change_pending": False},
                            revision,
                            revision,
                        )
                    ],
                )
                put += (time.perf_counter() - started) / 2
            timings.setdefault(("command", on), []).append(command / per_round * 1e6)
            timings.setdefault(("put", on), []).append(put / per_round * 1e6)
            started = time.perf_counter()
            for each in fleet:  # one loop turn, as `bench/server.py`'s fan-out
                service.commands.set_temperature(each, setpoint)
            timings.setdefault(("fan-out", on), []).append(
                (time.perf_counter() - started) / len(fleet) * 1e6
            )
    switch(True)
    await service.async_stop()
    parts = []
    for path in ("command", "put", "fan-out"):
        with_it = statistics.median(timings[(path, True)])
        without = statistics.median(timings[(path, False)])
        parts.append(
            f"{path}: {without:.1f} µs without, {with_it:.1f} µs with "
            f"({(with_it - without) / without * 100:+.1f} %)"
        )
    return "; ".join(parts)


def main() -> None:
    """Print the cost of the confirmation bookkeeping on the push and PUT paths."""
    args = int_options(__doc__, rounds=40, per_round=500, fanout=1000)
    print(asyncio.run(measure(args.rounds, args.per_round, args.fanout)))


if __name__ == "__main__":
    main()
