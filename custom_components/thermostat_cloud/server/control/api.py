"""The self-hosted control API: plain aiohttp handlers, mounted twice.

The host serves them as views under `/api/thermostat_cloud/...` behind its own
authentication (see `http.py` of the integration); the optional compatibility listener
(`ControlListener`) serves the same handlers at the spec's bare paths with no authentication,
for existing third-party clients.

Decisions where the spec says "not shown" (also in the README's "Control API" section):

- `POST /command` takes `serial`, `command` and `value`; the commands and their value shapes are
  in `COMMANDS` below. Success is the hosted API's command response (`success`, `message`,
  `device`, `object`, `revision`, `timestamp`). A refused command answers
  `{"success": false, "error": <text>, "code": <code>}` with 400 (invalid value, unknown
  command, malformed body), 404 (unknown serial: commands never create devices), 409 (needs a
  paired thermostat) or 422 (the thermostat lacks the equipment).
- `POST /api/register` defaults `userId` to this home's user; a `userId` that is given must be a
  non-empty string. The code may be typed with its display dash and in any case.
- Malformed JSON bodies are 400 with the endpoint's error shape.
- The thermostat's local settings API (`:8080/cgi-bin/api/settings`) is read as a JSON object
  with `device_name` and `cloudregisterurl`; configure-device POSTs JSON `{"endpoint": origin}`,
  adding `"api_key"` when the client gives one.
- Odd settings answers: the scan skips a host whose answer is not a JSON object (not a
  thermostat) and reports a `device_name` that is not a string as `""` and a `cloudregisterurl`
  that is not a string as null. Configure-device succeeds on any 2xx, since the thermostat took
  the new URL; its `device_name` is `""` unless the answer is a JSON object with a string
  `device_name`.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
import contextlib
from dataclasses import dataclass, field
from enum import StrEnum
from http import HTTPStatus
import ipaddress
import json
import logging
import socket
from typing import Any

import aiohttp
from aiohttp import web
from yarl import URL

from ..core.command_errors import CommandError, CommandResult, ErrorCode
from ..core.commands import Commands
from ..core.events import EventKind, ServiceEvent
from ..core.service import ThermostatService, origin_with_port
from ..http.helpers import BadRequestError, error_response, json_errors, read_json_object
from ..http.listener import PortListener
from ..http.wakeup import Wakeup
from ..model.devices import SERIAL_RE, DeviceRecord
from ..model.pairing import RegisterOutcome
from ..model.text import for_log
from .status import device_list, status_record

_LOGGER = logging.getLogger(__name__)

SETTINGS_PATH = "/cgi-bin/api/settings"
SSE_KEEPALIVE_SECONDS = 15.0
# A client this far behind is not reading: end its stream so it reconnects and re-reads status.
SSE_MAX_PENDING = 1000

type ServiceProvider = Callable[[web.Request], ThermostatService | None]
type ControlHandler = Callable[[ThermostatService, web.Request], Awaitable[web.StreamResponse]]
type CommandHandler = Callable[[Commands, str, Any], CommandResult]

# -- /command --------------------------------------------------------------------------------


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise CommandError(ErrorCode.INVALID_VALUE, f"{what} value must be an object")
    return value


def _temperature(commands: Commands, serial: str, value: Any) -> CommandResult:
    if isinstance(value, dict):
        return commands.set_temperature_range(serial, value.get("low"), value.get("high"))
    return commands.set_temperature(serial, value)


def _fan(commands: Commands, serial: str, value: Any) -> CommandResult:
    if isinstance(value, str):
        return commands.set_fan(serial, mode=value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CommandError(
            ErrorCode.INVALID_VALUE, "set_fan value must be on, auto, off or a number of seconds"
        )
    return commands.set_fan(serial, duration=value)


def _eco_temperatures(commands: Commands, serial: str, value: Any) -> CommandResult:
    fields = _object(value, "set_eco_temperatures")
    return commands.set_eco_temperatures(serial, fields.get("low"), fields.get("high"))


def _temperature_lock(commands: Commands, serial: str, value: Any) -> CommandResult:
    fields = _object(value, "set_temperature_lock")
    return commands.set_temperature_lock(
        serial,
        fields.get("enabled"),
        fields.get("pin_hash"),
        fields.get("temp_min"),
        fields.get("temp_max"),
        pin=fields.get("pin"),
    )


def _device_setting(commands: Commands, serial: str, value: Any) -> CommandResult:
    fields = _object(value, "set_device_setting")
    return commands.set_device_setting(serial, fields.get("name"), fields.get("value"))


COMMANDS: dict[str, CommandHandler] = {
    # value: a number (single setpoint, °C) or {"low": n, "high": n} (range mode)
    "set_temperature": _temperature,
    # value: off, heat, cool, range (or auto, heat_cool), emergency
    "set_mode": lambda c, s, v: c.set_mode(s, v),
    # value: true or false (the home's away state)
    "set_away": lambda c, s, v: c.set_away(s, v),
    # value: true or false (the thermostat's own eco mode)
    "set_eco": lambda c, s, v: c.set_eco(s, v),
    # value: "on", "auto", "off", or seconds (1 to 43200) to run the fan, then auto
    "set_fan": _fan,
    # value: {"low": n, "high": n} in °C
    "set_eco_temperatures": _eco_temperatures,
    # value: {"enabled": false} or {"enabled": true, "pin": "1234" | "pin_hash": b64,
    #         "temp_min": n, "temp_max": n}
    "set_temperature_lock": _temperature_lock,
    # value: a complete schedule object (spec: Schedule)
    "set_schedule": lambda c, s, v: c.set_schedule(s, v),
    # value: HEAT, COOL or RANGE
    "set_schedule_mode": lambda c, s, v: c.set_schedule_mode(s, v),
    # value: {"name": <one of DEVICE_SETTINGS>, "value": ...}
    "set_device_setting": _device_setting,
}

COMMAND_ERROR_STATUS = {
    ErrorCode.DEVICE_NOT_FOUND: HTTPStatus.NOT_FOUND,
    ErrorCode.INVALID_VALUE: HTTPStatus.BAD_REQUEST,
    ErrorCode.UNKNOWN_COMMAND: HTTPStatus.BAD_REQUEST,
    ErrorCode.NOT_PAIRED: HTTPStatus.CONFLICT,
    ErrorCode.UNSUPPORTED: HTTPStatus.UNPROCESSABLE_ENTITY,
}


def _command_failure(code: ErrorCode, message: str) -> web.Response:
    return web.json_response(
        {"success": False, "error": message, "code": str(code)},
        status=COMMAND_ERROR_STATUS[code],
    )


REGISTER_FAILURES = {
    RegisterOutcome.INVALID: "No pending pairing code matches; check the code on the thermostat",
    RegisterOutcome.EXPIRED: "The pairing code has expired; the thermostat shows a new one",
    RegisterOutcome.CLAIMED: "The pairing code was already used",
}


def _refuse(
    request: web.Request, status: int, error: str, detail: str | None = None
) -> web.Response:
    """`{"error": ...}`, and a debug line saying which request was refused and why."""
    _LOGGER.debug(
        "Rejected %s %s from %s: %s",
        request.method,
        for_log(request.path),
        request.remote,
        for_log(detail or error),
    )
    return error_response(status, error)


# -- the thermostats' local settings API -------------------------------------------------------


@dataclass(slots=True)
class LocalNetwork:
    """How the server reaches thermostats' local settings API (`http://{ip}:8080`).

    Tests point `settings_port` at fake settings servers on loopback addresses.
    """

    settings_port: int = 8080
    probe_timeout: float = 3.0
    configure_timeout: float = 10.0
    http: aiohttp.ClientSession | None = None
    """The host's shared HTTP client (Home Assistant's), used when given; it stays open."""

    def settings_url(self, ip: str) -> str:
        """Return the settings URL of the thermostat at an IP address."""
        host = f"[{ip}]" if ":" in ip else ip
        return f"http://{host}:{self.settings_port}{SETTINGS_PATH}"

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[aiohttp.ClientSession]:
        """Return the HTTP client for one scan or configure.

        The shared one when given; otherwise one of its own, closed afterwards, with no pool
        limit so all 254 probes run at once.
        """
        if self.http is not None:
            yield self.http
            return
        connector = aiohttp.TCPConnector(limit=0, force_close=True)
        async with aiohttp.ClientSession(connector=connector) as own:
            yield own

    @staticmethod
    async def resolve_ipv4(host: str) -> str:
        """Return an IPv4 address of a host; OSError when none.

        An address is returned as is.
        """
        with contextlib.suppress(ValueError):
            address = ipaddress.ip_address(host)
            if address.version == 4:
                return str(address)
            raise OSError(f"{host} is not an IPv4 address")
        infos = await asyncio.get_running_loop().getaddrinfo(
            host, None, family=socket.AF_INET, type=socket.SOCK_STREAM
        )
        if not infos:
            raise OSError(f"{host} has no IPv4 address")
        return str(infos[0][4][0])

    async def read_settings(self, session: aiohttp.ClientSession, ip: str) -> dict[str, Any] | None:
        """Return the settings object of a thermostat, or None when nothing answers like one."""
        try:
            async with session.get(
                self.settings_url(ip), timeout=aiohttp.ClientTimeout(total=self.probe_timeout)
            ) as resp:
                if resp.status != HTTPStatus.OK:
                    return None
                return await _json_object_body(resp)
        except aiohttp.ClientError, TimeoutError, OSError:
            return None


async def _json_object_body(resp: aiohttp.ClientResponse) -> dict[str, Any] | None:
    """Return a thermostat's answer as a JSON object.

    None when it is anything else or breaks off.
    """
    try:
        # The standard parser whichever client asked (Home Assistant's uses orjson, which
        # refuses the NaN some settings pages write).
        data = await resp.json(content_type=None, loads=json.loads)
    except aiohttp.ClientError, TimeoutError, ValueError:
        return None
    return data if isinstance(data, dict) else None


def _text_field(settings: Mapping[str, Any], name: str) -> str | None:
    """Return a field of a thermostat's settings answer when it is a string.

    Firmware is not checked.
    """
    value = settings.get(name)
    return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class FoundThermostat:
    """A thermostat the scan found: where it is, its name and the cloud URL it uses now."""

    ip: str
    device_name: str
    cloudregisterurl: str | None
    configured: bool
    """It already points at this server."""

    def as_json(self) -> dict[str, Any]:
        """Return the scan answer's shape of it."""
        return {
            "ip": self.ip,
            "device_name": self.device_name,
            "cloudregisterurl": self.cloudregisterurl,
            "configured": self.configured,
        }


