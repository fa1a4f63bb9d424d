"""What clients written for the hosted service send and read, through the hosted API.

The request shapes and the fields read are those of the clients' code (facts, not their
code): the PTR Home Assistant integration (patricktr/NoLongerEvil-HomeAssistant,
custom_components/nolongerevil/api.py and const.py) sends `POST .../mode` `{"mode": "heat" |
"cool" | "heat-cool" | "off"}` and `POST .../away` `{"away": bool}`, and reads away from
`shared.auto_away` (2 = away) and the fan from `shared.fan_mode`; the homebridge plugin
(lastowl/homebridge-nolongerevil-nest, src/api.ts) does the same.
"""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import OTHER_SERIAL, SERIAL

from .conftest import (
    DEVICE,
    SHARED,
    CreateKey,
    HostedClient,
    Paired,
    PairThermostat,
    device_id,
    wait_for_field,
)

HEAT_PUMP = {**SHARED, "target_temperature_type": "heat"}


def client_reads(body: dict[str, Any]) -> dict[str, Any]:
    """Return the `shared` value of a status answer, where those clients read it."""
    return dict(body["state"][f"shared.{SERIAL}"]["value"])


# -- mode ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "stored"),
    [
        ("heat-cool", "range"),
        ("cool", "cool"),
        ("off", "off"),
        ("range", "range"),
        ("auto", "range"),
        ("emergency", "emergency"),
        ("heat", "heat"),
    ],
)
async def test_mode_is_pushed_and_read_back(
    api: HostedClient,
    service: ThermostatService,
    pair: PairThermostat,
    *,
    make_key: CreateKey,
    mode: str,
    stored: str,
) -> None:
    thermostat = await pair(
        shared={**HEAT_PUMP, "target_temperature_type": "cool" if mode == "heat" else "heat"},
        device={**DEVICE, "has_emer_heat": True},
    )
    key = await make_key()
    path = f"/thermostat/{device_id(service)}"

    response, body = await api.post(f"{path}/mode", key, {"mode": mode})

    assert response.status == 200
    assert body["success"] is True
    assert body["device"] == SERIAL
    assert body["object"] == f"shared.{SERIAL}"
    assert body["message"] == f"Mode set to {stored}"
    bucket = harness(service).bucket(f"shared.{SERIAL}")
    assert bucket is not None
    assert (body["revision"], body["timestamp"]) == (bucket.revision, bucket.timestamp)
    await wait_for_field(thermostat, f"shared.{SERIAL}", "target_temperature_type", stored)
    _, status = await api.get(f"{path}/status", key)
    assert client_reads(status)["target_temperature_type"] == stored


@pytest.mark.parametrize(
    ("mode", "error"),
    [
        ("cool", "The thermostat cannot do cool (can_cool is false)"),
        ("heat-cool", "The thermostat cannot do range (can_cool is false)"),
        ("emergency", "The thermostat cannot do emergency (has_emer_heat is false)"),
    ],
)
async def test_mode_the_equipment_cannot_do_is_400(
    api: HostedClient,
    service: ThermostatService,
    pair: PairThermostat,
    *,
    make_key: CreateKey,
    mode: str,
    error: str,
) -> None:
    await pair(shared={**HEAT_PUMP, "can_cool": False})
    key = await make_key()
    before = harness(service).value(f"shared.{SERIAL}")

    response, body = await api.post(f"/thermostat/{device_id(service)}/mode", key, {"mode": mode})

    assert (response.status, body) == (400, {"error": error})
    assert harness(service).value(f"shared.{SERIAL}") == before


@pytest.mark.parametrize("body", [{"mode": "eco"}, {"mode": "HEAT "}, {"mode": 1}, {}])
async def test_unknown_mode_is_400(paired: Paired, body: dict[str, Any]) -> None:
    api, service, _, key = paired
    before = harness(service).value(f"shared.{SERIAL}")

    response, answer = await api.post(f"/thermostat/{device_id(service)}/mode", key, body)

    assert (response.status, answer) == (
        400,
        {"error": "mode must be one of heat, cool, heat-cool, range, off, emergency, auto"},
    )
    assert harness(service).value(f"shared.{SERIAL}") == before


# -- away ---------------------------------------------------------------------------------------


async def test_away_is_pushed_to_the_home_and_read_as_auto_away(paired: Paired) -> None:
    api, service, thermostat, key = paired
    path = f"/thermostat/{device_id(service)}"
    pairing = service.pairing.record(SERIAL)
    assert pairing is not None
    structure = f"structure.{pairing.structure_id}"
    _, status = await api.get(f"{path}/status", key)
    assert client_reads(status)["auto_away"] == 0

    response, body = await api.post(f"{path}/away", key, {"away": True})

    assert response.status == 200
    assert body["success"] is True
    assert body["object"] == structure
    assert body["message"] == "Home set to away"
    await wait_for_field(thermostat, structure, "away", True)
    _, status = await api.get(f"{path}/status", key)
    assert client_reads(status)["auto_away"] == 2

    response, body = await api.post(f"{path}/away", key, {"away": False})

    assert response.status == 200
    assert body["message"] == "Home set to home"
    await wait_for_field(thermostat, structure, "away", False)
    _, status = await api.get(f"{path}/status", key)
    assert client_reads(status)["auto_away"] == 0


