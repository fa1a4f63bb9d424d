"""What the thermostat reports as on or off: its connection, relays, leaf, equipment, filter.

Every test pairs a simulated thermostat over real TCP and reads what Home Assistant shows.
"""

from __future__ import annotations

from datetime import timedelta

from homeassistant.config_entries import RELOAD_AFTER_UPDATE_DELAY
from homeassistant.const import STATE_OFF, STATE_ON, STATE_UNKNOWN, Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from .conftest import SERIAL, PairedThermostat, PairThermostat, shown
from .platform_snapshots import platform_snapshot_test


@pytest.mark.smoke("binary_sensor")
async def test_binary_sensors_read_the_thermostats_buckets(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    assert shown(hass, paired.entity_id("binary_sensor", "online")) == STATE_ON
    for key in ("leaf", "heating", "cooling", "fan", "temperature_lock"):
        assert shown(hass, paired.entity_id("binary_sensor", key)) == STATE_OFF, key

    # One PUT from the thermostat; every entity reflects it when the PUT returns.
    await paired.thermostat.put(
        f"shared.{SERIAL}",
        {"current_temperature": 18.4, "leaf": True, "hvac_heater_state": True},
    )
    assert shown(hass, paired.entity_id("binary_sensor", "leaf")) == STATE_ON
    assert shown(hass, paired.entity_id("binary_sensor", "heating")) == STATE_ON
    assert shown(hass, paired.entity_id("binary_sensor", "cooling")) == STATE_OFF


async def test_online_is_a_diagnostic_named_online(
    hass: HomeAssistant, entity_registry: er.EntityRegistry, paired: PairedThermostat
) -> None:
    """The connectivity sensor is enabled, diagnostic, and named as the README calls it."""
    entry = entity_registry.async_get(paired.entity_id("binary_sensor", "online"))
    assert entry is not None
    assert entry.disabled_by is None
    assert entry.entity_category is not None
    assert entry.translation_key == "online"
    # Named as the README calls it, not after its device class ("Connectivity").
    online = hass.states.get(paired.entity_id("binary_sensor", "online"))
    assert online is not None
    assert online.name == f"Thermostat {SERIAL} Online"


async def test_filter_replacement(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """A due filter reminder is a problem."""
    filter_due = paired.entity_id("binary_sensor", "filter_replacement")
    assert shown(hass, filter_due) == STATE_OFF

    await paired.reported(battery_level=3.61, filter_replacement_needed=True)
    assert shown(hass, filter_due) == STATE_ON


# -- humidifier, dehumidifier, Airwave ----------------------------------------------------------


async def test_humidity_equipment_and_airwave_as_firmware_reports_them(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """`device.<name>_state` fields drive running sensors and the climate's action."""
    paired = await pair_thermostat(
        device={
            "has_humidifier": True,
            "has_dehumidifier": True,
            "fan_cooling_enabled": True,
            "humidifier_state": False,
            "dehumidifier_state": False,
            "fan_cooling_state": False,
        }
    )
    humidifier = paired.entity_id("binary_sensor", "humidifier")
    dehumidifier = paired.entity_id("binary_sensor", "dehumidifier")
    airwave = paired.entity_id("binary_sensor", "airwave")
    climate = paired.entity_id("climate")
    assert [shown(hass, e) for e in (humidifier, dehumidifier, airwave)] == [STATE_OFF] * 3

    await paired.thermostat.put(f"device.{SERIAL}", {"humidifier_state": True})
    assert shown(hass, humidifier) == STATE_ON
    assert hass.states.get(climate).attributes["hvac_action"] == "idle"  # type: ignore[union-attr]

    await paired.thermostat.put(
        f"device.{SERIAL}", {"humidifier_state": False, "dehumidifier_state": True}
    )
    assert (shown(hass, humidifier), shown(hass, dehumidifier)) == (STATE_OFF, STATE_ON)
    assert hass.states.get(climate).attributes["hvac_action"] == "drying"  # type: ignore[union-attr]

    # Heating wins over drying: the heat is what the room feels.
    await paired.thermostat.put(f"shared.{SERIAL}", {"hvac_heater_state": True})
    assert hass.states.get(climate).attributes["hvac_action"] == "heating"  # type: ignore[union-attr]

    # The compressor stops and the fan runs on (Airwave): the fan cools.
    await paired.thermostat.put_many(
        {
            f"shared.{SERIAL}": {"hvac_heater_state": False},
            f"device.{SERIAL}": {"dehumidifier_state": False, "fan_cooling_state": True},
        }
    )
    assert shown(hass, airwave) == STATE_ON
    assert hass.states.get(climate).attributes["hvac_action"] == "fan"  # type: ignore[union-attr]


async def test_the_air_conditioning_dehumidifying_is_drying(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """The air conditioning dehumidifying ("cool to dry", `auto_dehum_*`) is dehumidifying.

    The spec's `shared` names are read when `device` has none.
    """
    paired = await pair_thermostat(device={"auto_dehum_enabled": True})
    dehumidifier = paired.entity_id("binary_sensor", "dehumidifier")
    await paired.thermostat.put(f"device.{SERIAL}", {"auto_dehum_state": True})
    assert shown(hass, dehumidifier) == STATE_ON
    await paired.thermostat.put(f"device.{SERIAL}", {"auto_dehum_state": False})
    assert shown(hass, dehumidifier) == STATE_OFF

    # A thermostat reporting the humidifier only in `shared`, as the spec names it.
    humidifier = paired.entity_id("binary_sensor", "humidifier")
    await paired.thermostat.put(f"shared.{SERIAL}", {"hvac_humidifier_state": True})
    assert shown(hass, humidifier) == STATE_ON


async def test_equipment_the_thermostat_lacks_is_created_disabled(
    hass: HomeAssistant, pair_thermostat: PairThermostat, entity_registry: er.EntityRegistry
) -> None:
    """No dehumidifier, no "cool to dry", no Airwave: those sensors wait, disabled."""
    paired = await pair_thermostat(
        device={"has_humidifier": True, "has_dehumidifier": False, "fan_cooling_enabled": False}
    )
    for key, disabled in (("humidifier", False), ("dehumidifier", True), ("airwave", True)):
        entry = entity_registry.async_get(paired.entity_id("binary_sensor", key))
        assert entry is not None
        assert (entry.disabled_by is er.RegistryEntryDisabler.INTEGRATION) is disabled, key


async def test_equipment_reported_after_pairing_enables_its_sensors(
    hass: HomeAssistant, pair_thermostat: PairThermostat, entity_registry: er.EntityRegistry
) -> None:
    """Firmware reports its equipment after the restart that follows pairing.

    The sensors created disabled for want of it come to life then, without a person enabling
    them by hand; one the person disabled stays disabled.
    """
    paired = await pair_thermostat(full_state=False, shared={"current_temperature": 20.5})
    humidifier = paired.entity_id("binary_sensor", "humidifier")
    airwave = paired.entity_id("binary_sensor", "airwave")
    for entity_id in (humidifier, airwave):
        entry = entity_registry.async_get(entity_id)
        assert entry is not None
        assert entry.disabled_by is er.RegistryEntryDisabler.INTEGRATION
    entity_registry.async_update_entity(airwave, disabled_by=er.RegistryEntryDisabler.USER)

    # After its restart: the complete state, with a humidifier and Airwave.
    await paired.thermostat.put_many(
        {
            f"shared.{SERIAL}": {"can_heat": True, "can_cool": True},
            f"device.{SERIAL}": {"has_humidifier": True, "fan_cooling_enabled": True},
        }
    )
    entry = entity_registry.async_get(humidifier)
    assert entry is not None
    assert entry.disabled_by is None
    entry = entity_registry.async_get(airwave)
    assert entry is not None
    assert entry.disabled_by is er.RegistryEntryDisabler.USER

    # Home Assistant reloads the entry a little after an entity is enabled, as it does for one
    # a person enables; then the sensor shows the humidifier.
    async_fire_time_changed(
        hass, dt_util.utcnow() + timedelta(seconds=RELOAD_AFTER_UPDATE_DELAY + 1)
    )
    await hass.async_block_till_done(wait_background_tasks=True)
    assert shown(hass, humidifier) == STATE_OFF
    await paired.thermostat.put(f"device.{SERIAL}", {"humidifier_state": True})
    assert shown(hass, humidifier) == STATE_ON


async def test_occupancy_is_home_away_assists_verdict(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """`auto_away` (0 home, 1 away) as occupancy, only while Home/Away Assist is on.

    Firmware 5.9.4-5 reports it in `shared` (a capture), the protocol notes place it in
    `device`: either is read, `shared` first.
    """
    paired = await pair_thermostat(shared={"auto_away": 0}, device={"auto_away_enable": False})
    occupancy = paired.entity_id("binary_sensor", "occupancy")
    entry = er.async_get(hass).async_get(occupancy)
    assert entry is not None
    assert entry.original_device_class == "occupancy"
    # The sensor is off: its `0` says nothing. Unknown, as core shows it: not a fault.
    assert shown(hass, occupancy) == STATE_UNKNOWN

    await paired.reported(auto_away_enable=True)
    assert shown(hass, occupancy) == STATE_ON
    await paired.thermostat.put(f"shared.{SERIAL}", {"auto_away": 1})
    assert shown(hass, occupancy) == STATE_OFF
    await paired.thermostat.put(f"shared.{SERIAL}", {"auto_away": 0})
    assert shown(hass, occupancy) == STATE_ON
    # A value the sources do not show is no reading.
    await paired.thermostat.put(f"shared.{SERIAL}", {"auto_away": 2})
    assert shown(hass, occupancy) == STATE_UNKNOWN


async def test_occupancy_in_the_device_bucket(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A thermostat that reports `auto_away` in `device` (as the protocol notes place it)."""
    paired = await pair_thermostat(device={"auto_away_enable": True, "auto_away": 1})
    occupancy = paired.entity_id("binary_sensor", "occupancy")
    assert shown(hass, occupancy) == STATE_OFF
    await paired.reported(auto_away=0)
    assert shown(hass, occupancy) == STATE_ON


test_entities = platform_snapshot_test(Platform.BINARY_SENSOR)
