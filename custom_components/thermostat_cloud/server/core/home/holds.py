"""Holds: a setpoint kept until a time, across the thermostat's own schedule, then the schedule.

Gen 1/2 firmware keeps a manual setpoint only until its next schedule entry. A hold keeps one
longer: when the schedule moves the setpoint during the hold, the hold's setpoint is written
back. A setpoint that is not the schedule's (a person at the dial) ends the hold, as on the
thermostat. At its end the thermostat gets its schedule's setpoint of that moment; a hold that
ended while the service was down ends at start.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
import logging
from typing import Any
from zoneinfo import ZoneInfo

from ...model.buckets import bucket_key
from ...model.records import FlatRecord, is_int
from ..context import CoreContext
from ..events import ChangeSource, EventKind, Follows, ServiceEvent
from ..read.command_errors import CommandError, ErrorCode, Reason
from ..read.readings import BucketReadings, takes_range
from ..read.schedule import (
    ScheduledSetpoint,
    as_plain_number,
    next_schedule_change,
    scheduled_setpoint,
)
from ..write.changes import SAME_SETPOINT_C, Author, Rule
from ..write.commands import Commands

_LOGGER = logging.getLogger(__name__)

SETPOINT_FIELDS = frozenset(
    {
        "shared.target_temperature",
        "shared.target_temperature_low",
        "shared.target_temperature_high",
    }
)
"""The fields a dial turn or a schedule entry changes."""
TOUCHED_BY_FIELD = "shared.touched_by"
"""Who moved the setpoint, should firmware say: `{"touched_by": 1}` its schedule, `2` the dial,
`3` a cloud (the protocol notes, "Temperature change source tracking"). A 5.9.4-5 capture
has it empty (`{}`), so without it the schedule is told apart by its entries."""
TOUCHED_BY_SCHEDULE = 1
TOUCHED_BY_DIAL = 2
SCHEDULE_CLOCK_SLACK_MS = 60_000
"""A schedule entry counts as passed this long before the server's clock says so: the
thermostat's clock follows the server's only to within the time a request takes."""


@dataclass(slots=True)
class Hold(FlatRecord):
    """One thermostat's hold: its setpoints (a target, or a low and a high) and its end."""

    until_ms: int
    target: float | None = None
    low: float | None = None
    high: float | None = None
    written_ms: int = 0
    """When the server last wrote the hold's setpoints (a schedule entry after it moves them)."""

    @classmethod
    def load(cls, saved: object) -> Hold | None:
        if not isinstance(saved, Mapping):
            return None
        until, written = saved.get("until_ms"), saved.get("written_ms", 0)
        if not is_int(until) or not is_int(written):
            return None
        hold = cls(
            until_ms=until,
            target=as_plain_number(saved.get("target")),
            low=as_plain_number(saved.get("low")),
            high=as_plain_number(saved.get("high")),
            written_ms=written,
        )
        has_range = hold.low is not None and hold.high is not None
        return hold if (hold.target is not None) != has_range else None


