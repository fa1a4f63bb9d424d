"""Device sessions: the device protocol's rules, one call per request kind.

The HTTP handler (`device.api`) parses a request into the plain values here and writes the
answer back; nothing here knows HTTP.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
import logging
from typing import Any

from ...delivery import Delivery, HeldConnection, PushSink, SkvSink
from ...model.buckets import DEVICE_SCOPED_TYPES, HOME_SCOPED_TYPES, Bucket, split_key
from ...model.devices import ENTRY_FIELDS, SERIAL_RE
from ...model.pairing import IssueOutcome, KeyStatus
from ...model.text import for_log
from ..config import SERVER_VERSION, origin_with_port
from ..context import CoreContext
from ..events import ChangeSource
from ..firmware.firmware import (
    MAC_RE,
    Identity,
    carries_setpoints,
    firmware_major,
    next_revision,
    serial_from_session,
    serial_from_user_id,
)
from ..write.commands import Commands
from ..write.confirmations import Confirmations
from ..write.write_path import AnswerFirst, run_all
from .availability import Availability
from .pairing import HomePairing
from .requests import (
    BucketAccess,
    MacNotResolvedError,
    NotLoadedError,
    NotWritableError,
    ObjectDescriptor,
    Subscription,
    UnidentifiedDeviceError,
    WeatherProvider,
)
from .roster import Roster

_LOGGER = logging.getLogger(__name__)


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

    def serial(self) -> str | None:
        """Return the serial claimed: Basic user id, then client-id, then device-id."""
        if self.user_id is not None and (serial := serial_from_user_id(self.user_id)):
            return serial
        if self.client_id and (serial := serial_from_user_id(self.client_id)):
            return serial
        device_id = self.device_id or ""
        return device_id if SERIAL_RE.fullmatch(device_id) else None


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


class DeviceSessions:
    """The device protocol's rules over the service's parts."""

    def __init__(
        self,
        context: CoreContext,
        *,
        commands: Commands,
        answer_first: AnswerFirst,
        confirmations: Confirmations,
        delivery: Delivery,
        availability: Availability,
        roster: Roster,
        home: HomePairing,
        is_loaded: Callable[[], bool],
        weather_provider: Callable[[], WeatherProvider | None] = lambda: None,
    ) -> None:
        """`weather_provider`: the host's weather (None serves none)."""
        self._context = context
        self._writes = commands.write_path
        self._answer_first = answer_first
        self._confirmations = confirmations
        self._delivery = delivery
        self._availability = availability
        self._roster = roster
        self._home = home
        self._is_loaded = is_loaded
        self._weather_provider = weather_provider
        self._entry_by_mac: dict[str, dict[str, str]] = {}
        """What MAC-identified thermostats reported at entry before their serial was known."""

    def protocol_times(self) -> ProtocolTimes:
        config = self._context.config
        return ProtocolTimes(
            suspend_time_max=config.suspend_time_max,
            service_timestamp=self._context.clock.now_ms(),
            defer_device_window=config.defer_device_window,
            disable_defer_window=config.disable_defer_window,
        )

    # -- identification --------------------------------------------------------------------

    def identify(self, claim: IdentityClaim, session: str | None = None) -> Identity | None:
        """Who sent the request; None without any identity.

        A thermostat that identifies by MAC (Display-2.12 / 5.9.4-5) tells its serial only in its
        subscribe's session id: the mapping is kept in the device record. Until then it raises
        MacNotResolvedError, so the MAC never becomes a thermostat of its own; a MAC-shaped identity
        with its own record (paired under it by an earlier version) stays what it was.
        """
        raw = claim.serial()
        if raw is None or not MAC_RE.fullmatch(raw):
            return None if raw is None else Identity(raw)
        mac = raw.lower()
        serial = self._context.devices.serial_for_mac(mac)
        if serial is not None and serial.lower() != mac:
            return Identity(serial, mac)
        if self._context.ownership.is_paired(raw):
            return Identity(raw)
        if session is not None and (serial := serial_from_session(session, mac)) is not None:
            self._learn_mac(mac, serial, raw)
            return Identity(serial, mac)
        if raw in self._context.devices or session is not None:
            return Identity(raw)
        raise MacNotResolvedError(mac)

    def _learn_mac(self, mac: str, serial: str, raw: str) -> None:
        if raw in self._context.devices and not self._context.ownership.is_paired(raw):
            # Left by an earlier version under the MAC: the thermostat sends its state again.
            self._roster.forget_device(raw)
        fields = {**self._entry_by_mac.pop(mac, {}), "mac": mac}
        self._availability.note_contact(serial)  # a new thermostat counts against the limit
        self._context.devices.update_identity(serial, fields)
        self._context.request_save()
        _LOGGER.info(
            "Thermostat %s identifies by its MAC address; its session names its serial %s",
            mac,
            serial,
        )

    def contact(
        self, claim: IdentityClaim, *, create: bool = True, session: str | None = None
    ) -> Identity:
        """Return who sent a request and note the contact; raises without an identity."""
        identity = self.identify(claim, session)
        if identity is None:
            raise UnidentifiedDeviceError
        serial = identity.serial
        self._availability.note_contact(
            serial, create=create, address=claim.address, credential=claim.password
        )
        record = self._context.devices.get(serial)
        if record is not None and not record.software_version and claim.firmware_version:
            # A thermostat that never called entry here (4.x with its cached URLs) still
            # says its version on every request; entry's word is kept otherwise.
            self._availability.note_firmware(serial, claim.firmware_version)
        return identity

    # -- which buckets a device may touch --------------------------------------------------

    def bucket_access(self, serial: str, key: str) -> BucketAccess:
        """Return what the device may do with one bucket.

        A device reads and writes its own buckets and its home's user and structure; buckets of
        other devices or homes this server knows are refused; anything else firmware carries
        (history from its old cloud, types not kept here) is ignored.
        """
        parts = split_key(key)
        if parts is None:
            return BucketAccess.REFUSE
        bucket_type, identifier = parts
        if bucket_type in HOME_SCOPED_TYPES:
            if key in self._context.ownership.home_keys(serial):
                return BucketAccess.KEEP
            return BucketAccess.REFUSE if self._home.is_home_key(key) else BucketAccess.IGNORE
        if identifier == serial:
            return BucketAccess.KEEP if bucket_type in DEVICE_SCOPED_TYPES else BucketAccess.IGNORE
        if self._roster.is_known(identifier) or self._home.is_home_id(identifier):
            return BucketAccess.REFUSE
        return BucketAccess.IGNORE

    # -- entry and pairing codes -----------------------------------------------------------

    def entry(self, claim: IdentityClaim, fields: dict[str, str]) -> dict[str, Any]:
        """Note what a thermostat reports at entry; return where everything else lives."""
        try:
            identity = self.identify(claim)
        except MacNotResolvedError as err:
            # Kept for the record of the serial its first subscribe names (bounded: made-up
            # MACs cannot grow it).
            self._entry_by_mac.pop(err.mac, None)
            self._entry_by_mac[err.mac] = {
                name: fields[name] for name in ENTRY_FIELDS if name in fields
            }
            while len(self._entry_by_mac) > self._context.config.max_unpaired_devices:
                del self._entry_by_mac[next(iter(self._entry_by_mac))]
            identity = None
        if identity is not None:
            serial = identity.serial
            self._availability.note_contact(
                serial, address=claim.address, credential=claim.password
            )
            if fields.get("reset", "").upper() == "TRUE":
                _LOGGER.info("Thermostat %s reports a factory reset", serial)
            if identity.mac is not None:
                fields = {**fields, "mac": identity.mac}
            # Entry is where firmware says which version it runs now (after an update too).
            version = fields.get("software_version") or claim.firmware_version
            if version:
                self._availability.note_firmware(serial, version)
            if self._context.devices.update_identity(serial, fields):
                self._context.request_save()
        origin = origin_with_port(self._context.config.api_origin)
        transport = f"{origin}/svc/transport"
        answer = {
            "czfe_url": transport,
            "transport_url": transport,
            "direct_transport_url": transport,
            "passphrase_url": f"{origin}/svc/passphrase",
            "ping_url": f"{origin}/svc/ping",
            "pro_info_url": f"{origin}/svc/pro_info",
            "weather_url": f"{origin}/svc/weather/v1?query=",
            "upload_url": f"{origin}/svc/upload",
            "software_update_url": "",
            "server_version": SERVER_VERSION,
            "tier_name": "local",
        }
        record = self._context.devices.get(identity.serial) if identity is not None else None
        if (
            identity is not None
            and record is not None
            and firmware_major(record.software_version) == 4
        ):
            answer.update(self._home_inline(identity))
        return answer

    def _home_inline(self, identity: Identity) -> dict[str, Any]:
        """Return a paired 4.x thermostat's home buckets as its entry answer carries them.

        4.3.3 takes its home's `user` and `structure` buckets only from the entry answer, as
        top-level keys, before it subscribes at all (row "Firmware 4.x speaks its own
        transport"); 5.x is never sent them there.
        """
        serial = identity.serial
        buckets = [
            b
            for k in self._context.ownership.home_keys(serial)[:2]
            if (b := self._context.buckets.get(k))
        ]
        self._delivery.note_given(serial, buckets)
        return {
            identity.outbound(b.key): {
                "object_revision": b.revision,
                "object_timestamp": b.timestamp,
                "value": b.value,
            }
            for b in buckets
        }

    def passphrase(self, claim: IdentityClaim) -> dict[str, Any]:
        serial = self.contact(claim).serial
        if not self._is_loaded():
            raise NotLoadedError
        key, outcome = self._context.ownership.issue(serial)
        if outcome is not IssueOutcome.UNCHANGED:
            # After a restart the thermostat must be shown the same code, valid as long.
            self._context.save_now_later()
        if outcome is IssueOutcome.CREATED:
            # Not the code itself: it is a credential for the next hour, and logs get shared.
            _LOGGER.info("Thermostat %s is showing a new pairing code on its screen", serial)
        return {"value": key.value, "expires": key.expires}

    def passphrase_status(self, claim: IdentityClaim) -> dict[str, Any]:
        serial = self.contact(claim, create=False).serial
        if not self._is_loaded():
            raise NotLoadedError
        status, key = self._context.ownership.status(serial)
        if status is KeyStatus.NO_KEY or key is None:
            return {"status": "no_key", "claimed": False, "message": "No pairing code issued"}
        if status is KeyStatus.PENDING:
            return {"status": "pending", "claimed": False, "expiresAt": key.expires}
        return {
            "status": "claimed",
            "claimed": True,
            "claimedBy": key.claimed_by,
            "claimedAt": key.claimed_at,
        }

    # -- transport -------------------------------------------------------------------------

    def put(
        self, claim: IdentityClaim, entries: Sequence[PutEntry], *, skv: bool = False
    ) -> list[dict[str, Any]]:
        """Apply a device's PUT and all it sets off; return the answer's descriptors."""
        objects, then = self.report(claim, entries, skv=skv)
        then()
        return objects

    def report(
        self, claim: IdentityClaim, entries: Sequence[PutEntry], *, skv: bool = False
    ) -> tuple[list[dict[str, Any]], Callable[[], None]]:
        """Apply a device's PUT; return the answer's descriptors and what runs after the answer.

        The thermostat waits for the answer, not for the report's save and announcements
        (`AnswerFirst`): those are returned as one callable, to run once the answer is written
        (in the order they were asked for; a server change a follower decides is pushed then).
        """
        held: list[Callable[[], None]] = []
        try:
            with self._answer_first.holding(held):
                objects = self._put(claim, entries, skv)
        except BaseException:
            run_all(held)  # a refused report's contact is noted all the same
            raise
        return objects, lambda: run_all(held)

    def _put(
        self, claim: IdentityClaim, entries: Sequence[PutEntry], skv: bool
    ) -> list[dict[str, Any]]:
        """Apply a device's PUT; return the answer's descriptors, one per kept or ignored bucket.

        Each bucket is kept, ignored or refused on its own, so one never throws away the change
        beside it; every bucket refused raises NotWritableError. No buckets is 4.x's heartbeat
        (NoLongerEvil-Thermostat issue #213). 4.x's PUTs (`skv`) carry no revision: each counts as
        written over the version the device was last given.
        """
        identity = self.contact(claim)
        serial = identity.serial
        if not entries:
            _LOGGER.debug("%s: a PUT with no buckets (a 4.x heartbeat)", serial)
            self._availability.note_heartbeat(serial)
            return []
        if identity.mac is not None or skv:
            entries = [self._inbound_entry(identity, e, skv) for e in entries]
        updates: dict[str, dict[str, Any]] = {}
        conflicts: set[str] = set()
        ignored: dict[str, PutEntry] = {}
        refused: list[str] = []
        for entry in entries:
            key = entry.key
            access = self.bucket_access(serial, key)
            if access is BucketAccess.REFUSE:
                refused.append(key)
                continue
            if access is BucketAccess.IGNORE:
                ignored.setdefault(key, entry)
                continue
            current = self._context.buckets.get(key)
            if entry.guard is not None and current is not None and entry.guard != current.revision:
                # The device wrote over a version it had not seen. Answered with the server's
                # revision and no value, firmware keeps its change (the user's dial turn) and
                # retries against that revision; the server's copy is not pushed over it.
                _LOGGER.debug(
                    "%s: PUT to %s guarded by revision %s, server has %s; the device retries",
                    serial,
                    key,
                    entry.guard,
                    current.revision,
                )
                conflicts.add(key)
                self._confirmations.conflicted(serial)
                continue
            updates.setdefault(key, {}).update(entry.fields)
        if refused:
            _LOGGER.debug("%s: PUT to %s refused: not this device's", serial, for_log(refused))
            if not (updates or conflicts or ignored):
                raise NotWritableError(refused[0])
        if ignored:
            _LOGGER.debug("%s: PUT to %s acknowledged, not kept", serial, for_log(list(ignored)))
        self._writes.apply(serial, updates, ChangeSource.DEVICE)
        if updates or conflicts:
            self._confirmations.reported(serial, entries, updates, conflicts, self._kept)
        descriptors: dict[str, dict[str, Any]] = {}
        kept: list[str] = []
        for entry in entries:
            key = entry.key
            if key in descriptors or key in refused:
                continue
            if key in ignored:
                descriptors[key] = {
                    "object_revision": next_revision(entry.base_revision),
                    "object_timestamp": self._context.clock.now_ms(),
                    "object_key": identity.outbound(key),
                }
                continue
            bucket = self._context.buckets.get(key)
            if bucket is None:  # an empty PUT of a bucket the server never had
                continue
            kept.append(key)
            descriptors[key] = identity.descriptor(bucket)
            if skv:
                self._delivery.note_given(serial, (bucket,))
        self._delivery.device_put(serial, kept, conflicts)
        return list(descriptors.values())

    def _inbound_entry(self, identity: Identity, entry: PutEntry, skv: bool) -> PutEntry:
        """Return a PUT entry under the server's key; a 4.x one over the version it was given."""
        key = identity.inbound(entry.key)
        base = entry.base_revision
        if skv and not base and entry.guard is None:
            base = self._delivery.given(identity.serial, key)[0]
        return PutEntry(key, entry.fields, entry.guard, base)

    def _kept(self, key: str, name: str) -> object:
        bucket = self._context.buckets.get(key)
        return None if bucket is None else bucket.value.get(name)

    def _inline_updates(
        self, serial: str, objects: Sequence[ObjectDescriptor]
    ) -> dict[str, dict[str, Any]]:
        """Return the values a subscribe sends along: revision and timestamp 0, or newer."""
        updates: dict[str, dict[str, Any]] = {}
        for obj in objects:
            if obj.value is None:
                continue
            fresh = obj.revision == 0 and obj.timestamp == 0
            if not fresh and obj.timestamp <= self._context.buckets.timestamp(obj.key):
                continue
            access = self.bucket_access(serial, obj.key)
            if access is not BucketAccess.KEEP:
                # Not a reason to refuse the subscribe, which would leave the thermostat
                # without its connection: the bucket alone is left out.
                _LOGGER.debug("%s: inline %s %sd", serial, for_log(obj.key), access.value)
                continue
            updates[obj.key] = obj.value
        return updates

    def subscribe(
        self,
        identity: Identity,
        session: str,
        listed: Sequence[ObjectDescriptor],
        *,
        skv: bool = False,
    ) -> Subscription:
        """Apply a subscribe's inline values; return what the held connection starts from.

        A 4.x subscribe (`skv`) is answered once, with one bucket; a key it lists without a
        version, and its home's buckets, count as what it was last given.
        """
        serial = identity.serial
        objects = listed
        if identity.mac is not None:
            objects = [
                ObjectDescriptor(
                    identity.inbound(o.key), o.revision, o.timestamp, o.value, o.versioned
                )
                for o in listed
            ]
        updates = self._inline_updates(serial, objects)
        if updates:
            self._writes.apply(serial, updates, ChangeSource.DEVICE)
        known: dict[str, int] = {}
        for obj in objects:
            if self.bucket_access(serial, obj.key) is not BucketAccess.KEEP:
                _LOGGER.debug(
                    "%s listed %s, which it may not follow; ignored", serial, for_log(obj.key)
                )
                continue
            # An inline update is sent back with its new revision: the device learns it.
            known[obj.key] = 0 if obj.key in updates else obj.timestamp
        if skv:
            return self._skv_subscription(identity, session, objects, known)
        setpoints_owed = any(map(carries_setpoints, self._delivery.owed(serial, known)))
        connection = HeldConnection(
            serial=serial,
            session=session,
            encode=identity.wire_json if identity.mac is not None else Bucket.wire_json,
            hold_timeout=self._context.config.hold_timeout,
            batch_window=self._context.config.batch_window,
        )
        return Subscription(identity, connection, known, setpoints_owed)

    def _skv_subscription(
        self,
        identity: Identity,
        session: str,
        objects: Sequence[ObjectDescriptor],
        known: dict[str, int],
    ) -> Subscription:
        """Return a 4.x subscribe's held connection (see `subscribe`).

        Only the versions it listed count as its word for what it holds; what it was given stands in
        for the rest, so nothing is sent it twice (firmware 4.3.3 lists none).
        """
        serial = identity.serial
        listed = dict(known)
        for obj in objects:
            if obj.key in known and not obj.versioned:
                known[obj.key] = self._delivery.given(serial, obj.key)[1]
                del listed[obj.key]
        for key in self._context.ownership.home_keys(serial)[:2]:
            known.setdefault(key, self._delivery.given(serial, key)[1])
        self._availability.note_skv_subscribe(serial)
        connection = HeldConnection(
            serial=serial,
            session=session,
            one_bucket=True,
            hold_timeout=self._context.config.hold_timeout,
        )
        return Subscription(identity, connection, known, False, listed)

    def hold(
        self, subscription: Subscription, sink: PushSink | None, skv_sink: SkvSink | None = None
    ) -> None:
        """Hold the subscribe, its answer written to `sink`: pushes reach it from now on.

        What it is owed goes out at once; the connection closes by itself (its batch window
        after a push, else its hold timeout). A 4.x subscribe's one answer goes to `skv_sink`.
        """
        connection = subscription.connection
        self._delivery.hold(connection, subscription.known, sink, skv_sink)
        listed = subscription.known if subscription.listed is None else subscription.listed
        self._confirmations.listed(subscription.identity.serial, listed)
        self._availability.connection_opened(subscription.identity.serial)
        self._delivery.push(connection)

    def release(self, subscription: Subscription) -> None:
        self._delivery.release(subscription.connection)
        self._availability.connection_closed(subscription.identity.serial)

    def listing(self, raw: str, *, skv: bool = False) -> list[dict[str, Any]] | None:
        """Return the descriptors of a device's buckets (`device.<serial>` or a serial).

        None when `raw` names no serial. A 4.x device (`skv`) gets the values too: its GET is
        its bootstrap (row "Firmware 4.x speaks its own transport"), and it was given them.
        """
        serial = raw.removeprefix("device.")
        if not SERIAL_RE.fullmatch(serial):
            return None
        identity = Identity(serial)
        if MAC_RE.fullmatch(serial) and (known := self._context.devices.serial_for_mac(serial)):
            # A MAC-identified thermostat lists `device.<mac>`: its buckets, under its keys.
            identity = Identity(known, serial.lower())
        keys = [
            *self._context.buckets.keys_of_serial(identity.serial),
            *self._context.ownership.home_keys(identity.serial),
        ]
        buckets = [b for k in keys if (b := self._context.buckets.get(k)) is not None]
        if skv:
            self._delivery.note_given(identity.serial, buckets)
            return [{**b.wire(), "object_key": identity.outbound(b.key)} for b in buckets]
        return [identity.descriptor(b) for b in buckets]

    def ping(self, claim: IdentityClaim) -> int:
        """Refresh a known device's contact (anything else leaves no trace); the time in ms."""
        try:
            identity = self.identify(claim)
        except MacNotResolvedError:
            identity = None
        if identity is not None:
            self._availability.note_contact(identity.serial, create=False)
        return self._context.clock.now_ms()

    async def weather(self, token: str) -> dict[str, Any]:
        """Return the weather under a query token: the host's, `{}` when it has none."""
        provider = self._weather_provider()
        return await provider(token) if provider is not None else {}
