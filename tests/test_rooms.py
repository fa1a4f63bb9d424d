"""Thermostats named by their room, as firmware leaves them unnamed.

Every test pairs simulated thermostats over real TCP and reads what Home Assistant shows.
"""

from __future__ import annotations

from typing import Any

from homeassistant.const import STATE_UNAVAILABLE
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
import pytest
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import ROOM_IDS

from .conftest import OTHER_SERIAL, SERIAL, PairedThermostat, PairThermostat, shown

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
    where_key = f"where.{paired.service.pairing.record(SERIAL).structure_id}"  # type: ignore[union-attr]
    assert harness(paired.service).value(where_key)["wheres"][0]["name"] == "Sunroom"

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


# -- humidifier, dehumidifier, Airwave ----------------------------------------------------------


# -- a fresh thermostat -------------------------------------------------------------------------


# -- the integration's page: each thermostat's subentry is titled as its device is named ---------


def subentry_title(paired: PairedThermostat) -> str:
    """Return the title of the thermostat's subentry (what the integration's page shows)."""
    (subentry,) = (
        subentry
        for subentry in paired.entry.subentries.values()
        if subentry.unique_id == paired.serial
    )
    return subentry.title


async def test_the_subentry_is_titled_as_the_device_is_named(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    device_registry: dr.DeviceRegistry,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Paired in the living room, the page says "Living Room" twice, not the serial above it.

    The title follows the room, a name given on the thermostat and one given in Home
    Assistant; the device, unique ids and entity ids stay as they are. Retitling while the
    entities are being added adds none twice.
    """
    paired = await in_room(pair_thermostat, LIVING_ROOM)
    await hass.async_block_till_done()
    assert "already exists" not in caplog.text
    assert subentry_title(paired) == device_name(hass, paired) == "Living Room"
    entity_ids = {
        entry.unique_id: entry.entity_id
        for entry in er.async_entries_for_config_entry(er.async_get(hass), paired.entry.entry_id)
    }
    device = device_registry.async_get_device_by_identifier((DOMAIN, SERIAL), paired.entry.entry_id)
    assert device is not None

    await paired.thermostat.put(f"device.{SERIAL}", {"where_id": BEDROOM})
    await hass.async_block_till_done()
    assert subentry_title(paired) == "Bedroom"

    await paired.thermostat.put(f"shared.{SERIAL}", {"name": "Upstairs hall"})
    await hass.async_block_till_done()
    assert subentry_title(paired) == "Upstairs hall"

    device_registry.async_update_device(device.id, name_by_user="Winter garden")
    await hass.async_block_till_done()
    assert subentry_title(paired) == "Winter garden"
    device_registry.async_update_device(device.id, name_by_user=None)
    await hass.async_block_till_done()
    assert subentry_title(paired) == "Upstairs hall"

    assert device_registry.async_get_device_by_identifier(
        (DOMAIN, SERIAL), paired.entry.entry_id
    ) == device_registry.async_get(device.id)
    assert {
        entry.unique_id: entry.entity_id
        for entry in er.async_entries_for_config_entry(er.async_get(hass), paired.entry.entry_id)
    } == entity_ids


async def test_a_subentry_stored_with_the_old_title_is_retitled_at_start(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A subentry saved by an earlier version ("Thermostat <serial>") takes its device's name."""
    paired = await in_room(pair_thermostat, LIVING_ROOM)
    (subentry,) = paired.entry.subentries.values()
    assert await hass.config_entries.async_unload(paired.entry.entry_id)
    hass.config_entries.async_update_subentry(paired.entry, subentry, title=f"Thermostat {SERIAL}")
    assert await hass.config_entries.async_setup(paired.entry.entry_id)
    await hass.async_block_till_done()
    assert subentry_title(paired) == "Living Room"
    assert paired.entity_id("climate") == "climate.living_room"
