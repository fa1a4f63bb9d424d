"""Thermostat Cloud: a self-hosted thermostat cloud inside Home Assistant."""

from __future__ import annotations

import logging

from homeassistant.const import EVENT_HOMEASSISTANT_STOP, Platform
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ConfigEntryNotReady
from homeassistant.helpers import config_validation as cv, issue_registry as ir
from homeassistant.helpers.dispatcher import async_dispatcher_send
from homeassistant.helpers.typing import ConfigType

from .const import DOMAIN, SIGNAL_HUB_STARTED
from .control_api import async_register_views, async_start_control_api
from .entity import async_register_hub_device
from .hosted_api import async_setup_hosted_api
from .hub import HassStorage, Hub, ThermostatCloudConfigEntry
from .issues import async_follow_firmware
from .pairing_sync import note_saved_subentries
from .schedule_card import async_register_card
from .services import async_setup_services

_LOGGER = logging.getLogger(__name__)

PLATFORMS: list[Platform] = [
    Platform.BINARY_SENSOR,
    Platform.CLIMATE,
    Platform.NUMBER,
    Platform.SENSOR,
    Platform.SWITCH,
]

CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the actions, HTTP views and the schedule card once, loaded hub entry or not.

    Each finds the hub entry when it is used.
    """
    async_setup_services(hass)
    async_register_views(hass)
    async_setup_hosted_api(hass)
    await async_register_card(hass)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: ThermostatCloudConfigEntry) -> bool:
    """Start the embedded service for the hub entry."""
    hub = Hub(hass, entry)
    # Unload, and a failed setup, stop it: held long-polls close, the port is released, state
    # is saved. Registered first, so it runs after every other unload callback.
    entry.async_on_unload(hub.async_stop)
    try:
        await hub.async_start()
    except OSError as err:
        if hub.service.loaded:
            note_saved_subentries(hass, entry, hub.service)
        raise ConfigEntryNotReady(
            translation_domain=DOMAIN,
            translation_key="port_unavailable",
            translation_placeholders={"port": str(hub.device_port), "error": str(err)},
        ) from err
    entry.runtime_data = hub
    hub.pairing.async_start()
    entry.async_on_unload(hub.thermostats.async_start())
    entry.async_on_unload(async_follow_firmware(hass, hub.service))
    async_register_hub_device(hass, entry)
    entry.async_on_unload(hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STOP, hub.async_stop))
    await async_start_control_api(hass, entry)
    entry.async_on_unload(entry.add_update_listener(_async_update_listener))
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    async_dispatcher_send(hass, SIGNAL_HUB_STARTED, hub)
    return True


async def _async_update_listener(hass: HomeAssistant, entry: ThermostatCloudConfigEntry) -> None:
    """Restart the service when its settings changed.

    Adding or removing a thermostat subentry also lands here; that must not restart the
    service, or the pairing push would lose the thermostat's held connection.
    """
    hub = entry.runtime_data
    hub.weather.set_choice(Hub.weather_choice(entry))
    if hub.settings != Hub.settings_of(entry):
        await hass.config_entries.async_reload(entry.entry_id)
    else:
        await hub.pairing.async_subentries_changed()


async def async_remove_entry(hass: HomeAssistant, entry: ThermostatCloudConfigEntry) -> None:
    """Forget everything on removal of the integration: pairings, thermostat state, API keys.

    Adding it again must not bring back thermostats the user removed or keys handed out before.
    """
    await HassStorage(hass).async_remove()
    registry = ir.async_get(hass)
    for domain, issue_id in list(registry.issues):
        if domain == DOMAIN:
            ir.async_delete_issue(hass, DOMAIN, issue_id)


async def async_unload_entry(hass: HomeAssistant, entry: ThermostatCloudConfigEntry) -> bool:
    """Unload the platforms; the hub's stop, registered at setup, runs next and saves."""
    unloaded = await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
    if unloaded:
        note_saved_subentries(hass, entry, entry.runtime_data.service)
    return unloaded
