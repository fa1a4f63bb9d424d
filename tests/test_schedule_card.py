"""The schedule card's side in Home Assistant: its module served to dashboards, its websocket command.

The card saves through the `set_schedule` action over the websocket (`call_service`), as the
dashboard does, so those calls are made here the same way.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
import re
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.typing import (
    ClientSessionGenerator,
    MockHAClientWebSocket,
    WebSocketGenerator,
)

from custom_components.thermostat_cloud import schedule_card
from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.schedule_card import CARD_FILE, CARD_URL
from custom_components.thermostat_cloud.server.core.testing import harness

from .conftest import SERIAL, PairedThermostat, PairThermostat, setup_hub

SCHEDULE: dict[str, Any] = {
    "ver": 2,
    "name": "Week",
    "schedule_mode": "HEAT",
    "days": {
        str(day): {
            "0": {"time": 25200, "temp": 21.0, "type": "HEAT", "entry_type": "setpoint"},
            "1": {"time": 79200, "temp": 17.5, "type": "HEAT", "entry_type": "setpoint"},
        }
        for day in range(7)
    },
}


async def test_every_dashboard_loads_the_card_module(
    hass: HomeAssistant,
    socket_enabled: None,
    hass_client: ClientSessionGenerator,
    hass_storage: dict[str, Any],
) -> None:
    """The page of every dashboard loads the module (URL versioned by its bytes), served cached."""
    # An onboarded Home Assistant, which serves dashboards rather than its onboarding page.
    hass_storage["onboarding"] = {
        "version": 4,
        "key": "onboarding",
        "data": {"done": ["user", "core_config", "analytics", "integration"]},
    }
    await setup_hub(hass)
    http = await hass_client()
    page = await (await http.get("/lovelace/0")).text()
    module = CARD_FILE.read_bytes()
    url = f"{CARD_URL}?v={hashlib.sha256(module).hexdigest()[:16]}"
    assert f'import("{url}")' in page or f'src="{url}"' in page, page

    response = await http.get(url)
    assert response.status == 200
    assert response.content_type == "text/javascript"
    assert await response.read() == module
    # Cached for weeks: a new version of the module comes with a new URL.
    max_age = re.search(r"max-age=(\d+)", response.headers["Cache-Control"])
    assert max_age is not None
    assert int(max_age[1]) >= 7 * 86400


async def test_a_missing_card_module_leaves_the_thermostats_working(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An install without the card's file (damaged) still runs; the log says what to do."""
    monkeypatch.setattr(schedule_card, "CARD_FILE", tmp_path / "missing.js")
    paired = await pair_thermostat()
    assert hass.states.get(paired.entity_id("climate")) is not None
    assert "The schedule card is not available" in caplog.text
    assert "Reinstall Thermostat Cloud" in caplog.text


async def subscribe(client: MockHAClientWebSocket, entity_id: str) -> dict[str, Any]:
    """Subscribe to a thermostat's schedule; return the first message (what it has now)."""
    await client.send_json_auto_id({"type": f"{DOMAIN}/schedule/subscribe", "entity_id": entity_id})
    result = await client.receive_json()
    assert result["success"], result
    return await next_event(client)


async def next_event(client: MockHAClientWebSocket) -> dict[str, Any]:
    """Return the next message of the subscription."""
    message = await client.receive_json()
    assert message["type"] == "event", message
    return dict(message["event"])


@pytest.fixture
async def open_card(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, paired: PairedThermostat
) -> MockHAClientWebSocket:
    """Open the card on the thermostat: return a websocket subscribed to its schedule."""
    client = await hass_ws_client(hass)
    await subscribe(client, paired.entity_id("climate"))
    return client