async def test_auto_away_is_shown_never_stored_or_pushed(paired: Paired) -> None:
    """Firmware uses shared.auto_away for its own occupancy sensing: it must not get ours."""
    api, service, thermostat, key = paired
    path = f"/thermostat/{device_id(service)}"
    pairing = service.pairing.record(SERIAL)
    assert pairing is not None

    await api.post(f"{path}/away", key, {"away": True})
    await wait_for_field(thermostat, f"structure.{pairing.structure_id}", "away", True)
    _, status = await api.get(f"{path}/status", key)

    assert client_reads(status)["auto_away"] == 2
    assert "auto_away" not in harness(service).value(f"shared.{SERIAL}")
    assert "auto_away" not in thermostat.local[f"shared.{SERIAL}"].value


@pytest.mark.parametrize("body", [{"away": "true"}, {"away": 1}, {"away": None}, {}])
async def test_away_must_be_a_boolean(paired: Paired, body: dict[str, Any]) -> None:
    api, service, _, key = paired

    response, answer = await api.post(f"/thermostat/{device_id(service)}/away", key, body)

    assert (response.status, answer) == (400, {"error": "away must be true or false"})
    pairing = service.pairing.record(SERIAL)
    assert pairing is not None
    assert harness(service).value(f"structure.{pairing.structure_id}").get("away") is not True


# -- fan mode in the status ------------------------------------------------------------------------


async def test_status_shows_the_fan_mode_where_clients_read_it(paired: Paired) -> None:
    api, service, thermostat, key = paired
    path = f"/thermostat/{device_id(service)}"
    _, status = await api.get(f"{path}/status", key)
    assert "fan_mode" not in client_reads(status)  # not reported yet: clients assume auto

    await api.post(f"{path}/fan", key, {"mode": "on"})
    _, status = await api.get(f"{path}/status", key)
    assert client_reads(status)["fan_mode"] == "on"
    assert "fan_mode" not in harness(service).value(f"shared.{SERIAL}")

    # The fan switched back on the thermostat itself (firmware keeps it in `device`).
    await thermostat.put(f"device.{SERIAL}", {"fan_mode": "auto"})
    _, status = await api.get(f"{path}/status", key)
    assert client_reads(status)["fan_mode"] == "auto"


# -- scope, access and limits --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("endpoint", "body"), [("mode", {"mode": "off"}), ("away", {"away": True})]
)
async def test_mode_and_away_need_the_write_scope(
    paired: Paired, make_key: CreateKey, endpoint: str, body: dict[str, Any]
) -> None:
    api, service, _, _ = paired
    read_only = await make_key(["read"])
    before = harness(service).value(f"shared.{SERIAL}")

    response, answer = await api.post(
        f"/thermostat/{device_id(service)}/{endpoint}", read_only, body
    )

    assert (response.status, answer) == (
        403,
        {"error": "Insufficient scope", "requiredScope": "write"},
    )
    assert harness(service).value(f"shared.{SERIAL}") == before
    _, status = await api.get(f"/thermostat/{device_id(service)}/status", read_only)
    assert client_reads(status)["auto_away"] == 0


@pytest.mark.parametrize(
    ("endpoint", "body"), [("mode", {"mode": "off"}), ("away", {"away": True})]
)
async def test_mode_and_away_follow_the_keys_device_access(
    api: HostedClient,
    service: ThermostatService,
    pair: PairThermostat,
    *,
    make_key: CreateKey,
    endpoint: str,
    body: dict[str, Any],
) -> None:
    await pair(SERIAL)
    await pair(OTHER_SERIAL)
    key = await make_key(serials=[OTHER_SERIAL])

    response, answer = await api.post(
        f"/thermostat/{device_id(service, SERIAL)}/{endpoint}", key, body
    )
    assert (response.status, answer) == (403, {"error": "Access denied to this device"})

    response, answer = await api.post(f"/thermostat/{SERIAL}/{endpoint}", key, body)
    assert (response.status, answer) == (404, {"error": "Device not found"})

    assert harness(service).value(f"shared.{SERIAL}").get("target_temperature_type") != "off"
    response, _ = await api.post(
        f"/thermostat/{device_id(service, OTHER_SERIAL)}/{endpoint}", key, body
    )
    assert response.status == 200


async def test_mode_and_away_count_against_the_rate_limit(paired: Paired) -> None:
    """The clients track X-RateLimit-Remaining; mode and away spend the same quota."""
    api, service, _, key = paired
    path = f"/thermostat/{device_id(service)}"

    first, _ = await api.post(f"{path}/mode", key, {"mode": "heat-cool"})
    second, _ = await api.post(f"{path}/away", key, {"away": True})

    assert first.headers["X-RateLimit-Limit"] == second.headers["X-RateLimit-Limit"] == "20"
    remaining = int(second.headers["X-RateLimit-Remaining"])
    assert int(first.headers["X-RateLimit-Remaining"]) == remaining + 1
    for _ in range(remaining):
        response, _ = await api.post(f"{path}/away", key, {"away": False})
        assert response.status == 200
    response, body = await api.post(f"{path}/mode", key, {"mode": "off"})
    assert response.status == 429
    assert body["error"] == "Rate limit exceeded"
    assert harness(service).value(f"shared.{SERIAL}")["target_temperature_type"] == "range"
