"""`scripts/bench` / `python -m bench`: run the suite and print a table."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence
import json
import logging
from pathlib import Path
import sys
import time

from .fleet import Fleet
from .ha_server import DEFAULT_PAIRED, STOP_MARGIN, ha_version, start_home_assistant
from .scenarios import SCENARIOS, Options, RunResult, ScenarioUnavailableError, metrics
from .stats import Figure, table
from .system import describe_machine, raise_fd_limit
from .target import CoreServer, HomeAssistant, Target

_LOGGER = logging.getLogger(__name__)

QUICK = Options(
    connections=5,
    commands=20,
    hold_steps=[10],
    fanout=5,
    puts=20,
    put_concurrency=2,
    sse_listeners=2,
    sse_events=5,
    idle_window=0.2,
    timeout=30,
)
"""Tiny numbers: enough to show the suite runs (tests/test_bench_smoke.py), not to measure."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """Return the command line."""
    parser = argparse.ArgumentParser(
        prog="scripts/bench",
        description="Load-test the thermostat cloud with simulated thermostats over real TCP "
        "on 127.0.0.1 and print a table (see docs/performance.md).",
    )
    default = Options()
    parser.add_argument(
        "--only", default=",".join(SCENARIOS), help="comma-separated scenarios: %(default)s"
    )
    parser.add_argument("--repeats", type=int, default=3, help="runs per scenario")
    parser.add_argument("--quick", action="store_true", help="tiny numbers: does it run?")
    parser.add_argument(
        "--connections",
        type=int,
        default=default.connections,
        help="held connections during the push-latency run",
    )
    parser.add_argument("--commands", type=int, default=default.commands)
    parser.add_argument(
        "--hold",
        default=",".join(map(str, default.hold_steps)),
        help="held-connection steps, comma-separated",
    )
    parser.add_argument("--fanout", type=int, default=default.fanout)
    parser.add_argument("--puts", type=int, default=default.puts)
    parser.add_argument("--put-concurrency", type=int, default=default.put_concurrency)
    parser.add_argument("--sse-listeners", type=int, default=default.sse_listeners)
    parser.add_argument("--sse-events", type=int, default=default.sse_events)
    parser.add_argument(
        "--batch-window",
        type=float,
        default=3.0,
        help="core server's batch window in seconds (the spec's 3 s)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=1800,
        help="stop the whole suite after this many seconds",
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--profile-dir",
        type=Path,
        help="profile the core server with cProfile; one .pstats file per run lands here",
    )
    launched = parser.add_argument_group(
        "against a real Home Assistant in its own process instead of the core alone"
    )
    launched.add_argument(
        "--home-assistant",
        action="store_true",
        help="start a fresh Home Assistant (throwaway configuration under /tmp, the hub entry, "
        "an access token, paired thermostats) for every run, and stop it after the run",
    )
    launched.add_argument(
        "--paired",
        type=int,
        default=DEFAULT_PAIRED,
        help="thermostats paired in that Home Assistant, each with a climate entity: the "
        "climate.set_temperature path reaches these (default %(default)s)",
    )
    launched.add_argument(
        "--keep-config",
        action="store_true",
        help="keep each launched Home Assistant's configuration and logs (path printed)",
    )
    ha = parser.add_argument_group(
        "against a Home Assistant that is already running (scripts/develop)"
    )
    ha.add_argument("--target", help="device URL, e.g. http://127.0.0.1:8000")
    ha.add_argument("--control", help="Home Assistant URL, e.g. http://127.0.0.1:8123")
    ha.add_argument("--token", help="a Home Assistant long-lived access token")
    ha.add_argument("--server-pid", type=int, help="Home Assistant's pid, for CPU and RSS")
    return parser.parse_args(argv)


def options_from(args: argparse.Namespace) -> Options:
    """Scenario sizes from the flags (or the quick set)."""
    if args.quick:
        return Options(**{f: getattr(QUICK, f) for f in QUICK.__dataclass_fields__})
    return Options(
        connections=args.connections,
        commands=args.commands,
        hold_steps=sorted(int(s) for s in args.hold.split(",") if s),
        fanout=args.fanout,
        puts=args.puts,
        put_concurrency=args.put_concurrency,
        sse_listeners=args.sse_listeners,
        sse_events=args.sse_events,
    )


def _only_loopback(url: str) -> None:
    host = url.split("//", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0]
    if not host.startswith("127."):
        raise SystemExit(f"bench: {url} is not a 127.0.0.x address; the benchmark stays local")


async def run_suite(args: argparse.Namespace) -> tuple[list[Figure], list[str]]:
    """Every selected scenario, `repeats` times; returns the figures and the skip reasons."""
    options = options_from(args)
    raise_fd_limit(1 << 20)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = set(names) - set(SCENARIOS)
    if unknown:
        raise SystemExit(f"bench: unknown scenario(s) {', '.join(sorted(unknown))}")
    shared: HomeAssistant | None = None
    if args.home_assistant and args.target:
        raise SystemExit("bench: --home-assistant starts its own; leave out --target")
    if args.target:
        for url in filter(None, (args.target, args.control)):
            _only_loopback(url)
        shared = HomeAssistant(args.target, args.control, args.token, args.server_pid)
    figures: list[Figure] = []
    skipped: list[str] = []
    try:
        async with asyncio.timeout(args.time_limit):
            for name in names:
                runs: list[RunResult] = []
                try:
                    for run in range(args.repeats):
                        started = time.monotonic()
                        runs.append(await _one_run(name, run, shared, args, options))
                        print(
                            f"bench: {name} run {run + 1}/{args.repeats} "
                            f"({time.monotonic() - started:.1f} s): {_brief(runs[-1])}",
                            file=sys.stderr,
                            flush=True,
                        )
                except ScenarioUnavailableError as reason:
                    skipped.append(f"{name}: {reason}")
                    continue
                for metric in metrics(name, options, _push_paths(args, shared)):
                    values = [r[metric.key] for r in runs if metric.key in r]
                    figures.append(Figure(name, metric.label, metric.unit, values, metric.target))
    finally:
        if shared is not None:
            await shared.close()
    return figures, skipped


async def _one_run(
    name: str, run: int, shared: HomeAssistant | None, args: argparse.Namespace, options: Options
) -> RunResult:
    target: Target
    if shared is not None:
        target = shared
    elif args.home_assistant:
        target = await start_home_assistant(
            args.paired, args.time_limit + STOP_MARGIN, keep_config=args.keep_config
        )
    else:
        profile = None
        if args.profile_dir is not None:
            args.profile_dir.mkdir(parents=True, exist_ok=True)
            profile = args.profile_dir / f"{name}-{run + 1}.pstats"
        core = CoreServer(args.batch_window, args.time_limit, profile)
        await core.start()
        target = core
    fleet = Fleet(target.device_url, timeout=options.timeout)
    try:
        return await SCENARIOS[name](target, fleet, options)
    finally:
        await fleet.close()
        if target is not shared:
            await target.close()


def _push_paths(args: argparse.Namespace, shared: HomeAssistant | None) -> tuple[str, ...]:
    """Return the command paths the push figures are measured through against this target."""
    if shared is not None:
        return shared.push_paths
    if args.home_assistant:
        return ("http", "climate") if args.paired else ("http",)
    return CoreServer.push_paths


def _brief(result: RunResult) -> str:
    return ", ".join(f"{k}={v:.3g}" for k, v in result.items())


def main(argv: Sequence[str] | None = None) -> int:
    """Run, print the table, optionally save JSON."""
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    machine = describe_machine()
    figures, skipped = asyncio.run(run_suite(args))
    if args.home_assistant:
        target = f"Home Assistant {ha_version()}, own process, {args.paired} paired"
    elif args.target:
        target = f"Home Assistant at {args.target}"
    else:
        target = "service core, own process"
    print(f"target: {target}; {args.repeats} run(s) each")
    print("machine: " + "; ".join(f"{k} {v}" for k, v in machine.items()))
    print(table(figures, skipped))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "machine": machine,
                    "target": target,
                    "figures": [
                        {
                            "scenario": f.scenario,
                            "metric": f.metric,
                            "unit": f.unit,
                            "runs": f.runs,
                            "median": f.median,
                            "target": f.target,
                        }
                        for f in figures
                        if f.runs
                    ],
                    "skipped": skipped,
                },
                indent=2,
            )
        )
    return 0
