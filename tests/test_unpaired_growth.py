"""Unpaired thermostats cost bounded state: records, buckets and repair issues.

Every new serial that contacts the device port used to leave a saved record and a repair
issue for good (a fuzz run left 446 and 428). Made-up serials now cost nothing lasting: the
server remembers at most `MAX_UNPAIRED_DEVICES` unpaired thermostats, forgetting the least
useful first, and the repairs dashboard shows one issue each for the first few and one issue
for all of them beyond that.
"""

from __future__ import annotations

from typing import Any

import aiohttp
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.thermostat_cloud.const import (
    CONF_DEVICE_PORT,
    DOMAIN,
    STORAGE_KEY,
)
from custom_components.thermostat_cloud.issues import (
    ISSUE_UNPAIRED_THERMOSTATS,
    MAX_UNPAIRED_ISSUES,
    unpaired_issue_id,
)
from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core.config import MAX_UNPAIRED_DEVICES
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import SimulatedThermostat

from .conftest import add_thermostat


def serial_of(index: int) -> str:
    """Return the serial of the index-th thermostat."""
    return f"02AA01AC33{index:06d}"


def thermostat(
    entry: MockConfigEntry, http: aiohttp.ClientSession, serial: str
) -> SimulatedThermostat:
    """Return a simulated thermostat of the hub entry."""
    return SimulatedThermostat(f"http://127.0.0.1:{entry.data[CONF_DEVICE_PORT]}", serial, http)


def our_issues(hass: HomeAssistant) -> dict[str, ir.IssueEntry]:
    """Return the integration's repair issues."""
    return {
        issue_id: issue
        for (domain, issue_id), issue in ir.async_get(hass).issues.items()
        if domain == DOMAIN
    }


async def pair_in_the_ui(hass: HomeAssistant, entry: MockConfigEntry, code: str) -> None:
    """Pair a thermostat with its code as the UI does, and let Home Assistant settle."""
    await add_thermostat(hass, entry, code)
    await hass.async_block_till_done()


async def test_unpaired_records_are_capped_and_the_least_useful_forgotten(
    hass: HomeAssistant,
    hass_storage: dict[str, Any],
    hub: MockConfigEntry,
    http: aiohttp.ClientSession,
) -> None:
    service: ThermostatService = hub.runtime_data.service
    # A real thermostat waiting to be paired: its code is on its screen.
    waiting = thermostat(hub, http, "02AA01AC3314WAIT")
    code = (await waiting.passphrase())["value"]
    # A flood of serials that each make a request or two, the oldest also writing a bucket.
    flood = [serial_of(index) for index in range(MAX_UNPAIRED_DEVICES + 10)]
    await thermostat(hub, http, flood[0]).put(f"shared.{flood[0]}", {"current_temperature": 20})
    for serial in flood:
        await thermostat(hub, http, serial).entry()
    await hass.async_block_till_done()

    remembered = {record.serial for record in service.devices.records()}
    assert len(remembered) == MAX_UNPAIRED_DEVICES
    # The thermostat with a code on its screen stays; the longest silent serials go.
    assert remembered == {waiting.serial, *flood[-(MAX_UNPAIRED_DEVICES - 1) :]}
    assert not harness(service).keys_of(flood[0])
    # One issue says how many are waiting, instead of one each.
    issues = our_issues(hass)
    assert set(issues) == {ISSUE_UNPAIRED_THERMOSTATS}
    assert issues[ISSUE_UNPAIRED_THERMOSTATS].translation_placeholders == {
        "count": str(MAX_UNPAIRED_DEVICES),
        "limit": str(MAX_UNPAIRED_DEVICES),
        "individual": str(MAX_UNPAIRED_ISSUES),
    }

    # The waiting thermostat's code still pairs it, and the count follows.
    await pair_in_the_ui(hass, hub, code)
    assert service.pairing.is_paired(waiting.serial)
    placeholders = our_issues(hass)[ISSUE_UNPAIRED_THERMOSTATS].translation_placeholders
    assert placeholders is not None
    assert placeholders["count"] == str(MAX_UNPAIRED_DEVICES - 1)

    # The saved state holds no more than the remembered thermostats either.
    assert await hass.config_entries.async_unload(hub.entry_id)
    stored = hass_storage[STORAGE_KEY]["data"]
    assert {device["serial"] for device in stored["devices"]} == remembered
    assert f"shared.{flood[0]}" not in stored["buckets"]


async def test_a_few_waiting_thermostats_get_an_issue_each_more_share_one(
    hass: HomeAssistant, hub: MockConfigEntry, http: aiohttp.ClientSession
) -> None:
    few = [thermostat(hub, http, serial_of(index)) for index in range(MAX_UNPAIRED_ISSUES)]
    codes = [(await each.passphrase())["value"] for each in few]
    await hass.async_block_till_done()
    assert set(our_issues(hass)) == {unpaired_issue_id(each.serial) for each in few}

    one_more = thermostat(hub, http, serial_of(MAX_UNPAIRED_ISSUES))
    await one_more.entry()
    await hass.async_block_till_done()
    issues = our_issues(hass)
    assert set(issues) == {ISSUE_UNPAIRED_THERMOSTATS}
    placeholders = issues[ISSUE_UNPAIRED_THERMOSTATS].translation_placeholders
    assert placeholders is not None
    assert placeholders["count"] == str(MAX_UNPAIRED_ISSUES + 1)

    # Paired: back to few enough for an issue each, and none for the paired one (which now
    # has its own, asking for the restart that reports its equipment).
    await pair_in_the_ui(hass, hub, codes[0])
    assert set(our_issues(hass)) - {f"equipment_unknown_{few[0].serial}"} == {
        unpaired_issue_id(each.serial) for each in [*few[1:], one_more]
    }
