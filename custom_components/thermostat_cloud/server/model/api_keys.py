"""Hosted API keys: `svc_` + 64 hex digits, kept only as a SHA-256 hash.

Every request looks its key up again, so a revoked key fails from the next request on.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import asdict, dataclass, field
from enum import StrEnum
import hashlib
import hmac
import logging
import secrets
from typing import Any

from .clock import Clock

_LOGGER = logging.getLogger(__name__)

KEY_PREFIX = "svc_"
KEY_SECRET_BYTES = 32
STATE_KEY = "api_keys"


class Scope(StrEnum):
    """What a key may do."""

    READ = "read"
    """View status, devices and schedules."""
    WRITE = "write"
    """Control devices (and, for owners, delete them)."""


def hash_key(secret: str) -> str:
    """SHA-256 of the whole key string, as hex: the only form a key is stored in."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(slots=True)
class ApiKey:
    """One hosted API key, without its secret."""

    key_id: str
    """Public identifier, used to list and revoke the key (not usable as a credential)."""
    name: str
    owner_id: str
    """The user who created the key; owns the devices that user paired."""
    scopes: list[Scope]
    serials: list[str] | None
    """None: every device the owner can see. A list (possibly empty): only these serials."""
    key_hash: str
    created: int
    """Milliseconds since the epoch."""
    last_used: int | None = None

    def has_scope(self, scope: Scope) -> bool:
        return scope in self.scopes

    def allows_serial(self, serial: str) -> bool:
        return self.serials is None or serial in self.serials

    def public(self) -> dict[str, Any]:
        """Everything but the hash: safe to list, log or put in diagnostics."""
        return {
            "id": self.key_id,
            "name": self.name,
            "owner_id": self.owner_id,
            "scopes": [str(s) for s in self.scopes],
            "serials": None if self.serials is None else list(self.serials),
            "created": self.created,
            "last_used": self.last_used,
        }


@dataclass(frozen=True, slots=True)
class CreatedKey:
    """A new key and its secret, which is shown once and never stored."""

    key: ApiKey
    secret: str = field(repr=False)


class ApiKeyStore:
    """The service's API keys, written through to the persisted `extra_state`."""

    def __init__(
        self, clock: Clock, save_now: Callable[[], None], save_later: Callable[[], None]
    ) -> None:
        self._clock = clock
        self._save_now = save_now
        self._save_later = save_later
        self._keys: dict[str, ApiKey] = {}
        self._state: dict[str, Any] = {}

    def attach(self, extra_state: dict[str, Any]) -> None:
        """Load keys from the service's persisted extra state and keep it up to date."""
        self._state = extra_state
        self._keys = {}
        for raw in extra_state.get(STATE_KEY, []):
            try:
                key = ApiKey(
                    key_id=str(raw["key_id"]),
                    name=str(raw["name"]),
                    owner_id=str(raw["owner_id"]),
                    scopes=[Scope(s) for s in raw["scopes"]],
                    serials=None if raw["serials"] is None else [str(s) for s in raw["serials"]],
                    key_hash=str(raw["key_hash"]),
                    created=int(raw["created"]),
                    last_used=None if raw.get("last_used") is None else int(raw["last_used"]),
                )
            except KeyError, TypeError, ValueError:
                _LOGGER.warning("Ignoring a stored API key that does not parse")
                continue
            self._keys[key.key_id] = key

    def _sync(self) -> None:
        self._state[STATE_KEY] = [
            {**asdict(k), "scopes": [str(s) for s in k.scopes]} for k in self._keys.values()
        ]

    def records(self) -> list[ApiKey]:
        """Every key, oldest first."""
        return sorted(self._keys.values(), key=lambda k: k.created)

    def create(
        self,
        name: str,
        owner_id: str,
        scopes: Collection[Scope],
        serials: Iterable[str] | None = None,
    ) -> CreatedKey:
        """Make a key; the returned secret is the only copy there will ever be."""
        if not scopes:
            raise ValueError("An API key needs at least one scope")
        while (key_id := secrets.token_hex(6)) in self._keys:
            pass
        secret = KEY_PREFIX + secrets.token_hex(KEY_SECRET_BYTES)
        key = ApiKey(
            key_id=key_id,
            name=name,
            owner_id=owner_id,
            scopes=sorted(set(scopes)),
            serials=None if serials is None else sorted(set(serials)),
            key_hash=hash_key(secret),
            created=self._clock.now_ms(),
        )
        self._keys[key_id] = key
        self._sync()
        self._save_now()
        _LOGGER.info("API key %s (%s) created", key_id, name)
        return CreatedKey(key, secret)

    def revoke(self, key_id: str) -> ApiKey | None:
        """Delete a key; it fails from the next request on. Returns it, or None if unknown."""
        key = self._keys.pop(key_id, None)
        if key is not None:
            self._sync()
            self._save_now()
            _LOGGER.info("API key %s (%s) revoked", key_id, key.name)
        return key

    def authenticate(self, secret: str) -> ApiKey | None:
        """Return the key a Bearer token is, or None (every hash compared, in constant time)."""
        if not secret.startswith(KEY_PREFIX):
            return None
        candidate = hash_key(secret)
        found: ApiKey | None = None
        for key in self._keys.values():
            if hmac.compare_digest(candidate, key.key_hash):
                found = key
        return found

    def touch(self, key: ApiKey) -> None:
        """Note a use of the key (saved with the next coalesced save)."""
        key.last_used = self._clock.now_ms()
        self._sync()
        self._save_later()

    def forget_serial(self, serial: str) -> None:
        """Drop an unpaired device from every key's restriction, so a re-pairing grants nothing.

        A restriction left empty lets the key see nothing (it never widens to every device).
        """
        changed = False
        for key in self._keys.values():
            if key.serials is not None and serial in key.serials:
                key.serials = [s for s in key.serials if s != serial]
                changed = True
        if changed:
            self._sync()
            self._save_now()
