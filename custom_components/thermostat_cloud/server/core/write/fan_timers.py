"""Fan timers: run the fan for a while, then back to `auto`, with the server down too.

A timer is what firmware ends itself: `fan_timer_duration` (seconds) and `fan_timer_timeout`
(when it ends, Unix seconds) as vendor clients wrote them, in fan mode `auto`. Not `on`: that
is the continuous fan, which would stay on after the timer (protocol notes, "Fan control";
firmware's modes are off, auto and duty-cycle). The server writes `auto` too when the timer
ends, and re-arms stored timers after a restart.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ...model.buckets import bucket_key
from ..context import CoreContext
from ..read.command_errors import CommandResult
from ..read.readings import BucketReadings
from .write_path import WritePath

_LOGGER = logging.getLogger(__name__)

FAN_TIMER_MAX_SECONDS = 43200
FAN_MODES = ("auto", "on", "off")


class FanTimers:
    """Each thermostat's fan timer, and the fan writes that start and end it."""

    def __init__(self, context: CoreContext, writes: WritePath) -> None:
        self._context = context
        self._writes = writes
        self._timers: dict[str, asyncio.TimerHandle] = {}

    def run_for(self, serial: str, seconds: int) -> CommandResult:
        """Run the fan for `seconds` (checked already), then back to `auto`."""
        # Whole Unix seconds, rounded up: the fan runs at least as long as asked.
        timeout = -(-(self._context.clock.now_ms() + seconds * 1000) // 1000)
        result = self.write_fan(
            serial,
            {"fan_mode": "auto", "fan_timer_duration": seconds, "fan_timer_timeout": timeout},
        )
        self._arm(serial, timeout)
        return result

    def set_mode(self, serial: str, mode: str) -> CommandResult:
        """Set a fan mode (checked already); it ends a running timer."""
        self._cancel(serial)
        return self.write_fan(serial, {"fan_mode": mode, "fan_timer_timeout": 0})

    def write_fan(self, serial: str, fields: dict[str, Any]) -> CommandResult:
        """Write fan settings to the device bucket, and to `shared` where the fan mode is reported.

        Else a mode changed on the dial would make the same command a no-op.
        """
        also = (
            {bucket_key("shared", serial): {"fan_mode": fields["fan_mode"]}}
            if BucketReadings(self._context.buckets, serial).fan_mode_in_shared
            else None
        )
        return self._writes.write(serial, bucket_key("device", serial), fields, also)

    def restore(self) -> None:
        """Re-arm fan timers stored in device buckets (after a restart); overdue ones end now."""
        for serial in self._context.buckets.serials():
            if (timeout := BucketReadings(self._context.buckets, serial).fan_timer_end) is not None:
                self._arm(serial, timeout)

    def cancel_all(self) -> None:
        """Stop every pending timer (unload); they are re-armed from state on the next start."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()

    def _arm(self, serial: str, timeout_s: int) -> None:
        self._cancel(serial)
        delay = max(0.0, timeout_s - self._context.clock.now_ms() / 1000)
        loop = asyncio.get_running_loop()
        self._timers[serial] = loop.call_later(delay, self._elapsed, serial, timeout_s)

    def _cancel(self, serial: str) -> None:
        if (handle := self._timers.pop(serial, None)) is not None:
            handle.cancel()

    def _elapsed(self, serial: str, timeout_s: int) -> None:
        self._timers.pop(serial, None)
        if BucketReadings(self._context.buckets, serial).fan_timer_end != timeout_s:
            return  # replaced by a newer timer or a manual mode since it was armed
        _LOGGER.debug("Fan timer of %s elapsed; fan back to auto", serial)
        self.write_fan(serial, {"fan_mode": "auto", "fan_timer_timeout": 0})
