"""The hosted API (`{base_url}/api/v1`): plain aiohttp handlers behind `svc_` API keys.

One dispatcher handles every path under the prefix, so that every response, 401, 404 and 429
included, has the same JSON shape and rate-limit headers. Where the spec says "not shown",
docs/hosted-api.md gives the decisions.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
import logging
import math
from pathlib import Path
from typing import Any

from aiohttp import web

from ..core import (
    Access,
    Author,
    CommandError,
    CommandResult,
    DeviceSummary,
    ErrorCode,
    ThermostatService,
    ThermostatState,
    as_number,
)
from ..http import BadRequestError, Route, read_json_object
from ..model import ApiKey, Clock, Scope, SystemClock, bucket_key, for_log
from .rate_limits import Quota, RateLimiter

_LOGGER = logging.getLogger(__name__)

API_PREFIX = "/api/v1"
KEY_REQUESTS_PER_MINUTE = 20
USER_REQUESTS_PER_MINUTE = 100
ANONYMOUS_REQUESTS_PER_MINUTE = 20
OPENAPI_DOCUMENT = Path(__file__).parent / "openapi" / "hosted-api.json"

# Mode names of `POST .../mode`: the hosted service's own (`heat-cool` for range), the
# thermostat's (`range`, `emergency`) and `auto`, which its documentation also uses.
HOSTED_MODES = ("heat", "cool", "heat-cool", "range", "off", "emergency", "auto")
# `shared.auto_away` as the hosted service's clients read it: 0 = home, 2 = away.
AUTO_AWAY_HOME = 0
AUTO_AWAY_AWAY = 2

type Handler = Callable[[HostedApi, ApiCall], Awaitable[web.Response]]


class ApiError(Exception):
    """A refused request: answered with `{"error": message, **extra}`."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        detail: str | None = None,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.detail = detail or message
        self.extra = extra or {}
        self.headers = headers or {}

    def response(self) -> web.Response:
        return web.json_response(
            {"error": self.message, **self.extra}, status=self.status, headers=self.headers
        )


@dataclass(frozen=True, slots=True)
class Operation(Route[Handler]):
    """One operation of the hosted API: its path is a template under `/api/v1`."""

    scope: Scope | None = field(kw_only=True)
    """Scope the key needs; None for the public document route (no key)."""


ROUTES: list[Operation] = []
"""Every operation, in the order of the OpenAPI document (the one routing table)."""


def route(method: str, path: str, scope: Scope | None) -> Callable[[Handler], Handler]:
    """Register a handler in ROUTES."""

    def register(handler: Handler) -> Handler:
        ROUTES.append(Operation(method, path, handler, scope=scope))
        return handler

    return register


@dataclass(slots=True)
class ApiCall:
    """One authorised request on its way to a handler."""

    request: web.Request
    params: dict[str, str]
    service_or_none: ThermostatService | None
    key_or_none: ApiKey | None

    async def json(self) -> dict[str, Any]:
        """Return the JSON object body (read after access checks: an unknown device is a 404)."""
        return await read_json_object(self.request)

    @property
    def service(self) -> ThermostatService:
        """The running service (the dispatcher answers 503 before a handler without it)."""
        assert self.service_or_none is not None
        return self.service_or_none

    @property
    def key(self) -> ApiKey:
        """The caller's key (the dispatcher answers 401 before a keyed handler without it)."""
        assert self.key_or_none is not None
        return self.key_or_none


def iso_time(ms: int) -> str:
    """ISO 8601 in UTC with milliseconds: `2027-01-15T08:00:00.000Z`."""
    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def to_celsius(value: float, scale: str) -> float:
    """Convert a temperature in the given scale to Celsius (the command rounds to 0.5 °C)."""
    if scale != "F":
        return value
    celsius = (value - 32) * 5 / 9
    # 1e308 °F overflows when multiplied first: it is then out of range, not "not a number".
    return celsius if math.isfinite(celsius) else (value - 32) / 9 * 5


def _scale(body: dict[str, Any]) -> str:
    scale = body.get("scale", "C")
    if not isinstance(scale, str) or scale.upper() not in ("C", "F"):
        raise ApiError(400, "scale must be C or F")
    return scale.upper()


