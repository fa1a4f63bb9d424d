"""Shared fixtures: the service on a real loopback socket, and simulated thermostats."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any

import aiohttp
import pytest

# Import the integration before the `hass` fixture runs, or Home Assistant's loader picks up
# the test harness's own custom_components package.
import custom_components.thermostat_cloud  # noqa: F401
from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from thermostat_sim import SimulatedThermostat

SERIAL = "02AA01AC331400AB"
OTHER_SERIAL = "02AA01AC331400CD"


class MemoryStorage:
    """Storage kept in memory, saving immediately so tests can inspect it."""

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        self.data = data
        self.saves = 0

    async def async_load(self) -> dict[str, Any] | None:
        return self.data

    def schedule_save(self, snapshot: Callable[[], dict[str, Any]], delay: float) -> None:
        self.data = snapshot()
        self.saves += 1

    async def async_save(self, data: dict[str, Any]) -> None:
        self.data = data
        self.saves += 1


class FakeClock:
    """A wall clock the test moves by hand."""

    def __init__(self, now_ms: int = 1_800_000_000_000) -> None:
        self.now = now_ms

    def now_ms(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * 1000)


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Let Home Assistant load the integration under test."""


@pytest.fixture
def service_config() -> ServiceConfig:
    """Short windows so tests finish quickly; api_origin is set once the port is known."""
    return ServiceConfig(
        api_origin="http://127.0.0.1:1", batch_window=0.3, suspend_time_max=300, save_delay=0
    )


@pytest.fixture
def storage() -> MemoryStorage:
    """The service's storage."""
    return MemoryStorage()


@pytest.fixture
async def service(
    socket_enabled: None, service_config: ServiceConfig, storage: MemoryStorage
) -> AsyncGenerator[ThermostatService]:
    """The service core listening on 127.0.0.1 on a free port."""
    svc = ThermostatService(service_config, storage)
    await svc.async_load()
    await svc.async_start("127.0.0.1", 0)
    svc.config.api_origin = f"http://127.0.0.1:{svc.bound_port}"
    yield svc
    await svc.async_stop()


@pytest.fixture
def device_url(service: ThermostatService) -> str:
    """`{device_url}` of the running service."""
    return service.config.api_origin


@pytest.fixture
async def http(socket_enabled: None) -> AsyncGenerator[aiohttp.ClientSession]:
    """A plain HTTP client for raw requests."""
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
async def make_thermostat(
    device_url: str, http: aiohttp.ClientSession
) -> AsyncGenerator[Callable[..., SimulatedThermostat]]:
    """Build simulated thermostats; their subscribe loops are stopped after the test."""
    made: list[SimulatedThermostat] = []

    def make(serial: str = SERIAL, **buckets: dict[str, Any]) -> SimulatedThermostat:
        initial = {f"{name}.{serial}": value for name, value in buckets.items()}
        thermostat = SimulatedThermostat(device_url, serial, http, buckets=initial)
        made.append(thermostat)
        return thermostat

    yield make
    for thermostat in made:
        await thermostat.stop()
