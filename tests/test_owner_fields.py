"""Fields owners asked for, each as firmware keeps it.

Second-stage alternate heat, the eco limits, Heat Pump Balance, the filter replaced and an
active safety temperature.
Each is read from, or written to, the bucket firmware keeps it in (docs/device-protocol.md,
"What real firmware does"). Every test pairs a simulated thermostat over real TCP; writes go
through Home Assistant's services and are followed until the thermostat confirms them.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.button.const import DOMAIN as BUTTON_DOMAIN, SERVICE_PRESS
from homeassistant.components.climate.const import (
    ATTR_HVAC_ACTION,
    ATTR_TARGET_TEMP_HIGH,
    ATTR_TARGET_TEMP_LOW,
    SERVICE_SET_PRESET_MODE,
    HVACAction,
)
from homeassistant.components.select import (
    ATTR_OPTION,
    DOMAIN as SELECT_DOMAIN,
    SERVICE_SELECT_OPTION,
)
from homeassistant.const import (
    ATTR_ENTITY_ID,
    SERVICE_TURN_OFF,
    SERVICE_TURN_ON,
    STATE_OFF,
    STATE_ON,
    STATE_UNKNOWN,
    Platform,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util
import pytest

from custom_components.thermostat_cloud.server import CommandError, ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import FIRMWARE_IDLE_STATE, HEAT_PUMP_DUAL_FUEL, HEAT_PUMP_SHARED

from .conftest import SERIAL, PairedThermostat, PairThermostat, shown
from .test_confirmations import until

SHARED = f"shared.{SERIAL}"
DEVICE = f"device.{SERIAL}"
# A heat pump with a two-stage furnace as alternate heat and a third cooling stage.
TWO_STAGE_FURNACE = {**HEAT_PUMP_DUAL_FUEL, "has_x2_alt_heat": True, "has_x3_cool": True}
RELAYS_OFF = {**HEAT_PUMP_SHARED, "hvac_alt_heat_x2_state": False}


async def pair_heat_pump(pair_thermostat: PairThermostat, **device: Any) -> PairedThermostat:
    """Pair a heat pump with a two-stage furnace beside it, idle, as firmware reports it."""
    return await pair_thermostat(
        shared=RELAYS_OFF, device={**FIRMWARE_IDLE_STATE, **TWO_STAGE_FURNACE, **device}
    )


async def pair_with_eco_limits(
    pair_thermostat: PairThermostat, *, low: bool, high: bool
) -> PairedThermostat:
    """Pair an idle thermostat that reports its eco limits on or off."""
    return await pair_thermostat(
        device={
            **FIRMWARE_IDLE_STATE,
            "away_temperature_low_enabled": low,
            "away_temperature_high_enabled": high,
        }
    )


async def confirmed(service: ThermostatService) -> None:
    """Return once the thermostat confirmed every command sent to it."""
    await until(service, lambda: not service.delivery.pending(SERIAL))


def disabled_by(registry: er.EntityRegistry, entity_id: str) -> er.RegistryEntryDisabler | None:
    entry = registry.async_get(entity_id)
    assert entry is not None
    return entry.disabled_by


# -- second-stage alternate heat, and the runtime of alternate heat and cooling stage 3 -------


async def test_second_stage_alternate_heat_runs_as_a_heating_stage(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """`shared.hvac_alt_heat_x2_state` is its own running sensor, and it is heating."""
    paired = await pair_heat_pump(pair_thermostat)
    stage_2 = paired.entity_id("binary_sensor", "alt_heat_stage_2")
    assert shown(hass, stage_2) == STATE_OFF

    await paired.thermostat.put(
        SHARED, {"hvac_alt_heat_state": True, "hvac_alt_heat_x2_state": True}
    )
    await hass.async_block_till_done()
    assert shown(hass, stage_2) == STATE_ON
    assert shown(hass, paired.entity_id("binary_sensor", "alt_heat")) == STATE_ON
    assert shown(hass, paired.entity_id("binary_sensor", "heating")) == STATE_ON
    climate = hass.states.get(paired.entity_id("climate"))
    assert climate is not None
    assert climate.attributes[ATTR_HVAC_ACTION] == HVACAction.HEATING

    # Stage 2 alone still heats: the heating sensor does not read stage 1 only.
    await paired.thermostat.put(SHARED, {"hvac_alt_heat_state": False})
    await hass.async_block_till_done()
    assert shown(hass, paired.entity_id("binary_sensor", "heating")) == STATE_ON
    assert shown(hass, paired.entity_id("binary_sensor", "alt_heat")) == STATE_OFF


async def test_a_thermostat_without_the_equipment_has_them_disabled(
    hass: HomeAssistant, entity_registry: er.EntityRegistry, paired: PairedThermostat
) -> None:
    """No `has_x2_alt_heat`, no heat pump: the new sensors, select and runtimes wait, disabled."""
    for platform, key in (
        ("binary_sensor", "alt_heat_stage_2"),
        ("sensor", "alt_heat_runtime"),
        ("sensor", "cooling_stage_3_runtime"),
        ("select", "heat_pump_balance"),
    ):
        assert disabled_by(entity_registry, paired.entity_id(platform, key)) is (
            er.RegistryEntryDisabler.INTEGRATION
        ), key
    # A furnace thermostat has no heat pump: Heat Pump Balance is refused, nothing written.
    with pytest.raises(CommandError):
        paired.service.commands.set_device_setting(SERIAL, "heatpump_savings", "balanced")
    assert "heatpump_savings" not in harness(paired.service).value(DEVICE)


async def test_alternate_heat_and_cooling_stage_3_count_their_hours(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """Either alternate heat stage counts for alternate heat; the third cooling stage its own."""
    paired = await pair_heat_pump(pair_thermostat)
    alt = paired.entity_id("sensor", "alt_heat_runtime")
    cool_3 = paired.entity_id("sensor", "cooling_stage_3_runtime")
    heating_2 = paired.entity_id("sensor", "heating_stage_2_runtime")
    assert shown(hass, alt) == "0.0"

    async def run_for(minutes: int) -> None:
        for _ in range(minutes):
            freezer.tick(timedelta(minutes=1))
            await paired.thermostat.put(DEVICE, {"current_humidity": 40 + minutes % 7})
        await hass.async_block_till_done()

    await paired.thermostat.put(SHARED, {"hvac_alt_heat_state": True})
    await run_for(15)
    await paired.thermostat.put(SHARED, {"hvac_alt_heat_x2_state": True})
    await run_for(15)
    await paired.thermostat.put(SHARED, {"hvac_alt_heat_state": False})
    await run_for(15)
    await paired.thermostat.put(
        SHARED,
        {"hvac_alt_heat_x2_state": False, "hvac_ac_state": True, "hvac_cool_x3_state": True},
    )
    await run_for(30)
    await paired.thermostat.put(SHARED, {"hvac_ac_state": False, "hvac_cool_x3_state": False})
    await run_for(5)

    assert float(shown(hass, alt)) == 0.75
    assert float(shown(hass, cool_3)) == 0.5
    assert float(shown(hass, heating_2)) == 0  # the furnace's stage 2 is not the heat pump's
    assert shown(hass, paired.entity_id("sensor", "heating_cycles")) == "1"
    assert shown(hass, paired.entity_id("sensor", "cooling_cycles")) == "1"


# -- the eco limits ----------------------------------------------------------------------------


async def test_an_eco_limit_that_is_off_shows_no_eco_temperature(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """`away_temperature_high_enabled` false: no eco high temperature, in the sensor and in eco."""
    paired = await pair_with_eco_limits(pair_thermostat, low=True, high=False)
    low = paired.entity_id("sensor", "eco_temperature_low")
    high = paired.entity_id("sensor", "eco_temperature_high")
    assert float(shown(hass, low)) == pytest.approx(18.5, abs=0.05)
    assert shown(hass, high) == STATE_UNKNOWN
    assert shown(hass, paired.entity_id("switch", "eco_low_limit")) == STATE_ON
    assert shown(hass, paired.entity_id("switch", "eco_high_limit")) == STATE_OFF

    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="eco")
    climate = hass.states.get(paired.entity_id("climate"))
    assert climate is not None
    assert climate.attributes[ATTR_TARGET_TEMP_LOW] == pytest.approx(18.5, abs=0.05)
    assert climate.attributes[ATTR_TARGET_TEMP_HIGH] is None

    # Turned on in the thermostat's own menu: the temperature it keeps shows again.
    await paired.reported(away_temperature_high_enabled=True)
    assert float(shown(hass, high)) == pytest.approx(24.7, abs=0.05)
    climate = hass.states.get(paired.entity_id("climate"))
    assert climate is not None
    assert climate.attributes[ATTR_TARGET_TEMP_HIGH] == pytest.approx(24.7, abs=0.05)


async def test_the_eco_limits_are_settings_the_thermostat_confirms(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    paired = await pair_with_eco_limits(pair_thermostat, low=True, high=True)
    switch = paired.entity_id("switch", "eco_low_limit")
    await hass.services.async_call(
        Platform.SWITCH, SERVICE_TURN_OFF, {ATTR_ENTITY_ID: switch}, blocking=True
    )
    await paired.pushed("device", away_temperature_low_enabled=False)
    await confirmed(paired.service)
    assert shown(hass, switch) == STATE_OFF
    assert shown(hass, paired.entity_id("sensor", "eco_temperature_low")) == STATE_UNKNOWN

    await hass.services.async_call(
        Platform.SWITCH, SERVICE_TURN_ON, {ATTR_ENTITY_ID: switch}, blocking=True
    )
    await paired.pushed("device", away_temperature_low_enabled=True)
    await confirmed(paired.service)
    assert float(shown(hass, paired.entity_id("sensor", "eco_temperature_low"))) == (
        pytest.approx(18.5, abs=0.05)
    )


# -- Heat Pump Balance -------------------------------------------------------------------------


@pytest.mark.smoke("select")
async def test_heat_pump_balance_is_a_select(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """`device.heatpump_savings` as the capture has it (`off`); a choice is pushed, confirmed."""
    paired = await pair_heat_pump(pair_thermostat, heatpump_savings="off")
    balance = paired.entity_id("select", "heat_pump_balance")
    assert shown(hass, balance) == "off"

    for option, value in (("max_savings", "max-savings"), ("balanced", "balanced")):
        await hass.services.async_call(
            SELECT_DOMAIN,
            SERVICE_SELECT_OPTION,
            {ATTR_ENTITY_ID: balance, ATTR_OPTION: option},
            blocking=True,
        )
        await paired.pushed("device", heatpump_savings=value)
        await confirmed(paired.service)
        assert shown(hass, balance) == option

    await paired.reported(heatpump_savings="max-comfort")
    assert shown(hass, balance) == "max_comfort"
    await paired.reported(heatpump_savings="turbo")
    assert shown(hass, balance) == STATE_UNKNOWN


async def test_a_heat_pump_balance_no_source_names_is_refused(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    paired = await pair_heat_pump(pair_thermostat, heatpump_savings="balanced")
    with pytest.raises(CommandError):
        paired.service.commands.set_device_setting(SERIAL, "heatpump_savings", "turbo")
    assert harness(paired.service).value(DEVICE)["heatpump_savings"] == "balanced"


# -- the filter replaced -----------------------------------------------------------------------


@pytest.mark.smoke("button")
async def test_the_filter_replaced_button_writes_the_time_of_the_change(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """`device.filter_changed_date`: now, in Unix seconds; the thermostat confirms it."""
    paired = await pair_thermostat(
        device={**FIRMWARE_IDLE_STATE, "filter_changed_date": 1734220800}
    )
    now = int(dt_util.utcnow().timestamp())
    await hass.services.async_call(
        BUTTON_DOMAIN,
        SERVICE_PRESS,
        {ATTR_ENTITY_ID: paired.entity_id("button", "filter_replaced")},
        blocking=True,
    )
    await paired.pushed("device", filter_changed_date=now)
    await confirmed(paired.service)


# -- an active safety temperature --------------------------------------------------------------


@pytest.mark.parametrize(
    ("safety_state", "expected"),
    [
        ("none", STATE_OFF),
        ("safe", STATE_OFF),
        ("below", STATE_ON),
        ("above", STATE_ON),
        ("hot", STATE_UNKNOWN),
        (1, STATE_UNKNOWN),
    ],
)
async def test_safety_temperature_active_follows_the_safety_state(
    hass: HomeAssistant, pair_thermostat: PairThermostat, safety_state: object, expected: str
) -> None:
    """`device.safety_state` `below` or `above`: the thermostat heats or cools to stay safe."""
    paired = await pair_thermostat(device={**FIRMWARE_IDLE_STATE, "safety_state": "none"})
    sensor = paired.entity_id("binary_sensor", "safety_temperature")
    assert shown(hass, sensor) == STATE_OFF

    await paired.reported(
        safety_state=safety_state, safety_temp_activating_hvac=expected == STATE_ON
    )
    assert shown(hass, sensor) == expected
