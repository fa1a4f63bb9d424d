"""Sensors of each thermostat: what it measures and reports beyond the climate entity."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from homeassistant.components.sensor import (
    SensorDeviceClass,
    SensorEntity,
    SensorEntityDescription,
    SensorStateClass,
)
from homeassistant.const import (
    PERCENTAGE,
    EntityCategory,
    UnitOfElectricPotential,
    UnitOfTemperature,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .entity import (
    ThermostatDescribedEntity,
    ThermostatEntityDescription,
    async_add_thermostat_entities,
)
from .entry_data import ThermostatCloudConfigEntry
from .holds import HoldUntilSensor
from .server import ECO_MODES, ThermostatState

PARALLEL_UPDATES = 0


type SensorValue = float | str | datetime | None


@dataclass(frozen=True, kw_only=True)
class ThermostatSensorDescription(
    SensorEntityDescription, ThermostatEntityDescription[SensorValue]
):
    """A sensor and how to read it from the thermostat's buckets."""

    applies_fn: Callable[[ThermostatState], bool] | None = None
    """Whether the value exists now: a timestamp of something that is not happening (no fan
    timer, no estimate) is unavailable rather than unknown, which reads as a fault; a binary
    sensor beside it says in words what is happening."""


def _last_seen(thermostat: ThermostatState) -> datetime | None:
    last_seen = thermostat.last_seen_ms
    return datetime.fromtimestamp(last_seen / 1000, UTC) if last_seen else None


def _fan_timer_end(thermostat: ThermostatState) -> datetime | None:
    if not thermostat.fan_timer_active:
        return None
    return datetime.fromtimestamp(thermostat.fan_timer_timeout, UTC)


def _target_reached_at(thermostat: ThermostatState) -> datetime | None:
    reached_at = thermostat.target_reached_at
    return datetime.fromtimestamp(reached_at, UTC) if reached_at is not None else None


ECO_TEMPERATURES = frozenset({"device.away_temperature_low", "device.away_temperature_high"})

SENSORS: tuple[ThermostatSensorDescription, ...] = (
    ThermostatSensorDescription(
        key="temperature",
        device_class=SensorDeviceClass.TEMPERATURE,
        state_class=SensorStateClass.MEASUREMENT,
        native_unit_of_measurement=UnitOfTemperature.CELSIUS,
        suggested_display_precision=1,
        value_fn=lambda t: t.current_temperature,
        reads=frozenset({"shared.current_temperature"}),
    ),
    ThermostatSensorDescription(
        key="humidity",
        device_class=SensorDeviceClass.HUMIDITY,
        state_class=SensorStateClass.MEASUREMENT,
        native_unit_of_measurement=PERCENTAGE,
        suggested_display_precision=0,
        value_fn=lambda t: t.humidity,
        reads=frozenset({"device.current_humidity"}),
    ),
    ThermostatSensorDescription(
        key="backplate_temperature",
        translation_key="backplate_temperature",
        device_class=SensorDeviceClass.TEMPERATURE,
        state_class=SensorStateClass.MEASUREMENT,
        native_unit_of_measurement=UnitOfTemperature.CELSIUS,
        suggested_display_precision=1,
        entity_category=EntityCategory.DIAGNOSTIC,
        entity_registry_enabled_default=False,
        value_fn=lambda t: t.backplate_temperature,
        reads=frozenset({"device.backplate_temperature"}),
    ),
    ThermostatSensorDescription(
        # The key of the sensor that read `device.time_to_target` as minutes, which it never
        # was (a Unix time: real ones read unknown); the same entity now shows the time.
        key="time_to_target",
        translation_key="time_to_target",
        device_class=SensorDeviceClass.TIMESTAMP,
        value_fn=_target_reached_at,
        applies_fn=lambda t: t.has_target_estimate,
        reads=frozenset({"device.time_to_target"}),
    ),
    ThermostatSensorDescription(
        key="eco_mode",
        translation_key="eco_mode",
        device_class=SensorDeviceClass.ENUM,
        options=list(ECO_MODES),
        value_fn=lambda t: t.eco_mode,
        reads=frozenset({"device.eco"}),
    ),
    ThermostatSensorDescription(
        key="eco_temperature_low",
        translation_key="eco_temperature_low",
        device_class=SensorDeviceClass.TEMPERATURE,
        native_unit_of_measurement=UnitOfTemperature.CELSIUS,
        suggested_display_precision=1,
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=lambda t: t.eco_temperatures["low"],
        reads=ECO_TEMPERATURES,
    ),
    ThermostatSensorDescription(
        key="eco_temperature_high",
        translation_key="eco_temperature_high",
        device_class=SensorDeviceClass.TEMPERATURE,
        native_unit_of_measurement=UnitOfTemperature.CELSIUS,
        suggested_display_precision=1,
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=lambda t: t.eco_temperatures["high"],
        reads=ECO_TEMPERATURES,
    ),
    ThermostatSensorDescription(
        key="fan_timer_end",
        translation_key="fan_timer_end",
        device_class=SensorDeviceClass.TIMESTAMP,
        value_fn=_fan_timer_end,
        applies_fn=lambda t: t.fan_timer_active,
        reads=frozenset({"device.fan_timer_timeout"}),
    ),
    ThermostatSensorDescription(
        # `device.battery_level` is volts (3.7 to 3.8 in captures) of the cell the thermostat
        # charges from its wires; a low one is how lost power or wiring trouble shows.
        key="battery_voltage",
        translation_key="battery_voltage",
        device_class=SensorDeviceClass.VOLTAGE,
        state_class=SensorStateClass.MEASUREMENT,
        native_unit_of_measurement=UnitOfElectricPotential.VOLT,
        suggested_display_precision=2,
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=lambda t: t.battery_voltage,
        reads=frozenset({"device.battery_level"}),
    ),
    ThermostatSensorDescription(
        key="firmware_version",
        translation_key="firmware_version",
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=lambda t: t.software_version,
        reads=None,  # also the record every device request updates
    ),
    ThermostatSensorDescription(
        key="last_seen",
        translation_key="last_seen",
        device_class=SensorDeviceClass.TIMESTAMP,
        entity_category=EntityCategory.DIAGNOSTIC,
        entity_registry_enabled_default=False,
        value_fn=_last_seen,
        reads=None,  # the record every device request updates
    ),
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: ThermostatCloudConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Set up the sensors of every thermostat subentry."""
    async_add_thermostat_entities(
        hass,
        entry,
        async_add_entities,
        lambda hub, subentry: [
            *(ThermostatSensor(hub, subentry, d) for d in SENSORS),
            HoldUntilSensor(hub, subentry),
        ],
    )


class ThermostatSensor(ThermostatDescribedEntity[SensorValue], SensorEntity):
    """One value the thermostat reports."""

    entity_description: ThermostatSensorDescription

    def _is_available(self) -> bool:
        """With the thermostat, and while the value exists (see `applies_fn`)."""
        applies = self.entity_description.applies_fn
        return super()._is_available() and (applies is None or applies(self.thermostat))

    @property
    def native_value(self) -> SensorValue:
        """The value as last projected."""
        return self.view
