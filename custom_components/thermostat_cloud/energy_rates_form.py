"""The thermostat's reconfigure form: the power or gas rate of each piece of its equipment.

Fields for the equipment the thermostat reports, and any given before (see `energy.py` for
what the rates become); then the room: a temperature offset and the sensors to follow
(`room_source.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.components.sensor import SensorDeviceClass
from homeassistant.const import ATTR_UNIT_OF_MEASUREMENT, UnitOfTemperature
from homeassistant.core import HomeAssistant
from homeassistant.helpers import selector
import probatio

from .energy import MAX_RATE, RATE_FIELDS
from .equipment import HAS_EQUIPMENT
from .room_source import CONF_FOLLOWED_SENSORS, CONF_TEMPERATURE_OFFSET, sensor_celsius
from .server import ELECTRICITY, GAS, OFFSET_MAX_C, ThermostatState


def _rate_selector(step: float, unit: str) -> selector.NumberSelector:
    return selector.NumberSelector(
        selector.NumberSelectorConfig(
            min=0,
            max=MAX_RATE,
            step=step,
            unit_of_measurement=unit,
            mode=selector.NumberSelectorMode.BOX,
        )
    )


RATE_SELECTORS = {ELECTRICITY: _rate_selector(0.01, "kW"), GAS: _rate_selector(0.001, "m³/h")}


def rates_schema(thermostat: ThermostatState | None, given: Mapping[str, Any]) -> probatio.Schema:
    """Return the form's fields: the thermostat's equipment's, and those `given` before.

    Every field when the thermostat cannot be read (the hub not loaded).
    """
    fields: dict[Any, Any] = {}
    for key, (equipment, kind) in RATE_FIELDS.items():
        has = HAS_EQUIPMENT[equipment]
        if thermostat is None or has(thermostat) or key in given:
            fields[probatio.Optional(key)] = RATE_SELECTORS[kind]
    return probatio.Schema(fields)


def rates_from_input(user_input: Mapping[str, Any]) -> dict[str, float]:
    """Return the rates the form was given: a blank or zero field is no rate."""
    return {
        key: float(value)
        for key, value in user_input.items()
        if key in RATE_FIELDS and isinstance(value, int | float) and value > 0
    }


ROOM_SCHEMA = probatio.Schema(
    {
        probatio.Optional(CONF_TEMPERATURE_OFFSET, default=0.0): selector.NumberSelector(
            selector.NumberSelectorConfig(
                min=-OFFSET_MAX_C,
                max=OFFSET_MAX_C,
                step=0.5,
                unit_of_measurement=UnitOfTemperature.CELSIUS,
                mode=selector.NumberSelectorMode.BOX,
            )
        ),
        probatio.Optional(CONF_FOLLOWED_SENSORS, default=[]): selector.EntitySelector(
            selector.EntitySelectorConfig(
                domain="sensor", device_class=SensorDeviceClass.TEMPERATURE, multiple=True
            )
        ),
    }
)


def room_from_input(
    hass: HomeAssistant, user_input: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, str]]:
    """Return the room options given, or the errors that refuse them (by field).

    An offset beyond +-5 °C; a sensor that is not a temperature sensor, or reads no room
    temperature now (text, an absurd value). A sensor unavailable now is taken: it may come back.
    """
    errors: dict[str, str] = {}
    offset = user_input.get(CONF_TEMPERATURE_OFFSET, 0.0)
    if not isinstance(offset, int | float) or abs(offset) > OFFSET_MAX_C:
        errors[CONF_TEMPERATURE_OFFSET] = "offset_out_of_range"
    sensors = user_input.get(CONF_FOLLOWED_SENSORS, [])
    for entity_id in sensors:
        state = hass.states.get(entity_id)
        if state is None:
            errors[CONF_FOLLOWED_SENSORS] = "sensor_not_found"
        elif state.attributes.get("device_class") != SensorDeviceClass.TEMPERATURE:
            errors[CONF_FOLLOWED_SENSORS] = "sensor_not_temperature"
        elif state.state not in ("unavailable", "unknown") and (
            sensor_celsius(state.state, state.attributes.get(ATTR_UNIT_OF_MEASUREMENT)) is None
        ):
            errors[CONF_FOLLOWED_SENSORS] = "sensor_not_room_temperature"
    if errors:
        return {}, errors
    room: dict[str, Any] = {}
    if offset:
        room[CONF_TEMPERATURE_OFFSET] = float(offset)
    if sensors:
        room[CONF_FOLLOWED_SENSORS] = list(sensors)
    return room, {}
