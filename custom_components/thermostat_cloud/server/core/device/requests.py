"""What a device request says and what its answer carries, as plain values.

The HTTP handler (`device.api`) reads a request into these (who it claims to be, the buckets
it PUTs, the objects its subscribe lists), the device sessions (sessions.py) decide by them,
and a refusal is one of the `SessionRefusal` kinds the handler answers each its way. The
weather seam is here too: what the host hands the device surface's `/svc/weather/v1`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
import logging
from typing import Any

from ...delivery import HeldConnection
from ...model.devices import SERIAL_RE
from .firmware import Identity, serial_from_user_id

_LOGGER = logging.getLogger(__name__)

type WeatherProvider = Callable[[str], Awaitable[dict[str, Any]]]
"""The weather seam: the service core knows no weather; the host sets a provider on the
service, called with the query token firmware sent; returns the weather to serve under it,
or `{}` for none."""


@dataclass(frozen=True, slots=True)
class IdentityClaim:
    """What a request says about who sent it, as read from its credentials and headers."""

    user_id: str | None = None
    """The Basic user id (`d.SERIAL.suffix`, `nest.SERIAL`, a serial or a MAC)."""
    password: str | None = None
    """The Basic password: firmware's own secret, noted with the device."""
    client_id: str | None = None
    device_id: str | None = None
    firmware_version: str | None = None
    """The firmware version the request reports (version header, else User-Agent)."""
    address: str | None = None
    """Where the request came from."""

    def serial(self) -> str | None:
        """Return the serial claimed: Basic user id, then client-id, then device-id."""
        if self.user_id is not None and (serial := serial_from_user_id(self.user_id)):
            return serial
        if self.client_id and (serial := serial_from_user_id(self.client_id)):
            return serial
        device_id = self.device_id or ""
        return device_id if SERIAL_RE.fullmatch(device_id) else None


class SessionRefusal(Exception):
    """A request the protocol's rules refuse; the HTTP handler answers each kind its way."""


class UnidentifiedDeviceError(SessionRefusal):
    """A request with no serial in its credentials or headers."""


class MacNotResolvedError(SessionRefusal):
    """A thermostat identified by MAC address whose serial its subscribe has not told yet.

    Answered 503, which firmware retries.
    """

    def __init__(self, mac: str) -> None:
        """Initialize from the MAC."""
        super().__init__("Device serial not known yet")
        self.mac = mac
        _LOGGER.debug("Thermostat %s identifies by MAC only and has not subscribed yet", mac)


class NotLoadedError(SessionRefusal):
    """The service has not loaded its state yet: pairing codes cannot be handed out."""


class NotWritableError(SessionRefusal):
    """Every bucket of a PUT belongs to another device or home."""

    def __init__(self, key: str) -> None:
        """Initialize from the first refused key."""
        super().__init__(f"Bucket {key} is not writable by this device")


class BucketAccess(Enum):
    """What the server does with a bucket a device sends or lists."""

    KEEP = "keep"
    """The device's own bucket of a type firmware keeps, or its home's: stored and followed."""
    IGNORE = "ignore"
    """A bucket firmware keeps that this server does not (`where.<old home>`, `occupancy.*`,
    another cloud's user or structure): acknowledged so firmware stops resending it, not stored."""
    REFUSE = "refuse"
    """Another device's bucket, or another home's: never applied, never acknowledged."""


@dataclass(frozen=True, slots=True)
class ObjectDescriptor:
    """One entry of a subscribe's `objects` list."""

    key: str
    revision: int
    timestamp: int
    value: dict[str, Any] | None
    versioned: bool = True
    """False for a 4.x key listed without its version: what it has is what it was given."""


@dataclass(frozen=True, slots=True)
class PutEntry:
    """One bucket of a PUT."""

    key: str
    fields: dict[str, Any]
    guard: int | None
    """`if_object_revision`: the write applies only over this revision (firmware guards
    `shared`; a thermostat reporting what a push changed guards that bucket)."""
    base_revision: int
    """`base_object_revision`: the revision the device changed (informational)."""


@dataclass(slots=True)
class Subscription:
    """A subscribe, checked and answered for its inline values, ready to be held."""

    identity: Identity
    connection: HeldConnection
    known: dict[str, int]
    """Bucket key -> timestamp the device listed (0 for one its inline value just changed)."""
    setpoints_owed: bool
    """The first push carries setpoints or the mode: firmware should answer it at once."""
    listed: dict[str, int] | None = None
    """The versions the device itself listed, when not all of `known` (a 4.x subscribe)."""


@dataclass(frozen=True, slots=True)
class ProtocolTimes:
    """The timing every device answer carries in its protocol headers."""

    suspend_time_max: int
    """Seconds firmware may sleep before its next subscribe."""
    service_timestamp: int
    """The server's clock (ms), which firmware sets its own from."""
    defer_device_window: int
    """Seconds firmware may wait before sending its own changes."""
    disable_defer_window: int
    """Seconds firmware sends its changes at once, given with a push of setpoints."""
