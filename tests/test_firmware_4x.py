"""Firmware 4.x over its own transport ("v3"), over real TCP, against a simulated 4.x thermostat.

The simulated thermostat (`thermostat_sim.SkvThermostat`) speaks only 4.x's forms, as the
public forks document them (docs/device-protocol.md, "Firmware 4.x speaks its own transport"):
nested PUTs without revisions, a `keys` subscribe answered with one bucket named by
`X-nl-skv-*` headers, and it rejects a 5.x `{"objects": [...]}` push. Paired, read and
controlled like a 5.x thermostat, its acknowledgements confirm commands, and one that ignores
them raises the same *Not taking commands* alarm.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Awaitable, Callable
import json
import logging
from typing import Any

import aiohttp
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.climate.const import (
    ATTR_FAN_MODE,
    ATTR_HVAC_MODE,
    ATTR_PRESET_MODE,
    SERVICE_SET_FAN_MODE,
    SERVICE_SET_HVAC_MODE,
    SERVICE_SET_PRESET_MODE,
)
from homeassistant.const import STATE_ON
from homeassistant.core import HomeAssistant
from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

from custom_components.thermostat_cloud.const import CONF_DEVICE_PORT
from custom_components.thermostat_cloud.server import (
    ChangeSource,
    EventKind,
    ServiceEvent,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import WEEK_SCHEDULE, SimulatedThermostat, SkvThermostat, basic_auth

from .conftest import (
    OTHER_SERIAL,
    SERIAL,
    THERMOSTAT_DEVICE,
    THERMOSTAT_SHARED,
    PairedThermostat,
    added,
    setup_hub,
)
from .test_brand_protocol import too_old_repair
from .test_climate import attrs
from .test_confirmations import issue, later, problem, set_temperature, until

type PairSkv = Callable[..., Awaitable[PairedThermostat]]

SHARED, DEVICE = f"shared.{SERIAL}", f"device.{SERIAL}"


@pytest.fixture
async def pair_skv(hass: HomeAssistant, socket_enabled: None) -> AsyncGenerator[PairSkv]:
    """Pair simulated 4.x thermostats as a user does: entry, code, report, subscribe, add."""
    made: list[SkvThermostat] = []
    async with aiohttp.ClientSession() as http:

        async def pair(**options: Any) -> PairedThermostat:
            hub_entry = await setup_hub(hass)
            port = hub_entry.data[CONF_DEVICE_PORT]
            thermostat = SkvThermostat(
                f"http://127.0.0.1:{port}",
                SERIAL,
                http,
                buckets={SHARED: THERMOSTAT_SHARED, DEVICE: THERMOSTAT_DEVICE},
                **options,
            )
            made.append(thermostat)
            await thermostat.entry()
            code = (await thermostat.passphrase())["value"]
            await thermostat.report_state()
            thermostat.start()
            # The home reaches it one bucket per answer: the user, then the structure.
            return await added(hass, hub_entry, thermostat, code)

        yield pair
        for thermostat in made:
            await thermostat.stop()


async def held(paired: PairedThermostat) -> None:
    """Return once the server holds a subscribe of the thermostat."""
    service = paired.service
    again = asyncio.Event()

    def check(event: ServiceEvent) -> None:
        if harness(service).held(SERIAL):
            again.set()

    remove = service.events.listen(check)
    try:
        if not harness(service).held(SERIAL):
            await again.wait()
    finally:
        remove()


async def confirmed(paired: PairedThermostat) -> None:
    """Return once the thermostat has confirmed every command."""
    service = paired.service
    await until(service, lambda: not harness(service).is_pending(SERIAL))


@pytest.mark.parametrize(
    ("firmware", "versioned_keys"), [("4.3.3", False), ("4.0.6", True)], ids=["4.3.3", "4.0.6"]
)
async def test_a_4x_thermostat_is_paired_read_and_controlled(
    hass: HomeAssistant, pair_skv: PairSkv, firmware: str, versioned_keys: bool
) -> None:
    paired = await pair_skv(firmware=firmware, versioned_keys=versioned_keys)
    service = paired.service
    thermostat = paired.thermostat
    assert isinstance(thermostat, SkvThermostat)
    state = service.thermostat(SERIAL)
    assert state.current_temperature == THERMOSTAT_SHARED["current_temperature"]
    assert state.humidity == THERMOSTAT_DEVICE["current_humidity"]
    assert state.software_version == firmware
    assert service.devices.firmware_too_old(SERIAL) is None

    # A setpoint: pushed as the bucket's plain value, acknowledged by clearing the flag.
    await set_temperature(hass, paired, 23.5)
    assert (await paired.pushed("shared", target_temperature=23.5))["target_change_pending"]
    await confirmed(paired)
    assert thermostat.local[SHARED].value["target_change_pending"] is False
    assert attrs(hass, paired)["temperature"] == 23.5

    # The mode, the fan and eco: each pushed, applied and reported back, so confirmed.
    await paired.climate(SERVICE_SET_HVAC_MODE, **{ATTR_HVAC_MODE: "heat_cool"})
    await paired.pushed("shared", target_temperature_type="range")
    await confirmed(paired)
    await paired.climate(SERVICE_SET_FAN_MODE, **{ATTR_FAN_MODE: "on"})
    await paired.pushed("device", fan_mode="on")
    await confirmed(paired)
    await paired.climate(SERVICE_SET_PRESET_MODE, **{ATTR_PRESET_MODE: "eco"})
    assert (await paired.pushed("device"))["eco"]["mode"] == "manual-eco"
    await confirmed(paired)
    assert attrs(hass, paired)[ATTR_FAN_MODE] == "on"
    assert attrs(hass, paired)[ATTR_PRESET_MODE] == "eco"
    assert thermostat.rejected == []

    # The thermostat's own dial, in 4.x's PUT, shows in Home Assistant.
    await thermostat.put(SHARED, {"current_temperature": 18.25})
    await hass.async_block_till_done()
    assert service.thermostat(SERIAL).current_temperature == 18.25


async def test_a_4x_thermostat_takes_a_schedule_one_bucket_per_answer(
    hass: HomeAssistant, pair_skv: PairSkv
) -> None:
    """The schedule and its mode (kept in `shared` too) reach it over successive answers."""
    paired = await pair_skv()
    thermostat = paired.thermostat
    paired.service.commands.set_schedule(SERIAL, WEEK_SCHEDULE)
    pushed = await paired.pushed("schedule", name="Week")
    assert pushed["days"] == WEEK_SCHEDULE["days"]
    await confirmed(paired)
    assert thermostat.local[f"schedule.{SERIAL}"].value["days"] == WEEK_SCHEDULE["days"]
    assert thermostat.local[SHARED].value["schedule_mode"] == "HEAT"


async def test_a_4x_thermostat_that_ignores_commands_raises_the_alarm(
    hass: HomeAssistant, pair_skv: PairSkv, freezer: FrozenDateTimeFactory
) -> None:
    paired = await pair_skv()
    paired.thermostat.obey_pushes = False
    await set_temperature(hass, paired, 24.0)
    await paired.pushed("shared", target_temperature=24.0)
    [pending] = paired.service.delivery.pending(SERIAL)
    assert pending.written_ms is not None  # it was answered with the setpoint
    await held(paired)  # it subscribed again at once: it is there, and says nothing

    await later(hass, freezer, 121)
    assert problem(paired) == STATE_ON
    raised = issue(hass)
    assert raised is not None
    # Not the read-only firmware's message: a 4.x thermostat that subscribes is controlled.
    assert raised.translation_key == "not_taking_commands_unknown"

    # It comes round and acknowledges: the alarm clears, as on 5.x.
    await paired.thermostat.put(SHARED, {"target_change_pending": False})
    await hass.async_block_till_done()
    assert issue(hass) is None


async def test_the_server_answers_4x_in_4x_forms_and_4x_ignores_5x_pushes(
    hass: HomeAssistant, pair_skv: PairSkv
) -> None:
    paired = await pair_skv()
    thermostat = paired.thermostat
    assert isinstance(thermostat, SkvThermostat)
    await thermostat.stop()
    http = thermostat.http
    headers = {"Authorization": basic_auth(SERIAL)}
    v3 = f"{thermostat.transport_url}/v3"

    # PUT answer: nested metadata only, compact.
    async with http.post(
        f"{v3}/put",
        data=b'{"shared":{"%s":{"current_temperature":19}}}' % SERIAL.encode(),
        headers=headers,
    ) as resp:
        raw = await resp.read()
    bucket = harness(paired.service).bucket(SHARED)
    assert bucket is not None
    assert json.loads(raw) == {
        "shared": {SERIAL: {"$version": bucket.revision, "$timestamp": bucket.timestamp}}
    }
    assert b" " not in raw

    # Bootstrap GET: the buckets nested with their values.
    data = await thermostat.bootstrap()
    assert data["shared"][SERIAL]["current_temperature"] == 19
    assert data["device"][SERIAL]["$version"] == harness(paired.service).bucket(DEVICE).revision  # type: ignore[union-attr]

    # A command: one bucket's value, named by the brand's SKV headers.
    await set_temperature(hass, paired, 21.5)
    async with http.post(
        f"{v3}/subscribe", json={"keys": [{"key": SHARED}]}, headers=headers
    ) as resp:
        assert resp.headers["X-nl-skv-key"] == SHARED
        shared = harness(paired.service).bucket(SHARED)
        assert shared is not None
        assert int(resp.headers["X-nl-skv-version"]) == shared.revision
        assert resp.headers["X-nl-disable-defer-window"] == "60"
        assert "Transfer-Encoding" not in resp.headers
        pushed = json.loads(await resp.read())
    assert pushed["target_temperature"] == 21.5
    assert "objects" not in pushed

    # Spoken to in 5.x's form (`{"objects": [...]}`, no SKV headers), 4.x rejects the push.
    before = dict(thermostat.local[SHARED].value)
    thermostat.firmware = "5.9.4-5"  # it subscribes where 5.x does, still in 4.x's form
    assert await thermostat.subscribe_once() == 0
    assert thermostat.rejected
    assert b'"objects"' in thermostat.rejected[0]
    assert thermostat.local[SHARED].value == before


async def test_a_4x_subscribe_with_nothing_to_send_is_a_tickle(
    hass: HomeAssistant, pair_skv: PairSkv, freezer: FrozenDateTimeFactory
) -> None:
    """Held until its hold timeout, then an empty answer; nothing is sent twice."""
    paired = await pair_skv()
    thermostat = paired.thermostat
    assert isinstance(thermostat, SkvThermostat)
    await held(paired)
    while not thermostat.closes.empty():
        thermostat.closes.get_nowait()
    await later(hass, freezer, paired.service.config.hold_timeout + 1)
    assert await thermostat.closes.get() == 0
    assert thermostat.tickles >= 1


# -- bad input --------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    path=st.sampled_from(["put", "subscribe"]),
    body=st.dictionaries(
        st.sampled_from(["shared", "device", "keys", "objects", "session", SHARED, "x"]),
        json_values,
        max_size=3,
    ),
    skv_header=st.sampled_from([None, "", "x", "-1", "1.5", "99999999999999999999"]),
)
async def test_malformed_4x_requests_get_a_clear_answer_and_change_nothing_else(
    http: aiohttp.ClientSession,
    device_url: str,
    service: ThermostatService,
    *,
    path: str,
    body: dict[str, Any],
    skv_header: str | None,
) -> None:
    """Any JSON to `/v3/put` or `/v3/subscribe`, with junk SKV headers: 200 or 400, never 500.

    Another thermostat's state is never touched; a subscribe the server holds is let go.
    """
    other = f"shared.{OTHER_SERIAL}"
    harness(service).report(
        OTHER_SERIAL, {other: {"target_temperature": 20.0}}, ChangeSource.DEVICE
    )
    before = dict(harness(service).value(other))
    headers = {"Authorization": basic_auth(SERIAL)}
    if skv_header is not None:
        headers |= {"X-nl-skv-version": skv_header, "X-nl-skv-timestamp": skv_header}

    def let_go(event: ServiceEvent) -> None:
        for conn in harness(service).held_connections(SERIAL):
            conn.close()

    remove = service.events.listen(let_go)
    try:
        async with http.post(
            f"{device_url}/nest/transport/v3/{path}", json=body, headers=headers
        ) as resp:
            assert resp.status in (200, 400), await resp.text()
            if resp.status == 400:
                assert (await resp.json())["error"]
    finally:
        remove()
    assert dict(harness(service).value(other)) == before


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"keys": [{"key": SHARED, "version": "3"}]}, "keys[0]: version"),
        ({"keys": [{"key": SHARED, "version": 1, "timestamp": -5}]}, "keys[0]: timestamp"),
        ({"keys": [{"key": SHARED, "timestamp": True}]}, "keys[0]: timestamp"),
        ({"keys": [{"key": SHARED, "version": 2**40}]}, "keys[0]: version"),
    ],
)
async def test_4x_versions_of_the_wrong_type_are_refused_by_name(
    http: aiohttp.ClientSession, device_url: str, body: dict[str, Any], named: str
) -> None:
    async with http.post(
        f"{device_url}/svc/transport/v3/subscribe",
        json=body,
        headers={"Authorization": basic_auth(SERIAL)},
    ) as resp:
        assert resp.status == 400
        assert named in (await resp.json())["error"]


async def test_a_4x_thermostat_updated_to_5x_is_answered_in_5x_and_keeps_its_state(
    hass: HomeAssistant, pair_skv: PairSkv, caplog: pytest.LogCaptureFixture
) -> None:
    paired = await pair_skv()
    old = paired.thermostat
    await old.stop()
    service = paired.service
    caplog.set_level(logging.INFO)
    new = SimulatedThermostat(
        old.base_url,
        SERIAL,
        old.http,
        firmware="5.9.4-5",
        buckets={SHARED: {}, DEVICE: {}, f"schedule.{SERIAL}": {}},
    )
    await new.entry()
    assert f"Thermostat {SERIAL} now runs firmware 5.9.4-5 (was 4.3.3)" in caplog.text
    new.start()
    try:
        await set_temperature(hass, paired, 22.5)
        # The whole bucket in 5.x's form, what 4.x reported kept.
        pushed = (await new.next_object(SHARED))["value"]
        assert pushed["target_temperature"] == 22.5
        assert pushed["current_temperature"] == THERMOSTAT_SHARED["current_temperature"]
        await confirmed(paired)
    finally:
        await new.stop()
    assert service.thermostat(SERIAL).humidity == THERMOSTAT_DEVICE["current_humidity"]
    assert not service.thermostat(SERIAL).subscribes_skv


async def test_the_repair_stays_for_4x_that_only_sends_heartbeats(
    hass: HomeAssistant, hub: Any
) -> None:
    """4.2.5 seen only heartbeating (issue #213) is told; once it subscribes over 4.x's, not."""
    port = hub.data[CONF_DEVICE_PORT]
    async with aiohttp.ClientSession() as http:
        thermostat = SkvThermostat(
            f"http://127.0.0.1:{port}", SERIAL, http, firmware="4.2.5", buckets={SHARED: {}}
        )
        await thermostat.entry()
        await hass.async_block_till_done()
        assert too_old_repair(hass) is None  # not judged by its version
        assert await thermostat.heartbeat() == {"objects": []}
        await hass.async_block_till_done()
        raised = too_old_repair(hass)
        assert raised is not None
        assert raised.translation_placeholders == {"serial": SERIAL, "version": "4.2.5"}

        # It subscribes over 4.x's transport: it can be controlled, and the message goes.
        service: ThermostatService = hub.runtime_data.service
        noted = asyncio.Event()

        def on_event(event: ServiceEvent) -> None:
            if event.kind is EventKind.FIRMWARE:
                noted.set()

        remove = service.events.listen(on_event)
        thermostat.start()
        await noted.wait()
        remove()
        await hass.async_block_till_done()
        assert too_old_repair(hass) is None
        await thermostat.stop()
