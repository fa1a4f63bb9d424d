"""The thermostat's readings as sensors: what it measures, its eco temperatures, its battery.

Every test pairs a simulated thermostat over real TCP and reads what Home Assistant shows.
"""

from __future__ import annotations

from datetime import UTC, datetime

from homeassistant.const import STATE_UNKNOWN, Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from .conftest import SERIAL, PairedThermostat, PairThermostat, shown
from .platform_snapshots import platform_snapshot_test


@pytest.mark.smoke("sensor")
async def test_sensors_read_the_thermostats_buckets(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    assert shown(hass, paired.entity_id("sensor", "temperature")) == "21.3"
    assert float(shown(hass, paired.entity_id("sensor", "humidity"))) == 41
    assert shown(hass, paired.entity_id("sensor", "eco_mode")) == "schedule"
    # Eco temperatures the thermostat has not reported yet; then reported.
    assert shown(hass, paired.entity_id("sensor", "eco_temperature_low")) == STATE_UNKNOWN
    await paired.thermostat.put(
        f"device.{SERIAL}", {"away_temperature_low": 12.5, "away_temperature_high": 28.0}
    )
    assert shown(hass, paired.entity_id("sensor", "eco_temperature_low")) == "12.5"
    assert shown(hass, paired.entity_id("sensor", "eco_temperature_high")) == "28.0"
    assert shown(hass, paired.entity_id("sensor", "firmware_version")) == "5.9.3-5"

    # One PUT from the thermostat; every entity reflects it when the PUT returns.
    await paired.thermostat.put(
        f"shared.{SERIAL}",
        {"current_temperature": 18.4, "leaf": True, "hvac_heater_state": True},
    )
    await paired.thermostat.put(f"device.{SERIAL}", {"current_humidity": 55})
    assert shown(hass, paired.entity_id("sensor", "temperature")) == "18.4"
    assert float(shown(hass, paired.entity_id("sensor", "humidity"))) == 55


async def test_noisy_and_diagnostic_entities(
    hass: HomeAssistant, entity_registry: er.EntityRegistry, paired: PairedThermostat
) -> None:
    """Readings that change all the time start disabled; the diagnostic ones are filed as such."""
    for key in ("backplate_temperature", "last_seen"):
        entry = entity_registry.async_get(paired.entity_id("sensor", key))
        assert entry is not None
        assert entry.disabled_by is er.RegistryEntryDisabler.INTEGRATION, key
        assert entry.entity_category is not None
    for key in ("firmware_version", "eco_temperature_low", "eco_temperature_high"):
        entry = entity_registry.async_get(paired.entity_id("sensor", key))
        assert entry is not None
        assert entry.disabled_by is None
        assert entry.entity_category is not None
        assert entry.translation_key == key


async def test_battery_voltage(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """`battery_level` is volts."""
    battery = paired.entity_id("sensor", "battery_voltage")
    assert float(shown(hass, battery)) == 3.777

    await paired.reported(battery_level=3.61, filter_replacement_needed=True)
    assert float(shown(hass, battery)) == 3.61

    # A charge level from 0 to 1 (as the protocol notes have it) would still show; 99 V is no
    # reading.
    await paired.reported(battery_level=99)
    assert shown(hass, battery) == STATE_UNKNOWN


# -- time to target -----------------------------------------------------------------------------


async def test_target_reached_shows_the_time_the_thermostat_reports(
    hass: HomeAssistant, pair_thermostat: PairThermostat, hass_client: ClientSessionGenerator
) -> None:
    """`device.time_to_target` is a Unix time; 0 (no estimate, at the target) shows unknown.

    Not unavailable: the thermostat is online, there is just no time to show (core's way).
    """
    paired = await pair_thermostat(device={"time_to_target": 0})
    reached = paired.entity_id("sensor", "time_to_target")
    assert shown(hass, reached) == STATE_UNKNOWN

    ready_at = int(dt_util.utcnow().timestamp()) + 25 * 60
    await paired.thermostat.put_many(
        {
            f"shared.{SERIAL}": {"hvac_heater_state": True},
            f"device.{SERIAL}": {"time_to_target": ready_at},
        }
    )
    assert dt_util.parse_datetime(shown(hass, reached)) == datetime.fromtimestamp(ready_at, UTC)
    client = await hass_client()
    resp = await client.get("/api/thermostat_cloud/status", params={"serial": SERIAL})
    assert (await resp.json())["time_to_target"] == 25  # the spec's minutes

    await paired.thermostat.put_many(
        {
            f"shared.{SERIAL}": {"hvac_heater_state": False},
            f"device.{SERIAL}": {"time_to_target": 0},
        }
    )
    assert shown(hass, reached) == STATE_UNKNOWN


async def test_an_earlier_time_to_target_sensor_keeps_its_entity_id(
    hass: HomeAssistant, entity_registry: er.EntityRegistry, paired: PairedThermostat
) -> None:
    """An install of an earlier version (minutes, "Time to target") keeps its entity id.

    The same entity, by its unique id, shows the time after the update.
    """
    entity_id = paired.entity_id("sensor", "time_to_target")
    old_id = f"sensor.thermostat_{SERIAL.lower()}_time_to_target"
    entity_registry.async_update_entity(
        entity_id,
        new_entity_id=old_id,
        original_device_class="duration",
        original_name="Time to target",
        unit_of_measurement="min",
    )
    assert await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()

    assert paired.entity_id("sensor", "time_to_target") == old_id
    entry = entity_registry.async_get(old_id)
    assert entry is not None
    assert (entry.original_device_class, entry.original_name) == ("timestamp", "Target reached")
    ready_at = int(dt_util.utcnow().timestamp()) + 600
    await paired.thermostat.put(f"device.{SERIAL}", {"time_to_target": ready_at})
    assert dt_util.parse_datetime(shown(hass, old_id)) == datetime.fromtimestamp(ready_at, UTC)
    assert hass.states.get(old_id).attributes.get("unit_of_measurement") is None  # type: ignore[union-attr]


async def test_a_time_to_target_that_is_no_time_shows_unknown(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A number that is no Unix time (the minutes an earlier version assumed) is no reading."""
    paired = await pair_thermostat(device={"time_to_target": 12})
    assert shown(hass, paired.entity_id("sensor", "time_to_target")) == STATE_UNKNOWN


test_entities = platform_snapshot_test(Platform.SENSOR)
