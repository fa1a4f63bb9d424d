"""Every hosted endpoint through Home Assistant's HTTP server, against a paired thermostat."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core.read.validation import pin_hash
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import OTHER_SERIAL, SERIAL

from .conftest import CreateKey, HostedClient, Paired, PairThermostat, device_id, wait_for_field

COMMAND_FIELDS = ["success", "message", "device", "object", "revision", "timestamp"]


def assert_command_response(body: dict[str, Any], service: ThermostatService, key: str) -> None:
    """Return the spec's command response, naming the bucket written and its new revision."""
    assert list(body) == COMMAND_FIELDS
    bucket = harness(service).bucket(key)
    assert bucket is not None
    assert body["success"] is True
    assert body["device"] == SERIAL
    assert body["object"] == key
    assert body["revision"] == bucket.revision
    assert body["timestamp"] == bucket.timestamp


def written(service: ThermostatService, key: str) -> tuple[int, dict[str, Any]] | None:
    """Return a bucket's revision and value (None while there is no such bucket)."""
    bucket = harness(service).bucket(key)
    return None if bucket is None else (bucket.revision, dict(bucket.value))


async def assert_refused(
    paired: Paired, action: str, body: Any, error: str, *, bucket: str, method: str = "POST"
) -> None:
    """Assert the thermostat's `action` answers 400 with the error, leaving the bucket be."""
    api, service, _, key = paired
    before = written(service, bucket)

    response, answer = await api.request(
        method, f"/thermostat/{device_id(service)}/{action}", key, body
    )

    assert (response.status, answer) == (400, {"error": error})
    assert written(service, bucket) == before


# -- devices and status --------------------------------------------------------------------------


async def test_devices_lists_paired_devices_by_uuid(
    api: HostedClient,
    service: ThermostatService,
    pair: PairThermostat,
    make_thermostat: Any,
    make_key: CreateKey,
) -> None:
    """Paired devices are listed with their UUID; an unpaired one that made contact is not."""
    await pair()
    await make_thermostat(OTHER_SERIAL).passphrase()  # contacted the server, never paired
    key = await make_key()

    response, body = await api.get("/devices", key)

    assert response.status == 200
    assert body == {
        "devices": [
            {
                "id": device_id(service),
                "serial": SERIAL,
                "name": "Hallway",
                "accessType": "owner",
            }
        ]
    }
    assert body["devices"][0]["id"] != SERIAL


async def test_status_is_the_devices_buckets_keyed_by_bucket_key(paired: Paired) -> None:
    api, service, _, key = paired

    response, body = await api.get(f"/thermostat/{device_id(service)}/status", key)

    assert response.status == 200
    assert body["device"] == {"id": device_id(service), "serial": SERIAL, "name": "Hallway"}
    assert set(body["state"]) == {f"device.{SERIAL}", f"shared.{SERIAL}"}
    shared = harness(service).bucket(f"shared.{SERIAL}")
    assert shared is not None
    # The home is not away: clients of the hosted service read that from shared.auto_away.
    assert body["state"][f"shared.{SERIAL}"] == {
        "object_revision": shared.revision,
        "object_timestamp": shared.timestamp,
        "value": {**shared.value, "auto_away": 0},
    }


async def test_status_leaves_out_the_lock_pin_hash(
    api: HostedClient, service: ThermostatService, pair: PairThermostat, make_key: CreateKey
) -> None:
    """The PIN hash gives the PIN away in 10,000 tries: no key reads it, not even a shared one.

    The device paired without a user is the home's; the read-only key here sees it as the
    home's (owner), the one of a device paired for another user as shared.
    """
    await pair(SERIAL)
    await pair(OTHER_SERIAL, user_id="neighbour")
    for serial in (SERIAL, OTHER_SERIAL):
        service.commands.set_temperature_lock(serial, True, pin_hash("0420", serial), 18, 24)
    key = await make_key(scopes=["read"])

    for serial in (SERIAL, OTHER_SERIAL):
        response, body = await api.get(f"/thermostat/{device_id(service, serial)}/status", key)

        assert response.status == 200
        device = body["state"][f"device.{serial}"]["value"]
        assert device["temperature_lock_enabled"] is True
        assert "temperature_lock_pin_hash" not in device
        assert pin_hash("0420", serial) not in str(body)
        # The thermostat still has it: only the API leaves it out.
        stored = harness(service).value(f"device.{serial}")
        assert stored["temperature_lock_pin_hash"] == pin_hash("0420", serial)


# -- temperature --------------------------------------------------------------------------------


