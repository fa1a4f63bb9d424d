"""Every command followed until the thermostat confirms it; a notice when one stops obeying.

Simulated thermostats over real TCP: one that confirms, one that never does, one asleep past
its push, one with a low battery, and a Home Assistant restart in the middle. Time moves with
the `freezer` and `async_fire_time_changed`, never by waiting.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
import json
from typing import Any, cast

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.climate.const import (
    SERVICE_SET_HVAC_MODE,
    SERVICE_SET_PRESET_MODE,
    SERVICE_SET_TEMPERATURE,
)
from homeassistant.const import STATE_OFF, STATE_ON
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import async_fire_time_changed
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server import (
    EventKind,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import OTHER_SERIAL, SERIAL, PairedThermostat, shown, until_event
from tests.test_entity import connection_change
from thermostat_sim import SimulatedThermostat, basic_auth

ISSUE = f"not_taking_commands_{SERIAL}"


async def until(service: ThermostatService, check: Callable[[], bool]) -> None:
    """Return once `check` holds, re-checked on every change of what is pending."""
    await until_event(service, EventKind.COMMANDS, check)


async def set_temperature(hass: HomeAssistant, paired: PairedThermostat, value: float) -> None:
    await paired.climate(SERVICE_SET_TEMPERATURE, temperature=value)


async def api_status(hass_client: ClientSessionGenerator) -> dict[str, Any]:
    """Return what the control API's status says of the thermostat."""
    client = await hass_client()
    response = await client.get("/api/thermostat_cloud/status", params={"serial": SERIAL})
    return cast("dict[str, Any]", await response.json())


async def later(hass: HomeAssistant, freezer: FrozenDateTimeFactory, seconds: float) -> None:
    """Move the clock on and run the timers that came due."""
    freezer.tick(timedelta(seconds=seconds))
    async_fire_time_changed(hass, dt_util.utcnow())
    await hass.async_block_till_done()


def issue(hass: HomeAssistant) -> ir.IssueEntry | None:
    return ir.async_get(hass).async_get_issue(DOMAIN, ISSUE)


def problem(paired: PairedThermostat) -> str:
    return shown(paired.hass, paired.entity_id("binary_sensor", "commands"))


async def takes_commands_again(paired: PairedThermostat) -> None:
    """Return once the thermostat takes commands again; its problem and repair are gone."""
    service = paired.service
    await until(service, lambda: service.thermostat(SERIAL).taking_commands)
    await paired.hass.async_block_till_done()
    assert problem(paired) == STATE_OFF
    assert issue(paired.hass) is None


async def test_a_thermostat_that_confirms_raises_nothing(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hass_client: ClientSessionGenerator,
    paired: PairedThermostat,
) -> None:
    service = paired.service
    await set_temperature(hass, paired, 22.5)
    pending = service.delivery.pending(SERIAL)
    assert [(p.field, p.value) for p in pending] == [("target_temperature", 22.5)]

    # The thermostat applies the push and reports it: nothing is left pending.
    await until(service, lambda: not harness(service).is_pending(SERIAL))
    status = await api_status(hass_client)
    assert status["pending_commands"] == []
    assert status["taking_commands"] is True

    await later(hass, freezer, 15 * 60)
    assert problem(paired) == STATE_OFF
    assert issue(hass) is None


async def test_a_thermostat_that_never_confirms_is_flagged_and_cleared(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hass_client: ClientSessionGenerator,
    paired: PairedThermostat,
) -> None:
    service = paired.service
    paired.thermostat.obey_pushes = False
    await paired.climate(SERVICE_SET_HVAC_MODE, hvac_mode="off")
    sent_ms = int(dt_util.utcnow().timestamp() * 1000)
    await paired.pushed("shared", target_temperature_type="off")
    [entry] = service.delivery.pending(SERIAL)
    assert entry.written_ms is not None  # pushed on its held connection

    # Pending, visible in the control API, but not yet a problem.
    status = await api_status(hass_client)
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
    # Values only, no words: the time the setting was sent (the frontend writes it in the
    # reader's language), the thermostat named once with its serial once.
    placeholders = raised.translation_placeholders
    assert placeholders is not None
    assert placeholders["sent"] == str(sent_ms)
    name = service.thermostat(SERIAL).name
    assert placeholders["thermostat"].count(SERIAL) == 1
    assert placeholders["thermostat"].startswith(name)
    assert raised.learn_more_url == (
        "https://github.com/thermostat-cloud/thermostat-cloud#troubleshooting"
    )

    # It obeys again, and a newer command of the user is confirmed: both clear by themselves.
    paired.thermostat.obey_pushes = True
    await set_temperature(hass, paired, 19.0)
    await takes_commands_again(paired)


