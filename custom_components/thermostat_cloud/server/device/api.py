"""The device protocol (`/svc/...`), spoken by thermostat firmware.

Firmware fails silently on small deviations, so the shapes here are exact: bucket objects
carry object_revision and object_timestamp before object_key, `expires` is a JSON number,
PUT responses never carry `value`, and every URL handed out has an explicit port. Firmware
4.x's transport (`/v3/` in the path) is answered in its own forms (see
`core.firmware.firmware.SKV_TRANSPORT`); every other path in the spec's, unchanged.
"""

from __future__ import annotations

import base64
import binascii
import logging
from typing import Any

from aiohttp import web

from ..core import (
    CommandError,
    DeviceSessions,
    Identity,
    IdentityClaim,
    NotLoadedError,
    NotWritableError,
    ObjectDescriptor,
    PutEntry,
    SessionRefusal,
    Subscription,
    ThermostatService,
    UnidentifiedDeviceError,
    carries_setpoints,
    is_heartbeat,
    is_revision,
    is_skv_transport,
    nested_put_buckets,
    skv_nested,
    skv_value,
    subscribe_listing,
)
from ..http import (
    ANY_METHOD,
    BadRequestError,
    PortListener,
    Route,
    build_app,
    error_response,
    form_fields,
    read_body,
    read_json_object,
)
from ..model import Bucket, UnstorableError, is_bucket_key, split_key
from .headers import (
    ANSWER_HEADERS,
    CLIENT_ID,
    DEFER_DEVICE_WINDOW,
    DEVICE_ID,
    DISABLE_DEFER_WINDOW,
    SERVICE_TIMESTAMP,
    SKV_KEY,
    SKV_TIMESTAMP,
    SKV_VERSION,
    SUSPEND_TIME_MAX,
    reported_firmware_version,
)
from .weather import WeatherQueryError, weather_token

_LOGGER = logging.getLogger(__name__)

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


def basic_credentials(request: web.Request) -> tuple[str | None, str | None]:
    """Return the user id and password of the request's Basic credentials.

    The user id is "" when the credentials do not decode; the password (firmware's own
    secret) is None unless it is printable and at most 128 characters.
    """
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "basic" or not token:
        return None, None
    try:
        user_id, _, password = (
            base64.b64decode(token.strip(), validate=True).decode().partition(":")
        )
    except binascii.Error, UnicodeDecodeError:
        return "", None
    return user_id, password if 0 < len(password) <= 128 and password.isprintable() else None


