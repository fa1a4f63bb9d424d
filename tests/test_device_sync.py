"""The device registry follows what a thermostat reports, and only when that changed.

A thermostat reports its temperature every few minutes; its device (name, firmware version,
model) changes rarely. Every test pairs a simulated thermostat over real TCP and counts the
device registry's updates of its device, as Home Assistant announces them.
"""

from __future__ import annotations

from typing import Any

from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers import device_registry as dr, entity_registry as er
import pytest

from custom_components.thermostat_cloud.const import DOMAIN
from thermostat_sim import ROOM_IDS

from .conftest import OTHER_SERIAL, SERIAL, PairedThermostat, PairThermostat, shown


def thermostat_device(hass: HomeAssistant, paired: PairedThermostat) -> dr.DeviceEntry:
    """Return the thermostat's device in the device registry."""
    device = dr.async_get(hass).async_get_device_by_identifier(
        (DOMAIN, paired.serial), paired.entry.entry_id
    )
    assert device is not None
    return device


def record_device_updates(hass: HomeAssistant, device_id: str) -> list[dict[str, Any]]:
    """Every update of one device in the device registry from now on: what it changed."""
    updates: list[dict[str, Any]] = []

    @callback
    def on_update(event: Event[dr.EventDeviceRegistryUpdatedData]) -> None:
        if event.data["action"] == "update" and event.data["device_id"] == device_id:
            updates.append(dict(event.data["changes"]))

    hass.bus.async_listen(dr.EVENT_DEVICE_REGISTRY_UPDATED, on_update)
    return updates


async def report_temperature(paired: PairedThermostat, celsius: float) -> None:
    """Let the thermostat report its temperature; wait until the climate entity shows it."""
    await paired.thermostat.put(f"shared.{paired.serial}", {"current_temperature": celsius})
    await paired.hass.async_block_till_done()
    climate = paired.hass.states.get(paired.entity_id("climate"))
    assert climate is not None
    assert climate.attributes["current_temperature"] == celsius


def record_device_lookups(
    monkeypatch: pytest.MonkeyPatch, hass: HomeAssistant, serial: str
) -> list[str]:
    """Every lookup of the thermostat's device in the device registry from now on.

    A spy: the registry answers as before.
    """
    registry = dr.async_get(hass)
    lookup = registry.async_get_device_by_identifier
    looked_up: list[str] = []

    def spied(identifier: tuple[str, str], *args: Any, **kwargs: Any) -> dr.DeviceEntry | None:
        if identifier == (DOMAIN, serial):
            looked_up.append(serial)
        return lookup(identifier, *args, **kwargs)

    monkeypatch.setattr(registry, "async_get_device_by_identifier", spied)
    return looked_up


async def test_temperature_reports_leave_the_device_alone(
    hass: HomeAssistant, monkeypatch: pytest.MonkeyPatch, paired: PairedThermostat
) -> None:
    """Reports of the temperature and the humidity neither update the device nor look it up."""
    device = thermostat_device(hass, paired)
    updates = record_device_updates(hass, device.id)
    looked_up = record_device_lookups(monkeypatch, hass, paired.serial)

    for celsius in (20.5, 21.0, 21.5):
        await report_temperature(paired, celsius)
    await paired.reported(current_humidity=48)

    assert updates == []
    assert looked_up == []
    assert thermostat_device(hass, paired).modified_at == device.modified_at


async def test_new_firmware_updates_the_device_once(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A thermostat that restarts on new firmware says so at entry: its device follows at once."""
    device = thermostat_device(hass, paired)
    assert device.sw_version != "5.9.5-1"
    updates = record_device_updates(hass, device.id)

    paired.thermostat.firmware = "5.9.5-1"
    await paired.thermostat.entry()
    await hass.async_block_till_done()

    assert thermostat_device(hass, paired).sw_version == "5.9.5-1"
    assert [set(update) for update in updates] == [{"sw_version"}]
    assert shown(hass, paired.entity_id("sensor", "firmware_version")) == "5.9.5-1"

    # Its next temperature report changes nothing more.
    await report_temperature(paired, 22.0)
    assert len(updates) == 1


async def test_a_move_to_another_room_renames_the_device_once(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A thermostat named by its room takes the new room's name; its entity ids stay."""
    paired = await pair_thermostat(shared={"name": ""}, device={"where_id": ROOM_IDS["Downstairs"]})
    device = thermostat_device(hass, paired)
    assert device.name == "Downstairs"
    climate = paired.entity_id("climate")
    updates = record_device_updates(hass, device.id)

    await paired.reported(where_id=ROOM_IDS["Bedroom"])

    assert thermostat_device(hass, paired).name == "Bedroom"
    assert [set(update) for update in updates] == [{"name"}]
    assert paired.entity_id("climate") == climate

    await report_temperature(paired, 19.5)
    assert len(updates) == 1


async def test_equipment_reported_later_enables_its_sensors(
    hass: HomeAssistant, pair_thermostat: PairThermostat, entity_registry: er.EntityRegistry
) -> None:
    """A second heating stage reported after pairing enables its sensor; a temperature does not.

    The sensor of a stage the thermostat has not reported is created disabled.
    """
    paired = await pair_thermostat(device={"has_x2_heat": False})
    stage = paired.entity_id("binary_sensor", "heating_stage_2")
    entry = entity_registry.async_get(stage)
    assert entry is not None
    assert entry.disabled_by is er.RegistryEntryDisabler.INTEGRATION

    await report_temperature(paired, 20.0)
    entry = entity_registry.async_get(stage)
    assert entry is not None
    assert entry.disabled_by is er.RegistryEntryDisabler.INTEGRATION

    await paired.reported(has_x2_heat=True)
    entry = entity_registry.async_get(stage)
    assert entry is not None
    assert entry.disabled_by is None
    assert SERIAL in entry.unique_id


async def test_a_name_given_on_one_thermostat_renames_the_other_of_its_room(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Two unnamed thermostats of a room are "Living Room" and "Living Room (2)".

    Once the first is given a name on the thermostat, the second is the room alone, at once
    (not at its own next report).
    """
    room = {"shared": {"name": ""}, "device": {"where_id": ROOM_IDS["Living Room"]}}
    first = await pair_thermostat(serial=OTHER_SERIAL, **room)
    second = await pair_thermostat(entry=first.entry, **room)
    assert (thermostat_device(hass, first).name, thermostat_device(hass, second).name) == (
        "Living Room",
        "Living Room (2)",
    )
    updates = record_device_updates(hass, thermostat_device(hass, second).id)

    await first.thermostat.put(f"shared.{OTHER_SERIAL}", {"name": "Hall"})
    await hass.async_block_till_done()

    assert (thermostat_device(hass, first).name, thermostat_device(hass, second).name) == (
        "Hall",
        "Living Room",
    )
    assert [set(update) for update in updates] == [{"name"}]
