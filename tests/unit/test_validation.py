"""What a command may write: setpoints, modes, the lock's PIN, device settings.

Each refusal is what a client reads (code, reason, message, placeholders) before anything
reaches the thermostat.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from custom_components.thermostat_cloud.server import CommandError, ErrorCode, Reason
from custom_components.thermostat_cloud.server.core.read.validation import (
    DEVICE_SETTINGS,
    is_valid_pin_hash,
    normalize_mode,
    pin_hash,
    setpoint,
    temperature_pair,
)

SERIAL = "02AA01AC331400AB"


def refusal(call: Any, *args: Any, **kwargs: Any) -> CommandError:
    """Return the CommandError a call raises (it must raise one)."""
    with pytest.raises(CommandError) as err:
        call(*args, **kwargs)
    return err.value


@pytest.mark.parametrize(
    ("given", "stored"),
    [(21.24, 21.0), (21.25, 21.5), (21.74, 21.5), (4.3, 4.5), (32.2, 32.0), (20, 20.0)],
)
def test_a_setpoint_is_stored_at_the_thermostats_half_degree(given: float, stored: float) -> None:
    """The thermostat shows half degrees; a value just past a range end rounds into it."""
    assert setpoint(given) == stored


@pytest.mark.parametrize("given", [40, 32.3, 4.2, -10, 1e308, -1e308])
def test_a_setpoint_out_of_range_is_refused_with_the_range(given: float) -> None:
    """40 °C is refused, with the limits a client can show; 1e308 too, without overflowing."""
    err = refusal(setpoint, given)
    assert (err.code, err.reason) == (ErrorCode.INVALID_VALUE, Reason.TEMPERATURE_OUT_OF_RANGE)
    assert err.message == "Temperature value must be between 4.5 and 32.0 °C"
    assert err.placeholders == {"field": "target_temperature", "min": 4.5, "max": 32.0}


@pytest.mark.parametrize("given", [True, "21", None, [21], math.nan, math.inf, 10**400])
def test_what_is_no_number_is_refused_as_such(given: object) -> None:
    """A boolean, text, NaN, infinity or an integer beyond a float is no temperature."""
    err = refusal(setpoint, given, "Low", "target_temperature_low")
    assert err.reason is Reason.NOT_A_NUMBER
    assert err.message == "Low must be a number"
    assert err.placeholders == {"field": "target_temperature_low"}


@pytest.mark.parametrize(("low", "high"), [(22, 22), (22.2, 21.9), (24, 18)])
def test_a_range_whose_low_end_is_not_below_its_high_end_is_refused(
    low: float, high: float
) -> None:
    """Both ends are compared as the thermostat would store them (22.2 and 21.9 are both 22)."""
    err = refusal(
        temperature_pair,
        low,
        high,
        names=("Low", "High"),
        fields=("target_temperature_low", "target_temperature_high"),
        unordered="Low must be below high",
    )
    assert (err.reason, err.message) == (Reason.LOW_NOT_BELOW_HIGH, "Low must be below high")
    assert err.placeholders == {"low": "target_temperature_low", "high": "target_temperature_high"}


@pytest.mark.parametrize(
    ("given", "mode"),
    [
        ("heat", "heat"),
        (" Heat ", "heat"),
        ("heat_cool", "range"),
        ("auto", "range"),
        ("heat-cool", "range"),
        ("emergency_heat", "emergency"),
        ("OFF", "off"),
    ],
)
def test_a_mode_is_stored_by_the_name_the_thermostat_knows(given: str, mode: str) -> None:
    """Home Assistant's and other clients' names for a mode reach the thermostat as its own."""
    assert normalize_mode(given) == mode


@pytest.mark.parametrize("given", ["eco", "dry", "", 3, None])
def test_what_is_no_mode_is_refused_with_the_modes_there_are(given: object) -> None:
    """Eco is a preset, not a mode: set_eco sets it; a client is told the modes it may use."""
    err = refusal(normalize_mode, given)
    assert err.code is ErrorCode.INVALID_VALUE
    if isinstance(given, str):
        assert err.message == (
            f"Unknown mode {given!r}; use one of off, heat, cool, range, emergency"
        )


def test_the_lock_pin_is_hashed_as_firmware_checks_it() -> None:
    """Base64 of SHA-1 over the PIN then the serial: what firmware compares a typed PIN with."""
    assert pin_hash("1234", SERIAL) == "ZwTd9OPYzS/2jTPnoexNYrG+6ps="
    assert is_valid_pin_hash(pin_hash("0420", SERIAL))


@pytest.mark.parametrize("pin", ["123", "12345", "12a4", "١٢٣٤", 1234, None])
def test_a_pin_the_keypad_cannot_type_is_refused(pin: object) -> None:
    """Only four ASCII digits: the thermostat's keypad has no others."""
    err = refusal(pin_hash, pin, SERIAL)
    assert (err.reason, err.message) == (Reason.PIN_INVALID, "The PIN must be exactly 4 digits")


@pytest.mark.parametrize(
    "value",
    ["7110eda4d09e062aa5e4a390b0a572ac0d2c0220", "MTIzNA==", "not base64!", "", 1234, None],
)
def test_a_pin_hash_that_is_no_sha1_digest_is_not_one(value: object) -> None:
    """A hex digest, a short hash or no text would lock the thermostat with no PIN that opens it."""
    assert not is_valid_pin_hash(value)


@pytest.mark.parametrize(
    ("setting", "given", "stored"),
    [
        ("lower_safety_temp", 4.4444, 4.444),
        ("lower_safety_temp", 7.22222, 7.222),
        ("upper_safety_temp", 35, 35),
        ("target_humidity", 45.6, 46),
        ("temperature_scale", "F", "F"),
        ("learning_mode", False, False),
    ],
)
def test_a_device_setting_is_stored_as_firmware_stores_it(
    setting: str, given: object, stored: object
) -> None:
    """Safety temperatures keep 0.001 °C (45 °F is 7.222), not the setpoints' half degree."""
    assert DEVICE_SETTINGS[setting](given, setting) == stored


@pytest.mark.parametrize(
    ("setting", "given", "message"),
    [
        ("lower_safety_temp", 3.9, "lower_safety_temp must be between 4.0 and 15.0 °C"),
        ("upper_safety_temp", 23, "upper_safety_temp must be between 24.0 and 35.0 °C"),
        ("target_humidity", 65, "target_humidity must be between 10 and 60 %"),
        ("target_humidity", "50", "target_humidity must be a number"),
        ("temperature_scale", "K", "temperature_scale must be C or F"),
        ("learning_mode", "false", "learning_mode must be true or false"),
        ("learning_mode", 0, "learning_mode must be true or false"),
    ],
)
def test_a_device_setting_out_of_its_range_or_type_is_refused(
    setting: str, given: object, message: str
) -> None:
    """A value that merely reads as one (the text "false", 0) is not taken for it."""
    err = refusal(DEVICE_SETTINGS[setting], given, setting)
    assert err.message == message