def identity_claim(request: web.Request) -> IdentityClaim:
    """Read who a request says it is from: Basic credentials, headers, where it came from."""
    user_id, password = basic_credentials(request)
    return IdentityClaim(
        user_id=user_id,
        password=password,
        client_id=CLIENT_ID.read(request.headers),
        device_id=DEVICE_ID.read(request.headers),
        firmware_version=reported_firmware_version(request.headers),
        address=request.remote,
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


def _put_entry(key: str, fields: dict[str, Any], meta: dict[str, Any]) -> PutEntry:
    if not is_bucket_key(key):
        raise BadRequestError("object_key must be <type>.<id>")
    guard = meta.get("if_object_revision")
    if guard is not None and not is_revision(guard):
        raise BadRequestError(f"{key}: if_object_revision must be a signed 32-bit integer")
    base = meta.get("base_object_revision", 0)
    if not is_revision(base):
        raise BadRequestError(f"{key}: base_object_revision must be a signed 32-bit integer")
    return PutEntry(key, fields, guard, base)


def _nested_entries(key_objects: list[tuple[str, object]]) -> list[PutEntry]:
    """Firmware 4.3.x's nested PUT form (`core.firmware.firmware.nested_put_buckets`): one entry a bucket."""
    entries = []
    for key, obj in key_objects:
        if not isinstance(obj, dict):
            raise BadRequestError(f"{key} must be an object")
        fields = {k: v for k, v in obj.items() if k not in PUT_META_FIELDS}
        entries.append(_put_entry(key, fields, obj))
    return entries


def _is_skv(request: web.Request) -> bool:
    """Whether a request came by firmware 4.x's transport (`/v3/` in its path)."""
    return is_skv_transport(request.match_info.get("version"))


class SkvAnswer:
    """The answer of a firmware 4.x subscribe: one bucket's value, named by SKV headers.

    Written whole once delivery has a bucket for it (`delivery.SkvSink`); a subscribe that
    times out with nothing gets an empty answer instead, which firmware takes as a tickle.
    """

    def __init__(self, request: web.Request, identity: Identity, disable_defer_window: int):
        self._request = request
        self._identity = identity
        self._disable_defer_window = str(disable_defer_window)
        self.response: web.Response | None = None

    async def write_bucket(self, bucket: Bucket, /) -> None:
        """Write the answer: the bucket's value, its key, version and timestamp as headers."""
        headers = {
            "Content-Type": "application/json",
            **SKV_KEY.both(self._identity.outbound(bucket.key)),
            **SKV_VERSION.both(str(bucket.revision)),
            **SKV_TIMESTAMP.both(str(bucket.timestamp)),
        }
        if carries_setpoints(bucket):
            headers.update(DISABLE_DEFER_WINDOW.both(self._disable_defer_window))
        response = web.Response(body=skv_value(bucket), headers=headers)
        await response.prepare(self._request)
        self.response = response  # from here on the handler must not answer again
        await response.write_eof()


async def _identified_body(request: web.Request) -> tuple[IdentityClaim, dict[str, Any]]:
    """Return a transport request's identity and JSON body (an unidentified one: 400 unread)."""
    claim = identity_claim(request)
    if claim.serial() is None:
        raise _http_error(UnidentifiedDeviceError())
    return claim, await read_json_object(request)


def _http_error(refusal: SessionRefusal) -> Exception:
    """Return the protocol's answer to a refusal: 400, or 503 that firmware retries."""
    match refusal:
        case UnidentifiedDeviceError():
            return BadRequestError(
                "Device serial required", "no d.SERIAL.suffix Basic user id or client/device id"
            )
        case NotWritableError():
            return BadRequestError(str(refusal))
        case NotLoadedError():
            return web.HTTPServiceUnavailable(reason="Entry key service unavailable")
        case _:
            return web.HTTPServiceUnavailable(reason=str(refusal))


class DeviceApi:
    """Handlers of the device protocol: each parses, asks the core's device sessions, answers."""

    def __init__(self, sessions: DeviceSessions) -> None:
        self.sessions = sessions

    def _protocol_headers(self) -> dict[str, str]:
        times = self.sessions.protocol_times()
        values = {
            SUSPEND_TIME_MAX: str(times.suspend_time_max),
            SERVICE_TIMESTAMP: str(times.service_timestamp),
            DEFER_DEVICE_WINDOW: str(times.defer_device_window),
        }
        return {name: values[header] for header in ANSWER_HEADERS for name in header.names}

    async def add_protocol_headers(
        self, request: web.Request, response: web.StreamResponse
    ) -> None:
        """Add the protocol headers, under both names, to every device response, errors too."""
        for name, value in self._protocol_headers().items():
            response.headers.setdefault(name, value)

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
        return web.json_response(self.sessions.entry(identity_claim(request), fields))

    async def passphrase(self, request: web.Request) -> web.Response:
        try:
            return web.json_response(self.sessions.passphrase(identity_claim(request)))
        except SessionRefusal as err:
            raise _http_error(err) from err

    async def passphrase_status(self, request: web.Request) -> web.Response:
        """`GET /svc/passphrase/status`: no_key, pending or claimed."""
        try:
            return web.json_response(self.sessions.passphrase_status(identity_claim(request)))
        except SessionRefusal as err:
            raise _http_error(err) from err

    # -- transport -------------------------------------------------------------------------------

    def _parse_subscribe(self, body: dict[str, Any], skv: bool) -> list[ObjectDescriptor]:
        """Return the subscribe's buckets, from any of the forms firmware sends (5.x and 4.x).

        A 4.x key listed without a timestamp (`skv`) is marked unversioned.
        """
        try:
            objects = subscribe_listing(body)
        except ValueError as err:
            raise BadRequestError(str(err)) from err
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
                    key,
                    _revision_field(obj, "object_revision", where),
                    _timestamp_field(obj, "object_timestamp", where),
                    value,
                    not skv or "object_timestamp" in obj,
                )
            )
        return parsed

    async def subscribe(self, request: web.Request) -> web.StreamResponse:
        """`POST /svc/transport`: the long-poll that server pushes ride on."""
        claim, body = await _identified_body(request)
        session = body.get("session")
        try:
            identity = self.sessions.contact(
                claim, session=session if isinstance(session, str) else None
            )
        except SessionRefusal as err:
            raise _http_error(err) from err
        serial = identity.serial
        skv = _is_skv(request)
        subscription = self.sessions.subscribe(
            identity, str(body.get("session", "")), self._parse_subscribe(body, skv), skv=skv
        )
        if skv:
            return await self._hold_skv(request, subscription)
        headers = {"Content-Type": "application/json"}
        if subscription.setpoints_owed:
            # Headers go out before the body, so this can only ride on an immediate push:
            # firmware then sends its own changes (the push's acknowledgement) at once.
            window = self.sessions.protocol_times().disable_defer_window
            headers.update(DISABLE_DEFER_WINDOW.both(str(window)))
        response = web.StreamResponse(headers=headers)
        response.enable_chunked_encoding()
        await response.prepare(request)

        self.sessions.hold(subscription, response)
        try:
            await subscription.connection.closed
        finally:
            self.sessions.release(subscription)
        try:
            await response.write_eof()
        except ConnectionError:
            _LOGGER.debug("Subscribe connection of %s dropped by the device", serial)
        return response

    async def _hold_skv(self, request: web.Request, subscription: Subscription) -> web.Response:
        """Hold a 4.x subscribe until it has its one bucket (or times out: an empty answer)."""
        window = self.sessions.protocol_times().disable_defer_window
        answer = SkvAnswer(request, subscription.identity, window)
        self.sessions.hold(subscription, None, answer)
        try:
            await subscription.connection.closed
        finally:
            self.sessions.release(subscription)
        return answer.response or web.Response(body=b"")

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
                entries.append(_put_entry(key, value, obj))
        else:
            for name, obj in body.items():
                if name == "session":
                    continue
                if not isinstance(obj, dict):
                    raise BadRequestError(f"{name} must be an object")
                if (nested := nested_put_buckets(name, obj)) is not None:
                    entries += _nested_entries(nested)
                    continue
                key = obj.get("object_key", name)
                if key != name:
                    raise BadRequestError(f"{name}: object_key does not match")
                fields = {k: v for k, v in obj.items() if k not in PUT_META_FIELDS}
                entries.append(_put_entry(key, fields, obj))
        if not entries:
            raise BadRequestError("No buckets in PUT")
        if len(entries) > MAX_BUCKETS_PER_REQUEST:
            raise BadRequestError(f"More than {MAX_BUCKETS_PER_REQUEST} buckets in one request")
        return entries

    async def put(self, request: web.Request) -> web.Response:
        """`POST /svc/transport/put`: the device reports changed fields, bucket by bucket."""
        claim, body = await _identified_body(request)
        # Firmware 4.x's heartbeat names no buckets; any other PUT does.
        entries = [] if is_heartbeat(body) else self._parse_put(body)
        skv = _is_skv(request)
        try:
            objects, then = self.sessions.report(claim, entries, skv=skv)
        except SessionRefusal as err:
            raise _http_error(err) from err
        if skv and entries:
            # 4.x's answer: each bucket's `$version` and `$timestamp`, nested, no values.
            response = web.Response(body=skv_nested(objects), content_type="application/json")
        else:
            response = web.json_response({"objects": objects})
        # The thermostat's answer first; then what its report sets off (see `report`).
        try:
            await response.prepare(request)
            await response.write_eof()
        finally:
            then()
        return response

    async def device_listing(self, request: web.Request) -> web.Response:
        """`GET /svc/transport/device/{serial}` and legacy forms: bucket descriptors.

        Firmware 4.x's (`/v3/device/...`) is its bootstrap: the buckets nested, with values.
        """
        skv = _is_skv(request)
        objects = self.sessions.listing(request.match_info.get("serial", ""), skv=skv)
        if objects is None:
            return error_response(400, "Serial required")
        if skv:
            return web.Response(body=skv_nested(objects), content_type="application/json")
        return web.json_response({"objects": objects})

    # -- the rest of the firmware's URLs ---------------------------------------------------------

    async def ping(self, request: web.Request) -> web.Response:
        """Answer the connectivity check: 200 is all firmware looks at."""
        now_ms = self.sessions.ping(identity_claim(request))
        return web.json_response({"status": "ok", "timestamp": now_ms})

    async def pro_info(self, request: web.Request) -> web.Response:
        """Installer ("pro") details: a self-hosted server has none, so an empty object."""
        return web.json_response({})

    async def weather(self, request: web.Request) -> web.Response:
        """`GET /svc/weather/v1?query=<token>`: the weather under the token, as sent.

        `{}` when the host has none: firmware then shows no weather rather than an error.
        """
        try:
            token = weather_token(request.query)
        except WeatherQueryError as err:
            # The token itself is not logged: it is the home's postal code.
            raise BadRequestError(f"Invalid weather query: {err}") from err
        return web.json_response({token: await self.sessions.weather(token)})

    async def upload(self, request: web.Request) -> web.Response:
        """Log uploads: read and discard (nothing personal is stored), then 200."""
        size = 0
        while chunk := await request.content.read(65536):
            size += len(chunk)
            if size > MAX_UPLOAD_BYTES:
                raise BadRequestError("Upload too large")
        _LOGGER.debug("Discarded a %d-byte upload from %s", size, identity_claim(request).serial())
        return web.json_response({})


