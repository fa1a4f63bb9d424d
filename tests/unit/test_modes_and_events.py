"""The mode rules decided once in the core, and what an event says it changed."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.thermostat_cloud.server import (
    ChangeSource,
    EventKind,
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
