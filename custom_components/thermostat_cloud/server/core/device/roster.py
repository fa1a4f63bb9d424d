"""The roster: every thermostat the server has heard of, the unpaired among them, forgetting."""

from __future__ import annotations

from collections.abc import Callable, Sequence
import logging

from ...delivery.subscriptions import SubscriptionHub
from ..context import CoreContext
from ..events import EventKind, ServiceEvent

_LOGGER = logging.getLogger(__name__)


class Roster:
    """Known thermostats; unpaired ones announced to the host, bounded by `max_unpaired_devices`."""

    def __init__(
        self,
        context: CoreContext,
        *,
        subscriptions: SubscriptionHub,
        forgets: Sequence[Callable[[str], None]],
    ) -> None:
        """Each of `forgets` is called with the serial of a forgotten device.

        The parts that keep per-device state are built after the roster: the core's wiring fills
        the sequence once they are.
        """
        self._context = context
        self._subscriptions = subscriptions
        self._announced: dict[str, None] = {}
        """Unpaired serials announced (UNPAIRED_CONTACT), in order of first contact."""
        self._forget_hooks = forgets

    def is_known(self, serial: str) -> bool:
        return serial in self._context.devices or bool(self._context.buckets.keys_of_serial(serial))

    def known_serials(self) -> list[str]:
        return sorted(
            {r.serial for r in self._context.devices.records()} | self._context.buckets.serials()
        )

    def note_new_device(self, serial: str) -> None:
        """Note a new device record: an unpaired one counts against the limit."""
        if not self._context.ownership.is_paired(serial):
            self._forget_surplus(serial)

    def announce(self, serial: str) -> None:
        """Announce an unpaired device once (UNPAIRED_CONTACT), with a line for the user."""
        if self._context.ownership.is_paired(serial) or serial in self._announced:
            return
        self._announced[serial] = None
        _LOGGER.info(
            "Thermostat %s contacted the server but is not paired; pair it with the code "
            "on its screen",
            serial,
        )
        self._context.events.publish(ServiceEvent(EventKind.UNPAIRED_CONTACT, serial))

    def note_unpaired(self, serial: str) -> None:
        """Note that a device lost its owner: it is announced again at its next contact."""
        self._announced.pop(serial, None)

    def waiting_for_pairing(self) -> list[str]:
        return [
            serial for serial in self._announced if not self._context.ownership.is_paired(serial)
        ]

    def _forget_surplus(self, newest: str) -> None:
        """Keep at most `max_unpaired_devices` unpaired records: made-up serials grow nothing.

        The least useful go first: no code on screen, no held subscribe, then the longest silent.
        """
        if len(self._context.devices) <= self._context.config.max_unpaired_devices:
            return  # fewer records than the limit, paired ones included: nothing to forget
        unpaired = [
            record
            for record in self._context.devices.records()
            if record.serial != newest and not self._context.ownership.is_paired(record.serial)
        ]
        surplus = len(unpaired) + 1 - self._context.config.max_unpaired_devices
        if surplus <= 0:
            return
        unpaired.sort(
            key=lambda record: (
                self._context.ownership.has_pending_key(record.serial)
                or bool(self._subscriptions.count(record.serial)),
                record.last_seen,
            )
        )
        for record in unpaired[:surplus]:
            self.forget_device(record.serial)

    def forget_device(self, serial: str) -> None:
        """Forget an unpaired device: its record, buckets and pending code.

        It is a new device if it makes contact again.
        """
        if self._context.ownership.is_paired(serial):
            raise ValueError("A paired device is unpaired, not forgotten")
        self._context.devices.forget(serial)
        for key in self._context.buckets.keys_of_serial(serial):
            self._context.buckets.remove(key)
        self._context.ownership.forget_key(serial)
        self._announced.pop(serial, None)
        for hook in self._forget_hooks:
            hook(serial)
        self._context.request_save()
        _LOGGER.debug("Forgot unpaired thermostat %s: too many unpaired thermostats", serial)
        self._context.events.publish(ServiceEvent(EventKind.FORGOTTEN, serial))
