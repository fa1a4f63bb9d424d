"""The hub entry's type, and how the views, actions and flows find the loaded hub entry.

The entry's runtime data is its running `Hub`. Platforms, flows, views, actions and
diagnostics take the entry type from here; the hub and the parts it is built from never
import this module, so no import leads back.
"""

from __future__ import annotations

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import ServiceValidationError

from .const import DOMAIN
from .hub import Hub
from .server import ThermostatService

type ThermostatCloudConfigEntry = ConfigEntry[Hub]


@callback
def loaded_entry(hass: HomeAssistant) -> ThermostatCloudConfigEntry | None:
    """Return the loaded hub entry, if any (one hub serves every thermostat)."""
    entries: list[ThermostatCloudConfigEntry] = hass.config_entries.async_loaded_entries(DOMAIN)
    return entries[0] if entries else None


@callback
def loaded_service(hass: HomeAssistant) -> ThermostatService | None:
    """Return the running service of the loaded hub entry, if any."""
    entry = loaded_entry(hass)
    return entry.runtime_data.service if entry is not None else None


@callback
def require_service(hass: HomeAssistant) -> ThermostatService:
    """Return the running service, or refuse an action: Thermostat Cloud is not loaded."""
    if (service := loaded_service(hass)) is None:
        raise ServiceValidationError(translation_domain=DOMAIN, translation_key="not_loaded")
    return service
