"""The self-hosted control API: plain aiohttp handlers, mounted twice.

The host serves them behind its own authentication; the optional `ControlListener` serves
them at the spec's bare paths without, for existing third-party clients. Where the spec says
"not shown", docs/control-api.md gives the decisions.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
import json
import logging
from typing import Any

from aiohttp import web

from ..core import (
    Author,
    CommandError,
    CommandResult,
    CommandsFacet,
    ErrorCode,
    EventKind,
    ServiceEvent,
    ThermostatService,
)
from ..http import (
    BadRequestError,
    Handler,
    PortListener,
    Route,
    Wakeup,
    build_app,
    read_json_object,
    refuse,
)
from ..model import RegisterOutcome, UnstorableError, for_log
from ..provisioning import (
    ConfigureOutcome,
    LocalNetwork,
    ScanError,
    configure_thermostat,
    scan_thermostats,
)
from .status import commands_record, device_list, status_record

_LOGGER = logging.getLogger(__name__)

CONTROL_API = Author.api()
"""Who the control API's commands are by: it has no keys to name its clients."""
SSE_KEEPALIVE_SECONDS = 15.0
# A client this far behind is not reading: end its stream so it reconnects and re-reads status.
SSE_MAX_PENDING = 1000

type ServiceProvider = Callable[[web.Request], ThermostatService | None]
type ControlHandler = Callable[[ThermostatService, web.Request], Awaitable[web.StreamResponse]]
type CommandHandler = Callable[[CommandsFacet, str, Any], CommandResult]

# -- /command --------------------------------------------------------------------------------


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise CommandError(ErrorCode.INVALID_VALUE, f"{what} value must be an object")
    return value


def _temperature(commands: CommandsFacet, serial: str, value: Any) -> CommandResult:
    if isinstance(value, dict):
        return commands.set_temperature_range(serial, value.get("low"), value.get("high"))
    return commands.set_temperature(serial, value)


