"""Entry keys (pairing codes), ownership records and the pairing journal.

Only the records: `core.device.pairing.HomePairing.register` is the one way to pair.

The journal lets a host that mirrors pairings (the thermostat subentries, saved about a second
later) reconcile after a crash; this store is saved before a change is acknowledged, so it is
the newer. A pairing without a mirror is re-mirrored while `mirror_saved` is False (the mirror
was lost), unpaired once True (the user removed it); an unpairing's tombstone removes a mirror
found after it, until the host's saved state shows it gone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
import re
import secrets
from typing import Any

from .buckets import home_bucket_keys
from .clock import Clock
from .records import flat_dict

ENTRY_KEY_LENGTH = 7
# Letters and digits that cannot be confused on a thermostat's small screen (no 0/O, 1/I/L).
ENTRY_KEY_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ENTRY_KEY_MIN_REMAINING_MS = 30 * 60 * 1000
DEFAULT_ENTRY_KEY_TTL_SECONDS = 3600
_CODE_RE = re.compile(r"^[A-Z0-9]{7}$")


class KeyStatus(StrEnum):
    """Entry key state as `GET /svc/passphrase/status` reports it."""

    NO_KEY = "no_key"
    PENDING = "pending"
    CLAIMED = "claimed"


class IssueOutcome(StrEnum):
    """What asking for a device's pairing code changed."""

    CREATED = "created"
    EXTENDED = "extended"
    """The pending key's expiry slid forward."""
    UNCHANGED = "unchanged"


class RegisterOutcome(StrEnum):
    """Result of claiming a code."""

    PAIRED = "paired"
    MALFORMED = "malformed"
    """Not 7 letters or digits (with or without the display dash)."""
    INVALID = "invalid"
    EXPIRED = "expired"
    CLAIMED = "claimed"


def normalize_code(code: str) -> str | None:
    """Uppercase a typed code and drop the display dash; None unless 7 letters or digits."""
    candidate = code.strip().replace("-", "").replace(" ", "").upper()
    return candidate if _CODE_RE.fullmatch(candidate) else None


def format_code(value: str) -> str:
    """Format the code as a thermostat shows it: `XXX-XXXX`."""
    return f"{value[:3]}-{value[3:]}"


@dataclass(slots=True)
class EntryKey:
    """One pairing code issued to one device."""

    serial: str
    value: str
    expires: int
    claimed_by: str | None = None
    claimed_at: int | None = None

    @property
    def claimed(self) -> bool:
        return self.claimed_by is not None


@dataclass(slots=True)
class Pairing:
    """A device's ownership record."""

    serial: str
    user_id: str
    structure_id: str
    paired_at: int
    mirror_saved: bool = True
    """Whether the host saw this pairing's mirror in its saved state (see the module
    docstring). Records saved before the journal existed had their mirror: True."""


