"""One thermostat's state as clients see it, read from its buckets.

The one place that knows which bucket field means what: the control API's status record
(status.py), the hosted API and the host's entities all read through `ThermostatState`.
Values the thermostat has not reported are None. Where the spec does not name a field, the
names are those firmware uses: `device.current_humidity`, `device.backplate_temperature`,
`device.time_to_target` (the Unix second the target is reached, 0 without an estimate),
`device.away_temperature_low/high` (eco temperatures), `device.eco.mode`,
`device.current_version`, `shared.hvac_<stage>_state` relays, `device.humidifier_state`,
`dehumidifier_state`, `auto_dehum_state` and `fan_cooling_state` (Airwave), `device.where_id`
(the room, see rooms.py).

A number outside what the field can plausibly be (a temperature of 1e308, a fan timer that
ends after the year 9999) reads as None too, with one debug line per thermostat and field:
every reader, the host's entities first, must be able to show what it gets without
raising. Texts a thermostat reports (name, model, firmware version) read as at most 255
printable characters, what a state of the host can hold.
"""

from __future__ import annotations

from collections.abc import Mapping
import logging
from typing import Any

from ...model.buckets import bucket_key
from ...model.text import for_state
from .readings import (
    BATTERY_VOLTAGE_RANGE_V,
    COOL_RELAYS,
    DURATION_RANGE_S,
    HEAT_RELAYS,
    HVAC_RELAYS,
    NOT_YET_CHECKED,
    PERCENT_RANGE,
    SAFETY_STATES_ACTIVE,
    SAFETY_STATES_CLEAR,
    TEMPERATURE_RANGE_C,
    TIME_TO_TARGET_RANGE_S,
    TIMESTAMP_RANGE_S,
    WIFI_SIGNAL_RANGE,
    BucketReadings,
    home_away,
    one_of,
    plausible_reading,
    relay_states,
    string,
)
from .rooms import room_name
from .schedule import SCHEDULE_MODES
from .state_source import StateSource
from .validation import HEAT_PUMP_BALANCE, TEMPERATURE_SCALES

_LOGGER = logging.getLogger(__name__)


