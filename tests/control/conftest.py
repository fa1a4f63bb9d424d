"""Fixtures of the control API tests.

Fixtures of the control API tests: the hub entry loaded in Home Assistant, its HTTP client
and simulated thermostats talking to its device port.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.thermostat_cloud.const import CONF_API_ORIGIN
from custom_components.thermostat_cloud.server import ThermostatService
from tests.conftest import SERIAL
from thermostat_sim import SimulatedThermostat

URL = "/api/thermostat_cloud"

type Client = TestClient[Any, Any]
type ConnectThermostat = Callable[..., Awaitable[SimulatedThermostat]]


@pytest.fixture
def service(hub: MockConfigEntry) -> ThermostatService:
    """Return the hub's running service."""
    return hub.runtime_data.service  # type: ignore[no-any-return]


@pytest.fixture
async def client(hub: MockConfigEntry, hass_client: ClientSessionGenerator) -> Client:
    """Home Assistant's HTTP client with an admin's long-lived token."""
    return await hass_client()


@pytest.fixture
async def connect_thermostat(hub: MockConfigEntry) -> AsyncGenerator[ConnectThermostat]:
    """Return simulated thermostats that made contact and hold a subscribe connection."""
    made: list[SimulatedThermostat] = []
    async with aiohttp.ClientSession() as http:

        async def make(serial: str = SERIAL, **buckets: dict[str, Any]) -> SimulatedThermostat:
            initial = {f"{name}.{serial}": value for name, value in buckets.items()}
            thermostat = SimulatedThermostat(
                hub.data[CONF_API_ORIGIN], serial, http, buckets=initial
            )
            made.append(thermostat)
            await thermostat.entry()
            thermostat.start()
            if any(initial.values()):  # inline values come back with revisions: stored
                await thermostat.next_chunk()
            await thermostat.subscribed.wait()
            return thermostat

        yield make
        for thermostat in made:
            await thermostat.stop()


async def pair(client: Client, thermostat: SimulatedThermostat) -> dict[str, Any]:
    """Pair through the control API with the code the thermostat shows."""
    code = (await thermostat.passphrase())["value"]
    resp = await client.post(f"{URL}/api/register", json={"code": code})
    assert resp.status == 200
    return dict(await resp.json())


async def command(client: Client, name: str, value: Any, serial: str = SERIAL) -> tuple[int, Any]:
    """Send a control API command; return the status and the JSON answer."""
    resp = await client.post(
        f"{URL}/command", json={"serial": serial, "command": name, "value": value}
    )
    return resp.status, await resp.json()
