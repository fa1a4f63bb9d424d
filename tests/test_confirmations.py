"""Every command followed until the thermostat confirms it; a notice when one stops obeying.

Simulated thermostats over real TCP: one that confirms, one that never does, one asleep past
its push, one with a low battery, and a Home Assistant restart in the middle. Time moves with
the `freezer` and `async_fire_time_changed`, never by waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.climate import (
    ATTR_HVAC_MODE,
    DOMAIN as CLIMATE_DOMAIN,
    SERVICE_SET_HVAC_MODE,
    SERVICE_SET_TEMPERATURE,
)
from homeassistant.const import ATTR_ENTITY_ID, ATTR_TEMPERATURE, STATE_OFF, STATE_ON
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_fire_time_changed
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server import EventKind, ServiceEvent, ThermostatService
from tests.conftest import SERIAL, PairedThermostat, PairThermostat, shown
from tests.test_entity import connection_change

ISSUE = f"not_taking_commands_{SERIAL}"


async def until(service: ThermostatService, check: Callable[[], bool]) -> None:
    """Return once `check` holds, re-checked on every change of what is pending."""
    if check():
        return
    done = asyncio.Event()

    def on_event(event: ServiceEvent) -> None:
        if event.kind is EventKind.COMMANDS and check():
            done.set()

    remove = service.events.listen(on_event)
    try:
        async with asyncio.timeout(10):
            await done.wait()
    finally:
        remove()


async def set_temperature(hass: HomeAssistant, paired: PairedThermostat, value: float) -> None:
    await hass.services.async_call(
        CLIMATE_DOMAIN,
        SERVICE_SET_TEMPERATURE,
        {ATTR_ENTITY_ID: paired.entity_id("climate"), ATTR_TEMPERATURE: value},
        blocking=True,
    )


async def later(hass: HomeAssistant, freezer: FrozenDateTimeFactory, seconds: float) -> None:
    """Move the clock on and run the timers that came due."""
    freezer.tick(timedelta(seconds=seconds))
    async_fire_time_changed(hass, dt_util.utcnow())
    await hass.async_block_till_done()


def issue(hass: HomeAssistant) -> ir.IssueEntry | None:
    return ir.async_get(hass).async_get_issue(DOMAIN, ISSUE)


def problem(paired: PairedThermostat) -> str:
    return shown(paired.hass, paired.entity_id("binary_sensor", "commands"))


async def test_a_thermostat_that_confirms_raises_nothing(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
    hass_client: ClientSessionGenerator,
) -> None:
    paired = await pair_thermostat()
    service = paired.service
    await set_temperature(hass, paired, 22.5)
    pending = service.confirmations.pending(SERIAL)
    assert [(p.field, p.value) for p in pending] == [("target_temperature", 22.5)]

    # The thermostat applies the push and reports it: nothing is left pending.
    await until(service, lambda: not service.confirmations.is_pending(SERIAL))
    client = await hass_client()
    status = await (
        await client.get("/api/thermostat_cloud/status", params={"serial": SERIAL})
    ).json()
    assert status["pending_commands"] == []
    assert status["taking_commands"] is True

    await later(hass, freezer, 15 * 60)
    assert problem(paired) == STATE_OFF
    assert issue(hass) is None


async def test_a_thermostat_that_never_confirms_is_flagged_and_cleared(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
    hass_client: ClientSessionGenerator,
) -> None:
    paired = await pair_thermostat()
    service = paired.service
    paired.thermostat.obey_pushes = False
    await hass.services.async_call(
        CLIMATE_DOMAIN,
        SERVICE_SET_HVAC_MODE,
        {ATTR_ENTITY_ID: paired.entity_id("climate"), ATTR_HVAC_MODE: "off"},
        blocking=True,
    )
    await paired.pushed("shared", target_temperature_type="off")
    [entry] = service.confirmations.pending(SERIAL)
    assert entry.written_ms is not None  # pushed on its held connection

    # Pending, visible in the control API, but not yet a problem.
    client = await hass_client()
    status = await (
        await client.get("/api/thermostat_cloud/status", params={"serial": SERIAL})
    ).json()
    [shown_pending] = status["pending_commands"]
    assert shown_pending["field"] == "shared.target_temperature_type"
    assert shown_pending["value"] == "off"
    await later(hass, freezer, 119)
    assert problem(paired) == STATE_OFF

    await later(hass, freezer, 2)
    assert problem(paired) == STATE_ON
    raised = issue(hass)
    assert raised is not None
    assert raised.translation_key == "not_taking_commands_unknown"
    assert raised.translation_placeholders is not None
    assert raised.translation_placeholders["pending"] == "1"

    # It obeys again, and a newer command of the user is confirmed: both clear by themselves.
    paired.thermostat.obey_pushes = True
    await set_temperature(hass, paired, 19.0)
    await until(service, lambda: service.confirmations.taking_commands(SERIAL))
    await hass.async_block_till_done()
    assert problem(paired) == STATE_OFF
    assert issue(hass) is None


async def test_a_thermostat_asleep_past_its_push(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """Away for less than 10 minutes is no problem; asleep 2 minutes past a push is."""
    paired = await pair_thermostat()
    service = paired.service
    thermostat = paired.thermostat

    # Off its connection (asleep with the radio off): it comes for the command in 5 minutes.
    await thermostat.stop()
    await connection_change(paired, held=False)
    await set_temperature(hass, paired, 21.5)
    await later(hass, freezer, 5 * 60)
    assert problem(paired) == STATE_OFF
    thermostat.start()
    await until(service, lambda: not service.confirmations.is_pending(SERIAL))
    assert problem(paired) == STATE_OFF

    # Asleep with its connection held: the push waits unread.
    await thermostat.subscribed.wait()
    thermostat.sleep()
    await set_temperature(hass, paired, 20.0)
    await until(service, lambda: all(p.written_ms for p in service.confirmations.pending(SERIAL)))
    await later(hass, freezer, 121)
    assert problem(paired) == STATE_ON
    thermostat.wake()
    await until(service, lambda: service.confirmations.taking_commands(SERIAL))
    await hass.async_block_till_done()
    assert problem(paired) == STATE_OFF
    assert issue(hass) is None


async def test_a_thermostat_with_a_low_battery(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    paired = await pair_thermostat()
    service = paired.service
    thermostat = paired.thermostat
    await thermostat.report_battery(3.42)  # Wi-Fi off to save the cell
    await connection_change(paired, held=False)
    await set_temperature(hass, paired, 22.0)
    await later(hass, freezer, 10 * 60 + 1)
    assert problem(paired) == STATE_ON
    raised = issue(hass)
    assert raised is not None
    assert raised.translation_key == "not_taking_commands_low_battery"
    assert raised.translation_placeholders is not None
    assert raised.translation_placeholders["voltage"] == "3.42"
    assert raised.translation_placeholders["threshold"] == "3.6"

    await thermostat.charge()
    await until(service, lambda: service.confirmations.taking_commands(SERIAL))
    await hass.async_block_till_done()
    assert problem(paired) == STATE_OFF
    assert issue(hass) is None
    assert thermostat.local[f"shared.{SERIAL}"].value["target_temperature"] == 22.0


async def test_a_restart_in_the_middle_loses_nothing_and_sends_nothing_twice(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
    hass_storage: dict[str, Any],
) -> None:
    paired = await pair_thermostat()
    thermostat = paired.thermostat
    thermostat.sleep()  # the push is written, and left unread
    await set_temperature(hass, paired, 23.0)
    service = paired.service
    await until(service, lambda: all(p.written_ms for p in service.confirmations.pending(SERIAL)))

    assert await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()
    service = paired.service
    [entry] = service.confirmations.pending(SERIAL)
    assert (entry.field, entry.value) == ("target_temperature", 23.0)
    saved = hass_storage["thermostat_cloud.state"]["data"]["pending_commands"]
    assert [r["value"] for r in saved[SERIAL]] == [23.0]

    # It wakes, applies what it read before the restart, reports it and subscribes again.
    thermostat.wake()
    chunk = await thermostat.next_chunk()
    assert any(o["value"].get("target_temperature") == 23.0 for o in chunk.objects)
    await until(service, lambda: not service.confirmations.is_pending(SERIAL))
    await thermostat.subscribed.wait()
    await later(hass, freezer, 15 * 60)
    assert problem(paired) == STATE_OFF
    # Nothing was sent twice: the thermostat had the setpoint, its listing says so.
    while not thermostat.received.empty():
        again = thermostat.received.get_nowait()
        assert not any(o["value"].get("target_temperature") == 23.0 for o in again.objects)
