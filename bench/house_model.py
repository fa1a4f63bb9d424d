"""What the house model adds to a device PUT: `python -m bench.house_model`.

Pairs N thermostats in the service core and times the device session's PUT (what the HTTP
handler calls once it parsed a request) of two kinds of report: the room temperature, the
common case (the model only sees a STATE event without relay fields), and a relay switching
after twenty minutes, the worst case (each one ends a phase: a sample is added and that kind's
model refitted). Each kind is timed with the model as it runs and with it unhooked from
every path it hears, in alternating rounds. Then one refit alone, with a model full
to its bound (`MAX_SAMPLES` samples spread over outdoor temperatures).
"""

from __future__ import annotations

import asyncio
import logging
import random
import statistics
import time

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry
from custom_components.thermostat_cloud.server.core.watch.house_model import (
    MAX_SAMPLES,
    Sample,
    fit,
)

from .core_listeners import Costs, arguments, pair, print_costs, with_and_without
from .fleet import bench_serial
from .unsaved import UnsavedStorage

PHASE_MS = 20 * 60_000


class _SteppedClock:
    """A wall clock that moves only when the bench moves it (phases of twenty minutes)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000_000

    def now_ms(self) -> int:
        return self.now


def _time_puts(
    service: ThermostatService,
    clock: _SteppedClock,
    claims: list[tuple[str, IdentityClaim]],
    puts: int,
    relay: bool,
) -> float:
    """Return the mean µs per PUT of `puts` reports spread over the thermostats."""
    elapsed = 0
    for n in range(puts):
        serial, claim = claims[n % len(claims)]
        if relay:
            if n % len(claims) == 0:
                clock.now += PHASE_MS
            heating = (n // len(claims)) % 2 == 0
            fields: dict[str, object] = {
                "hvac_heater_state": heating,
                "current_temperature": 20 + (0.5 if heating else 0.0),
            }
        else:
            fields = {"current_temperature": 18 + (n % 40) / 10}
        started = time.perf_counter_ns()
        service.sessions.put(claim, [PutEntry(f"shared.{serial}", fields, None, 0)])
        elapsed += time.perf_counter_ns() - started
    return elapsed / puts / 1000


def _time_refit(repeats: int) -> list[float]:
    """Return the ms of each of `repeats` fits of a model full to its bound."""
    rng = random.Random(37)
    now = 1_800_000_000_000
    samples = [
        Sample(now - i * 3_600_000, rng.uniform(-10, 15), rng.gauss(2.0, 0.3))
        for i in range(MAX_SAMPLES)
    ]
    times = []
    for _ in range(repeats):
        started = time.perf_counter_ns()
        fit(samples, now)
        times.append((time.perf_counter_ns() - started) / 1e6)
    return times


async def _run(thermostats: int, puts: int, rounds: int) -> Costs:
    clock = _SteppedClock()
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000", max_unpaired_devices=1 << 20),
        UnsavedStorage(),
        clock,
    )
    await service.async_load()
    claims = [
        (serial, pair(service, serial, {"can_heat": True, "current_temperature": 20}))
        for serial in map(bench_serial, range(thermostats))
    ]
    try:
        return with_and_without(
            service,
            "house_model",
            rounds,
            ("temperature", "relay"),
            lambda kind: _time_puts(service, clock, claims, puts, kind == "relay"),
        )
    finally:
        await service.async_stop()


def main() -> None:
    """Print the mean cost of a PUT with and without the house model, and of one refit."""
    args = arguments("house_model", __doc__, puts=10_000)
    # Twenty minutes between two reports of a heating thermostat is no real thermostat: the
    # runtime ledger says so for each, which is not what is measured here.
    logging.getLogger("custom_components.thermostat_cloud.server.core.watch.runtime").setLevel(
        logging.ERROR
    )
    print_costs(args, asyncio.run(_run(args.thermostats, args.puts, args.rounds)), "model")
    refits = _time_refit(50)
    print(
        f"one refit of {MAX_SAMPLES} samples: {statistics.median(refits):.2f} ms median "
        f"({min(refits):.2f}..{max(refits):.2f})"
    )


if __name__ == "__main__":
    main()
