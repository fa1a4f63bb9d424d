"""Diagnostics of the hub entry: settings, and per thermostat its record, buckets and links.

Left out or redacted: pairing codes, API keys and everything else in the service's extra state
(only their names are listed), user ids and emails (the `user.<id>` buckets are not included at
all), vacations' names, PIN hashes, MAC and IP addresses (also Home Assistant's own, in the `api_origin` the
thermostats use), and the home's location (also in the weather last served, whose query, the
home's postal code, is shown only as its kind).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.core import HomeAssistant

from .entry_data import ThermostatCloudConfigEntry
from .server import SERVER_VERSION, ThermostatService, bucket_key

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


def _commands(service: ThermostatService, serial: str) -> dict[str, Any]:
    """Return whether a thermostat takes commands: the fields it has not confirmed, and why."""
    trouble = service.confirmations.trouble(serial)
    return {
        "taking_commands": trouble is None,
        "likely_causes": [cause.value for cause in trouble.causes] if trouble else [],
        "pending": [  # without the values asked: one may be a PIN hash
            {
                "field": f"{p.key.partition('.')[0]}.{p.field}",
                "since": p.since_ms,
                "written": p.written_ms,
            }
            for p in service.confirmations.pending(serial)
        ],
    }


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: ThermostatCloudConfigEntry
) -> dict[str, Any]:
    """Return what support needs to see of the hub and its thermostats."""
    service = entry.runtime_data.service
    thermostats: dict[str, Any] = {}
    serials = sorted(
        {*service.roster.known_serials(), *(p.serial for p in service.pairings.pairings())}
    )
    for serial in serials:
        record = service.devices.get(serial)
        pairing = service.pairings.pairing(serial)
        thermostats[serial] = {
            "paired": pairing is not None,
            "paired_at": pairing.paired_at if pairing else None,
            "structure_id": pairing.structure_id if pairing else None,
            "available": service.availability.is_available(serial),
            "subscriptions": service.subscriptions.count(serial),
            "hold": hold.dump() if (hold := service.holds.hold_of(serial)) else None,
            "commands": _commands(service, serial),
            "record": asdict(record) if record is not None else None,
            "buckets": {
                key: bucket.as_stored()
                for key in sorted(service.buckets.keys_of_serial(serial))
                if (bucket := service.buckets.get(key)) is not None
            },
        }
    structure_key = bucket_key("structure", service.pairing.home_structure_id)
    structure = service.buckets.get(structure_key)
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
                "extra_state": sorted(service.extra_state),
            },
            "home": {structure_key: structure.as_stored() if structure is not None else None},
            "vacations": service.vacations.dump(),
            "thermostats": thermostats,
            "weather": entry.runtime_data.weather.diagnostics(),
        },
        TO_REDACT,
    )