class ThermostatState:
    """Read access to one thermostat's buckets; every property reads the current values."""

    __slots__ = ("readings", "serial", "source")

    def __init__(self, source: StateSource, serial: str) -> None:
        """Initialize read access to the thermostat of this serial (the service's read source)."""
        self.readings = BucketReadings(source.buckets, serial)
        self.source = source
        self.serial = serial

    def _reading(
        self, bucket: Mapping[str, Any], field: str, limits: tuple[float, float]
    ) -> float | int | None:
        """Return a reported number within its plausible limits (see `plausible_reading`)."""
        noted = self.source.implausible_readings
        return plausible_reading(bucket.get(field), limits, self.serial, field, noted)

    # -- the buckets -------------------------------------------------------------------------

    @property
    def shared(self) -> Mapping[str, Any]:
        """`shared.<serial>`: setpoints, mode, relays, capabilities."""
        return self.source.buckets.value(bucket_key("shared", self.serial))

    @property
    def device(self) -> Mapping[str, Any]:
        """`device.<serial>`: settings, humidity, fan, eco."""
        return self.source.buckets.value(bucket_key("device", self.serial))

    @property
    def structure_id(self) -> str | None:
        """The home the thermostat is paired into, None while unpaired."""
        pairing = self.source.ownership.pairing(self.serial)
        return pairing.structure_id if pairing is not None else None

    @property
    def structure(self) -> Mapping[str, Any]:
        """The home's `structure.<id>` bucket, empty while unpaired."""
        structure_id = self.structure_id
        if structure_id is None:
            return {}
        return self.source.buckets.value(bucket_key("structure", structure_id))

    @property
    def schedule(self) -> Mapping[str, Any] | None:
        """`schedule.<serial>`, or None when the thermostat has not reported one."""
        bucket = self.source.buckets.get(bucket_key("schedule", self.serial))
        return bucket.value if bucket is not None else None

    # -- identity and contact ------------------------------------------------------------------

    @property
    def reported_name(self) -> str | None:
        """`shared.name`, else `device.name`: the name given on the thermostat, if any."""
        return for_state(self.shared.get("name")) or for_state(self.device.get("name"))

    @property
    def where_id(self) -> str | None:
        """`device.where_id`: the room chosen on the thermostat."""
        return string(self.device.get("where_id"))

    @property
    def room(self) -> str | None:
        """The name of the thermostat's room (see rooms.py), None when it reports none."""
        return room_name(self.source.buckets, self.structure_id, self.where_id)

    @property
    def display_name(self) -> str | None:
        """The name given on the thermostat, else its room's; None when it has neither.

        Of two thermostats of a home in the same room without a name of their own, the one
        paired first is the room, the others the room with a number ("Living Room (2)"), by
        the order of pairing, so a name never changes at a restart nor when another thermostat
        joins the room.
        """
        if (reported := self.reported_name) is not None:
            return reported
        room = self.room
        pairing = self.source.ownership.pairing(self.serial)
        if room is None or pairing is None:
            return room
        same_room = sorted(
            (other.paired_at, other.serial)
            for other in self.source.ownership.pairings()
            if other.structure_id == pairing.structure_id
            and (state := ThermostatState(self.source, other.serial)).reported_name is None
            and state.room == room
        )
        place = same_room.index((pairing.paired_at, self.serial)) + 1
        return room if place == 1 else f"{room} ({place})"

    @property
    def name(self) -> str:
        """The name given on the thermostat, else its room's, else the serial."""
        return self.display_name or self.serial

    @property
    def last_seen_ms(self) -> int | None:
        """When the thermostat last made a request (ms), None if never."""
        record = self.source.devices.get(self.serial)
        return record.last_seen if record is not None and record.last_seen else None

    @property
    def available(self) -> bool:
        """A held subscribe, or a request within the availability grace."""
        return self.source.availability.is_available(self.serial)

    @property
    def taking_commands(self) -> bool:
        """False while a command it was sent is overdue (see `Confirmations`)."""
        return self.source.confirmations.taking_commands(self.serial)

    @property
    def is_online(self) -> bool:
        """`device.is_online` when the thermostat reports it, else `available`."""
        online = self.device.get("is_online")
        return online if isinstance(online, bool) else self.available

    @property
    def subscribes_skv(self) -> bool:
        """Whether it runs 4.x and subscribes over 4.x's transport: controlled like 5.x."""
        return self.source.availability.subscribes_skv(self.serial)

    @property
    def software_version(self) -> str | None:
        """The version reported in `/svc/entry`, else `device.current_version`."""
        record = self.source.devices.get(self.serial)
        if record is not None and record.software_version:
            return for_state(record.software_version)
        return for_state(self.device.get("current_version"))

    @property
    def model(self) -> str | None:
        """The model reported in `/svc/entry`."""
        record = self.source.devices.get(self.serial)
        return for_state(record.model) if record is not None else None

    @property
    def equipment_reported(self) -> bool:
        """Return whether the thermostat has said what it can do (see `BucketReadings`)."""
        return self.readings.equipment_reported

    @property
    def capabilities(self) -> dict[str, bool]:
        """What the equipment can do (the command layer checks commands against it)."""
        return self.readings.capabilities

    # -- temperatures, humidity and mode ---------------------------------------------------------

    @property
    def current_temperature(self) -> float | int | None:
        """`shared.current_temperature`, Celsius."""
        return self._reading(self.shared, "current_temperature", TEMPERATURE_RANGE_C)

    @property
    def target_temperature(self) -> float | int | None:
        """`shared.target_temperature`, Celsius (single-setpoint modes)."""
        return self._reading(self.shared, "target_temperature", TEMPERATURE_RANGE_C)

    @property
    def target_temperature_low(self) -> float | int | None:
        """`shared.target_temperature_low`, Celsius (range mode)."""
        return self._reading(self.shared, "target_temperature_low", TEMPERATURE_RANGE_C)

    @property
    def target_temperature_high(self) -> float | int | None:
        """`shared.target_temperature_high`, Celsius (range mode)."""
        return self._reading(self.shared, "target_temperature_high", TEMPERATURE_RANGE_C)

    @property
    def humidity(self) -> float | int | None:
        """`device.current_humidity`, percent."""
        return self._reading(self.device, "current_humidity", PERCENT_RANGE)

    @property
    def target_humidity(self) -> float | int | None:
        """`device.target_humidity`, percent."""
        return self._reading(self.device, "target_humidity", PERCENT_RANGE)

    @property
    def target_humidity_enabled(self) -> bool:
        """`device.target_humidity_enabled`."""
        return self.device.get("target_humidity_enabled") is True

    @property
    def backplate_temperature(self) -> float | int | None:
        """`device.backplate_temperature`, Celsius."""
        return self._reading(self.device, "backplate_temperature", TEMPERATURE_RANGE_C)

    @property
    def mode(self) -> str | None:
        """`shared.target_temperature_type`: off, heat, cool, range or emergency."""
        return self.readings.mode

    @property
    def temperature_scale(self) -> str:
        """`device.temperature_scale`, the display preference (`C` when absent)."""
        return self.display_scale or "C"

    @property
    def display_scale(self) -> str | None:
        """`device.temperature_scale` as reported (`C` or `F`), else None."""
        return one_of(self.device.get("temperature_scale"), TEMPERATURE_SCALES)

    @property
    def target_reached_at(self) -> float | int | None:
        """When the thermostat expects to reach its target (Unix seconds), None without an estimate.

        `device.time_to_target`; 0 (idle, at the target, or no estimate) is None.
        """
        if self.device.get("time_to_target") == 0:
            return None
        return self._reading(self.device, "time_to_target", TIME_TO_TARGET_RANGE_S)

    @property
    def has_target_estimate(self) -> bool:
        """The thermostat reports when it will reach its target (`time_to_target` not 0)."""
        return self.device.get("time_to_target") not in (None, 0)

    @property
    def time_to_target(self) -> int | None:
        """Whole minutes until the target is reached (rounded up), 0 without an estimate.

        The status record's `time_to_target` (the spec's minutes); None when the thermostat
        reported no `time_to_target` or no time.
        """
        if self.device.get("time_to_target") == 0:
            return 0
        reached_at = self.target_reached_at
        if reached_at is None:
            return None
        seconds = reached_at - self.source.clock.now_ms() / 1000
        return max(0, -int(-seconds // 60))

    @property
    def time_to_target_training_status(self) -> str:
        """Return `device.time_to_target_training` as firmware reports it, else the status.

        Firmware reports `ready`, `training`; the fallback is
        `device.time_to_target_training_status`; empty when absent.
        """
        device = self.device
        return (
            string(device.get("time_to_target_training"))
            or string(device.get("time_to_target_training_status"))
            or ""
        )

    # -- relays and fan ----------------------------------------------------------------------------

    @property
    def hvac(self) -> dict[str, bool]:
        """Every relay by its status-record name (`device` first for those firmware keeps there)."""
        return relay_states(self.shared, self.device)

    @property
    def has_cool_to_dry(self) -> bool:
        """`device.auto_dehum_enabled`: the air conditioning may run to dehumidify."""
        return self.device.get("auto_dehum_enabled") is True

    @property
    def has_airwave(self) -> bool:
        """`device.fan_cooling_enabled` (Airwave), with air conditioning to run it after."""
        return self.device.get("fan_cooling_enabled") is True and self.capabilities["can_cool"]

    @property
    def humidifying(self) -> bool:
        """The humidifier runs."""
        return self.hvac["humidifier"]

    @property
    def dehumidifying(self) -> bool:
        """The dehumidifier runs, or the air conditioning dehumidifies ("cool to dry")."""
        hvac = self.hvac
        return hvac["dehumidifier"] or hvac["auto_dehum"]

    @property
    def fan_cooling(self) -> bool:
        """Airwave: the fan runs on after the compressor stopped, cooling with the coil's cold."""
        return self.hvac["fan_cooling"]

    @property
    def heating(self) -> bool:
        """A heat stage (including aux and emergency heat) is running."""
        hvac = self.hvac
        return any(hvac[name] for name in HEAT_RELAYS)

    @property
    def cooling(self) -> bool:
        """A cool stage is running."""
        hvac = self.hvac
        return any(hvac[name] for name in COOL_RELAYS)

    def stage_running(self, relay: str) -> bool:
        """Whether one stage runs, by its status-record name (`heat_x2`, `aux_heat`...)."""
        return self.hvac[relay]

    @property
    def fan_running(self) -> bool:
        """The fan relay is on."""
        return self.shared.get(HVAC_RELAYS["fan"]) is True

    @property
    def fan_mode(self) -> str | None:
        """The fan mode: `device` or `shared`, whichever changed last (see `BucketReadings`)."""
        return self.readings.fan_mode

    @property
    def fan_timer_timeout(self) -> float | int:
        """`device.fan_timer_timeout`, Unix seconds; 0 when no timer runs."""
        return self._reading(self.device, "fan_timer_timeout", TIMESTAMP_RANGE_S) or 0

    @property
    def fan_timer_active(self) -> bool:
        """The fan timer ends in the future."""
        return self.fan_timer_timeout > self.source.clock.now_ms() / 1000

    # -- eco, away, leaf, settings -------------------------------------------------------------------

    @property
    def eco_mode(self) -> str | None:
        """`device.eco.mode`: schedule, manual-eco or auto-eco."""
        return self.readings.eco_mode

    @property
    def eco(self) -> bool:
        """The thermostat's own eco mode is on (manual or automatic)."""
        return self.readings.eco

    @property
    def eco_temperatures(self) -> dict[str, float | int | None]:
        """`device.away_temperature_high/low`, Celsius; None for a limit that is off.

        Each applies while its `away_temperature_<low|high>_enabled` is on (the protocol
        notes: "Enable lower eco temperature limit"); one not reported applies.
        """
        temperatures = self._device_temperatures(
            high="away_temperature_high", low="away_temperature_low"
        )
        return {
            side: None if self.eco_limit_on(side) is False else value
            for side, value in temperatures.items()
        }

    def eco_limit_on(self, side: str) -> bool | None:
        """`device.away_temperature_<side>_enabled` (`low`, `high`) as reported, else None."""
        return self.device_flag(f"away_temperature_{side}_enabled")

    def _device_temperatures(self, **fields: str) -> dict[str, float | int | None]:
        """Return `device` temperatures (°C) by the names given for their fields."""
        device = self.device
        return {
            name: self._reading(device, field, TEMPERATURE_RANGE_C)
            for name, field in fields.items()
        }

    @property
    def away(self) -> bool:
        """Return whether the home is away.

        It is with `structure.away`, or the home's manual eco (`manual_eco_all`), which is how
        firmware holds it; False while unpaired.
        """
        structure_id = self.structure_id
        return structure_id is not None and home_away(self.source.buckets, structure_id)

    @property
    def occupancy_sensor_on(self) -> bool:
        """`device.auto_away_enable`: the thermostat's occupancy sensor (Home/Away Assist) is on."""
        return self.device.get("auto_away_enable") is True

    @property
    def occupied(self) -> bool | None:
        """Whether the thermostat's occupancy sensor finds the home occupied (Home/Away Assist).

        `auto_away` as firmware reports it: `0` home, `1` away (the protocol notes; the
        5.9.4-5 capture has it in `shared`, the notes in `device`: `shared` first). None while
        the sensor is off (`device.auto_away_enable` not true: the capture has `auto_away` 0
        with it off) or for any other value.
        """
        if not self.occupancy_sensor_on:
            return None
        reported = self.shared.get("auto_away", self.device.get("auto_away"))
        if isinstance(reported, bool) or reported not in (0, 1):
            return None
        return bool(reported == 0)

    @property
    def leaf(self) -> bool:
        """Return whether the thermostat shows its energy-saving leaf.

        This is `device.leaf` (where firmware reports it), else `shared.leaf` (the spec's
        place).
        """
        leaf = self.device.get("leaf")
        return (leaf if isinstance(leaf, bool) else self.shared.get("leaf")) is True

    @property
    def temperature_lock_enabled(self) -> bool:
        """Return `device.temperature_lock` as firmware stores it.

        Else the spec's `device.temperature_lock_enabled`.
        """
        device = self.device
        locked = device.get("temperature_lock")
        return (
            locked if isinstance(locked, bool) else device.get("temperature_lock_enabled")
        ) is True

    @property
    def safety_state(self) -> str | None:
        """`device.safety_state` (the spec gives no type; firmware: a string), else None."""
        return string(self.device.get("safety_state"))

    @property
    def safety_temperature_active(self) -> bool | None:
        """Whether a safety temperature is crossed (`device.safety_state` `below` or `above`).

        Off for `safe` (the protocol notes) and `none` (a 5.9.4-5 capture); anything else is
        no reading.
        """
        state = self.safety_state
        if state in SAFETY_STATES_ACTIVE:
            return True
        return False if state in SAFETY_STATES_CLEAR else None

    @property
    def heat_pump_balance(self) -> str | None:
        """`device.heatpump_savings` (Heat Pump Balance) when one of its values, else None."""
        return one_of(self.device.get("heatpump_savings"), HEAT_PUMP_BALANCE)

    @property
    def safety_temp_activating_hvac(self) -> str | bool | float | int | None:
        """`device.safety_temp_activating_hvac` as reported when one value (no type in the spec).

        An object or a list is no reading: None.
        """
        value = self.device.get("safety_temp_activating_hvac")
        return value if isinstance(value, str | bool | float | int) else None

    @property
    def learning_mode(self) -> bool | None:
        """`device.learning_mode`: whether the thermostat learns (and may modify its schedule).

        The one place clients (the climate actions, the schedule card) read it.
        """
        return self.device_flag("learning_mode")

    def device_flag(self, field: str) -> bool | None:
        """Return an on/off setting as reported (None before it was).

        Fields by the names `set_device_setting` writes (`learning_mode`, `auto_away_enable`,
        `filter_reminder_enabled`, `sunlight_correction_enabled`, `lower_safety_temp_enabled`,
        `upper_safety_temp_enabled`, `heat_pump_aux_threshold_enabled`...), read where
        firmware keeps them (`compressor_lockout_enabled` in `shared`: see
        `BucketReadings.setting`).
        """
        value = self.readings.setting(field)
        return value if isinstance(value, bool) else None

    def outdoor_threshold(self, field: str) -> float | int | None:
        """Return a heat pump's or dual fuel's outdoor temperature (°C) by its `device` field.

        `heat_pump_aux_threshold`, `heat_pump_comp_threshold`, `dual_fuel_breakpoint`.
        """
        return self._reading(self.device, field, TEMPERATURE_RANGE_C)

    @property
    def wifi_signal(self) -> float | int | None:
        """`device.rssi` as reported (its unit is not known), else None."""
        return self._reading(self.device, "rssi", WIFI_SIGNAL_RANGE)

    @property
    def hvac_wires(self) -> str | None:
        """`device.hvac_wires`: the wiring the thermostat detected (`Heat,Cool,Fan,Rh`)."""
        return for_state(self.device.get("hvac_wires"))

    def error_text(self, field: str) -> str | None:
        """`device.error_code` or `device.wiring_error` as reported; "" for none, None unknown."""
        value = self.device.get(field)
        if value == "":
            return ""
        return for_state(value)

    @property
    def reported_errors(self) -> dict[str, str]:
        """The errors the thermostat reports now, by field: empty when it reports none.

        A `wiring_error` of "Unknown" (the wires not checked yet) is none.
        """
        errors = {field: self.error_text(field) for field in ("error_code", "wiring_error")}
        return {
            field: text
            for field, text in errors.items()
            if text and not (field == "wiring_error" and text.lower() == NOT_YET_CHECKED)
        }

    @property
    def safety_temperatures(self) -> dict[str, float | int | None]:
        """`device.lower_safety_temp` (heats below) and `upper_safety_temp` (cools above), °C."""
        return self._device_temperatures(lower="lower_safety_temp", upper="upper_safety_temp")

    @property
    def filter_replacement_needed(self) -> bool:
        """`device.filter_replacement_needed`: the thermostat's filter reminder is due."""
        return self.device.get("filter_replacement_needed") is True

    @property
    def filter_runtime_seconds(self) -> float | int | None:
        """`device.filter_runtime_sec`: "total filter runtime" (the protocol notes), seconds."""
        return self._reading(self.device, "filter_runtime_sec", DURATION_RANGE_S)

    @property
    def battery_voltage(self) -> float | int | None:
        """`device.battery_level`, volts."""
        return self._reading(self.device, "battery_level", BATTERY_VOLTAGE_RANGE_V)

    @property
    def preconditioning_enabled(self) -> bool:
        """`device.preconditioning_enabled`."""
        return self.device.get("preconditioning_enabled") is True

    @property
    def schedule_mode(self) -> str | None:
        """`schedule.schedule_mode`: HEAT, COOL or RANGE."""
        schedule = self.schedule or {}
        return one_of(schedule.get("schedule_mode"), SCHEDULE_MODES)
