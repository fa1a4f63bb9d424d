"""Entities of equipment a thermostat may not have, and when it says it has it.

Firmware reports its equipment (`has_humidifier`, `has_x2_heat`, `has_heat_pump`,
`fan_cooling_enabled`...) in the complete state it sends after a restart, which usually comes
after pairing: an entity created disabled for want of its equipment is enabled once the
thermostat reports having it. Only one the integration disabled: one the user disabled stays
as the user left it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
import logging

from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import entity_registry as er

from .const import DOMAIN
from .server import EQUIPMENT_FIELDS, ThermostatState

_LOGGER = logging.getLogger(__name__)

type HasEquipment = Callable[[ThermostatState], bool]


def _has(field: str) -> HasEquipment:
    """Return the check that the thermostat reports one piece of equipment (`capabilities`)."""
    return lambda thermostat: thermostat.capabilities[field]


HAS_HEAT_PUMP = _has("has_heat_pump")
HAS_DUAL_FUEL = _has("has_dual_fuel")

EQUIPMENT_BINARY_SENSORS: Mapping[str, HasEquipment] = {
    "humidifier": _has("has_humidifier"),
    # A dehumidifier, or the air conditioning dehumidifying ("cool to dry").
    "dehumidifier": lambda t: t.capabilities["has_dehumidifier"] or t.has_cool_to_dry,
    # Airwave: the fan runs on after the compressor stopped, cooling with the cold coil.
    "airwave": lambda t: t.has_airwave,
    # Every stage beyond the first, and the other heat sources.
    "heating_stage_2": _has("has_x2_heat"),
    "heating_stage_3": _has("has_x3_heat"),
    "aux_heat": _has("has_aux_heat"),
    "alt_heat": _has("has_alt_heat"),
    "alt_heat_stage_2": _has("has_x2_alt_heat"),
    "emergency_heat": _has("has_emer_heat"),
    "cooling_stage_2": _has("has_x2_cool"),
    "cooling_stage_3": _has("has_x3_cool"),
}
"""Binary sensor key -> whether the thermostat has what it shows."""

EQUIPMENT_SETTINGS: Mapping[tuple[Platform, str], HasEquipment] = {
    (Platform.NUMBER, "aux_heat_max_outdoor_temperature"): HAS_HEAT_PUMP,
    (Platform.SWITCH, "aux_heat_outdoor_lockout"): HAS_HEAT_PUMP,
    (Platform.NUMBER, "compressor_min_outdoor_temperature"): HAS_HEAT_PUMP,
    (Platform.SWITCH, "compressor_outdoor_lockout"): HAS_HEAT_PUMP,
    (Platform.NUMBER, "dual_fuel_breakpoint"): HAS_DUAL_FUEL,
    (Platform.SELECT, "heat_pump_balance"): HAS_HEAT_PUMP,
}
"""(platform, key) of the settings of a heat pump or dual fuel -> whether the thermostat has it."""

HAS_EQUIPMENT: Mapping[str, HasEquipment] = {
    # `can_heat`/`can_cool`: heating is assumed until the thermostat says (see climate.py).
    "heating_stage_1": _has("can_heat"),
    "heating_stage_2": _has("has_x2_heat"),
    "heating_stage_3": _has("has_x3_heat"),
    "aux_heat": _has("has_aux_heat"),
    "emergency_heat": _has("has_emer_heat"),
    "alt_heat": _has("has_alt_heat"),
    "cooling_stage_1": _has("can_cool"),
    "cooling_stage_2": _has("has_x2_cool"),
    "cooling_stage_3": _has("has_x3_cool"),
    "fan": _has("has_fan"),
    **{key: EQUIPMENT_BINARY_SENSORS[key] for key in ("humidifier", "dehumidifier", "airwave")},
}
"""Runtime ledger equipment (`server.EQUIPMENT`) -> whether the thermostat has it."""

EQUIPMENT_SENSORS: Mapping[str, HasEquipment] = {
    **{f"{equipment}_runtime": has for equipment, has in HAS_EQUIPMENT.items()},
    "heating_cycles": HAS_EQUIPMENT["heating_stage_1"],
    "cooling_cycles": HAS_EQUIPMENT["cooling_stage_1"],
    # The filter's runtime, once the thermostat counts it (`filter_runtime_sec`).
    "filter_runtime": lambda t: t.filter_runtime_seconds is not None,
}
"""Sensor key -> whether the thermostat has what it counts."""

EQUIPMENT_ENTITIES: Mapping[tuple[Platform, str], HasEquipment] = {
    **{(Platform.BINARY_SENSOR, key): has for key, has in EQUIPMENT_BINARY_SENSORS.items()},
    **{(Platform.SENSOR, key): has for key, has in EQUIPMENT_SENSORS.items()},
    **EQUIPMENT_SETTINGS,
}


EQUIPMENT_READS = frozenset(
    {
        # `capabilities` and `equipment_reported`.
        "shared.can_heat",
        "shared.can_cool",
        *(f"device.{field}" for field in EQUIPMENT_FIELDS),
        # `has_cool_to_dry`, `has_airwave`, `filter_runtime_seconds`.
        "device.auto_dehum_enabled",
        "device.fan_cooling_enabled",
        "device.filter_runtime_sec",
        # `reported_errors`, which the equipment's repair issues quote.
        "device.error_code",
        "device.wiring_error",
    }
)
"""What `reported_equipment`, `equipment_reported` and `reported_errors` read."""


def reported_equipment(thermostat: ThermostatState) -> frozenset[tuple[Platform, str]]:
    """Return the (platform, key) of the entities whose equipment the thermostat reports."""
    return frozenset(entity for entity, has in EQUIPMENT_ENTITIES.items() if has(thermostat))


@callback
def async_enable_reported_equipment(
    hass: HomeAssistant, serial: str, entities: frozenset[tuple[Platform, str]]
) -> None:
    """Enable the entities of `entities` that the integration created disabled.

    Home Assistant reloads the entry a little later to add them, as when a person enables one.
    """
    registry = er.async_get(hass)
    for platform, key in entities:
        entity_id = registry.async_get_entity_id(platform, DOMAIN, f"{serial}_{key}")
        entry = registry.async_get(entity_id) if entity_id is not None else None
        if entry is not None and entry.disabled_by is er.RegistryEntryDisabler.INTEGRATION:
            _LOGGER.info("Thermostat %s reports its %s: enabling %s", serial, key, entry.entity_id)
            registry.async_update_entity(entry.entity_id, disabled_by=None)
