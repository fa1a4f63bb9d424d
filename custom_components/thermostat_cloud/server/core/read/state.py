"""One thermostat's state as clients see it, read from its buckets.

The one place that knows which bucket field means what (where the spec names none, the
firmware's name): the status record, the hosted API and the host's entities all read here.
Unreported and implausible values (a temperature of 1e308) read as None, logged once per
thermostat and field, so no reader can raise; texts as at most 255 printable characters,
what a state of the host can hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
import logging
from typing import Any, Literal, Self, overload

from ...model.buckets import bucket_key
from ...model.text import for_log, for_state
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
    plausible_number,
    relay_states,
    string,
)
from .rooms import room_name
from .schedule import SCHEDULE_MODES
from .state_source import StateSource
from .validation import HEAT_PUMP_BALANCE, TEMPERATURE_SCALES

_LOGGER = logging.getLogger(__name__)

WIRE_TERMINALS = {"Heat": "W1", "Cool": "Y1", "Fan": "G", "Rh": "Rh"}
"""The terminal each `device.hvac_wires` name is on, as a capture pairs them: the same device
reports `hvac_wires` `Heat,Cool,Fan,Rh` and `hvac_pins` `W1,Y1,Rh,G`, with `pin_w1_description`
"heat", `pin_y1_description` "cool", `pin_g_description` "fan" and `pin_rh_description` "power"
(solbirn/Nest.Thermostat `docs/nest-api-schemas.md`). No source pairs any other name."""


def _listed(names: Iterable[str]) -> str | None:
    """Return names as a list a person reads (`W1, Y1, Rh, G`), empty ones left out."""
    return ", ".join(name.strip() for name in names if name.strip()) or None


class HomeState:
    """Read access to one home (a structure): its thermostats and whether it is away."""

    __slots__ = ("source", "structure_id")

    def __init__(self, source: StateSource, structure_id: str) -> None:
        self.source = source
        self.structure_id = structure_id

    @property
    def serials(self) -> list[str]:
        """The thermostats paired into the home, in the order they were paired."""
        return self.source.ownership.serials_in(self.structure_id)

    @property
    def away(self) -> bool:
        """Whether the home is away (see `home_away`)."""
        return home_away(self.source.buckets, self.structure_id)


class _Reading:
    """A number the thermostat reports in one field: None when absent or implausible.

    A property of `ThermostatState`, which checks the limits (`ThermostatState._reading`).
    """

    __slots__ = ("bucket", "field", "limits")

    def __init__(
        self, bucket: Literal["shared", "device"], field: str, limits: tuple[float, float]
    ) -> None:
        self.bucket = bucket
        self.field = field
        self.limits = limits

    @overload
    def __get__(self, state: None, owner: type[ThermostatState]) -> Self: ...

    @overload
    def __get__(
        self, state: ThermostatState, owner: type[ThermostatState]
    ) -> float | int | None: ...

    def __get__(
        self, state: ThermostatState | None, owner: type[ThermostatState]
    ) -> Self | float | int | None:
        if state is None:
            return self
        bucket = state.shared if self.bucket == "shared" else state.device
        return state._reading(bucket, self.field, self.limits)


class ThermostatState:
    """Read access to one thermostat's buckets; every property reads the current values."""

    __slots__ = ("readings", "serial", "source")

    def __init__(self, source: StateSource, serial: str) -> None:
        self.readings = BucketReadings(source.buckets, serial)
        self.source = source
        self.serial = serial

    def _reading(
        self, bucket: Mapping[str, Any], field: str, limits: tuple[float, float]
    ) -> float | int | None:
        """Return a reported number within its limits, else None (logged once per field)."""
        value = bucket.get(field)
        found = plausible_number(value, limits)
        if found is None and value is not None:
            noted = self.source.implausible_readings
            if (self.serial, field) not in noted:
                noted.add((self.serial, field))
                _LOGGER.debug(
                    "Thermostat %s reports %s = %s, which is no reading (expected a number "
                    "from %s to %s); shown as unknown",
                    self.serial,
                    field,
                    for_log(value, 40),
                    *limits,
                )
        return found

    # -- the buckets -------------------------------------------------------------------------

    @property
    def shared(self) -> Mapping[str, Any]:
        return self.readings.shared

    @property
    def device(self) -> Mapping[str, Any]:
        return self.readings.device

    @property
    def structure_id(self) -> str | None:
        pairing = self.source.ownership.pairing(self.serial)
        return pairing.structure_id if pairing is not None else None

    @property
    def structure(self) -> Mapping[str, Any]:
        structure_id = self.structure_id
        if structure_id is None:
            return {}
        return self.source.buckets.value(bucket_key("structure", structure_id))

    @property
    def schedule(self) -> Mapping[str, Any] | None:
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

        Unnamed thermostats sharing a room are numbered by pairing order ("Living Room (2)"),
        so a name never changes at a restart nor when another thermostat joins the room.
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
        return self.readings.equipment_reported

    @property
    def capabilities(self) -> dict[str, bool]:
        """What the equipment can do (the command layer checks commands against it)."""
        return self.readings.capabilities

    # -- temperatures, humidity and mode ---------------------------------------------------------

    current_temperature = _Reading("shared", "current_temperature", TEMPERATURE_RANGE_C)
    target_temperature = _Reading("shared", "target_temperature", TEMPERATURE_RANGE_C)
    """`shared.target_temperature`, Celsius (single-setpoint modes)."""
    target_temperature_low = _Reading("shared", "target_temperature_low", TEMPERATURE_RANGE_C)
    target_temperature_high = _Reading("shared", "target_temperature_high", TEMPERATURE_RANGE_C)
    humidity = _Reading("device", "current_humidity", PERCENT_RANGE)
    target_humidity = _Reading("device", "target_humidity", PERCENT_RANGE)
    backplate_temperature = _Reading("device", "backplate_temperature", TEMPERATURE_RANGE_C)

    @property
    def target_humidity_enabled(self) -> bool:
        return self.device.get("target_humidity_enabled") is True

    @property
    def mode(self) -> str | None:
        return self.readings.mode

    @property
    def temperature_scale(self) -> str:
        """`device.temperature_scale`, the display preference (`C` when absent)."""
        return self.display_scale or "C"

    @property
    def display_scale(self) -> str | None:
        return one_of(self.device.get("temperature_scale"), TEMPERATURE_SCALES)

    @property
    def target_reached_at(self) -> float | int | None:
        """`device.time_to_target`, Unix seconds; its 0 (no estimate) is None."""
        if self.device.get("time_to_target") == 0:
            return None
        return self._reading(self.device, "time_to_target", TIME_TO_TARGET_RANGE_S)

    @property
    def has_target_estimate(self) -> bool:
        return self.device.get("time_to_target") not in (None, 0)

    @property
    def time_to_target(self) -> int | None:
        """Whole minutes to the target (the spec's unit, rounded up), 0 without an estimate."""
        if self.device.get("time_to_target") == 0:
            return 0
        reached_at = self.target_reached_at
        if reached_at is None:
            return None
        seconds = reached_at - self.source.clock.now_ms() / 1000
        return max(0, -int(-seconds // 60))

    @property
    def time_to_target_training_status(self) -> str:
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
        hvac = self.hvac
        return any(hvac[name] for name in COOL_RELAYS)

    def stage_running(self, relay: str) -> bool:
        """Whether one stage runs, by its status-record name (`heat_x2`, `aux_heat`...)."""
        return self.hvac[relay]

    @property
    def fan_running(self) -> bool:
        return self.shared.get(HVAC_RELAYS["fan"]) is True

    @property
    def fan_mode(self) -> str | None:
        return self.readings.fan_mode

    @property
    def fan_timer_timeout(self) -> float | int:
        """`device.fan_timer_timeout`, Unix seconds; 0 when no timer runs."""
        return self._reading(self.device, "fan_timer_timeout", TIMESTAMP_RANGE_S) or 0

    @property
    def fan_timer_active(self) -> bool:
        return self.fan_timer_timeout > self.source.clock.now_ms() / 1000

    # -- eco, away, leaf, settings -------------------------------------------------------------------

    @property
    def eco_mode(self) -> str | None:
        return self.readings.eco_mode

    @property
    def eco(self) -> bool:
        return self.readings.eco

    @property
    def eco_temperatures(self) -> dict[str, float | int | None]:
        """`device.away_temperature_high/low`, Celsius; None for a limit that is off.

        Off only when its `away_temperature_<low|high>_enabled` is false (the protocol notes:
        "Enable lower eco temperature limit").
        """
        temperatures = self._device_temperatures(
            high="away_temperature_high", low="away_temperature_low"
        )
        return {
            side: None if self.eco_limit_on(side) is False else value
            for side, value in temperatures.items()
        }

    def eco_limit_on(self, side: str) -> bool | None:
        return self.device_flag(f"away_temperature_{side}_enabled")

    def _device_temperatures(self, **fields: str) -> dict[str, float | int | None]:
        device = self.device
        return {
            name: self._reading(device, field, TEMPERATURE_RANGE_C)
            for name, field in fields.items()
        }

    @property
    def away(self) -> bool:
        """`structure.away`, or the home's manual eco (how firmware holds it); False unpaired."""
        structure_id = self.structure_id
        return structure_id is not None and home_away(self.source.buckets, structure_id)

    @property
    def occupancy_sensor_on(self) -> bool:
        """`device.auto_away_enable`: the thermostat's occupancy sensor (Home/Away Assist) is on."""
        return self.device.get("auto_away_enable") is True

    @property
    def occupied(self) -> bool | None:
        """Whether the thermostat's occupancy sensor finds the home occupied (Home/Away Assist).

        `auto_away`: `0` home, `1` away (the protocol notes put it in `device`, the 5.9.4-5
        capture in `shared`: `shared` first). None while the sensor is off (the capture has
        `auto_away` 0 then) or for any other value.
        """
        if not self.occupancy_sensor_on:
            return None
        reported = self.shared.get("auto_away", self.device.get("auto_away"))
        if isinstance(reported, bool) or reported not in (0, 1):
            return None
        return bool(reported == 0)

    @property
    def leaf(self) -> bool:
        """`device.leaf` (where firmware reports it), else `shared.leaf` (the spec's place)."""
        leaf = self.device.get("leaf")
        return (leaf if isinstance(leaf, bool) else self.shared.get("leaf")) is True

    @property
    def temperature_lock_enabled(self) -> bool:
        """`device.temperature_lock` (firmware's), else the spec's `temperature_lock_enabled`."""
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
        """`device.safety_state` `below` or `above`; `safe` (protocol notes), `none` are off."""
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
        """`device.safety_temp_activating_hvac` when a scalar (the spec gives no type)."""
        value = self.device.get("safety_temp_activating_hvac")
        return value if isinstance(value, str | bool | float | int) else None

    @property
    def learning_mode(self) -> bool | None:
        """`device.learning_mode`: whether the thermostat learns (and may modify its schedule)."""
        return self.device_flag("learning_mode")

    def device_flag(self, field: str) -> bool | None:
        """Return an on/off setting by its `set_device_setting` name, None before reported.

        Read where firmware keeps it (see `BucketReadings.setting`).
        """
        value = self.readings.setting(field)
        return value if isinstance(value, bool) else None

    def outdoor_threshold(self, field: str) -> float | int | None:
        """Return a heat pump's or dual fuel's outdoor temperature (°C) by its `device` field."""
        return self._reading(self.device, field, TEMPERATURE_RANGE_C)

    wifi_signal = _Reading("device", "rssi", WIFI_SIGNAL_RANGE)
    """`device.rssi` as reported (its unit is not known), else None."""

    @property
    def wiring_terminals(self) -> str | None:
        """The terminals the thermostat detected wires on, as its base labels them: `W1, Y1, Rh, G`.

        `device.hvac_pins` names them so. A thermostat that reports only `device.hvac_wires`
        (`Heat,Cool,Fan,Rh`) has each wire named by its terminal where a capture pairs the
        two (`WIRE_TERMINALS`); another wire name is shown as reported, logged once.
        """
        pins = for_state(self.device.get("hvac_pins"))
        if pins is not None:
            return _listed(pins.split(","))
        wires = for_state(self.device.get("hvac_wires"))
        if wires is None:
            return None
        return _listed(self._terminal(wire.strip()) for wire in wires.split(",") if wire.strip())

    def _terminal(self, wire: str) -> str:
        terminal = WIRE_TERMINALS.get(wire)
        if terminal is not None:
            return terminal
        noted = self.source.implausible_readings
        if (self.serial, f"hvac_wires {wire}") not in noted:
            noted.add((self.serial, f"hvac_wires {wire}"))
            _LOGGER.debug(
                "Thermostat %s reports a wire %s in hvac_wires whose terminal is not known; "
                "shown as reported",
                self.serial,
                for_log(wire, 40),
            )
        return wire

    def error_text(self, field: str) -> str | None:
        """`device.error_code` or `device.wiring_error` as reported; "" for none, None unknown."""
        value = self.device.get(field)
        if value == "":
            return ""
        return for_state(value)

    @property
    def reported_errors(self) -> dict[str, str]:
        """The errors reported now, by field; `wiring_error` "Unknown" (not checked yet) is none."""
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
        return self.device.get("filter_replacement_needed") is True

    filter_runtime_seconds = _Reading("device", "filter_runtime_sec", DURATION_RANGE_S)
    """`device.filter_runtime_sec`: "total filter runtime" (the protocol notes), seconds."""

    battery_voltage = _Reading("device", "battery_level", BATTERY_VOLTAGE_RANGE_V)

    @property
    def preconditioning_enabled(self) -> bool:
        return self.device.get("preconditioning_enabled") is True

    @property
    def schedule_mode(self) -> str | None:
        """`schedule.schedule_mode`: HEAT, COOL or RANGE."""
        schedule = self.schedule or {}
        return one_of(schedule.get("schedule_mode"), SCHEDULE_MODES)