@dataclass(frozen=True, slots=True)
class ScanResult:
    """The thermostats found on one /24."""

    subnet: str
    devices: list[FoundThermostat]


class ScanError(Exception):
    """The scan cannot start: `api_origin` names no IPv4 subnet to scan."""

    def __init__(self, message: str, detail: str | None = None) -> None:
        """Initialize with what the user is told and, for the log, why."""
        super().__init__(message)
        self.message = message
        self.detail = detail


class ConfigureOutcome(StrEnum):
    """How pointing a thermostat at this server went."""

    CONFIGURED = "configured"
    INVALID_INPUT = "invalid_input"
    """No IP address, a key that is not a string, or an https `api_origin`."""
    KEY_REFUSED = "key_refused"
    """The settings page wants a key (its serial) and refused the one tried."""
    UNREACHABLE = "unreachable"
    FAILED = "failed"
    """The thermostat answered with an error status."""


@dataclass(frozen=True, slots=True)
class ConfigureResult:
    """The outcome of configure-device, with the thermostat's name or what went wrong."""

    outcome: ConfigureOutcome
    error: str = ""
    device_name: str = ""

    @property
    def success(self) -> bool:
        """The thermostat took the new URL."""
        return self.outcome is ConfigureOutcome.CONFIGURED


def is_this_server(service: ThermostatService, url: object) -> bool:
    """Whether a thermostat's cloud URL points at this server's `api_origin`."""
    if not isinstance(url, str) or not url.strip():
        return False
    try:
        return origin_with_port(url.strip().rstrip("/")) == origin_with_port(
            service.config.api_origin
        )
    except ValueError:
        return False