async def test_a_thermostat_asleep_past_its_push(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """Away for less than 10 minutes is no problem; asleep 2 minutes past a push is."""
    service = paired.service
    thermostat = paired.thermostat

    # Off its connection (asleep with the radio off): it comes for the command in 5 minutes.
    await thermostat.stop()
    await connection_change(paired, held=False)
    await set_temperature(hass, paired, 21.5)
    await later(hass, freezer, 5 * 60)
    assert problem(paired) == STATE_OFF
    thermostat.start()
    await until(service, lambda: not harness(service).is_pending(SERIAL))
    assert problem(paired) == STATE_OFF

    # Asleep with its connection held: the push waits unread.
    await thermostat.subscribed.wait()
    thermostat.sleep()
    await set_temperature(hass, paired, 20.0)
    await until(service, lambda: all(p.written_ms for p in service.delivery.pending(SERIAL)))
    await later(hass, freezer, 121)
    assert problem(paired) == STATE_ON
    thermostat.wake()
    await takes_commands_again(paired)


async def test_a_thermostat_with_a_low_battery(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
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
    await takes_commands_again(paired)
    assert thermostat.local[f"shared.{SERIAL}"].value["target_temperature"] == 22.0


async def test_a_restart_in_the_middle_loses_nothing_and_sends_nothing_twice(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hass_storage: dict[str, Any],
    paired: PairedThermostat,
) -> None:
    thermostat = paired.thermostat
    thermostat.sleep()  # the push is written, and left unread
    await set_temperature(hass, paired, 23.0)
    service = paired.service
    await until(service, lambda: all(p.written_ms for p in service.delivery.pending(SERIAL)))

    assert await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()
    service = paired.service
    [entry] = service.delivery.pending(SERIAL)
    assert (entry.field, entry.value) == ("target_temperature", 23.0)
    saved = hass_storage["thermostat_cloud.state"]["data"]["pending_commands"]
    assert [r["value"] for r in saved[SERIAL]] == [23.0]

    # It wakes, applies what it read before the restart, reports it and subscribes again.
    thermostat.wake()
    chunk = await thermostat.next_chunk()
    assert any(o["value"].get("target_temperature") == 23.0 for o in chunk.objects)
    await until(service, lambda: not harness(service).is_pending(SERIAL))
    await thermostat.subscribed.wait()
    await later(hass, freezer, 15 * 60)
    assert problem(paired) == STATE_OFF
    # Nothing was sent twice: the thermostat had the setpoint, its listing says so.
    while not thermostat.received.empty():
        again = thermostat.received.get_nowait()
        assert not any(o["value"].get("target_temperature") == 23.0 for o in again.objects)


async def put_raw(thermostat: SimulatedThermostat, serial: str, body: dict[str, Any]) -> int:
    """PUT a body as thermostat `serial` would; return the status."""
    async with thermostat.http.post(
        thermostat.put_url, json=body, headers={"Authorization": basic_auth(serial)}
    ) as resp:
        return int(resp.status)


async def test_forged_or_replayed_reports_confirm_nothing(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A report for another thermostat, or over a revision older than the command, is none."""
    service = paired.service
    thermostat = paired.thermostat
    thermostat.obey_pushes = False
    key = f"shared.{SERIAL}"
    old_revision = harness(service).bucket(key).revision  # type: ignore[union-attr]
    await set_temperature(hass, paired, 24.0)
    new_revision = harness(service).bucket(key).revision  # type: ignore[union-attr]

    # Another thermostat reports this one's setpoint: refused, nothing confirmed.
    forged = {
        key: {"object_key": key, "base_object_revision": new_revision, "target_temperature": 24.0}
    }
    assert await put_raw(thermostat, OTHER_SERIAL, forged) == 400
    # The thermostat itself, over the revision before the command (a replayed report).
    replayed = {
        f"device.{SERIAL}": {
            "object_key": f"device.{SERIAL}",
            "base_object_revision": old_revision,
        },
        key: {
            "object_key": key,
            "base_object_revision": old_revision,
            "target_change_pending": False,
        },
    }
    assert await put_raw(thermostat, SERIAL, replayed) == 200
    assert [p.value for p in service.delivery.pending(SERIAL)] == [24.0]

    # The same acknowledgement over the command's revision confirms it.
    genuine = {
        key: {
            "object_key": key,
            "base_object_revision": new_revision,
            "target_change_pending": False,
        }
    }
    assert await put_raw(thermostat, SERIAL, genuine) == 200
    assert service.delivery.pending(SERIAL) == []


async def test_a_person_at_the_dial_supersedes_the_command(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    paired.thermostat.obey_pushes = False
    await set_temperature(hass, paired, 24.0)
    # Turned before the push was read: reported over the revision before the command.
    await paired.thermostat.put(f"shared.{SERIAL}", {"target_temperature": 18.5}, guard=False)
    assert harness(paired.service).value(f"shared.{SERIAL}")["target_temperature"] == 18.5
    assert paired.service.delivery.pending(SERIAL) == []


async def test_the_event_stream_says_what_is_pending_when_asked(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, paired: PairedThermostat
) -> None:
    paired.thermostat.obey_pushes = False
    client = await hass_client()
    bad = await client.get("/api/thermostat_cloud/api/events", params={"commands": "maybe"})
    assert bad.status == 400
    assert "commands must be true or false" in (await bad.json())["error"]
    resp = await client.get("/api/thermostat_cloud/api/events", params={"commands": "true"})
    assert resp.status == 200
    await set_temperature(hass, paired, 24.0)
    seen: list[dict[str, Any]] = []
    while not seen:
        block = (await resp.content.readuntil(b"\n\n")).decode()
        if block.startswith("event: commands\n"):
            seen.append(json.loads(block.split("data: ", 1)[1]))
    [pending] = seen[0]["pending_commands"]
    assert seen[0]["serial"] == SERIAL
    assert seen[0]["taking_commands"] is True
    assert pending["field"] == "shared.target_temperature"
    assert pending["value"] == 24.0
    assert pending["since"]
    resp.close()


async def skewed_clock(paired: PairedThermostat) -> None:
    """Report leaving eco, stamped an hour before the server's time."""
    stamp = paired.service.clock.now_ms() // 1000 - 3600
    await paired.reported(eco={"mode": "schedule", "mode_update_timestamp": stamp})


async def eco_held(paired: PairedThermostat) -> None:
    """Report eco that Home/Away Assist started."""
    await paired.reported(auto_away_enable=True, eco={"mode": "auto-eco"})


async def crossing_reports(paired: PairedThermostat) -> None:
    """Report three times over a revision the server has moved past."""
    key = f"shared.{SERIAL}"
    stale = harness(paired.service).bucket(key).revision - 1  # type: ignore[union-attr]
    for value in (19.0, 19.5, 20.0):
        body = {key: {"object_key": key, "if_object_revision": stale, "target_temperature": value}}
        assert await put_raw(paired.thermostat, SERIAL, body) == 200


async def old_firmware(paired: PairedThermostat) -> None:
    """Report firmware 4.3.3 at entry (it still reports its temperature)."""
    thermostat = paired.thermostat
    form = {"mac": thermostat.mac, "software_version": "4.3.3"}
    async with thermostat.http.post(
        f"{thermostat.base_url}/svc/entry", data=form, headers=thermostat.headers
    ) as resp:
        assert resp.status == 200


@pytest.mark.parametrize(
    ("condition", "cause"),
    [
        (eco_held, "eco_held"),
        (skewed_clock, "clock_skew"),
        (crossing_reports, "revision_conflicts"),
        (old_firmware, "read_only"),
    ],
)
async def test_the_repair_names_the_likely_cause(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    condition: Callable[[PairedThermostat], Awaitable[None]],
    cause: str,
    paired: PairedThermostat,
) -> None:
    paired.thermostat.obey_pushes = False
    await condition(paired)
    await paired.climate(SERVICE_SET_HVAC_MODE, hvac_mode="off")
    await later(hass, freezer, 121)
    raised = issue(hass)
    assert raised is not None
    assert raised.translation_key == f"not_taking_commands_{cause}"
    assert raised.severity is ir.IssueSeverity.ERROR


async def test_a_report_that_crossed_a_newer_command_still_confirms_the_older(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, paired: PairedThermostat
) -> None:
    """The thermostat reports the mode it applied while a newer command is on its way."""
    service = paired.service
    paired.thermostat.obey_pushes = False
    key = f"shared.{SERIAL}"
    await paired.climate(SERVICE_SET_HVAC_MODE, hvac_mode="off")
    mode_revision = harness(service).bucket(key).revision  # type: ignore[union-attr]
    # A newer command that also writes the bucket (the schedule's mode is kept in `shared`).
    client = await hass_client()
    resp = await client.post(
        "/api/thermostat_cloud/command",
        json={"serial": SERIAL, "command": "set_schedule_mode", "value": "cool"},
    )
    assert resp.status == 200
    assert harness(service).bucket(key).revision > mode_revision  # type: ignore[union-attr]

    # Written over the mode's revision: it conflicts, is not stored, and still confirms.
    body = {
        key: {
            "object_key": key,
            "base_object_revision": mode_revision,
            "if_object_revision": mode_revision,
            "target_temperature_type": "off",
        }
    }
    assert await put_raw(paired.thermostat, SERIAL, body) == 200
    fields = {p.field for p in service.delivery.pending(SERIAL)}
    assert "target_temperature_type" not in fields
    assert "schedule_mode" in fields  # the newer command waits for its own report


async def test_malformed_4_3_forms_get_clear_errors(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    thermostat = paired.thermostat
    headers = {"Authorization": basic_auth(SERIAL)}
    cases = [
        (f"{thermostat.transport_url}/v3/put", {"device": {SERIAL: 5}}, f"device.{SERIAL}"),
        (f"{thermostat.transport_url}/v3/subscribe", {"keys": [7]}, "keys[0]"),
        (f"{thermostat.transport_url}/v3/subscribe", {"session": "s"}, "objects"),
    ]
    before = harness(paired.service).value(f"device.{SERIAL}")
    for url, body, named in cases:
        async with thermostat.http.post(url, json=body, headers=headers) as resp:
            assert resp.status == 400
            assert named in (await resp.json())["error"]
    assert harness(paired.service).value(f"device.{SERIAL}") == before


async def test_a_thermostat_that_keeps_a_push_but_reports_nothing_back_confirms_it(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """A thermostat keeps a push it never reports back: no false alarm, but a setpoint waits.

    No public source shows firmware PUTting back every field it applied: the revision its next
    subscribe lists says it keeps the command. Only a setpoint waits for firmware's
    acknowledgement, which such a thermostat never sends.
    """
    service = paired.service
    paired.thermostat.acknowledge_pushes = False  # stores pushes, PUTs nothing back
    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="eco")
    await paired.pushed("device")
    await later(hass, freezer, 4)  # the batch window closes; it subscribes again
    await until(service, lambda: not harness(service).is_pending(SERIAL))
    await later(hass, freezer, 15 * 60)
    assert problem(paired) == STATE_OFF
    assert issue(hass) is None

    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="none")
    await paired.pushed("device")
    await later(hass, freezer, 4)
    await until(service, lambda: not harness(service).is_pending(SERIAL))
    await set_temperature(hass, paired, 23.5)
    await paired.pushed("shared", target_temperature=23.5)
    await later(hass, freezer, 4)
    assert [p.field for p in service.delivery.pending(SERIAL)] == ["target_temperature"]
    await later(hass, freezer, 2 * 60 + 1)
    assert problem(paired) == STATE_ON
