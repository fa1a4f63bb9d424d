"""`GET /api/events`: the Server-Sent Events stream, read as it arrives."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import timedelta
import json
from typing import Any

from aiohttp import ClientResponse
from homeassistant.components.http.auth import async_sign_path
from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.thermostat_cloud.const import DATA_CONTROL_API
from custom_components.thermostat_cloud.server import EventKind, ServiceEvent
from custom_components.thermostat_cloud.server.control.api import SSE_MAX_PENDING
from tests.conftest import OTHER_SERIAL, SERIAL, LoopClock
from thermostat_sim import SimulatedThermostat

from .conftest import URL, Client, ConnectThermostat, command, pair

EVENTS = f"{URL}/api/events"


async def next_message(resp: ClientResponse) -> str:
    """Return the next SSE block (an event or a comment), without its blank-line terminator."""
    block = await resp.content.readuntil(b"\n\n")
    assert block, "stream ended"
    return block.decode().removesuffix("\n\n")


async def next_serial(resp: ClientResponse) -> str:
    """Return the serial of the next event: an unnamed message whose data is only `serial`."""
    message = await next_message(resp)
    assert message.startswith("data: "), message
    assert "\n" not in message  # no `event:` name, one data line
    data = json.loads(message.removeprefix("data: "))
    assert list(data) == ["serial"]
    return str(data["serial"])


@pytest.fixture
async def events(client: Client) -> AsyncGenerator[ClientResponse]:
    """Return an open event stream."""
    resp = await client.get(EVENTS)
    assert resp.status == 200
    yield resp
    resp.close()


async def test_stream_headers(events: ClientResponse) -> None:
    """No proxy between client and Home Assistant buffers or caches the event stream."""
    assert events.headers["Content-Type"] == "text/event-stream"
    assert events.headers["Cache-Control"] == "no-cache"
    assert events.headers["X-Accel-Buffering"] == "no"


async def test_commands_and_device_puts_each_emit_one_event(
    events: ClientResponse, connect_thermostat: ConnectThermostat, client: Client
) -> None:
    thermostat = await connect_thermostat(shared={"can_heat": True})
    # Counted per change: the thermostat's own acknowledgement of a pushed setpoint (a PUT,
    # so an event of its own; see test_firmware.py) would interleave with them.
    thermostat.acknowledge_pushes = False
    # The thermostat's inline state on subscribe is a processed change too.
    assert await next_serial(events) == SERIAL

    assert (await command(client, "set_temperature", 20))[0] == 200
    assert await next_serial(events) == SERIAL
    assert (await command(client, "set_mode", "heat"))[0] == 200
    assert await next_serial(events) == SERIAL

    await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 19.5})
    assert await next_serial(events) == SERIAL

    other = await connect_thermostat(OTHER_SERIAL, shared={"current_temperature": 18.0})
    assert await next_serial(events) == OTHER_SERIAL
    await other.put(f"shared.{OTHER_SERIAL}", {"current_temperature": 18.5})
    assert await next_serial(events) == OTHER_SERIAL


async def test_nothing_is_replayed_on_connect(
    hass: HomeAssistant, connect_thermostat: ConnectThermostat, client: Client
) -> None:
    """Only changes after the stream opened are sent: the first message is a keep-alive."""
    thermostat = await connect_thermostat(shared={"can_heat": True})
    thermostat.acknowledge_pushes = False  # a later PUT of its own would be a new change
    assert (await command(client, "set_temperature", 20))[0] == 200
    await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 19.5})
    hass.data[DATA_CONTROL_API].keepalive = 0.05

    resp = await client.get(EVENTS)
    assert resp.status == 200
    assert await next_message(resp) == ": keep-alive"
    resp.close()


async def test_unchanged_values_and_refused_commands_emit_nothing(
    events: ClientResponse, connect_thermostat: ConnectThermostat, client: Client
) -> None:
    thermostat = await connect_thermostat(shared={"target_temperature": 20.0})
    assert await next_serial(events) == SERIAL
    await connect_thermostat(OTHER_SERIAL)  # contact alone changes no state

    await thermostat.put(f"shared.{SERIAL}", {"target_temperature": 20.0})  # no change
    assert (await command(client, "set_temperature", 80))[0] == 400
    assert (await command(client, "set_temperature", 21, OTHER_SERIAL))[0] == 200
    # Events arrive in order: had anything about SERIAL been emitted, it would come first.
    assert await next_serial(events) == OTHER_SERIAL


async def test_pairing_emits_for_the_paired_thermostat(
    events: ClientResponse, connect_thermostat: ConnectThermostat, client: Client
) -> None:
    thermostat = await connect_thermostat()
    assert (await pair(client, thermostat))["success"] is True
    assert await next_serial(events) == SERIAL


async def test_idle_stream_sends_comment_keep_alives(
    hass: HomeAssistant, clock: LoopClock, hub: MockConfigEntry, client: Client
) -> None:
    keepalive = hass.data[DATA_CONTROL_API].keepalive
    resp = await client.get(EVENTS)
    for _ in range(2):
        await clock.advance(keepalive)
        assert await next_message(resp) == ": keep-alive"
    resp.close()


async def test_stream_ends_cleanly_when_the_hub_unloads(
    hass: HomeAssistant, hub: MockConfigEntry, events: ClientResponse
) -> None:
    assert await hass.config_entries.async_unload(hub.entry_id)
    assert await events.content.read() == b""
    assert events.content.at_eof()


async def test_stream_ends_cleanly_when_home_assistant_stops(
    hass: HomeAssistant, hub: MockConfigEntry, events: ClientResponse
) -> None:
    hass.bus.async_fire(EVENT_HOMEASSISTANT_STOP)
    assert await events.content.read() == b""
    assert events.content.at_eof()


async def test_browser_event_source_can_use_a_signed_path(
    hass: HomeAssistant,
    hass_client_no_auth: ClientSessionGenerator,
    hass_access_token: str,
    connect_thermostat: ConnectThermostat,
) -> None:
    refresh_token = hass.auth.async_validate_access_token(hass_access_token)
    assert refresh_token is not None
    signed = async_sign_path(hass, EVENTS, timedelta(minutes=5), refresh_token_id=refresh_token.id)
    anonymous = await hass_client_no_auth()
    assert (await anonymous.get(EVENTS)).status == 401

    resp = await anonymous.get(signed)
    assert resp.status == 200
    assert resp.headers["Content-Type"] == "text/event-stream"
    await connect_thermostat(shared={"current_temperature": 20.0})
    assert await next_serial(resp) == SERIAL
    resp.close()


async def test_many_streams_each_get_every_event(
    client: Client, connect_thermostat: ConnectThermostat
) -> None:
    streams: list[Any] = [await client.get(EVENTS) for _ in range(3)]
    thermostat: SimulatedThermostat = await connect_thermostat(shared={"current_temperature": 20.0})
    await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 21.0})
    for resp in streams:
        assert await next_serial(resp) == SERIAL
        assert await next_serial(resp) == SERIAL
        resp.close()


async def test_a_client_that_stops_reading_is_disconnected(
    hub: MockConfigEntry, client: Client
) -> None:
    """A stalled event client cannot make the server buffer without bound.

    Events queue per client up to a limit; past it the stream ends so the client
    reconnects and re-reads status, instead of the server buffering without bound.
    """
    service = hub.runtime_data.service
    resp = await client.get(EVENTS)
    for _ in range(SSE_MAX_PENDING + 1):
        service.events.publish(ServiceEvent(EventKind.STATE, SERIAL))
    # Everything was published in one loop turn, before the stream could write: it ends.
    assert await resp.content.read() == b""
