"""The health monitor: per thermostat, what is wrong with the equipment behind it.

A follower of the write path: `WritePath.apply` hands it each thermostat's applied report
(`report_applied`), availability each request (`note_contact`), and the host the outdoor
temperature (`note_outdoor`). Each is constant work per thermostat: the monitor keeps, per
thermostat, the heating and cooling call under way (since when, the room at its start, the
stages that ran), the starts of the last hour (a bounded queue), the daily history, and the
findings; it never scans history on the report path. Two timers do what no report can: a
thermostat's silence (armed when it stops being available) and the close of each day (at the
home's midnight, when the day's heating minutes per degree-day are judged).

Each rule, its defaults and what does not raise it are in docs/health.md. In short, nothing is
built on what cannot be trusted: a room reading outside `ROOM_RANGE_C`, a relay that is not a
boolean, a report after a clock jump, a stored state not confirmed since a restart (a call
found running at contact is judged from the first room reading after it). Each such input is
logged once per thermostat.

Findings, the starts of the last hour and the daily history are saved under the service
document's `health` key (absent before this feature: nothing found yet).
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

from ...model.buckets import bucket_key
from ..context import CoreContext
from ..events import EventKind, ServiceEvent, field_name
from ..read.readings import COOL_RELAYS, HEAT_RELAYS, HVAC_RELAYS
from ..read.validation import finite_number
from .health import Figure, Finding, FindingKind, HealthThresholds
from .runtime import RuntimeFigures

_LOGGER = logging.getLogger(__name__)

HEATING, COOLING = "heating", "cooling"
MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS

ROOM_RANGE_C = (-40.0, 60.0)
"""A room reading outside this is no reading (a broken sensor, a unit mix-up)."""
OUTDOOR_RANGE_C = (-70.0, 60.0)
WARMED_C = 0.2
"""A call that moves the room this far the right way (from its coldest, for heating) clears
not_heating / not_cooling."""
CLEAR_MARGIN_C = 0.5
"""too_cold (too_hot) clears this far above (below) its threshold, so it does not flicker."""
ROOM_CONFIRM_MS = 5 * MINUTE_MS
"""The room must stay beyond a threshold this long: one reading is not a finding."""
AUX_CONFIRM_MS = 10 * MINUTE_MS
AUX_MARGIN_C = 1.0
"""The thermostat reads its outdoor temperature elsewhere than Home Assistant's weather."""
CLOCK_BACK_TOLERANCE_MS = 1_000
MAX_STARTS_KEPT = 60
"""Starts kept per cycle: a start a minute for an hour, more than any limit allowed."""
DEFAULT_LOW_SAFETY_C = 7.0
"""Nest's default low safety temperature (45 °F / 7 °C), when the thermostat reports none."""
DEFAULT_HIGH_SAFETY_C = 35.0
"""Nest thermostats never heat above 35 °C (95 °F); they have no default high safety one."""
DEGREE_DAY_BASE_C = 18.0
HISTORY_DAYS = 60
MIN_HISTORY_DAYS = 14
MIN_DEGREE_DAYS = 1.0
"""A day with fewer heating degree-days says little about how long heating should run."""
MIN_DAY_COVERAGE = 0.8
"""The outdoor temperature must be known this share of a day for its degree-days to count."""
MIN_LONG_RUNTIME_MINUTES = 60.0

