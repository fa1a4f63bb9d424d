"""Thermostat Cloud: a self-hosted thermostat cloud inside Home Assistant."""

from __future__ import annotations

import logging

from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ConfigEntryNotReady
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.dispatcher import async_dispatcher_send
from homeassistant.helpers.typing import ConfigType

from .const import DOMAIN, SIGNAL_HUB_STARTED
from .control_api import async_register_views
from .entry_data import ThermostatCloudConfigEntry
from .hosted_api import async_register_hosted_api_view
from .hub import HassStorage, Hub
from .issues import async_delete_all_issues, port_cause
from .schedule_card import async_register_card
from .services import async_setup_services

PLATFORMS: list[Platform] = [
    Platform.BINARY_SENSOR,
    Platform.BUTTON,
    Platform.CALENDAR,
    Platform.CLIMATE,
    Platform.NUMBER,
    Platform.SELECT,
    Platform.SENSOR,
    Platform.SWITCH,
]

CONFIG_SCHEMA = cv.config_entry_only_config_schema(DOMAIN)
_LOGGER = logging.getLogger(__name__)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Register the actions, HTTP views and the schedule card once, loaded hub entry or not.

    Each finds the hub entry when it is used.
    """
    async_setup_services(hass)
    async_register_views(hass)
    async_register_hosted_api_view(hass)
    await async_register_card(hass)
    return True


async def async_setup_entry(hass: HomeAssistant, entry: ThermostatCloudConfigEntry) -> bool:
    """Start the hub: the embedded service and its parts; then the platforms."""
    hub = Hub(hass, entry)
    try:
        await hub.async_start()
    except OSError as err:
        _LOGGER.warning("The device server cannot listen on port %s: %s", hub.device_port, err)
        raise ConfigEntryNotReady(
            translation_domain=DOMAIN,
            translation_key="port_unavailable",
            translation_placeholders={
                "port": str(hub.device_port),
                "cause": port_cause(hass, err),
            },
        ) from err
    entry.runtime_data = hub
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    # Open schedule cards follow the new hub (the entry was reloaded).
    async_dispatcher_send(hass, SIGNAL_HUB_STARTED, hub)
    return True


async def async_remove_entry(hass: HomeAssistant, entry: ThermostatCloudConfigEntry) -> None:
    """Forget everything on removal of the integration: pairings, thermostat state, API keys.

    Adding it again must not bring back thermostats the user removed or keys handed out before.
    """
    await HassStorage(hass).async_remove()
    async_delete_all_issues(hass)


async def async_unload_entry(hass: HomeAssistant, entry: ThermostatCloudConfigEntry) -> bool:
    """Unload the platforms; the hub's stops, registered as it started, run next."""
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
