"""Pairing where a person looks: "Add thermostat" on the network, the repair notice, discovery.

Thermostats are simulated over real TCP; their settings pages answer on 127.0.0.x, and a
thermostat pointed at Home Assistant calls in from its own loopback address.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
import json
from pathlib import Path
from typing import Any
from unittest.mock import patch

import aiohttp
from homeassistant.components.repairs import repairs_flow_manager
from homeassistant.config_entries import (
    SOURCE_INTEGRATION_DISCOVERY,
    SOURCE_USER,
    ConfigFlowContext,
)
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.aiohttp_client import SERVER_SOFTWARE
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.thermostat_cloud import thermostat_flow
from custom_components.thermostat_cloud.const import (
    CONF_CODE,
    CONF_DEVICE_PORT,
    DOMAIN,
    SUBENTRY_THERMOSTAT,
)
from custom_components.thermostat_cloud.issues import ISSUE_UNPAIRED_THERMOSTATS, unpaired_issue_id
from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import OTHER_SERIAL, SERIAL, THERMOSTAT_DEVICE, StartSettingsPage, aborted
from tests.settings_pages import DEFAULT_CLOUD_HOST, FakeThermostatSettings
from thermostat_sim import SimulatedThermostat

INTEGRATION = Path(__file__).parent.parent / "custom_components" / DOMAIN
FLOW_LOGGER = "custom_components.thermostat_cloud"

type CallIn = Callable[..., Awaitable[SimulatedThermostat]]


@pytest.fixture
def service(hub: MockConfigEntry) -> ThermostatService:
    """Return the hub's running service."""
    return hub.runtime_data.service  # type: ignore[no-any-return]


@pytest.fixture
async def call_in(hub: MockConfigEntry, loopback_subnet: None) -> AsyncGenerator[CallIn]:
    """Return simulated thermostats that call the hub from a loopback address of their own."""
    made: list[tuple[SimulatedThermostat, aiohttp.ClientSession]] = []

    async def make(
        address: str = "127.0.0.1", serial: str = SERIAL, **buckets: dict[str, Any]
    ) -> SimulatedThermostat:
        http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))
        initial = {f"{name}.{serial}": value for name, value in buckets.items()}
        thermostat = SimulatedThermostat(
            f"http://127.0.0.1:{hub.data[CONF_DEVICE_PORT]}", serial, http, buckets=initial
        )
        made.append((thermostat, http))
        await thermostat.entry()
        return thermostat

    yield make
    for thermostat, http in made:
        await thermostat.stop()
        await http.close()


