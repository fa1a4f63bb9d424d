"""Real thermostats: named by their room, target times, humidity equipment, fresh state.

Named by their room, when they reach their target, humidity equipment and Airwave, and a
fresh thermostat that shows no Unknown.

Every test pairs simulated thermostats over real TCP and reads what Home Assistant shows.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime, timedelta
from typing import Any

from homeassistant.config_entries import RELOAD_AFTER_UPDATE_DELAY
from homeassistant.const import STATE_OFF, STATE_ON, STATE_UNAVAILABLE, STATE_UNKNOWN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_fire_time_changed
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.thermostat_cloud.const import DOMAIN
from thermostat_sim import ROOM_IDS
from thermostat_sim.__main__ import initial_buckets

from .conftest import OTHER_SERIAL, SERIAL, PairedThermostat, PairThermostat

LIVING_ROOM = ROOM_IDS["Living Room"]
BEDROOM = ROOM_IDS["Bedroom"]
SUNROOM = "6f1c2f36-1a2b-4c3d-8e9f-00000000beef"
"""A room the user added on the thermostat: only the home's `where` bucket names it."""


def device_name(hass: HomeAssistant, paired: PairedThermostat) -> str | None:
    """Return the name of the thermostat's device (not one given in Home Assistant)."""
    device = dr.async_get(hass).async_get_device_by_identifier(
        (DOMAIN, paired.serial), paired.entry.entry_id
    )
    assert device is not None
    return device.name


def shown(hass: HomeAssistant, entity_id: str) -> str:
    """Return the state of an entity, which must exist."""
    state = hass.states.get(entity_id)
    assert state is not None, entity_id
    return state.state


async def in_room(
    pair_thermostat: PairThermostat, where_id: str, **kwargs: Any
) -> PairedThermostat:
    """Pair a thermostat that reports no name (as firmware does) and the room it is in."""
    return await pair_thermostat(shared={"name": ""}, device={"where_id": where_id}, **kwargs)


# -- the room's name ----------------------------------------------------------------------------


