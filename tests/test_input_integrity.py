"""Nothing sent from outside corrupts the store, crashes an entity or forges a log line.

Unstorable text, huge numbers, newlines and over-long texts (issue 11, input half).

Everything goes through the real surfaces: the device port over TCP, the control API and the
hosted API through Home Assistant's HTTP server, and Home Assistant's own `GET /api/states`.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
from homeassistant.const import STATE_UNKNOWN
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util.unit_system import US_CUSTOMARY_SYSTEM
import pytest
from pytest_homeassistant_custom_component.common import MockUser
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.thermostat_cloud.const import CONF_DEVICE_PORT
from custom_components.thermostat_cloud.hosted_api import HOSTED_API_URL
from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import SimulatedThermostat, basic_auth

from .conftest import OTHER_SERIAL, SERIAL, PairedThermostat, PairThermostat, shown
from .hosted.conftest import create_api_key

SURROGATE = "\ud800"
"""An unpaired UTF-16 surrogate: valid in JSON text (`"\\ud800"`), not writable as UTF-8."""
INTEGRATION = "custom_components.thermostat_cloud"
CONTROL = "/api/thermostat_cloud"
DEVICE_AUTH = {"Authorization": basic_auth(SERIAL)}


def device_url(paired: PairedThermostat) -> str:
    """Return the device server's URL."""
    return f"http://127.0.0.1:{paired.entry.data[CONF_DEVICE_PORT]}"


async def device_post(
    http: aiohttp.ClientSession, url: str, body: Any, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    r"""POST JSON to the device port (aiohttp writes a lone surrogate as its `\ud800` escape)."""
    async with http.post(url, json=body, headers=headers or DEVICE_AUTH) as resp:
        return resp.status, await resp.json()


def put_body(key: str, **fields: Any) -> dict[str, Any]:
    """Return a firmware PUT body (bucket-keyed form)."""
    return {"session": "s", key: {"object_key": key, **fields}}


def state_of(service: ThermostatService) -> dict[str, Any]:
    """Everything the store would save, as plain data."""
    return {
        "buckets": {b.key: (b.revision, dict(b.value)) for b in harness(service).buckets()},
        "devices": [
            (r.serial, r.mac, r.model, r.software_version) for r in service.devices.records()
        ],
        "pairings": [(p.serial, p.user_id) for p in service.pairing.records()],
    }


def integration_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Return the integration's error log lines."""
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR and r.name.startswith(INTEGRATION)
    ]


def attribute(hass: HomeAssistant, entity_id: str, name: str) -> Any:
    """Return an attribute of an entity, which must exist."""
    current = hass.states.get(entity_id)
    assert current is not None, entity_id
    return current.attributes.get(name)


async def assert_home_assistant_still_saves(
    hass: HomeAssistant, paired: PairedThermostat, hass_client: ClientSessionGenerator
) -> None:
    """Assert that the service's save and Home Assistant's own state API both still work."""
    await paired.service.async_flush()  # Home Assistant's Store, written with orjson
    await hass.async_block_till_done()
    client = await hass_client()
    resp = await client.get("/api/states")
    assert resp.status == 200


@pytest.fixture
async def states_api(hass: HomeAssistant) -> None:
    """Return a client of Home Assistant's REST API.

    Home Assistant's REST API (`GET /api/states`), set up before any client freezes the
    HTTP router.
    """
    assert await async_setup_component(hass, "api", {})


# -- unstorable text ------------------------------------------------------------------------


