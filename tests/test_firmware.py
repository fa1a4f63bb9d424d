"""What flashed thermostats really do, beyond the spec's wording, over real TCP.

Each test names a habit of the firmware (see "What real firmware does" in
docs/device-protocol.md for the sources) and checks the server meets it.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Awaitable, Callable
import json
import time
from typing import Any

import aiohttp
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.climate.const import (
    ATTR_PRESET_MODE,
    SERVICE_SET_PRESET_MODE,
    SERVICE_SET_TEMPERATURE,
)
from homeassistant.const import ATTR_TEMPERATURE
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
import pytest

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server import (
    DeviceServer,
    ServiceEvent,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.events import ChangeSource
from custom_components.thermostat_cloud.server.core.read.command_errors import CommandError
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import SimulatedThermostat, basic_auth
from thermostat_sim.thermostat import LocalBucket

from .conftest import OTHER_SERIAL, SERIAL, LoopClock, PairedThermostat, PairThermostat
from .serving import start_serving, stop_serving

type MakeThermostat = Callable[..., SimulatedThermostat]

AUTH = {"Authorization": basic_auth(SERIAL), "X-svc-protocol-version": "1"}
PROTOCOL_HEADERS = (
    "X-svc-suspend-time-max",
    "X-svc-service-timestamp",
    "X-svc-defer-device-window",
    "X-nl-suspend-time-max",
    "X-nl-service-timestamp",
    "X-nl-defer-device-window",
)


# -- paths ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", ["", "/svc", "/nest"])
@pytest.mark.parametrize("method", ["GET", "POST"])
async def test_entry_is_served_where_firmware_appends_it(
    http: aiohttp.ClientSession, device_url: str, prefix: str, method: str
) -> None:
    """Firmware appends `/entry` to the endpoint it was given, with or without `/svc`."""
    async with http.request(method, f"{device_url}{prefix}/entry", headers=AUTH) as resp:
        assert resp.status == 200
        data = await resp.json()
    assert data["transport_url"] == f"{device_url}/svc/transport"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/passphrase"),
        ("GET", "/passphrase/status"),
        ("GET", "/ping"),
        ("GET", "/pro_info"),
        ("GET", "/pro_info/ABC1234"),
        ("GET", "/svc/pro_info/ABC1234"),
        ("GET", f"/transport/device/{SERIAL}"),
        ("GET", f"/transport/v7/device/device.{SERIAL}"),
        ("POST", "/upload"),
    ],
)
async def test_unprefixed_device_paths_reach_the_same_handlers(
    http: aiohttp.ClientSession, device_url: str, method: str, path: str
) -> None:
    async with http.request(method, f"{device_url}{path}", headers=AUTH) as resp:
        assert resp.status == 200, path
        assert isinstance(await resp.json(), dict)


@pytest.mark.parametrize("transport", ["/svc/transport", "/transport", "/czfe"])
async def test_subscribe_is_served_on_the_v7_and_bare_paths(
    make_thermostat: MakeThermostat, device_url: str, transport: str
) -> None:
    """Firmware subscribes at `<transport_url>/v7/subscribe`, prefixed or not."""
    thermostat = make_thermostat(shared={"current_temperature": 19.5})
    thermostat.transport_url = f"{device_url}{transport}"
    assert thermostat.subscribe_url.endswith(f"{transport}/v7/subscribe")
    thermostat.start()
    chunk = await thermostat.next_chunk()
    assert chunk.objects[0]["object_key"] == f"shared.{SERIAL}"


@pytest.mark.parametrize(
    "path", ["/svc/transport/v7/put", "/transport/v7/put", "/transport/put", "/czfe/v5/put"]
)
async def test_put_is_served_on_the_v7_and_bare_paths(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService, path: str
) -> None:
    key = f"shared.{SERIAL}"
    body = {"session": "s", key: {"object_key": key, "current_temperature": 20.5}}
    async with http.post(f"{device_url}{path}", json=body, headers=AUTH) as resp:
        assert resp.status == 200
        assert (await resp.json())["objects"][0]["object_key"] == key
    assert harness(service).value(key)["current_temperature"] == 20.5


# -- protocol headers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/svc/transport/put", {"session": "s", f"shared.{SERIAL}": {"a": 1}}),
        ("GET", "/svc/entry", None),
        ("GET", "/svc/passphrase", None),
        ("GET", "/svc/ping", None),
        ("POST", "/svc/transport/put", {"session": 5}),
        ("GET", "/svc/nope", None),
    ],
)
async def test_every_device_response_carries_the_protocol_headers(
    http: aiohttp.ClientSession, service: ThermostatService, method: str, path: str, body: Any
) -> None:
    """Without `X-svc-suspend-time-max` firmware falls back to a much longer sleep."""
    device_url = service.config.api_origin
    async with http.request(method, f"{device_url}{path}", json=body, headers=AUTH) as resp:
        for name in PROTOCOL_HEADERS:
            assert name in resp.headers, (path, resp.status, name)
        assert resp.headers["X-svc-suspend-time-max"] == str(service.config.suspend_time_max)


# -- revisions --------------------------------------------------------------------------------------


async def test_a_thermostat_listing_negative_revisions_connects(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """Bucket history from another server carries signed 32-bit revisions, negative too."""
    thermostat = make_thermostat(shared={"current_temperature": 19.5})
    local = thermostat.local[f"shared.{SERIAL}"]
    local.revision, local.timestamp = -1_794_027_153, 1_700_000_000_000
    harness(service).report(
        SERIAL,
        {f"shared.{SERIAL}": {"target_temperature": 21.0}},
        ChangeSource.SERVER,
    )
    thermostat.start()
    obj = await thermostat.next_object(f"shared.{SERIAL}")
    assert obj["value"]["target_temperature"] == 21.0


@pytest.mark.parametrize("revision", [-(2**31) - 1, 2**31])
async def test_revisions_outside_int32_are_refused(
    http: aiohttp.ClientSession, device_url: str, revision: int
) -> None:
    key = f"shared.{SERIAL}"
    body = {
        "chunked": True,
        "session": "s",
        "objects": [{"object_key": key, "object_revision": revision, "object_timestamp": 1}],
    }
    async with http.post(f"{device_url}/svc/transport", json=body, headers=AUTH) as resp:
        assert resp.status == 400
        assert "32-bit" in (await resp.json())["error"]


@pytest.mark.parametrize("user_id", ["d.{serial}.x1", "nest.{serial}", "{serial}"])
async def test_every_basic_user_id_form_firmware_sends_identifies_it(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService, user_id: str
) -> None:
    token = base64.b64encode(f"{user_id.format(serial=SERIAL)}:pw".encode()).decode()
    async with http.get(
        f"{device_url}/passphrase", headers={"Authorization": f"Basic {token}"}
    ) as resp:
        assert resp.status == 200
    assert harness(service).key_status(SERIAL).value == "pending"


# -- PUTs, bucket by bucket -------------------------------------------------------------------------


async def test_a_batched_put_keeps_each_bucket_on_its_own(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    """Buckets firmware batches with ours are acknowledged and dropped, without losing ours.

    Firmware batches buckets the server does not keep with the ones it does: those are
    acknowledged (so firmware stops resending them) and dropped; the change beside them holds.
    """
    shared, device = f"shared.{SERIAL}", f"device.{SERIAL}"
    ignored = ["where.6f1c2f36-0000-4000-8000-00000000abcd", f"occupancy.{SERIAL}", "message.17"]
    body: dict[str, Any] = {
        "session": "s",
        shared: {"object_key": shared, "target_temperature": 19.0},
        device: {"object_key": device, "base_object_revision": -12, "leaf": True},
    }
    for key in ignored:
        body[key] = {"object_key": key, "base_object_revision": -23671, "x": 1}
    async with http.post(f"{device_url}/transport/v7/put", json=body, headers=AUTH) as resp:
        assert resp.status == 200
        answer = await resp.json()
    assert [obj["object_key"] for obj in answer["objects"]] == [shared, device, *ignored]
    for obj in answer["objects"]:
        assert list(obj) == ["object_revision", "object_timestamp", "object_key"]
    assert answer["objects"][2]["object_revision"] == -23670
    assert harness(service).value(shared)["target_temperature"] == 19.0
    assert harness(service).value(device)["leaf"] is True
    for key in ignored:
        assert not harness(service).has(key)


async def test_another_devices_bucket_is_refused_beside_the_devices_own(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    other = f"shared.{OTHER_SERIAL}"
    harness(service).report(
        OTHER_SERIAL, {other: {"target_temperature": 21.0}}, ChangeSource.DEVICE
    )
    own = f"device.{SERIAL}"
    body = {"session": "s", own: {"has_fan": True}, other: {"target_temperature": 9.0}}
    async with http.post(f"{device_url}/svc/transport/put", json=body, headers=AUTH) as resp:
        assert resp.status == 200
        assert [o["object_key"] for o in (await resp.json())["objects"]] == [own]
    assert harness(service).value(own) == {"has_fan": True}
    assert harness(service).value(other) == {"target_temperature": 21.0}

    only_other = {"session": "s", other: {"target_temperature": 9.0}}
    async with http.post(f"{device_url}/svc/transport/put", json=only_other, headers=AUTH) as resp:
        assert resp.status == 400
    assert harness(service).value(other) == {"target_temperature": 21.0}


async def test_another_devices_bucket_listed_inline_is_left_out_not_the_subscribe(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    other = f"shared.{OTHER_SERIAL}"
    harness(service).report(
        OTHER_SERIAL, {other: {"target_temperature": 21.0}}, ChangeSource.DEVICE
    )
    thermostat = make_thermostat(shared={"current_temperature": 20.0})
    thermostat.local[other] = LocalBucket(value={"target_temperature": 5.0})
    thermostat.start()
    chunk = await thermostat.next_chunk()
    assert [obj["object_key"] for obj in chunk.objects] == [f"shared.{SERIAL}"]
    assert harness(service).value(other) == {"target_temperature": 21.0}


# -- conflicts --------------------------------------------------------------------------------------


async def test_a_conflicting_dial_turn_is_kept_and_retried_not_overwritten(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A dial turn that crosses a push from Home Assistant wins, as the user at the wall expects.

    The user turns the dial while Home Assistant changes the setpoint: the PUT (guarded by
    the revision the thermostat had) crosses the push. The server answers its revision
    without value and pushes nothing over the dial turn; the thermostat's retry wins.
    """
    thermostat, key = paired.thermostat, f"shared.{SERIAL}"
    thermostat.acknowledge_pushes = False
    stale = thermostat.local[key].revision
    await paired.climate(SERVICE_SET_TEMPERATURE, temperature=22)
    await paired.pushed("shared", target_temperature=22.0)
    server = harness(paired.service).bucket(key)
    assert server is not None

    crossing = {
        "session": thermostat.session_id,
        key: {"object_key": key, "if_object_revision": stale, "target_temperature": 19.0},
    }
    async with thermostat.http.post(
        thermostat.put_url, json=crossing, headers=thermostat.headers
    ) as resp:
        answer = await resp.json()
    assert answer == {"objects": [server.descriptor()]}  # no value: the device keeps 19
    assert harness(paired.service).value(key)["target_temperature"] == 22.0

    # The thermostat retries against the revision it was answered, and wins.
    retry = {
        "session": thermostat.session_id,
        key: {
            "object_key": key,
            "if_object_revision": answer["objects"][0]["object_revision"],
            "target_temperature": 19.0,
        },
    }
    async with thermostat.http.post(
        thermostat.put_url, json=retry, headers=thermostat.headers
    ) as resp:
        assert resp.status == 200
    await hass.async_block_till_done()
    state = hass.states.get(paired.entity_id("climate"))
    assert state is not None
    assert state.attributes[ATTR_TEMPERATURE] == 19.0

    # Nothing was pushed over the dial turn: the next push is the next change, not 22.
    paired.service.commands.set_eco_temperatures(SERIAL, 12, 28)
    chunk = await thermostat.next_chunk()
    assert [obj["object_key"] for obj in chunk.objects] == [f"device.{SERIAL}"]


