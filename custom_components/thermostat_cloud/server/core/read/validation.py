"""Checks of the values commands write: each returns the value as stored, or raises CommandError."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Mapping
import hashlib
import logging
import math
import re
from typing import Any

from .command_errors import CommandError, ErrorCode, Reason

# Setpoint limits, Celsius: the protocol notes' recommended range (4.5 to 32 °C, 40 to 90 °F),
# inside what firmware accepts (about 2 to 58 °C). Community firmware lets garages and cabins
# go to 45 °F and lower (NoLongerEvil-Thermostat #43); Google's firmware stopped at 50 °F (10 °C).
TEMPERATURE_MIN_C = 4.5
TEMPERATURE_MAX_C = 32.0
# Eco ("away") temperatures may go further, as on the device.
ECO_TEMPERATURE_MIN_C = 4.5
ECO_TEMPERATURE_MAX_C = 35.0
SHA1_DIGEST_BYTES = 20
PIN_RE = re.compile(r"[0-9]{4}")
# Safety temperatures (`device.lower_safety_temp` heats below, `upper_safety_temp` cools
# above, even while off or in eco). Captures hold 4.444 and 7.222 (40 and 45 °F) low and 35
# high; firmware never heats above 35 °C nor cools below 7 °C.
LOWER_SAFETY_MIN_C = 4.0
LOWER_SAFETY_MAX_C = 15.0
UPPER_SAFETY_MIN_C = 24.0
UPPER_SAFETY_MAX_C = 35.0
SAFETY_TEMPERATURE_DIGITS = 3
"""Kept as given (to 0.001 °C), not on the setpoints' 0.5 °C: firmware stores 45 °F as 7.222."""
TARGET_HUMIDITY_MIN = 10
TARGET_HUMIDITY_MAX = 60
# Outdoor temperatures of the heat-pump and dual-fuel settings. No public source gives
# firmware's limits: captures hold 10, -31.5 and -1; this holds them and refuses 1e9 or -273.
OUTDOOR_THRESHOLD_MIN_C = -35.0
OUTDOOR_THRESHOLD_MAX_C = 25.0
TEMPERATURE_SCALES = ("C", "F")
"""`device.temperature_scale`: the unit on the thermostat's own screen."""
HEAT_PUMP_BALANCE = ("off", "balanced", "max-savings", "max-comfort")
"""`device.heatpump_savings` (Heat Pump Balance): the protocol notes list `max-savings`,
`balanced` and `max-comfort`; a 5.9.4-5 capture has `off`."""

HVAC_MODES = ("off", "heat", "cool", "range", "emergency")
HVAC_MODE_ALIASES = {
    "auto": "range",
    "heat_cool": "range",
    "heat-cool": "range",
    "heatcool": "range",
    "emergency_heat": "emergency",
    "emer": "emergency",
    "eco": None,  # not a mode: see set_eco
}


def pin_hash(pin: object, serial: str) -> str:
    """Base64 of SHA-1 over the 4-digit PIN followed by the serial (the lock's pin_hash)."""
    if not isinstance(pin, str) or PIN_RE.fullmatch(pin) is None:
        raise CommandError(
            ErrorCode.INVALID_VALUE, "The PIN must be exactly 4 digits", Reason.PIN_INVALID
        )
    return base64.b64encode(hashlib.sha1(f"{pin}{serial}".encode()).digest()).decode()


def is_valid_pin_hash(value: object) -> bool:
    """Whether a value is well-formed Base64 of 20 bytes (a SHA-1 digest)."""
    if not isinstance(value, str):
        return False
    try:
        return len(base64.b64decode(value, validate=True)) == SHA1_DIGEST_BYTES
    except binascii.Error, ValueError:
        return False


