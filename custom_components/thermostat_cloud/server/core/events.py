"""The one path for change notifications.

Every writer (device PUT, inline subscribe update, command, pairing) publishes here; held
subscribe connections, the SSE stream and the host's entities listen here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .write.changes import Author

_LOGGER = logging.getLogger(__name__)


class EventKind(StrEnum):
    """What happened to a device."""

    STATE = "state"
    """Bucket values changed."""
    CONNECTION = "connection"
    """A subscribe connection opened or closed, or the device made contact."""
    PAIRING = "pairing"
    """The device was paired or unpaired."""
    UNPAIRED_CONTACT = "unpaired_contact"
    """A device that is not paired contacted the server."""
    FORGOTTEN = "forgotten"
    """An unpaired device's record was dropped (too many unpaired devices)."""
    FIRMWARE = "firmware"
    """The device reported another firmware version (see `Availability.note_firmware`)."""
    COMMANDS = "commands"
    """What the device has not confirmed changed, or whether it takes commands
    (see `Confirmations`)."""
    RUNTIME = "runtime"
    """The device's runtime, cycles or energy changed (see `runtime.RuntimeLedger`)."""
    HOLD = "hold"
    """The device's hold began, changed or ended (see `Holds`)."""
    HEALTH = "health"
    """The device's health findings changed (see `health_monitor.HealthMonitor`)."""
    VACATIONS = "vacations"
    """The home's vacations changed (see `Vacations`); the event names no device (`HOME`)."""
    HOUSE_MODEL = "house_model"
    """The device's house model learned a run, or its rates follow a new outdoor temperature
    (see `house_model.HouseModel`)."""


HOME = ""
"""The serial of an event about the whole home rather than one device."""


class ChangeSource(StrEnum):
    """Who changed the state; decides whether held connections get a push."""

    DEVICE = "device"
    """The device itself (PUT or inline update): it already has the data."""
    SERVER = "server"
    """A command or pairing: the device must be told."""


class PairingOrigin(StrEnum):
    """Where a pairing came from (PAIRING events of `register`)."""

    API = "api"
    """The control API, or anything but Home Assistant's flow (unpairing too)."""
    FLOW = "flow"
    """Home Assistant's "Add thermostat" flow, which creates the thermostat's subentry itself."""


def field_name(bucket_type: str, field: str) -> str:
    """Return how an event names a changed bucket field: `shared.target_temperature`."""
    return f"{bucket_type}.{field}"


@dataclass(frozen=True, slots=True)
class ServiceEvent:
    """One notification about one device, and what it changed."""

    kind: EventKind
    serial: str
    keys: tuple[str, ...] = ()
    """STATE: the keys of the buckets that changed (what a held connection is owed)."""
    source: ChangeSource = ChangeSource.SERVER
    origin: PairingOrigin = PairingOrigin.API
    fields: frozenset[str] = frozenset()
    """STATE: the fields whose value changed, by bucket type (see `field_name`)."""
    author: Author | None = None
    """STATE: who changed the setpoint, mode or preset it changed (see `changes.py`); None
    when it changed none of them."""

    @property
    def changed(self) -> frozenset[str]:
        """What the event changed: a STATE event its fields, any other its kind (its aspect)."""
        return self.fields if self.kind is EventKind.STATE else frozenset((self.kind.value,))


type Listener = Callable[[ServiceEvent], None]


class EventBus:
    """Synchronous fan-out of service events to listeners, in the publisher's loop turn."""

    def __init__(self) -> None:
        """Initialize the bus with no listeners."""
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Add a listener; returns a function that removes it."""
        self._listeners.append(listener)

        def remove() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return remove

    def publish(self, event: ServiceEvent) -> None:
        """Deliver an event to every listener; one failing listener does not stop the rest."""
        for listener in tuple(self._listeners):
            try:
                listener(event)
            except Exception:
                _LOGGER.exception("Listener %s failed on %s", listener, event)
