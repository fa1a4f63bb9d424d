"""What tests and benchmarks reach inside the service: `harness(service)`.

The facade (`ThermostatService`) is what the host and the surfaces get. A test or a benchmark
needs more: a thermostat's report fed through the same write path a device PUT takes, a
bucket as stored, the pairing code a thermostat would show, a part taken off the paths it
hears. They get it here instead of reaching into the service's private parts, so the core
can rearrange its parts and keep this one module in step (tests/test_server_layout.py keeps
tests/ and bench/ off the private parts).

It lives in the core because it is the core's own knowledge of its parts; nothing in the
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
        """Initialize over one service."""
        self._service = service

    # -- buckets ----------------------------------------------------------------------------------

    def report(
        self, serial: str, updates: Updates, source: ChangeSource = ChangeSource.DEVICE
    ) -> dict[str, Bucket]:
        """Take fields as the thermostat reported them, through the write path a device PUT takes.

        Without a session: no identity check, no revision conflict (see `DeviceSessions.put`
        for those). Returns the buckets written.
        """
        return self._service._commands.apply(serial, updates, source)

    def merge(self, key: str, fields: Mapping[str, Any]) -> Bucket | None:
        """Merge fields into a stored bucket past the write path, as a stored document left it.

        Nothing follows (no delivery, no events, no save): for state the test starts from, and
        for the store's own checks. None when the store refuses the fields.
        """
        return self._service._buckets.merge(key, fields)

    def seed(self, serial: str, buckets: Mapping[str, Mapping[str, Any]]) -> None:
        """Give the service a thermostat heard from, with these buckets stored (a fleet's start)."""
        self._service._devices.touch(serial)
        for key, fields in buckets.items():
            self._service._buckets.merge(key, fields)

    def remove(self, key: str) -> bool:
        """Drop a stored bucket; False when there was none."""
        return self._service._buckets.remove(key)

    def restore(self, buckets: Iterable[Bucket]) -> None:
        """Store buckets as they are (as a stored document has them)."""
        self._service._buckets.restore(buckets)

    def bucket(self, key: str) -> Bucket | None:
        """Return a stored bucket, or None."""
        return self._service._buckets.get(key)

    def value(self, key: str) -> Mapping[str, Any]:
        """Return a stored bucket's fields (empty when there is no such bucket)."""
        return self._service._buckets.value(key)

    def timestamp(self, key: str) -> int:
        """Return a stored bucket's timestamp (0 when there is no such bucket)."""
        return self._service._buckets.timestamp(key)

    def has(self, key: str) -> bool:
        """Return whether a bucket is stored under this key."""
        return key in self._service._buckets

    def buckets(self) -> list[Bucket]:
        """Return every stored bucket."""
        return list(self._service._buckets)

    def revisions(self) -> dict[str, int]:
        """Return every stored bucket's revision by key (to see that nothing was written)."""
        return {bucket.key: bucket.revision for bucket in self._service._buckets}

    def keys_of(self, serial: str) -> list[str]:
        """Return the keys of a thermostat's stored buckets."""
        return self._service._buckets.keys_of_serial(serial)

    def stored_buckets(self) -> dict[str, Any]:
        """Return the buckets as the saved document has them."""
        return self._service._buckets.dump(json.loads)

    # -- devices ----------------------------------------------------------------------------------

    def touch(self, serial: str) -> DeviceRecord:
        """Note a request of the thermostat in its device record; return the record."""
        record, _ = self._service._devices.touch(serial)
        return record

    def update_identity(self, serial: str, identity: Mapping[str, Any]) -> None:
        """Store what a thermostat said of itself (model, MAC) in its device record."""
        self._service._devices.update_identity(serial, identity)

    def note_contact(self, serial: str) -> None:
        """Note contact of the thermostat, as each of its requests does."""
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
        """Return the issued pairing code of this value, or None."""
        return self._service._ownership.find(code)

    def key_status(self, serial: str) -> KeyStatus:
        """Return the state of the thermostat's pairing code."""
        return self._service._ownership.status(serial)[0]

    def pairing_codes(self) -> list[str]:
        """Return every pairing code as the saved document has them."""
        return [key["value"] for key in self._service._ownership.dump()["entry_keys"]]

    def home_keys(self, serial: str) -> list[str]:
        """Return the home's bucket keys a paired thermostat follows."""
        return self._service._ownership.home_keys(serial)

    @property
    def home_user_id(self) -> str:
        """The home's user id."""
        return self._service._home.home_user_id

    # -- delivery ---------------------------------------------------------------------------------

    def held(self, serial: str) -> int:
        """Return how many subscribes the thermostat holds open."""
        return self._service._subscriptions.count(serial)

    def held_connections(self, serial: str) -> set[HeldConnection]:
        """Return the thermostat's held subscribes."""
        return self._service._subscriptions.held(serial)

    def held_total(self) -> int:
        """Return how many subscribes are held open."""
        return self._service._subscriptions.total()

    def reopen(self) -> None:
        """Accept subscribes again after `close_connections` (without `start`'s timers)."""
        self._service._subscriptions.reopen()

    def owed(self, serial: str, known: Mapping[str, int]) -> list[Bucket]:
        """Return the buckets owed to a thermostat that knows these timestamps."""
        return self._service._delivery.owed(serial, known)

    def is_pending(self, serial: str) -> bool:
        """Return whether the thermostat has a command it has not confirmed."""
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
        """Where the service keeps its state."""
        return self._service._storage

    def snapshot(self) -> dict[str, Any]:
        """Return the whole persistable state, as the next save writes it."""
        return self._service._snapshot()

    def request_save(self) -> None:
        """Ask for a save as a bucket change does."""
        self._service._request_save()

    def mark_unloaded(self) -> None:
        """Have the service act as one whose saved state is not loaded yet."""
        self._service._loaded = False

    def load_days(self, data: Mapping[str, Any]) -> None:
        """Load the day ledger from a saved document's `days`."""
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
        """Take a listening part (`LISTENING_PARTS`) off the contact path and the followers.

        The service then runs as before the part existed (for benchmarks of what it costs);
        the returned function puts it back where it was.
        """
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
