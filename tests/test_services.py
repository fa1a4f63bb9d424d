"""The integration's own actions on a thermostat's climate entity."""

from __future__ import annotations

import asyncio
from datetime import timedelta
import math
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import (
    ATTR_ENTITY_ID,
    STATE_OFF,
    STATE_ON,
    STATE_UNKNOWN,
)
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceNotSupported, ServiceValidationError
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server.core.read.validation import pin_hash
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import WEEK_SCHEDULE

from .conftest import SERIAL, LoopClock, PairedThermostat, PairThermostat, shown

SCHEDULE = WEEK_SCHEDULE


async def action(
    hass: HomeAssistant, paired: PairedThermostat, service: str, **data: Any
) -> dict[str, Any] | None:
    """Call one of the integration's actions on the thermostat's climate entity."""
    response = await hass.services.async_call(
        DOMAIN,
        service,
        {ATTR_ENTITY_ID: paired.entity_id("climate"), **data},
        blocking=True,
        return_response=service == "get_schedule",
    )
    return dict(response) if response is not None else None


async def refused(
    hass: HomeAssistant, paired: PairedThermostat, service: str, **data: Any
) -> ServiceValidationError:
    """Assert that the action is refused with a translated validation error."""
    with pytest.raises(ServiceValidationError) as err:
        await action(hass, paired, service, **data)
    assert err.value.translation_domain == DOMAIN
    return err.value


async def lock_refused(
    hass: HomeAssistant, paired: PairedThermostat, **limits: float
) -> ServiceValidationError:
    """Assert that a temperature lock with PIN 1234 and these limits is refused."""
    return await refused(hass, paired, "set_temperature_lock", enabled=True, pin="1234", **limits)


# -- fan timer ---------------------------------------------------------------------------------


async def test_fan_timer_runs_the_fan_then_returns_to_auto(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """The fan runs, the Fan timer sensor says so and shows its end, then all returns.

    Without a timer the Fan timer sensor says "not running" and its end is unknown, as core
    shows a timestamp of nothing (unavailable would read as a fault).
    """
    timer = paired.entity_id("binary_sensor", "fan_timer")
    assert hass.states.get(timer).state == STATE_OFF  # type: ignore[union-attr]
    assert hass.states.get(paired.entity_id("sensor", "fan_timer_end")).state == STATE_UNKNOWN  # type: ignore[union-attr]
    # Whole seconds, rounded up: at least the minute asked for.
    ends = math.ceil(dt_util.utcnow().timestamp() + 60)
    await action(hass, paired, "set_fan_timer", duration={"minutes": 1})

    # What firmware needs to end the timer itself; fan mode auto, not the continuous `on`.
    await paired.pushed("device", fan_mode="auto", fan_timer_duration=60, fan_timer_timeout=ends)
    climate = hass.states.get(paired.entity_id("climate"))
    assert climate is not None
    assert climate.attributes["fan_mode"] == "on"
    end = hass.states.get(paired.entity_id("sensor", "fan_timer_end"))
    assert end is not None
    assert dt_util.parse_datetime(end.state) == dt_util.utc_from_timestamp(ends)
    assert hass.states.get(timer).state == STATE_ON  # type: ignore[union-attr]

    freezer.tick(timedelta(seconds=61))
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=61))
    await hass.async_block_till_done()
    await paired.pushed("device", fan_mode="auto", fan_timer_timeout=0)
    climate = hass.states.get(paired.entity_id("climate"))
    assert climate is not None
    assert climate.attributes["fan_mode"] == "auto"
    assert hass.states.get(paired.entity_id("sensor", "fan_timer_end")).state == STATE_UNKNOWN  # type: ignore[union-attr]
    assert hass.states.get(timer).state == STATE_OFF  # type: ignore[union-attr]


async def test_the_thermostat_ends_a_fan_timer_with_home_assistant_down(
    hass: HomeAssistant, clock: LoopClock, paired: PairedThermostat
) -> None:
    """The fan stops on time though no one tells it to: firmware keeps the timer itself."""
    await action(hass, paired, "set_fan_timer", duration={"minutes": 15})
    pushed = await paired.pushed("device", fan_timer_duration=900)
    assert pushed["fan_timer_timeout"] > 0
    local = paired.thermostat.local
    assert local[f"shared.{SERIAL}"].value["hvac_fan_state"] is True

    # Home Assistant goes away: the server stops, its own timer with it.
    assert await hass.config_entries.async_unload(paired.entry.entry_id)
    await clock.advance(899)
    assert local[f"shared.{SERIAL}"].value["hvac_fan_state"] is True
    await clock.advance(2)  # its end is in whole seconds, rounded up
    async with asyncio.timeout(10):
        await paired.thermostat.fan_timer_ended.wait()
    assert local[f"shared.{SERIAL}"].value["hvac_fan_state"] is False
    assert local[f"device.{SERIAL}"].value["fan_timer_timeout"] == 0
    assert local[f"device.{SERIAL}"].value["fan_mode"] == "auto"