HEATING_EQUIPMENT = (
    "heating_stage_1",
    "heating_stage_2",
    "heating_stage_3",
    "aux_heat",
    "emergency_heat",
)
"""The runtime ledger's equipment whose minutes count as heating (each stage counted)."""
_STAGE_OF_RELAY = {
    "heater": "heating_stage_1",
    "heat_x2": "heating_stage_2",
    "heat_x3": "heating_stage_3",
    "aux_heat": "aux_heat",
    "emer_heat": "emergency_heat",
    "alt_heat": "alternate_heat",
    "alt_heat_x2": "alternate_heat_stage_2",
    "ac": "cooling_stage_1",
    "cool_x2": "cooling_stage_2",
    "cool_x3": "cooling_stage_3",
}
_CYCLE_RELAYS = {HEATING: frozenset(HEAT_RELAYS), COOLING: frozenset(COOL_RELAYS)}
_RELAY_FIELDS = {name: HVAC_RELAYS[name] for name in (*HEAT_RELAYS, *COOL_RELAYS)}
_ROOM_FIELD = field_name("shared", "current_temperature")
_DEVICE_FIELDS = (
    "lower_safety_temp",
    "upper_safety_temp",
    "heat_pump_aux_threshold",
    "heat_pump_aux_threshold_enabled",
    "has_heat_pump",
)
_RELAY_FIELD_NAMES = frozenset(field_name("shared", name) for name in _RELAY_FIELDS.values())
_SETTING_FIELDS = frozenset(
    {field_name("shared", "target_temperature_type")}
    | {field_name("device", name) for name in _DEVICE_FIELDS}
)
WATCHED_FIELDS = _RELAY_FIELD_NAMES | _SETTING_FIELDS | {_ROOM_FIELD}
"""The fields whose change the monitor looks at (as the write path names them)."""
CHECK_EVERY_MS = 30_000
"""A request checks the time-bound findings at most this often (a report always does)."""
RAISED_KEPT = 500
"""The findings raised that are kept per thermostat for the monthly report (oldest dropped)."""
_KIND_VALUES = frozenset(kind.value for kind in FindingKind)
_CALL_KIND = {HEATING: FindingKind.NOT_HEATING, COOLING: FindingKind.NOT_COOLING}


def _in_range(value: object, limits: tuple[float, float]) -> float | None:
    number = finite_number(value)
    return float(number) if number is not None and limits[0] <= number <= limits[1] else None