async def add_thermostat_menu(hass: HomeAssistant, hub: MockConfigEntry, choice: str) -> Any:
    """Open "Add thermostat" and choose an item of its menu."""
    result = await hass.config_entries.subentries.async_init(
        (hub.entry_id, SUBENTRY_THERMOSTAT), context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.MENU
    return await hass.config_entries.subentries.async_configure(
        result["flow_id"], {"next_step_id": choice}
    )


async def find_and_pick(hass: HomeAssistant, hub: MockConfigEntry, address: str) -> Any:
    """Search the network from "Add thermostat" and choose the thermostat at `address`."""
    result = await add_thermostat_menu(hass, hub, "scan")
    assert result["step_id"] == "pick", result
    return await hass.config_entries.subentries.async_configure(
        result["flow_id"], {thermostat_flow.CONF_THERMOSTAT: address}
    )


def discovered_flows(hass: HomeAssistant) -> list[Any]:
    """Return the thermostats shown as discovered on the integration's page."""
    return hass.config_entries.flow.async_progress_by_handler(
        DOMAIN, match_context={"source": SOURCE_INTEGRATION_DISCOVERY}
    )


# -- UI text ---------------------------------------------------------------------------------------


def ui_strings(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Return every string of a translation file with its path."""
    if isinstance(value, dict):
        return [item for key, sub in value.items() for item in ui_strings(sub, f"{path}.{key}")]
    return [(path, value)] if isinstance(value, str) else []


@pytest.mark.parametrize(
    "file", [INTEGRATION / "strings.json", *sorted((INTEGRATION / "translations").glob("*.json"))]
)
def test_ui_text_has_no_markdown_backticks(file: Path) -> None:
    """The frontend shows backticks as they are ("like `ABC-1234`"): no UI string has one."""
    with_backticks = [
        path for path, text in ui_strings(json.loads(file.read_text())) if "`" in text
    ]
    assert with_backticks == []


# -- Add thermostat: find it on the network --------------------------------------------------------


async def test_find_point_wait_and_pair_a_thermostat_on_the_network(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    service: ThermostatService,
    start_settings_page: StartSettingsPage,
    call_in: CallIn,
) -> None:
    """The whole way without a terminal: find, point here, it calls in, its code, restart note."""
    hallway = await start_settings_page(
        "127.0.0.2", FakeThermostatSettings("Hallway", "https://frontdoor.example:443/entry")
    )
    await start_settings_page("127.0.0.3", FakeThermostatSettings("Den", service.config.api_origin))

    result = await add_thermostat_menu(hass, hub, "scan")
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "pick"
    assert result["description_placeholders"] == {"origin": service.config.api_origin}
    schema = result["data_schema"]
    assert schema is not None
    options = schema.schema[thermostat_flow.CONF_THERMOSTAT].config["options"]
    assert options == [
        # A settings page answers its server only: no name to show.
        {"value": "127.0.0.2", "label": "127.0.0.2: https://frontdoor.example:443/entry"},
        {"value": "127.0.0.3", "label": f"127.0.0.3: {service.config.api_origin}"},
    ]

    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {thermostat_flow.CONF_THERMOSTAT: "127.0.0.2"}
    )
    assert result["type"] is FlowResultType.SHOW_PROGRESS
    assert result["step_id"] == "wait"
    assert result["progress_action"] == "wait_for_thermostat"
    assert hallway.posts == [{"endpoint": service.config.api_origin}]
    assert hallway.cloudregisterurl == f"{service.config.api_origin}/entry"
    # Found and pointed here through Home Assistant's shared HTTP session (inject-websession).
    assert hallway.user_agents == [SERVER_SOFTWARE, SERVER_SOFTWARE]

    # The thermostat follows its new URL: it calls in from its own address.
    thermostat = await call_in("127.0.0.2")
    await hass.async_block_till_done()
    result = await hass.config_entries.subentries.async_configure(result["flow_id"])
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "contacted"
    assert result["description_placeholders"] == {"serial": SERIAL, "address": "127.0.0.2"}

    code = (await thermostat.passphrase())["value"]
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: code}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["unique_id"] == SERIAL
    # It has not said what it can do yet: the person is told about the one restart.
    assert result["description"] == "restart"
    assert result["description_placeholders"] == {"serial": SERIAL}
    assert service.pairing.is_paired(SERIAL)
    assert (await thermostat.passphrase_status())["claimed"] is True


async def test_a_thermostat_that_reported_its_equipment_needs_no_restart(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    service: ThermostatService,
    start_settings_page: StartSettingsPage,
    call_in: CallIn,
) -> None:
    """A thermostat already pointing here is not reconfigured; complete state: no restart."""
    page = await start_settings_page(
        "127.0.0.2", FakeThermostatSettings("Hallway", service.config.api_origin)
    )
    thermostat = await call_in("127.0.0.2", device=THERMOSTAT_DEVICE, shared={"can_cool": True})
    thermostat.start()
    await thermostat.subscribed.wait()

    result = await find_and_pick(hass, hub, "127.0.0.2")
    assert result["step_id"] == "contacted"
    assert page.posts == []
    code = (await thermostat.passphrase())["value"]
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: code}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["description"] == "paired"


async def test_the_key_is_asked_only_when_the_thermostat_wants_one(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    service: ThermostatService,
    start_settings_page: StartSettingsPage,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A refused key is said on the form and in the log; the serial gets the real key."""
    page = await start_settings_page(
        "127.0.0.2",
        FakeThermostatSettings("Hallway", "", require_api_key="Zq7-secret", hostname=SERIAL),
    )
    result = await find_and_pick(hass, hub, "127.0.0.2")
    assert result["type"] is FlowResultType.MENU
    assert result["step_id"] == "key_needed"
    assert result["description_placeholders"] == {"address": "127.0.0.2"}
    # It was not restarted (or points elsewhere already): typing its serial is the way.
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {"next_step_id": "api_key"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "api_key"
    assert result["errors"] == {}
    assert result["description_placeholders"] == {"address": "127.0.0.2"}

    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {thermostat_flow.CONF_API_KEY: "not-the-key"}
    )
    assert result["step_id"] == "api_key"
    assert result["errors"] == {"base": "key_refused"}
    assert "The thermostat at 127.0.0.2 refused the key typed" in caplog.text

    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {thermostat_flow.CONF_API_KEY: SERIAL.lower()}
    )
    assert result["type"] is FlowResultType.SHOW_PROGRESS
    assert page.posts[-1] == {"api_key": "Zq7-secret", "endpoint": service.config.api_origin}


async def test_a_thermostat_restarted_gives_its_key_without_a_serial_typed(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    service: ThermostatService,
    start_settings_page: StartSettingsPage,
) -> None:
    """Its first-boot window hands out the key: restart, try again, nothing typed."""
    page = await start_settings_page(
        "127.0.0.2",
        FakeThermostatSettings(
            "",
            f"https://{DEFAULT_CLOUD_HOST}/entry",
            require_api_key="Zq7-secret",
            hostname=SERIAL,
        ),
    )
    result = await find_and_pick(hass, hub, "127.0.0.2")
    assert result["step_id"] == "key_needed"
    # Trying again before the restart is refused the same way.
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {"next_step_id": "restarted"}
    )
    assert (result["type"], result["step_id"]) == (FlowResultType.MENU, "key_needed")

    page.restart()
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {"next_step_id": "restarted"}
    )
    assert result["type"] is FlowResultType.SHOW_PROGRESS
    assert {"setup": "true"} in page.posts
    assert page.posts[-1] == {"api_key": "Zq7-secret", "endpoint": service.config.api_origin}
    assert page.cloudregisterurl == f"{service.config.api_origin}/entry"


