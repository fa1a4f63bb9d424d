"""The hub entry: setup starts the device server in Home Assistant, unload and stop end it."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.thermostat_cloud.const import (
    CONF_DEVICE_PORT,
    DOMAIN,
    STORAGE_KEY,
)
from custom_components.thermostat_cloud.ports import port_free as port_is_free
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import SimulatedThermostat

from .conftest import SERIAL, PairedThermostat, hub_config_entry, setup_hub


async def test_setup_serves_the_device_protocol(hass: HomeAssistant, socket_enabled: None) -> None:
    entry = await setup_hub(hass)
    port = entry.data[CONF_DEVICE_PORT]
    assert entry.state is ConfigEntryState.LOADED

    async with aiohttp.ClientSession() as http:
        thermostat = SimulatedThermostat(f"http://127.0.0.1:{port}", SERIAL, http)
        data = await thermostat.entry()
        assert data["transport_url"] == f"http://127.0.0.1:{port}/svc/transport"
        code = (await thermostat.passphrase())["value"]
    assert harness(entry.runtime_data.service).entry_key(code) is not None


async def test_unload_releases_the_port_with_long_polls_held(
    hass: HomeAssistant, hub: MockConfigEntry, http: aiohttp.ClientSession
) -> None:
    port = hub.data[CONF_DEVICE_PORT]
    thermostats = [
        SimulatedThermostat(f"http://127.0.0.1:{port}", f"{SERIAL[:-2]}{i:02d}", http)
        for i in range(3)
    ]
    for thermostat in thermostats:
        thermostat.start()
    for thermostat in thermostats:
        await thermostat.subscribed.wait()
    assert not port_is_free(port)

    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await hass.config_entries.async_unload(hub.entry_id)
    assert loop.time() - started < 2
    assert port_is_free(port)
    for thermostat in thermostats:
        await thermostat.stop()
    assert hub.state is ConfigEntryState.NOT_LOADED


async def test_home_assistant_stop_closes_the_listener(
    hass: HomeAssistant, hub: MockConfigEntry, http: aiohttp.ClientSession
) -> None:
    port = hub.data[CONF_DEVICE_PORT]
    thermostat = SimulatedThermostat(f"http://127.0.0.1:{port}", SERIAL, http)
    thermostat.start()
    await thermostat.subscribed.wait()
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STOP)
    await hass.async_block_till_done()
    assert port_is_free(port)
    await thermostat.stop()


async def test_port_in_use_retries_setup_with_a_translated_reason(
    hass: HomeAssistant, taken_port: int
) -> None:
    entry = hub_config_entry(taken_port)
    entry.add_to_hass(hass)
    await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.SETUP_RETRY
    assert entry.reason is not None
    assert str(taken_port) in entry.reason
    assert entry.error_reason_translation_key == "port_unavailable"
    assert entry.error_reason_translation_placeholders == {
        "port": str(taken_port),
        "cause": "another program is already using it",
    }


async def test_state_persists_through_home_assistant_storage(
    hass: HomeAssistant, socket_enabled: None, hass_storage: dict[str, Any]
) -> None:
    """Pairing, buckets and device records survive an unload and a new setup."""
    entry = await setup_hub(hass)
    port = entry.data[CONF_DEVICE_PORT]
    async with aiohttp.ClientSession() as http:
        thermostat = SimulatedThermostat(f"http://127.0.0.1:{port}", SERIAL, http)
        await thermostat.entry()
        code = (await thermostat.passphrase())["value"]
        await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 20.5})
    service = entry.runtime_data.service
    assert service.pairing.register(code).success
    service.commands.set_temperature(SERIAL, 21.0)

    assert await hass.config_entries.async_unload(entry.entry_id)
    stored = hass_storage[STORAGE_KEY]["data"]
    assert stored["buckets"][f"shared.{SERIAL}"]["value"] == {
        "current_temperature": 20.5,
        "target_temperature": 21.0,
        "target_change_pending": True,
    }

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    again = entry.runtime_data.service
    assert again is not service
    assert again.pairing.is_paired(SERIAL)
    assert harness(again).value(f"shared.{SERIAL}")["target_temperature"] == 21.0
    assert again.devices.record(SERIAL) is not None


async def test_pairing_reaches_the_disk_at_once_despite_bucket_writes(
    hass: HomeAssistant, socket_enabled: None, hass_storage: dict[str, Any]
) -> None:
    """A pairing is saved at once, however busy the thermostat's buckets keep the store.

    Home Assistant's Store pushes a delayed save back on every call; pairing also writes
    buckets (a 5 s save), which must not postpone the ownership record's immediate save.
    """
    from datetime import timedelta

    from homeassistant.util import dt as dt_util
    from pytest_homeassistant_custom_component.common import async_fire_time_changed

    entry = await setup_hub(hass)
    port = entry.data[CONF_DEVICE_PORT]
    async with aiohttp.ClientSession() as http:
        thermostat = SimulatedThermostat(f"http://127.0.0.1:{port}", SERIAL, http)
        code = (await thermostat.passphrase())["value"]
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=1))
    await hass.async_block_till_done()
    hass_storage.pop(STORAGE_KEY, None)

    assert entry.runtime_data.service.pairing.register(code).success
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=1))
    await hass.async_block_till_done()
    stored = hass_storage[STORAGE_KEY]["data"]
    assert [p["serial"] for p in stored["pairing"]["pairings"]] == [SERIAL]
    assert await hass.config_entries.async_unload(entry.entry_id)


async def test_thermostat_deleted_while_the_hub_was_not_loaded_is_unpaired_at_setup(
    hass: HomeAssistant, socket_enabled: None, hass_storage: dict[str, Any]
) -> None:
    """Deleting a thermostat works whatever state the hub is in.

    Deleting a thermostat works in any hub state: a stored pairing without its subentry
    (deleted while the hub was retrying its port, say) is unpaired when the hub starts.
    """
    entry = await setup_hub(hass)
    port = entry.data[CONF_DEVICE_PORT]
    async with aiohttp.ClientSession() as http:
        thermostat = SimulatedThermostat(f"http://127.0.0.1:{port}", SERIAL, http)
        code = (await thermostat.passphrase())["value"]
    assert entry.runtime_data.service.pairing.register(code).success
    await hass.async_block_till_done()
    (subentry_id,) = entry.subentries
    assert await hass.config_entries.async_unload(entry.entry_id)

    assert hass.config_entries.async_remove_subentry(entry, subentry_id)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert not entry.subentries
    assert not entry.runtime_data.service.pairing.is_paired(SERIAL)
    assert await hass.config_entries.async_unload(entry.entry_id)


async def test_removing_the_integration_forgets_thermostats_and_keys(
    hass: HomeAssistant, socket_enabled: None, hass_storage: dict[str, Any]
) -> None:
    from homeassistant.helpers import issue_registry as ir

    from custom_components.thermostat_cloud.issues import unpaired_issue_id
    from custom_components.thermostat_cloud.server.model.api_keys import Scope

    entry = await setup_hub(hass)
    port = entry.data[CONF_DEVICE_PORT]
    service = entry.runtime_data.service
    async with aiohttp.ClientSession() as http:
        paired = SimulatedThermostat(f"http://127.0.0.1:{port}", SERIAL, http)
        waiting = SimulatedThermostat(f"http://127.0.0.1:{port}", f"{SERIAL[:-2]}ZZ", http)
        code = (await paired.passphrase())["value"]
        await waiting.passphrase()
    assert service.pairing.register(code).success
    service.api_keys.create(name="widget", owner_id="someone", scopes={Scope.READ})
    await hass.async_block_till_done()
    assert ir.async_get(hass).async_get_issue(DOMAIN, unpaired_issue_id(f"{SERIAL[:-2]}ZZ"))

    assert await hass.config_entries.async_remove(entry.entry_id)
    await hass.async_block_till_done()
    assert STORAGE_KEY not in hass_storage
    assert not [i for (d, i) in ir.async_get(hass).issues if d == DOMAIN]

    again = await setup_hub(hass)
    assert not again.subentries
    assert not again.runtime_data.service.pairing.records()
    assert not again.runtime_data.service.api_keys.records()
    assert await hass.config_entries.async_unload(again.entry_id)


async def test_setup_and_use_of_every_platform_make_no_usage_report(
    hass: HomeAssistant, usage_reports: list[str], paired: PairedThermostat
) -> None:
    """The integration uses Home Assistant's API without deprecation or misuse reports.

    Home Assistant reports no deprecated or wrong use of its API by the integration while
    it sets up, pairs a thermostat (climate, sensor and binary sensor entities), follows the
    thermostat, runs climate actions, reloads and unloads. (The `usage_reports` guard fails
    any test in which it does; this one goes through all of that once.)
    """
    from homeassistant.components.climate.const import (
        ATTR_HVAC_MODE,
        ATTR_TARGET_TEMP_HIGH,
        ATTR_TARGET_TEMP_LOW,
        DOMAIN as CLIMATE_DOMAIN,
        SERVICE_SET_TEMPERATURE,
        HVACMode,
    )
    from homeassistant.const import ATTR_ENTITY_ID, ATTR_TEMPERATURE

    climate = paired.entity_id("climate")
    await paired.thermostat.put(
        f"shared.{SERIAL}", {"current_temperature": 19.5, "hvac_heater_state": True}
    )
    await hass.async_block_till_done()
    for data in (
        {ATTR_TEMPERATURE: 22.5},
        {ATTR_HVAC_MODE: HVACMode.HEAT_COOL, ATTR_TARGET_TEMP_LOW: 19, ATTR_TARGET_TEMP_HIGH: 24},
    ):
        await hass.services.async_call(
            CLIMATE_DOMAIN,
            SERVICE_SET_TEMPERATURE,
            {ATTR_ENTITY_ID: climate, **data},
            blocking=True,
        )
    state = hass.states.get(climate)
    assert state is not None
    assert (state.state, state.attributes[ATTR_TARGET_TEMP_HIGH]) == (HVACMode.HEAT_COOL, 24)
    assert await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()
    assert hass.states.get(climate) is not None
    assert await hass.config_entries.async_unload(paired.entry.entry_id)

    assert usage_reports == []


async def test_usage_report_guard_catches_a_report_naming_the_integration(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    usage_reports: list[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The guard itself: a report Home Assistant makes about this integration is caught."""
    from homeassistant.helpers import frame

    frame.report_usage("uses a test-only API", integration_domain=DOMAIN)
    assert usage_reports == ["uses a test-only API"]
    assert f"custom integration '{DOMAIN}' uses a test-only API" in caplog.text
    usage_reports.clear()  # checked: the guard must not fail this test
    caplog.clear()
