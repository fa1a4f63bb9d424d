"""HTTP helpers the three surfaces share: bounded bodies, storable JSON, the error shape."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from http import HTTPStatus
import json
import logging
import math
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web
from aiohttp.typedefs import Middleware

from ..model import ensure_storable, for_log

_LOGGER = logging.getLogger(__name__)

MAX_BODY_BYTES = 256 * 1024

type Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class BadRequestError(Exception):
    """A malformed request: answered 400 with the surface's error body."""

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail or message


def error_response(status: int, message: str) -> web.Response:
    """`{"error": message}` with a status, the spec's error shape."""
    return web.json_response({"error": message}, status=status)


async def read_body(request: web.Request, cap: int = MAX_BODY_BYTES) -> bytes:
    """Read the request body, refusing more than `cap` bytes without buffering it all."""
    if request.content_length is not None and request.content_length > cap:
        raise BadRequestError("Request body too large", f"{request.content_length} bytes > {cap}")
    data = bytearray()
    while chunk := await request.content.read(65536):
        data += chunk
        if len(data) > cap:
            raise BadRequestError("Request body too large", f"more than {cap} bytes")
    return bytes(data)


# What a stored value may be: the host's storage (orjson) cannot write integers beyond
# 64 bits, nesting deeper than 255 levels or unpaired UTF-16 surrogates ("\ud800"), and one
# such value would stop every later save.
JSON_MAX_DEPTH = 32
JSON_INT_MIN = -(2**63)
JSON_INT_MAX = 2**64 - 1


def _reject_constant(name: str) -> Any:
    """NaN and Infinity are not JSON; stored, they would reach firmware as invalid JSON."""
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    """Parse a JSON number with a fraction or exponent; 1e400 would otherwise become Infinity."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")
    return value


def _storable_int(text: str) -> int:
    value = int(text)
    if not JSON_INT_MIN <= value <= JSON_INT_MAX:
        raise ValueError(f"integer of {len(text)} digits is out of range")
    return value


def _too_deep(data: Any) -> bool:
    """Whether containers nest deeper than JSON_MAX_DEPTH (iterative: no recursion limit)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = list(value.values())
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > JSON_MAX_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def parse_json(raw: bytes | str) -> Any:
    """Parse a request body into values that can be stored and sent back to firmware.

    Every JSON body of the three surfaces is read here: the one place unstorable input is
    turned away (ValueError, a 400).
    """
    try:
        data = json.loads(
            raw,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
            parse_int=_storable_int,
        )
    except RecursionError as err:  # nesting deeper than the parser's own stack
        raise ValueError("nested too deeply") from err
    if _too_deep(data):
        raise ValueError(f"nested deeper than {JSON_MAX_DEPTH} levels")
    ensure_storable(data)
    return data


async def read_json_object(request: web.Request) -> dict[str, Any]:
    """Read a JSON object body, else BadRequestError."""
    raw = await read_body(request)
    try:
        data = parse_json(raw)
    except ValueError as err:
        raise BadRequestError("Invalid JSON body", str(err)) from err
    if not isinstance(data, dict):
        raise BadRequestError("JSON body must be an object")
    return data


def form_fields(query: str) -> dict[str, str]:
    """Return the fields of a form body or query string; BadRequestError unless UTF-8."""
    try:
        return dict(parse_qsl(query, keep_blank_values=True, errors="strict"))
    except UnicodeDecodeError as err:
        raise BadRequestError("Invalid form body", str(err)) from err


def refuse(request: web.Request, status: int, message: str, detail: object = None) -> web.Response:
    """`{"error": message}`, and a debug line saying which request was refused and why."""
    _LOGGER.debug(
        "Rejected %s %s from %s: %s",
        request.method,
        for_log(request.path),
        request.remote,
        for_log(detail or message),
    )
    return error_response(status, message)


def json_errors(*refused: type[Exception]) -> Middleware:
    """Return the middleware that makes every error `{"error": ...}`; `refused` ones are 400s."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except BadRequestError as err:
            return refuse(request, 400, err.message, err.detail)
        except refused as err:
            return refuse(request, 400, str(err))
        except web.HTTPException as err:
            if err.status >= HTTPStatus.BAD_REQUEST:
                return error_response(err.status, err.reason)
            raise
        except ConnectionError:
            raise
        except Exception:
            _LOGGER.exception("Unexpected error in %s %s", request.method, for_log(request.path))
            return error_response(500, "Internal server error")

    return middleware
