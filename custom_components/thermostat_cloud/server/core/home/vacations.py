"""Vacations: the whole home away from a start to an end, and home again in time.

Away is the command layer's `set_away` (manual eco, which firmware holds by itself). The home
comes back early enough for each thermostat to reach its schedule's setpoint at the end (see
`Vacations.return_ms`); then the thermostats get their own eco temperatures back. At start,
what came due while the service was stopped happens.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
import logging
import secrets
from typing import Any
from zoneinfo import ZoneInfo

from ...model.buckets import bucket_key
from ...model.records import UnstorableError, ensure_storable, is_int
from ..context import CoreContext
from ..events import HOME, ChangeSource, EventKind, Follows, ServiceEvent
from ..read.command_errors import CommandError, ErrorCode, Reason
from ..read.readings import BucketReadings
from ..read.schedule import as_plain_number, scheduled_setpoint
from ..read.validation import ECO_TEMPERATURE_MAX_C, ECO_TEMPERATURE_MIN_C, temperature_pair
from ..watch.runtime import COOLING, HEATING
from ..write.changes import Author, Rule
from ..write.commands import Commands

_LOGGER = logging.getLogger(__name__)

MAX_RETURN_LEAD_S = 6 * 3600
"""The earliest a vacation brings the home back before its end: a rate measured on a mild day
must not heat an empty house for a day."""
MAX_SUMMARY_LENGTH = 255
MIN_RATE_GAP_C = 0.5
"""A time-to-target for less than this much to go says too little about the rate."""
MAX_TIME_TO_TARGET_S = 24 * 3600
"""A time-to-target further off than this is no estimate of a rate."""


@dataclass(slots=True)
class Vacation:
    """One vacation: from `start_ms` to `end_ms` (Unix ms), eco temperatures optional."""

    id: str
    start_ms: int
    end_ms: int
    eco_low: float | None = None
    eco_high: float | None = None
    summary: str = ""
    """What the user called it ("Skiing"); empty: just a vacation."""
    active: bool = False
    """The home was put in away for it (and is still, as far as the vacation knows)."""
    returned: bool = False
    """The home came back before the end, to be warm by then; listed until the end."""
    saved_eco: dict[str, list[float | None]] = field(default_factory=dict)
    """Each thermostat's own eco temperatures (low, high), given back at the end."""

    def dump(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "start_ms": self.start_ms,
            "end_ms": self.end_ms,
            "eco_low": self.eco_low,
            "eco_high": self.eco_high,
            "summary": self.summary,
            "active": self.active,
            "returned": self.returned,
            "saved_eco": self.saved_eco,
        }

    @classmethod
    def load(cls, saved: object) -> Vacation | None:
        if not isinstance(saved, Mapping):
            return None
        ident, start, end = saved.get("id"), saved.get("start_ms"), saved.get("end_ms")
        if not isinstance(ident, str) or not is_int(start) or not is_int(end):
            return None
        saved_eco = saved.get("saved_eco")
        return cls(
            id=ident,
            start_ms=start,
            end_ms=end,
            eco_low=as_plain_number(saved.get("eco_low")),
            eco_high=as_plain_number(saved.get("eco_high")),
            summary=summary if isinstance(summary := saved.get("summary"), str) else "",
            active=saved.get("active") is True,
            returned=saved.get("returned") is True,
            saved_eco={
                str(serial): [as_plain_number(value) for value in pair]
                for serial, pair in (saved_eco.items() if isinstance(saved_eco, Mapping) else ())
                if isinstance(pair, list) and len(pair) == 2
            },
        )


