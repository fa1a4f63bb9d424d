"""`python -m bench.put_cost` runs: the device PUT path measured without sockets."""

from __future__ import annotations

from bench.put_cost import measure


async def test_the_put_cost_benchmark_measures_every_round() -> None:
    figures = await measure(rounds=2, fleet_size=10)
    assert len(figures) == 2
    assert all(figure > 0 for figure in figures)