class Holds:
    """Every thermostat's hold: set, kept across the schedule, ended on time or by the dial."""

    def __init__(
        self,
        context: CoreContext,
        *,
        commands: Commands,
        frame_of: Callable[[str], float] = lambda serial: 0.0,
    ) -> None:
        """`frame_of`: the shift of the room a thermostat's setpoints were sent with.

        A hold keeps the room's setpoints (what was asked), so a new shift never ends it.
        """
        self._frame_of = frame_of
        self._context = context
        self._commands = commands
        self._zone = ZoneInfo(context.config.time_zone)
        self._holds: dict[str, Hold] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._following = False

    # -- reading -------------------------------------------------------------------------------

    def hold_of(self, serial: str) -> Hold | None:
        return self._holds.get(serial)

    def local_time(self, ms: int) -> datetime:
        """Return a clock time as the home's wall-clock time (naive), as schedules count it."""
        return datetime.fromtimestamp(ms / 1000, self._zone).replace(tzinfo=None)

    def _epoch_ms(self, local: datetime) -> int:
        return int(local.replace(tzinfo=self._zone).timestamp() * 1000)

    def schedule_of(self, serial: str) -> Mapping[str, Any]:
        return self._context.buckets.value(bucket_key("schedule", serial))

    def scheduled_now(self, serial: str, at_ms: int | None = None) -> ScheduledSetpoint | None:
        """Return the schedule's entry in force now (or at `at_ms`), None without a schedule."""
        when = self._context.clock.now_ms() if at_ms is None else at_ms
        return scheduled_setpoint(self.schedule_of(serial), self.local_time(when))

    # -- commands ------------------------------------------------------------------------------

    def hold(
        self,
        serial: str,
        *,
        temperature: object = None,
        low: object = None,
        high: object = None,
        until: datetime | None = None,
        duration: timedelta | None = None,
        until_next_change: bool = False,
    ) -> Hold:
        """Hold a temperature (or a low and a high) until a time, for a while, or to the next entry.

        Everything is checked before anything is written: a refused hold changes nothing.
        """
        self._commands.require_device(serial)
        now_ms = self._context.clock.now_ms()
        until_ms = self._end_of(serial, now_ms, until, duration, until_next_change)
        is_range = low is not None or high is not None
        if (temperature is None) == (not is_range):
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                "Give either a temperature or a low and a high temperature",
                Reason.HOLD_NEEDS_SETPOINT,
            )
        readings = BucketReadings(self._context.buckets, serial)
        if is_range:
            if not takes_range(readings.mode):
                raise CommandError(
                    ErrorCode.INVALID_VALUE,
                    "A low and a high temperature hold only in heat/cool mode",
                    Reason.HOLD_RANGE_NEEDS_RANGE_MODE,
                )
            self._commands.set_temperature_range(serial, low, high)
        else:
            self._commands.set_temperature(serial, temperature)
        hold = Hold(until_ms=until_ms, written_ms=now_ms, **_held(readings, self._frame_of(serial)))
        self._holds[serial] = hold
        _LOGGER.debug("%s: hold until %s", serial, self.local_time(until_ms))
        self._arm(serial, hold)
        self._changed(serial)
        return hold

    def _end_of(
        self,
        serial: str,
        now_ms: int,
        until: datetime | None,
        duration: timedelta | None,
        until_next_change: bool,
    ) -> int:
        """Return when a hold given these ends, Unix ms; refuse an end that is not later."""
        if sum((until is not None, duration is not None, until_next_change)) != 1:
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                "Give one end: a time, a duration, or until the next schedule change",
                Reason.HOLD_NEEDS_ONE_END,
            )
        if until is not None:
            if until.tzinfo is None:
                until = until.replace(tzinfo=self._zone)
            end_ms = int(until.timestamp() * 1000)
        elif duration is not None:
            end_ms = now_ms + int(duration.total_seconds() * 1000)
        else:
            change = next_schedule_change(self.schedule_of(serial), self.local_time(now_ms))
            if change is None:
                raise CommandError(
                    ErrorCode.INVALID_VALUE, "The thermostat has no schedule", Reason.NO_SCHEDULE
                )
            end_ms = self._epoch_ms(change.starts)
        if end_ms <= now_ms:
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                "The end must be later than the start",
                Reason.END_NOT_AFTER_START,
            )
        return end_ms

    def resume_schedule(self, serial: str) -> None:
        """End the hold (if any) and give the thermostat its schedule's setpoint now.

        Without a hold this undoes a dial turn too; with neither a hold nor a schedule there is
        nothing to resume and it is refused.
        """
        self._commands.require_device(serial)
        had_hold = self._drop(serial)
        scheduled = self.scheduled_now(serial)
        if scheduled is None:
            if had_hold:
                _LOGGER.info("%s: hold ended; no schedule, so the setpoint stays", serial)
                return
            raise CommandError(
                ErrorCode.INVALID_VALUE, "The thermostat has no schedule", Reason.NO_SCHEDULE
            )
        self._write(serial, scheduled.target, scheduled.low, scheduled.high)

    # -- the hold's life -----------------------------------------------------------------------

    def _drop(self, serial: str) -> bool:
        if (handle := self._timers.pop(serial, None)) is not None:
            handle.cancel()
        if self._holds.pop(serial, None) is None:
            return False
        self._changed(serial)
        return True

    def forget(self, serial: str) -> None:
        self._drop(serial)

    def _changed(self, serial: str) -> None:
        self._context.request_save()
        self._context.events.publish(ServiceEvent(EventKind.HOLD, serial))

    def _arm(self, serial: str, hold: Hold) -> None:
        if (handle := self._timers.pop(serial, None)) is not None:
            handle.cancel()
        delay = max(0.0, (hold.until_ms - self._context.clock.now_ms()) / 1000)
        self._timers[serial] = asyncio.get_running_loop().call_later(delay, self._elapsed, serial)

    def _elapsed(self, serial: str) -> None:
        # The hold armed it: replacing or ending a hold cancels its timer.
        self._timers.pop(serial, None)
        _LOGGER.debug("%s: hold ended; back to the schedule", serial)
        self._end(serial)

    def _end(self, serial: str) -> None:
        """End the hold on time: the thermostat gets its schedule's setpoint of this moment."""
        self._drop(serial)
        scheduled = self.scheduled_now(serial)
        if scheduled is None:
            _LOGGER.info("%s: hold ended; no schedule, so the setpoint stays", serial)
            return
        with self._commands.acting_as(Author.rule(Rule.HOLD)):
            self._write(serial, scheduled.target, scheduled.low, scheduled.high)

    def _write(
        self, serial: str, target: float | None, low: float | None, high: float | None
    ) -> None:
        """Write setpoints through the command layer as the thermostat's mode takes them."""
        range_mode = takes_range(BucketReadings(self._context.buckets, serial).mode)
        try:
            if low is not None and high is not None and range_mode:
                self._commands.set_temperature_range(serial, low, high)
            elif target is not None:
                self._commands.set_temperature(serial, target)
            else:
                _LOGGER.info(
                    "%s: the schedule holds a heat/cool range, the thermostat a single "
                    "setpoint: its setpoint stays",
                    serial,
                )
        except CommandError as err:
            # The thermostat's learning may have written a setpoint outside the limits.
            _LOGGER.warning("%s: the scheduled setpoint was not written: %s", serial, err.message)

    follows = Follows(fields=SETPOINT_FIELDS, kinds=frozenset({EventKind.PAIRING}))
    """The setpoints (a dial turn, the schedule) and pairing (unpaired, its hold ends)."""

    def follow(self, event: ServiceEvent) -> None:
        """Look at a setpoint change during a hold, once the write that made it is done.

        A thermostat unpaired (or paired anew) loses its hold: it is no longer the home's.
        """
        if not self._following:
            return
        if event.kind is EventKind.PAIRING and event.serial in self._holds:
            self._drop(event.serial)
            return
        if (
            event.kind is EventKind.STATE
            and event.serial in self._holds
            and not SETPOINT_FIELDS.isdisjoint(event.fields)
        ):
            touched_by = _touched_by(
                self._context.buckets.value(bucket_key("shared", event.serial))
            )
            asyncio.get_running_loop().call_soon(
                self._check_report,
                event.serial,
                event.source,
                touched_by if TOUCHED_BY_FIELD in event.fields else None,
            )

    def _check_report(self, serial: str, source: ChangeSource, touched_by: int | None) -> None:
        """Put the hold back if the schedule moved the setpoint; end it if a person did.

        A setpoint the server was told to write (the climate entity, an API) is a person's too.
        `touched_by`, when the same report set it, says which (1 the schedule, 2 the dial);
        else a setpoint that is the schedule's entry just passed is the schedule's.
        """
        hold = self._holds.get(serial)
        if hold is None:
            return
        readings = BucketReadings(self._context.buckets, serial)
        if _same(_held(readings, self._frame_of(serial)), hold.target, hold.low, hold.high):
            return
        # The thermostat's schedule writes its own entries, unshifted.
        reported = _held(readings)
        if source is ChangeSource.SERVER:
            _LOGGER.info("%s: a new setpoint was set; its hold ends", serial)
            self._drop(serial)
            return
        if touched_by == TOUCHED_BY_DIAL:
            _LOGGER.info("%s: the dial changed the setpoint; its hold ends", serial)
            self._drop(serial)
            return
        now_ms = self._context.clock.now_ms()
        scheduled = self.scheduled_now(serial, now_ms)
        entry_passed = next_schedule_change(
            self.schedule_of(serial), self.local_time(hold.written_ms)
        )
        if touched_by == TOUCHED_BY_SCHEDULE or (
            scheduled is not None
            and entry_passed is not None
            and self._epoch_ms(entry_passed.starts) <= now_ms + SCHEDULE_CLOCK_SLACK_MS
            and _same(reported, scheduled.target, scheduled.low, scheduled.high)
        ):
            _LOGGER.debug("%s: its schedule moved the setpoint during a hold; put back", serial)
            hold.written_ms = now_ms
            self._context.request_save()
            with self._commands.acting_as(Author.rule(Rule.HOLD)):
                self._write(serial, hold.target, hold.low, hold.high)
            return
        _LOGGER.info("%s: the setpoint was changed on the thermostat; its hold ends", serial)
        self._drop(serial)

    # -- persistence and lifecycle ---------------------------------------------------------

    def load(self, saved: object) -> None:
        """Restore saved holds (the document's `holds`); absent in older data: none."""
        self._holds.clear()
        if not isinstance(saved, Mapping):
            return
        for serial, stored in saved.items():
            if (hold := Hold.load(stored)) is None:
                _LOGGER.warning("Ignoring the stored hold of %s: it does not parse", serial)
                continue
            self._holds[str(serial)] = hold

    def dump(self) -> dict[str, Any]:
        return {serial: hold.dump() for serial, hold in self._holds.items()}

    def start(self) -> None:
        """Follow the thermostats' reports; arm each hold, ending those that ended meanwhile."""
        self._following = True
        now_ms = self._context.clock.now_ms()
        for serial, hold in list(self._holds.items()):
            if hold.until_ms <= now_ms:
                _LOGGER.info(
                    "%s: its hold ended at %s, while the server was stopped; back to the schedule",
                    serial,
                    datetime.fromtimestamp(hold.until_ms / 1000, UTC).isoformat(),
                )
                self._end(serial)
            else:
                self._arm(serial, hold)

    def stop(self) -> None:
        """Stop the timers and stop following reports; `start` re-arms them from the holds."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        self._following = False


def _touched_by(shared: Mapping[str, Any]) -> int | None:
    """Return `shared.touched_by.touched_by` when it is a whole number, else None."""
    touched = shared.get("touched_by")
    who = touched.get("touched_by") if isinstance(touched, Mapping) else None
    return who if is_int(who) else None


def _held(readings: BucketReadings, frame: float = 0.0) -> dict[str, float | None]:
    """Return the setpoints the thermostat has now plus `frame`, as a hold keeps them."""
    if takes_range(readings.mode):
        low, high = readings.range_ends
        return {
            "low": None if low is None else float(low) + frame,
            "high": None if high is None else float(high) + frame,
        }
    target = as_plain_number(readings.shared.get("target_temperature"))
    return {"target": None if target is None else target + frame}


def _same(
    reported: Mapping[str, float | None],
    target: float | None,
    low: float | None,
    high: float | None,
) -> bool:
    """Return whether reported setpoints are these (None matches nothing)."""
    wanted = {"target": target} if "target" in reported else {"low": low, "high": high}
    return all(
        (got := reported.get(name)) is not None
        and want is not None
        and abs(got - want) < SAME_SETPOINT_C
        for name, want in wanted.items()
    )
