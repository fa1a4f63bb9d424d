"""Tests of the benchmark's Home Assistant launcher, without starting Home Assistant.

The pieces of `scripts/bench --home-assistant` that run without starting Home Assistant: the
throwaway configuration, the start command, the entity map, and the `bench_access` helper
integration (set up here in the test Home Assistant). Starting a real Home Assistant takes tens
of seconds, so the launcher itself is exercised by running the benchmark, not by the tests.
"""

from __future__ import annotations

from pathlib import Path
import socket
import stat
import time
from typing import Any
from unittest.mock import AsyncMock

import aiohttp
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util.yaml import parse_yaml
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator
import voluptuous as vol

from bench import bench_access
from bench.ha_server import (
    ACCESS_COMPONENT,
    CLIMATE_ENTITIES_TEMPLATE,
    MAX_UNPAIRED_DEVICES,
    TOKEN_FILE,
    configuration_yaml,
    free_port,
    home_assistant_command,
    parse_climate_entities,
    prepare_config,
)
from bench.target import REPOSITORY_ROOT
from custom_components.thermostat_cloud.const import CONF_DEVICE_PORT
from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core import config as service_config
from thermostat_sim import SimulatedThermostat


def test_free_port_is_a_bindable_loopback_port(socket_enabled: None) -> None:
    port = free_port()

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", port))
    assert 0 < port < 65536


def test_configuration_listens_on_loopback_only(tmp_path: Path) -> None:
    text = configuration_yaml(18123, tmp_path / "token", 60)

    assert "  server_host: 127.0.0.1\n  server_port: 18123\n" in text
    assert f"{ACCESS_COMPONENT}:\n  token_file: {tmp_path / 'token'}\n  max_seconds: 60\n" in text
    assert "\napi:\n" in text


def test_prepare_config_links_the_checkout_and_copies_the_helper(tmp_path: Path) -> None:
    prepare_config(tmp_path, 18123, 18000, 60)

    integration = tmp_path / "custom_components" / "thermostat_cloud"
    assert integration.is_symlink()
    assert integration.resolve() == REPOSITORY_ROOT / "custom_components" / "thermostat_cloud"
    helper = tmp_path / "custom_components" / ACCESS_COMPONENT
    assert (helper / "manifest.json").is_file()
    assert (helper / "__init__.py").read_text() == Path(bench_access.__file__).read_text()
    assert str(tmp_path / TOKEN_FILE) in (tmp_path / "configuration.yaml").read_text()


def test_start_command_skips_installs_once_requirements_are_in(tmp_path: Path) -> None:
    first = home_assistant_command(tmp_path, requirements_installed=False)
    later = home_assistant_command(tmp_path, requirements_installed=True)

    assert first[1:5] == ["-m", "homeassistant", "--config", str(tmp_path)]
    assert "--skip-pip" not in first
    assert "--skip-pip" in later


def test_climate_entities_are_mapped_by_serial() -> None:
    text = (
        "climate.thermostat_bench00000000000 BENCH00000000000\n"
        "climate.other None\n"
        "climate.living_room BENCH00000000001\n"
        "\n"
    )

    assert parse_climate_entities(text) == {
        "BENCH00000000000": "climate.thermostat_bench00000000000",
        "BENCH00000000001": "climate.living_room",
    }
    assert "device_attr(state.entity_id, 'serial_number')" in CLIMATE_ENTITIES_TEMPLATE


async def _set_up_access_helper(hass: HomeAssistant, token_file: Path, **settings: Any) -> None:
    assert await async_setup_component(hass, "http", {})
    config = {
        bench_access.DOMAIN: {
            bench_access.CONF_TOKEN_FILE: str(token_file),
            bench_access.CONF_MAX_SECONDS: 600,
            bench_access.CONF_WATCH_STDIN: False,
            **settings,
        }
    }
    assert await bench_access.async_setup(hass, bench_access.CONFIG_SCHEMA(config))


async def test_access_helper_creates_an_admin_token(hass: HomeAssistant, tmp_path: Path) -> None:
    """The written token is a valid access token of an administrator, readable by us only."""
    token_file = tmp_path / "token"
    await _set_up_access_helper(hass, token_file)

    refresh_token = hass.auth.async_validate_access_token(token_file.read_text())
    assert refresh_token is not None
    assert refresh_token.user.is_admin
    assert refresh_token.user.name == bench_access.USER_NAME
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600


async def test_access_helper_hands_over_climate_call_acceptance_times_once(
    hass: HomeAssistant, tmp_path: Path, hass_client: ClientSessionGenerator
) -> None:
    """The benchmark's latency samples count each accepted climate call once.

    One time per accepted climate.set_temperature call (no other service), on the
    monotonic clock the load generator reads too; each read hands them over once.
    """
    await _set_up_access_helper(hass, tmp_path / "token")
    hass.services.async_register("climate", "set_temperature", AsyncMock())
    hass.services.async_register("climate", "set_hvac_mode", AsyncMock())
    client = await hass_client()

    before = time.monotonic_ns()
    await hass.services.async_call("climate", "set_temperature", {"temperature": 20}, True)
    await hass.services.async_call("climate", "set_hvac_mode", {"hvac_mode": "heat"}, True)
    after = time.monotonic_ns()

    async with client.get("/api/bench_access/accepted") as resp:
        assert resp.status == 200
        (accepted,) = (await resp.json())["accepted_ns"]
    assert before <= accepted <= after
    async with client.get("/api/bench_access/accepted") as resp:
        assert (await resp.json())["accepted_ns"] == []


def test_access_helper_needs_its_settings() -> None:
    with pytest.raises(vol.Invalid, match="token_file"):
        bench_access.CONFIG_SCHEMA({bench_access.DOMAIN: {bench_access.CONF_MAX_SECONDS: 1}})


def test_configuration_lets_the_hub_remember_the_whole_fleet(tmp_path: Path) -> None:
    """The launched Home Assistant keeps every benchmark thermostat the scenarios address.

    Fan-out and push latency command up to thousands of unpaired thermostats, and the memory
    scenario holds 10,000: a hub that forgot all but the real limit's 50 would answer 404 or
    measure thermostats being forgotten and announced again.
    """
    config = parse_yaml(configuration_yaml(18123, tmp_path / "token", 60))

    settings = bench_access.CONFIG_SCHEMA(config)[bench_access.DOMAIN]

    assert settings[bench_access.CONF_MAX_UNPAIRED_DEVICES] == MAX_UNPAIRED_DEVICES
    assert MAX_UNPAIRED_DEVICES > 10_000 > service_config.MAX_UNPAIRED_DEVICES


async def test_access_helper_raises_the_unpaired_limit_of_the_running_hub(
    hass: HomeAssistant, hub: MockConfigEntry, http: aiohttp.ClientSession, tmp_path: Path
) -> None:
    """Thermostats beyond the real install's limit stay known in the benchmark's hub only."""
    fleet = service_config.MAX_UNPAIRED_DEVICES + 10
    await _set_up_access_helper(
        hass, tmp_path / "token", **{bench_access.CONF_MAX_UNPAIRED_DEVICES: fleet}
    )
    device_url = f"http://127.0.0.1:{hub.data[CONF_DEVICE_PORT]}"
    serials = [f"02AA01AC33{index:06d}" for index in range(fleet)]

    for serial in serials:
        await SimulatedThermostat(device_url, serial, http).entry()
    await hass.async_block_till_done()

    service: ThermostatService = hub.runtime_data.service
    assert {record.serial for record in service.devices.records()} == set(serials)
