"""Which entities a change writes: those of its thermostat whose shown state it changes."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from .conftest import OTHER_SERIAL, SERIAL, PairedThermostat, PairThermostat, record_state_writes


def entity_ids(hass: HomeAssistant, paired: PairedThermostat, serial: str) -> set[str]:
    """Return the enabled entities of one thermostat of the hub."""
    return {
        entry.entity_id
        for entry in er.async_entries_for_config_entry(er.async_get(hass), paired.entry.entry_id)
        if entry.unique_id.startswith(serial) and entry.disabled_by is None
    }


async def test_a_change_of_one_thermostat_writes_none_of_anothers_entities(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A thermostat's report changes its own entities and leaves its neighbour's untouched."""
    first = await pair_thermostat(SERIAL)
    second = await pair_thermostat(OTHER_SERIAL, entry=first.entry)
    first_entities = entity_ids(hass, first, SERIAL)
    assert first_entities
    writes = record_state_writes(hass, first_entities | entity_ids(hass, second, OTHER_SERIAL))
    before = {entity_id: hass.states.get(entity_id) for entity_id in first_entities}

    await second.thermostat.put(
        f"shared.{OTHER_SERIAL}",
        {"current_temperature": 25.5, "hvac_heater_state": True, "target_temperature": 23.0},
    )
    await second.thermostat.put(f"device.{OTHER_SERIAL}", {"battery_level": 3.61})
    await hass.async_block_till_done()

    assert hass.states.is_state(second.entity_id("sensor", "temperature"), "25.5")
    assert hass.states.is_state(second.entity_id("binary_sensor", "heating"), "on")
    assert {write.entity_id for write in writes} == {
        second.entity_id("sensor", "temperature"),
        second.entity_id("binary_sensor", "heating"),
        second.entity_id("sensor", "heating_cycles"),  # the heater starting is a new cycle
        second.entity_id("sensor", "battery_voltage"),
        second.entity_id("climate"),
    }
    assert {entity_id: hass.states.get(entity_id) for entity_id in first_entities} == before


async def test_a_field_the_climate_entity_does_not_show_leaves_it_unwritten(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A battery reading changes the battery sensor; the climate state keeps its last update."""
    climate = paired.entity_id("climate")
    battery = paired.entity_id("sensor", "battery_voltage")
    climate_before = hass.states.get(climate)
    assert climate_before is not None
    writes = record_state_writes(hass, entity_ids(hass, paired, SERIAL))

    await paired.thermostat.put(
        f"device.{SERIAL}", {"battery_level": 3.61, "backplate_temperature": 22.4}
    )
    await hass.async_block_till_done()

    assert hass.states.is_state(battery, "3.61")
    # (The backplate temperature's sensor is disabled by default.)
    assert {write.entity_id for write in writes} == {battery}
    climate_after = hass.states.get(climate)
    assert climate_after is not None
    assert climate_after.last_updated == climate_before.last_updated
    assert climate_after.last_reported == climate_before.last_reported
