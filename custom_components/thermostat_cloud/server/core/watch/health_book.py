"""The health monitor's book: what it keeps of each thermostat, its days, what it saves.

Saved under the document's `health` key (absent before this feature: nothing found yet).
What a report says is judged by the monitor (health_monitor.py).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
import logging
import math
from statistics import median
from typing import Any
from zoneinfo import ZoneInfo

from ..context import CoreContext
from ..events import EventKind, ServiceEvent
from ..read.readings import COOL_RELAYS, HEAT_RELAYS, HVAC_RELAYS
from ..read.validation import finite_number, saved_record
from .days import HEATING_EQUIPMENT
from .health import Figure, Finding, FindingKind, HealthThresholds
from .runtime import RuntimeFigures

_LOGGER = logging.getLogger(__name__)

ROOM_RANGE_C = (-40.0, 60.0)
"""A room reading outside this is no reading (a broken sensor, a unit mix-up)."""
OUTDOOR_RANGE_C = (-70.0, 60.0)
CLOCK_BACK_TOLERANCE_MS = 1_000
HEATING, COOLING = "heating", "cooling"
MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS
MAX_STARTS_KEPT = 60
"""Starts kept per cycle: a start a minute for an hour, more than any limit allowed."""
DEFAULT_LOW_SAFETY_C = 7.0
"""Nest's default low safety temperature (45 °F / 7 °C), when the thermostat reports none."""
DEFAULT_HIGH_SAFETY_C = 35.0
"""Nest thermostats never heat above 35 °C (95 °F); they have no default high safety one."""
HISTORY_DAYS = 60
MIN_DEGREE_DAYS = 1.0
"""A day with fewer heating degree-days says little about how long heating should run."""
RELAY_FIELDS_BY_NAME = {name: HVAC_RELAYS[name] for name in (*HEAT_RELAYS, *COOL_RELAYS)}
"""Each heat and cool relay's field in `shared`."""
CYCLE_RELAYS = {HEATING: frozenset(HEAT_RELAYS), COOLING: frozenset(COOL_RELAYS)}
RAISED_KEPT = 500
"""The findings raised that are kept per thermostat for the monthly report (oldest dropped)."""
DEGREE_DAY_BASE_C = 18.0
MIN_HISTORY_DAYS = 14
MIN_DAY_COVERAGE = 0.8
"""The outdoor temperature must be known this share of a day for its degree-days to count."""
MIN_LONG_RUNTIME_MINUTES = 60.0

KIND_VALUES = frozenset(kind.value for kind in FindingKind)


def in_range(value: object, limits: tuple[float, float]) -> float | None:
    """Return a finite number within `limits` as a float; None for anything else."""
    number = finite_number(value)
    return float(number) if number is not None and limits[0] <= number <= limits[1] else None


@dataclass(slots=True)
class Call:
    """A heating or cooling call under way."""

    since_ms: int
    room_start: float | None
    """The room when judging began; None until a reading since the thermostat was heard."""
    stages: dict[str, None]
    """What ran during the call, in the order it started."""
    worst: float | None = None
    """The coldest room of a heating call (warmest of a cooling call) since judging began."""
    works: bool = False
    """The call moved the room the right way: the equipment works, this call finds nothing."""


@dataclass(slots=True)
class Watch:
    """What the monitor keeps of one thermostat."""

    findings: dict[FindingKind, Finding] = field(default_factory=dict)
    starts: dict[str, deque[int]] = field(
        default_factory=lambda: {c: deque(maxlen=MAX_STARTS_KEPT) for c in CYCLE_RELAYS}
    )
    days: deque[tuple[int, float, float]] = field(
        default_factory=lambda: deque(maxlen=HISTORY_DAYS)
    )
    """(day ordinal, heating minutes, degree-days) of each judged day, the oldest first."""
    raised: deque[tuple[int, FindingKind]] = field(
        default_factory=lambda: deque(maxlen=RAISED_KEPT)
    )
    """(ms, kind) of each finding raised, the oldest first: the monthly report counts them."""
    day_start_heating_s: float | None = None
    # Not saved: what is known since the thermostat was last heard from.
    heard: bool = False
    relays: frozenset[str] | None = None
    """The heat and cool relays on; None until known since it was heard."""
    room: float | None = None
    """The room as last reported since it was heard (None: no reading since)."""
    calls: dict[str, Call] = field(default_factory=dict)
    last_ms: int = 0
    checked_ms: int = 0
    cold_limit: float = DEFAULT_LOW_SAFETY_C
    hot_limit: float = DEFAULT_HIGH_SAFETY_C
    aux_lockout: float | None = None
    emergency: bool = False
    heat_pump: bool = False
    cold_since_ms: int | None = None
    hot_since_ms: int | None = None
    aux_since_ms: int | None = None
    silent_timer: asyncio.TimerHandle | None = None


