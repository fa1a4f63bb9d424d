"""Each thermostat's days: what ran, what the weather was, eco and away, who changed what.

Kept per thermostat and local day (a day of a daylight saving change has 23 or 25 hours).
Runtime is the runtime ledger's running totals at the day's first and last RUNTIME event; a day
opens where the day before closed, so time across midnight or a restart is counted once.
Degree-days are home-wide, against `DEGREE_DAY_BASE_C`, with how much of the day the weather
covered.

What is saved only grows within a day, and a day once past is not touched again: a restart,
a reload or an upgrade loses no day and counts none twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
import logging
import math
from typing import Any
from zoneinfo import ZoneInfo

from ...model.records import FlatRecord
from ..context import CoreContext
from ..events import EventKind, Follows, ServiceEvent
from ..read.readings import BucketReadings, home_away
from ..read.validation import saved_record
from ..write.changes import ATTRIBUTED_FIELDS, THERMOSTAT_DIAL, Author, AuthorKind

_LOGGER = logging.getLogger(__name__)

DEGREE_DAY_BASE_C = 18.0
"""The base of heating and cooling degree-days (°C): Eurostat's heating base, and 65 °F."""
OUTDOOR_MAX_GAP_MS = 3 * 3600_000
"""An outdoor reading stands for at most this long: beyond, the day lacks weather."""
WEATHER_COVERAGE = 0.75
"""The share of a day the weather must cover for its degree-days to count."""
BASELINE_DAYS = 14
"""The recent average: the days before, up to this many, that have figures."""
BASELINE_MIN_DAYS = 3
"""Fewer days with figures than this: no average, so no reason is named."""
MAX_REPORT_DAYS = 31
"""The longest range `report` builds (a month)."""
KEEP_DAYS = 800
"""Days kept per thermostat: two years and more, for a month against the same month last year."""
FLAGS = ("eco", "away", "leaf")
FLAG_FIELDS = frozenset(
    {
        "device.eco",
        "device.eco_mode_enabled",
        "structure.away",
        "structure.manual_eco_all",
        "shared.leaf",
        "device.leaf",
    }
)
"""The fields whose change can start or end eco, away or leaf (as events name them)."""
HEATING_EQUIPMENT = (
    "heating_stage_1",
    "heating_stage_2",
    "heating_stage_3",
    "aux_heat",
    "emergency_heat",
)
COOLING_EQUIPMENT = ("cooling_stage_1", "cooling_stage_2")
SUMMED = ("heating_hours", "cooling_hours", "eco_hours", "away_hours", "leaf_hours")
"""The hours a range of days, and a home's thermostats, add up."""

# The reasons a day differs from the recent average, with their thresholds.
REASON_WEATHER_SHARE = 0.2
"""Degree-days this much above (below) the average: colder (warmer) weather."""
REASON_WEATHER_MIN_DD = 1.0
REASON_AWAY_HOURS = 2.0
"""Away (eco) this many hours more or less than on average."""
REASON_ADJUSTED_CHANGES = 2.0
"""Changes by a person (in Home Assistant or at the dial) this many more than on average."""


def change_source(author: Author) -> str:
    """Return how a day counts an author: `dial` or `schedule` at the thermostat, else its kind."""
    return author.name if author.kind is AuthorKind.THERMOSTAT else author.kind.value


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return 0.0
    return max(0.0, float(value))


@dataclass(slots=True)
class Day(FlatRecord):
    """One thermostat's figures of one local day, as saved."""

    opened: dict[str, float] = field(default_factory=dict)
    """The runtime ledger's running seconds per equipment when the day was opened."""
    closed: dict[str, float] = field(default_factory=dict)
    """... at the day's last RUNTIME event."""
    seconds: dict[str, float] = field(default_factory=dict)
    """Seconds in eco, away and leaf."""
    changes: dict[str, int] = field(default_factory=dict)
    """Changes of the setpoint, mode or preset by source (see `change_source`)."""
    schedule_edits: int = 0

    def runtime(self) -> dict[str, float]:
        return {
            name: round(max(0.0, value - self.opened.get(name, 0.0)), 1)
            for name, value in self.closed.items()
            if value - self.opened.get(name, 0.0) > 0
        }

    @classmethod
    def load(cls, data: object) -> Day | None:
        """Return a saved day, None if it is no record (what cannot be a figure is dropped)."""
        if not isinstance(data, Mapping):
            return None

        def figures(name: str) -> dict[str, float]:
            stored = data.get(name)
            if not isinstance(stored, Mapping):
                return {}
            return {str(key): _number(value) for key, value in stored.items()}

        return cls(
            opened=figures("opened"),
            closed=figures("closed"),
            seconds=figures("seconds"),
            changes={key: int(value) for key, value in figures("changes").items()},
            schedule_edits=int(_number(data.get("schedule_edits"))),
        )