async def test_the_first_boot_window_serves_once_and_only_with_the_default_address(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    start_settings_page: StartSettingsPage,
) -> None:
    """A thermostat already using another server gives no key at start: the serial it is."""
    page = await start_settings_page(
        "127.0.0.2",
        FakeThermostatSettings(
            "", "http://192.0.2.7:8000/entry", require_api_key="Zq7-secret", hostname=SERIAL
        ),
    )
    page.restart()
    result = await find_and_pick(hass, hub, "127.0.0.2")
    assert result["step_id"] == "key_needed"
    assert page.cloudregisterurl == "http://192.0.2.7:8000/entry"


async def test_no_thermostat_found_says_so_and_searches_again(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    start_settings_page: StartSettingsPage,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An empty network is an error on the form; submitting searches again."""
    result = await add_thermostat_menu(hass, hub, "scan")
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "scan"
    assert result["errors"] == {"base": "no_thermostats_found"}
    assert result["description_placeholders"] == {"subnet": "127.0.0.0/24"}
    assert "No thermostat answered on 127.0.0.0/24" in caplog.text

    await start_settings_page("127.0.0.4", FakeThermostatSettings("Attic", ""))
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], {})
    assert result["step_id"] == "pick"


async def test_a_thermostat_that_fails_to_take_the_address_is_said_on_the_list(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    start_settings_page: StartSettingsPage,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The settings page fails (HTTP 500): back to the list with an error and a log line."""
    await start_settings_page("127.0.0.2", FakeThermostatSettings("Hallway", "", status=500))
    result = await find_and_pick(hass, hub, "127.0.0.2")
    assert result["step_id"] == "pick"
    assert result["errors"] == {"base": "configure_failed"}
    assert "Could not point the thermostat at 127.0.0.2 at Home Assistant" in caplog.text


async def test_a_search_that_cannot_run_says_which_address_to_fix(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    service: ThermostatService,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """No IPv4 network to search from the address thermostats use: the flow says so."""
    service.config.api_origin = "http://[::1]:8000"
    result = await add_thermostat_menu(hass, hub, "scan")
    assert aborted(result) == "scan_unavailable"
    assert result["description_placeholders"] == {"origin": "http://[::1]:8000"}
    assert "Cannot look for thermostats: Cannot resolve ::1 to an IPv4 address" in caplog.text


async def test_an_https_address_cannot_be_given_to_a_thermostat(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    service: ThermostatService,
    start_settings_page: StartSettingsPage,
) -> None:
    """Thermostats speak plain HTTP: the flow stops before it writes an https address."""
    hallway = await start_settings_page("127.0.0.2", FakeThermostatSettings("Hallway", ""))
    service.config.api_origin = "https://127.0.0.1:8000"
    result = await find_and_pick(hass, hub, "127.0.0.2")
    assert aborted(result) == "origin_https"
    assert hallway.posts == []


@pytest.mark.parametrize("choice", ["scan", "code"])
async def test_add_thermostat_stops_when_the_hub_is_unloaded_meanwhile(
    hass: HomeAssistant, hub: MockConfigEntry, choice: str
) -> None:
    """The hub unloaded while the menu is open: the next step says so instead of failing."""
    result = await hass.config_entries.subentries.async_init(
        (hub.entry_id, SUBENTRY_THERMOSTAT), context={"source": SOURCE_USER}
    )
    assert await hass.config_entries.async_unload(hub.entry_id)
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {"next_step_id": choice}
    )
    assert aborted(result) == "hub_not_loaded"


@pytest.mark.parametrize("pointed_here", [False, True])
async def test_pointing_stops_when_the_hub_is_unloaded_meanwhile(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    service: ThermostatService,
    start_settings_page: StartSettingsPage,
    pointed_here: bool,
) -> None:
    """The hub unloaded while the list is shown: nothing is written to the thermostat."""
    address = f"{service.config.api_origin}/entry" if pointed_here else ""
    hallway = await start_settings_page("127.0.0.2", FakeThermostatSettings("Hallway", address))
    result = await add_thermostat_menu(hass, hub, "scan")
    assert result["step_id"] == "pick"
    assert await hass.config_entries.async_unload(hub.entry_id)
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {thermostat_flow.CONF_THERMOSTAT: "127.0.0.2"}
    )
    assert aborted(result) == "hub_not_loaded"
    assert hallway.posts == []


