"""The room a thermostat serves: its temperature offset, and the room sensors it follows.

The simulated thermostat over real TCP, Home Assistant sensors set as an integration would,
and the controllable clock for the rate limit and the 15 minutes of a lost sensor.
"""

from __future__ import annotations

import logging
from typing import Any

from homeassistant.components.climate.const import ATTR_CURRENT_TEMPERATURE
from homeassistant.config_entries import SOURCE_RECONFIGURE
from homeassistant.const import (
    ATTR_DEVICE_CLASS,
    ATTR_TEMPERATURE,
    ATTR_UNIT_OF_MEASUREMENT,
    STATE_UNAVAILABLE,
)
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType, InvalidData
from homeassistant.helpers import issue_registry as ir
import pytest

from custom_components.thermostat_cloud.const import DOMAIN, SUBENTRY_THERMOSTAT

from .conftest import LoopClock, PairedThermostat, PairThermostat
from .test_holds import at, pair_with_schedule
from .test_services import action

ROOM = "sensor.living_room"
SECOND_ROOM = "sensor.living_room_shelf"


def set_sensor(
    hass: HomeAssistant,
    entity_id: str,
    state: str,
    unit: str = "°C",
    device_class: str = "temperature",
) -> None:
    hass.states.async_set(
        entity_id, state, {ATTR_UNIT_OF_MEASUREMENT: unit, ATTR_DEVICE_CLASS: device_class}
    )


async def start_reconfigure(hass: HomeAssistant, paired: PairedThermostat) -> Any:
    (subentry_id,) = paired.entry.subentries
    result = await hass.config_entries.subentries.async_init(
        (paired.entry.entry_id, SUBENTRY_THERMOSTAT),
        context={"source": SOURCE_RECONFIGURE, "subentry_id": subentry_id},
    )
    assert result["type"] is FlowResultType.FORM, result
    return result


async def reconfigure_room(hass: HomeAssistant, paired: PairedThermostat, **room: Any) -> None:
    """Give the thermostat's room options in its reconfigure step, as the UI does."""
    result = await start_reconfigure(hass, paired)
    result = await hass.config_entries.subentries.async_configure(result["flow_id"], room)
    assert result["type"] is FlowResultType.ABORT, result
    assert result["reason"] == "reconfigure_successful"
    await hass.async_block_till_done()


async def follow_room(
    hass: HomeAssistant, paired: PairedThermostat, reading: str, sent: float
) -> None:
    """Follow the sensor `ROOM` reading `reading`: the thermostat receives `sent`, shifted."""
    set_sensor(hass, ROOM, reading)
    await reconfigure_room(hass, paired, followed_sensors=[ROOM])
    await paired.pushed("shared", target_temperature=sent)


def climate(paired: PairedThermostat) -> dict[str, Any]:
    state = paired.hass.states.get(paired.entity_id("climate"))
    assert state is not None
    return dict(state.attributes)


def room_issue(hass: HomeAssistant, paired: PairedThermostat) -> ir.IssueEntry | None:
    return ir.async_get(hass).async_get_issue(DOMAIN, f"room_sensors_unavailable_{paired.serial}")


async def test_offset_shows_the_room_and_shifts_every_setpoint(
    hass: HomeAssistant, clock: LoopClock, paired: PairedThermostat
) -> None:
    """A thermostat reading 2 °C high: -2 shows the room, and 21 °C set means 21 in the room."""
    assert climate(paired)[ATTR_CURRENT_TEMPERATURE] == 21.3
    await reconfigure_room(hass, paired, temperature_offset=-2.0)
    # Its setpoint of 20 was the room's 20: sent again as the thermostat must hold it.
    await paired.pushed("shared", target_temperature=22.0)
    await hass.async_block_till_done()
    shown_now = climate(paired)
    assert shown_now[ATTR_CURRENT_TEMPERATURE] == pytest.approx(19.3)
    assert shown_now[ATTR_TEMPERATURE] == 20.0
    assert shown_now["changed_by"] == "rule"
    assert shown_now["changed_by_name"] == "room"
    assert "followed_sensors" not in shown_now

    await paired.climate("set_temperature", temperature=21.0)
    await paired.pushed("shared", target_temperature=23.0)
    await hass.async_block_till_done()
    assert climate(paired)[ATTR_TEMPERATURE] == 21.0


