"""Holds and `shared.touched_by`: who moved the setpoint, when firmware says so.

The protocol notes say firmware tags every setpoint with `touched_by` (1 its schedule, 2 the
dial, 3 a cloud); the 5.9.4-5 capture has it empty (`{}`). When a report sets it, it decides
whether a hold is put back or ends; without it the schedule is told apart by its entries.
"""

from __future__ import annotations

from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import STATE_UNKNOWN
from homeassistant.core import HomeAssistant

from .conftest import SERIAL, PairedThermostat, PairThermostat
from .test_holds import (
    at,
    held_for_an_hour,
    hold_until,
    local_target,
    move_to,
)

SHARED = f"shared.{SERIAL}"


def touched(by: int) -> dict[str, Any]:
    """Return `shared.touched_by` as the protocol notes show it."""
    return {
        "touched_by": by,
        "touched_at": 1795900000,
        "touched_tzo": -28800,
        "touched_user_id": "",
    }


async def report(hass: HomeAssistant, paired: PairedThermostat, **fields: Any) -> None:
    await paired.thermostat.put(SHARED, fields)
    await hass.async_block_till_done()


async def test_a_setpoint_its_schedule_set_is_put_back_whatever_its_value(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """touched_by 1 at 21:30: no entry of the week schedule, but firmware says its schedule did."""
    paired = await held_for_an_hour(hass, pair_thermostat, freezer)
    await move_to(hass, freezer, at("2026-11-24 20:30:00-08:00"))

    await report(hass, paired, target_temperature=18.0, touched_by=touched(1))
    await paired.pushed("shared", target_temperature=23)
    assert local_target(paired) == 23
    assert hold_until(hass, paired) != STATE_UNKNOWN


async def test_a_dial_turn_to_the_schedules_setpoint_ends_the_hold(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """touched_by 2 just after 22:00, to the entry's 17.5 °C: a person's choice, the hold ends."""
    paired = await held_for_an_hour(hass, pair_thermostat, freezer, hours=3)
    await move_to(hass, freezer, at("2026-11-24 22:00:05-08:00"))

    await report(hass, paired, target_temperature=17.5, touched_by=touched(2))
    assert paired.service.holds.hold_of(SERIAL) is None
    assert hold_until(hass, paired) == STATE_UNKNOWN
    assert local_target(paired) == 17.5


async def test_without_touched_by_the_schedule_is_told_by_its_entries(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """An empty `touched_by`, as captured: a setpoint no entry explains is a person's."""
    paired = await held_for_an_hour(hass, pair_thermostat, freezer)
    await move_to(hass, freezer, at("2026-11-24 20:30:00-08:00"))

    await report(hass, paired, target_temperature=18.0, touched_by={})
    assert paired.service.holds.hold_of(SERIAL) is None
    assert local_target(paired) == 18.0