@dataclass(slots=True)
class Weather(FlatRecord):
    """The home's outdoor temperature over one local day: degree-seconds and coverage."""

    heating: float = 0.0
    cooling: float = 0.0
    covered: float = 0.0
    """Seconds the readings covered."""

    @classmethod
    def load(cls, data: object) -> Weather | None:
        if not isinstance(data, Mapping):
            return None
        return cls(
            _number(data.get("heating")), _number(data.get("cooling")), _number(data.get("covered"))
        )


@dataclass(slots=True)
class _Marks:
    """What is being counted for a thermostat now (not saved)."""

    since_ms: int
    flags: frozenset[str]


class DayLedger:
    """Every thermostat's days, and the home's weather by day."""

    def __init__(
        self,
        context: CoreContext,
        *,
        runtime_seconds: Callable[[str], Mapping[str, float]],
    ) -> None:
        self._context = context
        self._zone = ZoneInfo(context.config.time_zone)
        self._runtime_seconds = runtime_seconds
        self._days: dict[str, dict[str, Day]] = {}
        self._weather: dict[str, Weather] = {}
        self._marks: dict[str, _Marks] = {}
        self._outdoor: tuple[int, float] | None = None
        self._reported_month: str | None = None

    # -- saved state ------------------------------------------------------------------------

    def load(self, data: object) -> None:
        """Restore what was saved under `days` (absent before this feature: nothing).

        `monthly_reported`, the last month the home's report was made of, is absent in the
        documents of the version before the monthly report: none was made.
        """
        self._days, self._weather, self._marks, self._outdoor = {}, {}, {}, None
        self._reported_month = None
        data = saved_record(data, _LOGGER, "Ignoring stored days: they are no record")
        if data is None:
            return
        thermostats = data.get("thermostats")
        for serial, days in thermostats.items() if isinstance(thermostats, Mapping) else ():
            if isinstance(days, Mapping):
                loaded = {str(d): day for d, v in days.items() if (day := Day.load(v)) is not None}
                self._days[str(serial)] = loaded
        weather = data.get("weather")
        for day_key, stored in weather.items() if isinstance(weather, Mapping) else ():
            if (found := Weather.load(stored)) is not None:
                self._weather[str(day_key)] = found
        reported = data.get("monthly_reported")
        self._reported_month = reported if isinstance(reported, str) else None

    def dump(self) -> dict[str, Any]:
        """Return what to save: the days of the last `KEEP_DAYS`."""
        oldest = (self._today() - timedelta(days=KEEP_DAYS)).isoformat()
        return {
            "thermostats": {
                serial: {key: day.dump() for key, day in days.items() if key >= oldest}
                for serial, days in self._days.items()
            },
            "weather": {k: w.dump() for k, w in self._weather.items() if k >= oldest},
            "monthly_reported": self._reported_month,
        }

    @property
    def reported_month(self) -> str | None:
        """The last month (`2026-10`) the home's monthly report was made of; None before any."""
        return self._reported_month

    def mark_reported(self, month: str) -> None:
        """Note that the home's report of `month` was made, so it is never made again."""
        self._reported_month = month
        self._context.request_save()

    # -- days and time --------------------------------------------------------------------------

    def local_date(self, ms: int) -> date:
        return datetime.fromtimestamp(ms / 1000, self._zone).date()

    def _today(self) -> date:
        return self.local_date(self._context.clock.now_ms())

    def day_start_ms(self, day: date) -> int:
        """Return when a local day begins, Unix ms (its midnight, through a DST change)."""
        return int(datetime.combine(day, time(), self._zone).timestamp() * 1000)

    def day_length_s(self, day: date) -> float:
        """Return how long a local day is: 23, 24 or 25 hours."""
        return (self.day_start_ms(day + timedelta(days=1)) - self.day_start_ms(day)) / 1000

    def _split(self, start_ms: int, end_ms: int) -> Iterable[tuple[str, float]]:
        """Split a span of time at local midnights: (day, seconds) for each day it touches."""
        while start_ms < end_ms:
            day = self.local_date(start_ms)
            boundary = min(end_ms, self.day_start_ms(day + timedelta(days=1)))
            yield day.isoformat(), (boundary - start_ms) / 1000
            start_ms = boundary

    def _day(self, serial: str, key: str) -> Day:
        days = self._days.setdefault(serial, {})
        found = days.get(key)
        if found is None:
            # A day opens where the last one closed: nothing ran between, or it is counted now.
            last = days[max(days)].closed if days else self._runtime_seconds(serial)
            found = days[key] = Day(opened=dict(last), closed=dict(last))
        return found

    # -- what happens ---------------------------------------------------------------------------

    follows = Follows(
        fields=FLAG_FIELDS | frozenset(ATTRIBUTED_FIELDS),
        bucket_types=frozenset({"schedule"}),
        kinds=frozenset({EventKind.RUNTIME, EventKind.PAIRING, EventKind.CONNECTION}),
    )
    """Eco, away and leaf; who changed what (only attributed fields have an author); schedule
    edits; the runtime; pairing and contact (which start or end the counting)."""

    def follow(self, event: ServiceEvent) -> None:
        """Count a thermostat's day: its runtime, its changes, its eco, away and leaf."""
        serial = event.serial
        if not serial or self._context.ownership.pairing(serial) is None:
            return
        if event.kind is EventKind.RUNTIME:
            day = self._day(serial, self._today().isoformat())
            day.closed = dict(self._runtime_seconds(serial))
            self._context.request_save()
        elif event.kind is EventKind.STATE:
            if event.author is not None:
                day = self._day(serial, self._today().isoformat())
                source = change_source(event.author)
                day.changes[source] = day.changes.get(source, 0) + 1
                self._context.request_save()
            if any(name.startswith("schedule.") for name in event.fields):
                self._day(serial, self._today().isoformat()).schedule_edits += 1
                self._context.request_save()
            if not FLAG_FIELDS.isdisjoint(event.fields):
                self._count_flags(serial)
        elif event.kind is EventKind.PAIRING or event.kind is EventKind.CONNECTION:
            self._count_flags(serial)

    def _flags(self, serial: str) -> frozenset[str]:
        readings = BucketReadings(self._context.buckets, serial)
        pairing = self._context.ownership.pairing(serial)
        away = pairing is not None and home_away(self._context.buckets, pairing.structure_id)
        on = {
            "eco": readings.eco and not away,
            "away": away,
            "leaf": readings.shared.get("leaf") is True or readings.device.get("leaf") is True,
        }
        return frozenset(name for name, value in on.items() if value)

    def _count_flags(self, serial: str) -> None:
        """Count the time since the last look in the states it was in; note the states now."""
        now_ms = self._context.clock.now_ms()
        marks = self._marks.get(serial)
        if marks is not None and marks.flags:
            for key, seconds in self._split(marks.since_ms, now_ms):
                day = self._day(serial, key)
                for name in marks.flags:
                    day.seconds[name] = day.seconds.get(name, 0.0) + seconds
            self._context.request_save()
        self._marks[serial] = _Marks(now_ms, self._flags(serial))

    def settle(self) -> None:
        """Count every thermostat's eco, away and leaf up to now (before a report or a save)."""
        for serial in list(self._marks):
            self._count_flags(serial)

    def stop(self) -> None:
        """Count up to now and stop: the time the service is down is not counted.

        After the runtime ledger's stop, which counted its running equipment up to now.
        """
        self.settle()
        today = self._today().isoformat()
        for serial in self._marks:
            seconds = self._runtime_seconds(serial)
            if seconds != self._day(serial, today).closed:
                self._day(serial, today).closed = dict(seconds)
        self._marks.clear()
        self._outdoor = None

    def note_outdoor(self, celsius: float | None) -> None:
        """Take the outdoor temperature now; the last one counts until now, up to a gap's end.

        None (no weather known now) is not taken: the last reading stands, up to its gap.
        """
        if celsius is None or not math.isfinite(celsius):
            return
        now_ms = self._context.clock.now_ms()
        if self._outdoor is not None:
            since_ms, last = self._outdoor
            end_ms = min(now_ms, since_ms + OUTDOOR_MAX_GAP_MS)
            for key, seconds in self._split(since_ms, end_ms):
                weather = self._weather.setdefault(key, Weather())
                weather.heating += max(0.0, DEGREE_DAY_BASE_C - last) * seconds
                weather.cooling += max(0.0, last - DEGREE_DAY_BASE_C) * seconds
                weather.covered += seconds
            self._context.request_save()
        self._outdoor = (now_ms, celsius)

    # -- the report -------------------------------------------------------------------------------

    def days_of(self, serial: str) -> Mapping[str, Day]:
        """Return a thermostat's saved days by ISO date."""
        return self._days.get(serial, {})

    def degree_days(self, day: date) -> tuple[float, float] | None:
        """Return a day's heating and cooling degree-days; None when weather covered too little."""
        weather = self._weather.get(day.isoformat())
        length = self.day_length_s(day)
        if weather is None or weather.covered < WEATHER_COVERAGE * length:
            return None
        # The mean excess over the covered time stands for the whole day.
        scale = length / weather.covered / 86400
        return round(weather.heating * scale, 2), round(weather.cooling * scale, 2)

    def day_figures(self, serial: str, day: date) -> dict[str, Any]:
        """Return one thermostat's figures of one day (zeros for a day with none)."""
        stored = self._days.get(serial, {}).get(day.isoformat(), Day())
        runtime = stored.runtime()
        degree_days = self.degree_days(day)
        return {
            "date": day.isoformat(),
            "hours": round(self.day_length_s(day) / 3600, 2),
            "runtime_hours": {name: round(s / 3600, 2) for name, s in sorted(runtime.items())},
            "heating_hours": round(sum(runtime.get(n, 0) for n in HEATING_EQUIPMENT) / 3600, 2),
            "cooling_hours": round(sum(runtime.get(n, 0) for n in COOLING_EQUIPMENT) / 3600, 2),
            "heating_degree_days": None if degree_days is None else degree_days[0],
            "cooling_degree_days": None if degree_days is None else degree_days[1],
            **{f"{name}_hours": round(stored.seconds.get(name, 0.0) / 3600, 2) for name in FLAGS},
            "changes": dict(sorted(stored.changes.items())),
            "schedule_edits": stored.schedule_edits,
            "has_data": day.isoformat() in self._days.get(serial, {}),
        }

    def report(self, serial: str, first: date, last: date) -> dict[str, Any]:
        """Return a thermostat's days from `first` to `last` with totals, and each day's reason.

        A day's reason compares it with the average of the thermostat's days with figures
        among the `BASELINE_DAYS` before it; see `reasons`.
        """
        self.settle()
        days = []
        day = first
        while day <= last:
            figures = self.day_figures(serial, day)
            baseline = self.baseline(serial, day)
            figures["reasons"] = reasons(figures, baseline)
            figures["main_reason"] = figures["reasons"][0] if figures["reasons"] else None
            days.append(figures)
            day += timedelta(days=1)
        return {"days": days, "totals": totals(days)}

    def baseline(self, serial: str, day: date) -> dict[str, float] | None:
        """Return the average day among the `BASELINE_DAYS` before `day` that have figures."""
        stored = self._days.get(serial, {})
        before = [
            self.day_figures(serial, earlier)
            for back in range(1, BASELINE_DAYS + 1)
            if (earlier := day - timedelta(days=back)).isoformat() in stored
        ]
        if len(before) < BASELINE_MIN_DAYS:
            return None
        return _average(before)