def saved_record(data: object, logger: logging.Logger, refusal: str) -> Mapping[Any, Any] | None:
    """Return a part of the saved state as a record; None when it is absent or no record.

    Absent is a document of a version before the part: nothing to restore, nothing logged.
    What is no record is logged (`refusal`) and restored as nothing.
    """
    if data is None:
        return None
    if not isinstance(data, Mapping):
        logger.warning(refusal)
        return None
    return data


def finite_number(value: object) -> float | int | None:
    """Return a finite JSON number that fits a float, else None (not a bool, not 10**400)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return value if math.isfinite(value) else None
    except OverflowError:
        return None


def as_number(value: object, what: str, field: str | None = None) -> float:
    """Return a finite JSON number, else raise CommandError."""
    number = finite_number(value)
    if number is None:
        raise CommandError(
            ErrorCode.INVALID_VALUE,
            f"{what} must be a number",
            Reason.NOT_A_NUMBER,
            field=field or what,
        )
    return float(number)


def round_half(value: float) -> float:
    """Round to the thermostat's 0.5 °C resolution."""
    return math.floor(value * 2 + 0.5) / 2


def temperature(
    value: object, what: str, field: str, low: float, high: float, *, exact: bool = False
) -> float:
    """Return a temperature in Celsius, rounded to 0.5 °C (`exact`: 0.001 °C) and in range."""
    number = as_number(value, what, field)
    # Rounded only near the range: doubling 1e308 to round it would overflow.
    near = low - 1 <= number <= high + 1
    if exact:
        celsius = round(number, SAFETY_TEMPERATURE_DIGITS) if near else number
    else:
        celsius = round_half(number) if near else number
    _require_within(
        celsius, low, high, what, field=field, unit="°C", reason=Reason.TEMPERATURE_OUT_OF_RANGE
    )
    return celsius


def _require_within(
    number: float, low: float, high: float, what: str, *, field: str, unit: str, reason: Reason
) -> None:
    if not low <= number <= high:
        raise CommandError(
            ErrorCode.INVALID_VALUE,
            f"{what} must be between {low} and {high} {unit}",
            reason,
            field=field,
            min=low,
            max=high,
        )


def setpoint(
    value: object, what: str = "Temperature value", field: str = "target_temperature"
) -> float:
    """Return a target temperature in Celsius, rounded and range-checked."""
    return temperature(value, what, field, TEMPERATURE_MIN_C, TEMPERATURE_MAX_C)


def temperature_pair(
    low: object,
    high: object,
    *,
    names: tuple[str, str],
    fields: tuple[str, str],
    unordered: str,
    limits: tuple[float, float] = (TEMPERATURE_MIN_C, TEMPERATURE_MAX_C),
) -> tuple[float, float]:
    """Return two temperatures the first of which must be below the second (range, eco, lock)."""
    low_c = temperature(low, names[0], fields[0], *limits)
    high_c = temperature(high, names[1], fields[1], *limits)
    if low_c >= high_c:
        raise CommandError(
            ErrorCode.INVALID_VALUE,
            unordered,
            Reason.LOW_NOT_BELOW_HIGH,
            low=fields[0],
            high=fields[1],
        )
    return low_c, high_c


def normalize_mode(mode: object) -> str:
    """Return an HVAC mode or alias as the `shared` bucket stores it."""
    if not isinstance(mode, str):
        raise CommandError(ErrorCode.INVALID_VALUE, "Mode must be a string")
    name = mode.strip().lower()
    name = HVAC_MODE_ALIASES.get(name, name) or ""
    if name not in HVAC_MODES:
        raise CommandError(
            ErrorCode.INVALID_VALUE,
            f"Unknown mode {mode!r}; use one of off, heat, cool, range, emergency",
        )
    return name


def boolean(value: object, what: str) -> bool:
    """Return true or false, nothing that merely reads as one."""
    if not isinstance(value, bool):
        raise CommandError(ErrorCode.INVALID_VALUE, f"{what} must be true or false")
    return value


def _scale(value: object, what: str) -> str:
    if not isinstance(value, str) or value not in TEMPERATURE_SCALES:
        raise CommandError(ErrorCode.INVALID_VALUE, f"{what} must be C or F")
    return value