async def scan_thermostats(service: ThermostatService, network: LocalNetwork) -> ScanResult:
    """Probe the /24 of `api_origin` for thermostats' settings pages; ScanError when none.

    Through the network's HTTP client (Home Assistant's shared one, see `LocalNetwork`).
    """
    host = URL(service.config.api_origin).host
    if not host:
        raise ScanError("api_origin has no host name to derive a subnet from")
    try:
        address = await network.resolve_ipv4(host)
    except OSError as err:
        raise ScanError(f"Cannot resolve {host} to an IPv4 address", str(err)) from err
    subnet = ipaddress.ip_network(f"{address}/24", strict=False)
    hosts = [str(ip) for ip in subnet.hosts()]
    async with network.session() as session:
        answers = await asyncio.gather(*(network.read_settings(session, ip) for ip in hosts))
    devices = [
        FoundThermostat(
            ip=ip,
            device_name=_text_field(settings, "device_name") or "",
            cloudregisterurl=_text_field(settings, "cloudregisterurl"),
            configured=is_this_server(service, settings.get("cloudregisterurl")),
        )
        for ip, settings in zip(hosts, answers, strict=True)
        if settings is not None
    ]
    _LOGGER.debug("Scan of %s found %d thermostats", subnet, len(devices))
    return ScanResult(str(subnet), devices)