async def save(
    client: MockHAClientWebSocket, paired: PairedThermostat, **data: Any
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Call `set_schedule` as the card does; return the answer and the events that came first.

    The subscription hears of the change in the loop turn of the write, before the action's
    answer is sent.
    """
    call: dict[str, Any] = {
        "type": "call_service",
        "domain": DOMAIN,
        "service": "set_schedule",
        "service_data": data,
        "target": {"entity_id": paired.entity_id("climate")},
    }
    await client.send_json_auto_id(call)  # sets the call's id
    events: list[dict[str, Any]] = []
    while (message := await client.receive_json())["id"] != call["id"]:
        events.append(dict(message["event"]))
    return dict(message), events


async def test_the_card_sees_the_schedule_and_every_change(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, paired: PairedThermostat
) -> None:
    """The open card follows a save, the thermostat's own edits, and nothing else."""
    client = await hass_ws_client(hass)
    assert await subscribe(client, paired.entity_id("climate")) == {
        "schedule": None,
        "learning": False,
        "hold": None,
        "eco": None,
        "arrival": None,
    }

    answer, events = await save(client, paired, schedule=SCHEDULE)
    assert answer["success"]
    assert events == [
        {"schedule": SCHEDULE, "learning": False, "hold": None, "eco": None, "arrival": None}
    ]
    await paired.pushed("schedule", name="Week")

    # Temperatures change all day long; the card hears only of the schedule.
    await paired.thermostat.put(f"shared.{SERIAL}", {"current_temperature": 19.5})
    # Learning (or the dial) moves Monday's morning setpoint on the thermostat.
    monday = {**SCHEDULE["days"]["0"], "0": {**SCHEDULE["days"]["0"]["0"], "temp": 22.5}}
    await paired.thermostat.put(f"schedule.{SERIAL}", {"days": {**SCHEDULE["days"], "0": monday}})
    changed = await next_event(client)
    assert changed["schedule"]["days"]["0"]["0"]["temp"] == 22.5


async def test_the_card_says_learning_is_on_and_can_turn_it_off_on_save(
    hass: HomeAssistant, pair_thermostat: PairThermostat, hass_ws_client: WebSocketGenerator
) -> None:
    """Learning on shows; a save without an answer is refused in words; turning it off shows."""
    paired = await pair_thermostat(device={"learning_mode": True})
    client = await hass_ws_client(hass)
    assert (await subscribe(client, paired.entity_id("climate")))["learning"] is True

    refused, events = await save(client, paired, schedule=SCHEDULE)
    assert not refused["success"]
    assert events == []
    assert refused["error"]["code"] == "service_validation_error"
    assert "turn learning off" in refused["error"]["message"]

    answer, events = await save(client, paired, schedule=SCHEDULE, turn_off_learning=True)
    assert answer["success"]
    # One change: the schedule and learning off together.
    assert events == [
        {"schedule": SCHEDULE, "learning": False, "hold": None, "eco": None, "arrival": None}
    ]
    chunk = await paired.thermostat.next_chunk()
    values = {obj["object_key"]: obj["value"] for obj in chunk.objects}
    assert values[f"schedule.{SERIAL}"]["days"] == SCHEDULE["days"]
    assert values[f"device.{SERIAL}"]["learning_mode"] is False


async def test_a_bad_schedule_from_a_card_is_refused_in_words(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, paired: PairedThermostat
) -> None:
    """What the card checks is checked again by the integration: a message, nothing written."""
    client = await hass_ws_client(hass)
    monday = SCHEDULE["days"]["0"]
    same_time = {**monday, "1": {**monday["1"], "time": monday["0"]["time"]}}
    answer, _ = await save(client, paired, schedule={**SCHEDULE, "days": {"0": same_time}})
    assert not answer["success"]
    assert answer["error"]["code"] == "service_validation_error"
    assert "same time" in answer["error"]["message"]
    assert "Traceback" not in answer["error"]["message"]
    assert harness(paired.service).bucket(f"schedule.{SERIAL}") is None


async def test_the_card_is_told_what_it_cannot_show(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, paired: PairedThermostat
) -> None:
    """Another entity, or the integration stopped: an error code the card words itself."""
    client = await hass_ws_client(hass)
    for entity_id in ("climate.somewhere_else", paired.entity_id("sensor", "temperature")):
        await client.send_json_auto_id(
            {"type": f"{DOMAIN}/schedule/subscribe", "entity_id": entity_id}
        )
        answer = await client.receive_json()
        assert answer["error"]["code"] == "not_a_thermostat", entity_id

    assert await hass.config_entries.async_unload(paired.entry.entry_id)
    await client.send_json_auto_id(
        {"type": f"{DOMAIN}/schedule/subscribe", "entity_id": paired.entity_id("climate")}
    )
    assert (await client.receive_json())["error"]["code"] == "not_loaded"


async def test_the_open_card_stays_live_across_a_reload(
    hass: HomeAssistant, open_card: MockHAClientWebSocket, paired: PairedThermostat
) -> None:
    """Changed hub options reload the service: the open card hears of what changes after."""
    assert await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()

    answer, events = await save(open_card, paired, schedule=SCHEDULE)
    assert answer["success"], answer
    assert events == [
        {"schedule": SCHEDULE, "learning": False, "hold": None, "eco": None, "arrival": None}
    ]


async def test_the_card_shows_the_hold_and_its_end(
    hass: HomeAssistant, open_card: MockHAClientWebSocket, paired: PairedThermostat
) -> None:
    """A hold reaches the open card (its setpoint and end), and so does its end."""
    await hass.services.async_call(
        DOMAIN,
        "hold",
        {"entity_id": paired.entity_id("climate"), "temperature": 23, "duration": {"hours": 2}},
        blocking=True,
    )
    hold = (await next_event(open_card))["hold"]
    ends = paired.service.holds.hold_of(SERIAL)
    assert ends is not None
    assert hold == {
        "until": dt_util.utc_from_timestamp(ends.until_ms / 1000).isoformat(),
        "target": 23,
        "low": None,
        "high": None,
    }
    # Without a schedule, resuming only ends the hold.
    await hass.services.async_call(
        DOMAIN, "resume_schedule", {"entity_id": paired.entity_id("climate")}, blocking=True
    )
    assert (await next_event(open_card))["hold"] is None


async def test_the_card_hears_of_the_homes_arrival_and_of_its_cancel(
    hass: HomeAssistant, open_card: MockHAClientWebSocket, paired: PairedThermostat
) -> None:
    """Planned: when it is and when the home leaves eco for it. Cancelled: gone."""
    await hass.services.async_call(
        DOMAIN, "set_arrival", {"travel_time": {"minutes": 40}}, blocking=True
    )
    arrival = (await next_event(open_card))["arrival"]
    planned = paired.service.arrivals.arrival()
    assert planned is not None
    at = dt_util.as_local(dt_util.utc_from_timestamp(planned.arrival_ms / 1000)).isoformat()
    # Without a schedule or a rate: nothing to heat ahead of it.
    assert arrival == {"at": at, "start": at}
    await hass.services.async_call(DOMAIN, "cancel_arrival", {}, blocking=True)
    assert (await next_event(open_card))["arrival"] is None


async def test_away_shows_the_eco_range_on_the_card_and_the_climate_entity(
    hass: HomeAssistant, pair_thermostat: PairThermostat, hass_ws_client: WebSocketGenerator
) -> None:
    """With the home away the house keeps the eco range: the card and the entity show that.

    Not "Held at 23 °C", nor a single 23 °C target: the hold waits under away, and what the
    thermostat keeps is its eco low and high. Back home, the hold shows again.
    """
    paired = await pair_thermostat(
        device={"away_temperature_low": 15.5, "away_temperature_high": 27.0}
    )
    climate = paired.entity_id("climate")
    client = await hass_ws_client(hass)
    await subscribe(client, climate)
    await hass.services.async_call(
        DOMAIN,
        "hold",
        {"entity_id": climate, "temperature": 23, "duration": {"hours": 2}},
        blocking=True,
    )
    assert (await next_event(client))["hold"]["target"] == 23

    await hass.services.async_call(
        "climate", "set_preset_mode", {"entity_id": climate, "preset_mode": "away"}, blocking=True
    )
    message = await next_event(client)
    assert message["eco"] == {"away": True, "low": 15.5, "high": 27.0}
    state = hass.states.get(climate)
    assert state is not None
    assert state.attributes["preset_mode"] == "away"
    assert state.attributes["target_temp_low"] == 15.5
    assert state.attributes["target_temp_high"] == 27.0
    assert state.attributes.get("temperature") is None

    await hass.services.async_call(
        "climate", "set_preset_mode", {"entity_id": climate, "preset_mode": "none"}, blocking=True
    )
    message = await next_event(client)
    assert message["eco"] is None
    assert message["hold"] is not None
