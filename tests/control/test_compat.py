"""The compatibility listener: the control API at the spec's bare paths, without login.

Over real TCP; and the repair issue that warns the user while it is open.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
import json
import socket

import aiohttp
from homeassistant.components.repairs import repairs_flow_manager
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.thermostat_cloud.const import (
    CONF_API_ORIGIN,
    CONF_COMPAT_API,
    CONF_COMPAT_PORT,
    CONF_DEVICE_PORT,
    CONF_ENTRY_KEY_MINUTES,
    DOMAIN,
)
from custom_components.thermostat_cloud.issues import ISSUE_COMPAT_API, ISSUE_COMPAT_PORT
from custom_components.thermostat_cloud.ports import port_free as port_is_free
from tests.conftest import SERIAL, free_port
from thermostat_sim import SimulatedThermostat


@pytest.fixture
async def open_hub(hass: HomeAssistant, socket_enabled: None) -> AsyncGenerator[MockConfigEntry]:
    """Return the hub entry with the compatibility listener on."""
    device_port, compat_port = free_port(), free_port()
    entry = MockConfigEntry(
        domain=DOMAIN,
        title="Thermostat Cloud",
        data={CONF_API_ORIGIN: f"http://127.0.0.1:{device_port}", CONF_DEVICE_PORT: device_port},
        options={CONF_COMPAT_API: True, CONF_COMPAT_PORT: compat_port},
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    yield entry
    if entry.state is ConfigEntryState.LOADED:
        assert await hass.config_entries.async_unload(entry.entry_id)


@pytest.fixture
async def http() -> AsyncGenerator[aiohttp.ClientSession]:
    """Return a plain HTTP client."""
    async with aiohttp.ClientSession() as session:
        yield session


def compat_url(entry: MockConfigEntry) -> str:
    """Return the URL of the hub's compatibility listener."""
    return f"http://127.0.0.1:{entry.options[CONF_COMPAT_PORT]}"


async def test_open_listener_serves_the_control_api_without_auth(
    open_hub: MockConfigEntry, http: aiohttp.ClientSession
) -> None:
    base = compat_url(open_hub)
    async with http.get(f"{base}/health") as resp:
        assert resp.status == 200
        assert await resp.json() == {"status": "ok"}
    async with http.get(f"{base}/status") as resp:
        assert resp.status == 400
        assert await resp.json() == {"error": "Serial parameter required"}
    async with http.get(f"{base}/api/devices") as resp:
        assert await resp.json() == {"devices": [], "total": 0}
    async with http.post(f"{base}/notify-device", json={"serial": SERIAL}) as resp:
        assert resp.status == 404
        assert await resp.json() == {"error": "Device not found"}
    async with http.get(f"{base}/no/such/path") as resp:
        assert resp.status == 404
        assert (await resp.json())["error"]


async def test_open_listener_pairs_commands_and_streams_events(
    open_hub: MockConfigEntry, http: aiohttp.ClientSession
) -> None:
    base = compat_url(open_hub)
    thermostat = SimulatedThermostat(
        open_hub.data[CONF_API_ORIGIN],
        SERIAL,
        http,
        buckets={f"shared.{SERIAL}": {"current_temperature": 20.0}},
    )
    await thermostat.entry()
    code = (await thermostat.passphrase())["value"]
    thermostat.start()
    await thermostat.next_chunk()  # its inline state, sent back with a revision
    try:
        async with http.get(f"{base}/api/events") as events:
            assert events.headers["Content-Type"] == "text/event-stream"
            async with http.post(f"{base}/api/register", json={"code": code}) as resp:
                assert (await resp.json())["success"] is True
            block = await events.content.readuntil(b"\n\n")
            assert json.loads(block.decode().removeprefix("data: ")) == {"serial": SERIAL}

            async with http.post(
                f"{base}/command",
                json={"serial": SERIAL, "command": "set_temperature", "value": 22},
            ) as resp:
                assert resp.status == 200
            pushed = await thermostat.next_object(f"shared.{SERIAL}")
            assert pushed["value"]["target_temperature"] == 22.0
            block = await events.content.readuntil(b"\n\n")
            assert json.loads(block.decode().removeprefix("data: ")) == {"serial": SERIAL}
    finally:
        await thermostat.stop()


async def test_open_listener_raises_a_warning_repair_issue(
    hass: HomeAssistant, open_hub: MockConfigEntry
) -> None:
    issue = ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_COMPAT_API)
    assert issue is not None
    assert issue.severity is ir.IssueSeverity.WARNING
    assert issue.translation_key == ISSUE_COMPAT_API
    assert issue.translation_placeholders == {"port": str(open_hub.options[CONF_COMPAT_PORT])}
    assert issue.is_fixable