async def test_fan_timer_is_at_most_12_hours(hass: HomeAssistant, paired: PairedThermostat) -> None:
    err = await refused(hass, paired, "set_fan_timer", duration={"hours": 12, "seconds": 1})
    assert err.translation_key == "fan_duration_out_of_range"
    assert err.translation_placeholders == {"max": "43200"}
    await action(hass, paired, "set_fan_timer", duration={"hours": 12})
    await paired.pushed("device", fan_timer_duration=43200)


async def test_fan_timer_needs_a_fan(hass: HomeAssistant, pair_thermostat: PairThermostat) -> None:
    """A fan timer on a fanless thermostat is refused before anything is written.

    A fanless thermostat is not a valid target: Home Assistant's feature check refuses it
    before the integration runs.
    """
    paired = await pair_thermostat(device={"has_fan": False})
    with pytest.raises(ServiceNotSupported) as err:
        await action(hass, paired, "set_fan_timer", duration={"minutes": 5})
    assert err.value.translation_domain == "homeassistant"
    assert err.value.translation_key == "service_not_supported"
    assert shown(hass, paired.entity_id("sensor", "fan_timer_end")) == STATE_UNKNOWN


# -- temperature lock --------------------------------------------------------------------------


async def test_temperature_lock_with_pin(hass: HomeAssistant, paired: PairedThermostat) -> None:
    await action(
        hass,
        paired,
        "set_temperature_lock",
        enabled=True,
        pin="0042",
        min_temperature=18,
        max_temperature=23.5,
    )
    pushed = await paired.pushed("device", temperature_lock_enabled=True)
    assert pushed["temperature_lock_pin_hash"] == pin_hash("0042", SERIAL)
    assert (pushed["temperature_lock_low_temp"], pushed["temperature_lock_high_temp"]) == (
        18.0,
        23.5,
    )
    assert hass.states.get(paired.entity_id("binary_sensor", "temperature_lock")).state == "on"  # type: ignore[union-attr]

    await action(hass, paired, "set_temperature_lock", enabled=False)
    await paired.pushed("device", temperature_lock_enabled=False)


@pytest.mark.parametrize("pin", [None, "123", "12345", "12a4", "١٢٣٤"])
async def test_temperature_lock_needs_a_4_digit_pin(
    hass: HomeAssistant, pin: str | None, paired: PairedThermostat
) -> None:
    data: dict[str, Any] = {"enabled": True, "min_temperature": 18, "max_temperature": 23}
    if pin is not None:
        data["pin"] = pin
    err = await refused(hass, paired, "set_temperature_lock", **data)
    assert err.translation_key == "pin_invalid"
    assert str(err) == "The PIN must be exactly 4 digits"
    assert shown(hass, paired.entity_id("binary_sensor", "temperature_lock")) == STATE_OFF


