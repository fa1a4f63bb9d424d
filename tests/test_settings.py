"""Settings the thermostat keeps, as switches and numbers, and what it reports about itself.

Every write goes through a service call and is asserted where the thermostat sees it: in the
push it receives over TCP.
"""

from __future__ import annotations

from typing import Any

from homeassistant.components.number.const import (
    ATTR_VALUE,
    DOMAIN as NUMBER_DOMAIN,
    SERVICE_SET_VALUE,
)
from homeassistant.const import (
    ATTR_ENTITY_ID,
    ATTR_UNIT_OF_MEASUREMENT,
    SERVICE_TURN_OFF,
    SERVICE_TURN_ON,
    STATE_OFF,
    STATE_ON,
    STATE_UNKNOWN,
    Platform,
)
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.util.unit_system import US_CUSTOMARY_SYSTEM
import pytest

from custom_components.thermostat_cloud.server import CommandError

from .conftest import SERIAL, PairedThermostat, PairThermostat
from .test_services import SCHEDULE, action, refused


def shown(hass: HomeAssistant, entity_id: str) -> str:
    """Return the state of an entity, which must exist."""
    current = hass.states.get(entity_id)
    assert current is not None, entity_id
    return current.state


async def reported(paired: PairedThermostat, **fields: Any) -> None:
    """Let the thermostat report a change of its `device` bucket (its own menu) and wait for it."""
    await paired.thermostat.put(f"device.{SERIAL}", fields)
    await paired.hass.async_block_till_done()


# -- switches ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "field", "initially"),
    [
        ("learning", "learning_mode", False),
        ("home_away_assist", "auto_away_enable", False),
        ("sunlight_correction", "sunlight_correction_enabled", True),
        ("filter_reminder", "filter_reminder_enabled", True),
        ("freeze_protection", "lower_safety_temp_enabled", True),
        ("heat_protection", "upper_safety_temp_enabled", False),
    ],
)
async def test_a_setting_switch_writes_the_field_firmware_keeps(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    key: str,
    field: str,
    initially: bool,
) -> None:
    """The switch shows the thermostat's field, flips it at the thermostat, and follows it."""
    paired = await pair_thermostat()
    switch = paired.entity_id("switch", key)
    assert shown(hass, switch) == (STATE_ON if initially else STATE_OFF)

    service = SERVICE_TURN_OFF if initially else SERVICE_TURN_ON
    await hass.services.async_call(
        Platform.SWITCH, service, {ATTR_ENTITY_ID: switch}, blocking=True
    )
    await paired.pushed("device", **{field: not initially})
    assert shown(hass, switch) == (STATE_OFF if initially else STATE_ON)

    # Changed back in the thermostat's own menu.
    await reported(paired, **{field: initially})
    assert shown(hass, switch) == (STATE_ON if initially else STATE_OFF)


