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
from typing import Any

from homeassistant.components.climate.const import PRESET_ECO, PRESET_NONE
from homeassistant.components.switch import SwitchEntity, SwitchEntityDescription
from homeassistant.const import EntityCategory, Platform
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .climate_view import PRESET_READS, climate_preset
from .const import DOMAIN
from .entity import (
    Shown,
    ThermostatDescribedEntity,
    ThermostatEntityDescription,
    async_add_thermostat_entities,
    command_error,
)
from .entry_data import ThermostatCloudConfigEntry
from .equipment import EQUIPMENT_SETTINGS
from .hub import Hub
from .server import CommandError, EventKind, ServiceEvent

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
    # Each eco temperature applies while its limit is on (its sensor is unavailable when off).
    _setting("eco_low_limit", "away_temperature_low_enabled"),
    _setting("eco_high_limit", "away_temperature_high_enabled"),
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: ThermostatCloudConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Set up the home's Away switch, and the Eco and setting switches of every thermostat."""
    async_add_entities([HomeAwaySwitch(entry.runtime_data)])
    async_add_thermostat_entities(
        hass,
        entry,
        async_add_entities,
        lambda hub, subentry: [
            EcoSwitch(hub, subentry, ECO_SWITCH),
            *(ThermostatSwitch(hub, subentry, d) for d in SWITCHES),
        ],
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

    @property
    def is_on(self) -> bool:
        """As last projected."""
        return self.view

    async def async_turn_on(self, **kwargs: Any) -> None:
        """Choose the eco preset."""
        self.run_command(self.service.commands.set_preset, PRESET_ECO)

    async def async_turn_off(self, **kwargs: Any) -> None:
        """Leave the eco preset, if it is the one in effect."""
        if climate_preset(self.thermostat) == PRESET_ECO:
            self.run_command(self.service.commands.set_preset, PRESET_NONE)


HOME_AWAY_READS = frozenset({"structure.away", "structure.manual_eco_all", EventKind.PAIRING})
"""What the Away switch reads: the home's away fields, and which thermostats are in it."""


class HomeAwaySwitch(SwitchEntity):
    """The home's away state, on the hub's device: the climate entities' `away` preset.

    On sets every thermostat of the home in eco at once (the home's manual eco); off brings
    them all back to their schedules. Available while a thermostat is paired into the home.
    """

    _attr_has_entity_name = True
    _attr_should_poll = False
    _attr_translation_key = "away"

    def __init__(self, hub: Hub) -> None:
        """Initialize the switch of the hub's home, on the hub's device."""
        self.hub = hub
        self.home = hub.service.home()
        entry_id = hub.entry.entry_id
        self._attr_unique_id = f"{entry_id}_away"
        self._attr_device_info = DeviceInfo(identifiers={(DOMAIN, entry_id)})
        self._shown = self._show()

    def _show(self) -> Shown[bool]:
        """Return what the switch shows now: available with a thermostat, on while away."""
        return Shown(bool(self.home.serials), self.home.away)

    @property
    def available(self) -> bool:
        """Whether a thermostat is paired into the home."""
        return self._shown.available

    @property
    def is_on(self) -> bool:
        """Whether the home is away."""
        return self._shown.view

    async def async_added_to_hass(self) -> None:
        """Follow the home's away state and its thermostats."""
        await super().async_added_to_hass()
        self._shown = self._show()
        self.async_on_remove(self.hub.thermostats.listen_home(self._handle_change, HOME_AWAY_READS))

    @callback
    def _handle_change(self, event: ServiceEvent) -> None:
        """Write the state when what the switch shows changed.

        A change of the home comes once per thermostat of the home: written once.
        """
        shown = self._show()
        if shown != self._shown:
            self._shown = shown
            self.async_write_ha_state()

    async def async_turn_on(self, **kwargs: Any) -> None:
        """Set the home away."""
        self._write(away=True)

    async def async_turn_off(self, **kwargs: Any) -> None:
        """Bring the home back."""
        self._write(away=False)

    def _write(self, *, away: bool) -> None:
        try:
            with self.hub.authors.acting(self._context):
                self.hub.service.commands.set_home_away(self.home.structure_id, away)
        except CommandError as err:
            raise command_error(self.hass, err) from err
