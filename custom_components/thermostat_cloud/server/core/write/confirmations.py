"""Whether each thermostat obeys: every command followed until the thermostat confirms it.

The one keeper of what was asked and not yet confirmed: commands tell it what they asked,
delivery when a push was written, the device session what the thermostat reported.

A field is confirmed when the thermostat's own report, made over the revision the command
wrote (its `base_object_revision`), carries the value asked for; a setpoint push also by
`target_change_pending: false` in such a report (firmware's acknowledgement of the push that
woke its display). A field other than a setpoint is also confirmed when the thermostat's
subscribe lists the bucket at or past the revision the command wrote: it keeps the command's
values (firmware need not PUT back what it applied). A report over an older revision confirms
nothing: it was made before the thermostat had the command. A field is superseded when a newer
command asks it again, or when the thermostat reports another value for it (a person at the
dial) and that value is kept.

A thermostat is *not taking commands* when a push it was written on a held connection is not
confirmed within `WRITTEN_DEADLINE_S`, or it has not come for a command within
`CONTACT_DEADLINE_S`. That stays until the thermostat confirms (and nothing older is overdue)
or nothing is pending any more.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
import heapq
import logging
import math
from typing import Any, Protocol

from ...model.buckets import Bucket, field_name, split_key
from ..context import CoreContext
from ..events import EventKind, ServiceEvent
from ..firmware.trouble import CONFLICTS_MANY, Trouble, likely_trouble
from ..read.state import ThermostatState

_LOGGER = logging.getLogger(__name__)

WRITTEN_DEADLINE_S = 120
"""A command written to a held connection and not confirmed within this: not taking commands."""
CONTACT_DEADLINE_S = 600
"""A command the thermostat has not come for within this: not taking commands."""
NOT_WAITED_FOR = frozenset(
    {
        # The wake flag: its `false` is the acknowledgement, not a value asked for.
        "target_change_pending",
        # Stamps of when the server asked, which firmware need not report back as sent.
        "manual_eco_timestamp",
        "fan_timer_duration",
        # Names clients read; firmware keeps the other name (`eco`, `temperature_lock`).
        "eco_mode_enabled",
        "temperature_lock_enabled",
    }
)
"""Fields a command writes that the thermostat is not expected to report back."""
ACKNOWLEDGED_FIELDS = frozenset(
    {
        "target_temperature",
        "target_temperature_low",
        "target_temperature_high",
        "target_temperature_type",
    }
)
"""Fields a setpoint push carries that `target_change_pending: false` acknowledges."""
STAMP_KEYS = frozenset({"touched_by", "mode_update_timestamp"})
"""Keys of an object field (`device.eco`) firmware stamps itself: not compared."""
NUMBER_TOLERANCE = 0.01
"""Firmware reports temperatures as floats of its own (20.99999 for 21)."""


class Report(Protocol):
    """One bucket of a thermostat's PUT (`sessions.PutEntry`)."""

    @property
    def key(self) -> str: ...

    @property
    def fields(self) -> Mapping[str, Any]: ...

    @property
    def base_revision(self) -> int:
        """`base_object_revision`: the revision the thermostat wrote over."""


@dataclass(slots=True)
class PendingField:
    """One field a command asked for, not confirmed yet."""

    key: str
    field: str
    value: Any
    revision: int
    """The bucket revision the command wrote: a report over it knows the command."""
    timestamp: int
    """The bucket timestamp the command wrote: a listing at it holds the command."""
    since_ms: int
    written_ms: int | None = None
    """When it was written to a held connection (None: not yet, or not since a restart)."""

    def as_record(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "field": self.field,
            "value": self.value,
            "revision": self.revision,
            "timestamp": self.timestamp,
            "since": self.since_ms,
        }

    @classmethod
    def from_record(cls, record: object) -> PendingField | None:
        if not isinstance(record, dict) or "value" not in record:
            return None
        key, name = record.get("key"), record.get("field")
        numbers = [record.get(n) for n in ("revision", "timestamp", "since")]
        ints = [n for n in numbers if isinstance(n, int) and not isinstance(n, bool)]
        if not isinstance(key, str) or split_key(key) is None or not isinstance(name, str):
            return None
        if len(ints) != len(numbers):
            return None
        revision, timestamp, since = ints
        return cls(key, name, record["value"], revision, timestamp, since)