async def test_a_setting_the_thermostat_never_reported_is_unknown(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A thermostat that sent no full state yet: settings unknown, not guessed off."""
    paired = await pair_thermostat(full_state=False)
    assert shown(hass, paired.entity_id("switch", "learning")) == STATE_UNKNOWN
    assert shown(hass, paired.entity_id("number", "freeze_protection_temperature")) == (
        STATE_UNKNOWN
    )


# -- safety temperatures ----------------------------------------------------------------------------


async def test_safety_temperatures_in_celsius(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Freeze and heat protection temperatures are written as given, within their limits."""
    paired = await pair_thermostat()
    freeze = paired.entity_id("number", "freeze_protection_temperature")
    heat = paired.entity_id("number", "heat_protection_temperature")
    assert float(shown(hass, freeze)) == 7.2222
    assert float(shown(hass, heat)) == 35

    await hass.services.async_call(
        NUMBER_DOMAIN, SERVICE_SET_VALUE, {ATTR_ENTITY_ID: freeze, ATTR_VALUE: 5}, blocking=True
    )
    await paired.pushed("device", lower_safety_temp=5.0)
    await hass.services.async_call(
        NUMBER_DOMAIN, SERVICE_SET_VALUE, {ATTR_ENTITY_ID: heat, ATTR_VALUE: 30}, blocking=True
    )
    await paired.pushed("device", upper_safety_temp=30.0)
    assert (float(shown(hass, freeze)), float(shown(hass, heat))) == (5, 30)

    # Home Assistant's own range check refuses what the thermostat would not take.
    with pytest.raises(ServiceValidationError):
        await hass.services.async_call(
            NUMBER_DOMAIN,
            SERVICE_SET_VALUE,
            {ATTR_ENTITY_ID: freeze, ATTR_VALUE: 20},
            blocking=True,
        )
    assert paired.service.buckets.value(f"device.{SERIAL}")["lower_safety_temp"] == 5.0


async def test_safety_temperatures_in_fahrenheit(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A Fahrenheit user sees and sets °F; 40 °F is stored as firmware stores it, not rounded."""
    hass.config.units = US_CUSTOMARY_SYSTEM
    paired = await pair_thermostat()
    freeze = paired.entity_id("number", "freeze_protection_temperature")
    current = hass.states.get(freeze)
    assert current is not None
    assert current.attributes[ATTR_UNIT_OF_MEASUREMENT] == "°F"
    assert round(float(current.state)) == 45  # 7.2222 °C

    await hass.services.async_call(
        NUMBER_DOMAIN, SERVICE_SET_VALUE, {ATTR_ENTITY_ID: freeze, ATTR_VALUE: 40}, blocking=True
    )
    await paired.pushed("device", lower_safety_temp=4.444)
    assert round(float(shown(hass, freeze))) == 40


async def test_the_command_layer_refuses_a_safety_temperature_out_of_its_range(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Other clients (`set_device_setting`) get the same limits, and nothing is written."""
    paired = await pair_thermostat()
    commands = paired.service.commands
    with pytest.raises(CommandError) as err:
        commands.set_device_setting(SERIAL, "upper_safety_temp", 40)
    assert err.value.message == "upper_safety_temp must be between 24.0 and 35.0 °C"
    assert paired.service.buckets.value(f"device.{SERIAL}")["upper_safety_temp"] == 35


# -- what the thermostat reports ---------------------------------------------------------------------


async def test_battery_voltage_and_filter_replacement(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """`battery_level` is volts; a due filter reminder is a problem."""
    paired = await pair_thermostat()
    battery = paired.entity_id("sensor", "battery_voltage")
    filter_due = paired.entity_id("binary_sensor", "filter_replacement")
    assert float(shown(hass, battery)) == 3.777
    assert shown(hass, filter_due) == STATE_OFF

    await reported(paired, battery_level=3.61, filter_replacement_needed=True)
    assert float(shown(hass, battery)) == 3.61
    assert shown(hass, filter_due) == STATE_ON

    # A charge level from 0 to 1 (as the protocol notes have it) would still show; 99 V is no
    # reading.
    await reported(paired, battery_level=99)
    assert shown(hass, battery) == STATE_UNKNOWN


# -- learning and the schedule -------------------------------------------------------------------------


async def test_set_schedule_with_learning_on_says_what_learning_will_do(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """While learning is on, writing a schedule without saying what to do about it is refused."""
    paired = await pair_thermostat(device={"learning_mode": True})
    err = await refused(hass, paired, "set_schedule", schedule=SCHEDULE)
    assert err.translation_key == "learning_rewrites_schedule"
    assert "turn learning off" in str(err)
    assert paired.service.buckets.get(f"schedule.{SERIAL}") is None


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
    assert paired.service.buckets.value(f"device.{SERIAL}")["learning_mode"] is True
    assert shown(hass, paired.entity_id("switch", "learning")) == STATE_ON


async def test_set_schedule_with_learning_off_needs_no_answer(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Learning off (the firmware default in captures): the schedule is simply written."""
    paired = await pair_thermostat()
    await action(hass, paired, "set_schedule", schedule=SCHEDULE)
    await paired.pushed("schedule", name="Week")
