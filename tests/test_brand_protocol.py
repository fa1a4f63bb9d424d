"""The brand's names on the wire, over real TCP: what the firmware on users' walls speaks.

The spec writes `svc` where the brand stood; firmware reads `X-nl-` headers, sends `X-nl-` ids,
keeps `/nest/` URLs, runs 4.x on some walls and identifies by MAC address on others (sources in
docs/device-protocol.md, "What real firmware does").
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any

import aiohttp
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, issue_registry as ir
from hypothesis import given, settings, strategies as st
from multidict import CIMultiDict
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.thermostat_cloud.const import CONF_DEVICE_PORT, DOMAIN
from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core import firmware_major
from custom_components.thermostat_cloud.server.core.testing import harness
from custom_components.thermostat_cloud.server.device.headers import (
    CLIENT_ID,
    PROTOCOL_HEADERS,
    ProtocolHeader,
    reported_firmware_version,
)
from thermostat_sim import SimulatedThermostat

from .conftest import SERIAL, add_thermostat, setup_hub

type MakeThermostat = Callable[..., SimulatedThermostat]

BRAND_ONLY = {"X-nl-client-id": f"d.{SERIAL}.abc", "X-nl-protocol-version": "1"}
"""A thermostat without Basic credentials that speaks only the brand's names."""
SUBSCRIBE = {"chunked": True, "session": "s", "objects": [{"object_key": f"shared.{SERIAL}"}]}


# -- headers ----------------------------------------------------------------------------------------


async def test_a_thermostat_speaking_only_brand_names_gets_its_suspend_time_and_the_clock(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    """Identified by `X-nl-client-id` alone, it is told both under the names it reads."""
    async with http.post(
        f"{device_url}/nest/transport/v7/subscribe", json=SUBSCRIBE, headers=BRAND_ONLY
    ) as resp:
        assert resp.status == 200
        assert resp.headers["X-nl-suspend-time-max"] == "300"
        assert abs(int(resp.headers["X-nl-service-timestamp"]) - service.clock.now_ms()) < 60_000
        assert resp.headers["X-nl-defer-device-window"] == "15"
        for header in ("suspend-time-max", "defer-device-window"):
            assert resp.headers[f"X-nl-{header}"] == resp.headers[f"X-svc-{header}"]
        service.close_connections()
    assert service.devices.record(SERIAL) is not None


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/nest/transport/v7/put", {"session": "s", f"shared.{SERIAL}": {"a": 1}}),
        ("GET", f"/nest/transport/v7/device/device.{SERIAL}", None),
        ("GET", "/nest/entry", None),
        ("POST", "/nest/transport/put", {"session": 5}),
        ("GET", "/nest/nope", None),
    ],
)
async def test_every_answer_carries_each_protocol_header_under_both_names(
    http: aiohttp.ClientSession, device_url: str, method: str, path: str, body: Any
) -> None:
    """PUT, listing, entry, a 400 and a 404: the brand's names and the spec's."""
    async with http.request(method, f"{device_url}{path}", json=body, headers=BRAND_ONLY) as resp:
        for suffix in ("suspend-time-max", "service-timestamp", "defer-device-window"):
            assert f"X-nl-{suffix}" in resp.headers, (path, resp.status, suffix)
            assert f"X-svc-{suffix}" in resp.headers, (path, resp.status, suffix)


async def test_entry_identifies_a_thermostat_by_its_brand_device_id(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    """Without Basic credentials, entry requests carry the bare serial in `X-nl-device-id`."""
    form = {"mac": "18b430aabbcc", "software_version": "5.9.4-5", "model": "Display-2.12"}
    async with http.post(
        f"{device_url}/nest/entry", data=form, headers={"X-nl-device-id": SERIAL}
    ) as resp:
        assert resp.status == 200
    record = service.devices.record(SERIAL)
    assert record is not None
    assert record.model == "Display-2.12"


header_names = st.sampled_from(PROTOCOL_HEADERS).flatmap(
    lambda header: st.tuples(st.just(header), st.sampled_from(header.names))
)


def any_case(name: str) -> st.SearchStrategy[str]:
    """Return the name in any mix of upper and lower case, as HTTP allows."""
    return st.tuples(*(st.sampled_from([c.lower(), c.upper()]) for c in name)).map("".join)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    named=header_names.flatmap(lambda hn: st.tuples(st.just(hn[0]), any_case(hn[1]))),
    value=st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=20),
    padding=st.sampled_from(["", " ", "  "]),
)
def test_a_protocol_header_is_read_under_either_name_in_any_case(
    named: tuple[ProtocolHeader, str], value: str, padding: str
) -> None:
    """Either name, any case, surrounding blanks dropped; a blank value is no value."""
    header, name = named
    headers = CIMultiDict({name: f"{padding}{value}{padding}"})
    assert header.read(headers) == (value.strip() or None)
    other = next(h for h in PROTOCOL_HEADERS if h != header)
    assert other.read(headers) is None


