"""The one path for change notifications, and the core's followers of it.

Every writer (device PUT, inline subscribe update, command, pairing) announces its change
through `Announcements`: first to the core's own followers (the runtime ledger, the days, the
house model, holds, vacations, the health monitor), each called only for what it declares it
follows (`Follows`), then on the `EventBus`, the outbound channel the SSE stream, the hosted
API and the host's entities listen to. The write path announces a command only once its push
is written (or owed to the next subscribe): no follower or listener delays a push.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
import logging
from typing import TYPE_CHECKING, Protocol

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


@dataclass(frozen=True, slots=True, kw_only=True)
class Follows:
    """What a follower follows: changed fields, whole bucket types, and other events' kinds."""

    fields: frozenset[str] = frozenset()
    """STATE: these changed fields, as events name them (`shared.target_temperature`)."""
    bucket_types: frozenset[str] = frozenset()
    """STATE: any changed field of these bucket types (`schedule`)."""
    kinds: frozenset[EventKind] = frozenset()
    """Events of these other kinds (`EventKind.PAIRING`)."""

    def wants(self, event: ServiceEvent) -> bool:
        """Return whether an event changed anything followed."""
        if event.kind is not EventKind.STATE:
            return event.kind in self.kinds
        if not self.fields.isdisjoint(event.fields):
            return True
        return bool(self.bucket_types) and any(
            name.partition(".")[0] in self.bucket_types for name in event.fields
        )


class Follower(Protocol):
    """A part of the core that follows changes: called before the outbound listeners hear them."""

    @property
    def follows(self) -> Follows:
        """What it follows; it is called for nothing else."""

    def follow(self, event: ServiceEvent) -> None:
        """Follow a change it follows."""


class Announcements:
    """How the core tells of a change: its followers, in order, then the outbound bus."""

    def __init__(self, bus: EventBus, followers: Sequence[Follower]) -> None:
        """Initialize from the outbound bus and the core's followers, in the order told.

        The followers are built after this (they announce through it): `followers` is the
        sequence the core's wiring fills once they are.
        """
        self._bus = bus
        self._followers = followers

    def publish(self, event: ServiceEvent) -> None:
        """Tell the followers that follow what the event changed, then the bus's listeners.

        One failing follower does not stop the rest, nor the listeners.
        """
        for follower in self._followers:
            if follower.follows.wants(event):
                try:
                    follower.follow(event)
                except Exception:
                    _LOGGER.exception("Follower %s failed on %s", follower, event)
        self._bus.publish(event)
