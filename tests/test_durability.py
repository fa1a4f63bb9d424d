"""A pairing or unpairing the user was told about survives a crash at any moment.

The service saves its state before it acknowledges a pairing or an unpairing; Home Assistant
saves the thermostat subentries about a second after they change. Each test makes the change
through Home Assistant, takes the two stores as a crash in that second leaves them (the
service's file as it was when the change was acknowledged, the subentries as Home Assistant
last saved them), sets the hub up again and checks what the user sees: the subentry, the
device, the climate entity, the pairing. `test_crash.py` kills a real Home Assistant.
"""

from __future__ import annotations

import copy
import socket
from typing import Any

import aiohttp
from homeassistant.config_entries import (
    ConfigEntry,
    ConfigEntryState,
    ConfigSubentry,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.thermostat_cloud.const import (
    CONF_DEVICE_PORT,
    DOMAIN,
    STORAGE_KEY,
)
from custom_components.thermostat_cloud.pairing_sync import thermostat_subentries
from custom_components.thermostat_cloud.server import ThermostatService
from thermostat_sim import SimulatedThermostat

from .conftest import SERIAL, PairedThermostat, add_thermostat, setup_hub


def running_service(entry: MockConfigEntry) -> ThermostatService:
    """Return the running service of a loaded hub entry."""
    service: ThermostatService = entry.runtime_data.service
    return service


async def restart_after_crash(
    hass: HomeAssistant,
    entry: ConfigEntry,
    hass_storage: dict[str, Any],
    service_file: dict[str, Any],
    saved_subentries: list[ConfigSubentry],
) -> None:
    """Set the hub up again from the stores as a crash left them.

    Set the hub up again from the stores as a crash left them: the service's file as it
    was, and Home Assistant's subentries as it had saved them.
    """
    assert await hass.config_entries.async_unload(entry.entry_id)
    for subentry_id in list(entry.subentries):
        hass.config_entries.async_remove_subentry(entry, subentry_id)
    for subentry in saved_subentries:
        hass.config_entries.async_add_subentry(entry, subentry)
    hass_storage[STORAGE_KEY] = service_file
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()


def climate_entity(hass: HomeAssistant, serial: str) -> str | None:
    """Return the climate entity id of a thermostat, if it has one."""
    return er.async_get(hass).async_get_entity_id("climate", DOMAIN, serial)


def thermostat_device(
    hass: HomeAssistant, entry: MockConfigEntry, serial: str
) -> dr.DeviceEntry | None:
    """Return the device of a thermostat, if it has one."""
    return dr.async_get(hass).async_get_device_by_identifier((DOMAIN, serial), entry.entry_id)


async def test_a_pairing_acknowledged_just_before_a_crash_keeps_its_thermostat(
    hass: HomeAssistant, socket_enabled: None, hass_storage: dict[str, Any]
) -> None:
    """A pairing the user saw succeed survives a crash before Home Assistant saved it.

    The "Add thermostat" flow answered, then Home Assistant was killed before saving the new
    subentry: the thermostat is still paired after the restart, with its device and entities
    (before, start-up unpaired it).
    """
    entry = await setup_hub(hass)
    port = entry.data[CONF_DEVICE_PORT]
    async with aiohttp.ClientSession() as http:
        thermostat = SimulatedThermostat(
            f"http://127.0.0.1:{port}",
            SERIAL,
            http,
            buckets={f"shared.{SERIAL}": {"can_heat": True, "target_temperature": 20.0}},
        )
        code = (await thermostat.passphrase())["value"]
        thermostat.start()
        try:
            await _pair_and_crash(hass, entry, hass_storage, thermostat, code)
        finally:
            await thermostat.stop()

    # The next start sees the re-added subentry saved: the journal no longer needs it.
    assert await hass.config_entries.async_unload(entry.entry_id)
    assert hass_storage[STORAGE_KEY]["data"]["pairing"]["pairings"][0]["mirror_saved"] is True


async def _pair_and_crash(
    hass: HomeAssistant,
    entry: MockConfigEntry,
    hass_storage: dict[str, Any],
    thermostat: SimulatedThermostat,
    code: str,
) -> None:
    await thermostat.subscribed.wait()
    await add_thermostat(hass, entry, code)
    # The flow has answered: this is the service's file a crash now leaves.
    service_file = copy.deepcopy(hass_storage[STORAGE_KEY])
    owner = running_service(entry).pairing.record(SERIAL)
    assert owner is not None

    await restart_after_crash(hass, entry, hass_storage, service_file, saved_subentries=[])

    assert list(thermostat_subentries(entry)) == [SERIAL]
    service = running_service(entry)
    pairing = service.pairing.record(SERIAL)
    assert pairing is not None
    assert pairing.user_id == owner.user_id
    device = thermostat_device(hass, entry, SERIAL)
    assert device is not None
    assert device.config_subentry_id in entry.subentries
    entity_id = climate_entity(hass, SERIAL)
    assert entity_id is not None
    assert hass.states.get(entity_id) is not None


async def test_a_thermostat_removed_in_the_ui_just_before_a_crash_stays_removed(
    hass: HomeAssistant, hass_storage: dict[str, Any], paired: PairedThermostat
) -> None:
    """A thermostat removed in the UI stays removed across a crash.

    The user deleted the thermostat; the unpairing reached the service's file, Home
    Assistant's removal of the subentry did not: the thermostat stays deleted and unpaired
    (before, its subentry came back with unavailable entities).
    """
    entry = paired.entry
    (subentry,) = entry.subentries.values()
    hass.config_entries.async_remove_subentry(entry, subentry.subentry_id)
    await hass.async_block_till_done()
    assert not paired.service.pairing.is_paired(SERIAL)
    service_file = copy.deepcopy(hass_storage[STORAGE_KEY])

    await restart_after_crash(hass, entry, hass_storage, service_file, [subentry])

    assert not thermostat_subentries(entry)
    assert not running_service(entry).pairing.is_paired(SERIAL)
    assert thermostat_device(hass, entry, SERIAL) is None
    assert climate_entity(hass, SERIAL) is None


async def test_a_thermostat_deleted_while_the_hub_was_not_loaded_is_unpaired_after_a_restart(
    hass: HomeAssistant, hass_storage: dict[str, Any], paired: PairedThermostat
) -> None:
    """Deleting a thermostat while Home Assistant is down sticks: it is not paired again.

    A pairing whose subentry Home Assistant had saved (a later start saw it) and that is
    gone now was removed by the user: it is unpaired, not added again.
    """
    entry = paired.entry
    await paired.thermostat.stop()
    # A restart: the hub is set up again with the subentry loaded from disk.
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    service_file = copy.deepcopy(hass_storage[STORAGE_KEY])

    await restart_after_crash(hass, entry, hass_storage, service_file, saved_subentries=[])

    assert not thermostat_subentries(entry)
    assert not running_service(entry).pairing.is_paired(SERIAL)
    assert climate_entity(hass, SERIAL) is None


async def test_a_thermostat_deleted_while_the_hub_retried_its_port_is_not_added_again(
    hass: HomeAssistant, socket_enabled: None, hass_storage: dict[str, Any]
) -> None:
    """A thermostat deleted while the hub waited for its port is not added back.

    Paired just before a crash; at the next start the device port was taken, and while the
    hub retried the user deleted the thermostat (whose subentry that start had loaded from
    disk): once the port is free it stays deleted.
    """
    entry = await setup_hub(hass)
    port = entry.data[CONF_DEVICE_PORT]
    async with aiohttp.ClientSession() as http:
        code = (await SimulatedThermostat(f"http://127.0.0.1:{port}", SERIAL, http).passphrase())[
            "value"
        ]
    await add_thermostat(hass, entry, code)
    service_file = copy.deepcopy(hass_storage[STORAGE_KEY])
    (subentry,) = entry.subentries.values()
    assert await hass.config_entries.async_unload(entry.entry_id)
    hass_storage[STORAGE_KEY] = service_file

    with socket.socket() as blocker:
        blocker.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        blocker.bind(("", port))
        blocker.listen()
        await hass.config_entries.async_setup(entry.entry_id)
        await hass.async_block_till_done()
        assert entry.state is ConfigEntryState.SETUP_RETRY
        hass.config_entries.async_remove_subentry(entry, subentry.subentry_id)
    await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()

    assert not thermostat_subentries(entry)
    assert not running_service(entry).pairing.is_paired(SERIAL)
    assert await hass.config_entries.async_unload(entry.entry_id)
