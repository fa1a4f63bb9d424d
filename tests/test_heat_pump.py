"""Real thermostats' stages, heat pump and dual fuel, display unit and diagnostics.

Every stage, a heat pump's and dual fuel's settings, the display's unit and what a technician
asks for (Wi-Fi signal, detected wiring, error codes). Every test pairs a simulated thermostat over real TCP; the heat pump reports three heating
stages, auxiliary and emergency heat, two cooling stages and dual fuel, with the field names
and values of a 5.9.4-5 capture (`thermostat_sim.HEAT_PUMP_DUAL_FUEL`).
"""

from __future__ import annotations

from datetime import timedelta
import logging
from typing import Any

from homeassistant.components.climate.const import ATTR_HVAC_ACTION, HVACAction
from homeassistant.components.number.const import (
    ATTR_VALUE,
    DOMAIN as NUMBER_DOMAIN,
    SERVICE_SET_VALUE,
)
from homeassistant.components.select import (
    ATTR_OPTION,
    DOMAIN as SELECT_DOMAIN,
    SERVICE_SELECT_OPTION,
)
from homeassistant.config_entries import RELOAD_AFTER_UPDATE_DELAY
from homeassistant.const import (
    ATTR_ENTITY_ID,
    SERVICE_TURN_ON,
    STATE_OFF,
    STATE_ON,
    STATE_UNKNOWN,
    Platform,
)
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import (
    device_registry as dr,
    entity_registry as er,
    issue_registry as ir,
    translation,
)
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import FIRMWARE_IDLE_STATE, HEAT_PUMP_DUAL_FUEL, HEAT_PUMP_SHARED

from .conftest import SERIAL, PairedThermostat, PairThermostat, shown

STAGES = (
    "heating_stage_2",
    "heating_stage_3",
    "aux_heat",
    "alt_heat",
    "emergency_heat",
    "cooling_stage_2",
    "cooling_stage_3",
)
HEAT_PUMP_NUMBERS = (
    "aux_heat_max_outdoor_temperature",
    "compressor_min_outdoor_temperature",
    "dual_fuel_breakpoint",
)
HEAT_PUMP_SWITCHES = ("aux_heat_outdoor_lockout", "compressor_outdoor_lockout")


async def pair_heat_pump(pair_thermostat: PairThermostat, **device: Any) -> PairedThermostat:
    """Pair the heat pump with three heating stages and dual fuel, idle, as firmware reports it."""
    return await pair_thermostat(
        shared=HEAT_PUMP_SHARED, device={**FIRMWARE_IDLE_STATE, **HEAT_PUMP_DUAL_FUEL, **device}
    )


def disabled_by(registry: er.EntityRegistry, entity_id: str) -> er.RegistryEntryDisabler | None:
    """Return who disabled an entity (None: enabled)."""
    entry = registry.async_get(entity_id)
    assert entry is not None
    return entry.disabled_by


# -- every stage ----------------------------------------------------------------------------


async def test_every_stage_the_heat_pump_has_is_a_running_sensor(
    hass: HomeAssistant, pair_thermostat: PairThermostat, entity_registry: er.EntityRegistry
) -> None:
    """Stages 2 and 3, aux, alternative and emergency heat run; `heating` and the action too."""
    paired = await pair_heat_pump(pair_thermostat)
    for key in STAGES[:-1]:
        assert shown(hass, paired.entity_id("binary_sensor", key)) == STATE_OFF, key
    # It reports no third cooling stage: that sensor waits, disabled.
    assert disabled_by(entity_registry, paired.entity_id("binary_sensor", "cooling_stage_3")) is (
        er.RegistryEntryDisabler.INTEGRATION
    )

    await paired.thermostat.put(
        f"shared.{SERIAL}",
        {"hvac_heater_state": True, "hvac_heat_x2_state": True, "hvac_aux_heater_state": True},
    )
    await hass.async_block_till_done()
    on = {"heating_stage_2", "aux_heat"}
    for key in STAGES[:-1]:
        assert shown(hass, paired.entity_id("binary_sensor", key)) == (
            STATE_ON if key in on else STATE_OFF
        ), key
    assert shown(hass, paired.entity_id("binary_sensor", "heating")) == STATE_ON
    climate = hass.states.get(paired.entity_id("climate"))
    assert climate is not None
    assert climate.attributes[ATTR_HVAC_ACTION] == HVACAction.HEATING

    # Only the stage still running: heating goes on, stage 2 is off.
    await paired.thermostat.put(
        f"shared.{SERIAL}",
        {"hvac_heater_state": False, "hvac_heat_x2_state": False, "hvac_aux_heater_state": False},
    )
    await paired.thermostat.put(f"shared.{SERIAL}", {"hvac_cool_x2_state": True})
    await hass.async_block_till_done()
    assert shown(hass, paired.entity_id("binary_sensor", "cooling_stage_2")) == STATE_ON
    assert shown(hass, paired.entity_id("binary_sensor", "heating_stage_2")) == STATE_OFF
    assert shown(hass, paired.entity_id("binary_sensor", "cooling")) == STATE_ON


