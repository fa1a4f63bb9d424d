"""The control API through Home Assistant's HTTP server, as dashboards and scripts use it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, NamedTuple

from homeassistant.core import HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core.read.validation import pin_hash
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import NO_EQUIPMENT, OTHER_SERIAL, SERIAL
from thermostat_sim import WEEK_SCHEDULE

from .conftest import URL, Client, ConnectThermostat, command, pair

SHARED = {
    "name": "Hallway",
    "current_temperature": 20.5,
    "target_temperature": 21.0,
    "target_temperature_low": 19.0,
    "target_temperature_high": 24.0,
    "target_temperature_type": "heat",
    "hvac_heater_state": True,
    "hvac_fan_state": True,
    "hvac_aux_heater_state": True,
    "can_heat": True,
    "can_cool": False,
    "leaf": True,
    "auto_away": 0,
}
DEVICE = {
    "temperature_scale": "F",
    "current_humidity": 41,
    "target_humidity": 35,
    "target_humidity_enabled": True,
    "has_fan": True,
    "away_temperature_low": 15.5,
    "away_temperature_high": 27.0,
    "eco": {"mode": "schedule"},
    "time_to_target": 0,
    "time_to_target_training_status": "trained",
    "learning_mode": False,
    "preconditioning_enabled": True,
    "backplate_temperature": 21.3,
    "safety_state": "none",
}


# -- authentication and availability -----------------------------------------------------------


async def test_health(client: Client) -> None:
    """A client's liveness probe gets 200 and a body it can parse while the hub runs."""
    resp = await client.get(f"{URL}/health")
    assert resp.status == 200
    assert await resp.json() == {"status": "ok"}


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/health"),
        ("GET", "/status?serial=X"),
        ("GET", "/api/devices"),
        ("POST", "/api/register"),
        ("POST", "/command"),
        ("POST", "/notify-device"),
        ("POST", "/api/scan-network"),
        ("POST", "/api/configure-device"),
        ("GET", "/api/events"),
    ],
)
async def test_every_endpoint_needs_home_assistant_auth(
    hub: MockConfigEntry, hass_client_no_auth: ClientSessionGenerator, method: str, path: str
) -> None:
    client = await hass_client_no_auth()
    resp = await client.request(method, f"{URL}{path}", json={})
    assert resp.status == 401


@pytest.mark.parametrize("path", ["/api/register", "/api/scan-network", "/api/configure-device"])
async def test_pairing_and_network_endpoints_are_for_administrators(
    hub: MockConfigEntry,
    hass_client: ClientSessionGenerator,
    hass_read_only_access_token: str,
    path: str,
) -> None:
    client = await hass_client(hass_read_only_access_token)
    resp = await client.post(f"{URL}{path}", json={"code": "ABCDEFG", "ip": "127.0.0.2"})
    assert resp.status == 403
    assert await resp.json() == {"error": "Administrator access required"}
    resp = await client.get(f"{URL}/api/devices")
    assert resp.status == 200


async def test_views_answer_503_while_the_hub_is_not_loaded(
    hass: HomeAssistant, hub: MockConfigEntry, client: Client
) -> None:
    assert await hass.config_entries.async_unload(hub.entry_id)
    resp = await client.get(f"{URL}/health")
    assert resp.status == 503
    assert await resp.json() == {"error": "Thermostat Cloud is not running"}

    assert await hass.config_entries.async_setup(hub.entry_id)
    await hass.async_block_till_done()
    resp = await client.get(f"{URL}/health")
    assert resp.status == 200


# -- status and device list ----------------------------------------------------------------------


async def test_status_needs_a_serial_of_a_known_device(client: Client) -> None:
    resp = await client.get(f"{URL}/status")
    assert resp.status == 400
    assert await resp.json() == {"error": "Serial parameter required"}
    resp = await client.get(f"{URL}/status", params={"serial": OTHER_SERIAL})
    assert resp.status == 404
    assert await resp.json() == {"error": "Device not found"}