class HealthBook:
    """The findings of every paired thermostat and what they are judged on, kept and saved."""

    def __init__(
        self, context: CoreContext, *, runtime_figures: Callable[[str], RuntimeFigures]
    ) -> None:
        config = context.config
        self._zone = ZoneInfo(config.time_zone)
        self._context = context
        self._runtime_figures = runtime_figures
        self._outdoor_mark_ms: int | None = None
        self._day_timer: asyncio.TimerHandle | None = None
        self._thresholds = config.health
        # Longer than this between two contacts cannot be (see runtime.RuntimeLedger).
        self._max_gap_ms = int((config.hold_timeout + config.availability_grace) * 1000)
        self._watches: dict[str, Watch] = {}
        self._logged: set[tuple[str, str]] = set()
        self._outdoor: float | None = None
        self._day = 0
        self._day_degree_days = 0.0
        self._day_covered_ms = 0

    # -- the facade's face (facets.HealthFacet) --------------------------------------------------

    @property
    def thresholds(self) -> HealthThresholds:
        return self._thresholds

    def raised_between(self, serial: str, start: datetime, end: datetime) -> dict[str, int]:
        start_ms, end_ms = (int(moment.timestamp() * 1000) for moment in (start, end))
        watch = self._watches.get(serial)
        counts: dict[str, int] = {}
        for moment, kind in watch.raised if watch is not None else ():
            if start_ms <= moment < end_ms:
                counts[kind.value] = counts.get(kind.value, 0) + 1
        return counts

    def findings(self, serial: str) -> tuple[Finding, ...]:
        watch = self._watches.get(serial)
        if watch is None or not watch.findings:
            return ()
        return tuple(watch.findings[kind] for kind in FindingKind if kind in watch.findings)

    def serials_with_findings(self) -> list[str]:
        return [serial for serial, watch in self._watches.items() if watch.findings]

    def _with_outdoor(self, figures: dict[str, Figure]) -> dict[str, Figure]:
        if self._outdoor is not None:
            figures["outdoor"] = round(self._outdoor, 1)
        return figures

    def _raise(
        self,
        serial: str,
        watch: Watch,
        kind: FindingKind,
        now: int,
        figures: Mapping[str, Figure],
    ) -> None:
        if kind in watch.findings:
            return
        since = datetime.fromtimestamp(now / 1000, UTC)
        watch.findings[kind] = Finding(serial, kind, since, dict(figures))
        watch.raised.append((now, kind))
        _LOGGER.info("Thermostat %s: %s found (%s)", serial, kind.value, dict(figures))
        self._changed(serial)

    def _clear(self, serial: str, watch: Watch, kind: FindingKind) -> None:
        if watch.findings.pop(kind, None) is not None:
            _LOGGER.info("Thermostat %s: %s cleared", serial, kind.value)
            self._changed(serial)

    def _changed(self, serial: str) -> None:
        self._context.request_save()
        self._context.events.publish(ServiceEvent(EventKind.HEALTH, serial))

    def _note_no_outdoor(self) -> None:
        self._log_once(
            "",
            "no outdoor",
            "No outdoor temperature (no weather entity, or it has none): the health findings "
            "that need it (aux heat above its lockout, silent in the frost) are not raised",
        )

    def _log_once(self, serial: str, what: str, message: str, *args: object) -> None:
        if (serial, what) not in self._logged:
            self._logged.add((serial, what))
            _LOGGER.warning(message, *args)

    # -- saved state ------------------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        """Return what survives a restart: findings, the last hour's starts, the days."""
        return {
            "day": {
                "day": self._day,
                "degree_days": self._day_degree_days,
                "covered_ms": self._day_covered_ms,
            },
            "thermostats": {
                serial: {
                    "findings": [
                        {
                            "kind": finding.kind.value,
                            "since_ms": int(finding.since.timestamp() * 1000),
                            "figures": dict(finding.figures),
                        }
                        for finding in watch.findings.values()
                    ],
                    "starts": {cycle: list(starts) for cycle, starts in watch.starts.items()},
                    "days": [list(day) for day in watch.days],
                    "raised": [[moment, kind.value] for moment, kind in watch.raised],
                    "day_start_heating_s": watch.day_start_heating_s,
                }
                for serial, watch in self._watches.items()
            },
        }

    def load(self, data: object) -> None:
        """Restore what `dump` saved (absent before this feature: nothing found yet)."""
        self._watches = {}
        data = saved_record(data, _LOGGER, "Ignoring stored health findings: they are no record")
        if data is None:
            return
        day = data.get("day")
        if isinstance(day, Mapping):
            stored_day = day.get("day")
            degree_days = in_range(day.get("degree_days"), (0.0, 1000.0))
            covered = in_range(day.get("covered_ms"), (0.0, DAY_MS))
            if isinstance(stored_day, int) and degree_days is not None and covered is not None:
                self._day = stored_day
                self._day_degree_days = degree_days
                self._day_covered_ms = int(covered)
        thermostats = data.get("thermostats")
        for serial, stored in thermostats.items() if isinstance(thermostats, Mapping) else ():
            if isinstance(serial, str) and isinstance(stored, Mapping):
                self._watches[serial] = self._load_watch(serial, stored)
            else:
                _LOGGER.warning("Ignoring stored health of %s: it is no record", serial)

    def _load_watch(self, serial: str, stored: Mapping[str, Any]) -> Watch:
        watch = Watch()
        for item in _saved_list(stored, "findings"):
            finding = load_finding(serial, item)
            if finding is None:
                _LOGGER.warning("Ignoring a stored health finding of %s: it does not parse", serial)
            else:
                watch.findings[finding.kind] = finding
        starts = stored.get("starts")
        for cycle in CYCLE_RELAYS:
            kept = starts.get(cycle) if isinstance(starts, Mapping) else None
            for moment in kept if isinstance(kept, list) else ():
                if isinstance(moment, int) and not isinstance(moment, bool):
                    watch.starts[cycle].append(moment)
        for item in _saved_list(stored, "raised"):
            if (row := _timed_row(item, 2)) is not None and row[1] in KIND_VALUES:
                watch.raised.append((row[0], FindingKind(row[1])))
        for item in _saved_list(stored, "days"):
            if (
                (day := _timed_row(item, 3)) is not None
                and (minutes := in_range(day[1], (0.0, 1440.0 * 8))) is not None
                and (degree_days := in_range(day[2], (MIN_DEGREE_DAYS, 1000.0))) is not None
            ):
                watch.days.append((day[0], minutes, degree_days))
        watch.day_start_heating_s = in_range(stored.get("day_start_heating_s"), (0.0, math.inf))
        return watch

    # -- the days --------------------------------------------------------------------------------

    def _day_of(self, now_ms: int) -> int:
        return datetime.fromtimestamp(now_ms / 1000, self._zone).date().toordinal()

    def _midnight_ms(self, day: int) -> int:
        """When `day` (an ordinal) begins in the home's zone, in ms."""
        start = datetime.combine(datetime.fromordinal(day).date(), time(), self._zone)
        return int(start.timestamp() * 1000)

    def _count_degree_days(self, now: int) -> None:
        """Add the degree-days since the outdoor temperature was last noted, up to `now`."""
        mark, outdoor = self._outdoor_mark_ms, self._outdoor
        if mark is None or outdoor is None or now <= mark:
            return
        span = min(now - mark, DAY_MS)
        self._day_degree_days += span / DAY_MS * max(0.0, DEGREE_DAY_BASE_C - outdoor)
        self._day_covered_ms += span
        self._outdoor_mark_ms = now

    def _arm_day(self) -> None:
        now = self._context.clock.now_ms()
        if not self._day:
            self._day = self._day_of(now)
        delay = (self._midnight_ms(self._day + 1) - now) / 1000
        self._day_timer = asyncio.get_running_loop().call_later(max(delay, 0) + 0.5, self._day_over)

    def _day_over(self) -> None:
        """Judge the day that ended for every thermostat, and begin the next."""
        now = self._context.clock.now_ms()
        self._count_degree_days(min(now, self._midnight_ms(self._day + 1)))
        counted = self._day_covered_ms >= MIN_DAY_COVERAGE * DAY_MS
        degree_days = self._day_degree_days
        if not counted:
            self._log_once(
                "",
                "no outdoor",
                "No outdoor temperature for most of the day: heating runtime per degree-day "
                "is not judged for it",
            )
        for serial, watch in self._watches.items():
            heating_s = self._heating_seconds(serial)
            start = watch.day_start_heating_s
            watch.day_start_heating_s = heating_s
            if start is None or not counted or degree_days < MIN_DEGREE_DAYS:
                continue
            minutes = max(0.0, heating_s - start) / 60
            self._judge_day(serial, watch, minutes, degree_days, now)
            watch.days.append((self._day, round(minutes, 1), round(degree_days, 2)))
        self._day = self._day_of(now)
        self._day_degree_days = 0.0
        self._day_covered_ms = 0
        self._context.request_save()
        self._arm_day()

    def _judge_day(
        self, serial: str, watch: Watch, minutes: float, degree_days: float, now: int
    ) -> None:
        if len(watch.days) < MIN_HISTORY_DAYS:
            return
        usual = median(m / d for _, m, d in watch.days)
        ratio = minutes / degree_days
        factor = self._thresholds.long_runtime_factor
        if minutes >= MIN_LONG_RUNTIME_MINUTES and ratio > factor * usual:
            self._raise(
                serial,
                watch,
                FindingKind.LONG_RUNTIME,
                now,
                {
                    "runtime_minutes": round(minutes),
                    "degree_days": round(degree_days, 1),
                    "minutes_per_degree_day": round(ratio, 1),
                    "median_minutes_per_degree_day": round(usual, 1),
                    "factor": factor,
                    "days": len(watch.days),
                },
            )
        else:
            self._clear(serial, watch, FindingKind.LONG_RUNTIME)

    def _heating_seconds(self, serial: str) -> float:
        seconds = self._runtime_figures(serial).seconds
        return sum(seconds.get(name, 0.0) for name in HEATING_EQUIPMENT)


def _saved_list(stored: Mapping[str, Any], name: str) -> list[Any]:
    items = stored.get(name)
    return items if isinstance(items, list) else []


def _timed_row(item: object, length: int) -> list[Any] | None:
    """Return a saved row (a list of `length`, first a time in ms), None when it is not one."""
    if isinstance(item, list) and len(item) == length and isinstance(item[0], int):
        return item
    return None


def load_finding(serial: str, item: object) -> Finding | None:
    """Return a saved finding of the thermostat; None when it does not parse."""
    if not isinstance(item, Mapping):
        return None
    try:
        kind = FindingKind(str(item.get("kind")))
    except ValueError:
        return None
    since_ms = item.get("since_ms")
    figures = item.get("figures")
    if (
        not isinstance(since_ms, int)
        or isinstance(since_ms, bool)
        or not isinstance(figures, Mapping)
    ):
        return None
    kept: dict[str, Figure] = {
        str(name): value
        for name, value in figures.items()
        if isinstance(value, str) or finite_number(value) is not None
    }
    try:
        since = datetime.fromtimestamp(since_ms / 1000, UTC)
    except OverflowError, OSError, ValueError:
        return None
    return Finding(serial, kind, since, kept)