async def test_temperature_is_pushed_to_the_thermostat(paired: Paired) -> None:
    api, service, thermostat, key = paired

    response, body = await api.post(
        f"/thermostat/{device_id(service)}/temperature", key, {"value": 22.5, "mode": "cool"}
    )

    assert response.status == 200
    assert_command_response(body, service, f"shared.{SERIAL}")
    pushed = await wait_for_field(thermostat, f"shared.{SERIAL}", "target_temperature", 22.5)
    assert pushed["value"]["target_temperature_type"] == "cool"


@pytest.mark.parametrize(
    ("value", "scale", "celsius"),
    [
        (70, "F", 21.0),  # 21.11 °C
        (71, "F", 21.5),  # 21.67 °C
        (68, "F", 20.0),
        (72.5, "f", 22.5),  # 22.5 °C exactly; the scale is case-insensitive
        (21.3, "C", 21.5),
        (21.2, None, 21.0),  # Celsius is the default
    ],
)
async def test_temperature_converts_fahrenheit_and_rounds_to_half_degrees(
    paired: Paired,
    value: float,
    scale: str | None,
    celsius: float,
) -> None:
    api, service, _, key = paired
    body: dict[str, Any] = {"value": value, "mode": "heat"}
    if scale is not None:
        body["scale"] = scale

    response, _ = await api.post(f"/thermostat/{device_id(service)}/temperature", key, body)

    assert response.status == 200
    assert harness(service).value(f"shared.{SERIAL}")["target_temperature"] == celsius


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"value": "21", "mode": "heat"}, "Temperature value must be a number"),
        ({"value": None, "mode": "heat"}, "Temperature value must be a number"),
        ({"value": True, "mode": "heat"}, "Temperature value must be a number"),
        ({"mode": "heat"}, "Temperature value must be a number"),
        ({"value": 21}, "mode must be heat or cool"),
        ({"value": 21, "mode": "range"}, "mode must be heat or cool"),
        ({"value": 21, "mode": "heat", "scale": "K"}, "scale must be C or F"),
        ({"value": 45, "mode": "heat"}, "Temperature value must be between 4.5 and 32.0 °C"),
        (
            {"value": 100, "mode": "heat", "scale": "F"},
            "Temperature value must be between 4.5 and 32.0 °C",
        ),
    ],
)
async def test_temperature_refuses_bad_values(
    paired: Paired, body: dict[str, Any], error: str
) -> None:
    await assert_refused(paired, "temperature", body, error, bucket=f"shared.{SERIAL}")


async def test_temperature_mode_the_equipment_cannot_do_is_refused(
    api: HostedClient, service: ThermostatService, pair: PairThermostat, make_key: CreateKey
) -> None:
    await pair(shared={"can_heat": True, "can_cool": False})
    key = await make_key()

    response, body = await api.post(
        f"/thermostat/{device_id(service)}/temperature", key, {"value": 24, "mode": "cool"}
    )

    assert response.status == 400
    assert body == {"error": "The thermostat cannot do cool (can_cool is false)"}


# -- range --------------------------------------------------------------------------------------


async def test_range_sets_both_setpoints_and_switches_to_range(paired: Paired) -> None:
    api, service, thermostat, key = paired

    response, body = await api.post(
        f"/thermostat/{device_id(service)}/temperature/range",
        key,
        {"low": 66, "high": 75, "scale": "F"},
    )

    assert response.status == 200
    assert_command_response(body, service, f"shared.{SERIAL}")
    pushed = await wait_for_field(
        thermostat, f"shared.{SERIAL}", "target_temperature_type", "range"
    )
    assert pushed["value"]["target_temperature_low"] == 19.0  # 18.89 °C
    assert pushed["value"]["target_temperature_high"] == 24.0  # 23.89 °C


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"low": 22, "high": 20}, "low must be less than high"),
        ({"low": 21, "high": 21}, "low must be less than high"),
        ({"low": 21.1, "high": 21.2}, "Low temperature must be less than high temperature"),
        ({"low": "19", "high": 24}, "low must be a number"),
        ({"low": 19}, "high must be a number"),
        ({"low": 19, "high": 24, "scale": 1}, "scale must be C or F"),
    ],
)
async def test_range_refuses_bad_values(paired: Paired, body: dict[str, Any], error: str) -> None:
    await assert_refused(paired, "temperature/range", body, error, bucket=f"shared.{SERIAL}")


# -- fan ----------------------------------------------------------------------------------------


async def test_fan_mode_is_written_to_the_device_bucket(paired: Paired) -> None:
    api, service, thermostat, key = paired

    response, body = await api.post(f"/thermostat/{device_id(service)}/fan", key, {"mode": "on"})

    assert response.status == 200
    assert_command_response(body, service, f"device.{SERIAL}")
    await wait_for_field(thermostat, f"device.{SERIAL}", "fan_mode", "on")


