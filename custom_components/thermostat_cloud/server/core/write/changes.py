"""Who changed a thermostat's setpoint, mode or preset, carried on the one event path.

A command runs inside `Commands.acting_as(author)`; a thermostat's report is the thermostat's,
at its dial or by its own schedule. The write path stamps each STATE event with
`ChangeLog.author_of` (`ServiceEvent.author`).

Whether the thermostat's schedule or a person at the dial moved its setpoint: the 5.9.4-5
capture's `shared.touched_by` is an empty object, so firmware is not seen to say. A reported
setpoint is the schedule's when it is the entry in force and that entry began within
`SCHEDULE_ENTRY_WINDOW_MS` (the thermostat takes an entry when it begins); any other is the
dial's (docs/device-protocol.md, the hold's rule in holds.py).

The author's `host_context` is the host's own object (Home Assistant's `Context`), carried
untouched and never looked into here: the host gives it back on the events it fires.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo

from ...model.buckets import bucket_key
from ..context import CoreContext
from ..read.readings import BucketReadings, takes_range
from ..read.schedule import ScheduledSetpoint, as_plain_number, entries_of_day


class AuthorKind(StrEnum):
    """Who made a change."""

    THERMOSTAT = "thermostat"
    """At the thermostat: `name` is `dial` or `schedule`."""
    PERSON = "person"
    """A person in the host (Home Assistant): `name` is theirs, empty when unknown."""
    AUTOMATION = "automation"
    SCRIPT = "script"
    HOST = "host"
    """The host with no person, automation or script behind it (an integration of its own)."""
    RULE = "rule"
    """A rule of this service: `name` is a `Rule`."""
    API = "api"
    """An API client: `name` is its key's name; empty for the control API."""


class Rule(StrEnum):
    """The service's rules that write setpoints, modes or presets; the host translates each name."""

    AWAY = "away"
    """The home came back: a thermostat reported someone home."""
    ECO = "eco"
    """The home left eco because one thermostat left it on its dial."""
    HOLD = "hold"
    """A hold kept its setpoint across the schedule, or ended on time."""
    VACATION = "vacation"
    ARRIVAL = "arrival"
    """The home left away and eco to be ready for an arrival."""
    ROOM = "room"
    """The followed room's temperature moved the setpoints the thermostat is sent."""


THERMOSTAT_DIAL = "dial"
THERMOSTAT_SCHEDULE = "schedule"


@dataclass(frozen=True, slots=True)
class Author:
    """Who made a change: a kind and a name, and the host's own context of it."""

    kind: AuthorKind
    name: str = ""
    host_context: object = field(default=None, compare=False, repr=False)
    """The host's object (Home Assistant's `Context`), opaque to the service."""

    @classmethod
    def rule(cls, rule: Rule) -> Author:
        return cls(AuthorKind.RULE, rule.value)

    @classmethod
    def api(cls, key_name: str = "") -> Author:
        """Return the author of an API client's change (no key: the control API)."""
        return cls(AuthorKind.API, key_name)


type Authoring = Author | Callable[[], Author]
"""An author, or how to name one: the host names its own once the change is written (its
push goes out first)."""


class ChangeKind(StrEnum):
    """What an attributed change changed."""

    SETPOINT = "setpoint"
    MODE = "mode"
    PRESET = "preset"


ATTRIBUTED_FIELDS: Mapping[str, ChangeKind] = {
    "shared.target_temperature": ChangeKind.SETPOINT,
    "shared.target_temperature_low": ChangeKind.SETPOINT,
    "shared.target_temperature_high": ChangeKind.SETPOINT,
    "shared.target_temperature_type": ChangeKind.MODE,
    "device.eco": ChangeKind.PRESET,
    "structure.away": ChangeKind.PRESET,
    "structure.manual_eco_all": ChangeKind.PRESET,
}
"""The fields (as events name them) whose change is attributed, and what each one is."""
ATTRIBUTED_BY_TYPE: Mapping[str, frozenset[str]] = {
    bucket_type: frozenset(
        name.partition(".")[2] for name in ATTRIBUTED_FIELDS if name.startswith(f"{bucket_type}.")
    )
    for bucket_type in {name.partition(".")[0] for name in ATTRIBUTED_FIELDS}
}
"""The attributed fields by bucket type, as a report names them (`target_temperature`)."""
_SETPOINT_FIELDS = frozenset(
    name for name, kind in ATTRIBUTED_FIELDS.items() if kind is ChangeKind.SETPOINT
)

