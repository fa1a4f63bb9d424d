"""Config, options, reconfigure and "Add thermostat" flows."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

import aiohttp
from homeassistant.config_entries import SOURCE_USER, ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import issue_registry as ir
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, MockUser

from custom_components.thermostat_cloud.const import (
    CONF_API_ORIGIN,
    CONF_CODE,
    CONF_COMPAT_API,
    CONF_COMPAT_PORT,
    CONF_DEVICE_PORT,
    CONF_ENTRY_KEY_MINUTES,
    CONF_ENTRY_KEY_TTL,
    CONF_OWNER,
    CONF_SERIAL,
    DOMAIN,
    SUBENTRY_THERMOSTAT,
)
from custom_components.thermostat_cloud.issues import unpaired_issue_id
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import SimulatedThermostat

from .conftest import OTHER_SERIAL, SERIAL, aborted, free_port, setup_hub


async def test_user_flow_creates_the_hub_with_lan_default(
    hass: HomeAssistant, socket_enabled: None
) -> None:
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    assert result["type"] is FlowResultType.FORM
    schema = result["data_schema"]
    assert schema is not None
    defaults = {str(key): key.default() for key in schema.schema}
    # pytest-homeassistant-custom-component reports the LAN address as 10.10.10.10.
    assert defaults == {CONF_API_ORIGIN: "http://10.10.10.10:8000", CONF_DEVICE_PORT: 8000}

    port = free_port()
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {CONF_API_ORIGIN: f"http://127.0.0.1:{port}/", CONF_DEVICE_PORT: port},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"] == {CONF_API_ORIGIN: f"http://127.0.0.1:{port}", CONF_DEVICE_PORT: port}
    await hass.async_block_till_done()
    entry = hass.config_entries.async_entries(DOMAIN)[0]
    assert entry.state is ConfigEntryState.LOADED
    assert await hass.config_entries.async_unload(entry.entry_id)


@pytest.mark.parametrize(
    ("origin", "error"),
    [
        ("http://192.168.1.10", "origin_port_missing"),
        ("192.168.1.10:8000", "invalid_origin"),
        ("ftp://192.168.1.10:8000", "invalid_origin"),
        ("http://192.168.1.10:8000/svc", "origin_has_path"),
        ("http://[::1", "invalid_origin"),
        ("https://192.168.1.10:8000", "origin_https"),
    ],
)
async def test_user_flow_rejects_origins_firmware_cannot_use(
    hass: HomeAssistant, socket_enabled: None, origin: str, error: str
) -> None:
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_ORIGIN: origin, CONF_DEVICE_PORT: free_port()}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_API_ORIGIN: error}


async def test_user_flow_says_when_the_port_is_taken(hass: HomeAssistant, taken_port: int) -> None:
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {CONF_API_ORIGIN: f"http://127.0.0.1:{taken_port}", CONF_DEVICE_PORT: taken_port},
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_DEVICE_PORT: "port_in_use"}
    assert not hass.config_entries.async_entries(DOMAIN)


async def test_single_instance(hass: HomeAssistant, socket_enabled: None) -> None:
    """A second hub cannot be added: one device server serves every thermostat."""
    entry = await setup_hub(hass)
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    assert aborted(result) == "single_instance_allowed"
    assert await hass.config_entries.async_unload(entry.entry_id)


async def reconfigure(hass: HomeAssistant, entry: MockConfigEntry, origin: str, port: int) -> Any:
    """Run the reconfigure flow with this address and device port; return its last step."""
    result = await entry.start_reconfigure_flow(hass)
    return await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_ORIGIN: origin, CONF_DEVICE_PORT: port}
    )


async def test_reconfigure_moves_the_listener(hass: HomeAssistant, socket_enabled: None) -> None:
    entry = await setup_hub(hass)
    old_port = entry.data[CONF_DEVICE_PORT]
    new_port = free_port()
    result = await entry.start_reconfigure_flow(hass)
    assert result["type"] is FlowResultType.FORM

    # Keeping the port the running hub holds is not "in use".
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"],
        {CONF_API_ORIGIN: f"http://127.0.0.1:{old_port}", CONF_DEVICE_PORT: old_port},
    )
    assert aborted(result) == "reconfigure_successful"

    result = await reconfigure(hass, entry, f"http://127.0.0.1:{new_port}", new_port)
    assert result["reason"] == "reconfigure_successful"
    await hass.async_block_till_done()
    assert entry.data[CONF_DEVICE_PORT] == new_port
    assert entry.runtime_data.device_server.bound_port == new_port
    async with aiohttp.ClientSession() as http:
        thermostat = SimulatedThermostat(f"http://127.0.0.1:{new_port}", SERIAL, http)
        assert (await thermostat.entry())["transport_url"].endswith(f":{new_port}/svc/transport")
    assert await hass.config_entries.async_unload(entry.entry_id)


async def test_reconfigure_reloads_once_through_the_update_listener(
    hass: HomeAssistant, socket_enabled: None, caplog: pytest.LogCaptureFixture
) -> None:
    """The flow only updates the entry; the update listener does the one reload.

    Home Assistant reports flows that also schedule a reload for an entry with an update
    listener (it breaks in 2026.12), and the hub would restart twice.
    """
    entry = await setup_hub(hass)
    new_port = free_port()
    reload = hass.config_entries.async_reload
    with patch.object(hass.config_entries, "async_reload", wraps=reload) as reloads:
        result = await reconfigure(hass, entry, f"http://127.0.0.1:{new_port}", new_port)
        await hass.async_block_till_done()
    assert result["reason"] == "reconfigure_successful"
    assert reloads.call_count == 1
    assert entry.runtime_data.device_server.bound_port == new_port
    # Not asyncio's slow-callback notes, which name the listener's task on a busy machine.
    assert not [
        record
        for record in caplog.records
        if record.name != "asyncio" and "update listener" in record.getMessage()
    ]
    assert await hass.config_entries.async_unload(entry.entry_id)


async def test_options_ask_the_lifetime_in_minutes_and_store_seconds(
    hass: HomeAssistant, socket_enabled: None
) -> None:
    """The form shows the stored lifetime in minutes; the service gets seconds, as stored before.

    With the open control API off the form has no port field and saves at once.
    """
    entry = await setup_hub(hass)
    hass.config_entries.async_update_entry(entry, options={CONF_ENTRY_KEY_TTL: 5400})
    await hass.async_block_till_done()
    result = await hass.config_entries.options.async_init(entry.entry_id)
    schema = result["data_schema"]
    assert schema is not None
    # The alerts' section has no default of its own: its fields have theirs.
    defaults = {str(key): key.default() for key in schema.schema if str(key) != "alerts"}
    assert defaults[CONF_ENTRY_KEY_MINUTES] == 90
    assert CONF_COMPAT_PORT not in defaults

    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_ENTRY_KEY_MINUTES: 120, CONF_COMPAT_API: False}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert entry.options[CONF_ENTRY_KEY_TTL] == 7200
    assert entry.runtime_data.service.config.entry_key_ttl_seconds == 7200
    assert await hass.config_entries.async_unload(entry.entry_id)


async def turn_the_open_control_api_on(hass: HomeAssistant, entry: MockConfigEntry) -> Any:
    """Open the hub's options and turn the open control API on; return the next step."""
    result = await hass.config_entries.options.async_init(entry.entry_id)
    return await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_ENTRY_KEY_MINUTES: 60, CONF_COMPAT_API: True}
    )


