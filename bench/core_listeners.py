"""What the core-only benches share: pairing in the core, a part timed with and without.

`runtime_cost`, `house_model` and `health_cost` time the device session's PUT with a
listening part of the service (the runtime ledger, the house model, the health monitor) and
with it taken off every path it hears (`CoreHarness.unhook`), in alternating rounds, and print
the same table.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping
import statistics
from typing import Any

from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry
from custom_components.thermostat_cloud.server.core.testing import harness

from .options import int_options

type Costs = dict[str, dict[str, list[float]]]
"""µs per PUT by kind of report, then by "with" and "without" the part."""


def pair(service: ThermostatService, serial: str, shared: Mapping[str, Any]) -> IdentityClaim:
    """Report `shared` as the thermostat, pair it; return its identity for later PUTs."""
    claim = IdentityClaim(user_id=f"d.{serial}.bench", password="bench", address="127.0.0.9")
    service.sessions.put(claim, [PutEntry(f"shared.{serial}", dict(shared), None, 0)])
    assert service.pairing.register(harness(service).pairing_code(serial)).success
    return claim


def with_and_without(
    service: ThermostatService,
    part: str,
    rounds: int,
    kinds: Iterable[str],
    timed: Callable[[str], float],
) -> Costs:
    """Time each kind of report `rounds` times with the part and without it, in turn.

    `timed(kind)` returns the µs per PUT of one round; which setting goes first alternates, so
    the machine's load falls on both alike.
    """
    costs: Costs = {kind: {"with": [], "without": []} for kind in kinds}
    for round_ in range(rounds):
        for kind, by_setting in costs.items():
            for setting in ("with", "without") if round_ % 2 == 0 else ("without", "with"):
                rehook = harness(service).unhook(part) if setting == "without" else None
                by_setting[setting].append(timed(kind))
                if rehook is not None:
                    rehook()
    return costs


def arguments(prog: str, description: str | None, puts: int) -> argparse.Namespace:
    """Parse a core bench's command line: thermostats, PUTs per round, rounds."""
    return int_options(description, f"python -m bench.{prog}", thermostats=100, puts=puts, rounds=5)


def print_costs(args: argparse.Namespace, costs: Costs, part: str) -> None:
    """Print the table: by kind of report and setting, the median µs per PUT and its range."""
    print(
        f"{args.thermostats} paired thermostats, {args.puts} PUTs per round, {args.rounds} rounds"
    )
    print(f"report      | {part:<7} | µs per PUT: median (min..max)")
    for kind, by_setting in costs.items():
        for setting, values in by_setting.items():
            print(
                f"{kind:<11} | {setting:<7} | {statistics.median(values):.1f} "
                f"({min(values):.1f}..{max(values):.1f})"
            )
