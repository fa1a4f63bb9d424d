"""Energy history: how long the equipment ran, its cycles and energy, as Home Assistant shows them.

A simulated thermostat reports its relays over real TCP; the `freezer` moves the clock the
service times them with. Figures only ever grow: across a reload, unpairing and pairing again.
"""

from __future__ import annotations

import copy
from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.sensor import ATTR_STATE_CLASS, SensorDeviceClass
from homeassistant.config_entries import SOURCE_RECONFIGURE
from homeassistant.const import ATTR_DEVICE_CLASS, ATTR_UNIT_OF_MEASUREMENT
from homeassistant.core import HomeAssistant, State
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import entity_registry as er
import pytest
from pytest_homeassistant_custom_component.common import mock_restore_cache_with_extra_data

from custom_components.thermostat_cloud.const import STORAGE_KEY, SUBENTRY_THERMOSTAT
from custom_components.thermostat_cloud.server.core.testing import harness

from .conftest import SERIAL, PairedThermostat, PairThermostat, shown

SHARED = f"shared.{SERIAL}"


async def run_for(paired: PairedThermostat, freezer: FrozenDateTimeFactory, minutes: int) -> None:
    """Let minutes pass, the thermostat reporting its humidity every minute (it stays in touch)."""
    for _ in range(minutes):
        freezer.tick(timedelta(minutes=1))
        await paired.thermostat.put(f"device.{SERIAL}", {"current_humidity": 40 + minutes % 7})
    await paired.hass.async_block_till_done()


def assert_total(
    hass: HomeAssistant, entity_id: str, value: float, device_class: SensorDeviceClass, unit: str
) -> None:
    """Assert the sensor reads `value` in `unit`, a total that long-term statistics sum up."""
    state = hass.states.get(entity_id)
    assert state is not None
    assert float(state.state) == value
    assert state.attributes[ATTR_DEVICE_CLASS] == device_class
    assert state.attributes[ATTR_STATE_CLASS] == "total_increasing"
    assert state.attributes[ATTR_UNIT_OF_MEASUREMENT] == unit