async def test_options_ask_the_port_only_when_the_open_control_api_is_on(
    hass: HomeAssistant, socket_enabled: None
) -> None:
    """Turning the open control API on leads to its port, which must not be the device port."""
    entry = await setup_hub(hass)
    result = await turn_the_open_control_api_on(hass, entry)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "compat_port"

    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_COMPAT_PORT: entry.data[CONF_DEVICE_PORT]}
    )
    assert result["errors"] == {CONF_COMPAT_PORT: "port_conflict"}

    port = free_port()
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_COMPAT_PORT: port}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert entry.options[CONF_COMPAT_API] is True
    assert entry.options[CONF_COMPAT_PORT] == port
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/health") as resp:
        assert resp.status == 200
    assert await hass.config_entries.async_unload(entry.entry_id)


async def test_options_say_when_the_open_port_is_taken(
    hass: HomeAssistant, taken_port: int
) -> None:
    """Opening the control API on a port another program holds is refused in the form."""
    entry = await setup_hub(hass)
    result = await turn_the_open_control_api_on(hass, entry)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], {CONF_COMPAT_PORT: taken_port}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_COMPAT_PORT: "port_in_use"}
    assert CONF_COMPAT_API not in entry.options
    assert await hass.config_entries.async_unload(entry.entry_id)


