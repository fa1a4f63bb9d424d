"""One thermostat's raw bucket fields where firmware keeps them, and the pure helpers that read them.

Separate from `state.py` because the command layer reads here before it writes (it has the
buckets, not the service). A value of the wrong type or an implausible number is no reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Protocol

from ...model.buckets import BucketStore, bucket_key
from .validation import HVAC_MODES, SHARED_SETTINGS, finite_number as number

# Plausible values of reported numbers, as (low, high): anything outside is not a reading.
TEMPERATURE_RANGE_C = (-100.0, 150.0)
PERCENT_RANGE = (0.0, 100.0)
# `device.battery_level` is the rechargeable cell's voltage (3.72, 3.777 in captures), though
# the protocol notes call it a charge level from 0 to 1.
BATTERY_VOLTAGE_RANGE_V = (0.0, 5.0)
# Unix seconds Python's datetime (and so the host's timestamp sensor) can represent.
TIMESTAMP_RANGE_S = (0.0, datetime(9999, 1, 1, tzinfo=UTC).timestamp())
# A duration the thermostat counts (`filter_runtime_sec`: 1709430 in a 5.9.4-5 capture): up
# to 50 years.
DURATION_RANGE_S = (0.0, 50 * 365.25 * 86400)
# `device.time_to_target` is a Unix time (1439955064 while cooling in a getDeviceInfo sample; the
# reference server reads it so), 0 without an estimate; the protocol notes' "seconds to reach
# the target" is not what thermostats report. Anything before 2001-09-09 is no reading.
TIME_TO_TARGET_RANGE_S = (1e9, TIMESTAMP_RANGE_S[1])

ECO_MODES = ("schedule", "manual-eco", "auto-eco")
ECO_ACTIVE_MODES = ("manual-eco", "auto-eco")

# Status record `hvac` names -> `shared` bucket relay fields.
HVAC_RELAYS = {
    "heater": "hvac_heater_state",
    "heat_x2": "hvac_heat_x2_state",
    "heat_x3": "hvac_heat_x3_state",
    "ac": "hvac_ac_state",
    "cool_x2": "hvac_cool_x2_state",
    "cool_x3": "hvac_cool_x3_state",
    "fan": "hvac_fan_state",
    "aux_heat": "hvac_aux_heater_state",
    "emer_heat": "hvac_emer_heat_state",
    "alt_heat": "hvac_alt_heat_state",
    "alt_heat_x2": "hvac_alt_heat_x2_state",
    "humidifier": "hvac_humidifier_state",
    "dehumidifier": "hvac_dehumidifier_state",
    "auto_dehum": "hvac_auto_dehum_state",
    "fan_cooling": "hvac_fan_cooling_state",
}
# Equipment firmware reports running in `device` (a 5.9.4-5 capture), read there before
# `shared.hvac_<name>_state`.
DEVICE_RELAYS = {
    "humidifier": "humidifier_state",
    "dehumidifier": "dehumidifier_state",
    "auto_dehum": "auto_dehum_state",
    "fan_cooling": "fan_cooling_state",
}
HEAT_RELAYS = ("heater", "heat_x2", "heat_x3", "aux_heat", "emer_heat", "alt_heat", "alt_heat_x2")
COOL_RELAYS = ("ac", "cool_x2", "cool_x3")
# Which stages and heat sources the thermostat drives, reported in `device` with its full
# state (a 5.9.4-5 capture has every one, `false`).
EQUIPMENT_FIELDS = (
    "has_fan",
    "has_emer_heat",
    "has_humidifier",
    "has_dehumidifier",
    "has_x2_heat",
    "has_x3_heat",
    "has_aux_heat",
    "has_alt_heat",
    "has_x2_alt_heat",
    "has_x2_cool",
    "has_x3_cool",
    "has_heat_pump",
    "has_dual_fuel",
)
# `device.safety_state`: the protocol notes list `safe`, `below` and `above` (the indoor
# temperature outside a safety temperature: firmware heats or cools whatever else it does);
# a 5.9.4-5 capture has `none`.
SAFETY_STATES_ACTIVE = ("below", "above")
SAFETY_STATES_CLEAR = ("safe", "none")
# `device.rssi`: 72 and 67 in captures; no source gives its unit, so it is shown as reported,
# within what a signed byte holds.
WIFI_SIGNAL_RANGE = (-128.0, 127.0)
# `device.wiring_error` reads "Unknown" while the thermostat starts, before it has checked its
# wires ("Field Initialization Notes" of the 5.9.4-5 capture): no fault.
NOT_YET_CHECKED = "unknown"


RANGE_MODE = "range"
"""`shared.target_temperature_type` of heat-cool: a low and a high setpoint."""


def takes_range(mode: str | None) -> bool:
    """Return whether the mode's setpoints are a low and a high, not a single target."""
    return mode == RANGE_MODE


class ModeReadings(Protocol):
    """The readings the rules need (`ThermostatState` has them; away is the home's)."""

    @property
    def mode(self) -> str | None:
        """`shared.target_temperature_type`."""

    @property
    def eco(self) -> bool:
        """Whether the thermostat's own eco mode is on."""

    @property
    def away(self) -> bool:
        """Whether the home is away (every thermostat of the home in eco)."""


def holds_eco(thermostat: ModeReadings) -> bool:
    """Return whether the thermostat holds its eco temperatures, whatever its mode.

    The home being away counts too: it puts every thermostat in eco before they report so.
    """
    return (thermostat.eco or thermostat.away) and thermostat.mode not in (None, "off")


