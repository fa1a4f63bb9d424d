"""Switches: the home's Away, each thermostat's Eco, and the settings each thermostat keeps.

Away and Eco are the climate entity's `away` and `eco` presets as switches, for what carries no
presets (HomeKit Bridge, Matter, Alexa, Google, voice): in the default entity category so those
bridges pick them up, each on exactly when its preset is in effect, each turned on or off by the
same single command the preset is (`set_home_away`, `set_preset`).

The settings are `device` bucket fields firmware keeps and acts on (field names from captures
and the protocol notes' feature reference), written through the command layer's
`set_device_setting`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, override

from homeassistant.components.climate.const import PRESET_ECO, PRESET_NONE
from homeassistant.components.switch import SwitchEntity, SwitchEntityDescription
from homeassistant.const import Platform

from .climate_view import PRESET_READS, climate_preset
from .entity import (
    HomeEntity,
    ThermostatDescribedEntity,
    ThermostatEntityDescription,
    ThermostatSettingDescription,
    ThermostatSettingEntity,
    described,
    platform_setup,
    setting_fields,
)
from .hub import Hub
from .server import EventKind

PARALLEL_UPDATES = 0


@dataclass(frozen=True, kw_only=True)
class ThermostatSwitchDescription(
    SwitchEntityDescription, ThermostatSettingDescription[bool | None]
):
    """An on/off setting and the `device` field it is."""


def _setting(key: str, setting: str) -> ThermostatSwitchDescription:
    """Return the switch of a `device` setting: on or off as reported, unknown until then."""
    return ThermostatSwitchDescription(
        **setting_fields(Platform.SWITCH, key, setting), value_fn=lambda t: t.device_flag(setting)
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
    # Each eco temperature applies while its limit is on (its sensor is unavailable when off).
    _setting("eco_low_limit", "away_temperature_low_enabled"),
    _setting("eco_high_limit", "away_temperature_high_enabled"),
)


class ThermostatSwitch(ThermostatSettingEntity[bool | None], SwitchEntity):
    """One on/off setting the thermostat keeps; unknown until it reported it."""

    entity_description: ThermostatSwitchDescription

    @override
    def _update_attrs(self, view: bool | None) -> None:
        self._attr_is_on = view

    @override
    async def async_turn_on(self, **kwargs: Any) -> None:
        """Turn the setting on at the thermostat."""
        self._write_setting(True)

    @override
    async def async_turn_off(self, **kwargs: Any) -> None:
        """Turn the setting off at the thermostat."""
        self._write_setting(False)


@dataclass(frozen=True, kw_only=True)
class PresetSwitchDescription(SwitchEntityDescription, ThermostatEntityDescription[bool]):
    """A climate preset as a switch: on while the preset is in effect."""


ECO_SWITCH = PresetSwitchDescription(
    key="eco",
    translation_key="eco",
    value_fn=lambda t: climate_preset(t) == PRESET_ECO,
    reads=PRESET_READS,
)


class EcoSwitch(ThermostatDescribedEntity[bool], SwitchEntity):
    """The thermostat's eco: on exactly when the climate entity's preset is `eco`.

    On is the `eco` preset (which also brings the home back from away); off is the `none`
    preset, and does nothing unless the preset is `eco`: with the home away it is off already
    and leaves the home away.
    """

    entity_description: PresetSwitchDescription

    @override
    def _update_attrs(self, view: bool) -> None:
        self._attr_is_on = view

    @override
    async def async_turn_on(self, **kwargs: Any) -> None:
        """Choose the eco preset."""
        self.run_command(self.service.commands.set_preset, PRESET_ECO)

    @override
    async def async_turn_off(self, **kwargs: Any) -> None:
        """Leave the eco preset, if it is the one in effect."""
        if climate_preset(self.thermostat) == PRESET_ECO:
            self.run_command(self.service.commands.set_preset, PRESET_NONE)


HOME_AWAY_READS = frozenset({"structure.away", "structure.manual_eco_all", EventKind.PAIRING})
"""What the Away switch reads: the home's away fields, and which thermostats are in it."""


class HomeAwaySwitch(HomeEntity[bool], SwitchEntity):
    """The home's away state, on the hub's device: the climate entities' `away` preset.

    On sets every thermostat of the home in eco at once (the home's manual eco); off brings
    them all back to their schedules. Available while a thermostat is paired into the home.
    """

    _attr_translation_key = "away"

    def __init__(self, hub: Hub) -> None:
        """Initialize the switch of the hub's home, on the hub's device."""
        self.home = hub.service.home()
        super().__init__(hub, "away", HOME_AWAY_READS)

    @override
    def _project(self) -> bool:
        return self.home.away

    @override
    def _is_available(self) -> bool:
        """Whether a thermostat is paired into the home."""
        return bool(self.home.serials)

    @override
    def _update_attrs(self, view: bool) -> None:
        self._attr_is_on = view

    @override
    async def async_turn_on(self, **kwargs: Any) -> None:
        """Set the home away."""
        self._write(away=True)

    @override
    async def async_turn_off(self, **kwargs: Any) -> None:
        """Bring the home back."""
        self._write(away=False)

    def _write(self, *, away: bool) -> None:
        commands = self.hub.service.commands
        self._run(lambda: commands.set_home_away(self.home.structure_id, away))


async_setup_entry = platform_setup(
    lambda hub, subentry: [EcoSwitch(hub, subentry, ECO_SWITCH)],
    described(ThermostatSwitch, SWITCHES),
    home=lambda hub: [HomeAwaySwitch(hub)],
)