# -- Add thermostat -------------------------------------------------------------------------------


async def start_add_thermostat(hass: HomeAssistant, entry: MockConfigEntry) -> Any:
    """Start the "Add thermostat" subentry flow and choose to enter a code."""
    result = await hass.config_entries.subentries.async_init(
        (entry.entry_id, SUBENTRY_THERMOSTAT), context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.MENU
    assert result["menu_options"] == ["scan", "code"]
    return await hass.config_entries.subentries.async_configure(
        result["flow_id"], {"next_step_id": "code"}
    )


@pytest.fixture
async def thermostat(hub: MockConfigEntry) -> Any:
    """Return a simulated thermostat of the hub (not started); stopped after the test."""
    async with aiohttp.ClientSession() as http:
        sim = SimulatedThermostat(
            f"http://127.0.0.1:{hub.data[CONF_DEVICE_PORT]}",
            SERIAL,
            http,
            buckets={f"shared.{SERIAL}": {"current_temperature": 20.0}},
        )
        yield sim
        await sim.stop()


async def test_add_thermostat_by_code_pushes_pairing_to_the_held_connection(
    hass: HomeAssistant, hub: MockConfigEntry, thermostat: SimulatedThermostat
) -> None:
    """The thermostat shows a code, the user types it, the thermostat leaves pairing."""
    await thermostat.entry()
    code = (await thermostat.passphrase())["value"]
    thermostat.start()
    await thermostat.next_chunk()  # its own shared bucket, sent back with a revision
    assert ir.async_get(hass).async_get_issue(DOMAIN, unpaired_issue_id(SERIAL)) is not None

    result = await start_add_thermostat(hass, hub)
    assert result["type"] is FlowResultType.FORM
    typed = f"{code[:3]}-{code[3:]}".lower()
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: typed}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["unique_id"] == SERIAL
    assert result["data"] == {CONF_SERIAL: SERIAL}

    service = hub.runtime_data.service
    user_key, structure_key, _rooms = harness(service).home_keys(SERIAL)
    pushed = await thermostat.next_object(structure_key)
    assert pushed["value"] == {"name": "Home", "devices": [f"device.{SERIAL}"]}
    assert thermostat.local[user_key].value == {"name": harness(service).home_user_id}
    assert (await thermostat.passphrase_status())["claimed"] is True
    await hass.async_block_till_done()
    assert [s.unique_id for s in hub.subentries.values()] == [SERIAL]
    assert ir.async_get(hass).async_get_issue(DOMAIN, unpaired_issue_id(SERIAL)) is None


async def test_adding_a_thermostat_again_with_a_new_code_keeps_its_device(
    hass: HomeAssistant, hub: MockConfigEntry, thermostat: SimulatedThermostat
) -> None:
    """A paired thermostat's new code pairs it again; the flow says so and adds nothing."""

    async def add_by_its_code() -> Any:
        await thermostat.entry()
        code = (await thermostat.passphrase())["value"]
        result = await start_add_thermostat(hass, hub)
        result = await hass.config_entries.subentries.async_configure(
            result["flow_id"], {CONF_CODE: code}
        )
        await hass.async_block_till_done()
        return result

    assert (await add_by_its_code())["type"] is FlowResultType.CREATE_ENTRY
    result = await add_by_its_code()
    assert aborted(result) == "paired_again"
    assert result["description_placeholders"] == {"serial": SERIAL}
    assert [s.unique_id for s in hub.subentries.values()] == [SERIAL]
    assert hub.runtime_data.service.pairing.is_paired(SERIAL)


async def test_add_thermostat_for_a_chosen_owner(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    thermostat: SimulatedThermostat,
    hass_owner_user: MockUser,
) -> None:
    """Add thermostat lets the admin pick which person owns the pairing.

    The owner field lists the people who log in, suggests the instance owner, and the
    chosen user owns the pairing.
    """
    partner = MockUser(name="Partner").add_to_hass(hass)
    MockUser(name="Former tenant", is_active=False).add_to_hass(hass)
    MockUser(name="Supervisor", system_generated=True).add_to_hass(hass)
    code = (await thermostat.passphrase())["value"]

    result = await start_add_thermostat(hass, hub)
    assert result["type"] is FlowResultType.FORM
    schema = result["data_schema"]
    assert schema is not None
    owner_key = next(key for key in schema.schema if key == CONF_OWNER)
    assert owner_key.description == {"suggested_value": hass_owner_user.id}
    options = schema.schema[owner_key].config["options"]
    assert sorted((o["value"], o["label"]) for o in options) == sorted(
        [(hass_owner_user.id, hass_owner_user.name), (partner.id, "Partner")]
    )

    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: code, CONF_OWNER: partner.id}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    service = hub.runtime_data.service
    pairing = service.pairing.record(SERIAL)
    assert pairing is not None
    assert pairing.user_id == partner.id
    assert harness(service).home_keys(SERIAL)[0] == f"user.{partner.id}"