# Paths relative to the device protocol's prefix. The settings CGI stores `<endpoint>/entry`
# and firmware calls it as it is, and the other URLs as the entry answer gives them (a
# thermostat may keep URLs of an earlier server), so each path is served both under `/svc` and
# bare. Firmware subscribes and PUTs at `<transport_url>/v<N>/subscribe` and `/v<N>/put` (v7 on
# 5.x firmware); `czfe` is the transport's other name in entry answers.
def device_routes(api: DeviceApi) -> list[Route]:
    """Return the device protocol's routes, relative to each of `DEVICE_PATH_PREFIXES`."""
    transport: list[Route] = []
    for root in ("/transport", "/czfe"):
        transport += [
            Route("POST", root, api.subscribe),
            Route("POST", f"{root}/subscribe", api.subscribe),
            Route("POST", f"{root}/{{version:v[0-9]+}}/subscribe", api.subscribe),
            Route("POST", f"{root}/put", api.put),
            Route("POST", f"{root}/{{version:v[0-9]+}}/put", api.put),
            Route("GET", f"{root}/device/{{serial}}", api.device_listing),
            Route("GET", f"{root}/device/", api.device_listing),
            Route("GET", f"{root}/device", api.device_listing),
            Route("GET", f"{root}/{{version:v[0-9]+}}/device/{{serial}}", api.device_listing),
        ]
    return [
        Route("GET", "/entry", api.entry),
        Route("POST", "/entry", api.entry),
        Route("GET", "/passphrase", api.passphrase),
        Route("GET", "/passphrase/status", api.passphrase_status),
        *transport,
        Route(ANY_METHOD, "/ping", api.ping),
        Route("GET", "/pro_info", api.pro_info),
        Route("GET", "/pro_info/{tail:.*}", api.pro_info),
        Route("GET", "/weather/v1", api.weather),
        Route(ANY_METHOD, "/upload", api.upload),
    ]