@settings(max_examples=40, derandomize=True, deadline=None)
@given(brand=st.text(min_size=1, max_size=8), spec=st.text(min_size=1, max_size=8))
def test_the_brand_name_wins_when_a_request_carries_both(brand: str, spec: str) -> None:
    """Firmware speaks the brand's names; the spec's is the fallback."""
    headers = CIMultiDict({CLIENT_ID.spec: spec, CLIENT_ID.brand: brand})
    assert CLIENT_ID.read(headers) == (brand.strip() or spec.strip() or None)


@pytest.mark.parametrize(
    ("headers", "version"),
    [
        ({"X-NL-Device-SWVersion": "5.9.4-5"}, "5.9.4-5"),
        ({"User-Agent": "AddLightness/5.9.4-5 (Display-2.12; wireless_reg_domain=A2)"}, "5.9.4-5"),
        ({"User-Agent": "Nest/4.2.5 (Display-2.12; wireless_reg_domain=A2)"}, "4.2.5"),
        ({"User-Agent": "Python/3.14 aiohttp/3.13.2"}, None),
        ({"X-svc-device-swversion": "not a version"}, None),
        ({}, None),
    ],
)
def test_the_firmware_version_is_read_where_firmware_reports_it(
    headers: dict[str, str], version: str | None
) -> None:
    """The version header (either name), else a firmware User-Agent; nothing else."""
    assert reported_firmware_version(CIMultiDict(headers)) == version
    assert firmware_major(version) == (int(version.split(".")[0]) if version else None)


# -- /nest/ paths -----------------------------------------------------------------------------------


async def test_a_thermostat_with_cached_nest_urls_registers_pairs_and_reports(
    make_thermostat: MakeThermostat, device_url: str, service: ThermostatService
) -> None:
    """Entry, passphrase, subscribe, PUT and listing, all under `/nest/`."""
    thermostat = make_thermostat(shared={"current_temperature": 19.5})
    async with thermostat.http.post(
        f"{device_url}/nest/entry", data={"mac": thermostat.mac}, headers=thermostat.headers
    ) as resp:
        assert resp.status == 200
    thermostat.transport_url = f"{device_url}/nest/transport"
    thermostat.passphrase_url = f"{device_url}/nest/passphrase"
    code = (await thermostat.passphrase())["value"]
    assert (await thermostat.passphrase_status())["status"] == "pending"
    thermostat.start()
    assert (await thermostat.next_chunk()).objects[0]["object_key"] == f"shared.{SERIAL}"
    assert service.pairing.register(code).success
    await thermostat.next_object(harness(service).home_keys(SERIAL)[1])
    await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 21.5})
    assert harness(service).value(f"shared.{SERIAL}")["current_temperature"] == 21.5
    async with thermostat.http.get(
        f"{device_url}/nest/transport/v7/device/device.{SERIAL}", headers=thermostat.headers
    ) as resp:
        keys = {obj["object_key"] for obj in (await resp.json())["objects"]}
    user, structure, _rooms = harness(service).home_keys(SERIAL)  # no rooms reported: not listed
    assert {f"shared.{SERIAL}", user, structure} <= keys


