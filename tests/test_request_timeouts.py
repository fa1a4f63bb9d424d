"""Half-finished requests do not hold a connection open forever; a held subscribe is kept.

On the device port and on the compatibility listener.

The bound is `ServiceConfig.request_timeout` (30 s). Each test moves the clock fixture past it
and waits for the event it is about (the server closing a socket, a push arriving), never for
time to pass.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
import json

import aiohttp
import pytest

from custom_components.thermostat_cloud.server import (
    ControlListener,
    DeviceServer,
    LocalNetwork,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import basic_auth

from .conftest import SERIAL, LoopClock

GUARD = 10.0
"""Longest wait for an event before the test fails (far beyond the bound)."""
HALF_HEAD = b"POST /svc/transport HTTP/1.1\r\nHost: 127.0.0.1\r\nX-svc-protocol-version: 1\r\n"


@pytest.fixture
async def compat_port(service: ThermostatService) -> AsyncGenerator[int]:
    """Return the compatibility listener of the service on a free loopback port."""
    async with aiohttp.ClientSession() as http:
        listener = ControlListener(service, LocalNetwork(http))
        await listener.async_start("127.0.0.1", 0)
        assert listener.bound_port is not None
        yield listener.bound_port
        await listener.async_stop()


def device_port(device_server: DeviceServer) -> int:
    """Return the port the device server bound."""
    assert device_server.bound_port is not None
    return device_server.bound_port


def head(method: str, path: str, content_length: int | None = None) -> bytes:
    """Return the head of an HTTP request."""
    lines = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        f"Authorization: {basic_auth(SERIAL)}",
        "X-svc-protocol-version: 1",
        "Content-Type: application/json",
    ]
    if content_length is not None:
        lines.append(f"Content-Length: {content_length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def server_closes(clock: LoopClock, bound: float, port: int, sent: bytes) -> bytes:
    """Send `sent` and nothing more; return everything the server wrote before it closed.

    Time moves on in steps of half the bound; the server must close the connection after at
    least the bound and at most twice that (its check runs every half bound).
    """
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(sent)
        read = asyncio.ensure_future(reader.read())
        waited = 0.0
        while not read.done():
            assert waited < 2 * bound, "the server kept a request that did not arrive"
            await clock.advance(bound / 2)
            waited += bound / 2
            if waited < bound:
                await asyncio.sleep(0)
                assert not read.done(), f"closed after {waited} s, within the bound"
        return read.result()
    finally:
        writer.close()


@pytest.mark.parametrize(
    "sent",
    [
        pytest.param(b"", id="nothing"),
        pytest.param(HALF_HEAD, id="half a head"),
        pytest.param(head("POST", "/svc/transport/put", 100) + b'{"session": "s', id="half a body"),
    ],
)
async def test_device_port_closes_a_request_that_does_not_arrive(
    clock: LoopClock, device_server: DeviceServer, service: ThermostatService, sent: bytes
) -> None:
    bound = service.config.request_timeout
    assert await server_closes(clock, bound, device_port(device_server), sent) == b""


@pytest.mark.parametrize(
    "sent",
    [
        pytest.param(HALF_HEAD.replace(b"/svc/transport", b"/command"), id="half a head"),
        pytest.param(head("POST", "/command", 100) + b'{"serial": "', id="half a body"),
    ],
)
async def test_compat_listener_closes_a_request_that_does_not_arrive(
    clock: LoopClock, compat_port: int, service: ThermostatService, sent: bytes
) -> None:
    bound = service.config.request_timeout
    assert await server_closes(clock, bound, compat_port, sent) == b""


async def test_a_complete_subscribe_is_held_beyond_the_bound(
    clock: LoopClock, device_server: DeviceServer, service: ThermostatService
) -> None:
    """The request timeout never cuts a subscribe that is being held.

    The bound covers receiving the request, not the hold that follows it: a subscribe
    outlives a half-finished request that was closed after it started, and still gets its
    push.
    """
    listed = {"object_key": f"shared.{SERIAL}", "object_revision": 0, "object_timestamp": 0}
    body = json.dumps({"chunked": True, "session": "s1", "objects": [listed]}).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", device_port(device_server))
    try:
        writer.write(head("POST", "/svc/transport", len(body)) + body)
        async with asyncio.timeout(GUARD):
            status = await reader.readuntil(b"\r\n\r\n")
        assert status.startswith(b"HTTP/1.1 200")
        assert harness(service).held(SERIAL) == 1

        # Opened after the subscribe's request was complete, closed a bound later.
        bound = service.config.request_timeout
        assert await server_closes(clock, bound, device_port(device_server), HALF_HEAD) == b""

        assert harness(service).held(SERIAL) == 1
        service.commands.set_temperature(SERIAL, 21)
        async with asyncio.timeout(GUARD):
            pushed = await reader.readuntil(b"}\r\n")
        assert b'"target_temperature":21.0' in pushed
    finally:
        writer.close()


async def test_a_kept_alive_connection_may_idle_beyond_the_bound(
    clock: LoopClock, device_server: DeviceServer, service: ThermostatService
) -> None:
    """Firmware may reuse an idle connection: idling is not a half-finished request.

    Firmware sleeps between requests and may reuse its connection afterwards: idling
    between complete requests is not a half-finished request.
    """
    ping = head("GET", "/svc/ping")
    reader, writer = await asyncio.open_connection("127.0.0.1", device_port(device_server))
    try:
        for _ in range(2):
            writer.write(ping)
            async with asyncio.timeout(GUARD):
                answer = await reader.readuntil(b"\r\n\r\n")
                length = int(answer.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
                body = await reader.readexactly(length)
            assert answer.startswith(b"HTTP/1.1 200")
            assert json.loads(body)["status"] == "ok"
            # Opened after the answer, closed a bound later: the first connection idled as long.
            bound = service.config.request_timeout
            assert await server_closes(clock, bound, device_port(device_server), HALF_HEAD) == b""
    finally:
        writer.close()