class Vacations:
    """The home's vacations: checked, begun and ended on time, kept across restarts."""

    def __init__(
        self,
        context: CoreContext,
        *,
        commands: Commands,
        home_serials: Callable[[], list[str]],
        learned_rate: Callable[[str, str], float | None],
    ) -> None:
        """`learned_rate(serial, kind)`: the house model's rate (°C/h), None until learned."""
        self._learned_rate = learned_rate
        self._clock = context.clock
        self._buckets = context.buckets
        self._commands = commands
        self._events = context.events
        self._home_serials = home_serials
        self._zone = ZoneInfo(context.config.time_zone)
        self._request_save = context.request_save
        self._vacations: dict[str, Vacation] = {}
        self._rates: dict[str, float] = {}
        """°C per hour each thermostat last heated or cooled at (from its time-to-target)."""
        self._timer: asyncio.TimerHandle | None = None
        self._started = False

    # -- reading -------------------------------------------------------------------------------

    def vacations(self) -> list[Vacation]:
        """Return the vacations not yet over, by start."""
        return sorted(self._vacations.values(), key=lambda vacation: vacation.start_ms)

    def get(self, vacation_id: str) -> Vacation | None:
        return self._vacations.get(vacation_id)

    def return_ms(self, vacation: Vacation) -> int:
        """Return when the home comes back from this vacation, Unix ms.

        Each thermostat needs `(scheduled setpoint at the end - eco low) / heating rate` hours
        to heat back (for cooling: `(eco high - scheduled setpoint) / cooling rate`). The rate
        (°C per hour) is its house model's, once learned; before, what its last time-to-target
        showed: the degrees it still had to go over the time it said it needed. The home comes
        back by the longest of these before the end, at most MAX_RETURN_LEAD_S, never before
        the start; without a rate, at the end.
        """
        lead_s = 0.0
        for serial in self._home_serials():
            for kind, gap in zip(
                (HEATING, COOLING), self._gaps_at_end(serial, vacation), strict=True
            ):
                learned = self._learned_rate(serial, kind)
                rate = learned if learned is not None and learned > 0 else self._rates.get(serial)
                if gap > 0 and rate is not None and rate > 0:
                    lead_s = max(lead_s, gap / rate * 3600)
        lead_ms = int(min(lead_s, MAX_RETURN_LEAD_S) * 1000)
        return max(vacation.start_ms, vacation.end_ms - lead_ms)

    def _gaps_at_end(self, serial: str, vacation: Vacation) -> tuple[float, float]:
        """Return the degrees to heat and to cool from eco to the schedule at the end."""
        readings = BucketReadings(self._buckets, serial)
        local_end = datetime.fromtimestamp(vacation.end_ms / 1000, self._zone).replace(tzinfo=None)
        scheduled = scheduled_setpoint(
            self._buckets.value(bucket_key("schedule", serial)), local_end
        )
        if scheduled is None:
            return 0.0, 0.0
        eco_low = vacation.eco_low
        eco_high = vacation.eco_high
        if eco_low is None or eco_high is None:
            device = readings.device
            eco_low = as_plain_number(device.get("away_temperature_low"))
            eco_high = as_plain_number(device.get("away_temperature_high"))
        mode = readings.mode
        heat_gap = cool_gap = 0.0
        heat_to = scheduled.low if scheduled.target is None else scheduled.target
        cool_to = scheduled.high if scheduled.target is None else scheduled.target
        if mode in ("heat", "emergency", "range") and heat_to is not None and eco_low is not None:
            heat_gap = heat_to - eco_low
        if mode in ("cool", "range") and cool_to is not None and eco_high is not None:
            cool_gap = eco_high - cool_to
        return heat_gap, cool_gap

    # -- commands ------------------------------------------------------------------------------

    def add(
        self,
        start: datetime,
        end: datetime,
        *,
        eco_low: object = None,
        eco_high: object = None,
        summary: str = "",
    ) -> Vacation:
        vacation = Vacation(id=secrets.token_hex(8), start_ms=0, end_ms=0)
        self._check(vacation, start, end, eco_low=eco_low, eco_high=eco_high, summary=summary)
        self._vacations[vacation.id] = vacation
        _LOGGER.info("Vacation added from %s to %s", _iso(vacation.start_ms), _iso(vacation.end_ms))
        self._changed()
        return vacation

    def update(
        self,
        vacation_id: str,
        start: datetime,
        end: datetime,
        *,
        eco_low: object = None,
        eco_high: object = None,
        summary: str = "",
    ) -> Vacation:
        current = self._require(vacation_id)
        changed = Vacation(id=current.id, start_ms=0, end_ms=0)
        self._check(changed, start, end, eco_low=eco_low, eco_high=eco_high, summary=summary)
        current.summary = changed.summary
        current.returned = False  # a changed vacation is planned again
        if current.active and changed.start_ms > self._clock.now_ms():
            self._come_home(current)  # it now starts later: the home is back until then
        current.start_ms, current.end_ms = changed.start_ms, changed.end_ms
        eco_changed = (current.eco_low, current.eco_high) != (changed.eco_low, changed.eco_high)
        current.eco_low, current.eco_high = changed.eco_low, changed.eco_high
        if current.active and eco_changed:
            self._set_eco(current)
        self._changed()
        return current

    def delete(self, vacation_id: str) -> None:
        """Delete a vacation; one under way ends now, and the home is back."""
        vacation = self._require(vacation_id)
        if vacation.active:
            self._come_home(vacation)
        del self._vacations[vacation_id]
        self._changed()

    def _require(self, vacation_id: str) -> Vacation:
        if (vacation := self._vacations.get(vacation_id)) is None:
            raise CommandError(ErrorCode.INVALID_VALUE, "No such vacation", Reason.UNKNOWN_VACATION)
        return vacation

    def _check(
        self,
        vacation: Vacation,
        start: datetime,
        end: datetime,
        *,
        eco_low: object,
        eco_high: object,
        summary: str,
    ) -> None:
        try:
            ensure_storable(summary)
        except UnstorableError as err:
            raise CommandError(ErrorCode.INVALID_VALUE, str(err)) from None
        start_ms, end_ms = self._epoch_ms(start), self._epoch_ms(end)
        if end_ms <= start_ms:
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                "The end must be later than the start",
                Reason.END_NOT_AFTER_START,
            )
        if end_ms <= self._clock.now_ms():
            raise CommandError(
                ErrorCode.INVALID_VALUE, "The vacation is in the past", Reason.END_IN_PAST
            )
        if (eco_low is None) != (eco_high is None):
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                "Give both eco temperatures or neither",
                Reason.LOW_NOT_BELOW_HIGH,
                low="away_temperature_low",
                high="away_temperature_high",
            )
        if eco_low is not None:
            vacation.eco_low, vacation.eco_high = temperature_pair(
                eco_low,
                eco_high,
                names=("Eco low temperature", "Eco high temperature"),
                fields=("away_temperature_low", "away_temperature_high"),
                unordered="Eco low temperature must be less than eco high temperature",
                limits=(ECO_TEMPERATURE_MIN_C, ECO_TEMPERATURE_MAX_C),
            )
        for other in self._vacations.values():
            if other.id != vacation.id and start_ms < other.end_ms and other.start_ms < end_ms:
                raise CommandError(
                    ErrorCode.INVALID_VALUE,
                    "It overlaps another vacation",
                    Reason.VACATIONS_OVERLAP,
                    start=_iso(other.start_ms),
                    end=_iso(other.end_ms),
                )
        if not self._home_serials():
            raise CommandError(
                ErrorCode.NOT_PAIRED, "A vacation is for the home: pair a thermostat first"
            )
        vacation.start_ms, vacation.end_ms = start_ms, end_ms
        vacation.summary = summary.strip()[:MAX_SUMMARY_LENGTH]

    def _epoch_ms(self, when: datetime) -> int:
        if when.tzinfo is None:
            when = when.replace(tzinfo=self._zone)
        return int(when.timestamp() * 1000)

    # -- the vacation's life ---------------------------------------------------------------

    def _changed(self) -> None:
        """Save, announce, and do now what is due (the timer for the rest)."""
        self._request_save()
        if self._started:
            self._reconcile()
        self._events.publish(ServiceEvent(EventKind.VACATIONS, HOME))

    def _reconcile(self) -> None:
        """Begin and end what is due now; arm the timer for the next that is not.

        The home comes back at `return_ms`; the vacation is listed until its end.
        """
        now_ms = self._clock.now_ms()
        changed = False
        for vacation in self.vacations():
            if now_ms >= vacation.end_ms:
                if vacation.active:
                    _LOGGER.info("Vacation until %s: the home is back", _iso(vacation.end_ms))
                    self._come_home(vacation)
                elif not vacation.returned:
                    _LOGGER.info(
                        "Vacation until %s passed while the server was stopped",
                        _iso(vacation.end_ms),
                    )
                del self._vacations[vacation.id]
                changed = True
            elif now_ms >= self.return_ms(vacation):
                if vacation.active:
                    _LOGGER.info(
                        "Vacation until %s: the home is back, to be warm by then",
                        _iso(vacation.end_ms),
                    )
                    self._come_home(vacation)
                    vacation.returned = True
                    changed = True
            elif not vacation.active and not vacation.returned and now_ms >= vacation.start_ms:
                _LOGGER.info("Vacation until %s: the home is away", _iso(vacation.end_ms))
                self._go_away(vacation)
        if changed:
            self._request_save()
            self._events.publish(ServiceEvent(EventKind.VACATIONS, HOME))
        self._arm(now_ms)

    def _arm(self, now_ms: int) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        due = [
            moment
            for vacation in self._vacations.values()
            for moment in (vacation.start_ms, self.return_ms(vacation), vacation.end_ms)
            if moment > now_ms
        ]
        if due:
            delay = max(0.0, (min(due) - now_ms) / 1000)
            self._timer = asyncio.get_running_loop().call_later(delay, self._elapsed)

    def _elapsed(self) -> None:
        self._timer = None
        self._reconcile()

    def _go_away(self, vacation: Vacation) -> None:
        vacation.active = True
        self._request_save()
        serials = self._home_serials()
        if not serials:
            _LOGGER.info("Vacation: no thermostat is paired, nothing to set")
            return
        self._set_eco(vacation)
        self._run(partial(self._commands.set_away, serials[0], True))

    def _set_eco(self, vacation: Vacation) -> None:
        """Give every thermostat the vacation's eco temperatures, keeping its own to give back."""
        if vacation.eco_low is None or vacation.eco_high is None:
            return
        for serial in self._home_serials():
            if serial not in vacation.saved_eco:
                device = BucketReadings(self._buckets, serial).device
                vacation.saved_eco[serial] = [
                    as_plain_number(device.get("away_temperature_low")),
                    as_plain_number(device.get("away_temperature_high")),
                ]
            self._run(
                partial(
                    self._commands.set_eco_temperatures, serial, vacation.eco_low, vacation.eco_high
                )
            )

    def _come_home(self, vacation: Vacation) -> None:
        vacation.active = False
        self._request_save()
        serials = self._home_serials()
        if serials:
            self._run(partial(self._commands.set_away, serials[0], False))
        for serial, (low, high) in vacation.saved_eco.items():
            if low is not None and high is not None:
                self._run(partial(self._commands.set_eco_temperatures, serial, low, high))
        vacation.saved_eco.clear()

    def _run(self, command: Callable[[], object]) -> None:
        """Run a timed command as the vacation rule's; a refusal is logged, the vacation goes on."""
        try:
            with self._commands.acting_as(Author.rule(Rule.VACATION)):
                command()
        except CommandError as err:
            _LOGGER.warning("Vacation: a change was not written: %s", err.message)

    follows = Follows(
        fields=frozenset({"device.time_to_target"}), kinds=frozenset({EventKind.HOUSE_MODEL})
    )
    """A thermostat's time-to-target and its house model: the rates a return is timed by."""

    def follow(self, event: ServiceEvent) -> None:
        """Note the rate a thermostat heats or cools at: its time-to-target, its house model."""
        if not self._started:
            return
        if (
            event.kind is EventKind.STATE
            and event.source is ChangeSource.DEVICE
            and "device.time_to_target" in event.fields
        ):
            self._note_rate(event.serial)
        elif event.kind is EventKind.HOUSE_MODEL:
            self._rearm()

    def _rearm(self) -> None:
        """Time the return again: a rate changed."""
        if self._started and any(vacation.active for vacation in self._vacations.values()):
            self._arm(self._clock.now_ms())

    def _note_rate(self, serial: str) -> None:
        readings = BucketReadings(self._buckets, serial)
        reached_at = as_plain_number(readings.device.get("time_to_target"))
        room = readings.room_temperature
        target = as_plain_number(readings.shared.get("target_temperature"))
        if readings.mode == "range":
            low, high = readings.range_ends
            if room is not None and low is not None and high is not None:
                target = float(low) if room < low else float(high)
        if reached_at is None or room is None or target is None:
            return
        seconds = reached_at - self._clock.now_ms() / 1000
        gap = abs(target - room)
        if not 0 < seconds <= MAX_TIME_TO_TARGET_S or gap < MIN_RATE_GAP_C:
            return
        self._rates[serial] = gap / seconds * 3600
        self._request_save()
        _LOGGER.debug("%s: heats or cools at %.1f °C per hour", serial, self._rates[serial])
        self._rearm()

    # -- persistence and lifecycle ---------------------------------------------------------

    def load(self, saved: object) -> None:
        self._vacations.clear()
        self._rates.clear()
        if not isinstance(saved, Mapping):
            return
        for stored in saved.get("list", ()) if isinstance(saved.get("list"), list) else ():
            if (vacation := Vacation.load(stored)) is None:
                _LOGGER.warning("Ignoring a stored vacation: it does not parse")
                continue
            self._vacations[vacation.id] = vacation
        rates = saved.get("rates")
        for serial, rate in rates.items() if isinstance(rates, Mapping) else ():
            if (value := as_plain_number(rate)) is not None and value > 0:
                self._rates[str(serial)] = value

    def dump(self) -> dict[str, Any]:
        return {
            "list": [vacation.dump() for vacation in self.vacations()],
            "rates": dict(self._rates),
        }

    def start(self) -> None:
        """Follow the thermostats' time-to-target; do what came due while stopped; arm."""
        self._started = True
        self._reconcile()

    def stop(self) -> None:
        self._started = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat()
