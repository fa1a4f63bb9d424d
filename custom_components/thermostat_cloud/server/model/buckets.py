"""Bucket objects: revision, timestamp, shallow merge and the wire order firmware expects."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
import itertools
import re
from typing import Any

from .clock import Clock
from .records import EmbedJson, compact_json, ensure_storable

# Bucket types whose identifier is the device serial: the spec's four, and those firmware keeps
# beside them (the firmware's PUT order in cjserio/nest-thermostat-protocol-docs). Only these are
# stored, so a client cannot fill storage with made-up types; others are acknowledged and dropped.
DEVICE_SCOPED_TYPES = frozenset(
    {
        "device",
        "shared",
        "schedule",
        "custom_schedule",
        "device_alert_dialog",
        "track",
        "demand_response",
        "demand_response_event",
        "hvac_partner",
        "link",
        "message",
        "metadata",
        "rcs_settings",
        "safety",
        "tou",
        "tuneups",
    }
)
# Bucket types shared by every device of a home: its user, the home, and the home's rooms
# (`where.<structure_id>`, the rooms the user named; see rooms.py).
HOME_SCOPED_TYPES = frozenset({"user", "structure", "where"})


# `<type>.<id>` as firmware writes them: serials, numeric user ids, UUIDs of homes.
BUCKET_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z0-9_.:-]{1,128}")


def is_bucket_key(key: object) -> bool:
    """Whether a value is a bucket key firmware could send (no spaces or control characters)."""
    return isinstance(key, str) and BUCKET_KEY_RE.fullmatch(key) is not None


def bucket_key(bucket_type: str, identifier: str) -> str:
    """Return `<bucket_type>.<identifier>`."""
    return f"{bucket_type}.{identifier}"


def home_bucket_keys(user_id: str, structure_id: str) -> list[str]:
    """Return the keys of a home's buckets: its user, its structure, then its rooms."""
    return [
        bucket_key("user", user_id),
        bucket_key("structure", structure_id),
        bucket_key("where", structure_id),
    ]


def home_device_keys(serials: list[str]) -> list[str]:
    """Return a home's `structure.devices` as firmware reads it: `device.<serial>` object keys.

    As a 5.9.4-5 capture holds it (solbirn/Nest.Thermostat `docs/nest-api-schemas.md`, "a
    list of device object keys"); stores may still hold bare serials (`home_device_serials`).
    """
    return [bucket_key("device", serial) for serial in serials]


def home_device_serials(devices: object) -> list[str]:
    """Return the serials of a stored `structure.devices`, object keys or bare serials alike."""
    if not isinstance(devices, list):
        return []
    return [entry.removeprefix("device.") for entry in devices if isinstance(entry, str) and entry]


def split_key(key: str) -> tuple[str, str] | None:
    """Split a bucket key into type and identifier, or None when it has no identifier."""
    bucket_type, sep, identifier = key.partition(".")
    if not sep or not bucket_type or not identifier:
        return None
    return bucket_type, identifier


def _same(old: Any, new: Any) -> bool:
    """Equality that does not treat True as 1 or 1 as 1.0 (firmware cares about JSON types)."""
    return type(old) is type(new) and old == new


@dataclass(slots=True)
class Bucket:
    """One named bucket of device state."""

    key: str
    revision: int = 0
    timestamp: int = 0
    value: dict[str, Any] = field(default_factory=dict)
    # Serializations kept until the bucket changes: a home-wide change reaches many devices,
    # and a save writes every bucket, most unchanged.
    _wire_json: bytes | None = field(default=None, repr=False, compare=False)
    _stored_json: bytes | None = field(default=None, repr=False, compare=False)
    field_changes: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    """Field -> number of the merge that last changed it since start (not persisted): orders
    changes exactly, where the timestamp only says some field changed."""

    def field_changed(self, name: str) -> tuple[int, int]:
        """Return a sort key of when a field last changed (merge order; older ones by timestamp)."""
        number = self.field_changes.get(name)
        return (number, 0) if number is not None else (0, self.timestamp)

    def descriptor(self) -> dict[str, Any]:
        """Return the bucket without its value (listings, PUT responses).

        object_revision and object_timestamp MUST come before object_key: firmware ignores
        bucket objects in any other order.
        """
        return {
            "object_revision": self.revision,
            "object_timestamp": self.timestamp,
            "object_key": self.key,
        }

    def wire(self) -> dict[str, Any]:
        """Return the bucket as pushed to a device, with its value."""
        obj = self.descriptor()
        obj["value"] = self.value
        return obj

    def wire_json(self) -> bytes:
        if self._wire_json is None:
            self._wire_json = compact_json(self.wire())
        return self._wire_json

    def as_stored(self) -> dict[str, Any]:
        return {"revision": self.revision, "timestamp": self.timestamp, "value": self.value}

    def stored_json(self) -> bytes:
        if self._stored_json is None:
            self._stored_json = compact_json(self.as_stored())
        return self._stored_json


