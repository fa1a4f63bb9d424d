"""Settings of each thermostat that are on or off, where Home Assistant users look for them.

Each is a `device` bucket field firmware keeps and acts on (field names from captures and the
protocol notes' feature reference), written through the command layer's `set_device_setting`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from homeassistant.components.switch import SwitchEntity, SwitchEntityDescription
from homeassistant.const import EntityCategory, Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .entity import (
    ThermostatDescribedEntity,
    ThermostatEntityDescription,
    async_add_thermostat_entities,
)
from .entry_data import ThermostatCloudConfigEntry
from .equipment import EQUIPMENT_SETTINGS

PARALLEL_UPDATES = 0


@dataclass(frozen=True, kw_only=True)
class ThermostatSwitchDescription(
    SwitchEntityDescription, ThermostatEntityDescription[bool | None]
):
    """A setting and the `device` field (a name `set_device_setting` takes) it is."""

    setting: str


def _setting(key: str, setting: str) -> ThermostatSwitchDescription:
    """Return the switch of a `device` setting: on or off as reported, unknown until then.

    A setting of equipment the thermostat may lack (a heat pump) is created disabled unless
    it reports the equipment (`equipment.py`).
    """
    return ThermostatSwitchDescription(
        key=key,
        translation_key=key,
        setting=setting,
        value_fn=lambda t: t.device_flag(setting),
        reads=frozenset({f"device.{setting}"}),
        equipment_fn=EQUIPMENT_SETTINGS.get((Platform.SWITCH, key)),
    )


SWITCHES: tuple[ThermostatSwitchDescription, ...] = (
    # Learning may modify a pushed schedule (protocol notes): see `set_schedule`.
    _setting("learning", "learning_mode"),
    # The thermostat's occupancy sensor (Home/Away Assist): auto-eco when nobody is seen.
    _setting("home_away_assist", "auto_away_enable"),
    _setting("sunlight_correction", "sunlight_correction_enabled"),
    _setting("filter_reminder", "filter_reminder_enabled"),
    # Safety temperatures heat or cool even while off or in eco: see the number entities.
    _setting("freeze_protection", "lower_safety_temp_enabled"),
    _setting("heat_protection", "upper_safety_temp_enabled"),
    # A heat pump's outdoor limits apply while these are on: see the number entities.
    _setting("aux_heat_outdoor_lockout", "heat_pump_aux_threshold_enabled"),
    _setting("compressor_outdoor_lockout", "heat_pump_comp_threshold_enabled"),
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: ThermostatCloudConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Set up the setting switches of every thermostat subentry."""
    async_add_thermostat_entities(
        hass,
        entry,
        async_add_entities,
        lambda hub, subentry: [ThermostatSwitch(hub, subentry, d) for d in SWITCHES],
    )


class ThermostatSwitch(ThermostatDescribedEntity[bool | None], SwitchEntity):
    """One on/off setting the thermostat keeps; unknown until it reported it."""

    entity_description: ThermostatSwitchDescription
    _attr_entity_category = EntityCategory.CONFIG

    @property
    def is_on(self) -> bool | None:
        """As last projected."""
        return self.view

    async def async_turn_on(self, **kwargs: Any) -> None:
        """Turn the setting on at the thermostat."""
        self._write(on=True)

    async def async_turn_off(self, **kwargs: Any) -> None:
        """Turn the setting off at the thermostat."""
        self._write(on=False)

    def _write(self, *, on: bool) -> None:
        commands = self.service.commands
        self.run_command(commands.set_device_setting, self.entity_description.setting, on)
