"""What the server knows about each device apart from its buckets: identity and contact."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
import re
from typing import Any
import uuid

from .clock import Clock
from .records import EmbedJson, compact_json, ensure_storable, flat_dict

SERIAL_RE = re.compile(r"^[A-Za-z0-9]{4,40}$")
"""What a serial looks like, wherever one comes from (a device's credentials, a URL)."""


@dataclass(slots=True)
class DeviceRecord:
    """Identity a device reported in `/svc/entry`, and when it was last heard from."""

    serial: str
    device_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    """Stable UUID used as the hosted API's `{deviceId}` (never the serial)."""
    mac: str | None = None
    model: str | None = None
    software_version: str | None = None
    backplate_model: str | None = None
    wireless_reg_domain: str | None = None
    first_seen: int = 0
    last_seen: int = 0
    """Milliseconds of the last request from the device."""
    address: str | None = None
    """The IP address it last called from (configure-device finds it by that)."""
    credential: str | None = None
    """The password of its Basic credentials: firmware's own secret, which its settings CGI
    also takes as its api_key (never logged, redacted in diagnostics)."""


ENTRY_FIELDS = ("mac", "model", "software_version", "backplate_model", "wireless_reg_domain")


class DeviceRegistry:
    """Device records by serial, changed only through its methods (it caches their saved form)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._records: dict[str, DeviceRecord] = {}
        self._stored_json: dict[str, bytes] = {}
        self._serial_by_mac: dict[str, str] = {}
        """MAC address (lower case, no separators) -> serial of the record that reported it."""

    def __len__(self) -> int:
        return len(self._records)

    def __contains__(self, serial: object) -> bool:
        return serial in self._records

    def get(self, serial: str) -> DeviceRecord | None:
        return self._records.get(serial)

    def by_device_id(self, device_id: str) -> DeviceRecord | None:
        return next((r for r in self._records.values() if r.device_id == device_id), None)

    def serial_for_mac(self, mac: str) -> str | None:
        """Return the serial of the device that reported this MAC address (any case)."""
        return self._serial_by_mac.get(mac.lower())

    def _index_mac(self, record: DeviceRecord) -> None:
        if record.mac:
            self._serial_by_mac[record.mac.lower().replace(":", "")] = record.serial

    def by_address(self, address: str) -> DeviceRecord | None:
        """Return the device that last called from this IP address, the most recent if several."""
        found = [r for r in self._records.values() if r.address == address]
        return max(found, key=lambda r: r.last_seen) if found else None

    def note_access(self, serial: str, address: str | None, credential: str | None) -> bool:
        """Where a known device called from and the password it sent; True when changed."""
        record = self._records.get(serial)
        if record is None or (record.address, record.credential) == (
            address or record.address,
            credential or record.credential,
        ):
            return False
        record.address = address or record.address
        record.credential = credential or record.credential
        self._stored_json.pop(serial, None)
        return True

    def records(self) -> list[DeviceRecord]:
        return list(self._records.values())

    def touch(self, serial: str) -> tuple[DeviceRecord, bool]:
        """Note contact from a device; returns its record and whether it is new."""
        now = self._clock.now_ms()
        record = self._records.get(serial)
        created = record is None
        if record is None:
            record = DeviceRecord(serial=serial, first_seen=now)
            self._records[serial] = record
        record.last_seen = now
        self._stored_json.pop(serial, None)
        return record, created

    def forget(self, serial: str) -> None:
        record = self._records.pop(serial, None)
        self._stored_json.pop(serial, None)
        if record is not None and record.mac:
            mac = record.mac.lower().replace(":", "")
            if self._serial_by_mac.get(mac) == serial:
                del self._serial_by_mac[mac]

    def update_identity(self, serial: str, fields: Mapping[str, str]) -> bool:
        """Store what the device reported in `/svc/entry`; True when something changed."""
        ensure_storable([fields.get(name) for name in ENTRY_FIELDS])
        record, created = self.touch(serial)
        changed = created
        for name in ENTRY_FIELDS:
            new = fields.get(name)
            if new and getattr(record, name) != new:
                setattr(record, name, new)
                changed = True
        self._index_mac(record)
        return changed

    def dump(self, embed_json: EmbedJson) -> list[Any]:
        """Return the persistable form, serializing only records changed since the last save."""
        cache = self._stored_json
        dumped = []
        for serial, record in self._records.items():
            if (stored := cache.get(serial)) is None:
                stored = cache[serial] = compact_json(flat_dict(record))
            dumped.append(embed_json(stored))
        return dumped

    def load(self, data: list[dict[str, Any]]) -> None:
        for raw in data:
            record = DeviceRecord(**raw)
            self._records[record.serial] = record
            self._index_mac(record)