def _humidity(value: object, what: str) -> int:
    number = as_number(value, what)
    _require_within(
        number,
        TARGET_HUMIDITY_MIN,
        TARGET_HUMIDITY_MAX,
        what,
        field=what,
        unit="%",
        reason=Reason.HUMIDITY_OUT_OF_RANGE,
    )
    return round(number)


def _safety_temperature(low: float, high: float) -> Callable[[object, str], float]:
    def check(value: object, what: str) -> float:
        return temperature(value, what, what, low, high, exact=True)

    return check


def _heat_pump_balance(value: object, what: str) -> str:
    if not isinstance(value, str) or value not in HEAT_PUMP_BALANCE:
        raise CommandError(
            ErrorCode.INVALID_VALUE, f"{what} must be one of {', '.join(HEAT_PUMP_BALANCE)}"
        )
    return value


def _outdoor_threshold(value: object, what: str) -> float:
    return temperature(value, what, what, OUTDOOR_THRESHOLD_MIN_C, OUTDOOR_THRESHOLD_MAX_C)


# Device-bucket fields a client may set directly (`set_device_setting`), with their validators.
DEVICE_SETTINGS: dict[str, Callable[[object, str], object]] = {
    "temperature_scale": _scale,
    "learning_mode": boolean,
    "target_humidity": _humidity,
    "target_humidity_enabled": boolean,
    "preconditioning_enabled": boolean,
    "auto_away_enable": boolean,
    # In `shared`, where firmware keeps it (see `SHARED_SETTINGS`).
    "compressor_lockout_enabled": boolean,
    # Heat pump: above `heat_pump_aux_threshold` (outdoors) no auxiliary heat; below
    # `heat_pump_comp_threshold` no compressor; each applies while its `_enabled` is on.
    "heat_pump_aux_threshold": _outdoor_threshold,
    "heat_pump_aux_threshold_enabled": boolean,
    "heat_pump_comp_threshold": _outdoor_threshold,
    "heat_pump_comp_threshold_enabled": boolean,
    # Dual fuel: below this outdoor temperature the furnace heats instead of the heat pump.
    "dual_fuel_breakpoint": _outdoor_threshold,
    # Heat Pump Balance: savings against comfort; it overrides the aux lockout temperature
    # (Google's installer guide).
    "heatpump_savings": _heat_pump_balance,
    # Eco temperatures: each applies while its limit is on (the protocol notes).
    "away_temperature_low_enabled": boolean,
    "away_temperature_high_enabled": boolean,
    "lower_safety_temp": _safety_temperature(LOWER_SAFETY_MIN_C, LOWER_SAFETY_MAX_C),
    "lower_safety_temp_enabled": boolean,
    "upper_safety_temp": _safety_temperature(UPPER_SAFETY_MIN_C, UPPER_SAFETY_MAX_C),
    "upper_safety_temp_enabled": boolean,
    "filter_reminder_enabled": boolean,
    "sunlight_correction_enabled": boolean,
}

SHARED_SETTINGS = frozenset({"compressor_lockout_enabled"})
"""Settings of `DEVICE_SETTINGS` firmware keeps in `shared`, not `device` (a 5.9.4-5 capture,
solbirn/Nest.Thermostat `docs/nest-api-schemas.md`): written there."""
HEAT_PUMP_SETTINGS = frozenset(
    {
        "heat_pump_aux_threshold",
        "heat_pump_aux_threshold_enabled",
        "heat_pump_comp_threshold",
        "heat_pump_comp_threshold_enabled",
        "heatpump_savings",
    }
)
"""Settings only a thermostat with a heat pump (`device.has_heat_pump`) acts on."""
DUAL_FUEL_SETTINGS = frozenset({"dual_fuel_breakpoint"})
"""Settings only a thermostat with dual fuel (`device.has_dual_fuel`) acts on."""
