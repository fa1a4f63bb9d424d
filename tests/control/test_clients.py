"""Requests third-party clients of self-hosted servers send to the control API.

The request shapes are those of the clients' code (facts, not their code): the PTR Home
Assistant integration's self-hosted client (patricktr/NoLongerEvil-HomeAssistant,
custom_components/nolongerevil/api.py, `NLESelfHostedClient.set_temperature`) and the
homebridge plugin (lastowl/homebridge-nolongerevil-nest, src/selfHostedApi.ts) send
`{"serial", "command": "set_temperature", "value": <number>}` whatever mode the thermostat is
in, and read the result back from `GET /status?serial=`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from tests.conftest import SERIAL

from .conftest import URL, Client, ConnectThermostat, command

RANGE = {
    "can_heat": True,
    "can_cool": True,
    "target_temperature_type": "range",
    "target_temperature": 21.0,
    "target_temperature_low": 19.0,
    "target_temperature_high": 24.0,
}


class RangeCase(NamedTuple):
    """A single setpoint sent while the thermostat holds a range."""

    room: float | None
    value: float
    low: float
    high: float


@pytest.mark.parametrize(
    "case",
    [
        # Warmer than the room: the low end, so the thermostat heats up to it.
        RangeCase(room=21.0, value=22.0, low=22.0, high=24.0),
        # ... and the high end moves up when it would be closer than 1.5 °C.
        RangeCase(room=21.0, value=23.5, low=23.5, high=25.0),
        RangeCase(room=21.0, value=26.0, low=26.0, high=27.5),
        # Cooler than the room: the high end, so it cools down to it.
        RangeCase(room=25.0, value=23.0, low=19.0, high=23.0),
        RangeCase(room=21.0, value=20.0, low=18.5, high=20.0),
        # Room temperature unknown: the nearer end.
        RangeCase(room=None, value=20.0, low=20.0, high=24.0),
        RangeCase(room=None, value=23.0, low=19.0, high=23.0),
    ],
    ids=str,
)
async def test_single_setpoint_in_range_mode_moves_one_end(
    client: Client, connect_thermostat: ConnectThermostat, case: RangeCase
) -> None:
    shared = dict(RANGE)
    if case.room is not None:
        shared["current_temperature"] = case.room
    thermostat = await connect_thermostat(shared=shared)

    status, body = await command(client, "set_temperature", case.value)

    assert status == 200, body
    assert body["success"] is True
    assert body["object"] == f"shared.{SERIAL}"
    pushed = (await thermostat.next_object(f"shared.{SERIAL}"))["value"]
    assert pushed["target_temperature_low"] == case.low
    assert pushed["target_temperature_high"] == case.high
    resp = await client.get(f"{URL}/status", params={"serial": SERIAL})
    record: dict[str, Any] = await resp.json()
    assert record["mode"] == "range"
    assert (record["target_temperature_low"], record["target_temperature_high"]) == (
        case.low,
        case.high,
    )


@pytest.mark.parametrize(
    ("room", "value", "error"),
    [
        (21.0, 31.0, "Low temperature must be between 4.5 and 30.5 °C"),
        (25.0, 5.0, "High temperature must be between 6.0 and 32.0 °C"),
        (21.0, 40.0, "Temperature value must be between 4.5 and 32.0 °C"),
    ],
)
async def test_single_setpoint_in_range_mode_needs_room_for_the_gap(
    client: Client,
    connect_thermostat: ConnectThermostat,
    room: float,
    value: float,
    error: str,
) -> None:
    """A low end needs a high end 1.5 °C above it within 32 °C (and the other way round)."""
    await connect_thermostat(shared={**RANGE, "current_temperature": room})

    status, body = await command(client, "set_temperature", value)

    assert status == 400
    assert body == {"success": False, "error": error, "code": "invalid_value"}
    resp = await client.get(f"{URL}/status", params={"serial": SERIAL})
    record = await resp.json()
    assert (record["target_temperature_low"], record["target_temperature_high"]) == (19.0, 24.0)


async def test_single_setpoint_in_heat_mode_is_the_target(
    client: Client, connect_thermostat: ConnectThermostat
) -> None:
    """Outside range mode the value stays the single setpoint; the range is not touched."""
    thermostat = await connect_thermostat(
        shared={**RANGE, "target_temperature_type": "heat", "current_temperature": 19.0}
    )

    status, _ = await command(client, "set_temperature", 22.5)

    assert status == 200
    pushed = (await thermostat.next_object(f"shared.{SERIAL}"))["value"]
    assert pushed["target_temperature"] == 22.5
    assert (pushed["target_temperature_low"], pushed["target_temperature_high"]) == (19.0, 24.0)