async def test_stages_a_thermostat_reports_later_come_to_life(
    hass: HomeAssistant, pair_thermostat: PairThermostat, entity_registry: er.EntityRegistry
) -> None:
    """A single-stage thermostat has them disabled; its full state after a restart enables them."""
    paired = await pair_thermostat(full_state=False, shared={"current_temperature": 20.5})
    stage_2 = paired.entity_id("binary_sensor", "heating_stage_2")
    aux = paired.entity_id("number", "aux_heat_max_outdoor_temperature")
    for entity_id in (stage_2, aux):
        assert disabled_by(entity_registry, entity_id) is er.RegistryEntryDisabler.INTEGRATION

    await paired.thermostat.put_many(
        {
            f"shared.{SERIAL}": {"can_heat": True, "can_cool": True},
            f"device.{SERIAL}": HEAT_PUMP_DUAL_FUEL,
        }
    )
    for entity_id in (stage_2, aux):
        assert disabled_by(entity_registry, entity_id) is None
    async_fire_time_changed(
        hass, dt_util.utcnow() + timedelta(seconds=RELOAD_AFTER_UPDATE_DELAY + 1)
    )
    await hass.async_block_till_done(wait_background_tasks=True)
    assert shown(hass, stage_2) == STATE_OFF
    assert float(shown(hass, aux)) == 10.0


async def test_a_furnace_without_a_heat_pump_has_no_heat_pump_settings(
    hass: HomeAssistant, entity_registry: er.EntityRegistry, paired: PairedThermostat
) -> None:
    for key in HEAT_PUMP_NUMBERS:
        entity_id = paired.entity_id("number", key)
        assert disabled_by(entity_registry, entity_id) is er.RegistryEntryDisabler.INTEGRATION
    for key in HEAT_PUMP_SWITCHES:
        entity_id = paired.entity_id("switch", key)
        assert disabled_by(entity_registry, entity_id) is er.RegistryEntryDisabler.INTEGRATION
    for key in STAGES:
        entity_id = paired.entity_id("binary_sensor", key)
        expected = None if key == "emergency_heat" else er.RegistryEntryDisabler.INTEGRATION
        assert disabled_by(entity_registry, entity_id) is expected, key


# -- heat pump and dual fuel settings --------------------------------------------------------