async def configure_thermostat(
    service: ThermostatService,
    network: LocalNetwork,
    ip: object,
    api_key: object = None,
) -> ConfigureResult:
    """Point a thermostat's cloud URL at this server through its settings page.

    Without `api_key` it tries the keys a thermostat that called here from that address
    sent; a refused key with a known serial asks the settings page for its real key (see
    `_key_from_serial`). Through the network's HTTP client, as `scan_thermostats`.
    """

    def failure(outcome: ConfigureOutcome, error: str) -> ConfigureResult:
        _LOGGER.debug("Configure device: %s", error)
        return ConfigureResult(outcome, error)

    try:
        address = str(ipaddress.ip_address(ip.strip() if isinstance(ip, str) else ""))
    except ValueError:
        return failure(ConfigureOutcome.INVALID_INPUT, "ip must be the thermostat's IP address")
    if api_key is not None and not isinstance(api_key, str):
        return failure(
            ConfigureOutcome.INVALID_INPUT, "api_key must be a string (the thermostat's serial)"
        )
    origin = origin_with_port(service.config.api_origin)
    if origin.startswith("https:"):
        return failure(
            ConfigureOutcome.INVALID_INPUT,
            "api_origin is https, but the device server speaks plain HTTP: set an http "
            "origin in the Thermostat Cloud settings first",
        )
    record = service.devices.by_address(address)
    keys: list[str | None] = [api_key.strip()] if api_key else _known_keys(record)
    serial = _serial_hint(api_key) or (record.serial if record is not None else None)
    try:
        async with network.session() as session:
            status, answer = await _configure(network, session, address, origin, keys)
            if status == HTTPStatus.UNAUTHORIZED and serial is not None:
                # The settings CGI hands its key to whoever names the thermostat's
                # hostname, which is its serial: ask, then retry with that key.
                key = await _key_from_serial(network, session, address, serial)
                if key is not None and key not in keys:
                    status, answer = await _configure(network, session, address, origin, [key])
    except (aiohttp.ClientError, TimeoutError, OSError) as err:
        return failure(
            ConfigureOutcome.UNREACHABLE,
            f"Thermostat at {address} is not reachable ({type(err).__name__})",
        )
    if status == HTTPStatus.UNAUTHORIZED:
        return failure(
            ConfigureOutcome.KEY_REFUSED,
            "The thermostat refused the key: retry with api_key set to its serial",
        )
    if not 200 <= status < 300:
        return failure(ConfigureOutcome.FAILED, f"Thermostat at {address} answered HTTP {status}")
    name = _text_field(answer, "device_name") if answer is not None else None
    if name is None:
        _LOGGER.debug(
            "Thermostat at %s took the new URL but did not answer with its device_name", address
        )
    _LOGGER.info("Thermostat at %s now points at %s", address, origin)
    return ConfigureResult(ConfigureOutcome.CONFIGURED, device_name=name or "")