# `/nest` is the brand's prefix: a thermostat moved from another self-hosted server on the same
# address keeps its cached `/nest/transport...` URLs until it registers again.
DEVICE_PATH_PREFIXES = ("/svc", "/nest", "")


def create_device_app(sessions: DeviceSessions) -> web.Application:
    """Create the aiohttp application of the device protocol listener."""
    api = DeviceApi(sessions)
    app = build_app(
        device_routes(api),
        refused=(CommandError, UnstorableError),
        prefixes=DEVICE_PATH_PREFIXES,
        # Bodies are capped by read_body; aiohttp's own cap would answer 413 in plain text.
        client_max_size=MAX_UPLOAD_BYTES,
    )
    app.on_response_prepare.append(api.add_protocol_headers)
    return app


class DeviceServer:
    """The device protocol on its own port, with the service behind it.

    Its owner closes the service's held subscribes before stopping this, as aiohttp waits for
    open requests.
    """

    def __init__(self, service: ThermostatService) -> None:
        self.service = service
        self._listener = PortListener(
            service.config.request_timeout, service.config.idle_connection_timeout
        )

    async def async_start(self, host: str | None, port: int) -> None:
        await self._listener.async_start(create_device_app(self.service.sessions), host, port)

    @property
    def bound_port(self) -> int | None:
        return self._listener.bound_port

    async def async_stop(self) -> None:
        """Release the port (once the service closed its held connections); safe twice."""
        await self._listener.async_stop()