async def test_fan_timer_ends_in_auto_pushed_to_the_thermostat(
    hass: HomeAssistant, paired: Paired
) -> None:
    api, service, thermostat, key = paired

    response, body = await api.post(f"/thermostat/{device_id(service)}/fan", key, {"duration": 900})

    assert response.status == 200
    assert_command_response(body, service, f"device.{SERIAL}")
    # The timer in fan mode auto, which the thermostat ends itself.
    running = await wait_for_field(thermostat, f"device.{SERIAL}", "fan_timer_duration", 900)
    assert running["value"]["fan_timer_timeout"] > 0
    assert running["value"]["fan_mode"] == "auto"

    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=600))
    await hass.async_block_till_done()
    assert harness(service).value(f"device.{SERIAL}")["fan_timer_timeout"] > 0

    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=901))
    ended = await wait_for_field(thermostat, f"device.{SERIAL}", "fan_timer_timeout", 0)
    assert ended["value"]["fan_mode"] == "auto"


async def test_fan_timer_survives_a_restart(hass: HomeAssistant, paired: Paired) -> None:
    """The timer is state, not just a callback: a reloaded hub re-arms it."""
    api, service, _, key = paired
    response, _ = await api.post(f"/thermostat/{device_id(service)}/fan", key, {"duration": 600})
    assert response.status == 200
    entry = hass.config_entries.async_entries("thermostat_cloud")[0]

    assert await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    restarted = entry.runtime_data.service
    assert restarted is not service
    assert harness(restarted).value(f"device.{SERIAL}")["fan_timer_timeout"] > 0

    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=601))
    await hass.async_block_till_done()
    assert harness(restarted).value(f"device.{SERIAL}")["fan_timer_timeout"] == 0


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"duration": 43201}, "Fan duration must be whole seconds from 1 to 43200"),
        ({"duration": 0}, "Fan duration must be whole seconds from 1 to 43200"),
        ({"duration": 1.5}, "Fan duration must be whole seconds from 1 to 43200"),
        ({"duration": "60"}, "Fan duration must be a number"),
        ({"mode": "fast"}, "Fan mode must be on, auto or off"),
        ({"mode": "on", "duration": 60}, "Give either a fan mode or a duration"),
        ({}, "Give either a fan mode or a duration"),
    ],
)
async def test_fan_refuses_bad_requests(paired: Paired, body: dict[str, Any], error: str) -> None:
    await assert_refused(paired, "fan", body, error, bucket=f"device.{SERIAL}")


async def test_fan_duration_at_the_limit_is_accepted(paired: Paired) -> None:
    api, service, _, key = paired

    response, _ = await api.post(f"/thermostat/{device_id(service)}/fan", key, {"duration": 43200})

    assert response.status == 200
    assert harness(service).value(f"device.{SERIAL}")["fan_timer_duration"] == 43200


# -- lock ---------------------------------------------------------------------------------------


async def test_lock_enable_and_disable(paired: Paired) -> None:
    api, service, thermostat, key = paired
    path = f"/thermostat/{device_id(service)}/lock"
    digest = pin_hash("0420", SERIAL)

    response, body = await api.post(
        path, key, {"enabled": True, "pin_hash": digest, "temp_min": 18, "temp_max": 23.5}
    )

    assert response.status == 200
    assert_command_response(body, service, f"device.{SERIAL}")
    locked = await wait_for_field(thermostat, f"device.{SERIAL}", "temperature_lock_enabled", True)
    assert locked["value"]["temperature_lock_pin_hash"] == digest
    assert locked["value"]["temperature_lock_low_temp"] == 18.0
    assert locked["value"]["temperature_lock_high_temp"] == 23.5

    response, body = await api.post(path, key, {"enabled": False})

    assert response.status == 200
    assert body["message"] == "Temperature lock disabled"
    await wait_for_field(thermostat, f"device.{SERIAL}", "temperature_lock_enabled", False)


PIN_HASH_ERROR = "pin_hash must be Base64 of the SHA-1 of the 4-digit PIN followed by the serial"


