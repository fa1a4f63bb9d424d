"""Binary sensors of each thermostat: connectivity, the leaf and what its relays are doing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from homeassistant.components.binary_sensor import (
    BinarySensorEntity,
    BinarySensorEntityDescription,
)
from homeassistant.components.binary_sensor.const import BinarySensorDeviceClass
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .entity import ThermostatDescribedEntity, async_add_thermostat_entities
from .entry_data import ThermostatCloudConfigEntry
from .equipment import EQUIPMENT_BINARY_SENSORS
from .hub import Hub
from .server import ThermostatState

PARALLEL_UPDATES = 0


@dataclass(frozen=True, kw_only=True)
class ThermostatBinarySensorDescription(BinarySensorEntityDescription):
    """A binary sensor and how to read it."""

    is_on_fn: Callable[[ThermostatState], bool]
    always_available: bool = False
    """Stays available while the thermostat is not (the connectivity sensor itself)."""
    equipment_fn: Callable[[ThermostatState], bool] | None = None
    """Whether the thermostat has the equipment this shows; without it (or before the
    thermostat said) the entity is created disabled, and enabled once the thermostat reports
    the equipment (`equipment.py`)."""


BINARY_SENSORS: tuple[ThermostatBinarySensorDescription, ...] = (
    ThermostatBinarySensorDescription(
        key="online",
        translation_key="online",
        device_class=BinarySensorDeviceClass.CONNECTIVITY,
        entity_category=EntityCategory.DIAGNOSTIC,
        is_on_fn=lambda t: t.available,
        always_available=True,
    ),
    ThermostatBinarySensorDescription(
        key="leaf",
        translation_key="leaf",
        is_on_fn=lambda t: t.leaf,
    ),
    ThermostatBinarySensorDescription(
        key="heating",
        translation_key="heating",
        device_class=BinarySensorDeviceClass.RUNNING,
        is_on_fn=lambda t: t.heating,
    ),
    ThermostatBinarySensorDescription(
        key="cooling",
        translation_key="cooling",
        device_class=BinarySensorDeviceClass.RUNNING,
        is_on_fn=lambda t: t.cooling,
    ),
    ThermostatBinarySensorDescription(
        key="fan",
        translation_key="fan",
        device_class=BinarySensorDeviceClass.RUNNING,
        is_on_fn=lambda t: t.fan_running,
    ),
    ThermostatBinarySensorDescription(
        # A fan timer runs (`set_fan_timer`, or set on the thermostat); its end is a sensor.
        key="fan_timer",
        translation_key="fan_timer",
        device_class=BinarySensorDeviceClass.RUNNING,
        is_on_fn=lambda t: t.fan_timer_active,
    ),
    ThermostatBinarySensorDescription(
        key="humidifier",
        translation_key="humidifier",
        device_class=BinarySensorDeviceClass.RUNNING,
        is_on_fn=lambda t: t.humidifying,
        equipment_fn=EQUIPMENT_BINARY_SENSORS["humidifier"],
    ),
    ThermostatBinarySensorDescription(
        key="dehumidifier",
        translation_key="dehumidifier",
        device_class=BinarySensorDeviceClass.RUNNING,
        is_on_fn=lambda t: t.dehumidifying,
        equipment_fn=EQUIPMENT_BINARY_SENSORS["dehumidifier"],
    ),
    ThermostatBinarySensorDescription(
        key="airwave",
        translation_key="airwave",
        device_class=BinarySensorDeviceClass.RUNNING,
        is_on_fn=lambda t: t.fan_cooling,
        equipment_fn=EQUIPMENT_BINARY_SENSORS["airwave"],
    ),
    ThermostatBinarySensorDescription(
        # The thermostat's filter reminder is due (with `filter_reminder_enabled`, a switch).
        key="filter_replacement",
        translation_key="filter_replacement",
        device_class=BinarySensorDeviceClass.PROBLEM,
        is_on_fn=lambda t: t.filter_replacement_needed,
    ),
    ThermostatBinarySensorDescription(
        key="temperature_lock",
        translation_key="temperature_lock",
        entity_category=EntityCategory.DIAGNOSTIC,
        is_on_fn=lambda t: t.temperature_lock_enabled,
    ),
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: ThermostatCloudConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Set up the binary sensors of every thermostat subentry."""
    async_add_thermostat_entities(
        hass,
        entry,
        async_add_entities,
        lambda hub, subentry: [ThermostatBinarySensor(hub, subentry, d) for d in BINARY_SENSORS],
    )


class ThermostatBinarySensor(
    ThermostatDescribedEntity[ThermostatBinarySensorDescription], BinarySensorEntity
):
    """One on/off fact about the thermostat."""

    entity_description: ThermostatBinarySensorDescription

    def __init__(
        self, hub: Hub, subentry: ConfigSubentry, description: ThermostatBinarySensorDescription
    ) -> None:
        """Initialize; equipment the thermostat does not report makes it disabled by default."""
        super().__init__(hub, subentry, description)
        if (has_equipment := description.equipment_fn) is not None:
            self._attr_entity_registry_enabled_default = has_equipment(self.thermostat)

    @property
    def available(self) -> bool:
        """Unavailable with the thermostat, except the connectivity sensor."""
        return self.entity_description.always_available or super().available

    @property
    def is_on(self) -> bool:
        """Read from the buckets as they are now."""
        return self.entity_description.is_on_fn(self.thermostat)
