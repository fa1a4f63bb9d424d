"""Settings of a few values each thermostat keeps: its screen's unit, its Heat Pump Balance.

`device.temperature_scale` (`C` or `F`) is the thermostat's display preference: it changes what
the thermostat shows, not what Home Assistant shows or how setpoints are stored (°C always).
Unit mix-ups are a recurring report (NoLongerEvil-Thermostat #86, #94, #184), so it is set
where Home Assistant users look. `device.heatpump_savings` is Heat Pump Balance (the protocol
notes' values, and `off` in a capture); Google's installer guide says it overrides the aux
lockout temperature. Writes go through the command layer's `set_device_setting`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import override

from homeassistant.components.select import SelectEntity, SelectEntityDescription
from homeassistant.const import Platform

from .entity import (
    ThermostatSettingDescription,
    ThermostatSettingEntity,
    described,
    platform_setup,
    setting_fields,
)
from .server import ThermostatState

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
class ThermostatSelectDescription(
    SelectEntityDescription, ThermostatSettingDescription[str | None]
):
    """A setting of one of a few values, and the `device` field it is."""

    values: dict[str, str]
    """Field value -> option."""


def _select(
    key: str,
    setting: str,
    values: dict[str, str],
    value_fn: Callable[[ThermostatState], str | None],
) -> ThermostatSelectDescription:
    """Return the select of a `device` setting, its options the values' translation keys."""
    return ThermostatSelectDescription(
        **setting_fields(Platform.SELECT, key, setting),
        values=values,
        options=list(values.values()),
        value_fn=value_fn,
    )


SELECTS: tuple[ThermostatSelectDescription, ...] = (
    _select("display_unit", "temperature_scale", SCALE_OPTIONS, lambda t: t.display_scale),
    _select(
        "heat_pump_balance",
        "heatpump_savings",
        HEAT_PUMP_BALANCE_OPTIONS,
        lambda t: t.heat_pump_balance,
    ),
)


class ThermostatSelect(ThermostatSettingEntity[str | None], SelectEntity):
    """One setting the thermostat keeps; unknown until it reported one of its values."""

    entity_description: ThermostatSelectDescription

    @override
    def _update_attrs(self, view: str | None) -> None:
        self._attr_current_option = (
            None if view is None else self.entity_description.values.get(view)
        )

    @override
    async def async_select_option(self, option: str) -> None:
        """Write the field value of the option to the thermostat."""
        self._write_setting(
            next(v for v, o in self.entity_description.values.items() if o == option)
        )


async_setup_entry = platform_setup(described(ThermostatSelect, SELECTS))
