"""The device protocol (`/svc/...`), spoken by thermostat firmware.

Firmware fails silently on small deviations, so the shapes here are exact: bucket objects
carry object_revision and object_timestamp before object_key, `expires` is a JSON number,
PUT responses never carry `value`, and every URL handed out has an explicit port.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
from dataclasses import dataclass
from enum import Enum
import logging
import re
from typing import Any

from aiohttp import web

from ..core.command_errors import CommandError
from ..core.events import ChangeSource
from ..core.service import SERVER_VERSION, ThermostatService, origin_with_port
from ..delivery.subscriptions import HeldConnection, WakeReason
from ..http.helpers import (
    BadRequestError,
    Handler,
    error_response,
    form_fields,
    json_errors,
    read_body,
    read_json_object,
)
from ..http.listener import PortListener
from ..model.buckets import (
    DEVICE_SCOPED_TYPES,
    HOME_SCOPED_TYPES,
    Bucket,
    bucket_key,
    is_bucket_key,
    split_key,
)
from ..model.devices import ENTRY_FIELDS, SERIAL_RE
from ..model.pairing import IssueOutcome, KeyStatus
from ..model.records import UnstorableError, compact_json
from ..model.text import for_log
from .headers import (
    ANSWER_HEADERS,
    CLIENT_ID,
    DEFER_DEVICE_WINDOW,
    DEVICE_ID,
    DISABLE_DEFER_WINDOW,
    SERVICE_TIMESTAMP,
    SUSPEND_TIME_MAX,
    reported_firmware_version,
)
from .weather import WeatherQueryError, weather_token

_LOGGER = logging.getLogger(__name__)

SERVICE_KEY: web.AppKey[ThermostatService] = web.AppKey("service", ThermostatService)

# Firmware lists about ten buckets; far more in one request is not a thermostat.
MAX_BUCKETS_PER_REQUEST = 64
MAX_UPLOAD_BYTES = 8 * 1024 * 1024
PUT_META_FIELDS = frozenset(
    {
        "object_key",
        "base_object_revision",
        "if_object_revision",
        "object_revision",
        "object_timestamp",
    }
)

# Fields whose push asks firmware to suspend its defer window (the peers' rule).
SETPOINT_FIELDS = frozenset(
    {
        "target_temperature",
        "target_temperature_low",
        "target_temperature_high",
        "target_temperature_type",
    }
)


def _serial_from_user_id(user_id: str) -> str | None:
    """Return SERIAL of `d.{SERIAL}.{suffix}`, `nest.{SERIAL}` or a bare `{SERIAL}`.

    All three are seen from firmware: the serial is the second dot-separated part, else the
    whole id.
    """
    parts = user_id.split(".")
    serial = parts[1] if len(parts) > 1 else parts[0]
    return serial if SERIAL_RE.fullmatch(serial) else None


def basic_password(request: web.Request) -> str | None:
    """Return the password of the request's Basic credentials: firmware's own secret."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "basic" or not token:
        return None
    try:
        password = base64.b64decode(token.strip(), validate=True).decode().partition(":")[2]
    except binascii.Error, UnicodeDecodeError:
        return None
    return password if 0 < len(password) <= 128 and password.isprintable() else None


