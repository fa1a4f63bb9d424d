"""What API clients may see: which thermostats, who owns them, and what of their buckets.

A user's client (the hosted API) sees only paired thermostats; the control API, the home's
own, lists every one the server knows. The user who paired a thermostat owns it; one paired
without naming a user (the "Add thermostat" flow) belongs to the home, and every user owns it.
Fields in `WITHHELD_FIELDS` never leave the server in a bucket a client reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from ...delivery.subscriptions import SubscriptionHub
from ...model.pairing import Pairing
from ..context import CoreContext
from ..read.state import ThermostatState
from .pairing import HomePairing
from .roster import Roster

WITHHELD_FIELDS = frozenset({"temperature_lock_pin_hash"})
"""Bucket fields no client may read. The lock's PIN hash is SHA-1 of a 4-digit PIN and the
serial, so whoever reads it recovers the PIN in at most 10,000 tries."""


class Access(StrEnum):
    """How a user reaches a paired thermostat."""

    OWNER = "owner"
    """Paired it (or it belongs to the home): may also remove it from the account."""
    SHARED = "shared"
    """Sees and controls it, but may not remove it."""


class Principal(Protocol):
    """Who asks: a user, possibly restricted to some thermostats (a hosted API key)."""

    @property
    def owner_id(self) -> str: ...

    def allows_serial(self, serial: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class DeviceSummary:
    """One thermostat as a client lists it."""

    serial: str
    device_id: str | None
    """The id clients address it by; None for a thermostat known only by its buckets."""
    name: str
    """The read model's name (falls back to the serial)."""
    paired: bool
    subscriptions: int


@dataclass(frozen=True, slots=True)
class ClientBucket:
    """One of a thermostat's buckets as a client may read it."""

    key: str
    revision: int
    timestamp: int
    value: dict[str, Any]
    """A copy without the withheld fields."""


class Clients:
    """The read side of the control and hosted APIs."""

    def __init__(
        self,
        context: CoreContext,
        *,
        state_of: Callable[[str], ThermostatState],
        subscriptions: SubscriptionHub,
        roster: Roster,
        home: HomePairing,
    ) -> None:
        self._context = context
        self._state_of = state_of
        self._subscriptions = subscriptions
        self._roster = roster
        self._home = home

    def summary(self, serial: str) -> DeviceSummary:
        record = self._context.devices.get(serial)
        return DeviceSummary(
            serial=serial,
            device_id=record.device_id if record is not None else None,
            name=self._state_of(serial).name,
            paired=self._context.ownership.is_paired(serial),
            subscriptions=self._subscriptions.count(serial),
        )

    def known_devices(self) -> list[DeviceSummary]:
        return [self.summary(serial) for serial in self._roster.known_serials()]

    def paired_device(self, device_id: str) -> DeviceSummary | None:
        record = self._context.devices.by_device_id(device_id)
        if record is None or not self._context.ownership.is_paired(record.serial):
            return None
        return self.summary(record.serial)

    def devices_of(self, principal: Principal) -> list[tuple[DeviceSummary, Access]]:
        """Return the paired thermostats a principal may reach, in pairing order, and how."""
        return [
            (self.summary(pairing.serial), self._access_to(pairing, principal.owner_id))
            for pairing in self._context.ownership.pairings()
            if pairing.serial in self._context.devices and principal.allows_serial(pairing.serial)
        ]

    def access(self, user_id: str, serial: str) -> Access | None:
        """Return how a user reaches a thermostat; None while it is not paired."""
        pairing = self._context.ownership.pairing(serial)
        return self._access_to(pairing, user_id) if pairing is not None else None

    def _access_to(self, pairing: Pairing, user_id: str) -> Access:
        if pairing.user_id in (user_id, self._home.home_user_id):
            return Access.OWNER
        return Access.SHARED

    def buckets(self, serial: str) -> list[ClientBucket]:
        """Return a thermostat's own buckets by key, without the withheld fields.

        Not the home's user and structure buckets: they describe other thermostats too.
        """
        store = self._context.buckets
        found: list[ClientBucket] = []
        for key in sorted(store.keys_of_serial(serial)):
            bucket = store.get(key)
            assert bucket is not None
            value = {name: v for name, v in bucket.value.items() if name not in WITHHELD_FIELDS}
            found.append(ClientBucket(key, bucket.revision, bucket.timestamp, value))
        return found