async def test_the_hub_unloaded_while_the_thermostat_called_in_ends_the_flow(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    service: ThermostatService,
    start_settings_page: StartSettingsPage,
    call_in: CallIn,
) -> None:
    """Between the thermostat calling in and its code, the hub stopped: said, no failure."""
    await start_settings_page("127.0.0.2", FakeThermostatSettings("Hallway", ""))
    result = await find_and_pick(hass, hub, "127.0.0.2")
    assert result["step_id"] == "wait"
    await call_in("127.0.0.2")
    await hass.async_block_till_done()
    assert await hass.config_entries.async_unload(hub.entry_id)
    result = await hass.config_entries.subentries.async_configure(result["flow_id"])
    assert aborted(result) == "hub_not_loaded"


async def test_a_thermostat_found_already_paired_is_said_to_be(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    service: ThermostatService,
    start_settings_page: StartSettingsPage,
    call_in: CallIn,
) -> None:
    """Chosen from the list while it already is this home's: no second pairing, no code asked."""
    await start_settings_page(
        "127.0.0.2", FakeThermostatSettings("Hallway", service.config.api_origin)
    )
    thermostat = await call_in("127.0.0.2")
    thermostat.start()
    await thermostat.subscribed.wait()
    result = await add_thermostat_menu(hass, hub, "code")
    code = (await thermostat.passphrase())["value"]
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: code}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY

    result = await find_and_pick(hass, hub, "127.0.0.2")
    assert aborted(result) == "already_paired"
    assert result["description_placeholders"] == {"serial": SERIAL}


