"""The device protocol over real TCP, as thermostat firmware uses it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
import gc
import json
from typing import Any

import aiohttp
from aiohttp import web
import pytest

from custom_components.thermostat_cloud.server import (
    DeviceServer,
    ServiceEvent,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from custom_components.thermostat_cloud.server.delivery.subscriptions import HeldConnection
from thermostat_sim import Chunk, SimulatedThermostat, basic_auth

from .conftest import OTHER_SERIAL, SERIAL, LoopClock, MemoryStorage
from .serving import start_serving, stop_serving

type MakeThermostat = Callable[..., SimulatedThermostat]

AUTH = {"Authorization": basic_auth(SERIAL), "X-svc-protocol-version": "1"}


def pairs(raw: bytes) -> Any:
    """JSON with objects as lists of (key, value) pairs, to check field order."""
    return json.loads(raw, object_pairs_hook=list)


async def post_json(
    http: aiohttp.ClientSession, url: str, body: Any, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    """POST JSON to the device server; return the status and the answer."""
    async with http.post(url, json=body, headers=headers or AUTH) as resp:
        return resp.status, await resp.json()


# -- entry ----------------------------------------------------------------------------------------


async def test_entry_form_post_hands_out_urls_with_explicit_ports(
    make_thermostat: MakeThermostat,
    device_url: str,
    device_server: DeviceServer,
    service: ThermostatService,
) -> None:
    """Production firmware POSTs a form; every URL it gets back carries the port."""
    thermostat = make_thermostat()
    data = await thermostat.entry()

    assert list(data) == [
        "czfe_url",
        "transport_url",
        "direct_transport_url",
        "passphrase_url",
        "ping_url",
        "pro_info_url",
        "weather_url",
        "upload_url",
        "software_update_url",
        "server_version",
        "tier_name",
    ]
    assert data["transport_url"] == f"{device_url}/svc/transport"
    assert data["czfe_url"] == data["direct_transport_url"] == data["transport_url"]
    assert data["passphrase_url"] == f"{device_url}/svc/passphrase"
    assert data["weather_url"] == f"{device_url}/svc/weather/v1?query="
    for name, url in data.items():
        if name.endswith("_url") and url:
            port = url.split("/")[2].rsplit(":", 1)[1]
            assert port == str(device_server.bound_port), name
    assert data["software_update_url"] == ""
    assert data["tier_name"] == "local"
    assert isinstance(data["server_version"], str)
    record = service.devices.record(SERIAL)
    assert record is not None
    assert record.model == "Display-2.0"
    assert record.software_version == "5.9.3-5"
    assert record.mac is not None


async def test_entry_port_is_written_even_for_default_ports(
    http: aiohttp.ClientSession, service: ThermostatService, device_url: str
) -> None:
    """An origin on port 80 still hands out `:80` (the keepalive offload needs it)."""
    service.config.api_origin = "http://thermostats.local"
    async with http.get(f"{device_url}/svc/entry", headers=AUTH) as resp:
        data = await resp.json()
    assert data["transport_url"] == "http://thermostats.local:80/svc/transport"


# -- passphrase -----------------------------------------------------------------------------------


async def test_passphrase_is_reused_while_pending(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    thermostat = make_thermostat()
    first = await thermostat.passphrase()
    second = await thermostat.passphrase()

    assert first == second
    assert len(first["value"]) == 7
    assert first["value"].isalnum()
    assert isinstance(first["expires"], int)
    assert first["expires"] - service.clock.now_ms() >= 30 * 60 * 1000
    status = await thermostat.passphrase_status()
    assert status == {"status": "pending", "claimed": False, "expiresAt": first["expires"]}


async def test_passphrase_expires_as_a_json_number_in_the_raw_body(
    http: aiohttp.ClientSession, device_url: str
) -> None:
    async with http.get(f"{device_url}/svc/passphrase", headers=AUTH) as resp:
        raw = await resp.read()
    assert b'"expires": "' not in raw
    assert b'"expires":"' not in raw
    assert isinstance(json.loads(raw)["expires"], int)


async def test_passphrase_status_walks_no_key_pending_claimed(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    thermostat = make_thermostat()
    status = await thermostat.passphrase_status()
    assert status["status"] == "no_key"
    assert status["claimed"] is False
    assert status["message"]

    code = (await thermostat.passphrase())["value"]
    assert (await thermostat.passphrase_status())["status"] == "pending"

    assert service.pairing.register(code, "alice").success
    status = await thermostat.passphrase_status()
    assert status["status"] == "claimed"
    assert status["claimed"] is True
    assert status["claimedBy"] == "alice"
    assert isinstance(status["claimedAt"], int)


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Basic !!!not-base64"},
        {"Authorization": basic_auth("x")},  # serial too short to be one
        {"Authorization": "Bearer abc"},
    ],
)
async def test_passphrase_without_a_serial_is_400(
    http: aiohttp.ClientSession, device_url: str, headers: dict[str, str]
) -> None:
    for path in ("/svc/passphrase", "/svc/passphrase/status"):
        async with http.get(f"{device_url}{path}", headers=headers) as resp:
            assert resp.status == 400, path
            assert await resp.json() == {"error": "Device serial required"}


async def test_entry_form_that_is_not_text_is_400(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    """A POSTed entry form that is not UTF-8 is refused, and leaves no device behind."""
    async with http.post(
        f"{device_url}/svc/entry", data=b"serial_number=\xff", headers=AUTH
    ) as resp:
        assert resp.status == 400
        assert await resp.json() == {"error": "Invalid form body"}
    assert service.devices.record(SERIAL) is None


async def test_identity_falls_back_to_svc_headers(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    async with http.get(
        f"{device_url}/svc/passphrase", headers={"X-svc-client-id": f"d.{SERIAL}.abc"}
    ) as resp:
        assert resp.status == 200
    async with http.get(
        f"{device_url}/svc/passphrase/status", headers={"X-svc-device-id": SERIAL}
    ) as resp:
        assert (await resp.json())["status"] == "pending"
    assert harness(service).key_status(SERIAL) == "pending"
    assert service.devices.record(SERIAL) is not None


async def test_passphrase_is_503_until_state_is_loaded(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    harness(service).mark_unloaded()
    async with http.get(f"{device_url}/svc/passphrase", headers=AUTH) as resp:
        assert resp.status == 503
        assert await resp.json() == {"error": "Entry key service unavailable"}


async def test_passphrase_saves_only_a_new_code_or_a_new_expiry(
    make_thermostat: MakeThermostat, service: ThermostatService, storage: MemoryStorage
) -> None:
    """A thermostat polls its code every few seconds while on the pairing screen."""
    thermostat = make_thermostat()
    first = await thermostat.passphrase()
    assert storage.data is not None
    assert storage.data["pairing"]["entry_keys"][0]["value"] == first["value"]
    saves = storage.saves

    assert await thermostat.passphrase() == first
    assert storage.saves == saves

    key = harness(service).entry_key(first["value"])
    assert key is not None
    key.expires = shortened = service.clock.now_ms() + 60_000  # under the 30 minutes needed
    extended = await thermostat.passphrase()
    assert extended["value"] == first["value"]
    assert extended["expires"] > shortened
    assert storage.saves == saves + 1
    assert storage.data["pairing"]["entry_keys"][0]["expires"] == extended["expires"]


@pytest.mark.parametrize("path", ["/svc/ping", "/svc/passphrase/status"])
async def test_requests_that_need_no_identity_leave_unknown_serials_no_trace(
    http: aiohttp.ClientSession,
    device_url: str,
    service: ThermostatService,
    storage: MemoryStorage,
    path: str,
) -> None:
    """Made-up serials cannot fill the device records and the repair list."""
    events: list[ServiceEvent] = []
    service.events.listen(events.append)
    saves = storage.saves
    for number in range(20):
        made_up = f"{SERIAL[:-2]}{number:02X}"
        headers = {"Authorization": basic_auth(made_up), "X-svc-protocol-version": "1"}
        async with http.get(f"{device_url}{path}", headers=headers) as resp:
            assert resp.status == 200
    assert service.devices.records() == []
    assert events == []
    assert storage.saves == saves


async def test_ping_refreshes_a_known_thermostat(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    thermostat = make_thermostat()
    await thermostat.entry()
    record = service.devices.record(SERIAL)
    assert record is not None
    record.last_seen = 0
    async with thermostat.http.get(
        f"{thermostat.base_url}/svc/ping", headers=thermostat.headers
    ) as resp:
        assert resp.status == 200
    assert record.last_seen > 0
    assert service.devices.is_available(SERIAL)


# -- subscribe ------------------------------------------------------------------------------------


async def test_subscribe_sends_headers_at_once_and_holds_silently(
    clock: LoopClock, http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    """Nothing newer: headers arrive, no body does, and the connection stays open."""
    listed = {"object_key": f"shared.{SERIAL}", "object_revision": 0, "object_timestamp": 0}
    body = {"chunked": True, "session": "s1", "objects": [listed]}
    async with http.post(f"{device_url}/svc/transport", json=body, headers=AUTH) as resp:
        assert resp.status == 200
        assert resp.headers["Transfer-Encoding"] == "chunked"
        assert resp.headers["X-svc-suspend-time-max"] == "300"
        assert resp.headers["X-svc-defer-device-window"] == "15"
        # Only an immediate push carrying setpoints asks firmware to stop deferring.
        assert "X-svc-disable-defer-window" not in resp.headers
        assert abs(int(resp.headers["X-svc-service-timestamp"]) - service.clock.now_ms()) < 60_000
        assert harness(service).held(SERIAL) == 1
        read = asyncio.ensure_future(resp.content.readany())
        await clock.advance(service.config.hold_timeout - 1)
        assert not read.done(), "the server sent a body while it had nothing newer"
        service.commands.set_temperature(SERIAL, 21)
        chunk = await asyncio.wait_for(read, 5)
        assert json.loads(chunk)["objects"][0]["value"]["target_temperature"] == 21.0


async def test_pushed_bucket_objects_put_revision_and_timestamp_before_key(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    thermostat = make_thermostat(shared={"current_temperature": 19.5})
    thermostat.start()
    chunk = await thermostat.next_chunk()

    (obj,) = pairs(chunk.raw)[0][1]
    assert [name for name, _ in obj] == [
        "object_revision",
        "object_timestamp",
        "object_key",
        "value",
    ]


async def test_inline_update_is_merged_and_sent_back_with_its_revision(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """Revision 0 and timestamp 0 with a value: the device's own data for the server."""
    thermostat = make_thermostat(
        shared={"current_temperature": 19.5, "can_cool": True}, device={"has_fan": True}
    )
    thermostat.start()
    chunk = await thermostat.next_chunk()

    stored = harness(service).bucket(f"shared.{SERIAL}")
    assert stored is not None
    assert stored.value == {"current_temperature": 19.5, "can_cool": True}
    assert stored.revision == 1
    pushed = {obj["object_key"]: obj for obj in chunk.objects}
    assert pushed[f"shared.{SERIAL}"]["object_timestamp"] == stored.timestamp
    assert thermostat.local[f"device.{SERIAL}"].value == {"has_fan": True}