def relay_states(shared: Mapping[str, Any], device: Mapping[str, Any]) -> dict[str, bool]:
    """Return every relay by its status-record name; anything but JSON `true` is off."""
    relays = {name: shared.get(field) is True for name, field in HVAC_RELAYS.items()}
    for name, field in DEVICE_RELAYS.items():
        if field in device:
            relays[name] = device[field] is True
    return relays


def string(value: object) -> str | None:
    """Return the value if it is a string, else None."""
    return value if isinstance(value, str) else None


def flag(value: object, default: bool) -> bool:
    """Return a JSON boolean as stored; anything else (`"false"`, `0`) is `default`."""
    return value if isinstance(value, bool) else default


def one_of(value: object, allowed: tuple[str, ...]) -> str | None:
    """Return the value when it is one of the allowed strings, else None."""
    return value if isinstance(value, str) and value in allowed else None


def plausible_number(value: object, limits: tuple[float, float]) -> float | int | None:
    """Return a finite number within `limits` (inclusive) as stored, else None."""
    found = number(value)
    if found is None or not limits[0] <= found <= limits[1]:
        return None
    return found


class BucketReadings:
    """Read one thermostat's raw bucket fields where firmware keeps them."""

    __slots__ = ("buckets", "serial")

    def __init__(self, buckets: BucketStore, serial: str) -> None:
        self.buckets = buckets
        self.serial = serial

    @property
    def shared(self) -> Mapping[str, Any]:
        """`shared.<serial>`: setpoints, mode, relays, `can_heat`/`can_cool`."""
        return self.buckets.value(bucket_key("shared", self.serial))

    @property
    def device(self) -> Mapping[str, Any]:
        """`device.<serial>`: settings, humidity, fan, eco, the `has_*` equipment."""
        return self.buckets.value(bucket_key("device", self.serial))

    @property
    def capabilities(self) -> dict[str, bool]:
        """What the equipment can do, as the thermostat reported it."""
        shared, device = self.shared, self.device
        return {
            "can_heat": flag(shared.get("can_heat"), True),
            "can_cool": flag(shared.get("can_cool"), False),
            **{name: flag(device.get(name), False) for name in EQUIPMENT_FIELDS},
        }

    @property
    def equipment_reported(self) -> bool:
        """Whether `can_heat`/`can_cool` arrived (only in the full state sent after a restart)."""
        shared = self.shared
        return "can_heat" in shared or "can_cool" in shared

    @property
    def mode(self) -> str | None:
        """`shared.target_temperature_type`: off, heat, cool, range or emergency."""
        return one_of(self.shared.get("target_temperature_type"), HVAC_MODES)

    @property
    def range_ends(self) -> tuple[float | int | None, float | int | None]:
        """`shared.target_temperature_low` and `_high` as stored, Celsius."""
        shared = self.shared
        return number(shared.get("target_temperature_low")), number(
            shared.get("target_temperature_high")
        )

    @property
    def room_temperature(self) -> float | int | None:
        """`shared.current_temperature` as stored, Celsius."""
        return number(self.shared.get("current_temperature"))

    @property
    def eco_fields(self) -> dict[str, Any]:
        """A copy of the `device.eco` object firmware keeps (mode, who, when), else empty."""
        eco = self.device.get("eco")
        return dict(eco) if isinstance(eco, Mapping) else {}

    @property
    def eco_mode(self) -> str | None:
        """`device.eco.mode`: schedule, manual-eco or auto-eco."""
        return one_of(self.eco_fields.get("mode"), ECO_MODES)

    @property
    def eco(self) -> bool:
        """Whether the thermostat's own eco mode is on (manual or automatic)."""
        mode = self.eco_mode
        if mode is not None:
            return mode in ECO_ACTIVE_MODES
        return self.device.get("eco_mode_enabled") is True

    @property
    def eco_changed_at(self) -> float | int | None:
        """`device.eco.mode_update_timestamp`: when eco last changed, Unix seconds."""
        return number(self.eco_fields.get("mode_update_timestamp"))

    @property
    def fan_mode(self) -> str | None:
        """`fan_mode` of `device` (commands) or `shared` (the dial), whichever changed last."""
        reported = [
            bucket
            for bucket_type in ("device", "shared")
            if (bucket := self.buckets.get(bucket_key(bucket_type, self.serial)))
            and "fan_mode" in bucket.value
        ]
        if not reported:
            return None
        latest = max(reported, key=lambda bucket: bucket.field_changed("fan_mode"))
        return string(latest.value["fan_mode"])

    @property
    def fan_mode_in_shared(self) -> bool:
        return "fan_mode" in self.shared

    def setting(self, name: str) -> Any:
        """Return a setting where firmware keeps it (`SHARED_SETTINGS` in `shared`).

        Falls back to `device`, where earlier versions wrote it, so such a value is not lost.
        """
        if name in SHARED_SETTINGS and name in (shared := self.shared):
            return shared[name]
        return self.device.get(name)

    @property
    def fan_timer_end(self) -> int | None:
        """`device.fan_timer_timeout` when a timer is set (whole Unix seconds), else None."""
        timeout = self.device.get("fan_timer_timeout")
        if isinstance(timeout, int) and not isinstance(timeout, bool) and timeout > 0:
            return timeout
        return None


def home_away(buckets: BucketStore, structure_id: str) -> bool:
    """`structure.away`, or `manual_eco_all` (how firmware holds the home's away)."""
    structure = buckets.value(bucket_key("structure", structure_id))
    return structure.get("away") is True or structure.get("manual_eco_all") is True


def home_manual_eco_since(buckets: BucketStore, structure_id: str) -> float | int | None:
    """Return when the home entered manual eco (Unix seconds), or None when it is not in it."""
    structure = buckets.value(bucket_key("structure", structure_id))
    if structure.get("manual_eco_all") is not True:
        return None
    return number(structure.get("manual_eco_timestamp")) or 0