def device_serial(request: web.Request) -> str | None:
    """Identify the device: Basic user id, then the client-id header, then the device-id header.

    Either name of each header (`X-nl-client-id` or `X-svc-client-id`) is read.
    """
    auth = request.headers.get("Authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() == "basic" and token:
        try:
            user_id = base64.b64decode(token.strip(), validate=True).decode().partition(":")[0]
        except binascii.Error, UnicodeDecodeError:
            user_id = ""
        if serial := _serial_from_user_id(user_id):
            return serial
    if (client_id := CLIENT_ID.read(request.headers)) and (
        serial := _serial_from_user_id(client_id)
    ):
        return serial
    device_id = DEVICE_ID.read(request.headers) or ""
    return device_id if SERIAL_RE.fullmatch(device_id) else None


MAC_RE = re.compile(r"[0-9A-Fa-f]{12}")
"""A MAC address as firmware writes it in `mac` and in bucket keys (`11b2334455d6`)."""


def serial_from_session(session: str, mac: str) -> str | None:
    """Return the serial in a session id `<mac><serial>` (Display-2.12 / 5.9.4-5), else None."""
    if not session.lower().startswith(mac.lower()):
        return None
    serial = session[len(mac) :]
    return serial if SERIAL_RE.fullmatch(serial) and not MAC_RE.fullmatch(serial) else None


@dataclass(frozen=True, slots=True)
class Identity:
    """Who sent a request: the serial its state is kept under.

    For a thermostat that identifies by MAC address (its Basic user id and bucket keys are
    `<mac>`, its real serial only in its session id), also the MAC: its bucket keys are
    translated to the serial on the way in and back to its MAC on the way out, so its state
    is kept (and shown) under its serial while it is answered under the keys it follows.
    """

    serial: str
    mac: str | None = None

    def inbound(self, key: str) -> str:
        """Return the server's key for a key the device sent."""
        if self.mac is not None and (parts := split_key(key)) and parts[1].lower() == self.mac:
            return bucket_key(parts[0], self.serial)
        return key

    def outbound(self, key: str) -> str:
        """Return the device's key for a server key."""
        if self.mac is not None and (parts := split_key(key)) and parts[1] == self.serial:
            return bucket_key(parts[0], self.mac)
        return key

    def wire_json(self, bucket: Bucket) -> bytes:
        """Return the bucket as pushed to this device."""
        if self.mac is None:
            return bucket.wire_json()
        return compact_json({**bucket.wire(), "object_key": self.outbound(bucket.key)})

    def descriptor(self, bucket: Bucket) -> dict[str, Any]:
        """Return the bucket's descriptor as this device names it."""
        return {**bucket.descriptor(), "object_key": self.outbound(bucket.key)}


# Revisions are signed 32-bit integers in firmware: a thermostat that carries bucket history
# from its old cloud or another server lists negative ones (NoLongerEvil issue reports).
REVISION_MIN = -(2**31)
REVISION_MAX = 2**31 - 1


def is_revision(value: object) -> bool:
    """Whether a JSON value is a revision firmware can hold (a signed 32-bit integer)."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and REVISION_MIN <= value <= REVISION_MAX
    )


def _revision_field(obj: dict[str, Any], name: str, where: str) -> int:
    value = obj.get(name, 0)
    if not is_revision(value):
        raise BadRequestError(f"{where}: {name} must be a signed 32-bit integer")
    return int(value)


def _timestamp_field(obj: dict[str, Any], name: str, where: str) -> int:
    value = obj.get(name, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadRequestError(f"{where}: {name} must be a non-negative integer (ms)")
    return value


class MacNotResolvedError(web.HTTPServiceUnavailable):
    """A thermostat identified by MAC address whose serial its subscribe has not told yet."""

    def __init__(self, mac: str) -> None:
        """Initialize from the MAC; answered 503, which firmware retries."""
        super().__init__(reason="Device serial not known yet")
        self.mac = mac
        _LOGGER.debug("Thermostat %s identifies by MAC only and has not subscribed yet", mac)


class BucketAccess(Enum):
    """What the server does with a bucket a device sends or lists."""

    KEEP = "keep"
    """The device's own bucket of a type firmware keeps, or its home's: stored and followed."""
    IGNORE = "ignore"
    """A bucket firmware keeps that this server does not (`where.<old home>`, `occupancy.*`,
    another cloud's user or structure): acknowledged so firmware stops resending it, not stored."""
    REFUSE = "refuse"
    """Another device's bucket, or another home's: never applied, never acknowledged."""


@dataclass(slots=True)
class ObjectDescriptor:
    """One entry of a subscribe's `objects` list."""

    key: str
    revision: int
    timestamp: int
    value: dict[str, Any] | None


def next_revision(revision: int) -> int:
    """Return the revision after `revision`.

    It wraps within the signed 32-bit range firmware keeps.
    """
    return REVISION_MIN if revision >= REVISION_MAX else revision + 1


@dataclass(slots=True)
class PutEntry:
    """One bucket of a PUT."""

    key: str
    fields: dict[str, Any]
    guard: int | None
    """`if_object_revision`: the write applies only over this revision (`shared`)."""
    base_revision: int
    """`base_object_revision`: the revision the device changed (informational)."""

    @classmethod
    def of(cls, key: str, fields: dict[str, Any], meta: dict[str, Any]) -> PutEntry:
        """Check the key and the revisions of one bucket."""
        if not is_bucket_key(key):
            raise BadRequestError("object_key must be <type>.<id>")
        guard = meta.get("if_object_revision")
        if guard is not None and not is_revision(guard):
            raise BadRequestError(f"{key}: if_object_revision must be a signed 32-bit integer")
        base = meta.get("base_object_revision", 0)
        if not is_revision(base):
            raise BadRequestError(f"{key}: base_object_revision must be a signed 32-bit integer")
        return cls(key, fields, guard, base)


class PushWriter:
    """Writes pushes onto one held subscribe connection, from whichever loop turn changed state.

    A write normally completes at once (the socket takes it); one that must wait for a slow
    reader continues as a task, which is kept until it finishes.
    """

    __slots__ = ("_batching", "_writes", "conn", "deadline", "identity", "response", "service")

    def __init__(
        self,
        service: ThermostatService,
        conn: HeldConnection,
        response: web.StreamResponse,
        identity: Identity,
    ) -> None:
        """Initialize from the service, the held connection, its response and its device."""
        self.service = service
        self.conn = conn
        self.response = response
        self.identity = identity
        self.deadline: asyncio.Timeout | None = None
        self._batching = False
        self._writes: set[asyncio.Task[None]] = set()

    def push(self, force: bool) -> None:
        """Send the buckets the device follows that are newer than its copy (or all of them)."""
        conn = self.conn
        pending = self.service.delivery.outgoing(conn.known, conn.serial, force)
        if not pending:
            return
        wire_json = self.identity.wire_json
        chunk = b'{"objects":[' + b",".join(wire_json(b) for b in pending) + b"]}"
        keys = [bucket.key for bucket in pending]
        for bucket in pending:
            conn.known[bucket.key] = bucket.timestamp
        self.service.delivery.mark_delivered(conn.serial, keys)
        write = asyncio.get_running_loop().create_task(self._write(chunk, keys), eager_start=True)
        if not write.done():
            self._writes.add(write)
            write.add_done_callback(self._writes.discard)
        deadline = self.deadline
        if not self._batching and deadline is not None and not deadline.expired():
            self._batching = True
            batch_end = asyncio.get_running_loop().time() + self.service.config.batch_window
            deadline.reschedule(min(batch_end, deadline.when() or batch_end))

    def detach(self) -> None:
        """Drop the references of an ended connection.

        They tie it, the writer and the handler's task into a cycle.
        """
        self.conn.detach_writer()
        self.deadline = None

    async def _write(self, chunk: bytes, keys: list[str]) -> None:
        try:
            await self.response.write(chunk)
        except ConnectionError:
            _LOGGER.debug("Subscribe connection of %s dropped by the device", self.conn.serial)
            self.service.delivery.mark_undelivered(self.conn.serial, keys)
            self.conn.wake(WakeReason.CLOSE)


class DeviceApi:
    """Handlers of the device protocol, bound to one service."""

    def __init__(self, service: ThermostatService) -> None:
        """Initialize the handlers bound to the service."""
        self.service = service
        self._entry_by_mac: dict[str, dict[str, str]] = {}
        """What MAC-identified thermostats reported at entry before their serial was known."""

    # -- helpers ----------------------------------------------------------------------------

    def _origin(self) -> str:
        return origin_with_port(self.service.config.api_origin)

    def _protocol_headers(self) -> dict[str, str]:
        config = self.service.config
        values = {
            SUSPEND_TIME_MAX: str(config.suspend_time_max),
            SERVICE_TIMESTAMP: str(self.service.clock.now_ms()),
            DEFER_DEVICE_WINDOW: str(config.defer_device_window),
        }
        return {name: values[header] for header in ANSWER_HEADERS for name in header.names}

    async def add_protocol_headers(
        self, request: web.Request, response: web.StreamResponse
    ) -> None:
        """Add the protocol headers, under both names, to every device response.

        PUT and errors included. Firmware that misses `X-nl-suspend-time-max` falls back to a
        much longer sleep, and one that misses `X-nl-service-timestamp` keeps its own clock
        (manual eco more than 600 s off it is dropped).
        """
        for name, value in self._protocol_headers().items():
            response.headers.setdefault(name, value)

    def _identify(self, request: web.Request, session: str | None = None) -> Identity | None:
        """Who sent the request; None without any identity.

        A thermostat that identifies by its MAC address (Display-2.12 / 5.9.4-5) tells its
        serial only in the session id of its subscribe (`<mac><serial>`): learned there, the
        MAC is mapped to the serial from then on (kept in the device record, so across
        restarts). Until then such a request is answered 503, so the MAC never becomes a
        thermostat of its own; a MAC-shaped identity that has its own record (a thermostat
        paired under it by an earlier version) stays what it was.
        """
        raw = device_serial(request)
        if raw is None or not MAC_RE.fullmatch(raw):
            return None if raw is None else Identity(raw)
        mac = raw.lower()
        devices = self.service.devices
        serial = devices.serial_for_mac(mac)
        if serial is not None and serial.lower() != mac:
            return Identity(serial, mac)
        if self.service.is_paired(raw):
            return Identity(raw)
        if session is not None and (serial := serial_from_session(session, mac)) is not None:
            self._learn_mac(mac, serial, raw)
            return Identity(serial, mac)
        if raw in devices or session is not None:
            return Identity(raw)
        raise MacNotResolvedError(mac)

    def _learn_mac(self, mac: str, serial: str, raw: str) -> None:
        """Map a MAC-identified thermostat to its serial, with what it reported at entry."""
        service = self.service
        if raw in service.devices and not service.is_paired(raw):
            # Left by an earlier version under the MAC: the thermostat sends its state again.
            service.forget_device(raw)
        fields = {**self._entry_by_mac.pop(mac, {}), "mac": mac}
        service.note_contact(serial)  # a new thermostat counts against the unpaired limit
        service.devices.update_identity(serial, fields)
        service.request_save()
        _LOGGER.info(
            "Thermostat %s identifies by its MAC address; its session names its serial %s",
            mac,
            serial,
        )

    def _require_identity(
        self, request: web.Request, *, create: bool = True, session: str | None = None
    ) -> Identity:
        """Return who sent the request (400 without an identity); note the contact."""
        identity = self._identify(request, session)
        if identity is None:
            raise BadRequestError(
                "Device serial required", "no d.SERIAL.suffix Basic user id or client/device id"
            )
        serial = identity.serial
        self.service.note_contact(
            serial, create=create, address=request.remote, credential=basic_password(request)
        )
        record = self.service.devices.get(serial)
        if (
            record is not None
            and not record.software_version
            and (version := reported_firmware_version(request.headers))
        ):
            # A thermostat that never called entry here (4.x with its cached URLs) still
            # says its version on every request; entry's word is kept otherwise.
            self.service.note_firmware(serial, version)
        return identity

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
        service = self.service
        if bucket_type in HOME_SCOPED_TYPES:
            if key in service.home_keys(serial):
                return BucketAccess.KEEP
            return BucketAccess.REFUSE if service.is_home_key(key) else BucketAccess.IGNORE
        if identifier == serial:
            return BucketAccess.KEEP if bucket_type in DEVICE_SCOPED_TYPES else BucketAccess.IGNORE
        if service.is_known(identifier) or service.is_home_id(identifier):
            return BucketAccess.REFUSE
        return BucketAccess.IGNORE

    def may_access(self, serial: str, key: str) -> bool:
        """Whether the device reads and writes this bucket (see `bucket_access`)."""
        return self.bucket_access(serial, key) is BucketAccess.KEEP

    # -- discovery and pairing codes -----------------------------------------------------------

    async def entry(self, request: web.Request) -> web.Response:
        """`GET`/`POST /svc/entry`: where everything else lives."""
        if request.method == "POST":
            raw = await read_body(request)
            try:
                fields = form_fields(raw.decode())
            except UnicodeDecodeError as err:
                raise BadRequestError("Invalid form body", str(err)) from err
        else:
            fields = form_fields(request.rel_url.raw_query_string)
        try:
            identity = self._identify(request)
        except MacNotResolvedError as err:
            # Kept for the record of the serial its first subscribe names (bounded: made-up
            # MACs cannot grow it).
            self._entry_by_mac.pop(err.mac, None)
            self._entry_by_mac[err.mac] = {
                name: fields[name] for name in ENTRY_FIELDS if name in fields
            }
            while len(self._entry_by_mac) > self.service.config.max_unpaired_devices:
                del self._entry_by_mac[next(iter(self._entry_by_mac))]
            identity = None
        if identity is not None:
            serial = identity.serial
            self.service.note_contact(
                serial, address=request.remote, credential=basic_password(request)
            )
            if fields.get("reset", "").upper() == "TRUE":
                _LOGGER.info("Thermostat %s reports a factory reset", serial)
            if identity.mac is not None:
                fields = {**fields, "mac": identity.mac}
            # Entry is where firmware says which version it runs now (after an update too).
            version = fields.get("software_version") or reported_firmware_version(request.headers)
            if version:
                self.service.note_firmware(serial, version)
            if self.service.devices.update_identity(serial, fields):
                self.service.request_save()
        origin = self._origin()
        transport = f"{origin}/svc/transport"
        return web.json_response(
            {
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
        )

    async def passphrase(self, request: web.Request) -> web.Response:
        """`GET /svc/passphrase`: the device's pending pairing code."""
        serial = self._require_identity(request).serial
        if not self.service.loaded:
            return error_response(503, "Entry key service unavailable")
        key, outcome = self.service.pairings.issue(serial)
        if outcome is not IssueOutcome.UNCHANGED:
            # After a restart the thermostat must be shown the same code, valid as long.
            self.service.save_now_later()
        if outcome is IssueOutcome.CREATED:
            # Not the code itself: it is a credential for the next hour, and logs get shared.
            _LOGGER.info("Thermostat %s is showing a new pairing code on its screen", serial)
        return web.json_response({"value": key.value, "expires": key.expires})

    async def passphrase_status(self, request: web.Request) -> web.Response:
        """`GET /svc/passphrase/status`: no_key, pending or claimed."""
        serial = self._require_identity(request, create=False).serial
        if not self.service.loaded:
            return error_response(503, "Entry key service unavailable")
        status, key = self.service.pairings.status(serial)
        if status is KeyStatus.NO_KEY or key is None:
            return web.json_response(
                {"status": "no_key", "claimed": False, "message": "No pairing code issued"}
            )
        if status is KeyStatus.PENDING:
            return web.json_response(
                {"status": "pending", "claimed": False, "expiresAt": key.expires}
            )
        return web.json_response(
            {
                "status": "claimed",
                "claimed": True,
                "claimedBy": key.claimed_by,
                "claimedAt": key.claimed_at,
            }
        )

    # -- transport -------------------------------------------------------------------------------

    def _parse_subscribe(self, identity: Identity, body: dict[str, Any]) -> list[ObjectDescriptor]:
        objects = body.get("objects")
        if not isinstance(objects, list):
            raise BadRequestError("objects must be an array")
        if len(objects) > MAX_BUCKETS_PER_REQUEST:
            raise BadRequestError(f"More than {MAX_BUCKETS_PER_REQUEST} buckets in one request")
        if not isinstance(body.get("session", ""), str):
            raise BadRequestError("session must be a string")
        parsed: list[ObjectDescriptor] = []
        for index, obj in enumerate(objects):
            where = f"objects[{index}]"
            if not isinstance(obj, dict):
                raise BadRequestError(f"{where} must be an object")
            key = obj.get("object_key")
            if not isinstance(key, str) or split_key(key) is None:
                raise BadRequestError(f"{where}: object_key must be <type>.<id>")
            value = obj.get("value")
            if value is not None and not isinstance(value, dict):
                raise BadRequestError(f"{where}: value must be an object")
            parsed.append(
                ObjectDescriptor(
                    identity.inbound(key),
                    _revision_field(obj, "object_revision", where),
                    _timestamp_field(obj, "object_timestamp", where),
                    value,
                )
            )
        return parsed

    def _inline_updates(
        self, serial: str, objects: list[ObjectDescriptor]
    ) -> dict[str, dict[str, Any]]:
        """Return the values the device sends with its subscribe.

        They have revision 0 and timestamp 0 (new local data), or a timestamp newer than the
        server's copy.
        """
        updates: dict[str, dict[str, Any]] = {}
        for obj in objects:
            if obj.value is None:
                continue
            fresh = obj.revision == 0 and obj.timestamp == 0
            if not fresh and obj.timestamp <= self.service.buckets.timestamp(obj.key):
                continue
            access = self.bucket_access(serial, obj.key)
            if access is not BucketAccess.KEEP:
                # Not a reason to refuse the subscribe, which would leave the thermostat
                # without its connection: the bucket alone is left out.
                _LOGGER.debug("%s: inline %s %sd", serial, for_log(obj.key), access.value)
                continue
            updates[obj.key] = obj.value
        return updates

    async def subscribe(self, request: web.Request) -> web.StreamResponse:
        """`POST /svc/transport`: the long-poll that server pushes ride on."""
        if device_serial(request) is None:
            self._require_identity(request)  # the 400 before reading a body
        body = await read_json_object(request)
        session = body.get("session")
        identity = self._require_identity(
            request, session=session if isinstance(session, str) else None
        )
        serial = identity.serial
        objects = self._parse_subscribe(identity, body)
        updates = self._inline_updates(serial, objects)
        service = self.service
        if updates:
            service.commands.apply(serial, updates, ChangeSource.DEVICE)
        known: dict[str, int] = {}
        for obj in objects:
            if not self.may_access(serial, obj.key):
                _LOGGER.debug(
                    "%s listed %s, which it may not follow; ignored", serial, for_log(obj.key)
                )
                continue
            # An inline update is sent back with its new revision: the device learns it.
            known[obj.key] = 0 if obj.key in updates else obj.timestamp

        headers = {"Content-Type": "application/json"}
        if any(
            bucket.key.startswith("shared.") and not SETPOINT_FIELDS.isdisjoint(bucket.value)
            for bucket in service.delivery.outgoing(known, serial, False)
        ):
            # Headers go out before the body, so this can only ride on an immediate push:
            # firmware then sends its own changes (the push's acknowledgement) at once.
            headers.update(DISABLE_DEFER_WINDOW.both(str(service.config.disable_defer_window)))
        response = web.StreamResponse(headers=headers)
        response.enable_chunked_encoding()
        await response.prepare(request)

        conn = HeldConnection(serial=serial, session=str(body.get("session", "")), known=known)
        writer = PushWriter(service, conn, response, identity)
        conn.push = writer.push
        service.subscriptions.register(conn)
        service.connection_changed(serial)
        try:
            # The deadline starts as the hold timeout; the first push moves it to the end of
            # the batch window. Either way the connection then closes with what it sent.
            async with asyncio.timeout(service.config.hold_timeout) as deadline:
                writer.deadline = deadline
                writer.push(False)
                await conn.closed
        except TimeoutError:
            pass
        finally:
            service.subscriptions.unregister(conn)
            service.connection_closed(serial)
            # The connection and its writer refer to each other (and through the deadline to
            # this task): undone here, a finished subscribe is freed at once instead of
            # waiting, with its request and response, for a full run of the cycle collector,
            # which in a large host process stalls the event loop for tenths of a second.
            writer.detach()
        try:
            await response.write_eof()
        except ConnectionError:
            _LOGGER.debug("Subscribe connection of %s dropped by the device", serial)
        return response

    def _parse_put(self, body: dict[str, Any]) -> list[PutEntry]:
        """Both PUT body forms -> one entry per bucket; a malformed body is a 400."""
        if not isinstance(body.get("session", ""), str):
            raise BadRequestError("session must be a string")
        entries: list[PutEntry] = []
        if "objects" in body:
            objects = body["objects"]
            if not isinstance(objects, list):
                raise BadRequestError("objects must be an array")
            for index, obj in enumerate(objects):
                where = f"objects[{index}]"
                if not isinstance(obj, dict):
                    raise BadRequestError(f"{where} must be an object")
                value = obj.get("value")
                if not isinstance(value, dict):
                    raise BadRequestError(f"{where}: value must be an object")
                key = obj.get("object_key")
                if not isinstance(key, str):
                    raise BadRequestError(f"{where}: object_key must be a string")
                entries.append(PutEntry.of(key, value, obj))
        else:
            for name, obj in body.items():
                if name == "session":
                    continue
                if not isinstance(obj, dict):
                    raise BadRequestError(f"{name} must be an object")
                key = obj.get("object_key", name)
                if key != name:
                    raise BadRequestError(f"{name}: object_key does not match")
                fields = {k: v for k, v in obj.items() if k not in PUT_META_FIELDS}
                entries.append(PutEntry.of(key, fields, obj))
        if not entries:
            raise BadRequestError("No buckets in PUT")
        if len(entries) > MAX_BUCKETS_PER_REQUEST:
            raise BadRequestError(f"More than {MAX_BUCKETS_PER_REQUEST} buckets in one request")
        return entries

    async def put(self, request: web.Request) -> web.Response:
        """`POST /svc/transport/put`: the device reports changed fields, bucket by bucket.

        Firmware batches several buckets in one PUT, some of types this server does not keep:
        each is kept, ignored (acknowledged, not stored) or refused (another device's) on its
        own, so one bucket never throws away the change beside it. The answer lists every
        kept or ignored bucket; a PUT whose every bucket is refused is a 400.
        """
        identity = self._require_identity(request)
        serial = identity.serial
        body = await read_json_object(request)
        if body.get("objects") == []:
            # Firmware 4.x PUTs only this, and never subscribes (NoLongerEvil-Thermostat issue
            # #213): it is contact, answered as such; the host says that it needs 5.x.
            _LOGGER.debug("%s: a PUT with no buckets (a 4.x heartbeat)", serial)
            return web.json_response({"objects": []})
        entries = self._parse_put(body)
        for entry in entries:
            entry.key = identity.inbound(entry.key)
        service = self.service
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
            current = service.buckets.get(key)
            if (
                entry.guard is not None
                and key.startswith("shared.")
                and current is not None
                and entry.guard != current.revision
            ):
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
                continue
            updates.setdefault(key, {}).update(entry.fields)
        if refused:
            _LOGGER.debug("%s: PUT to %s refused: not this device's", serial, for_log(refused))
            if not (updates or conflicts or ignored):
                raise BadRequestError(f"Bucket {refused[0]} is not writable by this device")
        if ignored:
            _LOGGER.debug("%s: PUT to %s acknowledged, not kept", serial, for_log(list(ignored)))
        service.commands.apply(serial, updates, ChangeSource.DEVICE)
        descriptors: dict[str, dict[str, Any]] = {}
        kept: list[str] = []
        for entry in entries:
            key = entry.key
            if key in descriptors or key in refused:
                continue
            if key in ignored:
                descriptors[key] = {
                    "object_revision": next_revision(entry.base_revision),
                    "object_timestamp": service.clock.now_ms(),
                    "object_key": identity.outbound(key),
                }
                continue
            bucket = service.buckets.get(key)
            if bucket is None:  # an empty PUT of a bucket the server never had
                continue
            kept.append(key)
            descriptors[key] = identity.descriptor(bucket)
        service.delivery.device_put(serial, kept, conflicts)
        return web.json_response({"objects": list(descriptors.values())})

    async def device_listing(self, request: web.Request) -> web.Response:
        """`GET /svc/transport/device/{serial}` and legacy forms: bucket descriptors."""
        raw = request.match_info.get("serial", "")
        serial = raw.removeprefix("device.")
        if not SERIAL_RE.fullmatch(serial):
            return error_response(400, "Serial required")
        identity = Identity(serial)
        if MAC_RE.fullmatch(serial) and (known := self.service.devices.serial_for_mac(serial)):
            # A MAC-identified thermostat lists `device.<mac>`: its buckets, under its keys.
            identity = Identity(known, serial.lower())
        keys = [
            *self.service.buckets.keys_of_serial(identity.serial),
            *self.service.home_keys(identity.serial),
        ]
        buckets = self.service.buckets
        objects = [identity.descriptor(b) for k in keys if (b := buckets.get(k)) is not None]
        return web.json_response({"objects": objects})

    # -- the rest of the firmware's URLs ---------------------------------------------------------

    async def ping(self, request: web.Request) -> web.Response:
        """Answer the connectivity check: 200 is all firmware looks at."""
        with contextlib.suppress(MacNotResolvedError):
            if (identity := self._identify(request)) is not None:
                self.service.note_contact(identity.serial, create=False)
        return web.json_response({"status": "ok", "timestamp": self.service.clock.now_ms()})

    async def pro_info(self, request: web.Request) -> web.Response:
        """Installer ("pro") details: a self-hosted server has none, so an empty object."""
        return web.json_response({})

    async def weather(self, request: web.Request) -> web.Response:
        """`GET /svc/weather/v1?query=<token>`: the weather under the token, as sent.

        The provider (the host's weather) answers `{}` when it has none: firmware then
        shows no weather rather than an error. Nothing here leaves the network.
        """
        try:
            token = weather_token(request.query)
        except WeatherQueryError as err:
            # The token itself is not logged: it is the home's postal code.
            raise BadRequestError(f"Invalid weather query: {err}") from err
        provider = self.service.weather_provider
        weather = await provider(token) if provider is not None else {}
        return web.json_response({token: weather})

    async def upload(self, request: web.Request) -> web.Response:
        """Log uploads: read and discard (nothing personal is stored), then 200."""
        size = 0
        while chunk := await request.content.read(65536):
            size += len(chunk)
            if size > MAX_UPLOAD_BYTES:
                raise BadRequestError("Upload too large")
        _LOGGER.debug("Discarded a %d-byte upload from %s", size, device_serial(request))
        return web.json_response({})


# Paths relative to the device protocol's prefix. The settings CGI stores `<endpoint>/entry`
# and firmware calls it as it is, and the other URLs as the entry answer gives them (a
# thermostat may keep URLs of an earlier server), so each path is served both under `/svc` and
# bare. Firmware subscribes and PUTs at `<transport_url>/v<N>/subscribe` and `/v<N>/put` (v7 on
# 5.x firmware); `czfe` is the transport's other name in entry answers.
def _routes(api: DeviceApi) -> list[tuple[str, str, Handler]]:
    transport: list[tuple[str, str, Handler]] = []
    for root in ("/transport", "/czfe"):
        transport += [
            ("POST", root, api.subscribe),
            ("POST", f"{root}/subscribe", api.subscribe),
            ("POST", f"{root}/{{version:v[0-9]+}}/subscribe", api.subscribe),
            ("POST", f"{root}/put", api.put),
            ("POST", f"{root}/{{version:v[0-9]+}}/put", api.put),
            ("GET", f"{root}/device/{{serial}}", api.device_listing),
            ("GET", f"{root}/device/", api.device_listing),
            ("GET", f"{root}/device", api.device_listing),
            ("GET", f"{root}/{{version:v[0-9]+}}/device/{{serial}}", api.device_listing),
        ]
    return [
        ("GET", "/entry", api.entry),
        ("POST", "/entry", api.entry),
        ("GET", "/passphrase", api.passphrase),
        ("GET", "/passphrase/status", api.passphrase_status),
        *transport,
        ("*", "/ping", api.ping),
        ("GET", "/pro_info", api.pro_info),
        ("GET", "/pro_info/{tail:.*}", api.pro_info),
        ("GET", "/weather/v1", api.weather),
        ("*", "/upload", api.upload),
    ]


# `/nest` is the brand's prefix: a thermostat moved from another self-hosted server on the same
# address keeps its cached `/nest/transport...` URLs until it registers again.
DEVICE_PATH_PREFIXES = ("/svc", "/nest", "")


def create_device_app(service: ThermostatService) -> web.Application:
    """Create the aiohttp application of the device protocol listener."""
    api = DeviceApi(service)
    # Bodies are capped by read_body; aiohttp's own cap would answer 413 in plain text.
    app = web.Application(
        middlewares=[json_errors(CommandError, UnstorableError)], client_max_size=MAX_UPLOAD_BYTES
    )
    app[SERVICE_KEY] = service
    for prefix in DEVICE_PATH_PREFIXES:
        for method, path, handler in _routes(api):
            app.router.add_route(method, prefix + path, handler)
    app.on_response_prepare.append(api.add_protocol_headers)
    return app


class DeviceServer:
    """The device protocol on its own port, with the service behind it.

    The owner of the service loads it, then starts this; stopping closes the held subscribes
    before the port (aiohttp waits for open requests), then stops the service, which saves.
    """

    def __init__(self, service: ThermostatService) -> None:
        """Initialize the server of the service, with the service's request and idle timeouts."""
        self.service = service
        self._listener = PortListener(
            service.config.request_timeout, service.config.idle_connection_timeout
        )

    async def async_start(self, host: str | None, port: int) -> None:
        """Listen, then start the service; raises OSError when the port cannot be bound."""
        await self._listener.async_start(create_device_app(self.service), host, port)
        self.service.start()

    @property
    def bound_port(self) -> int | None:
        """The port the device listener is bound to (useful with port 0)."""
        return self._listener.bound_port

    async def async_stop(self) -> None:
        """Close held connections, release the port and save everything; safe to call twice."""
        self.service.close_connections()
        await self._listener.async_stop()
        await self.service.async_stop()