async def test_status_record_has_every_field_derived_from_buckets(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    """A client reads every status field the spec lists, each from the bucket firmware keeps it in.

    `time_to_target` is the spec's minutes, from the Unix time firmware reports.
    """
    ready_at = service.clock.now_ms() // 1000 + 11 * 60 + 30
    thermostat = await connect_thermostat(
        shared=SHARED, device={**DEVICE, "time_to_target": ready_at}
    )
    await pair(client, thermostat)
    await command(client, "set_away", True)
    await command(client, "set_schedule_mode", "heat")
    await command(client, "set_fan", 600)
    record = service.devices.record(SERIAL)
    assert record is not None

    resp = await client.get(f"{URL}/status", params={"serial": SERIAL})
    assert resp.status == 200
    status = await resp.json()
    fan_timeout = harness(service).value(f"device.{SERIAL}")["fan_timer_timeout"]
    assert status == {
        "serial": SERIAL,
        "api_key": SERIAL,
        "is_available": True,
        "last_seen": status["last_seen"],
        "name": "Hallway",
        "current_temperature": 20.5,
        "target_temperature": 21.0,
        "target_temperature_high": 24.0,
        "target_temperature_low": 19.0,
        "humidity": 41,
        "target_humidity": 35,
        "target_humidity_enabled": True,
        "mode": "heat",
        "hvac": {
            "heater": True,
            "heat_x2": False,
            "heat_x3": False,
            "ac": False,
            "cool_x2": False,
            "cool_x3": False,
            "fan": True,
            "aux_heat": True,
            "emer_heat": False,
            "alt_heat": False,
            "alt_heat_x2": False,
            "humidifier": False,
            "dehumidifier": False,
            "auto_dehum": False,
            "fan_cooling": False,
        },
        "fan_timer_active": True,
        "fan_timer_timeout": fan_timeout,
        "eco_temperatures": {"high": 27.0, "low": 15.5},
        "is_online": True,
        "has_leaf": True,
        "software_version": "5.9.3-5",
        "temperature_scale": "F",
        "capabilities": {**NO_EQUIPMENT, "can_heat": True, "has_fan": True},
        "eco_mode": "schedule",
        "time_to_target": 12,
        "time_to_target_training_status": "trained",
        "safety_state": "none",
        "safety_temp_activating_hvac": None,
        "learning_mode": False,
        "preconditioning_enabled": True,
        "backplate_temperature": 21.3,
        "structure_id": service.home().structure_id,
        "away": True,
        "schedule_mode": "HEAT",
        "taking_commands": True,
        # What the thermostat has confirmed by now depends on its timing: see
        # tests/test_confirmations.py.
        "pending_commands": status["pending_commands"],
    }
    # ISO 8601 without a zone, the UTC time of the device's last request.
    assert "+" not in status["last_seen"]
    assert not status["last_seen"].endswith("Z")
    seen = datetime.fromisoformat(status["last_seen"]).replace(tzinfo=UTC)
    assert round(seen.timestamp() * 1000) == record.last_seen


async def test_status_of_a_silent_unpaired_device_is_all_nulls_and_defaults(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    thermostat = await connect_thermostat()
    await thermostat.stop()
    status = await (await client.get(f"{URL}/status", params={"serial": SERIAL})).json()
    assert status["name"] == SERIAL
    assert status["structure_id"] is None
    assert status["away"] is False
    for name in ("current_temperature", "target_temperature", "mode", "eco_mode", "humidity"):
        assert status[name] is None, name
    assert status["temperature_scale"] == "C"
    assert status["fan_timer_active"] is False
    assert status["fan_timer_timeout"] == 0
    assert status["eco_temperatures"] == {"high": None, "low": None}
    assert status["schedule_mode"] is None


async def test_devices_lists_every_known_device_with_subscription_count(
    client: Client, connect_thermostat: ConnectThermostat
) -> None:
    await connect_thermostat(SERIAL, shared={"current_temperature": 20.0})
    other = await connect_thermostat(OTHER_SERIAL)
    await other.stop()

    resp = await client.get(f"{URL}/api/devices")
    assert resp.status == 200
    data = await resp.json()
    assert data["total"] == 2
    by_serial = {d["serial"]: d for d in data["devices"]}
    assert by_serial[SERIAL]["subscription_count"] == 1
    assert by_serial[SERIAL]["current_temperature"] == 20.0
    assert by_serial[OTHER_SERIAL]["subscription_count"] == 0


# -- register ------------------------------------------------------------------------------------


async def test_register_pairs_with_the_home_user_and_pushes_home_buckets(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    thermostat = await connect_thermostat()
    code = (await thermostat.passphrase())["value"]
    typed = f"{code[:3]}-{code[3:]}".lower()
    resp = await client.post(f"{URL}/api/register", json={"code": typed})
    assert resp.status == 200
    assert await resp.json() == {
        "success": True,
        "serial": SERIAL,
        "message": f"Thermostat {SERIAL} paired",
    }
    user_key, structure_key, _rooms = harness(service).home_keys(SERIAL)
    assert user_key == f"user.{harness(service).home_user_id}"
    pushed = await thermostat.next_object(structure_key)
    # Object keys, as firmware keeps them (a 5.9.4-5 capture).
    assert pushed["value"] == {"name": "Home", "devices": [f"device.{SERIAL}"]}
    status = await thermostat.passphrase_status()
    assert status["claimed"] is True
    assert status["claimedBy"] == harness(service).home_user_id


async def test_register_uses_a_given_user_id(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    thermostat = await connect_thermostat()
    code = (await thermostat.passphrase())["value"]
    resp = await client.post(f"{URL}/api/register", json={"code": code, "userId": "user42"})
    assert (await resp.json())["success"] is True
    pairing = service.pairing.record(SERIAL)
    assert pairing is not None
    assert pairing.user_id == "user42"


async def test_register_failures_are_200_with_success_false(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    thermostat = await connect_thermostat()
    code = (await thermostat.passphrase())["value"]
    unknown = "ZZZZZZZ" if code != "ZZZZZZZ" else "YYYYYYY"
    resp = await client.post(f"{URL}/api/register", json={"code": unknown})
    assert resp.status == 200
    body = await resp.json()
    assert body["success"] is False
    assert "No pending pairing code" in body["message"]

    key = harness(service).entry_key(code)
    assert key is not None
    key.expires = service.clock.now_ms() - 1
    resp = await client.post(f"{URL}/api/register", json={"code": code})
    assert resp.status == 200
    body = await resp.json()
    assert body == {"success": False, "message": body["message"]}
    assert "expired" in body["message"]

    code = (await thermostat.passphrase())["value"]
    assert (await pair(client, thermostat))["success"] is True
    resp = await client.post(f"{URL}/api/register", json={"code": code})
    assert resp.status == 200
    body = await resp.json()
    assert body["success"] is False
    assert "already used" in body["message"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"code": "AB-12"}, "code must be exactly 7 letters or digits"),
        ({"code": "ABCDEFGH"}, "code must be exactly 7 letters or digits"),
        ({"code": "ABC-DEF!"}, "code must be exactly 7 letters or digits"),
        ({}, "code is required: the 7 characters the thermostat shows"),
        ({"code": 1234567}, "code is required: the 7 characters the thermostat shows"),
        ({"code": "ABCDEFG", "userId": ""}, "userId must be a non-empty string"),
        ({"code": "ABCDEFG", "userId": 7}, "userId must be a non-empty string"),
        ([], "JSON body must be an object"),
    ],
)
async def test_register_malformed_is_400_with_success_false(
    client: Client, service: ThermostatService, body: Any, message: str
) -> None:
    resp = await client.post(f"{URL}/api/register", json=body)
    assert resp.status == 400
    assert await resp.json() == {"success": False, "message": message}
    assert not service.pairing.records()


async def test_register_invalid_json_is_400(client: Client) -> None:
    resp = await client.post(f"{URL}/api/register", data=b"{code")
    assert resp.status == 400
    assert await resp.json() == {"success": False, "message": "Invalid JSON body"}


# -- commands ------------------------------------------------------------------------------------


class Accepted(NamedTuple):
    """A command, and the fields it must write to `<key>.<serial>`."""

    name: str
    value: Any
    key: str
    expected: dict[str, Any]


class Refused(NamedTuple):
    """A refused command and its error response."""

    body: dict[str, Any]
    status: int
    code: str
    error: str | None
    """The exact message, where the test pins it."""


SCHEDULE = WEEK_SCHEDULE


SCHEDULE_ENTRY = {"temp": 20.0, "time": 21600, "type": "HEAT", "entry_type": "setpoint"}


@pytest.mark.parametrize(
    "case",
    [
        Accepted("set_temperature", 21.3, "shared", {"target_temperature": 21.5}),
        Accepted(
            "set_temperature",
            {"low": 18, "high": 25},
            "shared",
            {"target_temperature_low": 18.0, "target_temperature_high": 25.0},
        ),
        Accepted("set_mode", "heat_cool", "shared", {"target_temperature_type": "range"}),
        Accepted("set_mode", "off", "shared", {"target_temperature_type": "off"}),
        Accepted("set_eco", True, "device", {"eco_mode_enabled": True}),
        Accepted("set_fan", "on", "device", {"fan_mode": "on", "fan_timer_timeout": 0}),
        Accepted(
            "set_eco_temperatures",
            {"low": 12, "high": 29},
            "device",
            {"away_temperature_low": 12.0, "away_temperature_high": 29.0},
        ),
        Accepted(
            "set_temperature_lock",
            {"enabled": True, "pin": "1234", "temp_min": 18, "temp_max": 24},
            "device",
            {
                "temperature_lock_enabled": True,
                "temperature_lock_pin_hash": pin_hash("1234", SERIAL),
                "temperature_lock_low_temp": 18.0,
                "temperature_lock_high_temp": 24.0,
            },
        ),
        Accepted(
            "set_temperature_lock",
            {"enabled": False},
            "device",
            {"temperature_lock_enabled": False},
        ),
        Accepted("set_schedule", SCHEDULE, "schedule", SCHEDULE),
        Accepted("set_schedule_mode", "cool", "schedule", {"schedule_mode": "COOL"}),
        Accepted(
            "set_device_setting",
            {"name": "learning_mode", "value": True},
            "device",
            {"learning_mode": True},
        ),
        Accepted(
            "set_device_setting",
            {"name": "target_humidity", "value": 45},
            "device",
            {"target_humidity": 45},
        ),
        Accepted(
            "set_device_setting",
            {"name": "temperature_scale", "value": "F"},
            "device",
            {"temperature_scale": "F"},
        ),
    ],
    ids=lambda case: case.name,
)
async def test_command_writes_through_the_command_layer_and_pushes_at_once(
    client: Client,
    service: ThermostatService,
    connect_thermostat: ConnectThermostat,
    case: Accepted,
) -> None:
    name, value, key, expected = case
    thermostat = await connect_thermostat(
        shared={"can_heat": True, "can_cool": True}, device={"has_fan": True}, schedule={}
    )
    status, body = await command(client, name, value)
    assert status == 200, body
    bucket = harness(service).bucket(f"{key}.{SERIAL}")
    assert bucket is not None
    assert body == {
        "success": True,
        "message": f"{name} applied",
        "device": SERIAL,
        "object": f"{key}.{SERIAL}",
        "revision": bucket.revision,
        "timestamp": bucket.timestamp,
    }
    pushed = await thermostat.next_object(f"{key}.{SERIAL}")
    assert pushed["object_revision"] == bucket.revision
    assert expected.items() <= pushed["value"].items()


async def test_set_away_sets_the_away_state_of_the_home(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    thermostat = await connect_thermostat()
    await pair(client, thermostat)
    structure_key = f"structure.{service.home().structure_id}"
    assert "away" not in (await thermostat.next_object(structure_key))["value"]
    status, body = await command(client, "set_away", True)
    assert status == 200
    assert body["object"] == structure_key
    pushed = await thermostat.next_object(structure_key)
    assert pushed["value"]["away"] is True


async def test_fan_timer_in_seconds_runs_the_fan(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    await connect_thermostat(device={"has_fan": True})
    status, _ = await command(client, "set_fan", 60)
    assert status == 200
    device = harness(service).value(f"device.{SERIAL}")
    assert (device["fan_mode"], device["fan_timer_duration"]) == ("auto", 60)
    assert device["fan_timer_timeout"] > 0
    status_record = await (await client.get(f"{URL}/status", params={"serial": SERIAL})).json()
    assert status_record["fan_timer_active"] is True


async def test_a_fan_timer_for_a_thermostat_without_a_fan_is_refused(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    """Nothing is written when the thermostat reports no fan; the client is told why."""
    await connect_thermostat(device={"has_fan": False})
    before = harness(service).revisions()
    resp = await client.post(
        f"{URL}/command", json={"serial": SERIAL, "command": "set_fan", "value": 600}
    )
    assert resp.status == 422
    assert await resp.json() == {
        "success": False,
        "error": "The thermostat has no fan",
        "code": "unsupported",
    }
    assert harness(service).revisions() == before


@pytest.mark.parametrize(
    "case",
    [
        Refused({"serial": OTHER_SERIAL, "command": "set_temperature", "value": 20}, 404, "device_not_found", "Device not found"),
        Refused({"command": "set_temperature", "value": 20}, 400, "invalid_value", "Serial required"),
        Refused({"serial": SERIAL, "command": "make_coffee", "value": 1}, 400, "unknown_command", None),
        Refused({"serial": SERIAL, "value": 1}, 400, "unknown_command", None),
        Refused({"serial": SERIAL, "command": "set_temperature"}, 400, "invalid_value", "set_temperature needs a value"),
        Refused({"serial": SERIAL, "command": "set_temperature", "value": "warm"}, 400, "invalid_value", "Temperature value must be a number"),
        Refused({"serial": SERIAL, "command": "set_temperature", "value": 80}, 400, "invalid_value", None),
        Refused({"serial": SERIAL, "command": "set_temperature", "value": {"low": 25, "high": 20}}, 400, "invalid_value", "Low temperature must be less than high temperature"),
        Refused({"serial": SERIAL, "command": "set_mode", "value": "cool"}, 422, "unsupported", None),
        Refused({"serial": SERIAL, "command": "set_mode", "value": "sideways"}, 400, "invalid_value", None),
        Refused({"serial": SERIAL, "command": "set_away", "value": True}, 409, "not_paired", None),
        Refused({"serial": SERIAL, "command": "set_away", "value": "yes"}, 400, "invalid_value", "Away must be true or false"),
        Refused({"serial": SERIAL, "command": "set_fan", "value": 99999}, 400, "invalid_value", None),
        Refused({"serial": SERIAL, "command": "set_fan", "value": True}, 400, "invalid_value", None),
        Refused({"serial": SERIAL, "command": "set_eco_temperatures", "value": 20}, 400, "invalid_value", "set_eco_temperatures value must be an object"),
        Refused({"serial": SERIAL, "command": "set_temperature_lock", "value": {"enabled": True, "pin": "12a4", "temp_min": 18, "temp_max": 24}}, 400, "invalid_value", "The PIN must be exactly 4 digits"),
        Refused({"serial": SERIAL, "command": "set_schedule", "value": {"ver": 2}}, 400, "invalid_value", None),
        Refused({"serial": SERIAL, "command": "set_schedule", "value": {**SCHEDULE, "days": {"1": {"²": SCHEDULE_ENTRY}}}}, 400, "invalid_value", "Schedule day 1 entry ²: key must be a number"),
        Refused({"serial": SERIAL, "command": "set_schedule_mode", "value": "AUTO"}, 400, "invalid_value", None),
        Refused({"serial": SERIAL, "command": "set_device_setting", "value": {"name": "serial_number", "value": "x"}}, 400, "invalid_value", None),
        Refused({"serial": SERIAL, "command": "set_device_setting", "value": {"name": "target_humidity", "value": 95}}, 400, "invalid_value", None),
    ],
    ids=lambda case: f"{case.status}-{case.code}",
)  # fmt: skip
async def test_command_errors_have_a_status_code_and_message(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat, case: Refused
) -> None:
    body, status, code, error = case
    await connect_thermostat(shared={"can_heat": True, "can_cool": False}, device={"has_fan": True})
    before = harness(service).revisions()
    resp = await client.post(f"{URL}/command", json=body)
    assert resp.status == status
    data = await resp.json()
    assert data["success"] is False
    assert data["code"] == code
    assert isinstance(data["error"], str)
    assert data["error"]
    if error is not None:
        assert data["error"] == error
    assert harness(service).revisions() == before
    assert not service.devices.is_known(OTHER_SERIAL)


async def test_command_with_a_malformed_body_is_400(client: Client) -> None:
    resp = await client.post(f"{URL}/command", data=b"not json")
    assert resp.status == 400
    assert await resp.json() == {
        "success": False,
        "error": "Invalid JSON body",
        "code": "invalid_value",
    }


# -- notify-device -------------------------------------------------------------------------------


async def test_notify_device_pushes_stored_buckets_to_held_connections(
    client: Client, connect_thermostat: ConnectThermostat
) -> None:
    thermostat = await connect_thermostat(shared={"current_temperature": 20.0})
    resp = await client.post(f"{URL}/notify-device", json={"serial": SERIAL})
    assert resp.status == 200
    assert await resp.json() == {"success": True, "subscribers_notified": 1}
    pushed = await thermostat.next_object(f"shared.{SERIAL}")
    assert pushed["value"] == {"current_temperature": 20.0}


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({}, 400, "Serial required"),
        ({"serial": ""}, 400, "Serial required"),
        ({"serial": 12}, 400, "Serial required"),
        ({"serial": OTHER_SERIAL}, 404, "Device not found"),
    ],
)
async def test_notify_device_errors(
    client: Client, body: dict[str, Any], status: int, error: str
) -> None:
    """A wrong notify-device request is answered with its status and an error a client can show."""
    resp = await client.post(f"{URL}/notify-device", json=body)
    assert resp.status == status
    assert await resp.json() == {"error": error}


async def test_notify_device_malformed_json_is_400(client: Client) -> None:
    resp = await client.post(f"{URL}/notify-device", data=b"[")
    assert resp.status == 400
    assert await resp.json() == {"error": "Invalid JSON body"}


# -- the one learning rule ------------------------------------------------------------------------


async def test_a_schedule_while_learning_is_on_needs_to_be_told_what_to_do(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    """The same rule as the Home Assistant action: refused unless `turn_off_learning` is given."""
    thermostat = await connect_thermostat(device={"learning_mode": True}, schedule={})

    status, body = await command(client, "set_schedule", SCHEDULE)
    assert (status, body["code"]) == (400, "invalid_value")
    assert "turn_off_learning" in body["error"]
    assert harness(service).value(f"schedule.{SERIAL}") == {}

    status, body = await command(
        client, "set_schedule", {"schedule": SCHEDULE, "turn_off_learning": "yes"}
    )
    assert (status, body["error"]) == (400, "turn_off_learning must be true or false")

    status, body = await command(
        client, "set_schedule", {"schedule": SCHEDULE, "turn_off_learning": True}
    )
    assert status == 200, body
    # One push: the schedule and learning off together.
    pushed = await thermostat.next_object(f"device.{SERIAL}")
    assert pushed["value"]["learning_mode"] is False
    assert harness(service).value(f"schedule.{SERIAL}") == SCHEDULE


async def test_a_schedule_may_keep_learning_on_when_told_so(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    await connect_thermostat(device={"learning_mode": True}, schedule={})
    status, body = await command(
        client, "set_schedule", {"schedule": SCHEDULE, "turn_off_learning": False}
    )
    assert status == 200, body
    assert harness(service).value(f"device.{SERIAL}")["learning_mode"] is True
    assert harness(service).value(f"schedule.{SERIAL}") == SCHEDULE


# -- heat pump, dual fuel and the display's unit ----------------------------------------------------


async def test_compressor_lockout_is_written_where_firmware_keeps_it(
    client: Client, service: ThermostatService, connect_thermostat: ConnectThermostat
) -> None:
    """In `shared`, as a 5.9.4-5 capture has it; what an earlier version put in `device` is read."""
    thermostat = await connect_thermostat(
        shared={"can_heat": True}, device={"compressor_lockout_enabled": True}
    )
    state = service.thermostat(SERIAL)
    assert state.device_flag("compressor_lockout_enabled") is True  # stored by an earlier version

    status, body = await command(
        client, "set_device_setting", {"name": "compressor_lockout_enabled", "value": False}
    )
    assert (status, body["object"]) == (200, f"shared.{SERIAL}")
    pushed = await thermostat.next_object(f"shared.{SERIAL}")
    assert pushed["value"]["compressor_lockout_enabled"] is False
    assert state.device_flag("compressor_lockout_enabled") is False


@pytest.mark.parametrize(
    "case",
    [
        # Wrong types, out-of-range thresholds, unknown scale letters: nothing written.
        ({"name": "heat_pump_aux_threshold", "value": "10"}, 400, "invalid_value", None),
        ({"name": "heat_pump_aux_threshold", "value": 40}, 400, "invalid_value", None),
        ({"name": "heat_pump_comp_threshold", "value": -60}, 400, "invalid_value", None),
        ({"name": "dual_fuel_breakpoint", "value": float("1e308")}, 400, "invalid_value", None),
        ({"name": "heat_pump_aux_threshold_enabled", "value": 1}, 400, "invalid_value", None),
        ({"name": "temperature_scale", "value": "K"}, 400, "invalid_value", None),
        ({"name": "temperature_scale", "value": "f"}, 400, "invalid_value", None),
        ({"name": "temperature_scale", "value": ["F"]}, 400, "invalid_value", None),
        # Settings of equipment the thermostat does not report: firmware would ignore them.
        (
            {"name": "heat_pump_aux_threshold", "value": 5},
            422,
            "unsupported",
            "heat_pump_aux_threshold is a heat pump setting and the thermostat reports no heat pump",
        ),
        (
            {"name": "dual_fuel_breakpoint", "value": 0},
            422,
            "unsupported",
            "dual_fuel_breakpoint is a dual fuel setting and the thermostat reports no dual fuel",
        ),
    ],
)
async def test_heat_pump_settings_refuse_what_firmware_would_not_take(
    client: Client,
    service: ThermostatService,
    connect_thermostat: ConnectThermostat,
    case: tuple[dict[str, Any], int, str, str | None],
) -> None:
    setting, status, code, error = case
    await connect_thermostat(device={"has_heat_pump": status == 400, "has_dual_fuel": False})
    before = dict(harness(service).value(f"device.{SERIAL}"))
    answer_status, body = await command(client, "set_device_setting", setting)
    assert (answer_status, body["code"]) == (status, code), body
    if error is not None:
        assert body["error"] == error
    assert harness(service).value(f"device.{SERIAL}") == before
