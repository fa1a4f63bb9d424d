"""Binary sensors of each thermostat: connectivity, the leaf and what its relays are doing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, override

from homeassistant.components.binary_sensor import (
    BinarySensorEntity,
    BinarySensorEntityDescription,
)
from homeassistant.components.binary_sensor.const import BinarySensorDeviceClass
from homeassistant.const import EntityCategory

from .alerts import shown_figures
from .arrival import ARRIVAL_READS, PlannedArrival, planned_arrival
from .entity import (
    RELAYS,
    HomeEntity,
    ThermostatDescribedEntity,
    ThermostatEntity,
    ThermostatEntityDescription,
    described,
    platform_setup,
)
from .equipment import EQUIPMENT_BINARY_SENSORS
from .hub import Hub
from .server import EventKind, Finding, ThermostatState

PARALLEL_UPDATES = 0


@dataclass(frozen=True, kw_only=True)
class ThermostatBinarySensorDescription(
    BinarySensorEntityDescription, ThermostatEntityDescription[bool | None]
):
    """A binary sensor and how to read it."""

    always_available: bool = False
    """Stays available while the thermostat is not (the connectivity sensor itself)."""


def _binary(
    key: str,
    value_fn: Callable[[ThermostatState], bool | None],
    *reads: str,
    device_class: BinarySensorDeviceClass | None = None,
    diagnostic: bool = False,
    always_available: bool = False,
    equipment: bool = False,
) -> ThermostatBinarySensorDescription:
    """Return a binary sensor: its key (also its name's translation key) and the fields it reads.

    With `equipment`, created disabled unless the thermostat reports the equipment.
    """
    return ThermostatBinarySensorDescription(
        key=key,
        translation_key=key,
        device_class=device_class,
        entity_category=EntityCategory.DIAGNOSTIC if diagnostic else None,
        value_fn=value_fn,
        reads=frozenset(reads),
        always_available=always_available,
        equipment_fn=EQUIPMENT_BINARY_SENSORS[key] if equipment else None,
    )


def _running(
    key: str, value_fn: Callable[[ThermostatState], bool | None], *, equipment: bool = False
) -> ThermostatBinarySensorDescription:
    """Return the running sensor of a piece of equipment, read from the relays."""
    return _binary(
        key, value_fn, *RELAYS, device_class=BinarySensorDeviceClass.RUNNING, equipment=equipment
    )


def _stage(key: str, relay: str) -> ThermostatBinarySensorDescription:
    """Return the running sensor of one stage or heat source (a relay of `ThermostatState.hvac`).

    Created disabled unless the thermostat reports the equipment; `heating` and `cooling`
    stay on while any stage runs.
    """
    return _running(key, lambda t: t.stage_running(relay), equipment=True)


BINARY_SENSORS: tuple[ThermostatBinarySensorDescription, ...] = (
    # It reads nothing but availability, which every entity reads.
    _binary(
        "online",
        lambda t: t.available,
        device_class=BinarySensorDeviceClass.CONNECTIVITY,
        diagnostic=True,
        always_available=True,
    ),
    # On while the thermostat does not confirm commands; its repair issue says why.
    _binary(
        "commands",
        lambda t: not t.taking_commands,
        "commands",
        device_class=BinarySensorDeviceClass.PROBLEM,
        diagnostic=True,
        always_available=True,
    ),
    _binary("leaf", lambda t: t.leaf, "device.leaf", "shared.leaf"),
    # Home/Away Assist's verdict (`auto_away`); unknown while its switch is off.
    _binary(
        "occupancy",
        lambda t: t.occupied,
        "shared.auto_away",
        "device.auto_away",
        "device.auto_away_enable",
        device_class=BinarySensorDeviceClass.OCCUPANCY,
    ),
    _running("heating", lambda t: t.heating),
    _running("cooling", lambda t: t.cooling),
    _running("fan", lambda t: t.fan_running),
    # A fan timer runs (`set_fan_timer`, or set on the thermostat); its end is a sensor.
    _binary(
        "fan_timer",
        lambda t: t.fan_timer_active,
        "device.fan_timer_timeout",
        device_class=BinarySensorDeviceClass.RUNNING,
    ),
    _stage("heating_stage_2", "heat_x2"),
    _stage("heating_stage_3", "heat_x3"),
    _stage("aux_heat", "aux_heat"),
    _stage("alt_heat", "alt_heat"),
    _stage("alt_heat_stage_2", "alt_heat_x2"),
    _stage("emergency_heat", "emer_heat"),
    _stage("cooling_stage_2", "cool_x2"),
    _stage("cooling_stage_3", "cool_x3"),
    _running("humidifier", lambda t: t.humidifying, equipment=True),
    _running("dehumidifier", lambda t: t.dehumidifying, equipment=True),
    _running("airwave", lambda t: t.fan_cooling, equipment=True),
    # The thermostat's filter reminder is due (with `filter_reminder_enabled`, a switch).
    _binary(
        "filter_replacement",
        lambda t: t.filter_replacement_needed,
        "device.filter_replacement_needed",
        device_class=BinarySensorDeviceClass.PROBLEM,
    ),
    # A safety temperature is crossed (`safety_state` below or above): the thermostat
    # heats or cools whatever its mode, eco included.
    _binary("safety_temperature", lambda t: t.safety_temperature_active, "device.safety_state"),
    _binary(
        "temperature_lock",
        lambda t: t.temperature_lock_enabled,
        "device.temperature_lock",
        "device.temperature_lock_enabled",
        diagnostic=True,
    ),
)


HVAC_PROBLEM = BinarySensorEntityDescription(
    key="hvac_problem",
    translation_key="hvac_problem",
    device_class=BinarySensorDeviceClass.PROBLEM,
)
HVAC_PROBLEM_READS = frozenset({EventKind.HEALTH.value})


class ThermostatBinarySensor(ThermostatDescribedEntity[bool | None], BinarySensorEntity):
    """One on/off fact about the thermostat."""

    entity_description: ThermostatBinarySensorDescription

    @override
    def _is_available(self) -> bool:
        """Unavailable with the thermostat, except the connectivity sensor."""
        return self.entity_description.always_available or super()._is_available()

    @override
    def _update_attrs(self, view: bool | None) -> None:
        self._attr_is_on = view


class HvacProblemSensor(ThermostatEntity[tuple[Finding, ...]], BinarySensorEntity):
    """On while the health monitor has a finding about the equipment behind the thermostat.

    Its attributes list the findings (kind, since when, the figures in Home Assistant's
    units); each also has its repair issue (`alerts.py`). Available while the thermostat is
    not: being silent in the frost is one of the findings.
    """

    entity_description = HVAC_PROBLEM

    @override
    def _project(self) -> tuple[Finding, ...]:
        return self.service.health.findings(self.serial)

    @override
    def _is_available(self) -> bool:
        return True

    @override
    def _update_attrs(self, view: tuple[Finding, ...]) -> None:
        self._attr_is_on = bool(view)

    @property
    @override
    def extra_state_attributes(self) -> dict[str, Any]:
        """The open findings, oldest kind first."""
        return {
            "findings": [
                {
                    "kind": finding.kind.value,
                    "since": finding.since.isoformat(),
                    **shown_figures(self.hass, finding),
                }
                for finding in self.view
            ]
        }


class PreparingForArrivalSensor(HomeEntity[PlannedArrival | None], BinarySensorEntity):
    """On from the planned start of the home's arrival to the arrival, on the hub's device.

    Its attributes say when the home leaves eco and when the arrival is; off without
    attributes when nothing is planned.
    """

    _attr_translation_key = "preparing_for_arrival"

    def __init__(self, hub: Hub) -> None:
        """Initialize the sensor of the hub's home, on the hub's device."""
        super().__init__(hub, "preparing_for_arrival", ARRIVAL_READS)

    @override
    def _project(self) -> PlannedArrival | None:
        return planned_arrival(self.hub.service)

    @override
    def _update_attrs(self, view: PlannedArrival | None) -> None:
        self._attr_is_on = view is not None and view.preparing
        self._attr_extra_state_attributes = {} if view is None else view.attributes()


async_setup_entry = platform_setup(
    described(ThermostatBinarySensor, BINARY_SENSORS),
    lambda hub, subentry: [HvacProblemSensor(hub, subentry, HVAC_PROBLEM.key, HVAC_PROBLEM_READS)],
    home=lambda hub: [PreparingForArrivalSensor(hub)],
)