async def test_add_thermostat_without_an_owner_belongs_to_the_home(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    thermostat: SimulatedThermostat,
    hass_owner_user: MockUser,
) -> None:
    code = (await thermostat.passphrase())["value"]
    result = await start_add_thermostat(hass, hub)
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: code}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    service = hub.runtime_data.service
    pairing = service.pairing.record(SERIAL)
    assert pairing is not None
    assert pairing.user_id == harness(service).home_user_id


async def test_add_thermostat_refuses_an_owner_removed_meanwhile(
    hass: HomeAssistant, hub: MockConfigEntry, thermostat: SimulatedThermostat
) -> None:
    partner = MockUser(name="Partner").add_to_hass(hass)
    code = (await thermostat.passphrase())["value"]
    result = await start_add_thermostat(hass, hub)
    partner.is_active = False
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: code, CONF_OWNER: partner.id}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_OWNER: "owner_unavailable"}
    assert not hub.runtime_data.service.pairing.is_paired(SERIAL)


@pytest.mark.parametrize(
    ("typed", "error"),
    [("AB-12", "invalid_format"), ("ABC-DEFG!", "invalid_format"), ("ZZZ-ZZZZ", "invalid_code")],
)
async def test_add_thermostat_rejects_bad_codes(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    thermostat: SimulatedThermostat,
    typed: str,
    error: str,
) -> None:
    await thermostat.passphrase()
    result = await start_add_thermostat(hass, hub)
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: typed}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {CONF_CODE: error}
    assert not hub.subentries
    assert not hub.runtime_data.service.pairing.is_paired(SERIAL)


async def test_add_thermostat_refuses_expired_and_claimed_codes(
    hass: HomeAssistant, hub: MockConfigEntry, thermostat: SimulatedThermostat
) -> None:
    service = hub.runtime_data.service
    code = (await thermostat.passphrase())["value"]
    key = harness(service).entry_key(code)
    assert key is not None
    key.expires = service.clock.now_ms() - 1
    result = await start_add_thermostat(hass, hub)
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: code}
    )
    assert result["errors"] == {CONF_CODE: "expired_code"}
    assert (await thermostat.passphrase_status())["status"] == "no_key"

    code = (await thermostat.passphrase())["value"]
    assert service.pairing.register(code).success  # claimed elsewhere (control API)
    await hass.async_block_till_done()
    result = await start_add_thermostat(hass, hub)
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: code}
    )
    assert result["errors"] == {CONF_CODE: "claimed_code"}


async def test_pairing_through_the_service_creates_the_subentry(
    hass: HomeAssistant, hub: MockConfigEntry, thermostat: SimulatedThermostat
) -> None:
    """`POST /api/register` uses the same pairing; Home Assistant follows."""
    code = (await thermostat.passphrase())["value"]
    assert hub.runtime_data.service.pairing.register(code).success
    await hass.async_block_till_done()
    (subentry,) = hub.subentries.values()
    assert subentry.unique_id == SERIAL
    assert subentry.subentry_type == SUBENTRY_THERMOSTAT


async def test_removing_the_subentry_unpairs_and_allows_pairing_again(
    hass: HomeAssistant, hub: MockConfigEntry, thermostat: SimulatedThermostat
) -> None:
    service = hub.runtime_data.service
    await thermostat.put(f"shared.{SERIAL}", {"target_temperature": 19.0})
    code = (await thermostat.passphrase())["value"]
    result = await start_add_thermostat(hass, hub)
    await hass.config_entries.subentries.async_configure(result["flow_id"], {CONF_CODE: code})
    await hass.async_block_till_done()
    (subentry_id,) = hub.subentries

    assert hass.config_entries.async_remove_subentry(hub, subentry_id)
    await hass.async_block_till_done()
    assert not service.pairing.is_paired(SERIAL)
    assert hub.state is ConfigEntryState.LOADED
    # The thermostat keeps its settings and pairs again with a new code.
    assert harness(service).value(f"shared.{SERIAL}")["target_temperature"] == 19.0
    new_code = (await thermostat.passphrase())["value"]
    assert new_code != code
    result = await start_add_thermostat(hass, hub)
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: new_code}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY


