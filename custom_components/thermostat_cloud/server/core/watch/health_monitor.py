"""The health monitor: per thermostat, what is wrong with the equipment behind it.

Constant work per report: the monitor keeps per thermostat the call under way, the starts of
the last hour (a bounded queue), the daily history and the findings, and never scans history
on the report path. Two timers do what no report can: a thermostat's silence, and the close
of each day at the home's midnight.

Each rule, its defaults and what does not raise it are in docs/health.md. Nothing is built on
what cannot be trusted: a room reading outside `ROOM_RANGE_C`, a relay that is not a boolean,
a report after a clock jump, a stored state not confirmed since a restart (a call found
running at contact is judged from the first room reading after it). Each such input is
logged once per thermostat.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
import logging
from typing import Any

from ...model.buckets import bucket_key, field_name
from ..context import CoreContext
from ..events import ChangeSource, EventKind, Follows, ServiceEvent
from .health import Figure, FindingKind
from .health_book import (
    CLOCK_BACK_TOLERANCE_MS,
    COOLING,
    CYCLE_RELAYS,
    DEFAULT_HIGH_SAFETY_C,
    DEFAULT_LOW_SAFETY_C,
    HEATING,
    HOUR_MS,
    MINUTE_MS,
    OUTDOOR_RANGE_C,
    RELAY_FIELDS_BY_NAME,
    ROOM_RANGE_C,
    Call,
    HealthBook,
    Watch,
    in_range,
)
from .runtime import RuntimeFigures

_LOGGER = logging.getLogger(__name__)


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
_ROOM_FIELD = field_name("shared", "current_temperature")
_DEVICE_FIELDS = (
    "lower_safety_temp",
    "upper_safety_temp",
    "heat_pump_aux_threshold",
    "heat_pump_aux_threshold_enabled",
    "has_heat_pump",
)
_RELAY_FIELD_NAMES = frozenset(field_name("shared", name) for name in RELAY_FIELDS_BY_NAME.values())
_SETTING_FIELDS = frozenset(
    {field_name("shared", "target_temperature_type")}
    | {field_name("device", name) for name in _DEVICE_FIELDS}
)
WATCHED_FIELDS = _RELAY_FIELD_NAMES | _SETTING_FIELDS | {_ROOM_FIELD}
"""The fields whose change the monitor looks at (as the write path names them)."""
CHECK_EVERY_MS = 30_000
"""A request checks the time-bound findings at most this often (a report always does)."""
_CALL_KIND = {HEATING: FindingKind.NOT_HEATING, COOLING: FindingKind.NOT_COOLING}


class HealthMonitor(HealthBook):
    """The findings of every paired thermostat, kept up to date as reports are applied."""

    def __init__(
        self,
        context: CoreContext,
        *,
        is_available: Callable[[str], bool],
        last_contact_ms: Callable[[str], int | None],
        runtime_figures: Callable[[str], RuntimeFigures],
    ) -> None:
        super().__init__(context, runtime_figures=runtime_figures)
        self._is_available = is_available
        self._last_contact_ms = last_contact_ms
        self._following = False

    def note_outdoor(self, celsius: float | None) -> None:
        now = self._context.clock.now_ms()
        value = None if celsius is None else in_range(celsius, OUTDOOR_RANGE_C)
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
        if fields.isdisjoint(WATCHED_FIELDS) or not self._context.ownership.is_paired(serial):
            return
        watch = self._watches.get(serial)
        if watch is None:
            watch = self._watches[serial] = Watch()
        now = self._context.clock.now_ms()
        if not self._in_time(serial, watch, now):
            return
        shared = self._context.buckets.value(bucket_key("shared", serial))
        if not watch.heard or not fields.isdisjoint(_SETTING_FIELDS):
            device = self._context.buckets.value(bucket_key("device", serial))
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
            if not self._context.ownership.is_paired(serial):
                return
            watch = self._watches[serial] = Watch()
        now = self._context.clock.now_ms()
        if not self._in_time(serial, watch, now):
            return
        if not watch.heard:
            # Heard again (or for the first time since a start): the stored relays are
            # followed, not counted as starts; the stored room is trusted only when it was
            # reported moments ago, else calls wait for the next reading.
            watch.heard = True
            self._cancel_silent(watch)
            shared_bucket = self._context.buckets.get(bucket_key("shared", serial))
            shared = shared_bucket.value if shared_bucket is not None else {}
            device = self._context.buckets.value(bucket_key("device", serial))
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
        room = in_range(value, ROOM_RANGE_C)
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
        for name, relay_field in RELAY_FIELDS_BY_NAME.items():
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
        self, serial: str, watch: Watch, shared: Mapping[str, Any], device: Mapping[str, Any]
    ) -> None:
        thresholds = self._thresholds
        low = in_range(device.get("lower_safety_temp"), ROOM_RANGE_C)
        high = in_range(device.get("upper_safety_temp"), ROOM_RANGE_C)
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
            in_range(device.get("heat_pump_aux_threshold"), OUTDOOR_RANGE_C) if enabled else None
        )
        watch.emergency = shared.get("target_temperature_type") == "emergency"
        watch.heat_pump = device.get("has_heat_pump") is True

    def _in_time(self, serial: str, watch: Watch, now: int) -> bool:
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
    def _forget_moment(watch: Watch) -> None:
        """Judge from now on: calls wait for a new room reading, conditions begin again."""
        watch.calls.clear()
        watch.relays = None
        watch.room = None
        watch.cold_since_ms = watch.hot_since_ms = watch.aux_since_ms = None

    # -- calls and starts ------------------------------------------------------------------------

    def _follow_relays(
        self, serial: str, watch: Watch, on: frozenset[str] | None, now: int, *, count: bool
    ) -> None:
        if on is None:
            watch.calls.clear()
            watch.relays = None
            return
        known, watch.relays = watch.relays is not None, on
        for cycle, relays in CYCLE_RELAYS.items():
            running = on & relays
            call = watch.calls.get(cycle)
            if not running:
                if call is not None:
                    del watch.calls[cycle]
                continue
            if call is None:
                call = watch.calls[cycle] = Call(now, watch.room, {})
                if count and known:
                    watch.starts[cycle].append(now)
            for relay in sorted(running):
                stage = _STAGE_OF_RELAY[relay]
                if relay == "heater" and watch.heat_pump:
                    stage = "heat_pump"
                call.stages.setdefault(stage, None)

    # -- the checks -------------------------------------------------------------------------------

    def _check(self, serial: str, watch: Watch, now: int) -> None:
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

    def _judge_call(self, serial: str, watch: Watch, cycle: str, call: Call, now: int) -> None:
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

    def _check_starts(self, serial: str, watch: Watch, now: int) -> None:
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

    def _check_room(self, serial: str, watch: Watch, now: int) -> None:
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
        self, serial: str, watch: Watch, kind: FindingKind, now: int, *, room: float, limit: float
    ) -> None:
        figures: dict[str, Figure] = {"room_now": round(room, 1), "limit": limit}
        self._raise(serial, watch, kind, now, self._with_outdoor(figures))

    def _check_aux(self, serial: str, watch: Watch, now: int) -> None:
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

    follows = Follows(
        fields=WATCHED_FIELDS, kinds=frozenset({EventKind.CONNECTION, EventKind.PAIRING})
    )
    """What a report changed that it judges, contact (silence) and pairing (forgetting)."""

    def follow(self, event: ServiceEvent) -> None:
        """Judge a thermostat's report; follow its contact and its pairing once started."""
        if event.kind is EventKind.STATE:
            if event.source is ChangeSource.DEVICE:
                self.report_applied(event.serial, event.fields)
        elif self._following:
            self._follow_contact(event)

    def _follow_contact(self, event: ServiceEvent) -> None:
        if event.kind is EventKind.CONNECTION:
            serial = event.serial
            if self._is_available(serial) or not self._context.ownership.is_paired(serial):
                return
            watch = self._watches.get(serial)
            if watch is None:
                watch = self._watches[serial] = Watch()
            if watch.heard or watch.silent_timer is None:
                # Heard until now, or not heard since a start (silent before it, or gone
                # since): silent from its last request on.
                self._went_silent(serial, watch)
        elif event.kind is EventKind.PAIRING and not self._context.ownership.is_paired(
            event.serial
        ):
            self.forget(event.serial)

    def _went_silent(self, serial: str, watch: Watch) -> None:
        """Stop judging what is not heard; find it silent once `silent_minutes` have passed."""
        watch.heard = False
        watch.calls.clear()
        watch.relays = None
        watch.room = None
        watch.cold_since_ms = watch.hot_since_ms = watch.aux_since_ms = None
        self._arm_silent(serial, watch)

    def _arm_silent(self, serial: str, watch: Watch) -> None:
        self._cancel_silent(watch)
        last = self._last_contact_ms(serial) or self._context.clock.now_ms()
        due_ms = last + self._thresholds.silent_minutes * MINUTE_MS - self._context.clock.now_ms()
        watch.silent_timer = asyncio.get_running_loop().call_later(
            max(due_ms, 0) / 1000 + 0.5, self._silence_due, serial
        )

    @staticmethod
    def _cancel_silent(watch: Watch) -> None:
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
        now = self._context.clock.now_ms()
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

    # -- findings ----------------------------------------------------------------------------------

    def forget(self, serial: str) -> None:
        """Drop what is kept of a thermostat no longer paired (its findings clear)."""
        watch = self._watches.pop(serial, None)
        if watch is None:
            return
        self._cancel_silent(watch)
        if watch.findings:
            self._changed(serial)
        else:
            self._context.request_save()

    # -- lifecycle --------------------------------------------------------------------------------

    def start(self) -> None:
        """Follow availability (a silent thermostat is found by a timer) and the days."""
        self._following = True
        now = self._context.clock.now_ms()
        if self._day and self._day != self._day_of(now):
            # Down across a midnight: that day is not judged.
            self._day, self._day_degree_days, self._day_covered_ms = 0, 0.0, 0
            for watch in self._watches.values():
                watch.day_start_heating_s = None
        self._arm_day()

    def stop(self) -> None:
        self._following = False
        if self._day_timer is not None:
            self._day_timer.cancel()
            self._day_timer = None
        for watch in self._watches.values():
            self._cancel_silent(watch)
        self._count_degree_days(self._context.clock.now_ms())