async def test_heating_hours_and_cycles_as_the_thermostat_ran_them(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """Half an hour of heating with the fan is 0.5 h each and one cycle; durations in hours."""
    heating = paired.entity_id("sensor", "heating_stage_1_runtime")
    assert shown(hass, heating) == "0.0"

    await paired.thermostat.put(SHARED, {"hvac_heater_state": True, "hvac_fan_state": True})
    await run_for(paired, freezer, 30)
    await paired.thermostat.put(SHARED, {"hvac_heater_state": False, "hvac_fan_state": False})
    await run_for(paired, freezer, 10)

    assert_total(hass, heating, 0.5, SensorDeviceClass.DURATION, "h")
    assert float(shown(hass, paired.entity_id("sensor", "fan_runtime"))) == 0.5
    assert shown(hass, paired.entity_id("sensor", "heating_cycles")) == "1"
    assert shown(hass, paired.entity_id("sensor", "cooling_cycles")) == "0"
    assert float(shown(hass, paired.entity_id("sensor", "cooling_stage_1_runtime"))) == 0


async def test_equipment_the_thermostat_lacks_starts_disabled_until_it_reports_it(
    hass: HomeAssistant, entity_registry: er.EntityRegistry, paired: PairedThermostat
) -> None:
    """A second heating stage appears with `has_x2_heat`, the filter's runtime once counted."""
    for key in ("heating_stage_1", "cooling_stage_1", "fan", "emergency_heat", "humidifier"):
        entry = entity_registry.async_get(paired.entity_id("sensor", f"{key}_runtime"))
        assert entry is not None
        assert entry.disabled_by is None, key
    for key in ("heating_stage_2", "heating_stage_3", "aux_heat", "cooling_stage_2", "airwave"):
        entry = entity_registry.async_get(paired.entity_id("sensor", f"{key}_runtime"))
        assert entry is not None
        assert entry.disabled_by is er.RegistryEntryDisabler.INTEGRATION, key

    filter_runtime = entity_registry.async_get(paired.entity_id("sensor", "filter_runtime"))
    assert filter_runtime is not None
    assert filter_runtime.disabled_by is er.RegistryEntryDisabler.INTEGRATION  # not counted yet

    await paired.reported(has_x2_heat=True, filter_runtime_sec=3600)
    for key in ("heating_stage_2_runtime", "filter_runtime"):
        entry = entity_registry.async_get(paired.entity_id("sensor", key))
        assert entry is not None
        assert entry.disabled_by is None, key


async def test_a_reload_while_heating_keeps_the_hours_and_skips_the_downtime(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """Heating across a reload: counted to the stop, then from the thermostat's next contact."""
    heating = paired.entity_id("sensor", "heating_stage_1_runtime")
    await paired.thermostat.put(SHARED, {"hvac_heater_state": True})
    await run_for(paired, freezer, 30)
    assert float(shown(hass, heating)) == 0.5

    assert await hass.config_entries.async_unload(paired.entry.entry_id)
    freezer.tick(timedelta(hours=2))  # down: not counted, whatever the furnace did
    assert await hass.config_entries.async_setup(paired.entry.entry_id)
    await hass.async_block_till_done()
    assert float(shown(hass, heating)) == 0.5

    # Back in touch (its subscribe is not held again yet: it retries after a pause, which the
    # frozen clock holds back, so its reports alone keep it available; they come every minute).
    await paired.thermostat.heartbeat()
    await run_for(paired, freezer, 15)  # the heat still on
    await paired.thermostat.put(SHARED, {"hvac_heater_state": False})
    await hass.async_block_till_done()
    assert float(shown(hass, heating)) == 0.75
    assert shown(hass, paired.entity_id("sensor", "heating_cycles")) == "1"


async def test_removing_and_pairing_the_thermostat_again_keeps_its_hours(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """The figures live with the serial, not the subentry: a new pairing continues them."""
    paired = await pair_thermostat()
    await paired.thermostat.put(SHARED, {"hvac_ac_state": True})
    await run_for(paired, freezer, 60)
    await paired.thermostat.put(SHARED, {"hvac_ac_state": False})
    cooling = paired.entity_id("sensor", "cooling_stage_1_runtime")
    assert float(shown(hass, cooling)) == 1.0

    (subentry_id,) = paired.entry.subentries
    assert hass.config_entries.async_remove_subentry(paired.entry, subentry_id)
    await hass.async_block_till_done()
    assert hass.states.get(cooling) is None
    await paired.thermostat.stop()

    again = await pair_thermostat(entry=paired.entry)
    assert float(shown(hass, again.entity_id("sensor", "cooling_stage_1_runtime"))) == 1.0
    assert harness(paired.service).snapshot()["runtime"][SERIAL]["cycles"] == {"cooling": 1}


async def test_filter_runtime_beside_the_reminder(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """`filter_runtime_sec` (1709430 s in a 5.9.4-5 capture) in hours; a reset starts at 0."""
    paired = await pair_thermostat(device={"filter_runtime_sec": 0})
    filter_runtime = paired.entity_id("sensor", "filter_runtime")
    await paired.reported(filter_runtime_sec=1709430)
    state = hass.states.get(filter_runtime)
    assert state is not None
    assert float(state.state) == pytest.approx(474.8417, abs=1e-4)
    assert state.attributes[ATTR_STATE_CLASS] == "total_increasing"
    await paired.reported(filter_runtime_sec=0)
    assert float(shown(hass, filter_runtime)) == 0


async def reconfigure_energy(
    hass: HomeAssistant, paired: PairedThermostat, rates: dict[str, float]
) -> None:
    """Give the thermostat's rates in its reconfigure step, as the UI does."""
    (subentry_id,) = paired.entry.subentries
    result = await hass.config_entries.subentries.async_init(
        (paired.entry.entry_id, SUBENTRY_THERMOSTAT),
        context={"source": SOURCE_RECONFIGURE, "subentry_id": subentry_id},
    )
    assert result["type"] is FlowResultType.FORM, result
    assert result["step_id"] == "reconfigure"
    schema = result["data_schema"]
    assert schema is not None
    fields = {str(key) for key in schema.schema}
    # Equipment the thermostat has (heat, cooling, fan, emergency heat, humidifier); not
    # a second stage it does not report.
    assert {"heating_stage_1_power", "heating_stage_1_gas", "cooling_stage_1_power"} <= fields
    assert "heating_stage_2_power" not in fields
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], rates)
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    await hass.async_block_till_done()


async def test_energy_sensors_appear_with_rates_and_count_from_then(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    entity_registry: er.EntityRegistry,
    paired: PairedThermostat,
) -> None:
    """2 kW and 1 m³/h of gas for half an hour: 1 kWh and 0.5 m³, for the Energy dashboard."""
    await paired.thermostat.put(SHARED, {"hvac_heater_state": True})
    await run_for(paired, freezer, 30)  # before any rate: no energy sensor, nothing counted
    assert (
        entity_registry.async_get_entity_id(
            "sensor", "thermostat_cloud", f"{SERIAL}_electricity_energy"
        )
        is None
    )

    await reconfigure_energy(
        hass, paired, {"heating_stage_1_power": 2.0, "heating_stage_1_gas": 1.0}
    )
    electricity = paired.entity_id("sensor", "electricity_energy")
    gas = paired.entity_id("sensor", "gas_volume")
    assert float(shown(hass, electricity)) == 0
    await run_for(paired, freezer, 30)
    await paired.thermostat.put(SHARED, {"hvac_heater_state": False})
    await hass.async_block_till_done()

    assert_total(hass, electricity, 1.0, SensorDeviceClass.ENERGY, "kWh")
    assert_total(hass, gas, 0.5, SensorDeviceClass.GAS, "m³")

    # A rate taken away: the energy counted stays, nothing more is added.
    await reconfigure_energy(hass, paired, {})
    await paired.thermostat.put(SHARED, {"hvac_heater_state": True})
    await run_for(paired, freezer, 30)
    assert float(shown(hass, electricity)) == 1.0


async def test_a_figure_recorded_before_a_crash_is_never_shown_lower(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """The state file lost the last minutes (a crash); the state Home Assistant restored wins.

    Shown lower, long-term statistics would read a reset meter and count everything again.
    """
    prefix = f"sensor.thermostat_{SERIAL.lower()}"
    heating = f"{prefix}_heating_stage_1_runtime"
    mock_restore_cache_with_extra_data(
        hass,
        [
            (State(heating, "2.5"), {"native_value": 2.5, "native_unit_of_measurement": "h"}),
            # Not a figure of this sensor: another unit, a value that is no number.
            (
                State(f"{prefix}_fan_runtime", "90"),
                {"native_value": 90, "native_unit_of_measurement": "min"},
            ),
            (
                State(f"{prefix}_heating_cycles", "x"),
                {"native_value": "x", "native_unit_of_measurement": None},
            ),
        ],
    )
    paired = await pair_thermostat()
    assert paired.entity_id("sensor", "heating_stage_1_runtime") == heating
    assert float(shown(hass, heating)) == 2.5
    figures = paired.service.runtime.figures(SERIAL)
    assert figures.seconds == {"heating_stage_1": 9000.0}
    assert figures.cycles == {}
    assert float(shown(hass, f"{prefix}_fan_runtime")) == 0


async def test_energy_rates_can_be_given_while_the_hub_is_not_loaded(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Without the running service to ask what the thermostat has, every field is offered."""
    assert await hass.config_entries.async_unload(paired.entry.entry_id)
    (subentry_id,) = paired.entry.subentries
    result = await hass.config_entries.subentries.async_init(
        (paired.entry.entry_id, SUBENTRY_THERMOSTAT),
        context={"source": SOURCE_RECONFIGURE, "subentry_id": subentry_id},
    )
    assert result["type"] is FlowResultType.FORM
    schema = result["data_schema"]
    assert schema is not None
    assert {"heating_stage_3_power", "cooling_stage_2_power", "dehumidifier_power"} <= {
        str(key) for key in schema.schema
    }
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {"heating_stage_3_power": 4.5, "fan_power": 0}
    )
    assert result["type"] is FlowResultType.ABORT
    assert dict(paired.entry.subentries[subentry_id].data) == {
        "serial": SERIAL,
        "heating_stage_3_power": 4.5,
    }


async def test_an_update_from_the_version_before_keeps_everything_and_counts_on(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hass_storage: dict[str, Any],
    paired: PairedThermostat,
) -> None:
    """The state file of the version before has no `runtime`: all else loads, figures start at 0.

    The heating that was on when Home Assistant stopped for the update counts from the
    thermostat's first contact after it.
    """
    await paired.thermostat.put(SHARED, {"hvac_heater_state": True})
    assert await hass.config_entries.async_unload(paired.entry.entry_id)
    before = copy.deepcopy(hass_storage[STORAGE_KEY])
    del before["data"]["runtime"]  # as the version before saved it
    hass_storage[STORAGE_KEY] = before
    freezer.tick(timedelta(minutes=10))
    assert await hass.config_entries.async_setup(paired.entry.entry_id)
    await hass.async_block_till_done()

    service = paired.service
    assert service.pairing.is_paired(SERIAL)
    assert harness(service).value(SHARED)["hvac_heater_state"] is True
    heating = paired.entity_id("sensor", "heating_stage_1_runtime")
    assert float(shown(hass, heating)) == 0
    await paired.thermostat.heartbeat()
    await run_for(paired, freezer, 12)
    await paired.thermostat.put(SHARED, {"hvac_heater_state": False})
    await hass.async_block_till_done()
    assert float(shown(hass, heating)) == 0.2
    assert await hass.config_entries.async_unload(paired.entry.entry_id)  # saves everything
    assert hass_storage[STORAGE_KEY]["data"]["runtime"][SERIAL]["seconds"] == {
        "heating_stage_1": 720.0
    }
