"""The hub starts its parts as it loads and stops each of them as it unloads."""

from __future__ import annotations

import aiohttp
from homeassistant.config_entries import SOURCE_INTEGRATION_DISCOVERY, ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.thermostat_cloud.const import (
    CONF_COMPAT_API,
    CONF_COMPAT_PORT,
    CONF_DEVICE_PORT,
    DOMAIN,
)
from custom_components.thermostat_cloud.issues import (
    ISSUE_COMPAT_API,
    firmware_issue_id,
)
from custom_components.thermostat_cloud.ports import port_free as port_is_free
from thermostat_sim import SimulatedThermostat

from .conftest import OTHER_SERIAL, SERIAL, free_port


def discovered_serials(hass: HomeAssistant) -> set[str | None]:
    """Return the serials of the thermostats shown as discovered on the integration's page."""
    return {
        flow["context"]["unique_id"]
        for flow in hass.config_entries.flow.async_progress_by_handler(
            DOMAIN, match_context={"source": SOURCE_INTEGRATION_DISCOVERY}
        )
    }


async def test_unload_stops_every_part_and_a_new_load_starts_them_again(
    hass: HomeAssistant, hub: MockConfigEntry
) -> None:
    """Unloading frees both ports and clears what only a running hub can stand by.

    The open control API's warning, the old-firmware notice and the discovered thermostats go
    with the hub. Loading it again listens on both ports, raises the notices again and shows
    a waiting thermostat that calls in as discovered.
    """
    compat_port = free_port()
    hass.config_entries.async_update_entry(
        hub, options={**hub.options, CONF_COMPAT_API: True, CONF_COMPAT_PORT: compat_port}
    )
    await hass.async_block_till_done()
    assert hub.state is ConfigEntryState.LOADED
    device_port = hub.data[CONF_DEVICE_PORT]
    url = f"http://127.0.0.1:{device_port}"
    registry = ir.async_get(hass)
    async with aiohttp.ClientSession() as http:
        old = SimulatedThermostat(url, SERIAL, http, firmware="4.2.5")
        await old.entry()
        await old.heartbeat()  # 4.x seen only heartbeating gets the notice
        await SimulatedThermostat(url, OTHER_SERIAL, http).entry()
    await hass.async_block_till_done()
    assert registry.async_get_issue(DOMAIN, ISSUE_COMPAT_API) is not None
    assert registry.async_get_issue(DOMAIN, firmware_issue_id(SERIAL)) is not None
    assert OTHER_SERIAL in discovered_serials(hass)

    assert await hass.config_entries.async_unload(hub.entry_id)
    await hass.async_block_till_done()
    assert port_is_free(device_port)
    assert port_is_free(compat_port)
    assert registry.async_get_issue(DOMAIN, ISSUE_COMPAT_API) is None
    assert registry.async_get_issue(DOMAIN, firmware_issue_id(SERIAL)) is None
    assert discovered_serials(hass) == set()

    assert await hass.config_entries.async_setup(hub.entry_id)
    await hass.async_block_till_done()
    assert not port_is_free(device_port)
    assert not port_is_free(compat_port)
    assert registry.async_get_issue(DOMAIN, ISSUE_COMPAT_API) is not None
    async with aiohttp.ClientSession() as http:
        old = SimulatedThermostat(url, SERIAL, http, firmware="4.2.5")
        old.transport_url = f"{url}/svc/transport"
        await old.heartbeat()
        await SimulatedThermostat(url, OTHER_SERIAL, http).entry()
    await hass.async_block_till_done()
    assert registry.async_get_issue(DOMAIN, firmware_issue_id(SERIAL)) is not None
    await hass.async_block_till_done()
    assert OTHER_SERIAL in discovered_serials(hass)
