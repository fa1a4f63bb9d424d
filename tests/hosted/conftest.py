"""Home Assistant with the hub loaded, its hosted API client, API keys and paired thermostats.

`service` here is the service of the loaded hub entry, so the root fixtures `device_url` and
`make_thermostat` talk to Home Assistant's own device listener over 127.0.0.1.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, NamedTuple

from aiohttp import ClientResponse
from homeassistant.core import Context, HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.entry_data import ThermostatCloudConfigEntry
from custom_components.thermostat_cloud.hosted_api import HOSTED_API_URL
from custom_components.thermostat_cloud.server import ThermostatService
from tests.conftest import SERIAL
from thermostat_sim import SimulatedThermostat

from .openapi_schema import response_errors

# What a heat pump with a fan reports: it can heat, cool and hold a range.
SHARED = {"name": "Hallway", "can_heat": True, "can_cool": True, "target_temperature": 20.0}
DEVICE = {"has_fan": True, "temperature_scale": "C"}


@pytest.fixture
def hub_entry(hub: MockConfigEntry) -> ThermostatCloudConfigEntry:
    """Return the loaded hub entry, its device listener on a free port."""
    return hub


@pytest.fixture
async def service(hub_entry: ThermostatCloudConfigEntry) -> ThermostatService:
    """Return the running service of the hub entry (overrides the root fixture)."""
    svc = hub_entry.runtime_data.service
    svc.config.batch_window = 0.1
    return svc


class HostedClient:
    """The hosted API through Home Assistant's HTTP test client."""

    def __init__(self, client: Any) -> None:
        """Initialize with Home Assistant's HTTP test client."""
        self.client = client

    async def request(
        self, method: str, path: str, key: str | None = None, json: Any = None, **kwargs: Any
    ) -> tuple[ClientResponse, Any]:
        """Send a request; returns the response and its JSON body.

        Every response is checked against the OpenAPI document: its status must be documented
        for the operation and its body must match the documented schema.
        """
        headers = dict(kwargs.pop("headers", {}))
        if key is not None:
            headers["Authorization"] = f"Bearer {key}"
        response = await self.client.request(
            method, f"{HOSTED_API_URL}{path}", json=json, headers=headers, **kwargs
        )
        body = await response.json()
        assert response.content_type == "application/json"
        problems = response_errors(method, path, response.status, body, response.headers)
        assert not problems, problems
        return response, body

    async def get(
        self, path: str, key: str | None = None, **kwargs: Any
    ) -> tuple[ClientResponse, Any]:
        """Send a GET request; return the response and its JSON body."""
        return await self.request("GET", path, key, **kwargs)

    async def post(
        self, path: str, key: str | None, json: Any = None, **kwargs: Any
    ) -> tuple[ClientResponse, Any]:
        """Send a POST request; return the response and its JSON body."""
        return await self.request("POST", path, key, json, **kwargs)


@pytest.fixture
async def api(
    hass_client_no_auth: ClientSessionGenerator, hub_entry: ThermostatCloudConfigEntry
) -> HostedClient:
    """Return a client of the hosted API (no Home Assistant token: API keys only)."""
    return HostedClient(await hass_client_no_auth())


type CreateKey = Callable[..., Awaitable[str]]


async def create_api_key(
    hass: HomeAssistant,
    user: MockUser,
    scopes: Iterable[str] = ("read", "write"),
    serials: list[str] | None = None,
    name: str = "Test key",
) -> dict[str, Any]:
    """Create a key through the admin action, as `user`; returns the action's response."""
    data: dict[str, Any] = {"name": name, "scopes": list(scopes)}
    if serials is not None:
        data["serials"] = serials
    response = await hass.services.async_call(
        DOMAIN,
        "create_api_key",
        data,
        blocking=True,
        return_response=True,
        context=Context(user_id=user.id),
    )
    assert isinstance(response, dict)
    return response


@pytest.fixture
def make_key(
    hass: HomeAssistant, hass_admin_user: MockUser, service: ThermostatService
) -> CreateKey:
    """Create a key (by default the admin's, read and write) and return its secret."""

    async def make(
        scopes: Iterable[str] = ("read", "write"),
        serials: list[str] | None = None,
        user: MockUser | None = None,
    ) -> str:
        response = await create_api_key(hass, user or hass_admin_user, scopes, serials)
        return str(response["key"])

    return make


type PairThermostat = Callable[..., Awaitable[SimulatedThermostat]]


@pytest.fixture
async def pair(
    service: ThermostatService, make_thermostat: Callable[..., SimulatedThermostat]
) -> PairThermostat:
    """Pair a simulated thermostat with the code on its screen; it holds a subscribe."""

    async def pair_one(
        serial: str = SERIAL, user_id: str | None = None, **buckets: Any
    ) -> SimulatedThermostat:
        thermostat = make_thermostat(
            serial, shared=buckets.get("shared", SHARED), device=buckets.get("device", DEVICE)
        )
        code = (await thermostat.passphrase())["value"]
        thermostat.start()
        await thermostat.subscribed.wait()  # its inline state is merged before the hold
        assert service.pairing.register(code, user_id).success
        return thermostat

    return pair_one


class Paired(NamedTuple):
    """A paired thermostat holding its subscribe, and a read-write key of its owner."""

    api: HostedClient
    service: ThermostatService
    thermostat: SimulatedThermostat
    key: str


@pytest.fixture
async def paired(
    api: HostedClient, service: ThermostatService, pair: PairThermostat, make_key: CreateKey
) -> Paired:
    """Return the usual starting point: one paired thermostat and its owner's read-write key."""
    return Paired(api, service, await pair(), await make_key())


def device_id(service: ThermostatService, serial: str = SERIAL) -> str:
    """Return the hosted API id of a device."""
    record = service.devices.record(serial)
    assert record is not None
    return record.device_id


async def wait_for_field(
    thermostat: SimulatedThermostat, key: str, name: str, expected: Any, timeout: float = 10
) -> dict[str, Any]:
    """Wait until a push carries `key` with `value[name] == expected`; returns the object."""
    async with asyncio.timeout(timeout):
        while True:
            obj = await thermostat.next_object(key, timeout)
            if obj["value"].get(name) == expected:
                return obj
