"""Percentiles, medians across runs, and the printed table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
import math
import statistics


def percentile(samples: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (`fraction` in 0..1) of a non-empty sample."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


@dataclass(slots=True)
class Figure:
    """One published number, measured once per run."""

    scenario: str
    metric: str
    unit: str
    runs: list[float] = field(default_factory=list)
    target: str = ""
    """The design target, as text, when there is one."""
    note: str = ""

    @property
    def median(self) -> float:
        """Median over the runs."""
        return statistics.median(self.runs)

    def spread(self) -> str:
        """min..max over the runs."""
        if len(self.runs) < 2:
            return "-"
        return f"{_number(min(self.runs))}..{_number(max(self.runs))}"


def _number(value: float) -> str:
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}" if abs(value) < 1 else f"{value:.2f}"


def table(figures: Sequence[Figure], skipped: Sequence[str]) -> str:
    """Return the results as a Markdown table (for a terminal, or docs/performance.md)."""
    header = ("scenario", "metric", "median", "spread (min..max)", "runs", "target")
    rows = [
        (
            f.scenario,
            f"{f.metric} ({f.unit})" if f.unit else f.metric,
            _number(f.median),
            f.spread(),
            str(len(f.runs)),
            f.target,
        )
        for f in figures
        if f.runs
    ]
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    out = [line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in rows]
    out += [f"\nskipped: {reason}" for reason in skipped]
    return "\n".join(out)
