"""Buttons of each thermostat: Resume schedule (ends its hold) and Filter replaced."""

from __future__ import annotations

from typing import override

from homeassistant.components.button import ButtonEntity
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import EntityCategory

from .entity import ThermostatEntity, platform_setup
from .holds import run
from .hub import Hub

PARALLEL_UPDATES = 0


class ThermostatButton(ThermostatEntity[None], ButtonEntity):
    """A button of one thermostat, keyed by its translation key; it shows only availability."""

    def __init__(self, hub: Hub, subentry: ConfigSubentry) -> None:
        """Initialize the button of one thermostat."""
        super().__init__(hub, subentry, self._attr_translation_key, frozenset())

    @override
    def _project(self) -> None:
        return None

    @override
    def _update_attrs(self, view: None) -> None:
        """Nothing to copy: a button has no state of its own."""


class ResumeScheduleButton(ThermostatButton):
    """Ends the hold (or a dial turn) and gives the thermostat its schedule's setpoint now."""

    _attr_translation_key = "resume_schedule"

    @override
    async def async_press(self) -> None:
        """Resume the schedule (the service's `holds.resume_schedule`)."""
        run(self.hass, lambda: self.service.holds.resume_schedule(self.serial))


class FilterReplacedButton(ThermostatButton):
    """Tells the thermostat its filter was replaced now (`device.filter_changed_date`)."""

    _attr_translation_key = "filter_replaced"
    _attr_entity_category = EntityCategory.CONFIG

    @override
    async def async_press(self) -> None:
        """Write the time of the change, confirmed like every setting."""
        self.run_command(self.service.commands.filter_replaced)


async_setup_entry = platform_setup(
    lambda hub, subentry: [ResumeScheduleButton(hub, subentry), FilterReplacedButton(hub, subentry)]
)
