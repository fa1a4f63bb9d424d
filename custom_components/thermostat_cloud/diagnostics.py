"""Diagnostics of the hub entry: settings, and per thermostat its record, buckets and links.

Left out or redacted: pairing codes, API keys and everything else in the service's extra state
(only their names are listed), user ids and emails (the `user.<id>` buckets are not included at
all), vacations' names, PIN hashes, MAC and IP addresses (also Home Assistant's own, in the `api_origin` the
thermostats use), and the home's location (also in the weather last served, whose query, the
home's postal code, is shown only as its kind).
"""

from __future__ import annotations

from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.core import HomeAssistant

from .entry_data import ThermostatCloudConfigEntry
from .server import SERVER_VERSION

TO_REDACT = {
    "address",  # a thermostat's IP address
    "api_key",
    "api_origin",  # Home Assistant's LAN address
    "api_keys",
    "city",
    "claimed_by",
    "credential",  # a thermostat's own secret (its settings CGI's key)
    "email",
    "full_name",  # the weather's location: city, postal code, country
    "lat",
    "latitude",
    "local_ip",
    "lon",
    "longitude",
    "mac",
    "mac_address",
    "postal_code",
    "short_name",  # the weather's location: the city
    "summary",  # a vacation's name, as the user wrote it
    "temperature_lock_pin_hash",
    "user_id",
    "zip",  # the weather's location: the postal code the thermostat asked about
}


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: ThermostatCloudConfigEntry
) -> dict[str, Any]:
    """Return what support needs to see of the hub and its thermostats."""
    found = entry.runtime_data.service.diagnostics()
    return async_redact_data(
        {
            "entry": {
                "data": dict(entry.data),
                "options": dict(entry.options),
                "subentries": [
                    {"type": s.subentry_type, "title": s.title, "unique_id": s.unique_id}
                    for s in entry.subentries.values()
                ],
            },
            "service": {
                "server_version": SERVER_VERSION,
                "device_port": entry.runtime_data.device_port,
                "bound_port": entry.runtime_data.device_server.bound_port,
                "extra_state": found["extra_state"],
            },
            "home": found["home"],
            "vacations": found["vacations"],
            "thermostats": found["thermostats"],
            "weather": entry.runtime_data.weather.diagnostics(),
        },
        TO_REDACT,
    )
