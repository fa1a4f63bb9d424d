"""Settings the thermostat keeps, as numbers: the freeze and heat protection temperatures.

Every write goes through a service call and is asserted where the thermostat sees it: in the
push it receives over TCP.
"""

from __future__ import annotations

from homeassistant.components.number.const import (
    ATTR_VALUE,
    DOMAIN as NUMBER_DOMAIN,
    SERVICE_SET_VALUE,
)
from homeassistant.const import ATTR_ENTITY_ID, ATTR_UNIT_OF_MEASUREMENT, STATE_UNKNOWN, Platform
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
import pytest

from custom_components.thermostat_cloud.server import CommandError
from custom_components.thermostat_cloud.server.core.testing import harness

from .conftest import SERIAL, PairedThermostat, PairThermostat, shown
from .platform_snapshots import platform_snapshot_test


async def test_a_setting_the_thermostat_never_reported_is_unknown(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A thermostat that sent no full state yet: settings unknown, not guessed."""
    paired = await pair_thermostat(full_state=False)
    assert shown(hass, paired.entity_id("number", "freeze_protection_temperature")) == (
        STATE_UNKNOWN
    )


# -- safety temperatures ----------------------------------------------------------------------------


@pytest.mark.smoke("number")
async def test_safety_temperatures_in_celsius(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Freeze and heat protection temperatures are written as given, within their limits."""
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
    assert harness(paired.service).value(f"device.{SERIAL}")["lower_safety_temp"] == 5.0


@pytest.mark.usefixtures("fahrenheit")
async def test_safety_temperatures_in_fahrenheit(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A Fahrenheit user sees and sets °F; 40 °F is stored as firmware stores it, not rounded."""
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
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Other clients (`set_device_setting`) get the same limits, and nothing is written."""
    commands = paired.service.commands
    with pytest.raises(CommandError) as err:
        commands.set_device_setting(SERIAL, "upper_safety_temp", 40)
    assert err.value.message == "upper_safety_temp must be between 24.0 and 35.0 °C"
    assert harness(paired.service).value(f"device.{SERIAL}")["upper_safety_temp"] == 35


test_entities = platform_snapshot_test(Platform.NUMBER)
