"""Arrival: the home warm (or cool) by the time someone comes home.

One arrival for the home at a time. At its planned start (the arrival less the longest lead of
the home's thermostats, `leads.Leads`) the server ends the home's away and each thermostat's
manual eco itself: firmware does not precondition while the home is in the manual eco the
server set (docs/comfort.md). The arrival is gone once its time has come; a new one replaces
the old. An arrival inside a vacation is the vacation's return's to handle.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
import logging
from typing import Any

from ...model.records import FlatRecord, is_int
from ..context import CoreContext
from ..events import HOME, EventKind, Follows, ServiceEvent
from ..read.command_errors import CommandError, ErrorCode, Reason
from ..read.readings import BucketReadings
from ..write.changes import Rule
from ..write.commands import Commands
from .leads import Leads
from .plans import in_the_way, iso, require_paired, run_as_rule
from .vacations import Vacation

_LOGGER = logging.getLogger(__name__)

MAX_AHEAD = timedelta(days=7)
"""The furthest ahead an arrival is planned: further, a travel time is no arrival."""


@dataclass(frozen=True, slots=True)
class Arrival(FlatRecord):
    """The home's arrival: at `arrival_ms`, planned at `planned_ms` (Unix ms)."""

    arrival_ms: int
    planned_ms: int
    """When it was asked for: the home never leaves eco before it."""
    started_ms: int | None = None
    """The planned start, once it came: the home left away and eco (and is left alone since)."""

    @property
    def started(self) -> bool:
        return self.started_ms is not None

    @classmethod
    def load(cls, saved: object) -> Arrival | None:
        if not isinstance(saved, Mapping):
            return None
        arrival, planned = saved.get("arrival_ms"), saved.get("planned_ms")
        if not is_int(arrival) or not is_int(planned):
            return None
        started = saved.get("started_ms")
        return cls(
            arrival_ms=arrival,
            planned_ms=planned,
            started_ms=started if is_int(started) else None,
        )