def carries(asked: object, reported: object) -> bool:
    """Whether a reported value is the value asked for (floats within a tolerance).

    An object field is compared key by key, without the stamps firmware puts on it.
    """
    if isinstance(asked, bool) or isinstance(reported, bool):
        return asked is reported
    if isinstance(asked, int | float) and isinstance(reported, int | float):
        return math.isclose(asked, reported, abs_tol=NUMBER_TOLERANCE)
    if isinstance(asked, dict) and isinstance(reported, dict):
        return all(
            name in reported and carries(value, reported[name])
            for name, value in asked.items()
            if name not in STAMP_KEYS
        )
    return asked == reported


class Confirmations:
    """Pending commands per thermostat, and which thermostats are not taking commands."""

    def __init__(
        self,
        context: CoreContext,
        *,
        state_of: Callable[[str], ThermostatState],
        later: Callable[[Callable[[], None]], None] = lambda action: action(),
    ) -> None:
        """`later` publishes what a report settles once its answer is written (`AnswerFirst`)."""
        self._context = context
        self._state_of = state_of
        self._later = later
        self._pending: dict[str, dict[tuple[str, str], PendingField]] = {}
        """Serial -> (bucket key, field) -> what was asked."""
        self._trouble_since: dict[str, int] = {}
        """Serial -> when it was found not taking commands (ms)."""
        self._conflicts: dict[str, list[int]] = {}
        """Serial -> when its recent reports conflicted (ms)."""
        self._clock_skew_s: dict[str, float] = {}
        """Serial -> how far its clock was off the server's in its last eco report."""
        self._due: list[tuple[int, str]] = []
        """Heap of (when a thermostat's earliest pending field becomes overdue, serial); an
        entry may be stale: the thermostat is checked then, and goes back in if still due."""
        self._armed: dict[str, int] = {}
        """Serial -> the earliest due time it has in `_due`."""
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: int | None = None
        """One timer for every thermostat, at the earliest due time: a command then costs a
        heap push, not a loop timer armed and cancelled (cancelled timers pile up in the
        loop until they come due)."""
        self._started_ms = 0
        self._running = False

    # -- what was asked ----------------------------------------------------------------------

    def asked(
        self,
        serial: str,
        buckets: Iterable[Bucket],
        updates: Mapping[str, Mapping[str, Any]],
        changed: Mapping[str, frozenset[str]],
    ) -> bool:
        """Record the fields a command changed in these buckets of one thermostat.

        `changed`: the fields the merge changed, by bucket key, as events name them; a field
        that already held the value asked for is not waited for. Returns whether a field is
        pending now: the writer saves and announces that (a COMMANDS event) once the push is
        written.
        """
        now = self._context.clock.now_ms()
        pending = self._pending.get(serial)
        added = False
        for bucket in buckets:
            bucket_type = bucket.key.partition(".")[0]
            changed_here = changed[bucket.key]
            for name, value in updates[bucket.key].items():
                if name in NOT_WAITED_FOR or field_name(bucket_type, name) not in changed_here:
                    continue
                if pending is None:
                    pending = self._pending[serial] = {}
                pending[(bucket.key, name)] = PendingField(
                    bucket.key, name, value, bucket.revision, bucket.timestamp, now
                )
                added = True
        if added and serial not in self._armed:  # an earlier check is due anyway
            self._arm(serial)
        return added

    def written(self, serial: str, keys: Iterable[str]) -> None:
        pending = self._pending.get(serial)
        if not pending:
            return
        now = self._context.clock.now_ms()
        wrote = False
        for key in keys:
            for entry in pending.values():
                if entry.key == key and entry.written_ms is None:
                    entry.written_ms = now
                    wrote = True
        if wrote:
            self._due_by(serial, now + WRITTEN_DEADLINE_S * 1000)

    def listed(self, serial: str, known: Mapping[str, int]) -> None:
        """Note the buckets a thermostat lists as it subscribes: it holds what it lists.

        Only the setpoint acknowledgement (`target_change_pending: false`) is waited for beyond
        that: no source shows firmware reporting back every field it applied, and a thermostat that
        keeps what it was sent but says nothing more must raise no alarm. After a restart the
        listing says which commands the thermostat has.
        """
        pending = self._pending.get(serial)
        if not pending:
            return
        now = self._context.clock.now_ms()
        confirmed = 0
        for (entry_key, name), entry in list(pending.items()):
            if known.get(entry.key, 0) < entry.timestamp:
                continue
            if name in ACKNOWLEDGED_FIELDS:
                if entry.written_ms is None:
                    entry.written_ms = now
                continue
            del pending[(entry_key, name)]
            confirmed += 1
        if not confirmed:
            self._arm(serial)
            return
        if not pending:
            del self._pending[serial]
        self._context.request_save()
        _LOGGER.debug("%s holds %d field(s) of commands it was sent", serial, confirmed)
        self._settle(serial, confirmed=True)
        self._arm(serial)

    # -- what the thermostat reported ------------------------------------------------------

    def reported(
        self,
        serial: str,
        reports: Sequence[Report],
        applied: Mapping[str, Mapping[str, Any]],
        crossed: Collection[str],
        kept: Callable[[str, str], object],
    ) -> None:
        """Confirm or supersede what a thermostat's PUT reports.

        `crossed`: the keys whose report conflicted with a newer change: not applied, yet still what
        the thermostat applied of the commands before it, so they confirm, never supersede.
        """
        pending = self._pending.get(serial)
        device_report = applied.get(f"device.{serial}")
        if device_report is not None and isinstance(eco := device_report.get("eco"), dict):
            self._note_clock(serial, eco)
        if not pending:
            return
        confirmed = superseded = 0
        for report in reports:
            key = report.key
            stored = key in applied
            if not stored and key not in crossed:
                continue
            fields = report.fields
            base = report.base_revision
            acknowledged = fields.get("target_change_pending") is False
            for (entry_key, name), entry in list(pending.items()):
                if entry_key != key:
                    continue
                knows_command = base >= entry.revision
                if name in fields:
                    if knows_command and carries(entry.value, fields[name]):
                        del pending[(entry_key, name)]
                        confirmed += 1
                    elif stored and not carries(entry.value, kept(key, name)):
                        # Another value was kept: the dial's, over the command.
                        del pending[(entry_key, name)]
                        superseded += 1
                elif acknowledged and knows_command and name in ACKNOWLEDGED_FIELDS:
                    del pending[(entry_key, name)]
                    confirmed += 1
        if confirmed or superseded:
            if not pending:
                del self._pending[serial]
            self._context.request_save()
            if confirmed:
                _LOGGER.debug("%s confirmed %d field(s) of commands", serial, confirmed)
            self._settle(serial, confirmed=bool(confirmed))

    def conflicted(self, serial: str) -> None:
        """Note a report that crossed the server's change (an `if_object_revision` conflict)."""
        now = self._context.clock.now_ms()
        recent = [t for t in self._conflicts.get(serial, ()) if now - t < CONTACT_DEADLINE_S * 1000]
        recent.append(now)
        self._conflicts[serial] = recent[-CONFLICTS_MANY:]

    def _note_clock(self, serial: str, eco: Mapping[str, Any]) -> None:
        stamp = eco.get("mode_update_timestamp")
        if isinstance(stamp, int | float) and not isinstance(stamp, bool) and stamp > 0:
            self._clock_skew_s[serial] = stamp - self._context.clock.now_ms() / 1000

    # -- reading -----------------------------------------------------------------------------

    def pending(self, serial: str) -> list[PendingField]:
        return sorted(self._pending.get(serial, {}).values(), key=lambda e: e.since_ms)

    def is_pending(self, serial: str) -> bool:
        return serial in self._pending

    def taking_commands(self, serial: str) -> bool:
        return serial not in self._trouble_since

    def trouble(self, serial: str) -> Trouble | None:
        since = self._trouble_since.get(serial)
        if since is None:
            return None
        now = self._context.clock.now_ms()
        recent = [t for t in self._conflicts.get(serial, ()) if now - t < CONTACT_DEADLINE_S * 1000]
        return likely_trouble(
            self._state_of(serial),
            since,
            clock_skew_s=self._clock_skew_s.get(serial),
            recent_conflicts=len(recent),
        )

    def troubled(self) -> list[str]:
        return list(self._trouble_since)

    # -- the rule ----------------------------------------------------------------------------

    def _deadlines(self, serial: str) -> list[int]:
        """When each pending field becomes overdue (ms)."""
        out = []
        for entry in self._pending.get(serial, {}).values():
            if entry.written_ms is not None:
                out.append(entry.written_ms + WRITTEN_DEADLINE_S * 1000)
            else:
                # A thermostat cannot come while the server is down: counted from the start.
                out.append(max(entry.since_ms, self._started_ms) + CONTACT_DEADLINE_S * 1000)
        return out

    def _overdue(self, serial: str) -> bool:
        now = self._context.clock.now_ms()
        return any(deadline <= now for deadline in self._deadlines(serial))

    def _arm(self, serial: str) -> None:
        if not self._running or serial in self._trouble_since:
            return
        deadlines = self._deadlines(serial)
        if not deadlines:
            return
        self._due_by(serial, min(deadlines))

    def _due_by(self, serial: str, due: int) -> None:
        """Check the thermostat at `due` (ms) at the latest."""
        if not self._running or serial in self._trouble_since:
            return
        armed = self._armed.get(serial)
        if armed is not None and armed <= due:
            return  # checked by then anyway
        self._armed[serial] = due
        heapq.heappush(self._due, (due, serial))
        if self._timer_at is None or due < self._timer_at:
            self._arm_timer(due)

    def _arm_timer(self, due: int) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = due
        delay = max(due - self._context.clock.now_ms(), 0) / 1000
        self._timer = asyncio.get_running_loop().call_later(delay, self._sweep)

    def _sweep(self) -> None:
        self._timer = self._timer_at = None
        now = self._context.clock.now_ms()
        due: set[str] = set()
        while self._due and self._due[0][0] <= now:
            when, serial = heapq.heappop(self._due)
            if self._armed.get(serial) == when:
                del self._armed[serial]
            due.add(serial)
        for serial in due:
            self._check(serial)
        if self._due and self._timer is None:
            self._arm_timer(self._due[0][0])

    def _check(self, serial: str) -> None:
        if serial in self._trouble_since or serial not in self._pending:
            return
        if self._overdue(serial):
            self._trouble_since[serial] = self._context.clock.now_ms()
            trouble = self.trouble(serial)
            _LOGGER.warning(
                "Thermostat %s is not taking commands: %d field(s) not confirmed; likely: %s",
                serial,
                len(self._pending.get(serial, ())),
                ", ".join(trouble.causes) if trouble is not None else "unknown",
            )
            self._publish(serial)
        else:
            self._arm(serial)

    def _settle(self, serial: str, *, confirmed: bool) -> None:
        """After confirmations or supersessions: clear the trouble when it no longer holds."""
        if serial in self._trouble_since and (
            serial not in self._pending or (confirmed and not self._overdue(serial))
        ):
            del self._trouble_since[serial]
            _LOGGER.info("Thermostat %s is taking commands again", serial)
            self._arm(serial)  # what is still pending is checked again
        self._publish(serial)

    def _publish(self, serial: str) -> None:
        event = ServiceEvent(EventKind.COMMANDS, serial)
        self._later(lambda: self._context.events.publish(event))

    # -- lifecycle and persistence -----------------------------------------------------------

    def forget(self, serial: str) -> None:
        had = serial in self._pending or serial in self._trouble_since
        self._pending.pop(serial, None)
        self._trouble_since.pop(serial, None)
        self._conflicts.pop(serial, None)
        self._clock_skew_s.pop(serial, None)
        if had:
            self._context.request_save()
            self._publish(serial)

    def load(self, data: object) -> None:
        """Restore the pending commands saved under `pending_commands` (absent: none)."""
        self._pending.clear()
        if not isinstance(data, dict):
            return
        for serial, records in data.items():
            if not isinstance(serial, str) or not isinstance(records, list):
                continue
            fields = [f for r in records if (f := PendingField.from_record(r)) is not None]
            if len(fields) != len(records):
                _LOGGER.warning("Ignoring pending commands of %s that do not parse", serial)
            if fields:
                self._pending[serial] = {(f.key, f.field): f for f in fields}

    def dump(self) -> dict[str, list[dict[str, Any]]]:
        return {
            serial: [entry.as_record() for entry in fields.values()]
            for serial, fields in self._pending.items()
        }

    def start(self) -> None:
        """Arm the checks of commands pending from before a restart."""
        self._running = True
        self._started_ms = self._context.clock.now_ms()
        for serial in self._pending:
            self._arm(serial)

    def stop(self) -> None:
        self._running = False
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._timer_at = None
        self._due.clear()
        self._armed.clear()


WITHHELD_VALUES = frozenset({"temperature_lock_pin_hash"})
"""Fields whose asked value is not shown (`null`): the lock's PIN hash is a credential."""


def pending_record(entry: PendingField, iso: Callable[[int], str]) -> dict[str, Any]:
    """Return one pending field as the control API shows it (`iso` formats a time)."""
    bucket_type = entry.key.partition(".")[0]
    return {
        "field": field_name(bucket_type, entry.field),
        "value": None if entry.field in WITHHELD_VALUES else entry.value,
        "since": iso(entry.since_ms),
        "written": iso(entry.written_ms) if entry.written_ms is not None else None,
    }
