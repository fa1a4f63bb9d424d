"""Reading the fields firmware reports: a value of the wrong type is no reading, never a guess."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.thermostat_cloud.server import bucket_key
from custom_components.thermostat_cloud.server.core.read.readings import (
    BucketReadings,
    flag,
    home_away,
    home_manual_eco_since,
    plausible_number,
)
from custom_components.thermostat_cloud.server.model.buckets import BucketStore
from tests.conftest import NO_EQUIPMENT, FakeClock

SERIAL = "02AA01AC331400AB"
HOME = "6f1c2f36-1a2b-4c3d-8e9f-000000000001"


def readings(**buckets: dict[str, Any]) -> BucketReadings:
    """Return the readings of a thermostat that reported these buckets (`shared=...`)."""
    store = BucketStore(FakeClock())
    for bucket_type, fields in buckets.items():
        store.merge(bucket_key(bucket_type, SERIAL), fields)
    return BucketReadings(store, SERIAL)


@pytest.mark.parametrize("value", ["false", "true", 0, 1, [], None])
def test_an_on_off_field_that_is_no_boolean_reads_as_its_default(value: object) -> None:
    """The text "false" is true in Python; here it is no reading at all."""
    assert flag(value, True) is True
    assert flag(value, False) is False


@pytest.mark.parametrize(
    ("value", "found"),
    [(21.5, 21.5), (-40, -40), (60, 60), (60.1, None), (1e308, None), (True, None), ("21", None)],
)
def test_a_number_outside_what_the_field_can_be_is_no_reading(
    value: object, found: float | None
) -> None:
    """A thermostat cannot measure 1e308 °C: the sensor shows unknown, not the number."""
    assert plausible_number(value, (-40, 60)) == found


def test_a_thermostat_that_said_nothing_about_its_equipment_heats_only() -> None:
    """Until firmware reports its equipment, the entity offers heat and nothing it may lack."""
    silent = readings(shared={"current_temperature": 20.5})
    assert silent.capabilities == {**NO_EQUIPMENT, "can_heat": True}
    assert not silent.equipment_reported
    cooling = readings(shared={"can_heat": False, "can_cool": "yes"})
    assert cooling.equipment_reported
    assert (cooling.capabilities["can_heat"], cooling.capabilities["can_cool"]) == (False, False)


@pytest.mark.parametrize(
    ("device", "eco"),
    [
        ({"eco": {"mode": "manual-eco"}}, True),
        ({"eco": {"mode": "auto-eco"}}, True),
        ({"eco": {"mode": "schedule"}, "eco_mode_enabled": True}, False),
        ({"eco_mode_enabled": True}, True),
        ({"eco": {"mode": "unknown-eco"}, "eco_mode_enabled": False}, False),
        ({"eco": "manual-eco"}, False),
    ],
)
def test_eco_is_read_from_device_eco_first(device: dict[str, Any], eco: bool) -> None:
    """`device.eco.mode` says whether eco is on; the older flag only when it says nothing."""
    assert readings(device=device).eco is eco


@pytest.mark.parametrize(
    ("timeout", "end"), [(1_800_000_600, 1_800_000_600), (0, None), (-5, None), (True, None)]
)
def test_a_fan_timer_runs_only_with_an_end_in_whole_seconds(
    timeout: object, end: int | None
) -> None:
    """0 is firmware's "no timer"; a fan timer sensor shows an end only for a real one."""
    assert readings(device={"fan_timer_timeout": timeout}).fan_timer_end == end


def test_a_home_is_away_by_its_away_flag_or_its_manual_eco() -> None:
    """Firmware holds a home's away as manual eco; either one is away to every client."""
    store = BucketStore(FakeClock())
    key = bucket_key("structure", HOME)
    assert not home_away(store, HOME)
    assert home_manual_eco_since(store, HOME) is None
    store.merge(key, {"away": True})
    assert home_away(store, HOME)
    assert home_manual_eco_since(store, HOME) is None
    store.merge(key, {"away": False, "manual_eco_all": True, "manual_eco_timestamp": 1_800_000})
    assert home_away(store, HOME)
    assert home_manual_eco_since(store, HOME) == 1_800_000
    store.merge(key, {"manual_eco_timestamp": "soon"})
    assert home_manual_eco_since(store, HOME) == 0