async def test_following_a_room_sensor_shifts_the_setpoint_within_bound_and_rate(
    hass: HomeAssistant, clock: LoopClock, paired: PairedThermostat
) -> None:
    """The room's reading is shown; the setpoint moves by the gap, at most 3 °C, every 5 min."""
    set_sensor(hass, ROOM, "19.3")
    set_sensor(hass, SECOND_ROOM, "19.3")
    await reconfigure_room(hass, paired, followed_sensors=[ROOM, SECOND_ROOM])
    # The room is 2 °C colder than the thermostat: it heats to 22 for the room's 20.
    await paired.pushed("shared", target_temperature=22.0)
    await hass.async_block_till_done()
    shown_now = climate(paired)
    assert shown_now[ATTR_CURRENT_TEMPERATURE] == pytest.approx(19.3)
    assert shown_now[ATTR_TEMPERATURE] == 20.0
    assert shown_now["followed_sensors"] == [ROOM, SECOND_ROOM]

    # The average drops a degree: within the 5 minutes nothing is sent again.
    set_sensor(hass, ROOM, "18.3")
    set_sensor(hass, SECOND_ROOM, "18.3")
    await hass.async_block_till_done()
    assert climate(paired)[ATTR_CURRENT_TEMPERATURE] == pytest.approx(18.3)
    assert paired.thermostat.local[f"shared.{paired.serial}"].value["target_temperature"] == 22.0
    await clock.advance(300)
    await paired.pushed("shared", target_temperature=23.0)

    # An open window: the gap is 11 °C, the setpoint moves no further than 3.
    set_sensor(hass, ROOM, "10.3")
    set_sensor(hass, SECOND_ROOM, "10.3")
    await clock.advance(300)
    await hass.async_block_till_done()
    assert paired.thermostat.local[f"shared.{paired.serial}"].value["target_temperature"] == 23.0
    assert climate(paired)[ATTR_TEMPERATURE] == 20.0


async def test_losing_the_sensor_falls_back_after_15_minutes_with_a_repair(
    hass: HomeAssistant, clock: LoopClock, paired: PairedThermostat
) -> None:
    """Unavailable for 15 minutes: the thermostat's own reading, a repair; cleared on return."""
    await follow_room(hass, paired, "19.3", sent=22.0)
    hass.states.async_set(ROOM, STATE_UNAVAILABLE)
    await clock.advance(14 * 60)
    assert climate(paired)[ATTR_CURRENT_TEMPERATURE] == pytest.approx(19.3)
    assert room_issue(hass, paired) is None

    await clock.advance(60)
    await paired.pushed("shared", target_temperature=20.0)
    await hass.async_block_till_done()
    shown_now = climate(paired)
    assert shown_now[ATTR_CURRENT_TEMPERATURE] == 21.3
    assert shown_now[ATTR_TEMPERATURE] == 20.0
    assert shown_now["followed_sensors"] == []
    issue = room_issue(hass, paired)
    assert issue is not None
    assert issue.translation_placeholders is not None
    assert ROOM in issue.translation_placeholders["sensors"]

    set_sensor(hass, ROOM, "19.3")
    await hass.async_block_till_done()
    assert room_issue(hass, paired) is None
    assert climate(paired)[ATTR_CURRENT_TEMPERATURE] == pytest.approx(19.3)


async def test_a_sensor_not_yet_reporting_gets_15_minutes_before_a_repair(
    hass: HomeAssistant, clock: LoopClock, paired: PairedThermostat
) -> None:
    """Just chosen, or not up yet after a restart: the card warns, no repair for 15 minutes."""
    set_sensor(hass, ROOM, STATE_UNAVAILABLE)
    await reconfigure_room(hass, paired, followed_sensors=[ROOM])
    assert climate(paired)["followed_sensors"] == []
    await clock.advance(14 * 60)
    assert room_issue(hass, paired) is None

    await clock.advance(60)
    await hass.async_block_till_done()
    assert room_issue(hass, paired) is not None

    set_sensor(hass, ROOM, "19.3")
    await hass.async_block_till_done()
    assert room_issue(hass, paired) is None
    assert climate(paired)["followed_sensors"] == [ROOM]