async def test_turning_the_option_off_closes_the_port_and_the_issue(
    hass: HomeAssistant, open_hub: MockConfigEntry, http: aiohttp.ClientSession
) -> None:
    port = open_hub.options[CONF_COMPAT_PORT]
    assert not port_is_free(port)
    result = await hass.config_entries.options.async_init(open_hub.entry_id)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {CONF_ENTRY_KEY_MINUTES: 60, CONF_COMPAT_API: False},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert open_hub.state is ConfigEntryState.LOADED
    assert port_is_free(port)
    assert ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_COMPAT_API) is None
    with pytest.raises(aiohttp.ClientConnectionError):
        await http.get(f"http://127.0.0.1:{port}/health")


async def test_the_repair_flow_turns_the_open_listener_off(
    hass: HomeAssistant, open_hub: MockConfigEntry
) -> None:
    assert await async_setup_component(hass, "repairs", {})
    manager = repairs_flow_manager(hass)
    assert manager is not None
    result = await manager.async_init(DOMAIN, data={"issue_id": ISSUE_COMPAT_API})
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "confirm"
    assert result["description_placeholders"] == {"port": str(open_hub.options[CONF_COMPAT_PORT])}
    result = await manager.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert open_hub.options[CONF_COMPAT_API] is False
    assert port_is_free(open_hub.options[CONF_COMPAT_PORT])
    assert ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_COMPAT_API) is None


async def test_unload_and_home_assistant_stop_release_the_port(
    hass: HomeAssistant, open_hub: MockConfigEntry, http: aiohttp.ClientSession
) -> None:
    port = open_hub.options[CONF_COMPAT_PORT]
    async with http.get(f"{compat_url(open_hub)}/api/events") as events:
        hass.bus.async_fire(EVENT_HOMEASSISTANT_STOP)
        assert await events.content.read() == b""
    await hass.async_block_till_done()
    assert port_is_free(port)


async def test_unload_closes_the_port_and_the_issue(
    hass: HomeAssistant, open_hub: MockConfigEntry
) -> None:
    port = open_hub.options[CONF_COMPAT_PORT]
    assert await hass.config_entries.async_unload(open_hub.entry_id)
    assert port_is_free(port)
    assert ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_COMPAT_API) is None


async def test_a_taken_port_leaves_the_hub_running_and_raises_a_repair_issue(
    hass: HomeAssistant,
    socket_enabled: None,
    caplog: pytest.LogCaptureFixture,
    http: aiohttp.ClientSession,
) -> None:
    """A port another program holds costs the open listener only, and the user is told how to fix it.

    The hub runs without the open listener and a repair issue says what to do; once the
    port is free again the next load opens it and deletes the issue.
    """
    issues = ir.async_get(hass)
    blocker = socket.socket()
    try:
        blocker.bind(("", 0))
        blocker.listen()
        taken = blocker.getsockname()[1]
        device_port = free_port()
        entry = MockConfigEntry(
            domain=DOMAIN,
            data={
                CONF_API_ORIGIN: f"http://127.0.0.1:{device_port}",
                CONF_DEVICE_PORT: device_port,
            },
            options={CONF_COMPAT_API: True, CONF_COMPAT_PORT: taken},
        )
        entry.add_to_hass(hass)
        assert await hass.config_entries.async_setup(entry.entry_id)
        await hass.async_block_till_done()
        assert entry.state is ConfigEntryState.LOADED
        assert f"cannot listen on port {taken}" in caplog.text
        assert issues.async_get_issue(DOMAIN, ISSUE_COMPAT_API) is None
        issue = issues.async_get_issue(DOMAIN, ISSUE_COMPAT_PORT)
        assert issue is not None
        assert issue.translation_key == ISSUE_COMPAT_PORT
        assert issue.severity is ir.IssueSeverity.ERROR
        assert not issue.is_fixable
        assert issue.translation_placeholders is not None
        assert issue.translation_placeholders["port"] == str(taken)
        # Why, in Home Assistant's words (the system's English text is in the log only).
        assert issue.translation_placeholders["cause"] == "another program is already using it"
    finally:
        blocker.close()

    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    assert issues.async_get_issue(DOMAIN, ISSUE_COMPAT_PORT) is None
    assert issues.async_get_issue(DOMAIN, ISSUE_COMPAT_API) is not None
    async with http.get(f"http://127.0.0.1:{taken}/health") as resp:
        assert resp.status == 200
    assert await hass.config_entries.async_unload(entry.entry_id)
