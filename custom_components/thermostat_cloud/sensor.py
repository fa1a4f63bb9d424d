"""Sensors of each thermostat: what it measures and reports beyond the climate entity.

Besides its readings: how long each piece of its equipment ran, how often heating and cooling
started, and, with the powers and gas rates given in the thermostat's reconfigure step, the
energy it used. These show the core's figures (`server/core/watch/runtime.py`), which only grow; their
long-term statistics (hours per day in a statistics graph, the Energy dashboard) come from the
state class.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, override

from homeassistant.components.sensor import (
    RestoreSensor,
    SensorDeviceClass,
    SensorEntity,
    SensorEntityDescription,
    SensorStateClass,
)
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import (
    PERCENTAGE,
    SIGNAL_STRENGTH_DECIBELS_MILLIWATT,
    EntityCategory,
    UnitOfElectricPotential,
    UnitOfEnergy,
    UnitOfTemperature,
    UnitOfTime,
    UnitOfVolume,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.dispatcher import async_dispatcher_connect
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .const import signal_energy_rates_changed
from .energy import energy_kinds
from .entity import (
    ThermostatDescribedEntity,
    ThermostatEntity,
    ThermostatEntityDescription,
    async_add_thermostat_entities,
)
from .entry_data import ThermostatCloudConfigEntry
from .equipment import EQUIPMENT_SENSORS
from .holds import HOLD_READS
from .hub import Hub
from .server import (
    COOLING,
    DRIFT,
    ECO_MODES,
    ELECTRICITY,
    EQUIPMENT,
    GAS,
    HEATING,
    Estimate,
    EventKind,
    RuntimeFigures,
    ThermostatState,
)

PARALLEL_UPDATES = 0


type SensorValue = float | str | datetime | None


@dataclass(frozen=True, kw_only=True)
class ThermostatSensorDescription(
    SensorEntityDescription, ThermostatEntityDescription[SensorValue]
):
    """A sensor and how to read it from the thermostat's buckets.

    A timestamp of something that is not happening (no fan timer, no estimate) is unknown, as
    core's are: unavailable would read as a fault; a binary sensor beside it says in words
    what is happening.
    """


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


ECO_TEMPERATURES = frozenset(
    {
        "device.away_temperature_low",
        "device.away_temperature_high",
        "device.away_temperature_low_enabled",
        "device.away_temperature_high_enabled",
    }
)
"""The eco temperatures, and whether each limit is on (off: its sensor is unknown)."""
NO_ERROR = "none"
"""What the error sensors show while the thermostat reports an empty error (firmware's own
word for nothing, as in `safety_state`); translated, as `NOT_CHECKED` is."""
NOT_CHECKED = "not_checked"
"""The wiring error while the thermostat has not checked its wiring yet (it reports
`Unknown`, see `ThermostatState.reported_errors`)."""
FIRMWARE_WORDS = {"": NO_ERROR, "Unknown": NOT_CHECKED}


def _error_shown(thermostat: ThermostatState, field: str) -> str | None:
    text = thermostat.error_text(field)
    return FIRMWARE_WORDS.get(text, text) if text is not None else None


def _error(field: str) -> ThermostatSensorDescription:
    """Return the diagnostic sensor of an error the thermostat reports.

    Its code as the thermostat reports it (a code needs no translation); none, or not checked
    yet, as translated states. A real one also raises a repair issue
    (`issues.async_follow_thermostat_errors`).
    """
    return ThermostatSensorDescription(
        key=field,
        translation_key=field,
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=lambda t: _error_shown(t, field),
        reads=frozenset({f"device.{field}"}),
    )


def _eco_temperature(end: Literal["low", "high"]) -> ThermostatSensorDescription:
    """Return the diagnostic sensor of an eco temperature: unknown while its limit is off."""
    return ThermostatSensorDescription(
        key=f"eco_temperature_{end}",
        translation_key=f"eco_temperature_{end}",
        device_class=SensorDeviceClass.TEMPERATURE,
        native_unit_of_measurement=UnitOfTemperature.CELSIUS,
        suggested_display_precision=1,
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=lambda t: t.eco_temperatures[end],  # None while the limit is off
        reads=ECO_TEMPERATURES,
    )


def _wifi_signal(thermostat: ThermostatState) -> float | None:
    """`device.rssi` (72) as the dBm it stands for (-72): the firmware reports its magnitude."""
    reported = thermostat.wifi_signal
    return None if reported is None else -abs(reported)


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
    _eco_temperature("low"),
    _eco_temperature("high"),
    ThermostatSensorDescription(
        key="fan_timer_end",
        translation_key="fan_timer_end",
        device_class=SensorDeviceClass.TIMESTAMP,
        value_fn=_fan_timer_end,
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
        # `device.rssi`: 72 in a capture, the Wi-Fi signal's RSSI without its sign (see
        # docs/device-protocol.md), shown as Home Assistant shows a signal: -72 dBm.
        key="wifi_signal",
        translation_key="wifi_signal",
        device_class=SensorDeviceClass.SIGNAL_STRENGTH,
        state_class=SensorStateClass.MEASUREMENT,
        native_unit_of_measurement=SIGNAL_STRENGTH_DECIBELS_MILLIWATT,
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=_wifi_signal,
        reads=frozenset({"device.rssi"}),
    ),
    ThermostatSensorDescription(
        # The wiring the thermostat detected, what a technician asks for: the terminals as
        # the base labels them (`W1, Y1, Rh, G`), names in every language. The key is the
        # field it once showed as reported (`Heat,Cool,Fan,Rh`, English words).
        key="hvac_wires",
        translation_key="hvac_wires",
        entity_category=EntityCategory.DIAGNOSTIC,
        value_fn=lambda t: t.wiring_terminals,
        reads=frozenset({"device.hvac_pins", "device.hvac_wires"}),
    ),
    _error("error_code"),
    _error("wiring_error"),
    ThermostatSensorDescription(
        # `device.filter_runtime_sec`: "total filter runtime" (the protocol notes); should it
        # start again from 0, that is a new meter cycle for the statistics.
        key="filter_runtime",
        translation_key="filter_runtime",
        device_class=SensorDeviceClass.DURATION,
        state_class=SensorStateClass.TOTAL_INCREASING,
        native_unit_of_measurement=UnitOfTime.HOURS,
        suggested_display_precision=1,
        value_fn=lambda t: _hours(t.filter_runtime_seconds),
        reads=frozenset({"device.filter_runtime_sec"}),
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


def _hours(seconds: float | None) -> float | None:
    return round(seconds / 3600, 4) if seconds is not None else None


RUNTIME = frozenset({EventKind.RUNTIME.value})


@dataclass(frozen=True, kw_only=True)
class RuntimeSensorDescription(SensorEntityDescription):
    """A figure of the core's runtime ledger: runtime, cycles or energy, which only grows."""

    group: str
    """`seconds`, `cycles` or `energy` (see `RuntimeFigures`)."""
    figure: str
    """The equipment, the cycle or the energy kind."""
    per_unit: float = 1.0
    """Ledger units in one of the sensor's (3600 seconds in an hour)."""
    digits: int = 4

    def value(self, figures: RuntimeFigures) -> float | int:
        """Return the sensor's value of the figures (rounding keeps it from ever falling)."""
        kept: dict[str, float] | dict[str, int] = getattr(figures, self.group)
        count = kept.get(self.figure, 0)
        if self.group == "cycles":
            return int(count)
        return round(count / self.per_unit, self.digits)