def _people(figures: Mapping[str, Any]) -> float:
    """Return the changes people made: in the host, or at the thermostat's dial."""
    changes = figures.get("changes", {})
    return float(changes.get("person", 0) + changes.get(THERMOSTAT_DIAL, 0))


def _average(days: list[dict[str, Any]]) -> dict[str, float]:
    with_weather = [d for d in days if d["heating_degree_days"] is not None]
    average = {
        key: sum(d[key] for d in days) / len(days)
        for key in ("heating_hours", "cooling_hours", "eco_hours", "away_hours")
    }
    average["people"] = sum(_people(d) for d in days) / len(days)
    for key in ("heating_degree_days", "cooling_degree_days"):
        if with_weather:
            average[key] = sum(d[key] for d in with_weather) / len(with_weather)
    return average


def reasons(day: Mapping[str, Any], baseline: Mapping[str, float] | None) -> list[str]:
    """Return why a day differs from the recent average, the weightiest first.

    `colder`/`warmer`: degree-days (heating, or cooling on a day that cooled more than it
    heated) `REASON_WEATHER_SHARE` off the average and at least `REASON_WEATHER_MIN_DD`;
    `away_more`/`away_less`: away and eco hours `REASON_AWAY_HOURS` off; `adjusted`: people
    changed the setpoint, mode or preset `REASON_ADJUSTED_CHANGES` times more; `schedule`: the
    schedule was edited. No average (too few days), or a usual day: none.
    """
    if baseline is None:
        return ["schedule"] if day["schedule_edits"] else []
    scored: list[tuple[float, str]] = []
    cooling = day["cooling_hours"] > day["heating_hours"]
    dd_key = "cooling_degree_days" if cooling else "heating_degree_days"
    if day[dd_key] is not None and dd_key in baseline:
        delta = day[dd_key] - baseline[dd_key]
        share = abs(delta) / max(baseline[dd_key], REASON_WEATHER_MIN_DD)
        if abs(delta) >= REASON_WEATHER_MIN_DD and share >= REASON_WEATHER_SHARE:
            colder = (delta > 0) != cooling
            scored.append((share, "colder" if colder else "warmer"))
    away_delta = (day["away_hours"] + day["eco_hours"]) - (
        baseline["away_hours"] + baseline["eco_hours"]
    )
    if abs(away_delta) >= REASON_AWAY_HOURS:
        scored.append(
            (
                abs(away_delta) / REASON_AWAY_HOURS / 4,
                "away_more" if away_delta > 0 else "away_less",
            )
        )
    people_delta = _people(day) - baseline["people"]
    if people_delta >= REASON_ADJUSTED_CHANGES:
        scored.append((people_delta / REASON_ADJUSTED_CHANGES / 4, "adjusted"))
    if day["schedule_edits"]:
        scored.append((0.25, "schedule"))
    return [name for _, name in sorted(scored, key=lambda item: -item[0])]