class BucketStore:
    """All buckets of the service, keyed by bucket key."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._buckets: dict[str, Bucket] = {}
        self._merges = itertools.count(1)

    def __contains__(self, key: object) -> bool:
        return key in self._buckets

    def __iter__(self) -> Iterator[Bucket]:
        return iter(self._buckets.values())

    def get(self, key: str) -> Bucket | None:
        return self._buckets.get(key)

    def value(self, key: str) -> Mapping[str, Any]:
        """Return the bucket's value, empty when the bucket does not exist."""
        bucket = self._buckets.get(key)
        return bucket.value if bucket is not None else {}

    def timestamp(self, key: str) -> int:
        """Return the bucket's timestamp; 0 when the server has no data."""
        bucket = self._buckets.get(key)
        return bucket.timestamp if bucket is not None else 0

    def merge(self, key: str, fields: Mapping[str, Any]) -> Bucket | None:
        """Shallow-merge fields; return the bucket if a value changed, else None.

        The timestamp always grows, so a device comparing timestamps sees the change.
        UnstorableError leaves the bucket as it was: held, it would fail every later save.
        """
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = Bucket(key)
        changed = {
            name: new
            for name, new in fields.items()
            if name not in bucket.value or not _same(bucket.value[name], new)
        }
        if not changed:
            return None
        ensure_storable({key: changed})
        # Copy-on-write: a value already handed out (pushed, serialized) is never mutated.
        bucket.value = {**bucket.value, **changed}
        bucket._wire_json = bucket._stored_json = None
        bucket.revision += 1
        bucket.timestamp = max(self._clock.now_ms(), bucket.timestamp + 1)
        merge_number = next(self._merges)
        for name in changed:
            bucket.field_changes[name] = merge_number
        self._buckets[key] = bucket
        return bucket

    def remove(self, key: str) -> bool:
        return self._buckets.pop(key, None) is not None

    def keys_of_serial(self, serial: str) -> list[str]:
        """Keys of every device-scoped bucket of one serial."""
        return [
            bucket.key
            for bucket in self._buckets.values()
            if (parts := split_key(bucket.key)) is not None
            and parts[0] in DEVICE_SCOPED_TYPES
            and parts[1] == serial
        ]

    def serials(self) -> set[str]:
        """Every serial that has at least one device-scoped bucket."""
        return {
            parts[1]
            for bucket in self._buckets.values()
            if (parts := split_key(bucket.key)) is not None and parts[0] in DEVICE_SCOPED_TYPES
        }

    def dump(self, embed_json: EmbedJson) -> dict[str, Any]:
        return {bucket.key: embed_json(bucket.stored_json()) for bucket in self._buckets.values()}

    def load(self, data: Mapping[str, Any], on_invalid: Callable[[str], None]) -> None:
        """Restore buckets from persisted data, skipping entries that do not parse."""
        for key, stored in data.items():
            try:
                bucket = Bucket(
                    key=str(key),
                    revision=int(stored["revision"]),
                    timestamp=int(stored["timestamp"]),
                    value=dict(stored["value"]),
                )
            except KeyError, TypeError, ValueError:
                on_invalid(str(key))
                continue
            self._buckets[bucket.key] = bucket

    def restore(self, buckets: Iterable[Bucket]) -> None:
        """Insert buckets as they are (tests and benchmarks)."""
        for bucket in buckets:
            self._buckets[bucket.key] = bucket
