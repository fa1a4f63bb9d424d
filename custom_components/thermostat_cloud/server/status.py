"""The control API's device status record (`GET /status`, `GET /api/devices`), from buckets.

Every field of the spec's table is present; a value the thermostat has not reported is `null`
(or the documented default for the non-nullable ones). Where each field comes from:

| Field | Source |
|---|---|
| serial | the device |
| api_key | the serial (a self-hosted server has no per-device keys) |
| is_available | `ThermostatService.is_available`: a held subscribe, or a request within the grace |
| last_seen | the device record's `last_seen` (ms), as UTC ISO 8601 without a zone; null if never |
| name | `shared.name`, else `device.name`, else the serial |
| current_temperature | `shared.current_temperature` |
| target_temperature | `shared.target_temperature` |
| target_temperature_high / _low | `shared.target_temperature_high` / `shared.target_temperature_low` |
| humidity | `device.current_humidity` |
| target_humidity | `device.target_humidity` |
| target_humidity_enabled | `device.target_humidity_enabled` (false when absent) |
| mode | `shared.target_temperature_type` when it is heat, cool, range, off or emergency |
| hvac.<name> | `shared.hvac_<name>_state`; `aux_heat` reads `shared.hvac_aux_heater_state` |
| fan_timer_timeout | `device.fan_timer_timeout` (Unix seconds, 0 when no timer) |
| fan_timer_active | `fan_timer_timeout` is in the future |
| eco_temperatures | `device.away_temperature_high` / `device.away_temperature_low` |
| is_online | `device.is_online` when the device reports it, else `is_available` |
| has_leaf | `shared.leaf` |
| software_version | the version reported in `/svc/entry`, else `device.current_version` |
| temperature_scale | `device.temperature_scale` (`C` when absent) |
| capabilities | `Commands.capabilities` (`shared.can_heat`/`can_cool`, `device.has_*`) |
| eco_mode | `device.eco.mode` when schedule, manual-eco or auto-eco |
| time_to_target | `device.time_to_target` |
| time_to_target_training_status | `device.time_to_target_training_status` (empty when absent) |
| safety_state | `device.safety_state`, as stored (the spec does not give its type) |
| safety_temp_activating_hvac | `device.safety_temp_activating_hvac`, as stored |
| learning_mode | `device.learning_mode` |
| preconditioning_enabled | `device.preconditioning_enabled` (false when absent) |
| backplate_temperature | `device.backplate_temperature` |
| structure_id | the ownership record's structure; null while unpaired |
| away | `structure.<id>.away`: the home's away state, which `set_away` writes (false while unpaired) |
| schedule_mode | `schedule.schedule_mode` when HEAT, COOL or RANGE |
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
import math
from typing import Any

from .buckets import bucket_key
from .commands import HVAC_MODES, SCHEDULE_MODES
from .service import ThermostatService

ECO_MODES = ("schedule", "manual-eco", "auto-eco")

# Status record `hvac` names -> `shared` bucket fields.
HVAC_FIELDS = {
    "heater": "hvac_heater_state",
    "heat_x2": "hvac_heat_x2_state",
    "heat_x3": "hvac_heat_x3_state",
    "ac": "hvac_ac_state",
    "cool_x2": "hvac_cool_x2_state",
    "cool_x3": "hvac_cool_x3_state",
    "fan": "hvac_fan_state",
    "aux_heat": "hvac_aux_heater_state",
    "emer_heat": "hvac_emer_heat_state",
    "alt_heat": "hvac_alt_heat_state",
    "humidifier": "hvac_humidifier_state",
    "dehumidifier": "hvac_dehumidifier_state",
    "auto_dehum": "hvac_auto_dehum_state",
    "fan_cooling": "hvac_fan_cooling_state",
}


def _number(value: object) -> float | int | None:
    """A finite JSON number as stored, else None (booleans are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return value if math.isfinite(value) else None


def _string(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _one_of(value: object, allowed: tuple[str, ...]) -> str | None:
    return value if isinstance(value, str) and value in allowed else None


def iso_without_zone(ms: int) -> str:
    """Milliseconds since the epoch as UTC ISO 8601 without a zone: `2027-01-15T08:00:00.000`."""
    return (
        datetime.fromtimestamp(ms / 1000, UTC)
        .replace(tzinfo=None)
        .isoformat(timespec="milliseconds")
    )


def status_record(service: ThermostatService, serial: str) -> dict[str, Any]:
    """The spec's control API status record of one device."""
    buckets = service.buckets
    shared: Mapping[str, Any] = buckets.value(bucket_key("shared", serial))
    device: Mapping[str, Any] = buckets.value(bucket_key("device", serial))
    schedule: Mapping[str, Any] = buckets.value(bucket_key("schedule", serial))
    pairing = service.pairings.pairing(serial)
    structure: Mapping[str, Any] = (
        buckets.value(bucket_key("structure", pairing.structure_id)) if pairing else {}
    )
    record = service.devices.get(serial)
    available = service.is_available(serial)
    fan_timeout = _number(device.get("fan_timer_timeout")) or 0
    eco = device.get("eco")
    online = device.get("is_online")
    return {
        "serial": serial,
        "api_key": serial,
        "is_available": available,
        "last_seen": iso_without_zone(record.last_seen) if record and record.last_seen else None,
        "name": _string(shared.get("name")) or _string(device.get("name")) or serial,
        "current_temperature": _number(shared.get("current_temperature")),
        "target_temperature": _number(shared.get("target_temperature")),
        "target_temperature_high": _number(shared.get("target_temperature_high")),
        "target_temperature_low": _number(shared.get("target_temperature_low")),
        "humidity": _number(device.get("current_humidity")),
        "target_humidity": _number(device.get("target_humidity")),
        "target_humidity_enabled": device.get("target_humidity_enabled") is True,
        "mode": _one_of(shared.get("target_temperature_type"), HVAC_MODES),
        "hvac": {name: shared.get(field) is True for name, field in HVAC_FIELDS.items()},
        "fan_timer_active": fan_timeout > service.clock.now_ms() / 1000,
        "fan_timer_timeout": fan_timeout,
        "eco_temperatures": {
            "high": _number(device.get("away_temperature_high")),
            "low": _number(device.get("away_temperature_low")),
        },
        "is_online": online if isinstance(online, bool) else available,
        "has_leaf": shared.get("leaf") is True,
        "software_version": (record.software_version if record else None)
        or _string(device.get("current_version")),
        "temperature_scale": _one_of(device.get("temperature_scale"), ("C", "F")) or "C",
        "capabilities": service.commands.capabilities(serial),
        "eco_mode": _one_of(eco.get("mode") if isinstance(eco, dict) else None, ECO_MODES),
        "time_to_target": _number(device.get("time_to_target")),
        "time_to_target_training_status": _string(device.get("time_to_target_training_status"))
        or "",
        "safety_state": device.get("safety_state"),
        "safety_temp_activating_hvac": device.get("safety_temp_activating_hvac"),
        "learning_mode": device.get("learning_mode")
        if isinstance(device.get("learning_mode"), bool)
        else None,
        "preconditioning_enabled": device.get("preconditioning_enabled") is True,
        "backplate_temperature": _number(device.get("backplate_temperature")),
        "structure_id": pairing.structure_id if pairing else None,
        "away": structure.get("away") is True,
        "schedule_mode": _one_of(schedule.get("schedule_mode"), SCHEDULE_MODES),
    }


def device_list(service: ThermostatService) -> dict[str, Any]:
    """`GET /api/devices`: every known device's record with its subscription count."""
    devices = [
        {**status_record(service, serial), "subscription_count": service.hub.count(serial)}
        for serial in service.known_serials()
    ]
    return {"devices": devices, "total": len(devices)}