@pytest.mark.parametrize(
    ("body", "error"),
    [
        # Hex is not Base64 of 20 bytes; neither is Base64 of the wrong length.
        (
            {
                "enabled": True,
                "pin_hash": "7110eda4d09e062aa5e4a390b0a572ac0d2c0220",
                "temp_min": 18,
                "temp_max": 24,
            },
            PIN_HASH_ERROR,
        ),
        ({"enabled": True, "pin_hash": "MTIzNA==", "temp_min": 18, "temp_max": 24}, PIN_HASH_ERROR),
        ({"enabled": True, "temp_min": 18, "temp_max": 24}, PIN_HASH_ERROR),
        (
            {"enabled": True, "pin_hash": pin_hash("1234", SERIAL), "temp_max": 24},
            "temp_min must be a number",
        ),
        (
            {"enabled": True, "pin_hash": pin_hash("1234", SERIAL), "temp_min": 24, "temp_max": 18},
            "temp_min must be less than temp_max",
        ),
        ({"enabled": "yes"}, "Enabled must be true or false"),
        ({}, "Enabled must be true or false"),
    ],
)
async def test_lock_refuses_bad_requests(paired: Paired, body: dict[str, Any], error: str) -> None:
    await assert_refused(paired, "lock", body, error, bucket=f"device.{SERIAL}")
    assert "temperature_lock_enabled" not in harness(paired.service).value(f"device.{SERIAL}")


# -- schedule -----------------------------------------------------------------------------------

SCHEDULE = {
    "ver": 2,
    "name": "Week",
    "schedule_mode": "HEAT",
    "days": {
        "0": {"0": {"temp": 20.5, "time": 25200, "type": "HEAT", "entry_type": "setpoint"}},
        "6": {
            "0": {"temp": 19, "time": 0, "type": "HEAT", "entry_type": "continuation"},
            "1": {"temp": 21, "time": 86400, "type": "HEAT", "entry_type": "setpoint"},
        },
    },
}


async def test_schedule_round_trip(paired: Paired) -> None:
    api, service, _, key = paired
    path = f"/thermostat/{device_id(service)}/schedule"

    response, body = await api.get(path, key)
    assert (response.status, body["schedule"]) == (200, None)

    response, body = await api.request("PUT", path, key, {"schedule": SCHEDULE})
    assert response.status == 200
    assert_command_response(body, service, f"schedule.{SERIAL}")

    response, body = await api.get(path, key)
    assert response.status == 200
    assert body == {
        "device": {"id": device_id(service), "serial": SERIAL, "name": "Hallway"},
        "schedule": SCHEDULE,
    }


def _schedule_with(**changes: Any) -> dict[str, Any]:
    return {**SCHEDULE, **changes}


ENTRY = {"temp": 20, "time": 3600, "type": "HEAT", "entry_type": "setpoint"}


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({}, "schedule is required"),
        ({"schedule": []}, "Schedule must be an object"),
        ({"schedule": _schedule_with(ver=None)}, "Schedule ver must be a positive integer"),
        (
            {"schedule": _schedule_with(schedule_mode="AUTO")},
            "Schedule schedule_mode must be HEAT, COOL or RANGE",
        ),
        ({"schedule": _schedule_with(name=7)}, "Schedule name must be a string"),
        ({"schedule": _schedule_with(days=[])}, "Schedule days must be an object"),
        ({"schedule": _schedule_with(days={"7": {"0": ENTRY}})}, "Schedule day '7' is not 0 to 6"),
        ({"schedule": _schedule_with(days={"1": [ENTRY]})}, "Schedule day 1 must be an object"),
        (
            {"schedule": _schedule_with(days={"1": {"0": "HEAT"}})},
            "Schedule day 1 entry 0 must be an object",
        ),
        (
            {"schedule": _schedule_with(days={"1": {"first": ENTRY}})},
            "Schedule day 1 entry first: key must be a number",
        ),
        (
            # A digit to str.isdigit(), but no number of an entry.
            {"schedule": _schedule_with(days={"1": {"٣": ENTRY}})},
            "Schedule day 1 entry ٣: key must be a number",
        ),
        (
            {"schedule": _schedule_with(days={"1": {"0": {**ENTRY, "time": 86401}}})},
            "Schedule day 1 entry 0: time must be 0 to 86400",
        ),
        (
            {"schedule": _schedule_with(days={"1": {"0": {**ENTRY, "type": "FAN"}}})},
            "Schedule day 1 entry 0: type must be HEAT, COOL or RANGE",
        ),
        (
            {"schedule": _schedule_with(days={"1": {"0": {**ENTRY, "entry_type": "hold"}}})},
            "Schedule day 1 entry 0: entry_type must be setpoint or continuation",
        ),
        (
            {"schedule": _schedule_with(days={"1": {"0": {**ENTRY, "temp": "warm"}}})},
            "Schedule day 1 entry 0: temp must be a number",
        ),
    ],
)
async def test_schedule_put_validates_the_whole_schedule(
    paired: Paired, body: dict[str, Any], error: str
) -> None:
    await assert_refused(paired, "schedule", body, error, bucket=f"schedule.{SERIAL}", method="PUT")
    assert harness(paired.service).bucket(f"schedule.{SERIAL}") is None