async def test_fahrenheit_converted_text_and_absurd_values_ignored_once(
    hass: HomeAssistant,
    clock: LoopClock,
    paired: PairedThermostat,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A °F sensor counts in °C; a text or absurd state is left out with one log line."""
    set_sensor(hass, ROOM, "66.74", unit="°F")
    set_sensor(hass, SECOND_ROOM, "19.3")
    await reconfigure_room(hass, paired, followed_sensors=[ROOM, SECOND_ROOM])
    assert climate(paired)[ATTR_CURRENT_TEMPERATURE] == pytest.approx(19.3)

    with caplog.at_level(logging.WARNING):
        for text in ("warm", "warmer"):
            set_sensor(hass, ROOM, text)
            await hass.async_block_till_done()
    assert len([r for r in caplog.records if ROOM in r.getMessage()]) == 1
    assert climate(paired)["followed_sensors"] == [SECOND_ROOM]

    set_sensor(hass, SECOND_ROOM, "500")
    await hass.async_block_till_done()
    # Both left out: the last good reading, the shelf's, stays in use for 15 minutes.
    assert climate(paired)[ATTR_CURRENT_TEMPERATURE] == pytest.approx(19.3)
    assert climate(paired)["followed_sensors"] == [SECOND_ROOM]


@pytest.mark.parametrize(
    ("sensor", "reading", "error"),
    [
        ("sensor.humidity", ("40", "%", "humidity"), "sensor_not_temperature"),
        ("sensor.broken", ("hot", "°C", "temperature"), "sensor_not_room_temperature"),
        ("sensor.sun_side", ("90", "°C", "temperature"), "sensor_not_room_temperature"),
    ],
)
async def test_the_options_refuse_what_is_no_room_temperature(
    hass: HomeAssistant,
    paired: PairedThermostat,
    sensor: str,
    reading: tuple[str, str, str],
    error: str,
) -> None:
    state, unit, device_class = reading
    set_sensor(hass, sensor, state, unit=unit, device_class=device_class)
    result = await start_reconfigure(hass, paired)
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {"followed_sensors": [sensor]}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"followed_sensors": error}
    (subentry,) = paired.entry.subentries.values()
    assert "followed_sensors" not in subentry.data


async def test_an_offset_beyond_five_degrees_is_refused(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    result = await start_reconfigure(hass, paired)
    with pytest.raises(InvalidData):
        await hass.config_entries.subentries.async_configure(
            result["flow_id"], {"temperature_offset": 7.0}
        )


async def test_an_older_subentry_shows_the_thermostat_unshifted(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A subentry from before the room options: no offset, no sensors, nothing shifted."""
    (subentry,) = paired.entry.subentries.values()
    assert set(subentry.data) == {"serial"}
    shown_now = climate(paired)
    assert shown_now[ATTR_CURRENT_TEMPERATURE] == 21.3
    assert shown_now[ATTR_TEMPERATURE] == 20.0
    assert "followed_sensors" not in shown_now


async def test_the_shift_setpoints_were_sent_with_survives_a_restart(
    hass: HomeAssistant, clock: LoopClock, paired: PairedThermostat
) -> None:
    """After a restart the room's setpoint shows as before, and nothing is shifted twice."""
    await reconfigure_room(hass, paired, temperature_offset=-2.0)
    await paired.pushed("shared", target_temperature=22.0)
    assert await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()
    assert climate(paired)[ATTR_TEMPERATURE] == 20.0
    assert paired.thermostat.local[f"shared.{paired.serial}"].value["target_temperature"] == 22.0


async def test_a_hold_keeps_the_rooms_temperature_across_a_new_shift(
    hass: HomeAssistant, clock: LoopClock, paired: PairedThermostat
) -> None:
    """A re-send for a new shift does not end a hold: it holds the room at what was asked."""
    await follow_room(hass, paired, "20.3", sent=21.0)
    await action(hass, paired, "hold", temperature=23, duration={"hours": 3})
    await paired.pushed("shared", target_temperature=24.0)

    set_sensor(hass, ROOM, "19.3")
    await clock.advance(300)
    await paired.pushed("shared", target_temperature=25.0)
    await hass.async_block_till_done()
    assert paired.service.holds.hold_of(paired.serial) is not None
    assert climate(paired)[ATTR_TEMPERATURE] == 23.0


# WEEK_SCHEDULE heats to 21 °C from 07:00 on Tuesdays; the thermostat reads 21.3 °C.
SCHEDULE_BEGAN = "2026-11-24 07:01:00-08:00"


async def scheduled_thermostat(
    hass: HomeAssistant, clock: LoopClock, pair_thermostat: PairThermostat, when: str
) -> PairedThermostat:
    """Pair a thermostat with the week schedule on Tuesday at `when` (its home's time)."""
    clock.freezer.move_to(at(when))
    return await pair_with_schedule(hass, pair_thermostat)


async def reach_the_entry(paired: PairedThermostat) -> None:
    """Let the thermostat take its 07:00 entry of 21 °C, as firmware does at the entry."""
    await paired.thermostat.reach_schedule_entry(at(SCHEDULE_BEGAN).replace(tzinfo=None))


async def assert_the_entry_is_the_rooms(
    hass: HomeAssistant, paired: PairedThermostat, held_as: float
) -> dict[str, Any]:
    """Reach the 21 °C entry: the room rule sends it back `held_as`, and 21 is shown."""
    await reach_the_entry(paired)
    await paired.pushed("shared", target_temperature=held_as)
    await hass.async_block_till_done()
    shown_now = climate(paired)
    assert shown_now[ATTR_TEMPERATURE] == 21.0
    assert (shown_now["changed_by"], shown_now["changed_by_name"]) == ("rule", "room")
    assert paired.thermostat.local[f"shared.{paired.serial}"].value["target_temperature"] == held_as
    return shown_now


async def test_the_schedule_means_the_room_with_an_offset(
    hass: HomeAssistant, clock: LoopClock, pair_thermostat: PairThermostat
) -> None:
    """Reading 2 °C high (-2): the schedule's 21 °C is held as 23, and 21 is the room's."""
    paired = await scheduled_thermostat(hass, clock, pair_thermostat, SCHEDULE_BEGAN)
    await reconfigure_room(hass, paired, temperature_offset=-2.0)
    await paired.pushed("shared", target_temperature=22.0)

    await assert_the_entry_is_the_rooms(hass, paired, held_as=23.0)


async def test_the_schedule_means_the_room_it_follows(
    hass: HomeAssistant, clock: LoopClock, pair_thermostat: PairThermostat
) -> None:
    """The room a degree warmer than the thermostat: the schedule's 21 °C is held as 20."""
    paired = await scheduled_thermostat(hass, clock, pair_thermostat, SCHEDULE_BEGAN)
    await follow_room(hass, paired, "22.3", sent=19.0)

    shown_now = await assert_the_entry_is_the_rooms(hass, paired, held_as=20.0)
    assert shown_now[ATTR_CURRENT_TEMPERATURE] == pytest.approx(22.3)


async def test_without_room_options_the_schedule_causes_no_write(
    hass: HomeAssistant, clock: LoopClock, pair_thermostat: PairThermostat
) -> None:
    """No offset, no sensors: the thermostat's schedule is its own, and nothing is sent."""
    paired = await scheduled_thermostat(hass, clock, pair_thermostat, SCHEDULE_BEGAN)
    received = paired.thermostat.received
    while not received.empty():
        received.get_nowait()

    await reach_the_entry(paired)
    await hass.async_block_till_done()
    shown_now = climate(paired)
    assert shown_now[ATTR_TEMPERATURE] == 21.0
    assert (shown_now["changed_by"], shown_now["changed_by_name"]) == ("thermostat", "schedule")
    assert received.empty()


async def test_the_schedule_moves_no_hold_in_the_rooms_terms(
    hass: HomeAssistant, clock: LoopClock, pair_thermostat: PairThermostat
) -> None:
    """A hold of the room at 23 (held as 25) outlasts the 07:00 entry: the hold holds."""
    paired = await scheduled_thermostat(hass, clock, pair_thermostat, "2026-11-24 06:58:00-08:00")
    await reconfigure_room(hass, paired, temperature_offset=-2.0)
    await paired.pushed("shared", target_temperature=22.0)
    await action(hass, paired, "hold", temperature=23, duration={"hours": 3})
    await paired.pushed("shared", target_temperature=25.0)

    await clock.advance(180)
    await reach_the_entry(paired)
    await paired.pushed("shared", target_temperature=25.0)
    await hass.async_block_till_done()
    shown_now = climate(paired)
    assert shown_now[ATTR_TEMPERATURE] == 23.0
    assert (shown_now["changed_by"], shown_now["changed_by_name"]) == ("rule", "hold")
    assert paired.service.holds.hold_of(paired.serial) is not None
