"""Contact and availability: when each thermostat was last heard, and whether it counts as there.

A thermostat is available with a held subscribe, for `resubscribe_grace` after one closed
(firmware resubscribes at once), and for `availability_grace` after any request. A timer per
thermostat without a held subscribe tells listeners (CONNECTION) when its grace runs out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
import logging

from ...delivery.subscriptions import SubscriptionHub
from ..context import CoreContext
from ..events import EventKind, ServiceEvent
from ..firmware.firmware import too_old_to_control
from .roster import Roster

_LOGGER = logging.getLogger(__name__)


class Availability:
    """Device contact, firmware versions and availability timers."""

    def __init__(
        self,
        context: CoreContext,
        *,
        subscriptions: SubscriptionHub,
        roster: Roster,
        contact_listeners: Sequence[Callable[[str], None]] = (),
        later: Callable[[Callable[[], None]], None] = lambda action: action(),
    ) -> None:
        """`contact_listeners` are called with the serial of every request of a known device.

        `later` announces an unpaired device once a report's answer is written (`AnswerFirst`);
        the listeners hear the thermostat as it called, before its report is merged.
        """
        self._context = context
        self._subscriptions = subscriptions
        self._roster = roster
        self._closed_at: dict[str, int] = {}
        """Serial -> when its last held subscribe closed (ms)."""
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._contact_listeners = list(contact_listeners)
        self._later = later
        self._skv_subscribers: set[str] = set()
        """4.x thermostats that subscribed over 4.x's transport since the start: controlled."""
        self._heartbeat_only: set[str] = set()
        """4.x thermostats seen PUTting empty heartbeats that have not subscribed since the
        start: nothing can be sent to them (NoLongerEvil-Thermostat issue #213)."""

    # -- contact ---------------------------------------------------------------------------

    def note_contact(
        self,
        serial: str,
        *,
        create: bool = True,
        address: str | None = None,
        credential: str | None = None,
    ) -> None:
        """Note a device request: last seen, availability, and announcing an unpaired device once.

        `create=False` (ping, a status read) only refreshes an existing record, so made-up serials
        leave no trace. `address` and `credential` are noted before the events go out, so a listener
        waiting for the thermostat at an address finds it there.
        """
        if not create and serial not in self._context.devices:
            return
        was_available = self.is_available(serial)
        _, created = self._context.devices.touch(serial)
        if created:
            self._context.request_save()
            self._roster.note_new_device(serial)
        if self._context.devices.note_access(serial, address, credential):
            self._context.request_save()
        if not self._subscriptions.count(serial):
            self._arm_check(serial)
        if not was_available:
            self._context.events.publish(ServiceEvent(EventKind.CONNECTION, serial))
        self._later(lambda: self._roster.announce(serial))
        for listener in self._contact_listeners:
            listener(serial)

    def note_firmware(self, serial: str, version: str) -> None:
        """Keep the firmware version a device reports; a new one is published (FIRMWARE).

        A thermostat updated between 4.x and 5.x is logged: from then on it is answered in its
        requests' transport, and what 4.x's transport knew of it is dropped.
        """
        record = self._context.devices.get(serial)
        if record is None or record.software_version == version:
            return
        before = record.software_version
        self._context.devices.update_identity(serial, {"software_version": version})
        self._context.request_save()
        if before is not None and too_old_to_control(before) != too_old_to_control(version):
            _LOGGER.info(
                "Thermostat %s now runs firmware %s (was %s): it is answered in the transport "
                "its requests use",
                serial,
                version,
                before,
            )
        if not too_old_to_control(version):
            self._skv_subscribers.discard(serial)
            self._heartbeat_only.discard(serial)
        self._context.events.publish(ServiceEvent(EventKind.FIRMWARE, serial))

    def note_heartbeat(self, serial: str) -> None:
        """Note a 4.x heartbeat PUT; before any 4.x subscribe it says 5.x is needed (FIRMWARE)."""
        record = self._context.devices.get(serial)
        version = record.software_version if record is not None else None
        if serial in self._skv_subscribers or serial in self._heartbeat_only:
            return
        if not too_old_to_control(version):
            return
        self._heartbeat_only.add(serial)
        _LOGGER.warning(
            "Thermostat %s runs firmware %s and sends only heartbeats, never the subscribe "
            "commands are sent on; it needs firmware 5.x to be controlled",
            serial,
            version,
        )
        self._context.events.publish(ServiceEvent(EventKind.FIRMWARE, serial))

    def note_skv_subscribe(self, serial: str) -> None:
        """Note a subscribe over 4.x's transport: the thermostat is controlled (FIRMWARE once)."""
        if serial in self._skv_subscribers:
            return
        self._skv_subscribers.add(serial)
        self._heartbeat_only.discard(serial)
        _LOGGER.info("Thermostat %s subscribes over firmware 4.x's transport", serial)
        self._context.events.publish(ServiceEvent(EventKind.FIRMWARE, serial))

    def subscribes_skv(self, serial: str) -> bool:
        return serial in self._skv_subscribers

    def firmware_too_old(self, serial: str) -> str | None:
        """Return the version of a 4.x seen sending heartbeats and never subscribing, else None."""
        if serial not in self._heartbeat_only:
            return None
        record = self._context.devices.get(serial)
        version = record.software_version if record is not None else None
        return version if too_old_to_control(version) else None

    # -- availability ----------------------------------------------------------------------

    def is_available(self, serial: str) -> bool:
        """Return whether the device is available.

        With a held subscribe, one closed moments ago (firmware resubscribes at once), or a request
        within the availability grace.
        """
        if self._subscriptions.count(serial):
            return True
        return self._context.clock.now_ms() < self._available_until_ms(serial)

    def _available_until_ms(self, serial: str) -> int:
        record = self._context.devices.get(serial)
        last_seen = record.last_seen if record is not None and record.last_seen else None
        closed = self._closed_at.get(serial)
        return max(
            last_seen + int(self._context.config.availability_grace * 1000) if last_seen else 0,
            closed + int(self._context.config.resubscribe_grace * 1000) if closed else 0,
        )

    def connection_opened(self, serial: str) -> None:
        self._connection_changed(serial)

    def connection_closed(self, serial: str) -> None:
        """Note that a held subscribe ended.

        Closing is not contact: a thermostat that lost power is only noticed when its silent
        hold times out, so it gets the short resubscribe grace from now, not the request grace.
        """
        self._closed_at[serial] = self._context.clock.now_ms()
        self._connection_changed(serial)

    def _connection_changed(self, serial: str) -> None:
        """Publish that a subscribe opened or closed; without one, re-check after the grace."""
        self._context.events.publish(ServiceEvent(EventKind.CONNECTION, serial))
        if self._subscriptions.count(serial):
            if (handle := self._timers.pop(serial, None)) is not None:
                handle.cancel()
        else:
            self._arm_check(serial)

    def _arm_check(self, serial: str) -> None:
        if (handle := self._timers.pop(serial, None)) is not None:
            handle.cancel()
        if not self._subscriptions.closed:
            delay = (self._available_until_ms(serial) - self._context.clock.now_ms()) / 1000
            self._timers[serial] = asyncio.get_running_loop().call_later(
                max(delay, 0) + 0.5, self._elapsed, serial
            )

    def _elapsed(self, serial: str) -> None:
        self._timers.pop(serial, None)
        self._context.events.publish(ServiceEvent(EventKind.CONNECTION, serial))

    def forget(self, serial: str) -> None:
        self._closed_at.pop(serial, None)
        self._skv_subscribers.discard(serial)
        self._heartbeat_only.discard(serial)
        if (handle := self._timers.pop(serial, None)) is not None:
            handle.cancel()

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Arm the timers of thermostats seen before a restart: one that never returns is gone."""
        for record in self._context.devices.records():
            if record.last_seen:
                self._arm_check(record.serial)

    def stop(self) -> None:
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
