"""The mode rules decided once in the core, and what an event says it changed."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.thermostat_cloud.server import (
    ChangeSource,
    CommandError,
    EventKind,
    Reason,
    ServiceConfig,
    ServiceEvent,
    Setpoints,
    ThermostatService,
    ThermostatState,
    held_setpoints,
    holds_eco,
    takes_range,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import FakeClock, MemoryStorage

SERIAL = "02AA01AC331400AB"
SHARED = f"shared.{SERIAL}"
DEVICE = f"device.{SERIAL}"


async def loaded_service() -> ThermostatService:
    """Return a service on memory storage (no device server: nothing listens)."""
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:1", save_delay=0), MemoryStorage(), FakeClock()
    )
    await service.async_load()
    return service


async def reported(shared: dict[str, Any], device: dict[str, Any]) -> ThermostatState:
    """Return the state of a thermostat that reported these buckets."""
    service = await loaded_service()
    harness(service).report(SERIAL, {SHARED: shared, DEVICE: device}, ChangeSource.DEVICE)
    return service.thermostat(SERIAL)


@pytest.mark.parametrize(
    ("mode", "range_setpoints"),
    [("range", True), ("heat", False), ("cool", False), ("emergency", False), ("off", False)],
)
def test_only_range_mode_takes_a_low_and_a_high(mode: str, range_setpoints: bool) -> None:
    """Range takes low and high; every other mode one target (off keeps it for later)."""
    assert takes_range(mode) is range_setpoints


@pytest.mark.parametrize(
    ("mode", "eco_mode", "held"),
    [
        ("heat", {"mode": "manual-eco"}, Setpoints(low=12.0, high=28.0)),
        ("range", {"mode": "auto-eco"}, Setpoints(low=12.0, high=28.0)),
        ("off", {"mode": "manual-eco"}, Setpoints(target=20.0)),
        ("range", {"mode": "schedule"}, Setpoints(low=19.0, high=24.0)),
        ("cool", {"mode": "schedule"}, Setpoints(target=20.0)),
    ],
)
async def test_the_setpoints_held_follow_eco_then_the_mode(
    mode: str, eco_mode: dict[str, str], held: Setpoints
) -> None:
    """Eco's temperatures while eco holds (on, and not off); else the mode's setpoints."""
    thermostat = await reported(
        {
            "target_temperature_type": mode,
            "target_temperature": 20.0,
            "target_temperature_low": 19.0,
            "target_temperature_high": 24.0,
        },
        {"eco": eco_mode, "away_temperature_low": 12.0, "away_temperature_high": 28.0},
    )

    assert holds_eco(thermostat) is (held.low == 12.0)
    assert held_setpoints(thermostat) == held


REPORTED_SHARED = {
    "target_temperature": 20.0,
    "target_temperature_low": 19.0,
    "target_temperature_high": 24.0,
}
REPORTED_DEVICE = {"away_temperature_low": 12.0, "away_temperature_high": 28.0}


@pytest.mark.parametrize(
    ("mode", "eco_mode", "asked", "held"),
    [
        ("heat", "manual-eco", {"low": 14.0, "high": 26.0}, Setpoints(low=14.0, high=26.0)),
        ("range", "schedule", {"low": 18.0, "high": 25.0}, Setpoints(low=18.0, high=25.0)),
        ("cool", "schedule", {"target": 23.0}, Setpoints(target=23.0)),
        ("off", "manual-eco", {"target": 21.0}, Setpoints(target=21.0)),
        ("range", "schedule", {"target": 21.0, "mode": "heat"}, Setpoints(target=21.0)),
        (
            "heat",
            "schedule",
            {"low": 18.0, "high": 25.0, "mode": "range"},
            Setpoints(low=18.0, high=25.0),
        ),
    ],
)
async def test_the_setpoints_asked_for_are_those_the_rules_say(
    mode: str, eco_mode: str, asked: dict[str, Any], held: Setpoints
) -> None:
    """Eco's temperatures while eco holds and no mode is asked; else the mode's setpoints."""
    service = await loaded_service()
    harness(service).report(
        SERIAL,
        {
            SHARED: {
                **REPORTED_SHARED,
                "target_temperature_type": mode,
                "can_heat": True,
                "can_cool": True,
            },
            DEVICE: {**REPORTED_DEVICE, "eco": {"mode": eco_mode}},
        },
        ChangeSource.DEVICE,
    )

    service.commands.set_setpoints(SERIAL, **asked)

    assert held_setpoints(service.thermostat(SERIAL)) == held


@pytest.mark.parametrize(
    ("mode", "asked", "reason"),
    [
        ("range", {"target": 21.0}, Reason.RANGE_NEEDS_LOW_HIGH),
        ("heat", {"low": 18.0, "high": 25.0}, Reason.LOW_HIGH_NEED_RANGE),
        ("heat", {"target": 21.0, "mode": "off"}, Reason.TEMPERATURE_WHEN_OFF),
        ("heat", {"target": 21.0, "mode": "range"}, Reason.RANGE_NEEDS_LOW_HIGH),
    ],
)
async def test_setpoints_the_mode_does_not_take_are_refused_before_a_write(
    mode: str, asked: dict[str, Any], reason: Reason
) -> None:
    service = await loaded_service()
    shared = {
        **REPORTED_SHARED,
        "target_temperature_type": mode,
        "can_heat": True,
        "can_cool": True,
    }
    harness(service).report(SERIAL, {SHARED: shared, DEVICE: REPORTED_DEVICE}, ChangeSource.DEVICE)

    with pytest.raises(CommandError) as refused:
        service.commands.set_setpoints(SERIAL, **asked)

    assert refused.value.reason is reason
    thermostat = service.thermostat(SERIAL)
    assert (thermostat.mode, held_setpoints(thermostat)) == (
        mode,
        Setpoints(low=19.0, high=24.0) if mode == "range" else Setpoints(target=20.0),
    )


async def test_a_state_event_names_the_fields_whose_value_changed() -> None:
    """Each STATE event names the fields it changed, by bucket type; no change, no event."""
    service = await loaded_service()
    events: list[ServiceEvent] = []
    service.events.listen(events.append)

    harness(service).report(
        SERIAL, {SHARED: {"leaf": False, "current_temperature": 21.0}}, ChangeSource.DEVICE
    )
    harness(service).report(
        SERIAL,
        {SHARED: {"leaf": False, "current_temperature": 21.5}, DEVICE: {"battery_level": 3.7}},
        ChangeSource.DEVICE,
    )
    harness(service).report(SERIAL, {SHARED: {"leaf": False}}, ChangeSource.DEVICE)

    assert [(event.kind, event.changed) for event in events] == [
        (EventKind.STATE, frozenset({"shared.leaf", "shared.current_temperature"})),
        (EventKind.STATE, frozenset({"shared.current_temperature", "device.battery_level"})),
    ]


def test_another_event_says_its_aspect() -> None:
    """A connection, pairing or firmware event changed that aspect of the thermostat."""
    for kind in (EventKind.CONNECTION, EventKind.PAIRING, EventKind.FIRMWARE):
        assert ServiceEvent(kind, SERIAL).changed == frozenset({kind.value})