# -- delete -------------------------------------------------------------------------------------


async def test_delete_unpairs_and_the_device_keeps_its_settings(paired: Paired) -> None:
    api, service, thermostat, key = paired
    ident = device_id(service)
    settings = dict(harness(service).value(f"shared.{SERIAL}"))

    response, body = await api.request("DELETE", f"/thermostat/{ident}", key)

    assert response.status == 200
    assert body["success"] is True
    assert not service.pairing.is_paired(SERIAL)
    assert harness(service).value(f"shared.{SERIAL}") == settings
    _, listed = await api.get("/devices", key)
    assert listed == {"devices": []}
    response, body = await api.get(f"/thermostat/{ident}/status", key)
    assert (response.status, body) == (404, {"error": "Device not found"})

    # It can be claimed again with a new code, under the same id.
    code = (await thermostat.passphrase())["value"]
    assert service.pairing.register(code).success
    _, listed = await api.get("/devices", key)
    assert [d["id"] for d in listed["devices"]] == [ident]


# -- bodies and paths ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (b"{not json", "Invalid JSON body"),
        (b"", "Invalid JSON body"),
        (b"[21]", "JSON body must be an object"),
    ],
)
async def test_malformed_bodies_are_400(
    paired: Paired,
    data: bytes,
    error: str,
) -> None:
    api, service, _, key = paired

    response, body = await api.request(
        "POST",
        f"/thermostat/{device_id(service)}/temperature",
        key,
        data=data,
        headers={"Content-Type": "application/json"},
    )

    assert (response.status, body) == (400, {"error": error})


async def test_device_is_checked_before_the_body(paired: Paired) -> None:
    """A malformed body to an unknown device is about the device: 404, not 400."""
    api, _, _, key = paired

    response, body = await api.request(
        "POST",
        "/thermostat/5e0c1c34-0000-4000-8000-000000000000/temperature",
        key,
        data=b"{not json",
        headers={"Content-Type": "application/json"},
    )

    assert (response.status, body) == (404, {"error": "Device not found"})


async def test_unknown_paths_and_methods(paired: Paired) -> None:
    api, service, _, key = paired
    ident = device_id(service)

    response, body = await api.get("/thermostats", key)
    assert (response.status, body) == (404, {"error": "Not found"})
    response, body = await api.get(f"/thermostat/{ident}/humidity", key)
    assert (response.status, body) == (404, {"error": "Not found"})

    response, body = await api.request("PATCH", f"/thermostat/{ident}/schedule", key, {})
    assert (response.status, body) == (405, {"error": "Method not allowed"})
    assert response.headers["Allow"] == "GET, PUT"
    response, body = await api.post("/devices", key, {})
    assert (response.status, body) == (405, {"error": "Method not allowed"})


async def test_unknown_device_id_is_404(paired: Paired) -> None:
    api, _service, _, key = paired

    for path in (
        "/thermostat/5e0c1c34-0000-4000-8000-000000000000/status",
        f"/thermostat/{SERIAL}/status",
    ):
        response, body = await api.get(path, key)
        assert (response.status, body) == (404, {"error": "Device not found"})


async def test_a_schedule_while_learning_is_on_needs_to_be_told_what_to_do(
    api: HostedClient, service: ThermostatService, pair: PairThermostat, make_key: CreateKey
) -> None:
    """The one learning rule of every client: refused unless `turn_off_learning` is given."""
    thermostat = await pair(device={"has_fan": True, "learning_mode": True})
    key = await make_key()
    path = f"/thermostat/{device_id(service)}/schedule"

    response, body = await api.request("PUT", path, key, {"schedule": SCHEDULE})
    assert response.status == 400
    assert "turn_off_learning" in body["error"]
    assert harness(service).bucket(f"schedule.{SERIAL}") is None

    response, body = await api.request(
        "PUT", path, key, {"schedule": SCHEDULE, "turn_off_learning": "yes"}
    )
    assert (response.status, body["error"]) == (400, "turn_off_learning must be true or false")

    response, body = await api.request(
        "PUT", path, key, {"schedule": SCHEDULE, "turn_off_learning": True}
    )
    assert response.status == 200, body
    await wait_for_field(thermostat, f"device.{SERIAL}", "learning_mode", False)
    assert harness(service).value(f"schedule.{SERIAL}") == SCHEDULE