async def test_a_thermostat_that_never_calls_in_times_out_with_a_message(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    start_settings_page: StartSettingsPage,
    call_in: CallIn,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The wait ends with a clear message; submitting waits again and catches the thermostat."""
    await start_settings_page("127.0.0.2", FakeThermostatSettings("Hallway", ""))
    with patch.object(thermostat_flow, "WAIT_FOR_CONTACT_SECONDS", 0.05):
        result = await add_thermostat_menu(hass, hub, "scan")
        result = await hass.config_entries.subentries.async_configure(
            result["flow_id"], {thermostat_flow.CONF_THERMOSTAT: "127.0.0.2"}
        )
        assert result["type"] is FlowResultType.SHOW_PROGRESS
        await hass.async_block_till_done()
    result = await hass.config_entries.subentries.async_configure(result["flow_id"])
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "not_heard"
    assert result["errors"] == {"base": "no_contact"}
    assert "The thermostat at 127.0.0.2 did not call Home Assistant" in caplog.text

    result = await hass.config_entries.subentries.async_configure(result["flow_id"], {})
    assert result["type"] is FlowResultType.SHOW_PROGRESS
    await call_in("127.0.0.2")
    await hass.async_block_till_done()
    result = await hass.config_entries.subentries.async_configure(result["flow_id"])
    assert result["step_id"] == "contacted"


# -- the repair notice of a waiting thermostat ----------------------------------------------------


async def test_the_waiting_notice_pairs_the_thermostat_by_its_code(
    hass: HomeAssistant,
    hub: MockConfigEntry,
    service: ThermostatService,
    call_in: CallIn,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The notice has a fix flow: the code form of "Add thermostat"; it pairs and adds it."""
    assert await async_setup_component(hass, "repairs", {})
    thermostat = await call_in()
    issue = ir.async_get(hass).async_get_issue(DOMAIN, unpaired_issue_id(SERIAL))
    assert issue is not None
    assert issue.is_fixable

    manager = repairs_flow_manager(hass)
    assert manager is not None
    result = await manager.async_init(DOMAIN, data={"issue_id": unpaired_issue_id(SERIAL)})
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "pair"
    # Home Assistant opens the flow without showing the issue's text: the step names the
    # thermostat itself.
    assert result["description_placeholders"] == {"serial": SERIAL}
    code = (await thermostat.passphrase())["value"]
    harness(service).entry_key(code).expires = service.clock.now_ms() - 1  # type: ignore[union-attr]
    result = await manager.async_configure(result["flow_id"], {CONF_CODE: code})
    assert result["errors"] == {CONF_CODE: "expired_code"}
    assert "The pairing code typed in Home Assistant was refused: it has expired" in caplog.text

    code = (await thermostat.passphrase())["value"]
    result = await manager.async_configure(result["flow_id"], {CONF_CODE: code})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert [s.unique_id for s in hub.subentries.values()] == [SERIAL]
    assert ir.async_get(hass).async_get_issue(DOMAIN, unpaired_issue_id(SERIAL)) is None


async def test_the_notice_counting_waiting_thermostats_pairs_one_too(
    hass: HomeAssistant, hub: MockConfigEntry, service: ThermostatService, call_in: CallIn
) -> None:
    """Beyond three waiting thermostats, the one notice that counts them asks for a code."""
    assert await async_setup_component(hass, "repairs", {})
    serials = [f"02AA01AC3314{n:04d}" for n in range(4)]
    thermostats = [await call_in(serial=serial) for serial in serials]
    issue = ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_UNPAIRED_THERMOSTATS)
    assert issue is not None
    assert issue.is_fixable

    manager = repairs_flow_manager(hass)
    assert manager is not None
    result = await manager.async_init(DOMAIN, data={"issue_id": ISSUE_UNPAIRED_THERMOSTATS})
    # The step says how many wait and how many are remembered, as the issue would.
    assert result["description_placeholders"] == issue.translation_placeholders
    assert issue.translation_placeholders is not None
    assert issue.translation_placeholders["count"] == "4"
    code = (await thermostats[2].passphrase())["value"]
    result = await manager.async_configure(result["flow_id"], {CONF_CODE: code})
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert [s.unique_id for s in hub.subentries.values()] == [serials[2]]


# -- discovered thermostats -----------------------------------------------------------------------


