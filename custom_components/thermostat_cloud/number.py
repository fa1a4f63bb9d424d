"""Temperature settings of each thermostat: safety temperatures, heat pump and dual fuel.

`device.lower_safety_temp` and `upper_safety_temp` (°C), which firmware acts on even while the
thermostat is off or in eco; whether each applies is a switch (switch.py). A heat pump's
outdoor limits (`heat_pump_aux_threshold`: no auxiliary heat above it; `heat_pump_comp_threshold`:
no compressor below it; each with a switch) and dual fuel's `dual_fuel_breakpoint`, created
disabled unless the thermostat reports the equipment (`equipment.py`). Home Assistant shows
them in its own unit; writes go through the command layer's `set_device_setting`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, override

from homeassistant.components.number import (
    NumberDeviceClass,
    NumberEntity,
    NumberEntityDescription,
)
from homeassistant.const import Platform, UnitOfTemperature

from .entity import (
    ThermostatSettingDescription,
    ThermostatSettingEntity,
    described,
    platform_setup,
    setting_fields,
)
from .server import (
    LOWER_SAFETY_MAX_C,
    LOWER_SAFETY_MIN_C,
    OUTDOOR_THRESHOLD_MAX_C,
    OUTDOOR_THRESHOLD_MIN_C,
    UPPER_SAFETY_MAX_C,
    UPPER_SAFETY_MIN_C,
)

PARALLEL_UPDATES = 0


@dataclass(frozen=True, kw_only=True)
class ThermostatNumberDescription(
    NumberEntityDescription, ThermostatSettingDescription[float | int | None]
):
    """A temperature setting, the `device` field it is and how to read it."""


SAFETY_TEMPERATURES = frozenset({"device.lower_safety_temp", "device.upper_safety_temp"})


def _outdoor_limit(key: str, setting: str) -> ThermostatNumberDescription:
    """Return the number of a heat pump's or dual fuel's outdoor temperature (°C)."""
    return ThermostatNumberDescription(
        **setting_fields(Platform.NUMBER, key, setting),
        native_min_value=OUTDOOR_THRESHOLD_MIN_C,
        native_max_value=OUTDOOR_THRESHOLD_MAX_C,
        value_fn=lambda t: t.outdoor_threshold(setting),
    )


def _safety_temperature(
    key: str, end: Literal["lower", "upper"], limits: tuple[float, float]
) -> ThermostatNumberDescription:
    """Return the number of a safety temperature (°C): `device.lower_safety_temp`, `upper_...`."""
    return ThermostatNumberDescription(
        key=key,
        translation_key=key,
        setting=f"{end}_safety_temp",
        native_min_value=limits[0],
        native_max_value=limits[1],
        value_fn=lambda t: t.safety_temperatures[end],
        reads=SAFETY_TEMPERATURES,
    )


NUMBERS: tuple[ThermostatNumberDescription, ...] = (
    _safety_temperature(
        "freeze_protection_temperature", "lower", (LOWER_SAFETY_MIN_C, LOWER_SAFETY_MAX_C)
    ),
    _safety_temperature(
        "heat_protection_temperature", "upper", (UPPER_SAFETY_MIN_C, UPPER_SAFETY_MAX_C)
    ),
    _outdoor_limit("aux_heat_max_outdoor_temperature", "heat_pump_aux_threshold"),
    _outdoor_limit("compressor_min_outdoor_temperature", "heat_pump_comp_threshold"),
    _outdoor_limit("dual_fuel_breakpoint", "dual_fuel_breakpoint"),
)


class ThermostatNumber(ThermostatSettingEntity[float | int | None], NumberEntity):
    """One temperature setting the thermostat keeps, in Home Assistant's unit."""

    entity_description: ThermostatNumberDescription
    _attr_device_class = NumberDeviceClass.TEMPERATURE
    _attr_native_unit_of_measurement = UnitOfTemperature.CELSIUS
    _attr_native_step = 0.5

    @override
    def _update_attrs(self, view: float | None) -> None:
        self._attr_native_value = None if view is None else float(view)

    @override
    async def async_set_native_value(self, value: float) -> None:
        """Write the temperature (Celsius: Home Assistant converted it) to the thermostat."""
        self._write_setting(value)


async_setup_entry = platform_setup(described(ThermostatNumber, NUMBERS))