class PairingRegistry:
    """Entry keys by serial and ownership records by serial."""

    def __init__(self, clock: Clock, ttl_seconds: int = DEFAULT_ENTRY_KEY_TTL_SECONDS) -> None:
        self._clock = clock
        self.ttl_seconds = ttl_seconds
        self._keys: dict[str, EntryKey] = {}
        self._pairings: dict[str, Pairing] = {}
        self._unpaired: dict[str, int] = {}
        """Tombstones: serial -> when it was unpaired, until the host's mirror agrees."""

    @property
    def ttl_ms(self) -> int:
        """Time to live of a new key, never under the 30 minutes firmware requires."""
        return max(self.ttl_seconds * 1000, ENTRY_KEY_MIN_REMAINING_MS)

    def _expire(self, serial: str) -> EntryKey | None:
        """Return the device's key, after dropping it if it expired unclaimed."""
        key = self._keys.get(serial)
        if key is not None and not key.claimed and key.expires <= self._clock.now_ms():
            del self._keys[serial]
            return None
        return key

    def issue(self, serial: str) -> tuple[EntryKey, IssueOutcome]:
        """Return the device's pending key, making one when it has none, and what changed.

        Under 30 minutes left, its expiry slides forward so the code on screen stays usable.
        """
        now = self._clock.now_ms()
        key = self._expire(serial)
        if key is not None and not key.claimed:
            if key.expires - now < ENTRY_KEY_MIN_REMAINING_MS:
                key.expires = now + self.ttl_ms
                return key, IssueOutcome.EXTENDED
            return key, IssueOutcome.UNCHANGED
        taken = {k.value for k in self._keys.values()}
        while (value := _new_code()) in taken:
            pass
        key = EntryKey(serial=serial, value=value, expires=now + self.ttl_ms)
        self._keys[serial] = key
        return key, IssueOutcome.CREATED

    def status(self, serial: str) -> tuple[KeyStatus, EntryKey | None]:
        key = self._expire(serial)
        if key is None:
            return KeyStatus.NO_KEY, None
        return (KeyStatus.CLAIMED if key.claimed else KeyStatus.PENDING), key

    def find(self, value: str) -> EntryKey | None:
        """Return the key with this (normalized) value, whatever its state."""
        return next((k for k in self._keys.values() if k.value == value), None)

    def check(self, value: str) -> tuple[RegisterOutcome, EntryKey | None]:
        key = self.find(value)
        if key is None:
            return RegisterOutcome.INVALID, None
        if key.claimed:
            return RegisterOutcome.CLAIMED, key
        if key.expires <= self._clock.now_ms():
            del self._keys[key.serial]
            return RegisterOutcome.EXPIRED, key
        return RegisterOutcome.PAIRED, key

    def claim(self, key: EntryKey, user_id: str, structure_id: str) -> Pairing:
        now = self._clock.now_ms()
        key.claimed_by = user_id
        key.claimed_at = now
        pairing = Pairing(
            serial=key.serial,
            user_id=user_id,
            structure_id=structure_id,
            paired_at=now,
            mirror_saved=False,
        )
        self._pairings[key.serial] = pairing
        self._unpaired.pop(key.serial, None)
        return pairing

    def pairing(self, serial: str) -> Pairing | None:
        return self._pairings.get(serial)

    def is_paired(self, serial: str) -> bool:
        return serial in self._pairings

    def home_keys(self, serial: str) -> list[str]:
        """Return the home's bucket keys a paired device follows (user, structure, rooms)."""
        pairing = self._pairings.get(serial)
        if pairing is None:
            return []
        return home_bucket_keys(pairing.user_id, pairing.structure_id)

    def pairings(self) -> list[Pairing]:
        return list(self._pairings.values())

    def unpair(self, serial: str) -> Pairing | None:
        """Drop ownership and the device's key, leaving a tombstone for the host's mirror."""
        self._keys.pop(serial, None)
        pairing = self._pairings.pop(serial, None)
        if pairing is not None:
            self._unpaired[serial] = self._clock.now_ms()
        return pairing

    def note_mirror_saved(self, serial: str) -> bool:
        """Note the host saw the pairing's mirror in its saved state; True when that is news."""
        pairing = self._pairings.get(serial)
        if pairing is None or pairing.mirror_saved:
            return False
        pairing.mirror_saved = True
        return True

    def unpaired_serials(self) -> list[str]:
        """Return the serials with a tombstone: unpaired, the host's mirror not yet seen gone."""
        return list(self._unpaired)

    def note_mirror_gone(self, serial: str) -> bool:
        """Forget a tombstone (the host's saved state has no mirror); True when there was one."""
        return self._unpaired.pop(serial, None) is not None

    def forget_key(self, serial: str) -> None:
        """Drop an unpaired device's pending key (its record was forgotten)."""
        key = self._keys.get(serial)
        if key is not None and serial not in self._pairings:
            del self._keys[serial]

    def has_pending_key(self, serial: str) -> bool:
        """Whether the device holds a code that is not claimed (it may be on its screen)."""
        key = self._expire(serial)
        return key is not None and not key.claimed

    def serials_in(self, structure_id: str) -> list[str]:
        """Paired serials of one home, in pairing order."""
        return [p.serial for p in self._pairings.values() if p.structure_id == structure_id]

    def dump(self) -> dict[str, Any]:
        return {
            "entry_keys": [flat_dict(k) for k in self._keys.values()],
            "pairings": [flat_dict(p) for p in self._pairings.values()],
            "unpaired": dict(self._unpaired),
        }

    def load(self, data: Mapping[str, Any]) -> None:
        for raw in data.get("entry_keys", []):
            key = EntryKey(**raw)
            self._keys[key.serial] = key
        for raw in data.get("pairings", []):
            pairing = Pairing(**raw)
            self._pairings[pairing.serial] = pairing
        self._unpaired.update(data.get("unpaired", {}))


def _new_code() -> str:
    return "".join(secrets.choice(ENTRY_KEY_ALPHABET) for _ in range(ENTRY_KEY_LENGTH))