def home_totals(thermostats: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the home's sums of its thermostats' totals (the weather is the home's: once)."""
    runtime: dict[str, float] = {}
    changes: dict[str, int] = {}
    for thermostat in thermostats:
        summed = thermostat["totals"]
        for name, hours in summed["runtime_hours"].items():
            runtime[name] = round(runtime.get(name, 0.0) + hours, 2)
        for source, count in summed["changes"].items():
            changes[source] = changes.get(source, 0) + count
    first = thermostats[0]["totals"] if thermostats else {}
    return {
        "runtime_hours": dict(sorted(runtime.items())),
        **{key: round(sum(t["totals"][key] for t in thermostats), 2) for key in SUMMED},
        "heating_degree_days": first.get("heating_degree_days"),
        "cooling_degree_days": first.get("cooling_degree_days"),
        "days_with_weather": first.get("days_with_weather", 0),
        "changes": dict(sorted(changes.items())),
    }


def totals(days: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the sums of a range of days; degree-days only over the days the weather covered."""
    runtime: dict[str, float] = {}
    changes: dict[str, int] = {}
    for day in days:
        for name, hours in day["runtime_hours"].items():
            runtime[name] = round(runtime.get(name, 0.0) + hours, 2)
        for kind, count in day["changes"].items():
            changes[kind] = changes.get(kind, 0) + count
    with_weather = [d for d in days if d["heating_degree_days"] is not None]
    return {
        "days": len(days),
        "days_with_data": sum(1 for d in days if d["has_data"]),
        "days_with_weather": len(with_weather),
        "runtime_hours": dict(sorted(runtime.items())),
        **{key: round(sum(d[key] for d in days), 2) for key in SUMMED},
        "heating_degree_days": round(sum(d["heating_degree_days"] for d in with_weather), 2)
        if with_weather
        else None,
        "cooling_degree_days": round(sum(d["cooling_degree_days"] for d in with_weather), 2)
        if with_weather
        else None,
        "changes": dict(sorted(changes.items())),
        "schedule_edits": sum(d["schedule_edits"] for d in days),
    }
