"""The benchmark suite still runs (tiny numbers, no timing assertions: benchmarks are not tests)."""

from __future__ import annotations

import pytest

from bench.cli import QUICK, parse_args, run_suite
from bench.scenarios import metrics
from bench.stats import table

# Runs every benchmark scenario once against a core in another process: a few seconds.
pytestmark = pytest.mark.slow


async def test_benchmark_suite_runs_against_the_core_in_its_own_process(
    socket_enabled: None,
) -> None:
    """Every scenario measures every figure it reports."""
    args = parse_args(["--quick", "--repeats", "1", "--batch-window", "0.1", "--time-limit", "60"])

    figures, skipped = await run_suite(args)

    measured = {(f.scenario, f.metric) for f in figures if len(f.runs) == 1}
    for name in ("push", "hold", "fanout", "put", "sse"):
        for metric in metrics(name, QUICK):
            assert (name, metric.label) in measured
    held = next(f for f in figures if f.metric == "held subscribe connections")
    assert held.runs == [10.0]
    assert skipped == []
    assert "command -> push p99, 5 held" in table(figures, skipped)