async def test_heat_pump_settings_show_and_set_what_firmware_keeps(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Outdoor limits as the capture has them; a change is pushed to `device` at once."""
    paired = await pair_heat_pump(pair_thermostat)
    aux = paired.entity_id("number", "aux_heat_max_outdoor_temperature")
    compressor = paired.entity_id("number", "compressor_min_outdoor_temperature")
    breakpoint_ = paired.entity_id("number", "dual_fuel_breakpoint")
    assert float(shown(hass, aux)) == 10.0
    assert float(shown(hass, compressor)) == -31.5
    assert float(shown(hass, breakpoint_)) == -1.0
    assert shown(hass, paired.entity_id("switch", "aux_heat_outdoor_lockout")) == STATE_ON
    assert shown(hass, paired.entity_id("switch", "compressor_outdoor_lockout")) == STATE_OFF

    await hass.services.async_call(
        NUMBER_DOMAIN, SERVICE_SET_VALUE, {ATTR_ENTITY_ID: aux, ATTR_VALUE: 2.3}, blocking=True
    )
    await paired.pushed("device", heat_pump_aux_threshold=2.5)
    assert float(shown(hass, aux)) == 2.5
    await hass.services.async_call(
        NUMBER_DOMAIN,
        SERVICE_SET_VALUE,
        {ATTR_ENTITY_ID: breakpoint_, ATTR_VALUE: -8},
        blocking=True,
    )
    await paired.pushed("device", dual_fuel_breakpoint=-8.0)
    await hass.services.async_call(
        Platform.SWITCH,
        SERVICE_TURN_ON,
        {ATTR_ENTITY_ID: paired.entity_id("switch", "compressor_outdoor_lockout")},
        blocking=True,
    )
    await paired.pushed("device", heat_pump_comp_threshold_enabled=True)


@pytest.mark.parametrize("value", [-40, 30])
async def test_an_outdoor_limit_out_of_range_is_refused(
    hass: HomeAssistant, pair_thermostat: PairThermostat, value: float
) -> None:
    """Home Assistant refuses it against the entity's limits, before anything is written."""
    paired = await pair_heat_pump(pair_thermostat)
    aux = paired.entity_id("number", "aux_heat_max_outdoor_temperature")
    with pytest.raises(ServiceValidationError):
        await hass.services.async_call(
            NUMBER_DOMAIN,
            SERVICE_SET_VALUE,
            {ATTR_ENTITY_ID: aux, ATTR_VALUE: value},
            blocking=True,
        )
    assert harness(paired.service).value(f"device.{SERIAL}")["heat_pump_aux_threshold"] == 10


async def test_settings_of_a_wrong_type_read_as_unknown(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A threshold as text, a switch as the word "true", a made-up unit: unknown, no crash."""
    paired = await pair_heat_pump(
        pair_thermostat,
        heat_pump_aux_threshold="10",
        heat_pump_aux_threshold_enabled="true",
        dual_fuel_breakpoint=1e308,
        temperature_scale="K",
        rssi="strong",
        hvac_pins=["W1"],
        hvac_wires=["Heat"],
        error_code=7,
        has_x3_cool="true",
    )
    assert shown(hass, paired.entity_id("number", "aux_heat_max_outdoor_temperature")) == (
        STATE_UNKNOWN
    )
    assert shown(hass, paired.entity_id("number", "dual_fuel_breakpoint")) == STATE_UNKNOWN
    assert shown(hass, paired.entity_id("switch", "aux_heat_outdoor_lockout")) == STATE_UNKNOWN
    assert shown(hass, paired.entity_id("select", "display_unit")) == STATE_UNKNOWN
    assert shown(hass, paired.entity_id("sensor", "wifi_signal")) == STATE_UNKNOWN
    assert shown(hass, paired.entity_id("sensor", "hvac_wires")) == STATE_UNKNOWN
    # An error that is no text is no error to quote; "true" is no equipment.
    assert shown(hass, paired.entity_id("sensor", "error_code")) == STATE_UNKNOWN
    assert ir.async_get(hass).async_get_issue(DOMAIN, f"thermostat_error_{SERIAL}") is None
    entry = er.async_get(hass).async_get(paired.entity_id("binary_sensor", "cooling_stage_3"))
    assert entry is not None
    assert entry.disabled_by is er.RegistryEntryDisabler.INTEGRATION


# -- the display's unit ------------------------------------------------------------------------


async def test_the_display_unit_is_a_select(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    paired = await pair_thermostat(device={"temperature_scale": "F"})
    unit = paired.entity_id("select", "display_unit")
    assert shown(hass, unit) == "fahrenheit"

    await hass.services.async_call(
        SELECT_DOMAIN,
        SERVICE_SELECT_OPTION,
        {ATTR_ENTITY_ID: unit, ATTR_OPTION: "celsius"},
        blocking=True,
    )
    await paired.pushed("device", temperature_scale="C")
    assert shown(hass, unit) == "celsius"

    # Changed on the thermostat's own menu.
    await paired.reported(temperature_scale="F")
    assert shown(hass, unit) == "fahrenheit"


# -- what a technician asks for --------------------------------------------------------------


async def test_signal_wiring_and_error_codes_are_diagnostics(
    hass: HomeAssistant, pair_thermostat: PairThermostat, entity_registry: er.EntityRegistry
) -> None:
    """The signal in dBm, the wiring by terminal, and errors: "none" a word in the user's language.

    `rssi` 72 is an RSSI of -72 dBm without its sign (docs/device-protocol.md). The device
    names its maker beside the model the thermostat reports.
    """
    paired = await pair_heat_pump(pair_thermostat)
    for key in ("wifi_signal", "hvac_wires", "error_code", "wiring_error"):
        entry = entity_registry.async_get(paired.entity_id("sensor", key))
        assert entry is not None
        assert entry.entity_category is not None, key
    signal = hass.states.get(paired.entity_id("sensor", "wifi_signal"))
    assert signal is not None
    assert float(signal.state) == -72
    assert signal.attributes["unit_of_measurement"] == "dBm"
    assert signal.attributes["device_class"] == "signal_strength"
    # The terminals as the base labels them (`hvac_pins` "W1,Y1,Rh,G"): names in every language.
    assert shown(hass, paired.entity_id("sensor", "hvac_wires")) == "W1, Y1, Rh, G"
    assert shown(hass, paired.entity_id("sensor", "error_code")) == "none"
    assert shown(hass, paired.entity_id("sensor", "wiring_error")) == "none"
    # The frontend shows a state by the entity's translation: "none" reads "Keiner" in German.
    german = await translation.async_get_translations(hass, "de", "entity", {DOMAIN})
    for key in ("error_code", "wiring_error"):
        assert german[f"component.{DOMAIN}.entity.sensor.{key}.state.none"] == "Keiner"

    await paired.reported(rssi=41)
    assert float(shown(hass, paired.entity_id("sensor", "wifi_signal"))) == -41
    device = dr.async_get(hass).async_get_device_by_identifier(
        (DOMAIN, SERIAL), paired.entry.entry_id
    )
    assert device is not None
    assert device.manufacturer == "Google Nest"
    assert device.model == paired.service.thermostat(SERIAL).model


async def test_wires_named_by_use_show_their_terminals(
    hass: HomeAssistant, pair_thermostat: PairThermostat, caplog: pytest.LogCaptureFixture
) -> None:
    """A thermostat reporting its wires only by use (`hvac_wires`) shows their terminals.

    "Heat,Cool,Fan,Rh" is W1, Y1, G, Rh (a capture pairs the two fields, docs/device-protocol.md);
    a wire no source names a terminal for is shown as the thermostat sends it, logged once.
    """
    caplog.set_level(logging.DEBUG)
    paired = await pair_thermostat(device={"hvac_wires": "Heat,Cool,Fan,Rh"})
    wiring = paired.entity_id("sensor", "hvac_wires")
    assert shown(hass, wiring) == "W1, Y1, G, Rh"

    await paired.reported(hvac_wires="Heat,Cool,Fan,Common Wire,Rh")
    assert shown(hass, wiring) == "W1, Y1, G, Common Wire, Rh"
    await paired.reported(hvac_wires="Heat,Common Wire,Rh")
    assert shown(hass, wiring) == "W1, Common Wire, Rh"
    unknown = [r for r in caplog.records if "Common Wire" in r.getMessage()]
    assert [r.levelno for r in unknown] == [logging.DEBUG]

    # The terminals, once the thermostat reports them, are what it shows.
    await paired.reported(hvac_pins="W1,Y1,C,Rh,G")
    assert shown(hass, wiring) == "W1, Y1, C, Rh, G"


async def test_an_error_the_thermostat_reports_raises_a_repair_that_quotes_it(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    paired = await pair_heat_pump(pair_thermostat)
    registry = ir.async_get(hass)
    issue_id = f"thermostat_error_{SERIAL}"
    assert registry.async_get_issue(DOMAIN, issue_id) is None

    await paired.reported(wiring_error="E73")
    assert shown(hass, paired.entity_id("sensor", "wiring_error")) == "E73"
    issue = registry.async_get_issue(DOMAIN, issue_id)
    assert issue is not None
    assert issue.translation_key == "thermostat_error"
    assert issue.translation_placeholders == {"serial": SERIAL, "error": "wiring_error: E73"}

    await paired.reported(error_code="N24")
    issue = registry.async_get_issue(DOMAIN, issue_id)
    assert issue is not None
    assert issue.translation_placeholders == {
        "serial": SERIAL,
        "error": "error_code: N24; wiring_error: E73",
    }

    await paired.reported(error_code="", wiring_error="")
    assert registry.async_get_issue(DOMAIN, issue_id) is None
    assert shown(hass, paired.entity_id("sensor", "error_code")) == "none"


async def test_wiring_not_checked_yet_is_no_error(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """While it starts firmware reports `wiring_error` "Unknown" (the capture's notes).

    The sensor says so in the user's language: not checked yet.
    """
    paired = await pair_heat_pump(pair_thermostat, wiring_error="Unknown")
    assert shown(hass, paired.entity_id("sensor", "wiring_error")) == "not_checked"
    assert ir.async_get(hass).async_get_issue(DOMAIN, f"thermostat_error_{SERIAL}") is None