async def _configure(
    network: LocalNetwork,
    session: aiohttp.ClientSession,
    address: str,
    origin: str,
    keys: list[str | None],
) -> tuple[int, dict[str, Any] | None]:
    """POST the origin to the settings CGI with each key in turn until one is taken.

    Return the last status and, on success, the answer.
    """
    status: int = HTTPStatus.UNAUTHORIZED
    answer: dict[str, Any] | None = None
    for key in keys:
        # The CGI stores `<endpoint>/entry`: the origin alone, no path.
        payload = {"endpoint": origin} if key is None else {"api_key": key, "endpoint": origin}
        async with session.post(
            network.settings_url(address),
            json=payload,
            timeout=aiohttp.ClientTimeout(total=network.configure_timeout),
        ) as resp:
            status = resp.status
            if status != HTTPStatus.UNAUTHORIZED:
                # Any 2xx: the thermostat took the new URL, whatever its answer looks like.
                answer = await _json_object_body(resp) if 200 <= status < 300 else None
                break
    return status, answer


async def _key_from_serial(
    network: LocalNetwork, session: aiohttp.ClientSession, address: str, serial: str
) -> str | None:
    """Return the settings CGI's key, which it gives for `{"initialize": <its hostname>}`."""
    async with session.post(
        network.settings_url(address),
        json={"initialize": serial},
        timeout=aiohttp.ClientTimeout(total=network.configure_timeout),
    ) as resp:
        answer = await _json_object_body(resp) if resp.status == HTTPStatus.OK else None
    return _text_field(answer, "api_key") if answer is not None else None


CONFIGURE_FAILURE_STATUS: dict[ConfigureOutcome, tuple[int, dict[str, Any]]] = {
    ConfigureOutcome.INVALID_INPUT: (HTTPStatus.BAD_REQUEST, {}),
    ConfigureOutcome.KEY_REFUSED: (HTTPStatus.UNAUTHORIZED, {"auth_required": True}),
    ConfigureOutcome.UNREACHABLE: (HTTPStatus.BAD_GATEWAY, {}),
    ConfigureOutcome.FAILED: (HTTPStatus.BAD_GATEWAY, {}),
}


# -- the event stream -------------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class _EventStream:
    """Serials waiting to be written to one SSE client."""

    service: ThermostatService
    pending: deque[str] = field(default_factory=deque)
    closed: bool = False
    _wake: Wakeup = field(default_factory=Wakeup)

    def on_event(self, event: ServiceEvent) -> None:
        if event.kind is not EventKind.STATE or self.closed:
            return
        if len(self.pending) >= SSE_MAX_PENDING:
            _LOGGER.debug("An event stream client stopped reading; closing it so it reconnects")
            self.close()
            return
        self.pending.append(event.serial)
        self._wake.set()

    def close(self) -> None:
        self.closed = True
        self._wake.set()

    async def wait(self, timeout: float) -> bool:
        """Wait for events or close; False when the timeout elapsed first."""
        return await self._wake.wait(timeout)


# -- the API ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Route:
    """One control API endpoint at its spec path (relative to `{control_url}`)."""

    method: str
    path: str
    name: str
    handler: ControlHandler
    admin: bool = False
    """Pairs or reconfigures devices: the host serves it to administrators only."""


def _known_keys(record: DeviceRecord | None) -> list[str | None]:
    """Return the keys to try for a thermostat that contacted this server from that address.

    First the password of its Basic credentials (the CGI's key), then its serial (the CGI's
    fallback key); no key for a thermostat never seen (its CGI may not ask for one).
    """
    if record is None:
        return [None]
    return [key for key in (record.credential, record.serial) if key]


def _serial_hint(api_key: object) -> str | None:
    """Return a given api_key that looks like a serial (the spec's retry), uppercased.

    It is uppercased as the CGI's hostname is.
    """
    if isinstance(api_key, str) and SERIAL_RE.fullmatch(key := api_key.strip()):
        return key.upper()
    return None


