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
from datetime import datetime
from functools import partial
import logging
import secrets
from typing import Any
from zoneinfo import ZoneInfo

from ...model.records import FlatRecord, UnstorableError, ensure_storable, is_int
from ..context import CoreContext
from ..events import HOME, EventKind, ServiceEvent
from ..read.command_errors import CommandError, ErrorCode, Reason
from ..read.readings import BucketReadings
from ..read.schedule import as_plain_number
from ..read.validation import ECO_TEMPERATURE_MAX_C, ECO_TEMPERATURE_MIN_C, temperature_pair
from ..write.changes import Rule
from ..write.commands import Commands
from .leads import Leads
from .plans import in_the_way, iso, require_paired, run_as_rule

_LOGGER = logging.getLogger(__name__)

MAX_SUMMARY_LENGTH = 255


@dataclass(slots=True)
class Vacation(FlatRecord):
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
        leads: Leads,
    ) -> None:
        self._leads = leads
        self._context = context
        self._commands = commands
        self._home_serials = home_serials
        self._zone = ZoneInfo(context.config.time_zone)
        self._vacations: dict[str, Vacation] = {}
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

        The longest lead of the home's thermostats from the vacation's eco temperatures to
        their schedule at the end (`leads.Leads`), never before the start; without a rate, at
        the end.
        """
        lead_ms = self._leads.home_lead_ms(
            vacation.end_ms, eco_low=vacation.eco_low, eco_high=vacation.eco_high
        )
        return max(vacation.start_ms, vacation.end_ms - lead_ms)

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
        _LOGGER.info("Vacation added from %s to %s", iso(vacation.start_ms), iso(vacation.end_ms))
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
        if current.active and changed.start_ms > self._context.clock.now_ms():
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
        if end_ms <= self._context.clock.now_ms():
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
                raise in_the_way(other, "It overlaps another vacation", Reason.VACATIONS_OVERLAP)
        require_paired(self._home_serials, "A vacation")
        vacation.start_ms, vacation.end_ms = start_ms, end_ms
        vacation.summary = summary.strip()[:MAX_SUMMARY_LENGTH]

    def _epoch_ms(self, when: datetime) -> int:
        if when.tzinfo is None:
            when = when.replace(tzinfo=self._zone)
        return int(when.timestamp() * 1000)

    # -- the vacation's life ---------------------------------------------------------------

    def _changed(self) -> None:
        """Save, announce, and do now what is due (the timer for the rest)."""
        self._context.request_save()
        if self._started:
            self._reconcile()
        self._context.events.publish(ServiceEvent(EventKind.VACATIONS, HOME))

    def _reconcile(self) -> None:
        """Begin and end what is due now; arm the timer for the next that is not.

        The home comes back at `return_ms`; the vacation is listed until its end.
        """
        now_ms = self._context.clock.now_ms()
        changed = False
        for vacation in self.vacations():
            if now_ms >= vacation.end_ms:
                if vacation.active:
                    _LOGGER.info("Vacation until %s: the home is back", iso(vacation.end_ms))
                    self._come_home(vacation)
                elif not vacation.returned:
                    _LOGGER.info(
                        "Vacation until %s passed while the server was stopped",
                        iso(vacation.end_ms),
                    )
                del self._vacations[vacation.id]
                changed = True
            elif now_ms >= self.return_ms(vacation):
                if vacation.active:
                    _LOGGER.info(
                        "Vacation until %s: the home is back, to be warm by then",
                        iso(vacation.end_ms),
                    )
                    self._come_home(vacation)
                    vacation.returned = True
                    changed = True
            elif not vacation.active and not vacation.returned and now_ms >= vacation.start_ms:
                _LOGGER.info("Vacation until %s: the home is away", iso(vacation.end_ms))
                self._go_away(vacation)
        if changed:
            self._context.request_save()
            self._context.events.publish(ServiceEvent(EventKind.VACATIONS, HOME))
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
        self._context.request_save()
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
                device = BucketReadings(self._context.buckets, serial).device
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
        self._context.request_save()
        serials = self._home_serials()
        if serials:
            self._run(partial(self._commands.set_away, serials[0], False))
        for serial, (low, high) in vacation.saved_eco.items():
            if low is not None and high is not None:
                self._run(partial(self._commands.set_eco_temperatures, serial, low, high))
        vacation.saved_eco.clear()

    def _run(self, command: Callable[[], object]) -> None:
        """Run a timed command as the vacation rule's (see `plans.run_as_rule`)."""
        run_as_rule(self._commands, Rule.VACATION, command)

    def rates_changed(self) -> None:
        """Time the return again: a rate changed."""
        if self._started and any(vacation.active for vacation in self._vacations.values()):
            self._arm(self._context.clock.now_ms())

    # -- persistence and lifecycle ---------------------------------------------------------

    def load(self, saved: object) -> None:
        self._vacations.clear()
        if not isinstance(saved, Mapping):
            return
        for stored in saved.get("list", ()) if isinstance(saved.get("list"), list) else ():
            if (vacation := Vacation.load(stored)) is None:
                _LOGGER.warning("Ignoring a stored vacation: it does not parse")
                continue
            self._vacations[vacation.id] = vacation
        self._leads.load(saved.get("rates"))

    def dump(self) -> dict[str, Any]:
        return {
            "list": [vacation.dump() for vacation in self.vacations()],
            "rates": self._leads.dump(),
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
