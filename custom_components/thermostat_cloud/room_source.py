"""The room a thermostat serves: its offset and the temperature sensors it follows.

Both are options of the thermostat's subentry (its reconfigure step). The sensors' states are
converted to °C with Home Assistant's unit conversion and averaged; a state that is no number,
in no temperature unit, or absurd is left out with one log line (until that sensor reads well
again). Their average goes to the service (`rooms.note_room`), which owns the rule
(room_follow.py); the climate entity shows which sensors are in control (`RoomView.sources`).
"""

from __future__ import annotations

from collections.abc import Mapping
import logging
import math
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import (
    ATTR_UNIT_OF_MEASUREMENT,
    STATE_UNAVAILABLE,
    STATE_UNKNOWN,
    UnitOfTemperature,
)
from homeassistant.core import CALLBACK_TYPE, Event, EventStateChangedData, HomeAssistant, callback
from homeassistant.helpers.event import async_track_state_change_event
from homeassistant.util.unit_conversion import TemperatureConverter

from .issues import async_follow_room_sensors
from .pairing_sync import thermostat_subentries
from .server import ThermostatService

_LOGGER = logging.getLogger(__name__)

CONF_TEMPERATURE_OFFSET = "temperature_offset"
CONF_FOLLOWED_SENSORS = "followed_sensors"
ROOM_MIN_C = -20.0
ROOM_MAX_C = 50.0
"""A room reading outside these is a broken sensor, not a room."""


def room_options(data: Mapping[str, Any]) -> tuple[float, tuple[str, ...]]:
    """Return a subentry's offset and followed sensors; a subentry without them has none."""
    offset = data.get(CONF_TEMPERATURE_OFFSET, 0.0)
    sensors = data.get(CONF_FOLLOWED_SENSORS, [])
    return (
        float(offset) if isinstance(offset, int | float) else 0.0,
        tuple(s for s in sensors if isinstance(s, str)) if isinstance(sensors, list) else (),
    )


def sensor_celsius(state_value: str, unit: object) -> float | None:
    """Return a temperature sensor's state in °C; None when it is no room temperature."""
    try:
        value = float(state_value)
    except ValueError:
        return None
    if not math.isfinite(value) or unit not in TemperatureConverter.VALID_UNITS:
        return None
    celsius = TemperatureConverter.convert(value, str(unit), UnitOfTemperature.CELSIUS)
    return celsius if ROOM_MIN_C <= celsius <= ROOM_MAX_C else None


class RoomSensors:
    """Hands each thermostat's offset and its room sensors' average to the service."""

    def __init__(self, hass: HomeAssistant, entry: ConfigEntry, service: ThermostatService) -> None:
        """Initialize for the hub entry and its service."""
        self._hass = hass
        self._entry = entry
        self._service = service
        self._followed: dict[str, tuple[str, ...]] = {}
        self._refused: set[str] = set()
        """Sensors whose state was logged as no room temperature, until they read well."""
        self._stop_tracking: CALLBACK_TYPE | None = None

    @callback
    def async_apply(self) -> None:
        """Give the service every thermostat's options, and follow the sensors chosen."""
        self._followed.clear()
        for serial, subentry_id in thermostat_subentries(self._entry).items():
            offset, sensors = room_options(self._entry.subentries[subentry_id].data)
            self._followed[serial] = sensors
            self._service.rooms.configure(serial, offset=offset, sensors=sensors)
        self._track()
        for serial in self._followed:
            self._note(serial)

    @callback
    def async_start(self) -> CALLBACK_TYPE:
        """Apply the options and raise the repair issue of a room fallen back; returns the stop."""
        self.async_apply()
        stop_issues = async_follow_room_sensors(
            self._hass,
            self._service,
            list(self._followed),
            lambda serial: ", ".join(self._followed.get(serial, ())),
            self._name,
        )

        @callback
        def stop() -> None:
            stop_issues()
            if self._stop_tracking is not None:
                self._stop_tracking()
                self._stop_tracking = None

        return stop

    def _name(self, serial: str) -> str:
        subentry_id = thermostat_subentries(self._entry).get(serial)
        return self._entry.subentries[subentry_id].title if subentry_id else serial

    @callback
    def _track(self) -> None:
        if self._stop_tracking is not None:
            self._stop_tracking()
            self._stop_tracking = None
        entity_ids = sorted({e for sensors in self._followed.values() for e in sensors})
        if entity_ids:
            self._stop_tracking = async_track_state_change_event(
                self._hass, entity_ids, self._changed
            )

    @callback
    def _changed(self, event: Event[EventStateChangedData]) -> None:
        entity_id = event.data["entity_id"]
        for serial, sensors in self._followed.items():
            if entity_id in sensors:
                self._note(serial)

    @callback
    def _note(self, serial: str) -> None:
        readings = {
            entity_id: celsius
            for entity_id in self._followed.get(serial, ())
            if (celsius := self._celsius(entity_id)) is not None
        }
        average = sum(readings.values()) / len(readings) if readings else None
        self._service.rooms.note_room(
            serial, None if average is None else round(average, 2), tuple(readings)
        )

    def _celsius(self, entity_id: str) -> float | None:
        """Return a sensor's reading in °C; None, logged once, when it is no room temperature."""
        state = self._hass.states.get(entity_id)
        if state is None or state.state in (STATE_UNAVAILABLE, STATE_UNKNOWN):
            return None
        unit = state.attributes.get(ATTR_UNIT_OF_MEASUREMENT)
        celsius = sensor_celsius(state.state, unit)
        if celsius is None:
            if entity_id not in self._refused:
                self._refused.add(entity_id)
                _LOGGER.warning(
                    "Ignoring %s as a room temperature: %r %s is no temperature between "
                    "%s and %s °C",
                    entity_id,
                    state.state,
                    unit or "(no unit)",
                    ROOM_MIN_C,
                    ROOM_MAX_C,
                )
            return None
        self._refused.discard(entity_id)
        return celsius