def command_response(result: CommandResult, message: str) -> web.Response:
    """Return the spec's command response."""
    return web.json_response(result.response(message))


def client_view(state: ThermostatState) -> dict[str, Any]:
    """Return the fields the hosted service's clients read in `shared` (status response only)."""
    view: dict[str, Any] = {"auto_away": AUTO_AWAY_AWAY if state.away else AUTO_AWAY_HOME}
    if (fan_mode := state.fan_mode) is not None:
        view["fan_mode"] = fan_mode
    return view


class HostedApi:
    """Dispatcher, authentication and rate limits of the hosted API.

    Lives as long as the host (its views cannot be unregistered), the service looked up per
    request, so quotas survive a reload of the entry.
    """

    def __init__(
        self,
        *,
        is_user_active: Callable[[str], Awaitable[bool]] | None = None,
        clock: Clock | None = None,
    ) -> None:
        self._is_user_active = is_user_active
        self._clock: Clock = clock or SystemClock()
        self.key_limits = RateLimiter(KEY_REQUESTS_PER_MINUTE)
        self.user_limits = RateLimiter(USER_REQUESTS_PER_MINUTE)
        self.anonymous_limits = RateLimiter(ANONYMOUS_REQUESTS_PER_MINUTE)
        self._document: bytes | None = None

    # -- dispatch -----------------------------------------------------------------------------

    async def handle(
        self, request: web.Request, service: ThermostatService | None, path: str
    ) -> web.Response:
        """Answer one request for `/api/v1/{path}`; never raises, never a 500 for bad input."""
        now = (service.clock if service is not None else self._clock).now_ms()
        candidates = [(r, p) for r in ROUTES if (p := r.match(path)) is not None]
        matched = next(((r, p) for r, p in candidates if r.method == request.method), None)
        public = matched is not None and matched[0].scope is None

        key: ApiKey | None = None
        refusal: ApiError | None = None
        if not public:
            if service is None:
                refusal = ApiError(503, "Thermostat Cloud is not running")
            elif (key := await self._authenticate(request, service)) is None:
                refusal = ApiError(401, "Unauthorized", detail="missing or unknown API key")

        quota, over = self._count(request, key, now)
        try:
            if over is not None:
                raise ApiError(
                    429,
                    "Rate limit exceeded",
                    extra={"retryAfter": iso_time(over.reset_ms)},
                    headers={"Retry-After": str(max(1, math.ceil((over.reset_ms - now) / 1000)))},
                )
            if refusal is not None:
                raise refusal
            if key is not None and service is not None:
                service.api_keys.touch(key)
            if matched is None:
                if candidates:
                    allowed = ", ".join(sorted({r.method for r, _ in candidates}))
                    raise ApiError(405, "Method not allowed", headers={"Allow": allowed})
                raise ApiError(404, "Not found")
            operation, params = matched
            if (
                key is not None
                and operation.scope is not None
                and not key.has_scope(operation.scope)
            ):
                raise ApiError(
                    403,
                    "Insufficient scope",
                    detail=f"key {key.key_id} lacks the {operation.scope} scope",
                    extra={"requiredScope": str(operation.scope)},
                )
            call = ApiCall(request, params, service, key)
            if key is not None and service is not None:
                # Its writes are the key's (changes.py): the key's name is who made them.
                with service.commands.acting_as(Author.api(key.name)):
                    response = await operation.handler(self, call)
            else:
                response = await operation.handler(self, call)
        except ApiError as err:
            _LOGGER.debug(
                "Hosted API refused %s %s from %s: %s %s",
                request.method,
                for_log(request.path),
                request.remote,
                err.status,
                for_log(err.detail),
            )
            response = err.response()
        except BadRequestError as err:
            _LOGGER.debug(
                "Hosted API refused %s %s from %s: 400 %s",
                request.method,
                for_log(request.path),
                request.remote,
                for_log(err.detail),
            )
            response = ApiError(400, err.message).response()
        except CommandError as err:
            _LOGGER.debug(
                "Hosted API refused %s %s from %s: %s",
                request.method,
                for_log(request.path),
                request.remote,
                for_log(err.message),
            )
            response = self._command_error(err).response()
        response.headers.update(
            {
                "X-RateLimit-Limit": str(quota.limit),
                "X-RateLimit-Remaining": str(max(0, quota.remaining)),
                "X-RateLimit-Reset": iso_time(quota.reset_ms),
            }
        )
        return response

    async def _authenticate(
        self, request: web.Request, service: ThermostatService
    ) -> ApiKey | None:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        key = service.api_keys.authenticate(token.strip())
        if key is None:
            return None
        if self._is_user_active is not None and not await self._is_user_active(key.owner_id):
            _LOGGER.debug("API key %s belongs to a removed or inactive user", key.key_id)
            return None
        return key

    def _count(
        self, request: web.Request, key: ApiKey | None, now: int
    ) -> tuple[Quota, Quota | None]:
        """Count the request; return the quota nearest to running out, and an exhausted one."""
        if key is not None:
            limits = [(self.key_limits, key.key_id), (self.user_limits, key.owner_id)]
        else:
            limits = [(self.anonymous_limits, request.remote or "unknown")]
        before = [limiter.quota(principal, now) for limiter, principal in limits]
        exhausted = [q for q in before if q.exhausted]
        if exhausted:
            over = max(exhausted, key=lambda q: q.reset_ms)
            return over, over
        after = [limiter.hit(principal, now) for limiter, principal in limits]
        return min(after, key=lambda q: q.remaining), None

    @staticmethod
    def _command_error(err: CommandError) -> ApiError:
        if err.code in (ErrorCode.DEVICE_NOT_FOUND, ErrorCode.NOT_PAIRED):
            return ApiError(404, "Device not found", detail=err.message)
        return ApiError(400, err.message)

    # -- devices ------------------------------------------------------------------------------

    @staticmethod
    def _summary(device: DeviceSummary) -> dict[str, Any]:
        return {"id": device.device_id, "serial": device.serial, "name": device.name}

    @staticmethod
    def _device(call: ApiCall) -> DeviceSummary:
        """Return the `{deviceId}` of the path, if the key may reach it."""
        device = call.service.clients.paired_device(call.params["deviceId"])
        if device is None:
            raise ApiError(
                404, "Device not found", detail=f"no paired device {call.params['deviceId']}"
            )
        if not call.key.allows_serial(device.serial):
            raise ApiError(
                403,
                "Access denied to this device",
                detail=f"key {call.key.key_id} is restricted to other devices",
            )
        return device

    # -- operations ---------------------------------------------------------------------------

    @route("GET", "/openapi.json", None)
    async def _openapi(self, call: ApiCall) -> web.Response:
        if self._document is None:
            self._document = await asyncio.get_running_loop().run_in_executor(
                None, OPENAPI_DOCUMENT.read_bytes
            )
        return web.Response(body=self._document, content_type="application/json")

    @route("GET", "/devices", Scope.READ)
    async def _devices(self, call: ApiCall) -> web.Response:
        devices = [
            {**self._summary(device), "accessType": access}
            for device, access in call.service.clients.devices_of(call.key)
        ]
        return web.json_response({"devices": devices})

    @route("GET", "/thermostat/{deviceId}/status", Scope.READ)
    async def _status(self, call: ApiCall) -> web.Response:
        service, device = call.service, self._device(call)
        state: dict[str, Any] = {}
        shared_key = bucket_key("shared", device.serial)
        for bucket in service.clients.buckets(device.serial):
            if bucket.key == shared_key:
                bucket.value.update(client_view(service.thermostat(device.serial)))
            state[bucket.key] = {
                "object_revision": bucket.revision,
                "object_timestamp": bucket.timestamp,
                "value": bucket.value,
            }
        return web.json_response({"device": self._summary(device), "state": state})

    @route("POST", "/thermostat/{deviceId}/temperature", Scope.WRITE)
    async def _temperature(self, call: ApiCall) -> web.Response:
        device, body = self._device(call), await call.json()
        value = as_number(body.get("value"), "Temperature value")
        scale = _scale(body)
        mode = body.get("mode")
        if mode not in ("heat", "cool"):
            raise ApiError(400, "mode must be heat or cool")
        result = call.service.commands.set_temperature(
            device.serial, to_celsius(value, scale), mode
        )
        target = call.service.thermostat(device.serial).target_temperature
        return command_response(result, f"Temperature set to {target} °C ({mode})")

    @route("POST", "/thermostat/{deviceId}/temperature/range", Scope.WRITE)
    async def _temperature_range(self, call: ApiCall) -> web.Response:
        device, body = self._device(call), await call.json()
        low = as_number(body.get("low"), "low")
        high = as_number(body.get("high"), "high")
        scale = _scale(body)
        try:
            result = call.service.commands.set_temperature_range(
                device.serial, to_celsius(low, scale), to_celsius(high, scale), switch_to_range=True
            )
        except CommandError as err:
            # The command refuses every range whose ends were sent the wrong way round (or
            # meet at the thermostat's 0.5 °C); the first is named as the request names them.
            if low >= high:
                raise ApiError(400, "low must be less than high", detail=err.message) from err
            raise
        state = call.service.thermostat(device.serial)
        return command_response(
            result,
            f"Temperature range set to {state.target_temperature_low} to "
            f"{state.target_temperature_high} °C",
        )

    @route("POST", "/thermostat/{deviceId}/mode", Scope.WRITE)
    async def _mode(self, call: ApiCall) -> web.Response:
        device, body = self._device(call), await call.json()
        mode = body.get("mode")
        if mode not in HOSTED_MODES:
            raise ApiError(400, f"mode must be one of {', '.join(HOSTED_MODES)}")
        result = call.service.commands.set_mode(device.serial, mode)
        return command_response(
            result, f"Mode set to {call.service.thermostat(device.serial).mode}"
        )

    @route("POST", "/thermostat/{deviceId}/away", Scope.WRITE)
    async def _away(self, call: ApiCall) -> web.Response:
        device, body = self._device(call), await call.json()
        away = body.get("away")
        if not isinstance(away, bool):
            raise ApiError(400, "away must be true or false")
        result = call.service.commands.set_away(device.serial, away)
        return command_response(result, "Home set to away" if away else "Home set to home")

    @route("POST", "/thermostat/{deviceId}/fan", Scope.WRITE)
    async def _fan(self, call: ApiCall) -> web.Response:
        device, body = self._device(call), await call.json()
        mode, duration = body.get("mode"), body.get("duration")
        result = call.service.commands.set_fan(device.serial, mode=mode, duration=duration)
        if duration is not None:
            return command_response(result, f"Fan on for {int(duration)} seconds, then auto")
        return command_response(result, f"Fan mode set to {mode}")

    @route("POST", "/thermostat/{deviceId}/lock", Scope.WRITE)
    async def _lock(self, call: ApiCall) -> web.Response:
        device, body = self._device(call), await call.json()
        result = call.service.commands.set_temperature_lock(
            device.serial,
            body.get("enabled"),
            body.get("pin_hash"),
            body.get("temp_min"),
            body.get("temp_max"),
        )
        state = "enabled" if body.get("enabled") else "disabled"
        return command_response(result, f"Temperature lock {state}")

    @route("GET", "/thermostat/{deviceId}/schedule", Scope.READ)
    async def _schedule(self, call: ApiCall) -> web.Response:
        service, device = call.service, self._device(call)
        return web.json_response(
            {
                "device": self._summary(device),
                "schedule": service.thermostat(device.serial).schedule,
            }
        )

    @route("PUT", "/thermostat/{deviceId}/schedule", Scope.WRITE)
    async def _put_schedule(self, call: ApiCall) -> web.Response:
        device, body = self._device(call), await call.json()
        if "schedule" not in body:
            raise ApiError(400, "schedule is required")
        result = call.service.commands.set_schedule(
            device.serial, body["schedule"], turn_off_learning=body.get("turn_off_learning")
        )
        return command_response(result, "Schedule updated")

    @route("DELETE", "/thermostat/{deviceId}", Scope.WRITE)
    async def _delete(self, call: ApiCall) -> web.Response:
        service, key, device = call.service, call.key, self._device(call)
        if service.clients.access(key.owner_id, device.serial) is not Access.OWNER:
            raise ApiError(
                403,
                "Only device owners can delete devices",
                detail=f"key {key.key_id} sees {device.serial} as shared",
            )
        if service.pairing.unpair(device.serial):  # answered once it is on disk
            await service.async_flush()
        return web.json_response(
            {
                "success": True,
                "message": "Device removed from the account and all shares revoked; it keeps "
                "its settings and can be paired again with a new code",
            }
        )
