"""Buttons of each thermostat: Resume schedule (ends its hold) and Filter replaced."""

from __future__ import annotations

from homeassistant.components.button import ButtonEntity
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .entity import ThermostatEntity, async_add_thermostat_entities
from .entry_data import ThermostatCloudConfigEntry
from .holds import run
from .hub import Hub

PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: ThermostatCloudConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Set up the buttons of every thermostat subentry."""
    async_add_thermostat_entities(
        hass,
        entry,
        async_add_entities,
        lambda hub, subentry: [
            ResumeScheduleButton(hub, subentry),
            FilterReplacedButton(hub, subentry),
        ],
    )


class ResumeScheduleButton(ThermostatEntity[None], ButtonEntity):
    """Ends the hold (or a dial turn) and gives the thermostat its schedule's setpoint now."""

    _attr_translation_key = "resume_schedule"

    def __init__(self, hub: Hub, subentry: ConfigSubentry) -> None:
        """Initialize the button of one thermostat; it shows nothing but availability."""
        super().__init__(hub, subentry, "resume_schedule", frozenset())

    def _project(self) -> None:
        return None

    async def async_press(self) -> None:
        """Resume the schedule (the service's `holds.resume_schedule`)."""
        run(self.hass, lambda: self.service.holds.resume_schedule(self.serial))


class FilterReplacedButton(ThermostatEntity[None], ButtonEntity):
    """Tells the thermostat its filter was replaced now (`device.filter_changed_date`)."""

    _attr_translation_key = "filter_replaced"
    _attr_entity_category = EntityCategory.CONFIG

    def __init__(self, hub: Hub, subentry: ConfigSubentry) -> None:
        """Initialize the button of one thermostat; it shows nothing but availability."""
        super().__init__(hub, subentry, "filter_replaced", frozenset())

    def _project(self) -> None:
        return None

    async def async_press(self) -> None:
        """Write the time of the change, confirmed like every setting."""
        self.run_command(self.service.commands.filter_replaced)