async def test_subscribe_pushes_only_buckets_newer_than_the_device(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    thermostat = make_thermostat(shared={"current_temperature": 19.5}, device={"has_fan": True})
    thermostat.start()
    await thermostat.next_chunk()
    await clock.advance(service.config.batch_window)
    assert await thermostat.closes.get() == 1  # batch window over, device resubscribes

    await thermostat.subscribed.wait()
    service.commands.set_temperature(SERIAL, 22.5)
    chunk = await thermostat.next_chunk()
    assert [obj["object_key"] for obj in chunk.objects] == [f"shared.{SERIAL}"]
    assert chunk.objects[0]["value"]["target_temperature"] == 22.5


async def test_device_with_newer_timestamp_updates_the_server(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    harness(service).report(
        SERIAL, {f"shared.{SERIAL}": {"target_temperature": 20.0}}, source=_device_source()
    )
    server_ts = harness(service).timestamp(f"shared.{SERIAL}")
    body = {
        "chunked": True,
        "session": "s",
        "objects": [
            {
                "object_key": f"shared.{SERIAL}",
                "object_revision": 7,
                "object_timestamp": server_ts + 5000,
                "value": {"target_temperature": 18.0},
            }
        ],
    }
    async with http.post(f"{device_url}/svc/transport", json=body, headers=AUTH) as resp:
        assert resp.status == 200
        await resp.content.readany()
    assert harness(service).value(f"shared.{SERIAL}")["target_temperature"] == 18.0


def _device_source() -> Any:
    from custom_components.thermostat_cloud.server import ChangeSource

    return ChangeSource.DEVICE


async def test_batch_window_collects_later_changes_then_closes(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    service.config.batch_window = 3.0
    thermostat = make_thermostat(shared={"current_temperature": 19.5})
    thermostat.start()
    await thermostat.next_chunk()
    await clock.advance(2.9)
    service.commands.set_temperature(SERIAL, 23)  # inside the window: same connection

    second = await thermostat.next_chunk()
    assert second.objects[0]["value"]["target_temperature"] == 23.0
    await clock.advance(0.1)
    assert await thermostat.closes.get() == 2


async def test_hold_timeout_closes_without_a_body(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """suspend_time_max minus 10 seconds of silence, then a close with no body."""
    thermostat = make_thermostat()
    subscribe = asyncio.create_task(thermostat.subscribe_once())
    await thermostat.subscribed.wait()
    await clock.advance(289)
    assert harness(service).held(SERIAL) == 1
    await clock.advance(1)
    assert await subscribe == 0
    assert thermostat.last_headers["X-svc-suspend-time-max"] == "300"


async def test_change_between_check_and_hold_is_not_lost(
    make_thermostat: MakeThermostat, service: ThermostatService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command landing right after the "anything newer?" check is pushed at once."""
    real_due = harness(service).delivery.due
    fired = False

    def due_then_change(conn: HeldConnection, force: bool) -> Any:
        nonlocal fired
        result = real_due(conn, force)
        if not result and not fired:
            fired = True
            service.commands.set_temperature(SERIAL, 24)
        return result

    monkeypatch.setattr(harness(service).delivery, "due", due_then_change)
    harness(service).report(SERIAL, {f"shared.{SERIAL}": {"can_heat": True}}, _device_source())
    thermostat = make_thermostat()
    thermostat.local[f"shared.{SERIAL}"] = _local(service, f"shared.{SERIAL}")
    thermostat.start()
    chunk = await thermostat.next_chunk(timeout=5)  # hold timeout is 290 s
    assert chunk.objects[0]["value"]["target_temperature"] == 24.0


def _local(service: ThermostatService, key: str) -> Any:
    from thermostat_sim.thermostat import LocalBucket

    bucket = harness(service).bucket(key)
    assert bucket is not None
    return LocalBucket(bucket.revision, bucket.timestamp, dict(bucket.value))


async def test_unknown_bucket_at_timestamp_zero_is_held_not_answered(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """A bucket the server has never seen must not make the device spin."""
    thermostat = make_thermostat()
    thermostat.local["device_alert_dialog." + SERIAL] = _empty()
    thermostat.local["track." + SERIAL] = _empty()
    assert await _held_to_the_end(clock, service, thermostat) == 0
    assert not harness(service).has(f"track.{SERIAL}")


async def _held_to_the_end(
    clock: LoopClock, service: ThermostatService, thermostat: SimulatedThermostat
) -> int:
    """Run one subscribe that the server holds until its hold timeout; return its chunks."""
    subscribe = asyncio.create_task(thermostat.subscribe_once())
    await thermostat.subscribed.wait()
    await clock.advance(service.config.hold_timeout)
    return await subscribe


async def _one_batch(
    clock: LoopClock, service: ThermostatService, thermostat: SimulatedThermostat
) -> list[Chunk]:
    """Run one subscribe that pushes at once and closes after its batch window; its chunks."""
    subscribe = asyncio.create_task(thermostat.subscribe_once())
    chunks = [await thermostat.next_chunk()]
    await thermostat.settled()  # its report of the push, within the window as firmware's
    await clock.advance(service.config.batch_window)
    await subscribe
    while not thermostat.received.empty():
        chunks.append(thermostat.received.get_nowait())
    return chunks


def _empty() -> Any:
    from thermostat_sim.thermostat import LocalBucket

    return LocalBucket()


async def test_new_subscribe_of_same_session_closes_the_stale_one(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    body = {"chunked": True, "session": "same", "objects": []}
    async with (
        http.post(f"{device_url}/svc/transport", json=body, headers=AUTH) as old,
        http.post(f"{device_url}/svc/transport", json=body, headers=AUTH) as new,
    ):
        assert await asyncio.wait_for(old.read(), 5) == b""
        assert new.status == 200
        assert harness(service).held(SERIAL) == 1


async def test_paired_device_gets_user_and_structure_on_every_subscribe(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    thermostat = make_thermostat(shared={"current_temperature": 20.0})
    code = (await thermostat.passphrase())["value"]
    assert service.pairing.register(code).success
    user_key, structure_key, _rooms = harness(service).home_keys(SERIAL)

    first = await _collect_one_subscribe(clock, service, thermostat)
    assert {user_key, structure_key} <= first

    # Firmware that forgot them (factory data wipe) gets them again on the next subscribe.
    del thermostat.local[user_key], thermostat.local[structure_key]
    second = await _collect_one_subscribe(clock, service, thermostat)
    assert second == {user_key, structure_key}
    assert thermostat.local[structure_key].value == {
        "name": "Home",
        "devices": [f"device.{SERIAL}"],
    }
    assert thermostat.local[user_key].value == {"name": harness(service).home_user_id}


async def _collect_one_subscribe(
    clock: LoopClock, service: ThermostatService, thermostat: SimulatedThermostat
) -> set[str]:
    chunks = await _one_batch(clock, service, thermostat)
    return {obj["object_key"] for chunk in chunks for obj in chunk.objects}


async def test_pairing_pushes_user_and_structure_on_the_held_connection(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    thermostat = make_thermostat()
    code = (await thermostat.passphrase())["value"]
    thermostat.start()
    await thermostat.subscribed.wait()

    assert service.pairing.register(code.lower()).success
    chunk = await thermostat.next_chunk()
    # The home's rooms (`where`) only once a thermostat of the home reported them.
    user_key, structure_key, _rooms = harness(service).home_keys(SERIAL)
    assert {obj["object_key"] for obj in chunk.objects} == {user_key, structure_key}


async def held_after_its_first_answer(
    clock: LoopClock, service: ThermostatService, thermostat: SimulatedThermostat
) -> None:
    """Start the thermostat: its first subscribe is answered and closed, the next one held."""
    thermostat.start()
    await thermostat.next_chunk()
    await clock.advance(service.config.batch_window)
    assert await thermostat.closes.get() == 1
    await thermostat.subscribed.wait()


async def test_notify_device_forces_a_push_of_stored_buckets(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    thermostat = make_thermostat(shared={"current_temperature": 20.0})
    await held_after_its_first_answer(clock, service, thermostat)

    assert service.delivery.notify(SERIAL) == 1
    chunk = await thermostat.next_chunk()
    assert [obj["object_key"] for obj in chunk.objects] == [f"shared.{SERIAL}"]


# -- put ------------------------------------------------------------------------------------------


async def test_put_bucket_keyed_form_merges_and_answers_without_value(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    key = f"shared.{SERIAL}"
    body: dict[str, Any] = {
        "session": "s",
        key: {"object_key": key, "base_object_revision": 0, "current_temperature": 20.5},
    }
    async with http.post(f"{device_url}/svc/transport/put", json=body, headers=AUTH) as resp:
        assert resp.status == 200
        assert resp.content_type == "application/json"
        raw = await resp.read()
    (obj,) = pairs(raw)[0][1]
    assert [name for name, _ in obj] == ["object_revision", "object_timestamp", "object_key"]
    assert harness(service).value(key) == {"current_temperature": 20.5}

    body[key]["target_temperature"] = 21.0
    del body[key]["current_temperature"]
    status, data = await post_json(http, f"{device_url}/svc/transport/put", body)
    assert status == 200
    assert "value" not in data["objects"][0]
    assert data["objects"][0]["object_revision"] == 2
    assert harness(service).value(key) == {"current_temperature": 20.5, "target_temperature": 21.0}


async def test_put_objects_form_and_unchanged_values_keep_revision(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    key = f"device.{SERIAL}"
    body = {
        "session": "s",
        "objects": [{"object_key": key, "base_object_revision": 0, "value": {"has_fan": True}}],
    }
    _, first = await post_json(http, f"{device_url}/svc/transport/put", body)
    _, again = await post_json(http, f"{device_url}/svc/transport/put", body)
    assert first == again
    assert first["objects"][0]["object_revision"] == 1


async def test_put_guarded_by_a_stale_revision_does_not_overwrite(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    key = f"shared.{SERIAL}"
    thermostat = make_thermostat()
    await thermostat.put(key, {"target_temperature": 20.0}, guard=True)
    service.commands.set_temperature(SERIAL, 22)  # the device has not seen this yet

    data = await thermostat.put(key, {"target_temperature": 19.0}, guard=True)
    assert harness(service).value(key)["target_temperature"] == 22.0
    assert data["objects"][0]["object_revision"] == 2


async def test_put_does_not_notify_held_connections(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """The device already has what it PUT; a later server push does not echo it either."""
    thermostat = make_thermostat(shared={"current_temperature": 20.0})
    await held_after_its_first_answer(clock, service, thermostat)

    await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 20.5})
    await thermostat.put(f"device.{SERIAL}", {"has_fan": True})
    service.commands.set_mode(SERIAL, "off")
    chunk = await thermostat.next_chunk()
    assert [obj["object_key"] for obj in chunk.objects] == [f"shared.{SERIAL}"]
    assert chunk.objects[0]["value"]["target_temperature_type"] == "off"


# -- listing and the other endpoints ------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        f"/svc/transport/device/{SERIAL}",
        f"/svc/transport/device/device.{SERIAL}",
        f"/svc/transport/v7/device/device.{SERIAL}",
    ],
)
async def test_device_listing_forms(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService, path: str
) -> None:
    """Each form of listing a device's buckets firmware sends gets the listing, without values."""
    harness(service).report(
        SERIAL,
        {f"shared.{SERIAL}": {"a": 1}, f"device.{SERIAL}": {"b": 2}},
        _device_source(),
    )
    async with http.get(f"{device_url}{path}") as resp:
        assert resp.status == 200
        assert resp.headers["X-svc-suspend-time-max"] == "300"
        assert "X-svc-service-timestamp" in resp.headers
        assert "X-svc-defer-device-window" in resp.headers
        data = await resp.json()
    assert sorted(obj["object_key"] for obj in data["objects"]) == [
        f"device.{SERIAL}",
        f"shared.{SERIAL}",
    ]
    assert all("value" not in obj for obj in data["objects"])


async def test_device_listing_without_serial_is_400(
    http: aiohttp.ClientSession, device_url: str
) -> None:
    for path in ("/svc/transport/device/", "/svc/transport/device/device."):
        async with http.get(f"{device_url}{path}") as resp:
            assert resp.status == 400
            assert await resp.json() == {"error": "Serial required"}


async def test_ping_pro_info_weather_and_upload_answer_offline(
    http: aiohttp.ClientSession, device_url: str
) -> None:
    for path in ("/svc/ping", "/svc/pro_info", "/svc/weather/v1?query=US,94043"):
        async with http.get(f"{device_url}{path}", headers=AUTH) as resp:
            assert resp.status == 200, path
            assert isinstance(await resp.json(), dict)
    async with http.post(
        f"{device_url}/svc/upload", data=b"\x00log" * 10_000, headers=AUTH
    ) as resp:
        assert resp.status == 200


async def test_an_upload_over_the_limit_is_400(
    http: aiohttp.ClientSession, device_url: str
) -> None:
    """Log uploads are read and dropped, but not without end: over 8 MiB is refused."""
    async with http.post(
        f"{device_url}/svc/upload", data=b"\x00" * (8 * 1024 * 1024 + 1), headers=AUTH
    ) as resp:
        assert resp.status == 400
        assert await resp.json() == {"error": "Upload too large"}


async def test_unknown_path_is_a_json_404(http: aiohttp.ClientSession, device_url: str) -> None:
    async with http.get(f"{device_url}/svc/nope") as resp:
        assert resp.status == 404
        assert "error" in await resp.json()


async def test_a_bug_in_a_handler_is_a_json_500_and_a_logged_traceback(
    http: aiohttp.ClientSession,
    service: ThermostatService,
    device_url: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An unexpected error reaches the thermostat as JSON, and the log says where it happened."""

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(harness(service).availability, "note_contact", broken)
    async with http.get(f"{device_url}/svc/entry", headers=AUTH) as resp:
        assert resp.status == 500
        assert await resp.json() == {"error": "Internal server error"}
    (record,) = (
        r for r in caplog.records if r.getMessage() == "Unexpected error in GET /svc/entry"
    )
    assert record.exc_info is not None
    assert str(record.exc_info[1]) == "a bug"


async def test_a_method_the_path_does_not_take_is_a_json_405(
    http: aiohttp.ClientSession, device_url: str
) -> None:
    """A client sending the wrong method reads the error as JSON, like every other error."""
    async with http.delete(f"{device_url}/svc/transport/put", headers=AUTH) as resp:
        assert resp.status == 405
        assert await resp.json() == {"error": "Method Not Allowed"}


# -- bad input ------------------------------------------------------------------------------------


BAD_SUBSCRIBES: list[Any] = [
    b"{not json",
    b"[]",
    {"objects": "nope"},
    {"objects": [1]},
    {"objects": [{"object_key": 5}]},
    {"objects": [{"object_key": "nodot"}]},
    {"objects": [{"object_key": f"shared.{SERIAL}", "object_revision": "1"}]},
    {"objects": [{"object_key": f"shared.{SERIAL}", "object_timestamp": -1}]},
    {"objects": [{"object_key": f"shared.{SERIAL}", "object_revision": True}]},
    {"objects": [{"object_key": f"shared.{SERIAL}", "value": [1]}]},
    {"objects": [], "session": 5},
    {"objects": [{"object_key": f"shared.{SERIAL}"}] * 65},
]


@pytest.mark.parametrize("body", BAD_SUBSCRIBES)
async def test_malformed_subscribe_is_400_without_state_change(
    http: aiohttp.ClientSession,
    device_url: str,
    service: ThermostatService,
    body: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    before = harness(service).stored_buckets()
    kwargs: dict[str, Any] = {"data": body} if isinstance(body, bytes) else {"json": body}
    caplog.set_level("DEBUG")
    async with http.post(f"{device_url}/svc/transport", headers=AUTH, **kwargs) as resp:
        assert resp.status == 400
        assert isinstance((await resp.json())["error"], str)
    assert harness(service).stored_buckets() == before
    assert harness(service).held(SERIAL) == 0
    assert "Rejected POST /svc/transport" in caplog.text
    assert "Traceback" not in caplog.text


BAD_PUTS: list[Any] = [
    b"\xff\xfe",
    {"session": "s"},
    {"session": "s", "objects": {}},
    {"session": "s", "objects": [{"object_key": f"shared.{SERIAL}", "value": 3}]},
    {"session": "s", "objects": [{"value": {}}]},
    {"session": "s", f"shared.{SERIAL}": 4},
    {"session": "s", f"shared.{SERIAL}": {"object_key": f"device.{SERIAL}"}},
    {"session": "s", f"shared.{SERIAL}": {"if_object_revision": "x", "a": 1}},
    {"session": "s", f"shared.{SERIAL}": {"if_object_revision": 2**31, "a": 1}},
    {"session": "s", f"shared.{SERIAL}": {"base_object_revision": "x", "a": 1}},
    {"session": "s", "objects": [3]},
    {"session": "s", "objects": [{"object_key": f"shared.{SERIAL}", "value": {"a": 1}}] * 65},
]


@pytest.mark.parametrize("body", BAD_PUTS)
async def test_malformed_put_is_400_without_state_change(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService, body: Any
) -> None:
    kwargs: dict[str, Any] = {"data": body} if isinstance(body, bytes) else {"json": body}
    async with http.post(f"{device_url}/svc/transport/put", headers=AUTH, **kwargs) as resp:
        assert resp.status == 400
        assert isinstance((await resp.json())["error"], str)
    assert harness(service).stored_buckets() == {}


@pytest.mark.parametrize("length_given", [True, False])
async def test_oversized_body_is_400(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService, length_given: bool
) -> None:
    """An oversized body is refused, whether it says its length or streams without one."""
    huge = json.dumps({"session": "s", f"shared.{SERIAL}": {"blob": "x" * 400_000}}).encode()

    async def stream() -> AsyncIterator[bytes]:  # chunked: no Content-Length to go by
        for start in range(0, len(huge), 65_536):
            yield huge[start : start + 65_536]

    async with http.post(
        f"{device_url}/svc/transport/put", data=huge if length_given else stream(), headers=AUTH
    ) as resp:
        assert resp.status == 400
        assert await resp.json() == {"error": "Request body too large"}
    assert harness(service).stored_buckets() == {}


async def test_put_and_subscribe_without_serial_are_400(
    http: aiohttp.ClientSession, device_url: str
) -> None:
    for path in ("/svc/transport", "/svc/transport/put"):
        async with http.post(f"{device_url}{path}", json={"objects": []}) as resp:
            assert resp.status == 400
            assert await resp.json() == {"error": "Device serial required"}


# -- shutdown and persistence ---------------------------------------------------------------------


async def test_stop_closes_held_long_polls_and_releases_the_port(
    make_thermostat: MakeThermostat, device_server: DeviceServer
) -> None:
    thermostats = [make_thermostat(f"02AA01AC3314{i:04d}") for i in range(5)]
    for thermostat in thermostats:
        thermostat.start()
    for thermostat in thermostats:
        await thermostat.subscribed.wait()
    port = device_server.bound_port
    assert port is not None

    loop = asyncio.get_running_loop()
    started = loop.time()
    await stop_serving(device_server)
    assert loop.time() - started < 2
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", port)
    server.close()
    await server.wait_closed()


async def test_state_survives_a_restart(
    make_thermostat: MakeThermostat, device_server: DeviceServer, service: ThermostatService
) -> None:
    from .conftest import MemoryStorage

    thermostat = make_thermostat()
    code = (await thermostat.passphrase())["value"]
    await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 20.5})
    service.pairing.register(code)
    service.commands.set_temperature(SERIAL, 21.5)
    await stop_serving(device_server)

    storage = harness(service).storage
    assert isinstance(storage, MemoryStorage)
    again = ThermostatService(service.config, MemoryStorage(storage.data))
    await again.async_load()
    assert harness(again).value(f"shared.{SERIAL}") == {
        "current_temperature": 20.5,
        "target_temperature": 21.5,
        "target_change_pending": True,
    }
    assert again.pairing.is_paired(SERIAL)
    assert harness(again).home_keys(SERIAL) == harness(service).home_keys(SERIAL)
    assert again.devices.record(SERIAL) is not None
    assert harness(again).bucket(f"shared.{SERIAL}") == harness(service).bucket(f"shared.{SERIAL}")


async def test_unpaired_thermostat_is_announced_once(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    from custom_components.thermostat_cloud.server import EventKind

    announced: list[ServiceEvent] = []
    service.events.listen(
        lambda event: announced.append(event) if event.kind is EventKind.UNPAIRED_CONTACT else None
    )
    thermostat = make_thermostat()
    await thermostat.entry()
    code = (await thermostat.passphrase())["value"]
    await thermostat.passphrase_status()
    await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 20.0})
    assert [event.serial for event in announced] == [SERIAL]

    assert service.pairing.register(code).success
    await thermostat.passphrase()
    assert len(announced) == 1
    assert service.pairing.unpair(SERIAL)
    await thermostat.passphrase()  # unpaired again: worth telling the user again
    assert len(announced) == 2


async def test_thermostat_without_a_subscribe_goes_unavailable_after_the_grace(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """Contact of any kind makes a thermostat available; silence ends it."""
    from custom_components.thermostat_cloud.server import EventKind

    connection_events: asyncio.Queue[ServiceEvent] = asyncio.Queue()
    service.events.listen(
        lambda event: (
            connection_events.put_nowait(event) if event.kind is EventKind.CONNECTION else None
        )
    )
    thermostat = make_thermostat()
    assert not service.devices.is_available(SERIAL)
    await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 20.0})
    await asyncio.wait_for(connection_events.get(), 5)
    assert service.devices.is_available(SERIAL)

    await clock.advance(service.config.availability_grace - 1)
    assert service.devices.is_available(SERIAL)
    await clock.advance(2)
    await asyncio.wait_for(connection_events.get(), 5)
    assert not service.devices.is_available(SERIAL)


# -- delivery of server changes across PUTs ------------------------------------------------------


async def test_command_between_subscribes_survives_a_device_put(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """A setpoint set between two subscribes reaches the thermostat even if it PUTs in between.

    The PUT answer gives the device the server's newest timestamp; the setpoint it has not
    seen must still reach it.
    """
    key = f"shared.{SERIAL}"
    thermostat = make_thermostat()
    await thermostat.put(key, {"current_temperature": 20.0, "target_temperature": 20.0})
    service.commands.set_temperature(SERIAL, 23)  # no subscribe held right now
    await thermostat.put(key, {"current_temperature": 20.5})

    assert len(await _one_batch(clock, service, thermostat)) == 1
    assert thermostat.local[key].value["target_temperature"] == 23.0
    assert thermostat.local[key].timestamp == harness(service).timestamp(key)
    # Delivered once: the next subscribe has nothing to send.
    service.config.suspend_time_max = 11  # a 1 s hold, before any resend is due
    assert await _held_to_the_end(clock, service, thermostat) == 0


async def test_put_while_holding_with_an_unsent_change_pushes_it_at_once(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    key = f"shared.{SERIAL}"
    thermostat = make_thermostat(shared={"target_temperature": 20.0})
    await held_after_its_first_answer(clock, service, thermostat)
    # A change the held connection missed (as if it landed during a reconnect).
    harness(service).delivery.mark_undelivered(SERIAL, [key])
    harness(service).merge(key, {"target_temperature": 24.0})

    await thermostat.put(key, {"current_temperature": 21.0})
    pushed = await thermostat.next_object(key)
    assert pushed["value"]["target_temperature"] == 24.0


async def test_home_bucket_put_by_one_device_reaches_the_others(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    first, second = make_thermostat(SERIAL), make_thermostat(OTHER_SERIAL)
    for thermostat in (first, second):
        assert service.pairing.register((await thermostat.passphrase())["value"]).success
    structure_key = harness(service).home_keys(SERIAL)[1]
    second.start()
    await second.next_object(structure_key)  # the pairing push
    await clock.advance(service.config.batch_window)
    assert await second.closes.get() >= 1
    await second.subscribed.wait()

    await first.put(structure_key, {"away": True})
    pushed = await second.next_object(structure_key)
    assert pushed["value"]["away"] is True


# -- numbers firmware cannot read ----------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b'{"session":"s","shared.02AA01AC331400AB":{"current_temperature":NaN}}',
        b'{"session":"s","shared.02AA01AC331400AB":{"current_temperature":Infinity}}',
        b'{"session":"s","shared.02AA01AC331400AB":{"current_temperature":-Infinity}}',
        b"[" * 100_000,
        # Values Home Assistant's storage could not write: one would stop every later save.
        b'{"session":"s","shared.02AA01AC331400AB":{"current_temperature":1e400}}',
        b'{"session":"s","shared.02AA01AC331400AB":{"n":18446744073709551616}}',
        b'{"session":"s","shared.02AA01AC331400AB":{"n":-9223372036854775809}}',
        b'{"session":"s","shared.02AA01AC331400AB":{"n":' + b"[" * 40 + b"]" * 40 + b"}}",
    ],
)
async def test_non_json_numbers_and_deep_nesting_are_400(
    http: aiohttp.ClientSession,
    device_url: str,
    service: ThermostatService,
    raw: bytes,
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with http.post(f"{device_url}/svc/transport/put", data=raw, headers=AUTH) as resp:
        assert resp.status == 400
        assert await resp.json() == {"error": "Invalid JSON body"}
    assert harness(service).stored_buckets() == {}
    assert "Traceback" not in caplog.text


async def test_an_integer_too_large_for_a_float_reads_as_no_value(
    service: ThermostatService,
) -> None:
    """A number too large for a float reads as no value instead of breaking the read model.

    Numbers the thermostat could never have sent (the PUT refuses them, and so does the
    store) still cannot break the read model if state in memory holds one.
    """
    from custom_components.thermostat_cloud.server import CommandError
    from custom_components.thermostat_cloud.server.control.status import status_record
    from custom_components.thermostat_cloud.server.model.buckets import Bucket
    from custom_components.thermostat_cloud.server.model.records import UnstorableError

    huge = 10**400
    key = f"shared.{SERIAL}"
    with pytest.raises(UnstorableError):
        harness(service).merge(key, {"current_temperature": huge})
    assert not harness(service).has(key)
    harness(service).restore([Bucket(key, 1, 1, {"current_temperature": huge})])
    assert service.thermostat(SERIAL).current_temperature is None
    assert status_record(service, SERIAL)["current_temperature"] is None
    with pytest.raises(CommandError, match="must be a number"):
        service.commands.set_temperature(SERIAL, huge)
    # Home Assistant's storage could not write it (the stop at teardown saves).
    harness(service).remove(key)


async def test_thermostat_seen_before_a_restart_goes_unavailable_if_it_never_returns(
    clock: LoopClock,
    make_thermostat: MakeThermostat,
    device_server: DeviceServer,
    service: ThermostatService,
) -> None:
    from custom_components.thermostat_cloud.server import EventKind

    from .conftest import MemoryStorage

    thermostat = make_thermostat()
    await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 20.0})
    await stop_serving(device_server)
    storage = harness(service).storage
    assert isinstance(storage, MemoryStorage)

    restarted = ThermostatService(service.config, MemoryStorage(storage.data))
    await restarted.async_load()
    connection_events: asyncio.Queue[ServiceEvent] = asyncio.Queue()
    restarted.events.listen(
        lambda event: (
            connection_events.put_nowait(event) if event.kind is EventKind.CONNECTION else None
        )
    )
    restarted_server = await start_serving(restarted)
    try:
        assert restarted.devices.is_available(SERIAL)
        await clock.advance(service.config.availability_grace + 1)
        event = await asyncio.wait_for(connection_events.get(), 5)
        assert event.serial == SERIAL
        assert not restarted.devices.is_available(SERIAL)
    finally:
        await stop_serving(restarted_server)


async def test_inline_value_of_an_unknown_bucket_type_does_not_refuse_the_subscribe(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """Firmware with a bucket type the server does not keep still gets its connection."""
    thermostat = make_thermostat(shared={"current_temperature": 20.0}, widget_track={"x": 1})
    thermostat.start()
    chunk = await thermostat.next_chunk()
    assert [obj["object_key"] for obj in chunk.objects] == [f"shared.{SERIAL}"]
    assert not harness(service).has(f"widget_track.{SERIAL}")


async def test_put_answer_lists_each_bucket_once(
    http: aiohttp.ClientSession, device_url: str
) -> None:
    key = f"shared.{SERIAL}"
    body = {
        "session": "s",
        "objects": [
            {"object_key": key, "value": {"a": 1}},
            {"object_key": key, "value": {"b": 2}},
        ],
    }
    status, data = await post_json(http, f"{device_url}/svc/transport/put", body)
    assert status == 200
    assert [obj["object_key"] for obj in data["objects"]] == [key]


async def test_a_closed_hold_is_not_contact(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """A thermostat that lost power is noticed: a closing hold does not count as contact.

    A thermostat that lost power is noticed when its silent hold ends: the close does not
    count as a request (last_seen stays), only as a short resubscribe grace.
    """
    from custom_components.thermostat_cloud.server import EventKind

    connection_events: asyncio.Queue[ServiceEvent] = asyncio.Queue()
    service.events.listen(
        lambda event: (
            connection_events.put_nowait(event) if event.kind is EventKind.CONNECTION else None
        )
    )
    thermostat = make_thermostat()
    assert await _held_to_the_end(clock, service, thermostat) == 0
    record = service.devices.record(SERIAL)
    assert record is not None
    # Set when the hold began, longer ago than the request grace.
    assert service.clock.now_ms() - record.last_seen >= service.config.hold_timeout * 1000
    assert service.config.hold_timeout > service.config.availability_grace
    assert service.devices.is_available(SERIAL)  # resubscribe grace

    await clock.advance(service.config.resubscribe_grace + 1)
    while service.devices.is_available(SERIAL):
        await asyncio.wait_for(connection_events.get(), 5)


async def test_an_ended_subscribe_is_freed_without_the_cycle_collector(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """Every subscribe ends (batch window, hold timeout) and firmware opens the next at once.

    What an ended one held (request, response, handler task) must go when it ends: left in a
    reference cycle it would wait for the cycle collector, whose full runs over a large Home
    Assistant heap stall the event loop for tenths of a second.
    """
    thermostat = make_thermostat(shared={"current_temperature": 19.5})
    gc.collect()
    gc.disable()
    try:
        thermostat.start()
        await thermostat.next_chunk()  # the boot subscribe ends after its batch window
        await clock.advance(service.config.batch_window)
        await thermostat.closes.get()
        service.commands.set_temperature(SERIAL, 23)
        await thermostat.next_chunk()  # pushed on the next one, which ends the same way
        await clock.advance(service.config.batch_window)
        await thermostat.closes.get()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = [
            type(o).__name__
            for o in gc.garbage
            if isinstance(o, HeldConnection | web.StreamResponse)
        ]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []
