"""What flashed thermostats really do, beyond the spec's wording, over real TCP.

Each test names a habit of the firmware (see the README's "What real firmware does" for the
sources) and checks the server meets it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import aiohttp
import pytest

from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.events import ChangeSource
from thermostat_sim import SimulatedThermostat, basic_auth

from .conftest import SERIAL

type MakeThermostat = Callable[..., SimulatedThermostat]

AUTH = {"Authorization": basic_auth(SERIAL), "X-svc-protocol-version": "1"}
PROTOCOL_HEADERS = (
    "X-svc-suspend-time-max",
    "X-svc-service-timestamp",
    "X-svc-defer-device-window",
)


# -- paths ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["", "/svc"])
@pytest.mark.parametrize("method", ["GET", "POST"])
async def test_entry_is_served_where_firmware_appends_it(
    http: aiohttp.ClientSession, device_url: str, prefix: str, method: str
) -> None:
    """Firmware appends `/entry` to the endpoint it was given, with or without `/svc`."""
    async with http.request(method, f"{device_url}{prefix}/entry", headers=AUTH) as resp:
        assert resp.status == 200
        data = await resp.json()
    assert data["transport_url"] == f"{device_url}/svc/transport"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/passphrase"),
        ("GET", "/passphrase/status"),
        ("GET", "/ping"),
        ("GET", "/pro_info"),
        ("GET", "/pro_info/ABC1234"),
        ("GET", "/svc/pro_info/ABC1234"),
        ("GET", f"/transport/device/{SERIAL}"),
        ("GET", f"/transport/v7/device/device.{SERIAL}"),
        ("POST", "/upload"),
    ],
)
async def test_unprefixed_device_paths_reach_the_same_handlers(
    http: aiohttp.ClientSession, device_url: str, method: str, path: str
) -> None:
    async with http.request(method, f"{device_url}{path}", headers=AUTH) as resp:
        assert resp.status == 200, path
        assert isinstance(await resp.json(), dict)


@pytest.mark.parametrize("transport", ["/svc/transport", "/transport"])
async def test_subscribe_is_served_on_the_v7_and_bare_paths(
    make_thermostat: MakeThermostat, device_url: str, transport: str
) -> None:
    """Firmware subscribes at `<transport_url>/v7/subscribe`, prefixed or not."""
    thermostat = make_thermostat(shared={"current_temperature": 19.5})
    thermostat.transport_url = f"{device_url}{transport}"
    assert thermostat.subscribe_url.endswith(f"{transport}/v7/subscribe")
    thermostat.start()
    chunk = await thermostat.next_chunk()
    assert chunk.objects[0]["object_key"] == f"shared.{SERIAL}"


@pytest.mark.parametrize("path", ["/svc/transport/v7/put", "/transport/v7/put", "/transport/put"])
async def test_put_is_served_on_the_v7_and_bare_paths(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService, path: str
) -> None:
    key = f"shared.{SERIAL}"
    body = {"session": "s", key: {"object_key": key, "current_temperature": 20.5}}
    async with http.post(f"{device_url}{path}", json=body, headers=AUTH) as resp:
        assert resp.status == 200
        assert (await resp.json())["objects"][0]["object_key"] == key
    assert service.buckets.value(key)["current_temperature"] == 20.5


# -- protocol headers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/svc/transport/put", {"session": "s", f"shared.{SERIAL}": {"a": 1}}),
        ("GET", "/svc/entry", None),
        ("GET", "/svc/passphrase", None),
        ("GET", "/svc/ping", None),
        ("POST", "/svc/transport/put", {"session": 5}),
        ("GET", "/svc/nope", None),
    ],
)
async def test_every_device_response_carries_the_protocol_headers(
    http: aiohttp.ClientSession, service: ThermostatService, method: str, path: str, body: Any
) -> None:
    """Without `X-svc-suspend-time-max` firmware falls back to a much longer sleep."""
    device_url = service.config.api_origin
    async with http.request(method, f"{device_url}{path}", json=body, headers=AUTH) as resp:
        for name in PROTOCOL_HEADERS:
            assert name in resp.headers, (path, resp.status, name)
        assert resp.headers["X-svc-suspend-time-max"] == str(service.config.suspend_time_max)


# -- revisions --------------------------------------------------------------------------------------


async def test_a_thermostat_listing_negative_revisions_connects(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """Bucket history from another server carries signed 32-bit revisions, negative too."""
    thermostat = make_thermostat(shared={"current_temperature": 19.5})
    local = thermostat.local[f"shared.{SERIAL}"]
    local.revision, local.timestamp = -1_794_027_153, 1_700_000_000_000
    service.commands.apply(
        SERIAL,
        {f"shared.{SERIAL}": {"target_temperature": 21.0}},
        ChangeSource.SERVER,
    )
    thermostat.start()
    obj = await thermostat.next_object(f"shared.{SERIAL}")
    assert obj["value"]["target_temperature"] == 21.0


@pytest.mark.parametrize("revision", [-(2**31) - 1, 2**31])
async def test_revisions_outside_int32_are_refused(
    http: aiohttp.ClientSession, device_url: str, revision: int
) -> None:
    key = f"shared.{SERIAL}"
    body = {
        "chunked": True,
        "session": "s",
        "objects": [{"object_key": key, "object_revision": revision, "object_timestamp": 1}],
    }
    async with http.post(f"{device_url}/svc/transport", json=body, headers=AUTH) as resp:
        assert resp.status == 400
        assert "32-bit" in (await resp.json())["error"]
