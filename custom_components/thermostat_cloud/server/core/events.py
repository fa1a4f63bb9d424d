"""The one path for change notifications, and the core's followers of it.

`Announcements` tells the core's own followers first, each only of what it `Follows`, then
the `EventBus` that SSE, the hosted API and the host listen to. The write path announces a
command only once its push is written (or owed to the next subscribe): no follower or
listener delays a push.
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
    CONNECTION = "connection"
    PAIRING = "pairing"
    UNPAIRED_CONTACT = "unpaired_contact"
    FORGOTTEN = "forgotten"
    """An unpaired device's record was dropped (too many unpaired devices)."""
    FIRMWARE = "firmware"
    """The device reported another firmware version (see `Availability.note_firmware`)."""
    COMMANDS = "commands"
    """What the device has not confirmed changed, or whether it takes commands."""
    RUNTIME = "runtime"
    """The device's runtime, cycles or energy changed (see `runtime.RuntimeLedger`)."""
    HOLD = "hold"
    """The device's hold began, changed or ended (see `Holds`)."""
    HEALTH = "health"
    """The device's health findings changed (see `health_monitor.HealthMonitor`)."""
    VACATIONS = "vacations"
    """The home's vacations changed (see `Vacations`); the event names no device (`HOME`)."""
    HOUSE_MODEL = "house_model"
    """Learned a run, or its rates follow a new outdoor temperature."""
    ARRIVAL = "arrival"
    """The home's arrival was planned, re-planned, began or ended (see `Arrivals`); `HOME`."""


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
    """STATE: who changed the setpoint, mode or preset; None when it changed none of them."""

    @property
    def changed(self) -> frozenset[str]:
        """What the event changed: a STATE event its fields, any other its kind (its aspect)."""
        return self.fields if self.kind is EventKind.STATE else frozenset((self.kind.value,))


type Listener = Callable[[ServiceEvent], None]


class EventBus:
    """Synchronous fan-out of service events to listeners, in the publisher's loop turn."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> Callable[[], None]:
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
    def follows(self) -> Follows: ...

    def follow(self, event: ServiceEvent) -> None: ...


class Announcements:
    """How the core tells of a change: its followers, in order, then the outbound bus."""

    def __init__(self, bus: EventBus, followers: Sequence[Follower]) -> None:
        self._bus = bus
        self._followers = followers

    def publish(self, event: ServiceEvent) -> None:
        """Tell the followers that follow the change, then the bus; one failing stops no other."""
        for follower in self._followers:
            if follower.follows.wants(event):
                try:
                    follower.follow(event)
                except Exception:
                    _LOGGER.exception("Follower %s failed on %s", follower, event)
        self._bus.publish(event)