SCHEDULE_ENTRY_WINDOW_MS = 10 * 60_000
"""A setpoint reported this long after its schedule entry began is still the schedule's: the
thermostat reports it at its next PUT, which is minutes apart at most."""
SAME_SETPOINT_C = 0.05
"""Reported setpoints this close are the same: firmware reports floats (21.0000001)."""


@dataclass(frozen=True, slots=True)
class Change:
    """A thermostat's last attributed change: what it changed, who, when (Unix ms)."""

    kinds: frozenset[ChangeKind]
    author: Author
    at_ms: int


def attributed(fields: frozenset[str]) -> frozenset[ChangeKind]:
    """Return what of these changed fields is attributed (none for most reports)."""
    return frozenset(ATTRIBUTED_FIELDS[name] for name in fields if name in ATTRIBUTED_FIELDS)


class ChangeLog:
    """The author of the change being written, and each thermostat's last attributed change."""

    def __init__(self, context: CoreContext) -> None:
        self._context = context
        self._zone = ZoneInfo(context.config.time_zone)
        self.acting: ContextVar[Authoring | None] = ContextVar("acting", default=None)
        """Who writes now (set by `WritePath.acting_as`). Task-local: a request that awaits
        inside `acting_as` names no other task's writes."""
        self._last: dict[str, Change] = {}
        self._starts: dict[str, tuple[tuple[int, date], list[tuple[float, ScheduledSetpoint]]]] = {}

    def author_of(self, serial: str, *, by_device: bool, fields: frozenset[str]) -> Author | None:
        """Return who made a change of these fields written as `serial`'s; None: not attributed.

        `by_device`: the thermostat's own report. A command outside any `acting_as` is the
        service's own bookkeeping (pairing), no one's change.
        """
        if not attributed(fields):
            return None
        if not by_device:
            acting = self.acting.get()
            return acting() if callable(acting) else acting
        if not _SETPOINT_FIELDS.isdisjoint(fields) and self._by_schedule(serial):
            return Author(AuthorKind.THERMOSTAT, THERMOSTAT_SCHEDULE)
        return Author(AuthorKind.THERMOSTAT, THERMOSTAT_DIAL)

    def note(self, serial: str, fields: frozenset[str], author: Author) -> Author | None:
        """Keep a thermostat's attributed change as its last; None if nothing is attributed."""
        kinds = attributed(fields)
        if not kinds:
            return None
        self._last[serial] = Change(kinds, author, self._context.clock.now_ms())
        return author

    def last(self, serial: str) -> Change | None:
        return self._last.get(serial)

    def forget(self, serial: str) -> None:
        self._last.pop(serial, None)
        self._starts.pop(serial, None)

    def _entry_starts(self, serial: str, now_ms: int) -> list[tuple[float, ScheduledSetpoint]]:
        """Return the schedule's entries of yesterday and today with their starts (Unix ms).

        Kept per schedule revision and day: a dial turn costs a look, not a parse.
        """
        bucket = self._context.buckets.get(bucket_key("schedule", serial))
        if bucket is None or not bucket.value:
            return []
        today = datetime.fromtimestamp(now_ms / 1000, self._zone).date()
        kept = self._starts.get(serial)
        if kept is None or kept[0] != (bucket.revision, today):
            entries = [
                (entry.starts.replace(tzinfo=self._zone).timestamp() * 1000, entry)
                for day in (today - timedelta(days=1), today)
                for entry in entries_of_day(bucket.value, day)
            ]
            kept = self._starts[serial] = ((bucket.revision, today), entries)
        return kept[1]

    def _by_schedule(self, serial: str) -> bool:
        """Return whether the setpoint just reported is the schedule entry that just began."""
        now_ms = self._context.clock.now_ms()
        began = [
            entry
            for starts_ms, entry in self._entry_starts(serial, now_ms)
            if now_ms - SCHEDULE_ENTRY_WINDOW_MS <= starts_ms <= now_ms
        ]
        if not began:
            return False
        entry = began[-1]
        readings = BucketReadings(self._context.buckets, serial)
        if takes_range(readings.mode):
            low, high = readings.range_ends
            return _same(low, entry.low) and _same(high, entry.high)
        return _same(readings.shared.get("target_temperature"), entry.target)


def _same(reported: Any, wanted: float | None) -> bool:
    got = as_plain_number(reported)
    return got is not None and wanted is not None and abs(got - wanted) < SAME_SETPOINT_C
