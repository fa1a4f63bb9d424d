"""The control API's device status record (`GET /status`, `GET /api/devices`).

Every field of the spec's table is present, read through `state.ThermostatState`; a value the
thermostat has not reported is `null` (or the documented default for the non-nullable ones).
Where each field comes from:

| Field | Source |
|---|---|
| serial | the device |
| api_key | the serial (a self-hosted server has no per-device keys) |
| is_available | `Availability.is_available`: a held subscribe, or a request within the grace |
| last_seen | the device record's `last_seen` (ms), as UTC ISO 8601 without a zone; null if never |
| name | `shared.name`, else `device.name`, else its room (`device.where_id`, see rooms.py), else the serial |
| current_temperature | `shared.current_temperature` |
| target_temperature | `shared.target_temperature` |
| target_temperature_high / _low | `shared.target_temperature_high` / `shared.target_temperature_low` |
| humidity | `device.current_humidity` |
| target_humidity | `device.target_humidity` |
| target_humidity_enabled | `device.target_humidity_enabled` (false when absent) |
| mode | `shared.target_temperature_type` when it is heat, cool, range, off or emergency |
| hvac.<name> | `shared.hvac_<name>_state`; `aux_heat` reads `shared.hvac_aux_heater_state`; `humidifier`, `dehumidifier`, `auto_dehum`, `fan_cooling` read `device.<name>_state` where firmware reports them |
| fan_timer_timeout | `device.fan_timer_timeout` (Unix seconds, 0 when no timer) |
| fan_timer_active | `fan_timer_timeout` is in the future |
| eco_temperatures | `device.away_temperature_high` / `device.away_temperature_low` |
| is_online | `device.is_online` when the device reports it, else `is_available` |
| has_leaf | `shared.leaf` |
| software_version | the version reported in `/svc/entry`, else `device.current_version` |
| temperature_scale | `device.temperature_scale` (`C` when absent) |
| capabilities | `Commands.capabilities` (`shared.can_heat`/`can_cool`, `device.has_*`) |
| eco_mode | `device.eco.mode` when schedule, manual-eco or auto-eco |
| time_to_target | minutes until `device.time_to_target` (a Unix time), rounded up; 0 when it is 0 (no estimate) |
| time_to_target_training_status | `device.time_to_target_training_status` (empty when absent) |
| safety_state | `device.safety_state`, as stored (the spec does not give its type) |
| safety_temp_activating_hvac | `device.safety_temp_activating_hvac`, as stored |
| learning_mode | `device.learning_mode` |
| preconditioning_enabled | `device.preconditioning_enabled` (false when absent) |
| backplate_temperature | `device.backplate_temperature` |
| structure_id | the ownership record's structure; null while unpaired |
| away | `structure.<id>.away`: the home's away state, which `set_away` writes (false while unpaired) |
| schedule_mode | `schedule.schedule_mode` when HEAT, COOL or RANGE |
| taking_commands | false while the thermostat is found not taking commands (`Confirmations`) |
| pending_commands | each field a command asked that the thermostat has not confirmed: `field`, `value`, `since` (asked), `written` (pushed to its held connection, or null) |
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..core import ThermostatService, pending_record


def iso_without_zone(ms: int) -> str:
    """Milliseconds since the epoch as UTC ISO 8601 without a zone: `2027-01-15T08:00:00.000`."""
    return (
        datetime.fromtimestamp(ms / 1000, UTC)
        .replace(tzinfo=None)
        .isoformat(timespec="milliseconds")
    )


def status_record(service: ThermostatService, serial: str) -> dict[str, Any]:
    """Return the spec's control API status record of one device."""
    state = service.thermostat(serial)
    last_seen = state.last_seen_ms
    return {
        "serial": serial,
        "api_key": serial,
        "is_available": state.available,
        "last_seen": iso_without_zone(last_seen) if last_seen else None,
        "name": state.name,
        "current_temperature": state.current_temperature,
        "target_temperature": state.target_temperature,
        "target_temperature_high": state.target_temperature_high,
        "target_temperature_low": state.target_temperature_low,
        "humidity": state.humidity,
        "target_humidity": state.target_humidity,
        "target_humidity_enabled": state.target_humidity_enabled,
        "mode": state.mode,
        "hvac": state.hvac,
        "fan_timer_active": state.fan_timer_active,
        "fan_timer_timeout": state.fan_timer_timeout,
        "eco_temperatures": state.eco_temperatures,
        "is_online": state.is_online,
        "has_leaf": state.leaf,
        "software_version": state.software_version,
        "temperature_scale": state.temperature_scale,
        "capabilities": state.capabilities,
        "eco_mode": state.eco_mode,
        "time_to_target": state.time_to_target,
        "time_to_target_training_status": state.time_to_target_training_status,
        "safety_state": state.safety_state,
        "safety_temp_activating_hvac": state.safety_temp_activating_hvac,
        "learning_mode": state.learning_mode,
        "preconditioning_enabled": state.preconditioning_enabled,
        "backplate_temperature": state.backplate_temperature,
        "structure_id": state.structure_id,
        "away": state.away,
        "schedule_mode": state.schedule_mode,
        **commands_record(service, serial),
    }


def commands_record(service: ThermostatService, serial: str) -> dict[str, Any]:
    """Return whether the thermostat takes commands and what it has not confirmed."""
    return {
        "taking_commands": service.thermostat(serial).taking_commands,
        "pending_commands": [
            pending_record(entry, iso_without_zone) for entry in service.delivery.pending(serial)
        ],
    }


def device_list(service: ThermostatService) -> dict[str, Any]:
    """`GET /api/devices`: every known device's record (paired or not) with its subscriptions."""
    devices = [
        {
            **status_record(service, device.serial),
            "subscription_count": device.subscriptions,
        }
        for device in service.clients.known_devices()
    ]
    return {"devices": devices, "total": len(devices)}