# -- the service clock --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec_literal", "reads", "holds"),
    [
        (False, "X-nl-", True),
        (True, "X-svc-", True),
        # What a real thermostat did while the server sent only the spec's names.
        (False, "X-unknown-", False),
    ],
)
async def test_manual_eco_holds_on_a_thermostat_whose_clock_was_an_hour_off(
    make_thermostat: MakeThermostat,
    service: ThermostatService,
    spec_literal: bool,
    reads: str,
    holds: bool,
) -> None:
    """Firmware sets its clock from the service timestamp, under the names it reads.

    Manual eco more than 600 s off the thermostat's clock is dropped; a thermostat that read
    the server's clock holds it.
    """
    thermostat = SimulatedThermostat(
        service.config.api_origin,
        SERIAL,
        make_thermostat().http,
        spec_literal=spec_literal,
        clock_offset_ms=-3_600_000,
    )
    thermostat.header_prefix = reads
    try:
        await pair_at_the_server(thermostat, service)
        assert service.commands.set_away(SERIAL, True).changed
        structure = harness(service).home_keys(SERIAL)[1]
        while (await thermostat.next_object(structure))["value"].get("away") is not True:
            pass
        assert thermostat.local[structure].value["manual_eco_all"] is holds
        assert thermostat.dropped_eco == (0 if holds else 1)
    finally:
        await thermostat.stop()


async def pair_at_the_server(thermostat: SimulatedThermostat, service: ThermostatService) -> None:
    """Register, subscribe, and claim its code through the service (no Home Assistant)."""
    await thermostat.entry()
    thermostat.start()
    await thermostat.subscribed.wait()
    assert service.pairing.register((await thermostat.passphrase())["value"]).success
    await thermostat.next_object(harness(service).home_keys(SERIAL)[1])


# -- thermostats that identify by MAC address ----------------------------------------------------


async def test_a_mac_identified_thermostat_is_one_thermostat_under_its_serial(
    hass: HomeAssistant, socket_enabled: None
) -> None:
    """Display-2.12 on 5.9.4-5: Basic user id and keys `<mac>`, session `<mac><serial>`.

    It pairs and shows as one thermostat with its real serial, its reports land on it, and a
    setpoint from Home Assistant reaches it under the keys it follows.
    """
    entry = await setup_hub(hass)
    port = entry.data[CONF_DEVICE_PORT]
    async with aiohttp.ClientSession() as http:
        thermostat = SimulatedThermostat(f"http://127.0.0.1:{port}", SERIAL, http)
        mac = thermostat.mac
        thermostat = SimulatedThermostat(
            f"http://127.0.0.1:{port}",
            SERIAL,
            http,
            identify_by_mac=True,
            buckets={
                f"shared.{mac}": {"current_temperature": 20.5, "target_temperature": 20.0},
                f"device.{mac}": {"fan_mode": "auto"},
            },
        )
        try:
            await thermostat.entry()
            thermostat.transport_url = f"http://127.0.0.1:{port}/nest/transport"
            thermostat.passphrase_url = f"http://127.0.0.1:{port}/nest/passphrase"
            thermostat.start()
            await thermostat.subscribed.wait()
            code = (await thermostat.passphrase())["value"]
            await add_thermostat(hass, entry, code)
            await hass.async_block_till_done()
            service: ThermostatService = entry.runtime_data.service
            await thermostat.next_object(harness(service).home_keys(SERIAL)[1])

            assert service.devices.known_serials() == [SERIAL]
            record = service.devices.record(SERIAL)
            assert record is not None
            assert record.mac == mac
            assert record.model == "Display-2.0"
            devices = dr.async_entries_for_config_entry(dr.async_get(hass), entry.entry_id)
            thermostats = [d for d in devices if d.serial_number is not None]
            assert [d.serial_number for d in thermostats] == [SERIAL]
            assert all(mac not in (d.name or "") for d in devices)

            await thermostat.put(f"shared.{mac}", {"current_temperature": 22.0})
            assert harness(service).value(f"shared.{SERIAL}")["current_temperature"] == 22.0
            assert not harness(service).has(f"shared.{mac}")

            assert service.commands.set_temperature(SERIAL, 23.0).changed
            pushed = await thermostat.next_object(f"shared.{mac}")
            assert pushed["value"]["target_temperature"] == 23.0
        finally:
            await thermostat.stop()


@pytest.fixture
async def mac_thermostat(
    device_url: str, http: aiohttp.ClientSession
) -> AsyncGenerator[SimulatedThermostat]:
    """Return a thermostat that names itself by its MAC until it subscribes; stopped after."""
    thermostat = SimulatedThermostat(device_url, SERIAL, http, identify_by_mac=True)
    yield thermostat
    await thermostat.stop()