async def test_a_thermostat_without_a_name_is_named_by_its_room(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Firmware reports `shared.name` empty: the fixed room id names the device and its ids."""
    paired = await in_room(pair_thermostat, LIVING_ROOM)
    assert device_name(hass, paired) == "Living Room"
    assert paired.entity_id("climate") == "climate.living_room"

    # Moved to the bedroom on the thermostat: the name follows, the entity ids stay.
    await paired.thermostat.put(f"device.{SERIAL}", {"where_id": BEDROOM})
    assert device_name(hass, paired) == "Bedroom"
    assert shown(hass, "climate.living_room") != STATE_UNAVAILABLE
    assert hass.states.get("climate.living_room").name == "Bedroom"  # type: ignore[union-attr]

    # A name given on the thermostat wins over the room.
    await paired.thermostat.put(f"shared.{SERIAL}", {"name": "Upstairs hall"})
    assert device_name(hass, paired) == "Upstairs hall"


async def test_a_room_the_user_named_comes_from_the_homes_where_bucket(
    hass: HomeAssistant, pair_thermostat: PairThermostat, device_registry: dr.DeviceRegistry
) -> None:
    """A custom room is named by `where.<structure>`, which the server keeps and shares.

    A name given in Home Assistant still wins.
    """
    paired = await in_room(pair_thermostat, SUNROOM)
    assert device_name(hass, paired) == f"Thermostat {SERIAL}"  # no room known yet

    await paired.thermostat.report_rooms({SUNROOM: "Sunroom", LIVING_ROOM: "Lounge"})
    assert device_name(hass, paired) == "Sunroom"
    where_key = f"where.{paired.service.pairings.pairing(SERIAL).structure_id}"  # type: ignore[union-attr]
    assert paired.service.buckets.value(where_key)["wheres"][0]["name"] == "Sunroom"

    # Another thermostat of the home gets the home's rooms, and the user's name of a fixed room.
    other = await in_room(pair_thermostat, LIVING_ROOM, serial=OTHER_SERIAL, entry=paired.entry)
    assert other.thermostat.local[where_key].value["wheres"][1]["name"] == "Lounge"
    assert device_name(hass, other) == "Lounge"

    device = device_registry.async_get_device_by_identifier((DOMAIN, SERIAL), paired.entry.entry_id)
    assert device is not None
    device_registry.async_update_device(device.id, name_by_user="Winter garden")
    await paired.thermostat.report_rooms({SUNROOM: "Conservatory"})
    assert device_name(hass, paired) == "Conservatory"
    assert hass.states.get(paired.entity_id("climate")).name == "Winter garden"  # type: ignore[union-attr]


async def test_two_thermostats_in_one_room_keep_apart_and_keep_their_names(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """The thermostat paired first is the room, the next "(2)"; a restart changes nothing.

    When the first moves out, the other is the room alone.
    """
    # The second has the lower serial: the order of pairing decides, not the serial.
    first = await in_room(pair_thermostat, LIVING_ROOM, serial=OTHER_SERIAL)
    second = await in_room(pair_thermostat, LIVING_ROOM, entry=first.entry)
    assert (device_name(hass, first), device_name(hass, second)) == (
        "Living Room",
        "Living Room (2)",
    )
    assert second.entity_id("climate") == "climate.living_room_2"

    assert await hass.config_entries.async_reload(first.entry.entry_id)
    await hass.async_block_till_done()
    assert (device_name(hass, first), device_name(hass, second)) == (
        "Living Room",
        "Living Room (2)",
    )

    await first.thermostat.put(f"device.{OTHER_SERIAL}", {"where_id": BEDROOM})
    assert (device_name(hass, first), device_name(hass, second)) == ("Bedroom", "Living Room")


async def test_the_status_record_names_the_room(
    hass: HomeAssistant, pair_thermostat: PairThermostat, hass_client: ClientSessionGenerator
) -> None:
    """Control API clients see the same name as Home Assistant."""
    await in_room(pair_thermostat, LIVING_ROOM)
    client = await hass_client()
    resp = await client.get("/api/thermostat_cloud/status", params={"serial": SERIAL})
    assert resp.status == 200
    assert (await resp.json())["name"] == "Living Room"


# -- time to target -----------------------------------------------------------------------------


async def test_target_reached_shows_the_time_the_thermostat_reports(
    hass: HomeAssistant, pair_thermostat: PairThermostat, hass_client: ClientSessionGenerator
) -> None:
    """`device.time_to_target` is a Unix time; 0 (no estimate) leaves nothing to show."""
    paired = await pair_thermostat(device={"time_to_target": 0})
    reached = paired.entity_id("sensor", "time_to_target")
    assert shown(hass, reached) == STATE_UNAVAILABLE

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
    assert shown(hass, reached) == STATE_UNAVAILABLE


async def test_an_earlier_time_to_target_sensor_keeps_its_entity_id(
    hass: HomeAssistant, pair_thermostat: PairThermostat, entity_registry: er.EntityRegistry
) -> None:
    """An install of an earlier version (minutes, "Time to target") keeps its entity id.

    The same entity, by its unique id, shows the time after the update.
    """
    paired = await pair_thermostat()
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


# -- a fresh thermostat -------------------------------------------------------------------------


async def test_a_fresh_thermostat_shows_no_unknown(
    hass: HomeAssistant, pair_thermostat: PairThermostat, entity_registry: er.EntityRegistry
) -> None:
    """What an idle thermostat reports fills every enabled sensor.

    What is not happening (no fan timer, no estimate of when the target is reached) is
    unavailable, not a fault, and the Fan timer sensor says "not running".
    """
    args = argparse.Namespace(can_cool=True, has_fan=True, temperature=21.0, room="Living Room")
    buckets = initial_buckets(SERIAL, args)
    paired = await pair_thermostat(
        shared=buckets[f"shared.{SERIAL}"], device=buckets[f"device.{SERIAL}"], full_state=False
    )
    entries = er.async_entries_for_config_entry(entity_registry, paired.entry.entry_id)
    states = {
        e.entity_id: shown(hass, e.entity_id)
        for e in entries
        if e.domain in ("sensor", "binary_sensor") and e.disabled_by is None
    }
    assert [entity_id for entity_id, state in states.items() if state == STATE_UNKNOWN] == []
    assert sorted(e for e, state in states.items() if state == STATE_UNAVAILABLE) == [
        "sensor.living_room_fan_timer_end",
        "sensor.living_room_target_reached",
    ]
    assert states["binary_sensor.living_room_fan_timer"] == STATE_OFF
