"""Malformed HTTP on the device port: a 400 and at most a debug line, never an error.

Any device on the LAN can send anything to the device port. aiohttp answers what it cannot
parse 400 itself but logs each such request as an error with a traceback, so one device could
flood Home Assistant's log; here such requests cost a debug line, and a bug of our own
handlers is still logged as an error.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from custom_components.thermostat_cloud.server import DeviceServer
from custom_components.thermostat_cloud.server.device import api as device_api
from thermostat_sim import basic_auth

from .conftest import SERIAL


async def exchange(port: int | None, data: bytes) -> bytes:
    """Send raw bytes to the port on 127.0.0.1; return all it answers until it closes."""
    assert port is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()
        await writer.wait_closed()


def status_lines(answer: bytes) -> list[bytes]:
    """Return the status line of every response in what the server sent."""
    return [line for line in answer.split(b"\r\n") if line.startswith(b"HTTP/1.")]


def loud_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """Return the records at WARNING or above from aiohttp or this integration."""
    return [
        record
        for record in caplog.records
        if record.levelno >= logging.WARNING
        and record.name.startswith(("aiohttp", "custom_components"))
    ]


PUT_HEAD = (
    b"POST /svc/transport/put HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
    + basic_auth(SERIAL).encode()
    + b"\r\nContent-Type: application/json\r\n"
)
# Each answered with one 400 and the connection closed.
MALFORMED = {
    "invalid method": b"FETCH\x01 /svc/entry HTTP/1.1\r\nHost: x\r\n\r\n",
    "header line ending in a bare CR": b"GET /svc/entry HTTP/1.1\r\nHost: x\rX-Odd: 1\r\n\r\n",
    "header line without its line feed": b"GET /svc/entry HTTP/1.1\r\nX-Odd: 1\r\r\n\r\n",
    "header over 8 KiB": b"GET /svc/entry HTTP/1.1\r\nX-Long: " + b"a" * 20_000 + b"\r\n\r\n",
    "request line over 8 KiB": b"GET /svc/entry?" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n",
    "garbage request line": b"\x00\x7f garbage \xff\r\n\r\n",
    "TLS handshake": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + b"\x00" * 32,
    "unknown HTTP version": b"GET /svc/entry HTTP/9.Z\r\nHost: x\r\n\r\n",
    "chunk size that is no number": (
        PUT_HEAD + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
    ),
    "both body lengths": (
        PUT_HEAD + b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
    ),
}


@pytest.mark.parametrize("request_bytes", MALFORMED.values(), ids=MALFORMED.keys())
async def test_malformed_request_is_answered_400_with_a_debug_line(
    device_server: DeviceServer, caplog: pytest.LogCaptureFixture, request_bytes: bytes
) -> None:
    """A request HTTP cannot parse gets a 400, and the log at most a debug line naming the peer."""
    caplog.set_level(logging.DEBUG)

    answer = await exchange(device_server.bound_port, request_bytes)

    assert status_lines(answer) == [b"HTTP/1.0 400 Bad Request"], answer[:200]
    assert not loud_records(caplog), [r.getMessage()[:200] for r in loud_records(caplog)]
    assert any(
        "malformed request from 127.0.0.1" in record.getMessage()
        and record.levelno == logging.DEBUG
        and record.exc_info is None
        for record in caplog.records
    )


async def test_malformed_request_after_a_good_one_on_the_same_connection(
    device_server: DeviceServer, caplog: pytest.LogCaptureFixture
) -> None:
    """A kept-alive connection's good request is answered, then its malformed one gets a 400.

    (aiohttp itself quiets an invalid method only as a connection's first request.)
    """
    assert device_server.bound_port is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", device_server.bound_port)
    try:
        writer.write(b"GET /svc/entry HTTP/1.1\r\nHost: x\r\n\r\n")
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            int(line.partition(b":")[2])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        await reader.readexactly(length)
        writer.write(b"FETCH\x01 /svc/entry HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = head + await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()
        await writer.wait_closed()

    assert status_lines(answer) == [b"HTTP/1.1 200 OK", b"HTTP/1.0 400 Bad Request"]
    assert not loud_records(caplog), [r.getMessage()[:200] for r in loud_records(caplog)]


async def test_an_exception_of_our_handler_is_still_logged_as_an_error(
    device_server: DeviceServer,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bug in the integration's own handler is answered 500 and logged with its traceback."""

    def broken(query: str) -> dict[str, str]:
        raise RuntimeError("a bug in the entry handler")

    monkeypatch.setattr(device_api, "form_fields", broken)

    answer = await exchange(
        device_server.bound_port, b"GET /svc/entry HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )

    assert status_lines(answer) == [b"HTTP/1.1 500 Internal Server Error"]
    errors = [record for record in loud_records(caplog) if record.levelno >= logging.ERROR]
    assert len(errors) == 1
    assert errors[0].name.startswith("custom_components.thermostat_cloud")
    assert errors[0].exc_info is not None
    assert str(errors[0].exc_info[1]) == "a bug in the entry handler"