async def test_a_lone_surrogate_is_refused_at_every_door(
    hass: HomeAssistant,
    states_api: None,
    pair_thermostat: PairThermostat,
    *,
    hass_client: ClientSessionGenerator,
    hass_client_no_auth: ClientSessionGenerator,
    hass_admin_user: MockUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Text that cannot be saved is refused at every surface, never stored.

    A lone surrogate anywhere in what the server accepts is answered 400 in the surface's
    error shape and stored nowhere; saves and Home Assistant's state API keep working.
    """
    caplog.set_level(logging.DEBUG, INTEGRATION)
    paired = await pair_thermostat()
    service = paired.service
    url = device_url(paired)
    shared = f"shared.{SERIAL}"
    other = SimulatedThermostat(url, OTHER_SERIAL, paired.thermostat.http)
    await other.entry()
    other_code = (await other.passphrase())["value"]
    key = (await create_api_key(hass, hass_admin_user))["key"]
    before = state_of(service)

    http = paired.thermostat.http
    invalid = {"error": "Invalid JSON body"}
    # Device PUT: a value (the thermostat's name, which Home Assistant shows), a field name,
    # deep inside a value.
    for fields in (
        {"name": SURROGATE},
        {SURROGATE: 1},
        {"current_temperature": 22.5, "schedule": {"days": [{"label": f"a{SURROGATE}b"}]}},
    ):
        assert await device_post(http, f"{url}/svc/transport/put", put_body(shared, **fields)) == (
            400,
            invalid,
        )
    # A subscribe's inline update.
    subscribe = {
        "session": "s",
        "objects": [
            {
                "object_key": shared,
                "object_revision": 0,
                "object_timestamp": 0,
                "value": {"name": SURROGATE},
            }
        ],
    }
    assert await device_post(http, f"{url}/svc/transport", subscribe) == (400, invalid)
    # The entry form: percent-escapes of a surrogate's bytes are no UTF-8, in a body or a query.
    async with http.post(
        f"{url}/svc/entry",
        data=b"model=%ED%A0%80&software_version=1",
        headers={**DEVICE_AUTH, "Content-Type": "application/x-www-form-urlencoded"},
    ) as resp:
        assert (resp.status, await resp.json()) == (400, {"error": "Invalid form body"})
    async with http.get(f"{url}/svc/entry?software_version=%ED%A0%80", headers=DEVICE_AUTH) as resp:
        assert (resp.status, await resp.json()) == (400, {"error": "Invalid form body"})

    control = await hass_client()
    resp = await control.post(
        f"{CONTROL}/api/register", json={"code": other_code, "userId": SURROGATE}
    )
    assert (resp.status, await resp.json()) == (
        400,
        {"success": False, "message": "Invalid JSON body"},
    )
    resp = await control.post(
        f"{CONTROL}/command",
        json={"serial": SERIAL, "command": "set_schedule", "value": {"name": SURROGATE}},
    )
    assert (resp.status, await resp.json()) == (
        400,
        {"success": False, "error": "Invalid JSON body", "code": "invalid_value"},
    )
    record = service.devices.record(SERIAL)
    assert record is not None
    hosted = await hass_client_no_auth()
    resp = await hosted.put(
        f"{HOSTED_API_URL}/thermostat/{record.device_id}/schedule",
        json={"schedule": {"ver": 1, "name": SURROGATE}},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert (resp.status, await resp.json()) == (400, invalid)

    assert state_of(service) == before
    assert not service.pairing.is_paired(OTHER_SERIAL)
    rejected = [r for r in caplog.records if r.levelno == logging.DEBUG and "refused" in r.msg]
    rejected += [r for r in caplog.records if r.levelno == logging.DEBUG and "Rejected" in r.msg]
    assert len(rejected) >= 9, [r.getMessage() for r in rejected]
    assert not integration_errors(caplog)
    await assert_home_assistant_still_saves(hass, paired, hass_client)


async def test_the_store_refuses_what_it_could_not_save(
    service: ThermostatService, make_thermostat: Any
) -> None:
    """Below the doors, the store itself: a caller that skipped parse_json cannot poison it."""
    from custom_components.thermostat_cloud.server import CommandError
    from custom_components.thermostat_cloud.server.model.records import UnstorableError

    thermostat: SimulatedThermostat = make_thermostat()
    await thermostat.entry()
    shared = f"shared.{SERIAL}"
    await thermostat.put(shared, {"current_temperature": 20.0})
    before = harness(service).bucket(shared)
    assert before is not None
    revision = before.revision

    with pytest.raises(UnstorableError):
        harness(service).merge(shared, {"name": SURROGATE})
    with pytest.raises(UnstorableError):
        harness(service).merge(f"user.{SURROGATE}", {"name": "x"})
    with pytest.raises(UnstorableError):
        harness(service).update_identity(SERIAL, {"model": SURROGATE})
    with pytest.raises(CommandError, match="not valid Unicode"):
        service.commands.set_schedule(
            SERIAL,
            {"ver": 1, "name": SURROGATE, "schedule_mode": "HEAT", "days": {}},
        )
    after = harness(service).bucket(shared)
    assert after is not None
    assert (after.revision, dict(after.value)) == (revision, {"current_temperature": 20.0})
    assert not harness(service).has(f"user.{SURROGATE}")
    record = service.devices.record(SERIAL)
    assert record is not None
    assert record.model == "Display-2.0"
    await service.async_flush()  # MemoryStorage writes with orjson, as Home Assistant does


# -- huge numbers ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", [1e308, -1e308, 1.7976931348623157e308])
async def test_huge_temperatures_are_out_of_range_for_every_command(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    *,
    hass_client: ClientSessionGenerator,
    hass_client_no_auth: ClientSessionGenerator,
    hass_admin_user: MockUser,
    value: float,
) -> None:
    paired = await pair_thermostat(device={"has_fan": True})
    before = state_of(paired.service)
    control = await hass_client()
    for command, command_value in (
        ("set_temperature", value),
        ("set_temperature", {"low": 19, "high": value}),
        ("set_eco_temperatures", {"low": value, "high": 25}),
        (
            "set_temperature_lock",
            {"enabled": True, "pin": "1234", "temp_min": value, "temp_max": 25},
        ),
        ("set_device_setting", {"name": "target_humidity", "value": value}),
    ):
        resp = await control.post(
            f"{CONTROL}/command",
            json={"serial": SERIAL, "command": command, "value": command_value},
        )
        body = await resp.json()
        assert resp.status == 400, (command, body)
        assert body["code"] == "invalid_value"
        assert "must be between" in body["error"], body
    schedule = {
        "ver": 1,
        "schedule_mode": "HEAT",
        "days": {
            "0": {
                "0": {"time": 0, "temp": value, "type": "HEAT", "entry_type": "setpoint"},
            }
        },
    }
    resp = await control.post(
        f"{CONTROL}/command",
        json={"serial": SERIAL, "command": "set_schedule", "value": schedule},
    )
    assert resp.status == 400
    assert "must be between" in (await resp.json())["error"]

    key = (await create_api_key(hass, hass_admin_user))["key"]
    record = paired.service.devices.record(SERIAL)
    assert record is not None
    hosted = await hass_client_no_auth()
    auth = {"Authorization": f"Bearer {key}"}
    base = f"{HOSTED_API_URL}/thermostat/{record.device_id}"
    for path, body in (
        ("temperature", {"value": value, "mode": "heat"}),
        ("temperature", {"value": value, "mode": "heat", "scale": "F"}),
        ("temperature/range", {"low": 15, "high": value}),
        ("temperature/range", {"low": -abs(value), "high": 20, "scale": "F"}),
        ("fan", {"duration": value}),
        ("lock", {"enabled": True, "pin_hash": "A" * 27 + "=", "temp_min": value, "temp_max": 20}),
    ):
        resp = await hosted.post(f"{base}/{path}", json=body, headers=auth)
        answer = await resp.json()
        assert resp.status == 400, (path, body, answer)
        assert "must be" in answer["error"]
    assert state_of(paired.service) == before


async def test_huge_reported_numbers_show_unknown_and_the_event_reaches_the_rest(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    hass_client: ClientSessionGenerator,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Absurd numbers from a thermostat show unknown without hiding the rest of its report.

    A fan timer ending in the year 3e10 and temperatures of ±1e308 on a Fahrenheit Home
    Assistant: those values show unknown (the fan timer's end: no timer, so unavailable),
    everything else the thermostat reported in the
    same PUT is shown, nothing logs an error.
    """
    hass.config.units = US_CUSTOMARY_SYSTEM
    caplog.set_level(logging.DEBUG, INTEGRATION)
    paired = await pair_thermostat()
    climate = paired.entity_id("climate")
    humidity = paired.entity_id("sensor", "humidity")
    fan_timer = paired.entity_id("sensor", "fan_timer_end")
    temperature = paired.entity_id("sensor", "temperature")
    assert attribute(hass, climate, "current_temperature") == 70  # 21.3 °C

    await paired.thermostat.put(f"device.{SERIAL}", {"fan_timer_timeout": 10**18})
    await paired.thermostat.put(
        f"shared.{SERIAL}",
        {
            "current_temperature": 1e308,
            "target_temperature": -1e308,
            "target_temperature_low": 1e308,
            "hvac_heater_state": True,
        },
    )
    await paired.thermostat.put(
        f"device.{SERIAL}",
        {"current_humidity": 55, "away_temperature_low": -1e308, "time_to_target": 1e308},
    )
    await hass.async_block_till_done()

    # No timer as far as anyone can tell: its end is unknown (not a fault).
    assert shown(hass, fan_timer) == STATE_UNKNOWN
    assert shown(hass, temperature) == STATE_UNKNOWN
    assert attribute(hass, climate, "current_temperature") is None
    assert attribute(hass, climate, "temperature") is None
    # The rest of the same events reached every entity.
    assert attribute(hass, climate, "hvac_action") == "heating"
    assert attribute(hass, climate, "current_humidity") == 55
    assert shown(hass, humidity) == "55"
    assert shown(hass, paired.entity_id("sensor", "time_to_target")) == STATE_UNKNOWN
    assert not integration_errors(caplog)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    noted = [r.getMessage() for r in caplog.records if "which is no reading" in r.msg]
    assert any("fan_timer_timeout" in line for line in noted), noted
    # Logged once per field, however often it is read.
    assert len(noted) == len(set(noted))

    # The thermostat's next good reading is shown again.
    await paired.thermostat.put(f"shared.{SERIAL}", {"current_temperature": 20.0})
    await hass.async_block_till_done()
    assert attribute(hass, climate, "current_temperature") == 68
    client = await hass_client()
    resp = await client.get(f"{CONTROL}/status?serial={SERIAL}")
    status = await resp.json()
    assert (status["fan_timer_timeout"], status["time_to_target"]) == (0, None)
    await paired.service.async_flush()


# -- logs and states ------------------------------------------------------------------------


async def test_outside_text_cannot_forge_or_break_a_log_line(
    service: ThermostatService, make_thermostat: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Text from outside can neither forge a log line nor break the log handler.

    A newline in a bucket key stays on its log line; a surrogate in one is escaped, so
    the log handler can write it.
    """
    caplog.set_level(logging.DEBUG, INTEGRATION)
    thermostat: SimulatedThermostat = make_thermostat()
    await thermostat.entry()
    http = thermostat.http
    url = service.config.api_origin
    forged = "shared.X\r\n2026-01-01 00:00:00 ERROR (MainThread) [homeassistant] forged\u2028"
    for key in (forged, f"shared.{SURROGATE}"):
        put = put_body(key, a=1)
        assert (await device_post(http, f"{url}/svc/transport/put", put))[0] == 400
    # Listed in a subscribe, it is ignored with a debug line; the hold begins.
    subscribe = {"session": "s", "objects": [{"object_key": forged, "object_revision": 1}]}
    async with http.post(f"{url}/svc/transport", json=subscribe, headers=DEVICE_AUTH) as resp:
        assert resp.status == 200

    lines = [r.getMessage() for r in caplog.records if r.name.startswith(INTEGRATION)]
    assert any("forged" in line for line in lines), lines  # it was logged, escaped
    for line in lines:
        assert "\n" not in line, line
        line.encode()  # a lone surrogate here would make the handler fail


async def test_a_300_character_firmware_version_is_shown_cut_to_255(
    hass: HomeAssistant, caplog: pytest.LogCaptureFixture, paired: PairedThermostat
) -> None:
    version = "6.0." + "1" * 296
    model = "Display\n" + "9" * 300
    async with paired.thermostat.http.post(
        f"{device_url(paired)}/svc/entry",
        data={"software_version": version, "model": model},
        headers=DEVICE_AUTH,
    ) as resp:
        assert resp.status == 200
    # Any change of the thermostat's state re-reads its entities.
    await paired.thermostat.put(f"shared.{SERIAL}", {"current_temperature": 21.0})
    await paired.thermostat.put(f"shared.{SERIAL}", {"current_temperature": 21.5})
    await hass.async_block_till_done()

    firmware = shown(hass, paired.entity_id("sensor", "firmware_version"))
    assert len(firmware) == 255
    assert firmware == version[:254] + "…"
    from homeassistant.helpers import device_registry as dr

    from custom_components.thermostat_cloud.const import DOMAIN

    device = dr.async_get(hass).async_get_device_by_identifier(
        (DOMAIN, SERIAL), paired.entry.entry_id
    )
    assert device is not None
    assert device.sw_version == firmware
    assert device.model is not None
    assert device.model.startswith("Display\\x0a999")
    assert len(device.model) == 255
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