async def test_a_mac_identified_thermostat_asking_for_a_code_before_subscribing_waits(
    http: aiohttp.ClientSession,
    service: ThermostatService,
    mac_thermostat: SimulatedThermostat,
) -> None:
    """Until its subscribe names its serial, it is answered 503 (retried), never a MAC device."""
    await mac_thermostat.entry()
    async with http.get(mac_thermostat.passphrase_url, headers=mac_thermostat.headers) as resp:
        assert resp.status == 503
        assert await resp.json() == {"error": "Device serial not known yet"}
    assert service.devices.known_serials() == []
    mac_thermostat.start()
    await mac_thermostat.subscribed.wait()
    assert (await mac_thermostat.passphrase())["value"]
    assert service.devices.known_serials() == [SERIAL]
    record = service.devices.record(SERIAL)
    assert record is not None
    assert record.software_version == mac_thermostat.firmware  # kept from its entry


async def test_a_mac_identified_subscribe_without_a_session_waits(
    http: aiohttp.ClientSession,
    device_url: str,
    service: ThermostatService,
    mac_thermostat: SimulatedThermostat,
) -> None:
    """Its serial is only in its session id: without one it is answered 503, not a MAC device."""
    async with http.post(
        f"{device_url}/svc/transport", json={"objects": []}, headers=mac_thermostat.headers
    ) as resp:
        assert resp.status == 503
        assert await resp.json() == {"error": "Device serial not known yet"}
    assert service.devices.known_serials() == []


async def test_a_mac_thermostat_kept_under_its_mac_by_an_earlier_version_moves_to_its_serial(
    http: aiohttp.ClientSession, device_url: str, service: ThermostatService
) -> None:
    """Unpaired, what an earlier version kept under the MAC gives way to the serial."""
    thermostat = SimulatedThermostat(
        device_url,
        SERIAL,
        http,
        identify_by_mac=True,
        buckets={"shared.18b430" + SERIAL[-6:].lower(): {"current_temperature": 20.0}},
    )
    mac = thermostat.mac
    # What an earlier version stored: the MAC as a thermostat, with its buckets.
    harness(service).note_contact(mac)
    harness(service).update_identity(mac, {"mac": mac, "model": "Display-2.12"})
    harness(service).merge(f"shared.{mac}", {"current_temperature": 19.0})
    assert service.devices.known_serials() == [mac]
    try:
        thermostat.start()
        await thermostat.subscribed.wait()
        assert service.devices.known_serials() == [SERIAL]
        assert harness(service).value(f"shared.{SERIAL}")["current_temperature"] == 20.0
    finally:
        await thermostat.stop()


# -- firmware 4.x -------------------------------------------------------------------------------------


def too_old_repair(hass: HomeAssistant) -> ir.IssueEntry | None:
    """Return the repair that says the thermostat's firmware is too old, if raised."""
    return ir.async_get(hass).async_get_issue(DOMAIN, f"firmware_too_old_{SERIAL}")


async def test_a_4x_heartbeat_is_answered_and_says_5x_is_needed(
    hass: HomeAssistant, hub: MockConfigEntry
) -> None:
    """4.x PUTs `{"objects": []}` to its cached `/nest/transport/v3/put` and never subscribes."""
    port = hub.data[CONF_DEVICE_PORT]
    async with aiohttp.ClientSession() as http:
        old = SimulatedThermostat(f"http://127.0.0.1:{port}", SERIAL, http, firmware="4.2.5")
        old.transport_url = f"http://127.0.0.1:{port}/nest/transport"
        assert await old.heartbeat() == {"objects": []}
        await hass.async_block_till_done()
        issue = too_old_repair(hass)
        assert issue is not None
        assert issue.translation_key == "firmware_too_old"
        assert issue.translation_placeholders == {"serial": SERIAL, "version": "4.2.5"}

        # Its User-Agent was not confused with a sign of 5.x by its next heartbeat.
        assert await old.heartbeat() == {"objects": []}
        await hass.async_block_till_done()
        assert too_old_repair(hass) is not None

        # Updated to 5.x, it registers again after its restart: the message goes.
        new = SimulatedThermostat(f"http://127.0.0.1:{port}", SERIAL, http, firmware="5.9.4-5")
        await new.entry()
        await hass.async_block_till_done()
        assert too_old_repair(hass) is None