async def test_temperature_lock_range_is_checked(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    err = await lock_refused(hass, paired, min_temperature=24, max_temperature=20)
    assert err.translation_key == "low_not_below_high"
    assert str(err) == "Lowest temperature must be lower than Highest temperature"
    err = await lock_refused(hass, paired)
    assert err.translation_key == "not_a_number"
    # The action's field, not the command layer's name for it (temp_min).
    assert str(err) == "Lowest temperature is missing or not a number"


# -- eco temperatures ----------------------------------------------------------------------------


async def test_eco_temperatures(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """The eco temperatures the action sets reach the thermostat as it stores them."""
    await action(hass, paired, "set_eco_temperatures", low=15.5, high=27)
    await paired.pushed("device", away_temperature_low=15.5, away_temperature_high=27.0)

    err = await refused(hass, paired, "set_eco_temperatures", low=27, high=15)
    assert err.translation_key == "low_not_below_high"
    err = await refused(hass, paired, "set_eco_temperatures", low=2, high=15)
    assert err.translation_key == "temperature_out_of_range"
    assert str(err) == "Low must be between 4.5 and 35 °C"


@pytest.mark.usefixtures("fahrenheit")
async def test_action_temperatures_are_in_home_assistants_unit(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    await action(hass, paired, "set_eco_temperatures", low=59, high=80)
    await paired.pushed("device", away_temperature_low=15.0, away_temperature_high=26.5)
    await action(
        hass,
        paired,
        "set_temperature_lock",
        enabled=True,
        pin="1234",
        min_temperature=64,
        max_temperature=75,
    )
    await paired.pushed("device", temperature_lock_low_temp=18.0, temperature_lock_high_temp=24.0)


@pytest.mark.usefixtures("fahrenheit")
async def test_refusals_speak_home_assistants_unit_and_the_actions_fields(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A Fahrenheit user is told the limits in °F, by the names of the fields they filled in."""
    err = await refused(hass, paired, "set_eco_temperatures", low=30, high=80)
    assert err.translation_key == "temperature_out_of_range"
    assert err.translation_placeholders == {
        "field": "Low",
        "min": "40",  # 4.5 °C, as the climate entity's slider shows it
        "max": "95",  # 35 °C
        "unit": "°F",
    }
    assert str(err) == "Low must be between 40 and 95 °F"

    err = await lock_refused(hass, paired, min_temperature=64, max_temperature=95)
    assert str(err) == "Highest temperature must be between 40 and 90 °F"


# -- schedule ------------------------------------------------------------------------------------


async def test_schedule_read_and_write(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """The schedule written through the action is the one read back, and none before it."""
    assert await action(hass, paired, "get_schedule") == {
        paired.entity_id("climate"): {"schedule": None}
    }

    await action(hass, paired, "set_schedule", schedule=SCHEDULE)
    await paired.pushed("schedule", name="Week", days=SCHEDULE["days"])
    assert await action(hass, paired, "get_schedule") == {
        paired.entity_id("climate"): {"schedule": SCHEDULE}
    }

    # The thermostat edits its schedule on the device: the read shows it.
    await paired.thermostat.put(f"schedule.{SERIAL}", {"name": "Edited"})
    response = await action(hass, paired, "get_schedule")
    assert response is not None
    assert response[paired.entity_id("climate")]["schedule"]["name"] == "Edited"


async def test_schedule_with_number_keys_from_yaml_is_stored_with_string_keys(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """YAML's `days: {1: {0: ...}}` has integer keys; the thermostat stores strings."""
    entries = SCHEDULE["days"]["1"]
    written = {**SCHEDULE, "days": {1: {0: entries["0"], "1": entries["1"]}}}

    await action(hass, paired, "set_schedule", schedule=written)

    await paired.pushed("schedule", name="Week", days=SCHEDULE["days"])
    assert await action(hass, paired, "get_schedule") == {
        paired.entity_id("climate"): {"schedule": SCHEDULE}
    }


ENTRY = SCHEDULE["days"]["1"]["0"]
RANGE_ENTRY = {
    "time": 25200,
    "temp-min": 19.0,
    "temp-max": 24.0,
    "type": "RANGE",
    "entry_type": "setpoint",
}


@pytest.mark.parametrize(
    ("schedule", "problem"),
    [
        ({**SCHEDULE, "ver": 0}, "ver"),
        ({**SCHEDULE, "schedule_mode": "AUTO"}, "schedule_mode"),
        ({**SCHEDULE, "days": {"7": {}}}, "day"),
        ({**SCHEDULE, "days": {7: {}}}, "day 7 is not 0 to 6"),
        ({**SCHEDULE, "days": {True: {}}}, "day True is not 0 to 6"),
        ({**SCHEDULE, "days": {1: {0: ENTRY}, "1": {0: ENTRY}}}, "day 1 is given twice"),
        ({**SCHEDULE, "days": {"1": {None: ENTRY}}}, "entry None: key must be a number"),
        ({**SCHEDULE, "days": {"1": {-1: ENTRY}}}, "entry -1: key must be a number"),
        ({**SCHEDULE, "days": {"1": {1.5: ENTRY}}}, "entry 1.5: key must be a number"),
        ({**SCHEDULE, "days": {"1": {0: ENTRY, "0": ENTRY}}}, "entry 0 is given twice"),
        (
            {
                **SCHEDULE,
                "days": {
                    "1": {
                        "0": {"time": 90000, "temp": 21, "type": "HEAT", "entry_type": "setpoint"}
                    }
                },
            },
            "time",
        ),
    ],
)
async def test_a_malformed_schedule_is_refused_and_the_log_says_where(
    hass: HomeAssistant,
    schedule: dict[str, Any],
    problem: str,
    paired: PairedThermostat,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A schedule not shaped as the action describes: refused, and the log names the fault.

    Its English detail stays in the log: the error a person reads carries no English.
    """
    err = await refused(hass, paired, "set_schedule", schedule=schedule)
    assert err.translation_key == "schedule_invalid"
    assert not err.translation_placeholders
    assert problem in caplog.text
    assert harness(paired.service).bucket(f"schedule.{SERIAL}") is None


@pytest.mark.parametrize(
    ("schedule", "translation_key", "placeholders"),
    [
        (
            {**SCHEDULE, "days": {"1": {}}},
            "schedule_day_empty",
            {"day": "Tuesday"},
        ),
        (
            {**SCHEDULE, "days": {"1": {"0": ENTRY, "1": {**ENTRY, "temp": 18.0}}}},
            "schedule_same_time",
            {"day": "Tuesday", "time": "07:00"},
        ),
        (
            {
                **SCHEDULE,
                "schedule_mode": "RANGE",
                "days": {"1": {"0": {**RANGE_ENTRY, "temp-min": 24.0, "temp-max": 24.0}}},
            },
            "schedule_low_not_below_high",
            {"day": "Tuesday", "time": "07:00"},
        ),
        (
            {
                **SCHEDULE,
                "schedule_mode": "RANGE",
                "days": {"1": {"0": {**RANGE_ENTRY, "temp-max": 33.0}}},
            },
            "schedule_temperature_out_of_range",
            {"day": "Tuesday", "time": "07:00", "min": "4.5", "max": "32", "unit": "°C"},
        ),
        (
            {
                **SCHEDULE,
                "days": {
                    "6": {
                        "0": {"time": 79200, "temp": 40, "type": "HEAT", "entry_type": "setpoint"}
                    }
                },
            },
            "schedule_temperature_out_of_range",
            {"day": "Sunday", "time": "22:00", "min": "4.5", "max": "32", "unit": "°C"},
        ),
    ],
)
async def test_a_schedule_mistake_is_named_by_its_day_and_time(
    hass: HomeAssistant,
    schedule: dict[str, Any],
    translation_key: str,
    placeholders: dict[str, str],
    paired: PairedThermostat,
) -> None:
    """What a person writing a schedule can fix is named by the weekday and clock time."""
    err = await refused(hass, paired, "set_schedule", schedule=schedule)
    assert err.translation_key == translation_key
    assert err.translation_placeholders == placeholders
    assert harness(paired.service).bucket(f"schedule.{SERIAL}") is None


async def test_fan_timer_end_reaches_a_thermostat_that_reports_its_fan_in_shared(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    paired = await pair_thermostat(shared={"fan_mode": "on"})
    await action(hass, paired, "set_fan_timer", duration={"minutes": 1})
    # The continuous fan it reported on its dial gives way to the timer, in `shared` too.
    await paired.pushed("shared", fan_mode="auto")  # one push with the device bucket's timer
    assert paired.thermostat.local[f"device.{SERIAL}"].value["fan_timer_duration"] == 60
    assert hass.states.get(paired.entity_id("climate")).attributes["fan_mode"] == "on"  # type: ignore[union-attr]

    freezer.tick(timedelta(seconds=61))
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=61))
    await hass.async_block_till_done()
    await paired.pushed("device", fan_timer_timeout=0)
    climate = hass.states.get(paired.entity_id("climate"))
    assert climate is not None
    assert climate.attributes["fan_mode"] == "auto"


async def test_set_schedule_with_learning_on_says_what_learning_will_do(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """While learning is on, writing a schedule without saying what to do about it is refused."""
    paired = await pair_thermostat(device={"learning_mode": True})
    err = await refused(hass, paired, "set_schedule", schedule=SCHEDULE)
    assert err.translation_key == "learning_rewrites_schedule"
    assert "turn learning off" in str(err)
    assert harness(paired.service).bucket(f"schedule.{SERIAL}") is None


async def test_set_schedule_can_turn_learning_off_in_the_same_push(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """`turn_off_learning: true`: the schedule and learning off reach the thermostat together."""
    paired = await pair_thermostat(device={"learning_mode": True})
    await action(hass, paired, "set_schedule", schedule=SCHEDULE, turn_off_learning=True)
    chunk = await paired.thermostat.next_chunk()
    values = {obj["object_key"]: obj["value"] for obj in chunk.objects}
    assert values[f"schedule.{SERIAL}"]["days"] == SCHEDULE["days"]
    assert values[f"device.{SERIAL}"]["learning_mode"] is False
    assert shown(hass, paired.entity_id("switch", "learning")) == STATE_OFF


async def test_set_schedule_can_keep_learning(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """`turn_off_learning: false`: the schedule is written and learning stays on, as asked."""
    paired = await pair_thermostat(device={"learning_mode": True})
    await action(hass, paired, "set_schedule", schedule=SCHEDULE, turn_off_learning=False)
    await paired.pushed("schedule", name="Week")
    assert harness(paired.service).value(f"device.{SERIAL}")["learning_mode"] is True
    assert shown(hass, paired.entity_id("switch", "learning")) == STATE_ON


async def test_set_schedule_with_learning_off_needs_no_answer(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Learning off (the firmware default in captures): the schedule is simply written."""
    await action(hass, paired, "set_schedule", schedule=SCHEDULE)
    await paired.pushed("schedule", name="Week")
