"""The home's monthly report, built from the days the service keeps (days.py).

One report per home and month: runtime per equipment, energy (and cost, where the host gives a
price), eco, away and leaf hours, the month's degree-days, the change against the month before
and the same month a year before (runtime per degree-day, where both months had weather), the
days' main reasons counted, the health findings the host hands in, and each filter's state.

A month with fewer than `MIN_DAYS_WITH_DATA` days on which some thermostat has figures gets no
report (`build_monthly_report` returns None).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from typing import Any

from .days import FLAGS, DayLedger, home_totals, totals

MIN_DAYS_WITH_DATA = 10
"""The days of a month that must have figures (for some thermostat) for it to be reported."""
TOP_REASONS = 3
"""How many of the days' main reasons the report names."""

type Rates = Mapping[str, Mapping[str, float]]


def month_key(month: date) -> str:
    """Return how a month is named: `2026-10`."""
    return f"{month.year:04d}-{month.month:02d}"


def month_range(month: date) -> tuple[date, date]:
    """Return the first and last day of the month holding `month`."""
    first = month.replace(day=1)
    return first, (first + timedelta(days=32)).replace(day=1) - timedelta(days=1)


def month_before(month: date) -> date:
    """Return the first day of the month before the one holding `month`."""
    return (month.replace(day=1) - timedelta(days=1)).replace(day=1)


def _month_totals(days: DayLedger, serials: Sequence[str], month: date) -> dict[str, Any]:
    """Return the home's sums of a month (no reasons: those are only named for the month told)."""
    first, last = month_range(month)
    span = [first + timedelta(days=n) for n in range((last - first).days + 1)]
    return home_totals(
        [{"totals": totals([days.day_figures(serial, d) for d in span])} for serial in serials]
    )


def _with_data(days: DayLedger, serials: Sequence[str], month: date) -> int:
    first, last = month_range(month)
    keys = {
        key
        for serial in serials
        for key in days.days_of(serial)
        if first.isoformat() <= key <= last.isoformat()
    }
    return len(keys)


def _runtime(figures: Mapping[str, Any]) -> float:
    return float(figures["heating_hours"] + figures["cooling_hours"])


def _degree_days(figures: Mapping[str, Any]) -> float | None:
    heating, cooling = figures["heating_degree_days"], figures["cooling_degree_days"]
    if heating is None or cooling is None or heating + cooling <= 0:
        return None
    return float(heating + cooling)


def compare(this: Mapping[str, Any], other: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Return how much more (+%) or less the home ran than in `other`; None without figures.

    Normalised (runtime per degree-day) where both months had degree-days, else plain runtime.
    """
    if other is None or _runtime(other) <= 0:
        return None
    now_dd, then_dd = _degree_days(this), _degree_days(other)
    now, then = _runtime(this), _runtime(other)
    normalised = False
    if now_dd is not None and then_dd is not None:
        now, then, normalised = now / now_dd, then / then_dd, True
    return {
        "runtime_hours": round(_runtime(other), 2),
        "change_percent": round((now / then - 1) * 100, 1),
        "normalised": normalised,
    }


def build_monthly_report(
    days: DayLedger,
    serials: Sequence[str],
    month: date,
    *,
    rates: Mapping[str, Rates],
    prices: Mapping[str, float],
    filters: Mapping[str, Mapping[str, Any]],
    health_findings: Mapping[str, int],
) -> dict[str, Any] | None:
    """Return the home's report of the month holding `month`; None with too little data.

    `rates`: each thermostat's energy rates; `prices`: per energy kind, the price of a kWh or
    m³ (absent: no cost); `filters`: each thermostat's filter state; `health_findings`: the
    findings raised in the month, counted per kind (`HealthFacet.raised_between`).
    """
    first, last = month_range(month)
    with_data = _with_data(days, serials, first)
    if with_data < MIN_DAYS_WITH_DATA:
        return None
    thermostats = []
    reasons: Counter[str] = Counter()
    energy: dict[str, float] = {}
    for serial in serials:
        found = days.report(serial, first, last)
        reasons.update(d["main_reason"] for d in found["days"] if d["main_reason"])
        used: dict[str, float] = {}
        for equipment, hours in found["totals"]["runtime_hours"].items():
            for kind, rate in rates.get(serial, {}).get(equipment, {}).items():
                used[kind] = round(used.get(kind, 0.0) + hours * rate, 2)
        for kind, amount in used.items():
            energy[kind] = round(energy.get(kind, 0.0) + amount, 2)
        thermostats.append(
            {
                "serial": serial,
                "totals": found["totals"],
                "energy": used,
                "filter": dict(filters.get(serial, {})),
            }
        )
    home = home_totals(thermostats)
    cost = {
        kind: round(amount * prices[kind], 2) for kind, amount in energy.items() if kind in prices
    }
    year_before = first.replace(year=first.year - 1)
    earlier = {
        "last_month": month_before(first),
        "last_year": year_before,
    }
    against = {
        name: compare(
            home,
            _month_totals(days, serials, when)
            if _with_data(days, serials, when) >= MIN_DAYS_WITH_DATA
            else None,
        )
        for name, when in earlier.items()
    }
    return {
        "month": month_key(first),
        "start": first.isoformat(),
        "end": last.isoformat(),
        "days_with_data": with_data,
        "runtime_hours": home["runtime_hours"],
        **{key: home[key] for key in ("heating_hours", "cooling_hours")},
        **{f"{name}_hours": home[f"{name}_hours"] for name in FLAGS},
        "heating_degree_days": home["heating_degree_days"],
        "cooling_degree_days": home["cooling_degree_days"],
        "energy": dict(sorted(energy.items())),
        "cost": dict(sorted(cost.items())),
        "against_last_month": against["last_month"],
        "against_last_year": against["last_year"],
        "top_reasons": [
            {"reason": reason, "days": count}
            for reason, count in sorted(reasons.items(), key=lambda r: (-r[1], r[0]))[:TOP_REASONS]
        ],
        "health_findings": {kind: n for kind, n in sorted(health_findings.items()) if n > 0},
        "filters": {serial: t["filter"] for serial, t in zip(serials, thermostats, strict=True)},
        "thermostats": thermostats,
    }
