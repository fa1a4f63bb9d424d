"""A HEAD request on the device port is answered with headers only, never a body.

A client reads whatever follows a HEAD answer's blank line as the start of the next answer,
so a body there breaks every answer after it on the connection. A fuzzer found one: a HEAD
that aiohttp could not parse (`HEAD /svc/weather/v1?query=` without a Host header) got the
400's reason as a plain-text body.
"""

from __future__ import annotations

import pytest

from custom_components.thermostat_cloud.server import DeviceServer
from thermostat_sim import basic_auth

from .conftest import SERIAL
from .test_malformed_http import exchange, status_lines

AUTH = f"Authorization: {basic_auth(SERIAL)}\r\n"
# Every device route, as firmware or a client would name it, and paths nothing serves.
DEVICE_PATHS = [
    "/svc/weather/v1?query=",
    "/svc/weather/v1?query=07719,US",
    "/weather/v1?query=07719,US",
    "/svc/entry",
    "/nest/entry",
    "/svc/passphrase",
    "/svc/passphrase/status",
    "/svc/ping",
    "/svc/pro_info",
    "/svc/pro_info/ABC123",
    "/svc/upload",
    "/svc/transport",
    "/svc/transport/v7/subscribe",
    "/svc/transport/put",
    f"/svc/transport/device/{SERIAL}",
    f"/nest/transport/v7/device/device.{SERIAL}",
    "/no/such/path",
]


def body_after_head(answer: bytes) -> bytes:
    """Return what the server sent after the first answer's blank line."""
    head, separator, rest = answer.partition(b"\r\n\r\n")
    assert separator, f"no complete answer head: {answer!r}"
    assert head.startswith(b"HTTP/1."), head
    return rest


@pytest.mark.parametrize("path", DEVICE_PATHS)
async def test_a_head_request_is_answered_with_headers_only(
    device_server: DeviceServer, path: str
) -> None:
    """Whatever the route answers a HEAD, nothing follows the answer's head."""
    request = f"HEAD {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{AUTH}Connection: close\r\n\r\n"
    answer = await exchange(device_server.bound_port, request.encode())

    assert body_after_head(answer) == b""


@pytest.mark.parametrize(
    "request_bytes",
    [
        # the fuzzer's request: HTTP/1.1 without a Host header does not parse
        b"HEAD /svc/weather/v1?query= HTTP/1.1\r\nConnection: close\r\n\r\n",
        b"HEAD /svc/weather/v1?query= HTTP/1.1\r\n\r\n",
        b"HEAD /svc/entry HTTP/1.1\r\nHost: x\rX-Odd: 1\r\n\r\n",
        b"HEAD /svc/ping HTTP/9.Z\r\nHost: x\r\n\r\n",
    ],
    ids=["no host, close", "no host", "bare carriage return", "unknown version"],
)
async def test_a_head_request_that_does_not_parse_gets_a_400_without_a_body(
    device_server: DeviceServer, request_bytes: bytes
) -> None:
    """A 400 for a HEAD aiohttp could not parse carries no body, and the connection closes."""
    answer = await exchange(device_server.bound_port, request_bytes)

    assert status_lines(answer) == [b"HTTP/1.0 400 Bad Request"]
    assert body_after_head(answer) == b""


async def test_a_head_keeps_the_next_answer_on_the_connection_whole(
    device_server: DeviceServer,
) -> None:
    """A HEAD then a GET on one connection: the GET's answer starts right after the HEAD's."""
    request = (
        f"HEAD /svc/weather/v1?query=07719,US HTTP/1.1\r\nHost: 127.0.0.1\r\n{AUTH}\r\n"
        f"GET /svc/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n{AUTH}Connection: close\r\n\r\n"
    ).encode()
    answer = await exchange(device_server.bound_port, request)

    second = body_after_head(answer)
    assert second.startswith(b"HTTP/1.1 200 OK\r\n"), second
    assert b'"status": "ok"' in body_after_head(second)


async def test_a_get_that_does_not_parse_gets_a_bodyless_400_too(
    device_server: DeviceServer,
) -> None:
    """A GET that does not parse is answered 400 without a body too: the status says it."""
    answer = await exchange(device_server.bound_port, b"GET /svc/entry HTTP/1.1\r\n\r\n")

    assert status_lines(answer) == [b"HTTP/1.0 400 Bad Request"]
    assert b"Content-Length: 0" in answer
    assert body_after_head(answer) == b""
