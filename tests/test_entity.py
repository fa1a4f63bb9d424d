"""What every entity of a thermostat shares: availability, the device, removal, state writes.

Every test pairs a simulated thermostat over real TCP and reads what Home Assistant shows.
"""

from __future__ import annotations

import argparse
from datetime import timedelta
import logging

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import STATE_OFF, STATE_ON, STATE_UNAVAILABLE, STATE_UNKNOWN
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server import EventKind
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import basic_auth
from thermostat_sim.__main__ import initial_buckets

from .conftest import (
    SERIAL,
    PairedThermostat,
    PairThermostat,
    record_state_writes,
    shown,
    until_event,
)


async def connection_change(paired: PairedThermostat, *, held: bool) -> None:
    """Wait until the thermostat holds a subscribe connection, or holds none."""
    service = paired.service
    await until_event(
        service, EventKind.CONNECTION, lambda: (harness(service).held(paired.serial) > 0) == held
    )


async def test_availability_follows_the_connection(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Unavailable after 120 s with no held connection and no contact; one log line each way."""
    caplog.set_level(logging.INFO, logger="custom_components.thermostat_cloud")
    paired = await pair_thermostat()
    climate = paired.entity_id("climate")
    online = paired.entity_id("binary_sensor", "online")

    await paired.thermostat.stop()
    await connection_change(paired, held=False)
    # Within the grace the thermostat is still there (it resubscribes at once normally).
    freezer.tick(timedelta(seconds=100))
    async_fire_time_changed(hass, dt_util.utcnow())
    await hass.async_block_till_done()
    assert shown(hass, climate) == "heat"

    freezer.tick(timedelta(seconds=21))
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=121))
    await hass.async_block_till_done()
    assert shown(hass, climate) == STATE_UNAVAILABLE
    assert shown(hass, paired.entity_id("sensor", "temperature")) == STATE_UNAVAILABLE
    assert shown(hass, online) == STATE_OFF  # the connectivity sensor itself stays available
    gone = [r for r in caplog.records if "is unavailable" in r.getMessage()]
    assert len(gone) == 1
    assert SERIAL in gone[0].getMessage()
    assert "120 s" in gone[0].getMessage()

    paired.thermostat.start()
    await connection_change(paired, held=True)
    assert shown(hass, climate) == "heat"
    assert shown(hass, online) == STATE_ON
    back = [r for r in caplog.records if "back online" in r.getMessage()]
    assert len(back) == 1


async def test_device_registry_follows_new_firmware(
    hass: HomeAssistant, device_registry: dr.DeviceRegistry, paired: PairedThermostat
) -> None:
    form = {"mac": "18b4301400ab", "model": "Display-3.0", "software_version": "6.0.1-2"}
    async with paired.thermostat.http.post(
        f"{paired.thermostat.base_url}/svc/entry",
        data=form,
        headers={"Authorization": basic_auth(SERIAL)},
    ) as resp:
        assert resp.status == 200
    # The thermostat resubscribes after entry; the registry follows on that connection.
    await paired.thermostat.stop()
    await connection_change(paired, held=False)
    paired.thermostat.start()
    await connection_change(paired, held=True)
    device = device_registry.async_get_device_by_identifier((DOMAIN, SERIAL), paired.entry.entry_id)
    assert device is not None
    assert (device.sw_version, device.model) == ("6.0.1-2", "Display-3.0")
    assert shown(hass, paired.entity_id("sensor", "firmware_version")) == "6.0.1-2"


async def test_device_registry_learns_the_mac_after_pairing(
    hass: HomeAssistant, device_registry: dr.DeviceRegistry, paired: PairedThermostat
) -> None:
    """The device page gains the thermostat's MAC once it reports one, keeping other connections.

    A device registered before the thermostat reported its MAC gets it as a connection on
    its next connection, next to the connections it has.
    """
    device = device_registry.async_get_device_by_identifier((DOMAIN, SERIAL), paired.entry.entry_id)
    assert device is not None
    other = (dr.CONNECTION_UPNP, "uuid:thermostat")
    device_registry.async_update_device(device.id, new_connections={other})

    await paired.thermostat.stop()
    await connection_change(paired, held=False)
    paired.thermostat.start()
    await connection_change(paired, held=True)

    updated = device_registry.async_get_device_by_identifier(
        (DOMAIN, SERIAL), paired.entry.entry_id
    )
    assert updated is not None
    assert updated.connections == {other, (dr.CONNECTION_NETWORK_MAC, "18:b4:30:14:00:ab")}


async def test_device_is_named_as_on_the_thermostat(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    device_registry: dr.DeviceRegistry,
) -> None:
    """The device takes the thermostat's own name unless the user named it in Home Assistant.

    The name given on the thermostat names the device (and so its entity ids); a rename
    on the thermostat follows, a name given in Home Assistant wins.
    """
    paired = await pair_thermostat(shared={"name": "Living room"})
    device = device_registry.async_get_device_by_identifier((DOMAIN, SERIAL), paired.entry.entry_id)
    assert device is not None
    assert (device.name, device.serial_number) == ("Living room", SERIAL)
    assert paired.entity_id("climate") == "climate.living_room"
    assert paired.entity_id("binary_sensor", "online") == "binary_sensor.living_room_online"

    await paired.thermostat.put(f"shared.{SERIAL}", {"name": "Lounge"})
    device = device_registry.async_get_device_by_identifier((DOMAIN, SERIAL), paired.entry.entry_id)
    assert device is not None
    assert device.name == "Lounge"

    device_registry.async_update_device(device.id, name_by_user="Den")
    await paired.thermostat.put(f"shared.{SERIAL}", {"name": "Kitchen"})
    device = device_registry.async_get_device_by_identifier((DOMAIN, SERIAL), paired.entry.entry_id)
    assert device is not None
    assert device.name_by_user == "Den"
    climate = hass.states.get(paired.entity_id("climate"))
    assert climate is not None
    assert climate.name == "Den"


async def test_removing_the_subentry_removes_device_and_entities(
    hass: HomeAssistant,
    device_registry: dr.DeviceRegistry,
    entity_registry: er.EntityRegistry,
    paired: PairedThermostat,
) -> None:
    climate = paired.entity_id("climate")
    (subentry_id,) = paired.entry.subentries
    assert hass.config_entries.async_remove_subentry(paired.entry, subentry_id)
    await hass.async_block_till_done()

    assert hass.states.get(climate) is None
    assert entity_registry.async_get(climate) is None
    assert not [
        e
        for e in er.async_entries_for_config_entry(entity_registry, paired.entry.entry_id)
        if e.unique_id.startswith(SERIAL)
    ]
    assert (
        device_registry.async_get_device_by_identifier((DOMAIN, SERIAL), paired.entry.entry_id)
        is None
    )
    assert not paired.service.pairing.is_paired(SERIAL)
    # The hub's own device stays.
    assert device_registry.async_get_device_by_identifier(
        (DOMAIN, paired.entry.entry_id), paired.entry.entry_id
    )


async def test_a_subentry_change_after_a_reload_adds_no_entity_twice(
    hass: HomeAssistant, caplog: pytest.LogCaptureFixture, paired: PairedThermostat
) -> None:
    entry = paired.entry
    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    (subentry,) = entry.subentries.values()

    hass.config_entries.async_update_subentry(entry, subentry, title="Living room")
    await hass.async_block_till_done()
    assert "already exists" not in caplog.text
    assert "does not generate unique IDs" not in caplog.text


async def test_entities_whose_value_did_not_change_are_not_written(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A temperature report updates the temperature sensor, not the leaf or firmware ones."""
    from homeassistant.const import EVENT_STATE_REPORTED
    from homeassistant.core import Event, EventStateReportedData, callback

    temperature = paired.entity_id("sensor", "temperature")
    leaf = paired.entity_id("binary_sensor", "leaf")
    reported: list[str] = []

    @callback
    def on_report(event: Event[EventStateReportedData]) -> None:
        reported.append(event.data["entity_id"])

    @callback
    def is_leaf(data: EventStateReportedData) -> bool:
        return data["entity_id"] == leaf

    hass.bus.async_listen(EVENT_STATE_REPORTED, on_report, event_filter=is_leaf)
    await paired.thermostat.put(f"shared.{SERIAL}", {"current_temperature": 23.4})
    await hass.async_block_till_done()
    assert shown(hass, temperature) == "23.4"
    assert leaf not in reported


async def test_a_resubscribe_rewrites_only_what_reads_contact(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A routine resubscribe writes no entity state except the last seen sensor.

    Firmware resubscribes after every push and every few minutes: the thermostat stays
    available, so its entities are not rewritten, except the one showing when it was last seen
    (enabled here; it is off by default).
    """
    registry = er.async_get(hass)
    last_seen = paired.entity_id("sensor", "last_seen")
    registry.async_update_entity(last_seen, disabled_by=None)
    # Off while the hub reloads: a subscribe arriving as its server stops would hold the stop
    # for the server's shutdown timeout (a second).
    await paired.thermostat.stop()
    await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()
    paired.thermostat.start()
    await connection_change(paired, held=True)
    await hass.async_block_till_done()
    ours = {
        entry.entity_id
        for entry in er.async_entries_for_config_entry(registry, paired.entry.entry_id)
    }
    writes = record_state_writes(hass, ours)
    record = paired.service.devices.record(SERIAL)
    assert record is not None
    record.last_seen -= 10_000  # its last request was ten seconds ago
    await paired.thermostat.stop()
    await connection_change(paired, held=False)
    paired.thermostat.start()
    await connection_change(paired, held=True)
    await hass.async_block_till_done()

    assert hass.states.is_state(paired.entity_id("climate"), "heat")
    assert {write.entity_id for write in writes} == {last_seen}


async def test_a_fresh_thermostat_shows_nothing_unavailable(
    hass: HomeAssistant, pair_thermostat: PairThermostat, entity_registry: er.EntityRegistry
) -> None:
    """What an idle thermostat reports fills every enabled sensor; none reads unavailable.

    What is not happening (no fan timer, no estimate of when the target is reached, no hold, no
    occupancy sensing with Home/Away Assist off, no house model learned yet) is unknown, as core
    shows it: "Unavailable" reads as a fault, and the logbook would record it at every hold's
    end. The Fan timer sensor says "not running".
    """
    args = argparse.Namespace(
        can_cool=True, has_fan=True, heat_pump=True, temperature=21.0, room="Living Room"
    )
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
    assert [entity_id for entity_id, state in states.items() if state == STATE_UNAVAILABLE] == []
    assert sorted(e for e, state in states.items() if state == STATE_UNKNOWN) == [
        "binary_sensor.living_room_occupancy",
        "sensor.living_room_cooling_rate",
        "sensor.living_room_drift_with_equipment_off",
        "sensor.living_room_fan_timer_end",
        "sensor.living_room_heating_rate",
        "sensor.living_room_hold_until",
        "sensor.living_room_target_reached",
    ]
    assert states["binary_sensor.living_room_fan_timer"] == STATE_OFF
