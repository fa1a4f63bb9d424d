"""Settings of a few values each thermostat keeps: its screen's unit, its Heat Pump Balance.

`device.temperature_scale` (`C` or `F`) is the thermostat's display preference: it changes what
the thermostat shows, not what Home Assistant shows or how setpoints are stored (°C always).
Unit mix-ups are a recurring report (NoLongerEvil-Thermostat #86, #94, #184), so it is set
where Home Assistant users look. `device.heatpump_savings` is Heat Pump Balance (the protocol
notes' values, and `off` in a capture); Google's installer guide says it overrides the aux
lockout temperature. Writes go through the command layer's `set_device_setting`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import override

from homeassistant.components.select import SelectEntity, SelectEntityDescription
from homeassistant.const import EntityCategory, Platform

from .entity import (
    ThermostatDescribedEntity,
    ThermostatEntityDescription,
    described,
    platform_setup,
)
from .equipment import EQUIPMENT_SETTINGS

PARALLEL_UPDATES = 0

SCALE_OPTIONS = {"C": "celsius", "F": "fahrenheit"}
"""`device.temperature_scale` -> the option (a translation key) Home Assistant shows."""
HEAT_PUMP_BALANCE_OPTIONS = {
    "off": "off",
    "balanced": "balanced",
    "max-savings": "max_savings",
    "max-comfort": "max_comfort",
}
"""`device.heatpump_savings` -> the option (a translation key) Home Assistant shows."""


@dataclass(frozen=True, kw_only=True)
class ThermostatSelectDescription(SelectEntityDescription, ThermostatEntityDescription[str | None]):
    """A setting of one of a few values, and the `device` field it is."""

    setting: str
    values: dict[str, str]
    """Field value -> option."""


SELECTS: tuple[ThermostatSelectDescription, ...] = (
    ThermostatSelectDescription(
        key="display_unit",
        translation_key="display_unit",
        setting="temperature_scale",
        values=SCALE_OPTIONS,
        options=list(SCALE_OPTIONS.values()),
        value_fn=lambda t: t.display_scale,
        reads=frozenset({"device.temperature_scale"}),
    ),
    ThermostatSelectDescription(
        key="heat_pump_balance",
        translation_key="heat_pump_balance",
        setting="heatpump_savings",
        values=HEAT_PUMP_BALANCE_OPTIONS,
        options=list(HEAT_PUMP_BALANCE_OPTIONS.values()),
        value_fn=lambda t: t.heat_pump_balance,
        reads=frozenset({"device.heatpump_savings"}),
        equipment_fn=EQUIPMENT_SETTINGS[(Platform.SELECT, "heat_pump_balance")],
    ),
)


class ThermostatSelect(ThermostatDescribedEntity[str | None], SelectEntity):
    """One setting the thermostat keeps; unknown until it reported one of its values."""

    entity_description: ThermostatSelectDescription
    _attr_entity_category = EntityCategory.CONFIG

    @override
    def _update_attrs(self, view: str | None) -> None:
        self._attr_current_option = (
            None if view is None else self.entity_description.values.get(view)
        )

    @override
    async def async_select_option(self, option: str) -> None:
        """Write the field value of the option to the thermostat."""
        value = next(v for v, o in self.entity_description.values.items() if o == option)
        commands = self.service.commands
        self.run_command(commands.set_device_setting, self.entity_description.setting, value)


async_setup_entry = platform_setup(described(ThermostatSelect, SELECTS))
