"""What tests and benchmarks reach inside the service: `harness(service)`.

Here instead of in tests, so the core can rearrange its private parts and keep this one
module in step (tests/test_server_layout.py keeps tests/ and bench/ off them). Nothing in the
integration imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
import json
from typing import Any

from ..delivery.ledger import Delivery
from ..delivery.subscriptions import HeldConnection
from ..model.buckets import Bucket
from ..model.devices import DeviceRecord
from ..model.pairing import EntryKey, KeyStatus
from .device.availability import Availability
from .events import ChangeSource
from .service import Storage, ThermostatService
from .write.confirmations import Confirmations
from .write.home_rules import Updates

LISTENING_PARTS = ("runtime", "house_model", "health")
"""The parts `CoreHarness.unhook` takes off the contact path and the write path's followers."""


def harness(service: ThermostatService) -> CoreHarness:
    """Return the test harness of a service."""
    return CoreHarness(service)


class CoreHarness:
    """A service seen from inside: for tests and benchmarks only."""

    __slots__ = ("_service",)

    def __init__(self, service: ThermostatService) -> None:
        self._service = service

    # -- buckets ----------------------------------------------------------------------------------

    def report(
        self, serial: str, updates: Updates, source: ChangeSource = ChangeSource.DEVICE
    ) -> dict[str, Bucket]:
        """Take a report through the device PUT's write path, without a session's checks."""
        return self._service._commands.write_path.apply(serial, updates, source)

    def merge(self, key: str, fields: Mapping[str, Any]) -> Bucket | None:
        """Merge fields into a stored bucket past the write path: nothing follows, no save."""
        return self._service._buckets.merge(key, fields)

    def seed(self, serial: str, buckets: Mapping[str, Mapping[str, Any]]) -> None:
        """Give the service a thermostat heard from, with these buckets stored (a fleet's start)."""
        self._service._devices.touch(serial)
        for key, fields in buckets.items():
            self._service._buckets.merge(key, fields)

    def remove(self, key: str) -> bool:
        return self._service._buckets.remove(key)

    def restore(self, buckets: Iterable[Bucket]) -> None:
        self._service._buckets.restore(buckets)

    def bucket(self, key: str) -> Bucket | None:
        return self._service._buckets.get(key)

    def value(self, key: str) -> Mapping[str, Any]:
        return self._service._buckets.value(key)

    def timestamp(self, key: str) -> int:
        return self._service._buckets.timestamp(key)

    def has(self, key: str) -> bool:
        return key in self._service._buckets

    def buckets(self) -> list[Bucket]:
        return list(self._service._buckets)

    def revisions(self) -> dict[str, int]:
        """Return every stored bucket's revision by key (to see that nothing was written)."""
        return {bucket.key: bucket.revision for bucket in self._service._buckets}

    def keys_of(self, serial: str) -> list[str]:
        return self._service._buckets.keys_of_serial(serial)

    def stored_buckets(self) -> dict[str, Any]:
        return self._service._buckets.dump(json.loads)

    # -- devices ----------------------------------------------------------------------------------

    def touch(self, serial: str) -> DeviceRecord:
        record, _ = self._service._devices.touch(serial)
        return record

    def update_identity(self, serial: str, identity: Mapping[str, Any]) -> None:
        """Store what a thermostat said of itself (model, MAC) in its device record."""
        self._service._devices.update_identity(serial, identity)

    def note_contact(self, serial: str) -> None:
        self._service._availability.note_contact(serial)

    def forget(self, serial: str) -> None:
        """Forget a thermostat, as the roster does one long unpaired and silent."""
        self._service._roster.forget_device(serial)

    # -- pairing ----------------------------------------------------------------------------------

    def pairing_code(self, serial: str) -> str:
        """Return the pairing code the thermostat shows (issued as its passphrase request does)."""
        key, _ = self._service._ownership.issue(serial)
        return key.value

    def entry_key(self, code: str) -> EntryKey | None:
        return self._service._ownership.find(code)

    def key_status(self, serial: str) -> KeyStatus:
        return self._service._ownership.status(serial)[0]

    def pairing_codes(self) -> list[str]:
        return [key["value"] for key in self._service._ownership.dump()["entry_keys"]]

    def home_keys(self, serial: str) -> list[str]:
        return self._service._ownership.home_keys(serial)

    @property
    def home_user_id(self) -> str:
        return self._service._home.home_user_id

    # -- delivery ---------------------------------------------------------------------------------

    def held(self, serial: str) -> int:
        return self._service._subscriptions.count(serial)

    def held_connections(self, serial: str) -> set[HeldConnection]:
        return self._service._subscriptions.held(serial)

    def held_total(self) -> int:
        return self._service._subscriptions.total()

    def reopen(self) -> None:
        """Accept subscribes again after `close_connections` (without `start`'s timers)."""
        self._service._subscriptions.reopen()

    def owed(self, serial: str, known: Mapping[str, int]) -> list[Bucket]:
        return self._service._delivery.owed(serial, known)

    def is_pending(self, serial: str) -> bool:
        return self._service._confirmations.is_pending(serial)

    def on_written(self, hook: Callable[[str, list[str]], None]) -> None:
        """Have delivery tell `hook` of every push it writes (in place of the confirmations)."""
        self._service._delivery._on_written = hook

    @property
    def delivery(self) -> Delivery:
        """The delivery ledger (to hold a connection, or to break it on purpose)."""
        return self._service._delivery

    @property
    def confirmations(self) -> Confirmations:
        """The confirmations' bookkeeping (to time it, or to turn it off)."""
        return self._service._confirmations

    @property
    def availability(self) -> Availability:
        """Contact and availability (to break it on purpose)."""
        return self._service._availability

    # -- storage and parts ------------------------------------------------------------------------

    @property
    def storage(self) -> Storage:
        return self._service._storage

    def snapshot(self) -> dict[str, Any]:
        return self._service._snapshot()

    def request_save(self) -> None:
        self._service._request_save()

    def mark_unloaded(self) -> None:
        self._service._loaded = False

    def load_days(self, data: Mapping[str, Any]) -> None:
        self._service._days.load(data)

    def mute_attribution(self) -> Callable[[], None]:
        """Take attribution of reported changes off the report path; return what puts it back."""
        changes = self._service._commands._changes
        author_of = changes.author_of
        changes.author_of = lambda *_, **__: None  # type: ignore[method-assign]

        def restore() -> None:
            changes.author_of = author_of  # type: ignore[method-assign]

        return restore

    def unhook(self, part: str) -> Callable[[], None]:
        """Take a listening part off the contact path and followers; return what puts it back."""
        if part not in LISTENING_PARTS:
            raise ValueError(f"{part} is not one of {LISTENING_PARTS}")
        listening = getattr(self._service, f"_{part}")
        contact = self._service._availability._contact_listeners
        followers = self._service._followers
        note_contact = listening.note_contact
        contact_at = contact.index(note_contact) if note_contact in contact else None
        follower_at = followers.index(listening) if listening in followers else None
        if contact_at is not None:
            del contact[contact_at]
        if follower_at is not None:
            del followers[follower_at]

        def rehook() -> None:
            if follower_at is not None:
                followers.insert(follower_at, listening)
            if contact_at is not None:
                contact.insert(contact_at, note_contact)

        return rehook