RUNTIME_SENSORS: tuple[RuntimeSensorDescription, ...] = (
    *(
        RuntimeSensorDescription(
            key=f"{equipment}_runtime",
            translation_key=f"{equipment}_runtime",
            device_class=SensorDeviceClass.DURATION,
            state_class=SensorStateClass.TOTAL_INCREASING,
            native_unit_of_measurement=UnitOfTime.HOURS,
            suggested_display_precision=2,
            group="seconds",
            figure=equipment,
            per_unit=3600,
        )
        for equipment in EQUIPMENT
    ),
    *(
        RuntimeSensorDescription(
            key=f"{cycle}_cycles",
            translation_key=f"{cycle}_cycles",
            state_class=SensorStateClass.TOTAL_INCREASING,
            group="cycles",
            figure=cycle,
        )
        for cycle in (HEATING, COOLING)
    ),
)
ENERGY_SENSORS: dict[str, RuntimeSensorDescription] = {
    ELECTRICITY: RuntimeSensorDescription(
        key="electricity_energy",
        translation_key="electricity_energy",
        device_class=SensorDeviceClass.ENERGY,
        state_class=SensorStateClass.TOTAL_INCREASING,
        native_unit_of_measurement=UnitOfEnergy.KILO_WATT_HOUR,
        suggested_display_precision=2,
        group="energy",
        figure=ELECTRICITY,
    ),
    GAS: RuntimeSensorDescription(
        key="gas_volume",
        translation_key="gas_volume",
        device_class=SensorDeviceClass.GAS,
        state_class=SensorStateClass.TOTAL_INCREASING,
        native_unit_of_measurement=UnitOfVolume.CUBIC_METERS,
        suggested_display_precision=3,
        group="energy",
        figure=GAS,
    ),
}