async def test_a_thermostat_calling_in_unpaired_is_shown_as_discovered(
    hass: HomeAssistant, hub: MockConfigEntry, service: ThermostatService, call_in: CallIn
) -> None:
    """One click leads to its code; the flow ends by adding the thermostat under the hub."""
    thermostat = await call_in()
    await hass.async_block_till_done()
    (flow,) = discovered_flows(hass)
    assert flow["context"]["unique_id"] == SERIAL
    assert flow["context"]["title_placeholders"] == {"serial": SERIAL}
    assert flow["step_id"] == "discovered"

    result = await hass.config_entries.flow.async_configure(
        flow["flow_id"], {CONF_CODE: "ZZZ-ZZZZ"}
    )
    assert result["errors"] == {CONF_CODE: "invalid_code"}

    code = (await thermostat.passphrase())["value"]
    result = await hass.config_entries.flow.async_configure(flow["flow_id"], {CONF_CODE: code})
    assert aborted(result) == "restart"
    assert result["description_placeholders"] == {"serial": SERIAL}
    await hass.async_block_till_done()
    assert [s.unique_id for s in hub.subentries.values()] == [SERIAL]
    assert len(hass.config_entries.async_entries(DOMAIN)) == 1
    assert discovered_flows(hass) == []


async def test_the_discovered_thermostat_goes_away_when_paired_elsewhere(
    hass: HomeAssistant, hub: MockConfigEntry, service: ThermostatService, call_in: CallIn
) -> None:
    """Paired through "Add thermostat" or the control API: its discovered flow is aborted."""
    first = await call_in()
    await call_in(serial=OTHER_SERIAL)
    await hass.async_block_till_done()
    assert {f["context"]["unique_id"] for f in discovered_flows(hass)} == {SERIAL, OTHER_SERIAL}

    result = await add_thermostat_menu(hass, hub, "code")
    code = (await first.passphrase())["value"]
    await hass.config_entries.subentries.async_configure(result["flow_id"], {CONF_CODE: code})
    await hass.async_block_till_done()
    assert [f["context"]["unique_id"] for f in discovered_flows(hass)] == [OTHER_SERIAL]

    harness(service).forget(OTHER_SERIAL)
    await hass.async_block_till_done()
    assert discovered_flows(hass) == []


async def test_a_discovery_without_its_hub_or_of_a_paired_thermostat_ends_with_a_reason(
    hass: HomeAssistant, hub: MockConfigEntry, service: ThermostatService, call_in: CallIn
) -> None:
    """A discovery that outlived its hub, or came after the pairing, is not a dead end."""
    thermostat = await call_in()
    thermostat.start()
    await thermostat.subscribed.wait()
    result = await add_thermostat_menu(hass, hub, "code")
    code = (await thermostat.passphrase())["value"]
    await hass.config_entries.subentries.async_configure(result["flow_id"], {CONF_CODE: code})
    await hass.async_block_till_done()

    discovery: ConfigFlowContext = {"source": SOURCE_INTEGRATION_DISCOVERY}
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context=discovery, data={"serial": SERIAL}
    )
    assert aborted(result) == "already_paired"

    assert await hass.config_entries.async_unload(hub.entry_id)
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context=discovery, data={"serial": OTHER_SERIAL}
    )
    assert aborted(result) == "hub_not_loaded"


async def test_an_ignored_thermostat_stays_ignored(
    hass: HomeAssistant, hub: MockConfigEntry, call_in: CallIn
) -> None:
    """Ignoring the discovered thermostat keeps it off the page; the hub is still the one."""
    await call_in()
    await hass.async_block_till_done()
    assert len(discovered_flows(hass)) == 1
    result = await hass.config_entries.flow.async_init(
        DOMAIN,
        context={"source": "ignore"},
        data={"unique_id": SERIAL, "title": f"Thermostat {SERIAL}"},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert discovered_flows(hass) == []

    # Announced again after a restart of the hub: still not shown.
    await hass.config_entries.async_reload(hub.entry_id)
    await hass.async_block_till_done()
    await call_in()
    await hass.async_block_till_done()
    assert hub.runtime_data.service.devices.waiting_for_pairing() == [SERIAL]
    assert discovered_flows(hass) == []
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    assert result["reason"] == "single_instance_allowed"