async def test_unpairing_elsewhere_removes_the_subentry(
    hass: HomeAssistant, hub: MockConfigEntry, thermostat: SimulatedThermostat
) -> None:
    service = hub.runtime_data.service
    code = (await thermostat.passphrase())["value"]
    assert service.pairing.register(code).success
    await hass.async_block_till_done()
    assert hub.subentries

    assert service.pairing.unpair(SERIAL)  # hosted API DELETE
    await hass.async_block_till_done()
    assert not hub.subentries


async def test_second_thermostat_joins_the_same_home(
    hass: HomeAssistant, hub: MockConfigEntry, thermostat: SimulatedThermostat
) -> None:
    service = hub.runtime_data.service
    first = (await thermostat.passphrase())["value"]
    thermostat.start()
    await thermostat.subscribed.wait()
    assert service.pairing.register(first).success
    structure_key = harness(service).home_keys(SERIAL)[1]
    await thermostat.next_object(structure_key)

    async with aiohttp.ClientSession() as http:
        other = SimulatedThermostat(
            f"http://127.0.0.1:{hub.data[CONF_DEVICE_PORT]}", OTHER_SERIAL, http
        )
        second = (await other.passphrase())["value"]
        result = await start_add_thermostat(hass, hub)
        await hass.config_entries.subentries.async_configure(result["flow_id"], {CONF_CODE: second})
    assert harness(service).home_keys(OTHER_SERIAL)[1] == structure_key
    pushed = await thermostat.next_object(structure_key)
    assert pushed["value"]["devices"] == [f"device.{SERIAL}", f"device.{OTHER_SERIAL}"]


async def test_add_thermostat_needs_a_running_hub(
    hass: HomeAssistant, hub: MockConfigEntry
) -> None:
    assert await hass.config_entries.async_unload(hub.entry_id)
    result = await hass.config_entries.subentries.async_init(
        (hub.entry_id, SUBENTRY_THERMOSTAT), context={"source": SOURCE_USER}
    )
    assert aborted(result) == "hub_not_loaded"


@pytest.mark.parametrize(
    ("origin", "handed_out"),
    [
        # The defaults submitted where 8000 is taken, then only the port changed: the address
        # moves with it, never left on the old port.
        pytest.param("http://127.0.0.1:8000", "http://127.0.0.1:{port}", id="moves_with_the_port"),
        # A container's port mapping can hand thermostats another port than the device port.
        pytest.param("http://127.0.0.1:18000", "http://127.0.0.1:18000", id="forwarded_port_kept"),
    ],
)
async def test_the_address_handed_to_thermostats_is_on_a_port_the_hub_answers(
    hass: HomeAssistant, socket_enabled: None, origin: str, handed_out: str
) -> None:
    """Thermostats are never handed an address on a port the hub no longer listens on."""
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    port = free_port()
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_API_ORIGIN: origin, CONF_DEVICE_PORT: port}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"] == {
        CONF_API_ORIGIN: handed_out.format(port=port),
        CONF_DEVICE_PORT: port,
    }
    await hass.async_block_till_done()
    entry = hass.config_entries.async_entries(DOMAIN)[0]
    assert await hass.config_entries.async_unload(entry.entry_id)


async def test_the_stored_address_always_writes_its_port(
    hass: HomeAssistant, socket_enabled: None
) -> None:
    entry = await setup_hub(hass)
    old_port = entry.data[CONF_DEVICE_PORT]
    result = await reconfigure(hass, entry, f"HTTP://Thermostats.Local:{old_port}/", old_port)
    assert result["reason"] == "reconfigure_successful"
    await hass.async_block_till_done()
    assert entry.data[CONF_API_ORIGIN] == f"http://thermostats.local:{old_port}"
    assert await hass.config_entries.async_unload(entry.entry_id)


def test_default_ports_stay_written_out() -> None:
    from custom_components.thermostat_cloud.config_flow import normalize_origin

    assert normalize_origin("http://192.168.1.10:80/") == "http://192.168.1.10:80"
    assert normalize_origin("https://ha.local:443") == "https://ha.local:443"