async def async_setup_entry(
    hass: HomeAssistant,
    entry: ThermostatCloudConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Set up the sensors of every thermostat subentry.

    Energy sensors for the kinds the thermostat has rates of (its reconfigure step), also when
    rates are given later.
    """
    with_energy: dict[str, set[str]] = {}

    def energy_sensors(hub: Hub, subentry: ConfigSubentry) -> list[SensorEntity]:
        added = with_energy.setdefault(subentry.subentry_id, set())
        new = [kind for kind in energy_kinds(subentry) if kind not in added]
        added.update(new)
        return [RuntimeSensor(hub, subentry, ENERGY_SENSORS[kind]) for kind in new]

    def build(hub: Hub, subentry: ConfigSubentry) -> list[SensorEntity]:
        return [
            *(ThermostatSensor(hub, subentry, d) for d in SENSORS),
            *(RuntimeSensor(hub, subentry, d) for d in RUNTIME_SENSORS),
            *energy_sensors(hub, subentry),
            HoldUntilSensor(hub, subentry),
            *(HouseModelSensor(hub, subentry, kind) for kind in (HEATING, COOLING, DRIFT)),
        ]

    async_add_thermostat_entities(hass, entry, async_add_entities, build)

    @callback
    def rates_changed(subentry_id: str) -> None:
        if (subentry := entry.subentries.get(subentry_id)) is not None and (
            subentry_id in with_energy
        ):
            async_add_entities(
                energy_sensors(entry.runtime_data, subentry), config_subentry_id=subentry_id
            )

    entry.async_on_unload(
        async_dispatcher_connect(hass, signal_energy_rates_changed(entry.entry_id), rates_changed)
    )


class ThermostatSensor(ThermostatDescribedEntity[SensorValue], SensorEntity):
    """One value the thermostat reports."""

    entity_description: ThermostatSensorDescription

    def __init__(
        self, hub: Hub, subentry: ConfigSubentry, description: ThermostatSensorDescription
    ) -> None:
        """Initialize; one of a value the thermostat does not report yet starts disabled."""
        super().__init__(hub, subentry, description)
        if (reported := EQUIPMENT_SENSORS.get(description.key)) is not None:
            self._attr_entity_registry_enabled_default = reported(self.thermostat)

    @override
    def _update_attrs(self, view: SensorValue) -> None:
        self._attr_native_value = view


class RuntimeSensor(ThermostatEntity[float | int], RestoreSensor):
    """A runtime, cycle or energy figure: it never falls, also not across a crash.

    Available while the thermostat is not: the figures are the server's own record. The
    equipment sensors start disabled unless the thermostat reports the equipment
    (`equipment.py`).
    """

    entity_description: RuntimeSensorDescription

    def __init__(
        self, hub: Hub, subentry: ConfigSubentry, description: RuntimeSensorDescription
    ) -> None:
        """Initialize from the hub, the thermostat's subentry and the figure's description."""
        self.entity_description = description
        super().__init__(hub, subentry, description.key, RUNTIME)
        if (has_equipment := EQUIPMENT_SENSORS.get(description.key)) is not None:
            self._attr_entity_registry_enabled_default = has_equipment(self.thermostat)

    @override
    def _project(self) -> float | int:
        return self.entity_description.value(self.service.runtime.figures(self.serial))

    @override
    def _is_available(self) -> bool:
        return True

    @override
    def _update_attrs(self, view: float | int) -> None:
        self._attr_native_value = view

    @override
    async def async_added_to_hass(self) -> None:
        """Raise the ledger's figure to the state last recorded, then show it.

        After a crash between a recorded state and the save of its figure, the ledger's is
        lower: shown as it is, long-term statistics would read a reset meter and count it all
        again.
        """
        await super().async_added_to_hass()
        last = await self.async_get_last_sensor_data()
        description = self.entity_description
        if last is None or last.native_unit_of_measurement != (
            description.native_unit_of_measurement
        ):
            return
        try:
            shown = float(last.native_value)  # type: ignore[arg-type]
        except TypeError, ValueError:
            return
        figure = {description.figure: shown * description.per_unit}
        self.service.runtime.note_shown(
            self.serial,
            seconds=figure if description.group == "seconds" else {},
            cycles={k: int(v) for k, v in figure.items()} if description.group == "cycles" else {},
            energy=figure if description.group == "energy" else {},
        )
        self._refresh()


HOUSE_MODEL = frozenset({EventKind.HOUSE_MODEL.value})


class HouseModelSensor(ThermostatEntity[Estimate], SensorEntity):
    """A rate of the house's model at today's outdoor temperature (`server/core/watch/house_model.py`).

    Heating and cooling rates (how fast the equipment changes the room) and the drift with it
    off (negative while the house loses heat), in °C per hour. Unknown until enough runs are
    learned (docs/comfort.md), as core shows a value not known yet; the runs learned from are an
    attribute.
    """

    _attr_entity_category = EntityCategory.DIAGNOSTIC
    _attr_state_class = SensorStateClass.MEASUREMENT
    _attr_native_unit_of_measurement = "°C/h"
    _attr_suggested_display_precision = 1

    def __init__(self, hub: Hub, subentry: ConfigSubentry, kind: str) -> None:
        """Initialize the sensor of one kind: heating, cooling or drift."""
        self._kind = kind
        self._attr_translation_key = f"{kind}_rate"
        super().__init__(hub, subentry, f"{kind}_rate", HOUSE_MODEL)

    @override
    def _project(self) -> Estimate:
        found = self.service.house_model.estimate(self.serial, self._kind)
        return Estimate(None if found.rate is None else round(found.rate, 2), found.runs)

    @override
    def _update_attrs(self, view: Estimate) -> None:
        # The rate at today's outdoor temperature; the runs (or times with the equipment
        # off) it is learned from.
        self._attr_native_value = view.rate
        self._attr_extra_state_attributes = {"runs": view.runs}


class HoldUntilSensor(ThermostatEntity[datetime | None], SensorEntity):
    """When the thermostat's hold ends; unknown without a hold, as core's timestamps are."""

    _attr_translation_key = "hold_until"
    _attr_device_class = SensorDeviceClass.TIMESTAMP

    def __init__(self, hub: Hub, subentry: ConfigSubentry) -> None:
        """Initialize the sensor of one thermostat's hold."""
        super().__init__(hub, subentry, "hold_until", HOLD_READS)

    @override
    def _project(self) -> datetime | None:
        hold = self.service.holds.hold_of(self.serial)
        return None if hold is None else datetime.fromtimestamp(hold.until_ms / 1000, UTC)

    @override
    def _update_attrs(self, view: datetime | None) -> None:
        self._attr_native_value = view
