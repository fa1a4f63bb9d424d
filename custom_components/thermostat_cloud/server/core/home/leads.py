"""Leads: how long before a moment the home must leave eco to be at its schedule by then.

A vacation's return and an arrival both end the home's eco early: each thermostat needs
`(scheduled setpoint at the moment - eco low) / heating rate` hours to heat back (for cooling:
`(eco high - scheduled setpoint) / cooling rate`). The rate (°C per hour) is the house model's,
once learned; before, what the thermostat's last time-to-target showed: the degrees it still
had to go over the time it said it needed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
import logging
from typing import Any
from zoneinfo import ZoneInfo

from ...model.buckets import bucket_key
from ..context import CoreContext
from ..events import ChangeSource, EventKind, Follows, ServiceEvent
from ..read.readings import BucketReadings
from ..read.schedule import as_plain_number, scheduled_setpoint
from ..watch.runtime import COOLING, HEATING

_LOGGER = logging.getLogger(__name__)

MAX_LEAD_S = 6 * 3600
"""The earliest the home leaves eco before a moment: a rate measured on a mild day must not
heat an empty house for a day."""
MIN_RATE_GAP_C = 0.5
"""A time-to-target for less than this much to go says too little about the rate."""
MAX_TIME_TO_TARGET_S = 24 * 3600
"""A time-to-target further off than this is no estimate of a rate."""


class Leads:
    """Each thermostat's lead to its schedule, by the house model or its time-to-target."""

    def __init__(
        self,
        context: CoreContext,
        *,
        home_serials: Callable[[], list[str]],
        learned_rate: Callable[[str, str], float | None],
        rates_changed: Callable[[], None],
    ) -> None:
        """`learned_rate(serial, kind)`: the house model's rate (°C/h), None until learned.

        `rates_changed`: a rate changed, the plans timed by it are timed again.
        """
        self._context = context
        self._home_serials = home_serials
        self._learned_rate = learned_rate
        self._rates_changed = rates_changed
        self._zone = ZoneInfo(context.config.time_zone)
        self._rates: dict[str, float] = {}
        """°C per hour each thermostat last heated or cooled at (from its time-to-target)."""

    def home_lead_ms(
        self, at_ms: int, *, eco_low: float | None = None, eco_high: float | None = None
    ) -> int:
        """Return the longest lead of the home's thermostats to `at_ms`, at most MAX_LEAD_S.

        `eco_low`/`eco_high`: the eco temperatures the home waits at; None, each thermostat's
        own. Without a rate (or nothing to heat or cool), no lead.
        """
        lead_s = max(
            (self._lead_s(serial, at_ms, eco_low, eco_high) for serial in self._home_serials()),
            default=0.0,
        )
        return int(min(lead_s, MAX_LEAD_S) * 1000)

    def _lead_s(
        self, serial: str, at_ms: int, eco_low: float | None, eco_high: float | None
    ) -> float:
        lead_s = 0.0
        for kind, gap in zip(
            (HEATING, COOLING), self._gaps(serial, at_ms, eco_low, eco_high), strict=True
        ):
            learned = self._learned_rate(serial, kind)
            rate = learned if learned is not None and learned > 0 else self._rates.get(serial)
            if gap > 0 and rate is not None and rate > 0:
                lead_s = max(lead_s, gap / rate * 3600)
        return lead_s

    def _gaps(
        self, serial: str, at_ms: int, eco_low: float | None, eco_high: float | None
    ) -> tuple[float, float]:
        """Return the degrees to heat and to cool from eco to the schedule at `at_ms`."""
        readings = BucketReadings(self._context.buckets, serial)
        local = datetime.fromtimestamp(at_ms / 1000, self._zone).replace(tzinfo=None)
        scheduled = scheduled_setpoint(
            self._context.buckets.value(bucket_key("schedule", serial)), local
        )
        if scheduled is None:
            return 0.0, 0.0
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

    # -- the rates ---------------------------------------------------------------------------

    follows = Follows(
        fields=frozenset({"device.time_to_target"}), kinds=frozenset({EventKind.HOUSE_MODEL})
    )
    """A thermostat's time-to-target and its house model: the rates a lead is timed by."""

    def follow(self, event: ServiceEvent) -> None:
        """Note the rate a thermostat heats or cools at: its time-to-target, its house model."""
        if (
            event.kind is EventKind.STATE
            and event.source is ChangeSource.DEVICE
            and "device.time_to_target" in event.fields
        ):
            self._note_rate(event.serial)
        elif event.kind is EventKind.HOUSE_MODEL:
            self._rates_changed()

    def _note_rate(self, serial: str) -> None:
        readings = BucketReadings(self._context.buckets, serial)
        reached_at = as_plain_number(readings.device.get("time_to_target"))
        room = readings.room_temperature
        target = as_plain_number(readings.shared.get("target_temperature"))
        if readings.mode == "range":
            low, high = readings.range_ends
            if room is not None and low is not None and high is not None:
                target = float(low) if room < low else float(high)
        if reached_at is None or room is None or target is None:
            return
        seconds = reached_at - self._context.clock.now_ms() / 1000
        gap = abs(target - room)
        if not 0 < seconds <= MAX_TIME_TO_TARGET_S or gap < MIN_RATE_GAP_C:
            return
        self._rates[serial] = gap / seconds * 3600
        self._context.request_save()
        _LOGGER.debug("%s: heats or cools at %.1f °C per hour", serial, self._rates[serial])
        self._rates_changed()

    def load(self, saved: object) -> None:
        self._rates.clear()
        for serial, rate in saved.items() if isinstance(saved, Mapping) else ():
            if (value := as_plain_number(rate)) is not None and value > 0:
                self._rates[str(serial)] = value

    def dump(self) -> dict[str, Any]:
        return dict(self._rates)
