"""What a device's subscribe lists and is held by, the refusals, and the weather seam.

What every request carries (the claim, a PUT's entries, the protocol's times) stays with the
sessions: a report's path enters no module more for it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
import logging
from typing import Any

from ...delivery import HeldConnection
from ..firmware.firmware import Identity

_LOGGER = logging.getLogger(__name__)

type WeatherProvider = Callable[[str], Awaitable[dict[str, Any]]]
"""The weather seam: the service core knows no weather; the host sets a provider on the
service, called with the query token firmware sent; returns the weather to serve under it,
or `{}` for none."""


class SessionRefusal(Exception):
    """A request the protocol's rules refuse; the HTTP handler answers each kind its way."""


class UnidentifiedDeviceError(SessionRefusal):
    """A request with no serial in its credentials or headers."""


class MacNotResolvedError(SessionRefusal):
    """A thermostat identified by MAC address whose serial its subscribe has not told yet.

    Answered 503, which firmware retries.
    """

    def __init__(self, mac: str) -> None:
        super().__init__("Device serial not known yet")
        self.mac = mac
        _LOGGER.debug("Thermostat %s identifies by MAC only and has not subscribed yet", mac)


class NotLoadedError(SessionRefusal):
    """The service has not loaded its state yet: pairing codes cannot be handed out."""


class NotWritableError(SessionRefusal):
    """Every bucket of a PUT belongs to another device or home."""

    def __init__(self, key: str) -> None:
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