class Arrivals:
    """The home's arrival: planned, started on time, over at its time, kept across restarts."""

    def __init__(
        self,
        context: CoreContext,
        *,
        commands: Commands,
        home_serials: Callable[[], list[str]],
        leads: Leads,
        vacations: Callable[[], list[Vacation]],
    ) -> None:
        """`vacations()`: the home's vacations, which an arrival must stay out of."""
        self._context = context
        self._commands = commands
        self._home_serials = home_serials
        self._leads = leads
        self._vacations = vacations
        self._arrival: Arrival | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._started = False

    # -- reading -------------------------------------------------------------------------------

    def arrival(self) -> Arrival | None:
        """Return the planned arrival, None when there is none."""
        return self._arrival

    def start_ms(self) -> int | None:
        """Return when the home leaves eco for the arrival (Unix ms), None without one.

        The arrival less the longest lead of the home's thermostats from their own eco
        temperatures to their schedule then, never before it was asked for; once it came,
        when it came.
        """
        if (arrival := self._arrival) is None:
            return None
        if arrival.started_ms is not None:
            return arrival.started_ms
        lead_ms = self._leads.home_lead_ms(arrival.arrival_ms)
        return max(arrival.planned_ms, arrival.arrival_ms - lead_ms)

    # -- commands ------------------------------------------------------------------------------

    def set(self, when: datetime | None = None, *, travel: timedelta | None = None) -> Arrival:
        """Plan the arrival at `when`, or `travel` from now; it replaces the one planned.

        Refused (nothing changed) in the past, more than MAX_AHEAD ahead, inside a vacation,
        or with no thermostat paired.
        """
        now_ms = self._context.clock.now_ms()
        if travel is not None and when is None:
            arrival_ms = now_ms + int(travel.total_seconds() * 1000)
        elif when is not None and travel is None:
            arrival_ms = int(when.timestamp() * 1000)
        else:
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                "Give the arrival time or the travel time, one of them",
                Reason.ARRIVAL_TIME_OR_TRAVEL,
            )
        if arrival_ms <= now_ms:
            raise CommandError(
                ErrorCode.INVALID_VALUE, "The arrival is in the past", Reason.ARRIVAL_IN_PAST
            )
        if arrival_ms - now_ms > MAX_AHEAD.total_seconds() * 1000:
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                f"The arrival is more than {MAX_AHEAD.days} days ahead",
                Reason.ARRIVAL_TOO_FAR,
                days=MAX_AHEAD.days,
            )
        if (vacation := self._vacation_at(arrival_ms)) is not None:
            raise in_the_way(
                vacation,
                "The arrival is during a vacation: its end brings the home back",
                Reason.ARRIVAL_IN_VACATION,
            )
        require_paired(self._home_serials, "An arrival")
        self._arrival = Arrival(arrival_ms=arrival_ms, planned_ms=now_ms)
        _LOGGER.info("Arrival planned at %s", iso(arrival_ms))
        self._changed()
        return self._arrival

    def cancel(self) -> None:
        """Cancel the arrival: the home stays as it is (away or back), nothing more happens."""
        if self._arrival is None:
            return
        _LOGGER.info("Arrival at %s cancelled", iso(self._arrival.arrival_ms))
        self._arrival = None
        self._changed()

    def _vacation_at(self, ms: int) -> Vacation | None:
        return next(
            (
                vacation
                for vacation in self._vacations()
                if vacation.start_ms <= ms < vacation.end_ms
            ),
            None,
        )

    # -- the arrival's life --------------------------------------------------------------------

    def _changed(self) -> None:
        """Save, announce, and do now what is due (the timer for the rest)."""
        self._context.request_save()
        self._context.events.publish(ServiceEvent(EventKind.ARRIVAL, HOME))
        if self._started:
            self._reconcile()

    def _reconcile(self) -> None:
        """Leave eco at the planned start; forget the arrival at its time; arm for the next."""
        arrival = self._arrival
        if arrival is None:
            self._arm(None)
            return
        now_ms = self._context.clock.now_ms()
        if (vacation := self._vacation_at(arrival.arrival_ms)) is not None:
            _LOGGER.info(
                "Arrival at %s dropped: a vacation until %s came to cover it",
                iso(arrival.arrival_ms),
                iso(vacation.end_ms),
            )
            self._forget()
            return
        start_ms = self.start_ms()
        assert start_ms is not None
        if not arrival.started and now_ms >= start_ms:
            self._arrival = arrival = Arrival(arrival.arrival_ms, arrival.planned_ms, start_ms)
            self._context.request_save()
            self._context.events.publish(ServiceEvent(EventKind.ARRIVAL, HOME))
            self._leave_eco(arrival)
        if now_ms >= arrival.arrival_ms:
            _LOGGER.info("Arrival at %s: its time has come", iso(arrival.arrival_ms))
            self._forget()
            return
        self._arm(arrival.arrival_ms if arrival.started else start_ms)

    def _forget(self) -> None:
        self._arrival = None
        self._context.request_save()
        self._context.events.publish(ServiceEvent(EventKind.ARRIVAL, HOME))
        self._arm(None)

    def _arm(self, due_ms: int | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if due_ms is not None:
            delay = max(0.0, (due_ms - self._context.clock.now_ms()) / 1000)
            self._timer = asyncio.get_running_loop().call_later(delay, self._elapsed)

    def _elapsed(self) -> None:
        self._timer = None
        self._reconcile()

    def _leave_eco(self, arrival: Arrival) -> None:
        """End the home's away and each thermostat's manual eco, unless a vacation holds it."""
        now_ms = self._context.clock.now_ms()
        if any(vacation.active and vacation.end_ms > now_ms for vacation in self._vacations()):
            _LOGGER.info("Arrival at %s: a vacation keeps the home away", iso(arrival.arrival_ms))
            return
        serials = self._home_serials()
        if not serials:
            _LOGGER.info("Arrival: no thermostat is paired, nothing to do")
            return
        _LOGGER.info("Arrival at %s: leaving away and eco to be ready", iso(arrival.arrival_ms))
        # Leaving a home that is not away writes nothing (`set_home_away`).
        self._run(partial(self._commands.set_away, serials[0], False))
        for serial in serials:
            if BucketReadings(self._context.buckets, serial).eco_mode == "manual-eco":
                self._run(partial(self._commands.set_eco, serial, False))

    def _run(self, command: Callable[[], object]) -> None:
        """Run a command as the arrival rule's (see `plans.run_as_rule`)."""
        run_as_rule(self._commands, Rule.ARRIVAL, command)

    def rates_changed(self) -> None:
        """Plan the start again: a rate changed."""
        self._replan()

    follows = Follows(bucket_types=frozenset({"schedule"}), kinds=frozenset({EventKind.VACATIONS}))
    """The schedules (the setpoint at the arrival) and the vacations (one may cover it)."""

    def follow(self, event: ServiceEvent) -> None:
        self._replan()

    def _replan(self) -> None:
        if self._started and self._arrival is not None and not self._arrival.started:
            self._context.events.publish(ServiceEvent(EventKind.ARRIVAL, HOME))
            self._reconcile()

    # -- persistence and lifecycle -------------------------------------------------------------

    def load(self, saved: object) -> None:
        """Load the arrival; documents before arrivals have none."""
        self._arrival = None if saved is None else Arrival.load(saved)
        if saved is not None and self._arrival is None:
            _LOGGER.warning("Ignoring the stored arrival: it does not parse")

    def dump(self) -> dict[str, Any] | None:
        return None if self._arrival is None else self._arrival.dump()

    def start(self) -> None:
        """Do what came due while stopped (an arrival passed is over); arm."""
        self._started = True
        self._reconcile()

    def stop(self) -> None:
        self._started = False
        self._arm(None)