def _fan(commands: CommandsFacet, serial: str, value: Any) -> CommandResult:
    if isinstance(value, str):
        return commands.set_fan(serial, mode=value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CommandError(
            ErrorCode.INVALID_VALUE, "set_fan value must be on, auto, off or a number of seconds"
        )
    return commands.set_fan(serial, duration=value)


def _eco_temperatures(commands: CommandsFacet, serial: str, value: Any) -> CommandResult:
    fields = _object(value, "set_eco_temperatures")
    return commands.set_eco_temperatures(serial, fields.get("low"), fields.get("high"))


def _temperature_lock(commands: CommandsFacet, serial: str, value: Any) -> CommandResult:
    fields = _object(value, "set_temperature_lock")
    return commands.set_temperature_lock(
        serial,
        fields.get("enabled"),
        fields.get("pin_hash"),
        fields.get("temp_min"),
        fields.get("temp_max"),
        pin=fields.get("pin"),
    )


def _schedule(commands: CommandsFacet, serial: str, value: Any) -> CommandResult:
    """Set a schedule (it has `days`), or `{"schedule": {...}, "turn_off_learning": bool}`."""
    if isinstance(value, dict) and "schedule" in value and "days" not in value:
        return commands.set_schedule(
            serial, value["schedule"], turn_off_learning=value.get("turn_off_learning")
        )
    return commands.set_schedule(serial, value)


def _device_setting(commands: CommandsFacet, serial: str, value: Any) -> CommandResult:
    fields = _object(value, "set_device_setting")
    return commands.set_device_setting(serial, fields.get("name"), fields.get("value"))


# Each command's value shape is tabled in docs/control-api.md.
COMMANDS: dict[str, CommandHandler] = {
    "set_temperature": _temperature,
    "set_mode": lambda c, s, v: c.set_mode(s, v),
    "set_away": lambda c, s, v: c.set_away(s, v),
    "set_eco": lambda c, s, v: c.set_eco(s, v),
    "set_fan": _fan,
    "set_eco_temperatures": _eco_temperatures,
    "set_temperature_lock": _temperature_lock,
    "set_schedule": _schedule,
    "set_schedule_mode": lambda c, s, v: c.set_schedule_mode(s, v),
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
    commands: bool = False
    """Also stream `commands` events: what a thermostat has not confirmed (`?commands=true`)."""
    pending: deque[tuple[str, bool]] = field(default_factory=deque)
    """(serial, whether it is a `commands` event)."""
    closed: bool = False
    _wake: Wakeup = field(default_factory=Wakeup)

    def on_event(self, event: ServiceEvent) -> None:
        if self.closed or not (
            event.kind is EventKind.STATE or (self.commands and event.kind is EventKind.COMMANDS)
        ):
            return
        if len(self.pending) >= SSE_MAX_PENDING:
            _LOGGER.debug("An event stream client stopped reading; closing it so it reconnects")
            self.close()
            return
        self.pending.append((event.serial, event.kind is EventKind.COMMANDS))
        self._wake.set()

    def close(self) -> None:
        self.closed = True
        self._wake.set()

    async def wait(self, timeout: float) -> bool:
        """Wait for events or close; False when the timeout elapsed first."""
        return await self._wake.wait(timeout)


# -- the API ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ControlRoute(Route):
    """One control API endpoint at its spec path (relative to `{control_url}`)."""

    admin: bool = False
    """Pairs or reconfigures devices: the host serves it to administrators only."""


class ControlApi:
    """The control API's handlers; `provider` finds the running service for a request."""

    def __init__(
        self,
        provider: ServiceProvider,
        *,
        network: LocalNetwork,
        keepalive: float = SSE_KEEPALIVE_SECONDS,
    ) -> None:
        self._provider = provider
        self.network = network
        self.keepalive = keepalive
        self._streams: set[_EventStream] = set()
        serve = self._serve
        self.routes = (
            ControlRoute("GET", "/health", serve(self.health), "health"),
            ControlRoute("GET", "/status", serve(self.status), "status"),
            ControlRoute("GET", "/api/devices", serve(self.devices), "devices"),
            ControlRoute("POST", "/api/register", serve(self.register), "register", admin=True),
            ControlRoute("POST", "/command", serve(self.command), "command"),
            ControlRoute("POST", "/notify-device", serve(self.notify_device), "notify_device"),
            ControlRoute(
                "POST", "/api/scan-network", serve(self.scan_network), "scan_network", admin=True
            ),
            ControlRoute(
                "POST",
                "/api/configure-device",
                serve(self.configure_device),
                "configure_device",
                admin=True,
            ),
            ControlRoute("GET", "/api/events", serve(self.events), "events"),
        )

    def _serve(self, handler: ControlHandler) -> Handler:
        """Return the aiohttp handler of an endpoint: it finds the service, bad input is a 400."""

        async def handle(request: web.Request) -> web.StreamResponse:
            service = self._provider(request)
            if service is None:
                return refuse(request, 503, "Thermostat Cloud is not running")
            try:
                return await handler(service, request)
            except BadRequestError as err:
                return refuse(request, 400, err.message, err.detail)

        return handle

    def close_streams(self, service: ThermostatService | None = None) -> None:
        """End the event streams (of one service, or all): unload and shutdown."""
        for stream in tuple(self._streams):
            if service is None or stream.service is service:
                stream.close()

    # -- reading ----------------------------------------------------------------------------

    async def health(self, service: ThermostatService, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok"})

    async def status(self, service: ThermostatService, request: web.Request) -> web.Response:
        serial = request.query.get("serial", "").strip()
        if not serial:
            return refuse(request, 400, "Serial parameter required")
        if not service.devices.is_known(serial):
            return refuse(request, 404, "Device not found")
        return web.json_response(status_record(service, serial))

    async def devices(self, service: ThermostatService, request: web.Request) -> web.Response:
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
        result = service.pairing.register(code, user_id)
        if result.outcome in (RegisterOutcome.PAIRED, RegisterOutcome.EXPIRED):
            await service.async_flush()  # what the answer says survives a crash
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
            with service.commands.acting_as(CONTROL_API):
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
            return refuse(request, 400, "Serial required")
        if not service.devices.is_known(serial.strip()):
            return refuse(request, 404, "Device not found")
        notified = service.delivery.notify(serial.strip())
        return web.json_response({"success": True, "subscribers_notified": notified})

    # -- finding and configuring thermostats -----------------------------------------------------

    async def scan_network(self, service: ThermostatService, request: web.Request) -> web.Response:
        """`POST /api/scan-network`: probe the /24 of `api_origin` for thermostats."""
        try:
            result = await scan_thermostats(self.network, service.config.api_origin)
        except ScanError as err:
            return refuse(request, 400, err.message, err.detail)
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
            self.network,
            service.config.api_origin,
            body.get("ip"),
            body.get("api_key"),
            device_at=service.devices.record_at,
        )
        if result.success:
            return web.json_response({"success": True, "device_name": result.device_name})
        status, extra = CONFIGURE_FAILURE_STATUS[result.outcome]
        return web.json_response({"success": False, **extra, "error": result.error}, status=status)

    # -- events -------------------------------------------------------------------------------

    async def events(self, service: ThermostatService, request: web.Request) -> web.StreamResponse:
        """`GET /api/events`: one unnamed SSE message per processed state change.

        Subscribed before the headers go out, so a change right after them is not missed;
        comment lines keep idle proxies from closing the stream.
        """
        flag = request.query.get("commands", "false").lower()
        if flag not in ("true", "false", "1", "0"):
            raise BadRequestError("commands must be true or false")
        stream = _EventStream(service, commands=flag in ("true", "1"))
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
                    serial, commands = stream.pending.popleft()
                    if commands:
                        record = {"serial": serial, **commands_record(service, serial)}
                        batch += f"event: commands\ndata: {json.dumps(record)}\n\n".encode()
                    else:
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
    return build_app(api.routes, refused=(CommandError, UnstorableError))


class ControlListener:
    """The compatibility listener: the control API on its own port with no authentication."""

    def __init__(self, service: ThermostatService, network: LocalNetwork) -> None:
        self.service = service
        self.api = ControlApi(lambda _: service, network=network)
        self._listener = PortListener(
            service.config.request_timeout, service.config.idle_connection_timeout
        )

    async def async_start(self, host: str | None, port: int) -> None:
        await self._listener.async_start(create_control_app(self.api), host, port)

    @property
    def bound_port(self) -> int | None:
        return self._listener.bound_port

    async def async_stop(self, *_: Any) -> None:
        """End event streams and release the port; safe to call twice."""
        self.api.close_streams()
        await self._listener.async_stop()
