"""The route kit every HTTP surface declares its endpoints with (`server/http/routes.py`).

An application `build_app` makes is served over real TCP on 127.0.0.1, as the device port and
the control API's own port are: each route under each prefix, and every error a client can
cause answered `{"error": ...}`, never a bare 500 page.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

import aiohttp
from aiohttp import web
import pytest

from custom_components.thermostat_cloud.server.http import (
    ANY_METHOD,
    PortListener,
    Route,
    build_app,
)


class RefusedError(Exception):
    """Input the surface's domain turns away."""


async def hello(request: web.Request) -> web.Response:
    """Answer with the path parameters."""
    return web.json_response({"hello": dict(request.match_info)})


async def refused(request: web.Request) -> web.Response:
    """Turn the input away."""
    raise RefusedError("temperature out of range")


async def broken(request: web.Request) -> web.Response:
    """Fail as a bug would."""
    raise RuntimeError("a bug")


ROUTES = [
    Route("GET", "/hello/{name}", hello),
    Route(ANY_METHOD, "/refused", refused),
    Route("POST", "/broken", broken),
]


@pytest.fixture
async def base_url(socket_enabled: None) -> AsyncGenerator[str]:
    """Serve the routes under `/svc` and bare on a free loopback port; return its URL."""
    listener = PortListener(request_timeout=5, keepalive_timeout=5)
    await listener.async_start(
        build_app(ROUTES, refused=(RefusedError,), prefixes=("/svc", "")), "127.0.0.1", 0
    )
    yield f"http://127.0.0.1:{listener.bound_port}"
    await listener.async_stop()


async def test_each_route_is_served_under_each_prefix(base_url: str) -> None:
    """A client reaches the same handler at `/svc/...` and at the bare path."""
    async with aiohttp.ClientSession() as http:
        for prefix in ("/svc", ""):
            async with http.get(f"{base_url}{prefix}/hello/world") as resp:
                assert resp.status == 200
                assert await resp.json() == {"hello": {"name": "world"}}


async def test_every_error_a_client_can_cause_is_a_json_error(base_url: str) -> None:
    """Refused input is a 400, an unknown path a 404, a wrong method a 405: all `{"error"}`."""
    async with aiohttp.ClientSession() as http:
        async with http.put(f"{base_url}/svc/refused") as resp:
            assert (resp.status, await resp.json()) == (400, {"error": "temperature out of range"})
        async with http.get(f"{base_url}/nowhere") as resp:
            assert (resp.status, await resp.json()) == (404, {"error": "Not Found"})
        async with http.get(f"{base_url}/broken") as resp:
            assert (resp.status, await resp.json()) == (405, {"error": "Method Not Allowed"})


async def test_a_bug_is_a_json_500_with_its_traceback_logged(
    base_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The client gets `{"error": ...}` and no traceback; the log has it for the user's report."""
    async with aiohttp.ClientSession() as http, http.post(f"{base_url}/broken") as resp:
        assert (resp.status, await resp.json()) == (500, {"error": "Internal server error"})
    assert "Unexpected error in POST /broken" in caplog.text
    assert "RuntimeError: a bug" in caplog.text


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/thermostat/abc/status", {"deviceId": "abc"}),
        ("thermostat/abc/status/", {"deviceId": "abc"}),
        ("/thermostat//status", None),
        ("/thermostat/abc", None),
        ("/thermostat/abc/mode", None),
    ],
)
def test_a_template_matches_whole_segments(path: str, params: dict[str, str] | None) -> None:
    """`{name}` takes one non-empty segment; anything else must be equal (the hosted API)."""
    route = Route("GET", "/thermostat/{deviceId}/status", hello)
    assert route.match(path) == params