@dataclass(slots=True)
class _Call:
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
class _Watch:
    """What the monitor keeps of one thermostat."""

    findings: dict[FindingKind, Finding] = field(default_factory=dict)
    starts: dict[str, deque[int]] = field(
        default_factory=lambda: {c: deque(maxlen=MAX_STARTS_KEPT) for c in _CYCLE_RELAYS}
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
    calls: dict[str, _Call] = field(default_factory=dict)
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


class HealthMonitor:
    """The findings of every paired thermostat, kept up to date as reports are applied."""

    def __init__(
        self,
        context: CoreContext,
        *,
        is_available: Callable[[str], bool],
        last_contact_ms: Callable[[str], int | None],
        runtime_figures: Callable[[str], RuntimeFigures],
    ) -> None:
        """Initialize from the service's parts; `start` begins following availability."""
        config = context.config
        self._thresholds = config.health
        self._zone = ZoneInfo(config.time_zone)
        self._clock = context.clock
        self._buckets = context.buckets
        self._ownership = context.ownership
        self._events = context.events
        self._request_save = context.request_save
        self._is_available = is_available
        self._last_contact_ms = last_contact_ms
        self._runtime_figures = runtime_figures
        # Longer than this between two contacts cannot be (see runtime.RuntimeLedger).
        self._max_gap_ms = int((config.hold_timeout + config.availability_grace) * 1000)
        self._watches: dict[str, _Watch] = {}
        self._logged: set[tuple[str, str]] = set()
        self._outdoor: float | None = None
        self._outdoor_mark_ms: int | None = None
        self._day = 0
        self._day_degree_days = 0.0
        self._day_covered_ms = 0
        self._day_timer: asyncio.TimerHandle | None = None
        self._unlisten: Callable[[], None] | None = None

    # -- the facade's face (facets.HealthFacet) --------------------------------------------------

    @property
    def thresholds(self) -> HealthThresholds:
        """The thresholds the findings are raised at."""
        return self._thresholds

    def raised_between(self, serial: str, start: datetime, end: datetime) -> dict[str, int]:
        """Count the thermostat's findings raised from `start` to before `end`, by kind."""
        start_ms, end_ms = (int(moment.timestamp() * 1000) for moment in (start, end))
        watch = self._watches.get(serial)
        counts: dict[str, int] = {}
        for moment, kind in watch.raised if watch is not None else ():
            if start_ms <= moment < end_ms:
                counts[kind.value] = counts.get(kind.value, 0) + 1
        return counts

    def findings(self, serial: str) -> tuple[Finding, ...]:
        """Return the thermostat's findings, in the order of `FindingKind`."""
        watch = self._watches.get(serial)
        if watch is None or not watch.findings:
            return ()
        return tuple(watch.findings[kind] for kind in FindingKind if kind in watch.findings)

    def serials_with_findings(self) -> list[str]:
        """Return the thermostats that have a finding."""
        return [serial for serial, watch in self._watches.items() if watch.findings]

    def note_outdoor(self, celsius: float | None) -> None:
        """Note the home's outdoor temperature now (None: not known)."""
        now = self._clock.now_ms()
        value = None if celsius is None else _in_range(celsius, OUTDOOR_RANGE_C)
        if celsius is not None and value is None:
            self._log_once(
                "", "outdoor", "Ignoring outdoor temperature %r: no plausible reading", celsius
            )
        self._count_degree_days(now)
        self._outdoor = value
        self._outdoor_mark_ms = now if value is not None else None
        if value is not None:
            self._logged.discard(("", "no outdoor"))
        for serial, watch in self._watches.items():
            if not watch.heard and watch.silent_timer is None:
                self._check_silent(serial)

    # -- what the write path and availability tell -------------------------------------------------

    def report_applied(self, serial: str, fields: frozenset[str]) -> None:
        """Follow a thermostat's applied report: `fields` changed (as events name them)."""
        if fields.isdisjoint(WATCHED_FIELDS) or not self._ownership.is_paired(serial):
            return
        watch = self._watches.get(serial)
        if watch is None:
            watch = self._watches[serial] = _Watch()
        now = self._clock.now_ms()
        if not self._in_time(serial, watch, now):
            return
        shared = self._buckets.value(bucket_key("shared", serial))
        if not watch.heard or not fields.isdisjoint(_SETTING_FIELDS):
            device = self._buckets.value(bucket_key("device", serial))
            self._read_settings(serial, watch, shared, device)
        if _ROOM_FIELD in fields:
            watch.room = self._room(serial, shared.get("current_temperature"))
        if not watch.heard:
            watch.heard = True
            self._cancel_silent(watch)
        if watch.relays is None or not fields.isdisjoint(_RELAY_FIELD_NAMES):
            self._follow_relays(serial, watch, self._relays(serial, shared), now, count=True)
        self._check(serial, watch, now)

    def note_contact(self, serial: str) -> None:
        """Note a request of the thermostat: it is heard; time-bound findings are checked."""
        watch = self._watches.get(serial)
        if watch is None:
            if not self._ownership.is_paired(serial):
                return
            watch = self._watches[serial] = _Watch()
        now = self._clock.now_ms()
        if not self._in_time(serial, watch, now):
            return
        if not watch.heard:
            # Heard again (or for the first time since a start): the stored relays are
            # followed, not counted as starts; the stored room is trusted only when it was
            # reported moments ago, else calls wait for the next reading.
            watch.heard = True
            self._cancel_silent(watch)
            shared_bucket = self._buckets.get(bucket_key("shared", serial))
            shared = shared_bucket.value if shared_bucket is not None else {}
            device = self._buckets.value(bucket_key("device", serial))
            self._read_settings(serial, watch, shared, device)
            if shared_bucket is not None and now - shared_bucket.timestamp <= self._max_gap_ms:
                watch.room = self._room(serial, shared.get("current_temperature"))
            self._follow_relays(serial, watch, self._relays(serial, shared), now, count=False)
            self._clear(serial, watch, FindingKind.SILENT_IN_FROST)
        elif now - watch.checked_ms < CHECK_EVERY_MS:
            return
        self._check(serial, watch, now)

    # -- reading the report ------------------------------------------------------------------------

    def _room(self, serial: str, value: object) -> float | None:
        if type(value) is float and ROOM_RANGE_C[0] <= value <= ROOM_RANGE_C[1]:
            return value  # the usual reading, without the checks a stranger one needs
        room = _in_range(value, ROOM_RANGE_C)
        if room is None and value is not None:
            self._log_once(
                serial,
                "room",
                "Thermostat %s reported room temperature %r, which cannot be: no health "
                "finding is built on it",
                serial,
                value,
            )
        return room

    def _relays(self, serial: str, shared: Mapping[str, Any]) -> frozenset[str] | None:
        """Return the heat and cool relays on; None when one is reported as no boolean."""
        on: list[str] = []
        for name, relay_field in _RELAY_FIELDS.items():
            value = shared.get(relay_field)
            if value is True:
                on.append(name)
            elif value is not None and value is not False:
                self._log_once(
                    serial,
                    "relay",
                    "Thermostat %s reported %s as %r, not on or off: no health finding is "
                    "built on its relays until it reports them right",
                    serial,
                    relay_field,
                    value,
                )
                return None
        return frozenset(on)

    def _read_settings(
        self, serial: str, watch: _Watch, shared: Mapping[str, Any], device: Mapping[str, Any]
    ) -> None:
        thresholds = self._thresholds
        low = _in_range(device.get("lower_safety_temp"), ROOM_RANGE_C)
        high = _in_range(device.get("upper_safety_temp"), ROOM_RANGE_C)
        watch.cold_limit = (
            thresholds.too_cold_c
            if thresholds.too_cold_c is not None
            else low or DEFAULT_LOW_SAFETY_C
        )
        watch.hot_limit = (
            thresholds.too_hot_c
            if thresholds.too_hot_c is not None
            else high or DEFAULT_HIGH_SAFETY_C
        )
        enabled = device.get("heat_pump_aux_threshold_enabled") is True
        watch.aux_lockout = (
            _in_range(device.get("heat_pump_aux_threshold"), OUTDOOR_RANGE_C) if enabled else None
        )
        watch.emergency = shared.get("target_temperature_type") == "emergency"
        watch.heat_pump = device.get("has_heat_pump") is True

    def _in_time(self, serial: str, watch: _Watch, now: int) -> bool:
        """Return False for a report from before the last one (the clock went back).

        After a clock jump either way nothing seen before it is judged on: calls and the
        time a room or aux condition began start again.
        """
        last, watch.last_ms = watch.last_ms, max(now, watch.last_ms)
        if last and now < last - CLOCK_BACK_TOLERANCE_MS:
            self._log_once(
                serial,
                "clock",
                "The clock went back %.0f s while following thermostat %s: its calls are "
                "judged afresh",
                (last - now) / 1000,
                serial,
            )
            watch.last_ms = now
            self._forget_moment(watch)
            return False
        if last and watch.heard and now - last > self._max_gap_ms:
            self._log_once(
                serial,
                "jump",
                "%.0f s passed between two requests of thermostat %s, which cannot be (a "
                "clock jump, or a stalled Home Assistant): its calls are judged afresh",
                (now - last) / 1000,
                serial,
            )
            self._forget_moment(watch)
        return True

    @staticmethod
    def _forget_moment(watch: _Watch) -> None:
        """Judge from now on: calls wait for a new room reading, conditions begin again."""
        watch.calls.clear()
        watch.relays = None
        watch.room = None
        watch.cold_since_ms = watch.hot_since_ms = watch.aux_since_ms = None

    # -- calls and starts ------------------------------------------------------------------------

    def _follow_relays(
        self, serial: str, watch: _Watch, on: frozenset[str] | None, now: int, *, count: bool
    ) -> None:
        if on is None:
            watch.calls.clear()
            watch.relays = None
            return
        known, watch.relays = watch.relays is not None, on
        for cycle, relays in _CYCLE_RELAYS.items():
            running = on & relays
            call = watch.calls.get(cycle)
            if not running:
                if call is not None:
                    del watch.calls[cycle]
                continue
            if call is None:
                call = watch.calls[cycle] = _Call(now, watch.room, {})
                if count and known:
                    watch.starts[cycle].append(now)
            for relay in sorted(running):
                stage = _STAGE_OF_RELAY[relay]
                if relay == "heater" and watch.heat_pump:
                    stage = "heat_pump"
                call.stages.setdefault(stage, None)

    # -- the checks -------------------------------------------------------------------------------

    def _check(self, serial: str, watch: _Watch, now: int) -> None:
        """Raise or clear what the thermostat's state now says."""
        watch.checked_ms = now
        findings = watch.findings
        for cycle, call in watch.calls.items():
            self._judge_call(serial, watch, cycle, call, now)
        starts = watch.starts
        if starts[HEATING] or starts[COOLING] or FindingKind.SHORT_CYCLING in findings:
            self._check_starts(serial, watch, now)
        room = watch.room
        # The usual room, well within its limits with nothing found, needs no more look.
        if room is not None and (
            findings
            or watch.cold_since_ms is not None
            or watch.hot_since_ms is not None
            or not watch.cold_limit + CLEAR_MARGIN_C <= room <= watch.hot_limit - CLEAR_MARGIN_C
        ):
            self._check_room(serial, watch, now)
        relays = watch.relays
        if (
            (relays is not None and "aux_heat" in relays)
            or watch.aux_since_ms is not None
            or FindingKind.AUX_ABOVE_LOCKOUT in findings
        ):
            self._check_aux(serial, watch, now)

    def _judge_call(self, serial: str, watch: _Watch, cycle: str, call: _Call, now: int) -> None:
        kind = _CALL_KIND[cycle]
        room = watch.room
        if room is None:
            return
        if call.room_start is None:
            call.room_start, call.since_ms = room, now
        heating = cycle == HEATING
        worst = call.worst if call.worst is not None else room
        call.worst = min(worst, room) if heating else max(worst, room)
        if (room - call.worst if heating else call.worst - room) >= WARMED_C:
            # Warming (cooling) now, whatever came before: the equipment works.
            call.works = True
            self._clear(serial, watch, kind)
        moved = room - call.room_start if heating else call.room_start - room
        minutes = (now - call.since_ms) / MINUTE_MS
        if not call.works and moved <= 0 and minutes >= self._thresholds.not_warming_minutes:
            figures: dict[str, Figure] = {
                "minutes": round(minutes),
                "room_start": round(call.room_start, 1),
                "room_now": round(room, 1),
                "stage": ",".join(call.stages),
            }
            self._raise(serial, watch, kind, now, self._with_outdoor(figures))

    def _check_starts(self, serial: str, watch: _Watch, now: int) -> None:
        limit = self._thresholds.max_starts_per_hour
        worst, worst_cycle = 0, HEATING
        hour_ago = now - HOUR_MS
        for cycle, starts in watch.starts.items():
            while starts and starts[0] <= hour_ago:
                starts.popleft()
            if len(starts) > worst:
                worst, worst_cycle = len(starts), cycle
        found = FindingKind.SHORT_CYCLING in watch.findings
        if worst > limit:
            if found:
                return
            self._raise(
                serial,
                watch,
                FindingKind.SHORT_CYCLING,
                now,
                {"starts_per_hour": worst, "limit": limit, "cycle": worst_cycle},
            )
        elif found:
            self._clear(serial, watch, FindingKind.SHORT_CYCLING)

    def _check_room(self, serial: str, watch: _Watch, now: int) -> None:
        room = watch.room
        assert room is not None
        findings = watch.findings
        cold, hot = watch.cold_limit, watch.hot_limit
        if room < cold:
            watch.cold_since_ms = since = watch.cold_since_ms or now
            if now - since >= ROOM_CONFIRM_MS and FindingKind.TOO_COLD not in findings:
                self._raise_room(serial, watch, FindingKind.TOO_COLD, now, room=room, limit=cold)
        else:
            watch.cold_since_ms = None
            if room >= cold + CLEAR_MARGIN_C and FindingKind.TOO_COLD in findings:
                self._clear(serial, watch, FindingKind.TOO_COLD)
        if room > hot:
            watch.hot_since_ms = since = watch.hot_since_ms or now
            if now - since >= ROOM_CONFIRM_MS and FindingKind.TOO_HOT not in findings:
                self._raise_room(serial, watch, FindingKind.TOO_HOT, now, room=room, limit=hot)
        else:
            watch.hot_since_ms = None
            if room <= hot - CLEAR_MARGIN_C and FindingKind.TOO_HOT in findings:
                self._clear(serial, watch, FindingKind.TOO_HOT)

    def _raise_room(
        self, serial: str, watch: _Watch, kind: FindingKind, now: int, *, room: float, limit: float
    ) -> None:
        figures: dict[str, Figure] = {"room_now": round(room, 1), "limit": limit}
        self._raise(serial, watch, kind, now, self._with_outdoor(figures))

    def _check_aux(self, serial: str, watch: _Watch, now: int) -> None:
        lockout = watch.aux_lockout
        running = (
            watch.relays is not None
            and "aux_heat" in watch.relays
            and not watch.emergency
            and lockout is not None
        )
        outdoor = self._outdoor
        if running and outdoor is None:
            self._note_no_outdoor()
        if not running or outdoor is None or lockout is None or outdoor <= lockout + AUX_MARGIN_C:
            watch.aux_since_ms = None
            self._clear(serial, watch, FindingKind.AUX_ABOVE_LOCKOUT)
            return
        if watch.aux_since_ms is None:
            watch.aux_since_ms = now
        if now - watch.aux_since_ms >= AUX_CONFIRM_MS:
            self._raise(
                serial,
                watch,
                FindingKind.AUX_ABOVE_LOCKOUT,
                now,
                {
                    "minutes": round((now - watch.aux_since_ms) / MINUTE_MS),
                    "outdoor": round(outdoor, 1),
                    "lockout": lockout,
                },
            )

    # -- silence ---------------------------------------------------------------------------------

    def _on_event(self, event: ServiceEvent) -> None:
        if event.kind is EventKind.CONNECTION:
            serial = event.serial
            if self._is_available(serial) or not self._ownership.is_paired(serial):
                return
            watch = self._watches.get(serial)
            if watch is None:
                watch = self._watches[serial] = _Watch()
            if watch.heard or watch.silent_timer is None:
                # Heard until now, or not heard since a start (silent before it, or gone
                # since): silent from its last request on.
                self._went_silent(serial, watch)
        elif event.kind is EventKind.PAIRING and not self._ownership.is_paired(event.serial):
            self.forget(event.serial)

    def _went_silent(self, serial: str, watch: _Watch) -> None:
        """Stop judging what is not heard; find it silent once `silent_minutes` have passed."""
        watch.heard = False
        watch.calls.clear()
        watch.relays = None
        watch.room = None
        watch.cold_since_ms = watch.hot_since_ms = watch.aux_since_ms = None
        self._arm_silent(serial, watch)

    def _arm_silent(self, serial: str, watch: _Watch) -> None:
        self._cancel_silent(watch)
        last = self._last_contact_ms(serial) or self._clock.now_ms()
        due_ms = last + self._thresholds.silent_minutes * MINUTE_MS - self._clock.now_ms()
        watch.silent_timer = asyncio.get_running_loop().call_later(
            max(due_ms, 0) / 1000 + 0.5, self._silence_due, serial
        )

    @staticmethod
    def _cancel_silent(watch: _Watch) -> None:
        if watch.silent_timer is not None:
            watch.silent_timer.cancel()
            watch.silent_timer = None

    def _silence_due(self, serial: str) -> None:
        if (watch := self._watches.get(serial)) is not None:
            watch.silent_timer = None
            self._check_silent(serial)

    def _check_silent(self, serial: str) -> None:
        """Raise silent_in_frost for a silent thermostat once it is cold enough outside."""
        watch = self._watches.get(serial)
        if watch is None or watch.heard or self._is_available(serial):
            return
        now = self._clock.now_ms()
        last = self._last_contact_ms(serial)
        if last is None:
            return
        minutes = (now - last) / MINUTE_MS
        if minutes < self._thresholds.silent_minutes:
            return
        outdoor = self._outdoor
        if outdoor is None:
            self._note_no_outdoor()
            return
        limit = self._thresholds.frost_outdoor_c
        if outdoor <= limit:
            self._raise(
                serial,
                watch,
                FindingKind.SILENT_IN_FROST,
                now,
                {"minutes": round(minutes), "outdoor": round(outdoor, 1), "limit": limit},
            )

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
        now = self._clock.now_ms()
        if not self._day:
            self._day = self._day_of(now)
        delay = (self._midnight_ms(self._day + 1) - now) / 1000
        self._day_timer = asyncio.get_running_loop().call_later(max(delay, 0) + 0.5, self._day_over)

    def _day_over(self) -> None:
        """Judge the day that ended for every thermostat, and begin the next."""
        now = self._clock.now_ms()
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
        self._request_save()
        self._arm_day()

    def _judge_day(
        self, serial: str, watch: _Watch, minutes: float, degree_days: float, now: int
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

    # -- findings ----------------------------------------------------------------------------------

    def _with_outdoor(self, figures: dict[str, Figure]) -> dict[str, Figure]:
        if self._outdoor is not None:
            figures["outdoor"] = round(self._outdoor, 1)
        return figures

    def _raise(
        self,
        serial: str,
        watch: _Watch,
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

    def _clear(self, serial: str, watch: _Watch, kind: FindingKind) -> None:
        if watch.findings.pop(kind, None) is not None:
            _LOGGER.info("Thermostat %s: %s cleared", serial, kind.value)
            self._changed(serial)

    def _changed(self, serial: str) -> None:
        self._request_save()
        self._events.publish(ServiceEvent(EventKind.HEALTH, serial))

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

    def forget(self, serial: str) -> None:
        """Drop what is kept of a thermostat no longer paired (its findings clear)."""
        watch = self._watches.pop(serial, None)
        if watch is None:
            return
        self._cancel_silent(watch)
        if watch.findings:
            self._changed(serial)
        else:
            self._request_save()

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
        if data is None:
            return
        if not isinstance(data, Mapping):
            _LOGGER.warning("Ignoring stored health findings: they are no record")
            return
        day = data.get("day")
        if isinstance(day, Mapping):
            stored_day = day.get("day")
            degree_days = _in_range(day.get("degree_days"), (0.0, 1000.0))
            covered = _in_range(day.get("covered_ms"), (0.0, DAY_MS))
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

    def _load_watch(self, serial: str, stored: Mapping[str, Any]) -> _Watch:
        watch = _Watch()
        findings = stored.get("findings")
        for item in findings if isinstance(findings, list) else ():
            finding = _load_finding(serial, item)
            if finding is None:
                _LOGGER.warning("Ignoring a stored health finding of %s: it does not parse", serial)
            else:
                watch.findings[finding.kind] = finding
        starts = stored.get("starts")
        for cycle in _CYCLE_RELAYS:
            kept = starts.get(cycle) if isinstance(starts, Mapping) else None
            for moment in kept if isinstance(kept, list) else ():
                if isinstance(moment, int) and not isinstance(moment, bool):
                    watch.starts[cycle].append(moment)
        raised = stored.get("raised")
        for item in raised if isinstance(raised, list) else ():
            if (
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], int)
                and item[1] in _KIND_VALUES
            ):
                watch.raised.append((item[0], FindingKind(item[1])))
        days = stored.get("days")
        for day in days if isinstance(days, list) else ():
            if (
                isinstance(day, list)
                and len(day) == 3
                and isinstance(day[0], int)
                and (minutes := _in_range(day[1], (0.0, 1440.0 * 8))) is not None
                and (degree_days := _in_range(day[2], (MIN_DEGREE_DAYS, 1000.0))) is not None
            ):
                watch.days.append((day[0], minutes, degree_days))
        watch.day_start_heating_s = _in_range(stored.get("day_start_heating_s"), (0.0, math.inf))
        return watch

    # -- lifecycle --------------------------------------------------------------------------------

    def start(self) -> None:
        """Follow availability (a silent thermostat is found by a timer) and the days."""
        self._unlisten = self._events.listen(self._on_event)
        now = self._clock.now_ms()
        if self._day and self._day != self._day_of(now):
            # Down across a midnight: that day is not judged.
            self._day, self._day_degree_days, self._day_covered_ms = 0, 0.0, 0
            for watch in self._watches.values():
                watch.day_start_heating_s = None
        self._arm_day()

    def stop(self) -> None:
        """Stop following: cancel the timers, stop listening."""
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        if self._day_timer is not None:
            self._day_timer.cancel()
            self._day_timer = None
        for watch in self._watches.values():
            self._cancel_silent(watch)
        self._count_degree_days(self._clock.now_ms())


def _load_finding(serial: str, item: object) -> Finding | None:
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