async def test_the_simulator_retries_a_put_that_lost_a_race(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """The simulator retries a PUT that lost a race, as firmware does.

    Firmware habit in the simulator: a guarded PUT answered with a revision that is not
    the next after its guard (or not newer than what it has) is PUT again.
    """
    key = f"shared.{SERIAL}"
    thermostat = make_thermostat()
    await thermostat.put(key, {"target_temperature": 20.0})
    service.commands.set_temperature(SERIAL, 22)
    service.commands.set_temperature(SERIAL, 23)  # two server changes the device missed
    await thermostat.turn_dial(18.5)
    assert harness(service).value(key)["target_temperature"] == 18.5


# -- setpoints wake the display ---------------------------------------------------------------------


async def test_a_setpoint_push_wakes_the_display_and_firmware_acknowledges_it(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    key = f"shared.{SERIAL}"
    thermostat = make_thermostat(shared={"target_temperature": 20.0}, device={"has_fan": True})
    thermostat.start()
    await thermostat.next_chunk()
    await thermostat.subscribed.wait()
    service.commands.set_temperature(SERIAL, 21)
    pushed = await thermostat.next_object(key)
    assert pushed["value"]["target_change_pending"] is True
    # The thermostat's acknowledgement lands (a device PUT: not pushed back to it).
    await device_change(service, key, "target_change_pending", False)
    service.commands.set_eco(SERIAL, True)
    chunk = await thermostat.next_chunk()
    assert [obj["object_key"] for obj in chunk.objects] == [f"device.{SERIAL}"]


async def test_disable_defer_window_rides_only_on_an_immediate_setpoint_push(
    clock: LoopClock, http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    key = f"shared.{SERIAL}"
    harness(service).report(SERIAL, {key: {"current_temperature": 20.0}}, ChangeSource.DEVICE)
    listed = {"object_key": key, "object_revision": 0, "object_timestamp": 1}
    body = {"chunked": True, "session": "s", "objects": [listed]}

    async def pushed_then_closed(resp: aiohttp.ClientResponse) -> bytes:
        """Return the body of a subscribe that pushed at once, closed after its batch window."""
        read = asyncio.ensure_future(resp.read())
        await clock.advance(service.config.batch_window)
        return await read

    async with http.post(f"{device_url}/svc/transport", json=body, headers=AUTH) as resp:
        assert "X-svc-disable-defer-window" not in resp.headers
        assert "X-nl-disable-defer-window" not in resp.headers
        await pushed_then_closed(resp)
    service.commands.set_temperature(SERIAL, 21)
    async with http.post(f"{device_url}/svc/transport", json=body, headers=AUTH) as resp:
        assert resp.headers["X-svc-disable-defer-window"] == "60"
        assert resp.headers["X-nl-disable-defer-window"] == "60"
        pushed = json.loads(await pushed_then_closed(resp))
        assert pushed["objects"][0]["value"]["target_temperature"] == 21.0


# -- away and eco as firmware holds them ----------------------------------------------------------


async def test_away_is_the_homes_manual_eco_and_leaving_clears_all_three(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Away holds on the thermostat, and leaving away really takes it out of eco.

    `structure.away` alone is undone by the thermostat; `manual_eco_all` with a timestamp
    in seconds is what it holds, and it leaves eco only when that, `away` and `device.eco`
    all say so.
    """
    structure = harness(paired.service).home_keys(SERIAL)[1]
    now_s = paired.service.clock.now_ms() // 1000
    await set_preset(hass, paired, "away")
    pushed = await paired.pushed(structure, manual_eco_all=True)
    assert pushed["away"] is True
    assert abs(pushed["manual_eco_timestamp"] - now_s) < 600
    assert preset(hass, paired) == "away"

    await set_preset(hass, paired, "none")
    # One push carries all three, as firmware needs them.
    while structure not in (objects := await next_objects(paired)):
        pass
    assert objects[structure]["manual_eco_all"] is False
    assert objects[structure]["away"] is False
    device = objects[f"device.{SERIAL}"]
    assert device["eco"]["mode"] == "schedule"
    assert device["eco"]["touched_by"] == 3
    assert preset(hass, paired) == "none"


async def test_leaving_eco_on_the_dial_shows_in_home_assistant_and_stays_left(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Leaving eco at the dial shows in Home Assistant, and no later push puts eco back.

    The user turns the dial while the home is away: firmware leaves eco and reports
    `device.eco.mode` `schedule`; the home's manual eco is cleared so no later push puts the
    thermostat back into eco, and Home Assistant shows no preset.
    """
    structure = harness(paired.service).home_keys(SERIAL)[1]
    await set_preset(hass, paired, "away")
    await paired.pushed(structure, manual_eco_all=True)
    # What firmware then reports: it is in manual eco.
    await paired.thermostat.put(
        f"device.{SERIAL}", {"eco": {"mode": "manual-eco", "mode_update_timestamp": 1}}
    )

    await paired.thermostat.turn_dial(20.5)
    pushed = await paired.pushed(structure, manual_eco_all=False)
    assert pushed["away"] is False
    await hass.async_block_till_done()
    assert preset(hass, paired) == "none"
    state = hass.states.get(paired.entity_id("climate"))
    assert state is not None
    assert state.attributes[ATTR_TEMPERATURE] == 20.5


async def test_an_eco_report_older_than_the_away_command_does_not_undo_it(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    await set_preset(hass, paired, "away")
    await paired.thermostat.put(
        f"device.{SERIAL}", {"eco": {"mode": "schedule", "mode_update_timestamp": 5}}
    )
    await hass.async_block_till_done()
    assert preset(hass, paired) == "away"


async def _report_the_home_back(thermostat: SimulatedThermostat, structure: str) -> None:
    """Report the home no longer away, as firmware does when someone comes home."""
    await thermostat.put(structure, {"away": False})


async def _leave_eco_on_the_dial(thermostat: SimulatedThermostat, structure: str) -> None:
    """Turn the dial: the thermostat leaves eco and reports `device.eco` `schedule`."""
    await thermostat.turn_dial(20.5)


@pytest.mark.parametrize("come_home", [_report_the_home_back, _leave_eco_on_the_dial])
async def test_a_thermostat_that_brings_the_home_back_ends_away_everywhere(
    hass: HomeAssistant,
    come_home: Callable[[SimulatedThermostat, str], Awaitable[None]],
    paired: PairedThermostat,
    other: PairedThermostat,
) -> None:
    """Away set from Home Assistant, ended on the other thermostat of a two-thermostat home.

    Both thermostats hold manual eco (each reported `device.eco` `manual-eco`). When one
    reports the home back (`structure.away` false, or eco left on its dial), the home's manual
    eco ends and every thermostat is pushed what firmware needs to leave eco (`away`,
    `manual_eco_all` false and its `device.eco` on `schedule`): no entity stays in `away` or
    `eco`, and nothing left in the buckets puts a thermostat back into eco.
    """
    structure = harness(paired.service).home_keys(SERIAL)[1]
    await set_preset(hass, paired, "away")
    for thermostat in (paired, other):
        await thermostat.pushed(structure, manual_eco_all=True)
        # What firmware then reports: it is in manual eco.
        await thermostat.thermostat.put(
            f"device.{thermostat.serial}",
            {"eco": {"mode": "manual-eco", "mode_update_timestamp": int(time.time())}},
        )
    await hass.async_block_till_done()
    assert (preset(hass, paired), preset(hass, other)) == ("away", "away")

    await come_home(other.thermostat, structure)

    for thermostat in (paired, other):
        pushed = await thermostat.pushed(structure, manual_eco_all=False)
        assert pushed["away"] is False
        # The same push left its eco too (pushed buckets replace the thermostat's copies).
        device = thermostat.thermostat.local[f"device.{thermostat.serial}"].value
        assert device["eco"]["mode"] == "schedule"
    await hass.async_block_till_done()
    assert (preset(hass, paired), preset(hass, other)) == ("none", "none")
    home = harness(paired.service).bucket(structure)
    assert home is not None
    assert (home.value["away"], home.value["manual_eco_all"]) == (False, False)


async def test_coming_home_when_nobody_is_away_leaves_the_other_thermostats_alone(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """Leaving away while the home is not away pushes nothing to a thermostat not in eco.

    An automation that sets "home" every evening must not wake every thermostat of the home
    with a rewritten `device.eco` (a new timestamp is a new revision, pushed and saved).
    """
    paired = await pair_thermostat()
    await pair_thermostat(OTHER_SERIAL, entry=paired.entry)
    neighbour = harness(paired.service).bucket(f"device.{OTHER_SERIAL}")
    assert neighbour is not None
    revision = neighbour.revision
    freezer.tick(5)  # `device.eco` carries its time in seconds: a rewrite would change it

    paired.service.commands.set_away(SERIAL, False)

    neighbour = harness(paired.service).bucket(f"device.{OTHER_SERIAL}")
    assert neighbour is not None
    assert neighbour.revision == revision


# -- what else firmware reads and writes -------------------------------------------------------------


async def test_the_lock_is_written_as_firmware_stores_it(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    paired.service.commands.set_temperature_lock(SERIAL, True, pin="1234", temp_min=18, temp_max=23)
    locked = await paired.pushed("device", temperature_lock=True)
    assert locked["temperature_lock_low_temp"] == 18.0
    assert locked["temperature_lock_high_temp"] == 23.0
    assert len(locked["temperature_lock_pin_hash"]) == 28
    assert locked["temperature_lock_enabled"] is True  # the spec's name, for clients
    paired.service.commands.set_temperature_lock(SERIAL, False)
    unlocked = await paired.pushed("device", temperature_lock=False)
    assert unlocked["temperature_lock_pin_hash"] == ""


async def test_lock_leaf_and_training_are_read_where_firmware_reports_them(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Firmware reports `temperature_lock`, `leaf` and `time_to_target_training` in `device`."""
    paired = await pair_thermostat(shared={"leaf": False})
    await paired.thermostat.put(
        f"device.{SERIAL}",
        {"temperature_lock": True, "leaf": True, "time_to_target_training": "training"},
    )
    await hass.async_block_till_done()
    lock = hass.states.get(paired.entity_id("binary_sensor", "temperature_lock"))
    leaf = hass.states.get(paired.entity_id("binary_sensor", "leaf"))
    assert lock is not None
    assert leaf is not None
    assert (lock.state, leaf.state) == ("on", "on")
    state = paired.service.thermostat(SERIAL)
    assert state.time_to_target_training_status == "training"


async def test_the_structure_is_sent_once_after_a_server_start_whatever_the_device_lists(
    clock: LoopClock,
    make_thermostat: MakeThermostat,
    device_server: DeviceServer,
    service: ThermostatService,
) -> None:
    """A thermostat may have reset its mode while its cached structure timestamp survived."""
    thermostat = make_thermostat(shared={"current_temperature": 20.0})
    code = (await thermostat.passphrase())["value"]
    assert service.pairing.register(code).success
    structure = harness(service).home_keys(SERIAL)[1]
    thermostat.start()
    await thermostat.next_object(structure)  # the first contact after pairing
    await thermostat.stop()
    await stop_serving(device_server)

    restarted = ThermostatService(service.config, harness(service).storage)
    await restarted.async_load()
    restarted_server = await start_serving(restarted)
    try:
        thermostat.base_url = thermostat.transport_url = restarted.config.api_origin = (
            f"http://127.0.0.1:{restarted_server.bound_port}"
        )
        thermostat.transport_url += "/svc/transport"
        assert thermostat.local[structure].timestamp == harness(restarted).timestamp(structure)
        thermostat.start()
        pushed = await thermostat.next_object(structure)
        assert pushed["object_timestamp"] == harness(restarted).timestamp(structure)
        await clock.advance(restarted.config.batch_window)
        await thermostat.closes.get()
        # Once: the next subscribe listing the same version is held silently.
        await thermostat.subscribed.wait()
        assert harness(restarted).held(SERIAL) == 1
        assert thermostat.received.empty()
    finally:
        await thermostat.stop()
        await stop_serving(restarted_server)


async def device_change(service: ThermostatService, key: str, field: str, value: Any) -> None:
    """Wait until the device has reported `field` = `value` in bucket `key`."""
    landed = asyncio.Event()

    def on_event(event: ServiceEvent) -> None:
        if harness(service).value(key).get(field) == value:
            landed.set()

    remove = service.events.listen(on_event)
    try:
        if harness(service).value(key).get(field) != value:
            async with asyncio.timeout(10):
                await landed.wait()
    finally:
        remove()


async def next_objects(paired: PairedThermostat) -> dict[str, dict[str, Any]]:
    """Return the values of the next push to the paired thermostat, by bucket key."""
    chunk = await paired.thermostat.next_chunk()
    return {obj["object_key"]: obj["value"] for obj in chunk.objects}


async def set_preset(hass: HomeAssistant, paired: PairedThermostat, preset_mode: str) -> None:
    """Choose a preset on the thermostat's climate entity."""
    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode=preset_mode)


def preset(hass: HomeAssistant, paired: PairedThermostat) -> str:
    """Return the preset the climate entity shows."""
    state = hass.states.get(paired.entity_id("climate"))
    assert state is not None
    return str(state.attributes[ATTR_PRESET_MODE])


# -- schedules as firmware stores them --------------------------------------------------------------

RANGE_SCHEDULE = {
    "ver": 2,
    "name": "Current Schedule",
    "schedule_mode": "RANGE",
    "days": {
        "0": {  # Monday, as firmware counts
            "0": {
                "time": 25200,
                "type": "RANGE",
                "entry_type": "setpoint",
                "temp-min": 19.0,
                "temp-max": 24.0,
            }
        }
    },
}


async def test_a_range_schedule_keeps_temp_min_and_temp_max_and_its_mode_in_shared(
    make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    thermostat = make_thermostat(shared={"target_temperature_type": "range"}, schedule={})
    thermostat.start()
    await thermostat.next_chunk()
    await thermostat.subscribed.wait()
    service.commands.set_schedule(SERIAL, RANGE_SCHEDULE)
    chunk = await thermostat.next_chunk()
    pushed = {obj["object_key"]: obj["value"] for obj in chunk.objects}
    entry = pushed[f"schedule.{SERIAL}"]["days"]["0"]["0"]
    assert (entry["temp-min"], entry["temp-max"]) == (19.0, 24.0)
    assert pushed[f"shared.{SERIAL}"]["schedule_mode"] == "RANGE"


@pytest.mark.parametrize(
    "entry",
    [
        {"time": 0, "type": "RANGE", "entry_type": "setpoint", "temp": 20.0},
        {"time": 0, "type": "RANGE", "entry_type": "setpoint", "temp-min": 24, "temp-max": 19},
    ],
)
async def test_a_range_entry_without_an_ordered_pair_is_refused(
    make_thermostat: MakeThermostat, service: ThermostatService, entry: dict[str, Any]
) -> None:
    make_thermostat()
    harness(service).note_contact(SERIAL)
    schedule = {**RANGE_SCHEDULE, "days": {"0": {"0": entry}}}
    with pytest.raises(CommandError):
        service.commands.set_schedule(SERIAL, schedule)
    assert not harness(service).has(f"schedule.{SERIAL}")


# -- full state --------------------------------------------------------------------------------------


async def test_a_thermostat_that_sent_only_changes_is_asked_to_restart_once(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A thermostat that never sent its equipment is shown as unknown and asked to restart once.

    Against a new server firmware sends changes, not its equipment: Home Assistant does
    not pretend to know it, and a repair issue asks for the one restart that sends it.
    """
    paired = await pair_thermostat(
        full_state=False, shared={"current_temperature": 20.5, "target_temperature": 20.0}
    )
    registry = ir.async_get(hass)
    assert registry.async_get_issue(DOMAIN, f"equipment_unknown_{SERIAL}") is not None

    # After its restart the thermostat sends its complete state.
    await paired.thermostat.put(f"shared.{SERIAL}", {"can_heat": True, "can_cool": True})
    await hass.async_block_till_done()
    assert registry.async_get_issue(DOMAIN, f"equipment_unknown_{SERIAL}") is None
    state = hass.states.get(paired.entity_id("climate"))
    assert state is not None
    assert "cool" in state.attributes["hvac_modes"]


async def test_the_spec_literal_simulator_still_works_over_the_spec_paths(
    make_thermostat: MakeThermostat, service: ThermostatService, device_url: str
) -> None:
    """A thermostat that follows the spec to the letter (`/svc/entry`, `transport_url`, `/put`) works too."""
    thermostat = SimulatedThermostat(
        device_url,
        SERIAL,
        make_thermostat().http,
        buckets={f"shared.{SERIAL}": {"current_temperature": 20.0}},
        spec_literal=True,
    )
    try:
        await thermostat.entry()
        assert thermostat.subscribe_url == f"{device_url}/svc/transport"
        assert thermostat.put_url == f"{device_url}/svc/transport/put"
        thermostat.start()
        await thermostat.next_chunk()
        answer = await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 21.0})
        assert [obj["object_key"] for obj in answer["objects"]] == [f"shared.{SERIAL}"]
        assert harness(service).value(f"shared.{SERIAL}")["current_temperature"] == 21.0
    finally:
        await thermostat.stop()