class ControlApi:
    """The control API's handlers; `provider` finds the running service for a request."""

    def __init__(
        self,
        provider: ServiceProvider,
        *,
        network: LocalNetwork | None = None,
        keepalive: float = SSE_KEEPALIVE_SECONDS,
    ) -> None:
        """Initialize from a service provider, a local network and an event-stream keepalive."""
        self._provider = provider
        self.network = network or LocalNetwork()
        self.keepalive = keepalive
        self._streams: set[_EventStream] = set()
        self.routes = (
            Route("GET", "/health", "health", self.health),
            Route("GET", "/status", "status", self.status),
            Route("GET", "/api/devices", "devices", self.devices),
            Route("POST", "/api/register", "register", self.register, admin=True),
            Route("POST", "/command", "command", self.command),
            Route("POST", "/notify-device", "notify_device", self.notify_device),
            Route("POST", "/api/scan-network", "scan_network", self.scan_network, admin=True),
            Route(
                "POST",
                "/api/configure-device",
                "configure_device",
                self.configure_device,
                admin=True,
            ),
            Route("GET", "/api/events", "events", self.events),
        )

    def handler(self, route: Route) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        """Return the aiohttp handler of a route.

        It finds the service and turns bad input into 400s.
        """

        async def handle(request: web.Request) -> web.StreamResponse:
            service = self._provider(request)
            if service is None:
                return _refuse(request, 503, "Thermostat Cloud is not running")
            try:
                return await route.handler(service, request)
            except BadRequestError as err:
                return _refuse(request, 400, err.message, err.detail)

        return handle

    def close_streams(self, service: ThermostatService | None = None) -> None:
        """End the event streams (of one service, or all): unload and shutdown."""
        for stream in tuple(self._streams):
            if service is None or stream.service is service:
                stream.close()

    # -- reading ----------------------------------------------------------------------------

    async def health(self, service: ThermostatService, request: web.Request) -> web.Response:
        """`GET /health`: the service is running."""
        return web.json_response({"status": "ok"})

    async def status(self, service: ThermostatService, request: web.Request) -> web.Response:
        """`GET /status?serial=`: one device's status record."""
        serial = request.query.get("serial", "").strip()
        if not serial:
            return _refuse(request, 400, "Serial parameter required")
        if not service.is_known(serial):
            return _refuse(request, 404, "Device not found")
        return web.json_response(status_record(service, serial))

    async def devices(self, service: ThermostatService, request: web.Request) -> web.Response:
        """`GET /api/devices`: every known device."""
        return web.json_response(device_list(service))

    # -- pairing ----------------------------------------------------------------------------

    async def register(self, service: ThermostatService, request: web.Request) -> web.Response:
        """`POST /api/register`: claim the code a thermostat shows (the one pairing path)."""

        def refused(message: str) -> web.Response:
            _LOGGER.debug("Register rejected: %s", message)
            return web.json_response({"success": False, "message": message}, status=400)

        try:
            body = await read_json_object(request)
        except BadRequestError as err:
            _LOGGER.debug("Register body refused: %s", for_log(err.detail))
            return refused(err.message)
        code, user_id = body.get("code"), body.get("userId")
        if not isinstance(code, str) or not code.strip():
            return refused("code is required: the 7 characters the thermostat shows")
        if user_id is not None and (not isinstance(user_id, str) or not user_id.strip()):
            return refused("userId must be a non-empty string")
        result = await service.async_register(code, user_id)
        if result.outcome is RegisterOutcome.MALFORMED:
            return refused("code must be exactly 7 letters or digits")
        if not result.success:
            message = REGISTER_FAILURES[result.outcome]
            _LOGGER.debug("Register of code failed: %s", message)
            return web.json_response({"success": False, "message": message})
        return web.json_response(
            {
                "success": True,
                "serial": result.serial,
                "message": f"Thermostat {result.serial} paired",
            }
        )

    # -- commands ---------------------------------------------------------------------------

    async def command(self, service: ThermostatService, request: web.Request) -> web.Response:
        """`POST /command`: one validated command through the command layer."""
        try:
            body = await read_json_object(request)
        except BadRequestError as err:
            _LOGGER.debug("Command refused: %s", for_log(err.detail))
            return _command_failure(ErrorCode.INVALID_VALUE, err.message)
        serial, name = body.get("serial"), body.get("command")
        try:
            if not isinstance(serial, str) or not serial.strip():
                raise CommandError(ErrorCode.INVALID_VALUE, "Serial required")
            if not isinstance(name, str) or name not in COMMANDS:
                raise CommandError(
                    ErrorCode.UNKNOWN_COMMAND,
                    f"Unknown command {name!r}; use one of {', '.join(COMMANDS)}",
                )
            if "value" not in body:
                raise CommandError(ErrorCode.INVALID_VALUE, f"{name} needs a value")
            result = COMMANDS[name](service.commands, serial.strip(), body["value"])
        except CommandError as err:
            _LOGGER.debug(
                "Command %s to %s refused: %s", for_log(name), for_log(serial), for_log(err.message)
            )
            return _command_failure(err.code, err.message)
        return web.json_response(result.response(f"{name} applied"))

    async def notify_device(self, service: ThermostatService, request: web.Request) -> web.Response:
        """`POST /notify-device`: push every stored bucket to the device's held connections."""
        body = await read_json_object(request)
        serial = body.get("serial")
        if not isinstance(serial, str) or not serial.strip():
            return _refuse(request, 400, "Serial required")
        if not service.is_known(serial.strip()):
            return _refuse(request, 404, "Device not found")
        notified = service.notify_device(serial.strip())
        return web.json_response({"success": True, "subscribers_notified": notified})

    # -- finding and configuring thermostats -----------------------------------------------------

    async def scan_network(self, service: ThermostatService, request: web.Request) -> web.Response:
        """`POST /api/scan-network`: probe the /24 of `api_origin` for thermostats."""
        try:
            result = await scan_thermostats(service, self.network)
        except ScanError as err:
            return _refuse(request, 400, err.message, err.detail)
        return web.json_response(
            {"devices": [found.as_json() for found in result.devices], "subnet": result.subnet}
        )

    async def configure_device(
        self, service: ThermostatService, request: web.Request
    ) -> web.Response:
        """`POST /api/configure-device`: point a thermostat's cloud URL at this server."""
        try:
            body = await read_json_object(request)
        except BadRequestError as err:
            _LOGGER.debug("Configure device: %s", err.message)
            return web.json_response({"success": False, "error": err.message}, status=400)
        result = await configure_thermostat(
            service, self.network, body.get("ip"), body.get("api_key")
        )
        if result.success:
            return web.json_response({"success": True, "device_name": result.device_name})
        status, extra = CONFIGURE_FAILURE_STATUS[result.outcome]
        return web.json_response({"success": False, **extra, "error": result.error}, status=status)

    # -- events -------------------------------------------------------------------------------

    async def events(self, service: ThermostatService, request: web.Request) -> web.StreamResponse:
        """`GET /api/events`: one unnamed SSE message per processed state change.

        Subscribed before the headers go out, so a change made right after the client sees
        them is delivered; comment lines keep idle proxies from closing the stream.
        """
        stream = _EventStream(service)
        remove = service.events.listen(stream.on_event)
        self._streams.add(stream)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        try:
            await response.prepare(request)
            while not stream.closed:
                if not stream.pending and not await stream.wait(self.keepalive):
                    await response.write(b": keep-alive\n\n")
                    continue
                batch = b""
                while stream.pending and not stream.closed:
                    serial = stream.pending.popleft()
                    batch += f"data: {json.dumps({'serial': serial})}\n\n".encode()
                if batch:
                    await response.write(batch)
            await response.write_eof()
        except ConnectionError:
            _LOGGER.debug("Event stream client %s went away", request.remote)
        finally:
            remove()
            self._streams.discard(stream)
        return response


def create_control_app(api: ControlApi) -> web.Application:
    """Create the control API at the spec's bare paths (the compatibility listener)."""
    app = web.Application(middlewares=[json_errors])
    for route in api.routes:
        app.router.add_route(route.method, route.path, api.handler(route))
    return app


class ControlListener:
    """The compatibility listener: the control API on its own port with no authentication."""

    def __init__(self, service: ThermostatService, network: LocalNetwork | None = None) -> None:
        """Initialize the listener from a service and an optional local network."""
        self.service = service
        self.api = ControlApi(lambda _: service, network=network)
        self._listener = PortListener(
            service.config.request_timeout, service.config.idle_connection_timeout
        )

    async def async_start(self, host: str | None, port: int) -> None:
        """Listen; raises OSError when the port cannot be bound."""
        await self._listener.async_start(create_control_app(self.api), host, port)

    @property
    def bound_port(self) -> int | None:
        """The port the listener is bound to (useful with port 0)."""
        return self._listener.bound_port

    async def async_stop(self, *_: Any) -> None:
        """End event streams and release the port; safe to call twice."""
        self.api.close_streams()
        await self._listener.async_stop()
