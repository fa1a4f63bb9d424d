"""Holds: the `hold` and `resume_schedule` actions, the Resume schedule button, Hold until.

A simulated thermostat over real TCP runs its own schedule (`reach_schedule_entry`, as gen 1/2
firmware does); the clock is moved with the freezer and `async_fire_time_changed`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.button.const import DOMAIN as BUTTON_DOMAIN, SERVICE_PRESS
from homeassistant.components.climate.const import (
    SERVICE_SET_TEMPERATURE,
)
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import ATTR_ENTITY_ID, STATE_UNKNOWN
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from thermostat_sim import WEEK_SCHEDULE

from .conftest import SERIAL, PairedThermostat, PairThermostat, shown
from .test_services import action, refused

# Tuesday 20:00 in the test's time zone (US/Pacific): WEEK_SCHEDULE holds 21 °C from 07:00
# and 17.5 °C from 22:00 on Tuesdays.
TUESDAY_EVENING = "2026-11-24 20:00:00-08:00"


def at(local: str) -> datetime:
    """Return a wall-clock time of the test's home as an aware time."""
    parsed = dt_util.parse_datetime(local)
    assert parsed is not None
    return parsed


async def move_to(hass: HomeAssistant, freezer: FrozenDateTimeFactory, when: datetime) -> None:
    """Move the clock to `when` and run the timers that came due."""
    freezer.move_to(when)
    async_fire_time_changed(hass, when)
    await hass.async_block_till_done()


async def pair_with_schedule(
    hass: HomeAssistant, pair_thermostat: PairThermostat, **kwargs: object
) -> PairedThermostat:
    """Pair a heating thermostat at 21 °C and give it the week schedule."""
    paired = await pair_thermostat(**kwargs)
    await action(hass, paired, "set_schedule", schedule=WEEK_SCHEDULE)
    await paired.pushed("schedule", schedule_mode="HEAT")
    return paired


async def held_for_an_hour(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
    hours: int = 1,
) -> PairedThermostat:
    """On Tuesday evening, pair a scheduled thermostat and hold it at 23 °C (for an hour)."""
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_with_schedule(hass, pair_thermostat)
    await action(hass, paired, "hold", temperature=23, duration={"hours": hours})
    await paired.pushed("shared", target_temperature=23)
    return paired


@pytest.fixture
async def held(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> PairedThermostat:
    """Return a scheduled thermostat held at 23 °C on Tuesday evening, for an hour."""
    return await held_for_an_hour(hass, pair_thermostat, freezer)


def local_target(paired: PairedThermostat) -> float:
    """Return the setpoint the thermostat has now."""
    return float(paired.thermostat.local[f"shared.{SERIAL}"].value["target_temperature"])


def hold_until(hass: HomeAssistant, paired: PairedThermostat) -> str:
    """Return the Hold until sensor's state."""
    return shown(hass, paired.entity_id("sensor", "hold_until"))


async def test_a_hold_outlasts_the_thermostats_schedule_and_then_resumes_it(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """At 22:00 the thermostat's schedule moves the setpoint: the server puts the hold back.

    At the hold's end (23:00) the thermostat gets what its schedule has then: 17.5 °C.
    """
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_with_schedule(hass, pair_thermostat)
    assert hold_until(hass, paired) == STATE_UNKNOWN

    await action(hass, paired, "hold", temperature=23, duration={"hours": 3})
    await paired.pushed("shared", target_temperature=23)
    ends = at("2026-11-24 23:00:00-08:00")
    assert dt_util.parse_datetime(hold_until(hass, paired)) == ends

    # 22:00: the thermostat's own schedule takes over, as gen 1/2 firmware does.
    await move_to(hass, freezer, at("2026-11-24 22:00:05-08:00"))
    await paired.thermostat.reach_schedule_entry(
        at("2026-11-24 22:00:05-08:00").replace(tzinfo=None)
    )
    await hass.async_block_till_done()
    await paired.pushed("shared", target_temperature=23)
    assert local_target(paired) == 23
    assert dt_util.parse_datetime(hold_until(hass, paired)) == ends

    await move_to(hass, freezer, ends + timedelta(seconds=1))
    await paired.pushed("shared", target_temperature=17.5)
    assert local_target(paired) == 17.5
    assert hold_until(hass, paired) == STATE_UNKNOWN


async def test_turning_the_dial_ends_the_hold(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, held: PairedThermostat
) -> None:
    """A person's setpoint stands: the hold ends and its end writes nothing."""
    await held.thermostat.turn_dial(19.5)
    await hass.async_block_till_done()
    assert hold_until(hass, held) == STATE_UNKNOWN
    assert held.service.holds.hold_of(SERIAL) is None

    await move_to(hass, freezer, at("2026-11-24 21:00:01-08:00"))
    assert local_target(held) == 19.5
    assert held.thermostat.received.empty()


async def test_a_new_setpoint_from_home_assistant_ends_the_hold(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, held: PairedThermostat
) -> None:
    """Setting the temperature on the climate entity is a person's choice too: the hold ends."""
    await held.climate(SERVICE_SET_TEMPERATURE, temperature=20.5)
    await held.pushed("shared", target_temperature=20.5)
    await hass.async_block_till_done()
    assert hold_until(hass, held) == STATE_UNKNOWN
    assert held.service.holds.hold_of(SERIAL) is None


async def test_a_hold_until_the_next_schedule_change(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """Until the next change: the end is the schedule's next entry (22:00)."""
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_with_schedule(hass, pair_thermostat)
    await action(hass, paired, "hold", temperature=22.5, until_next_change=True)
    await paired.pushed("shared", target_temperature=22.5)
    assert dt_util.parse_datetime(hold_until(hass, paired)) == at("2026-11-24 22:00:00-08:00")


async def test_a_hold_until_a_time_and_the_resume_schedule_button(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """A hold until a time; Resume schedule ends it and gives the schedule's setpoint now."""
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_with_schedule(hass, pair_thermostat)
    await action(hass, paired, "hold", temperature=24, until="2026-11-24 21:30:00")
    await paired.pushed("shared", target_temperature=24)
    assert dt_util.parse_datetime(hold_until(hass, paired)) == at("2026-11-24 21:30:00-08:00")

    await hass.services.async_call(
        BUTTON_DOMAIN,
        SERVICE_PRESS,
        {ATTR_ENTITY_ID: paired.entity_id("button", "resume_schedule")},
        blocking=True,
    )
    await paired.pushed("shared", target_temperature=21)
    assert hold_until(hass, paired) == STATE_UNKNOWN


async def test_a_new_hold_replaces_the_one_under_way(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, held: PairedThermostat
) -> None:
    """Held until 21:00, then held anew until 21:30: 21:00 passes, and the new hold stands."""
    await action(hass, held, "hold", temperature=22, duration={"minutes": 90})
    await held.pushed("shared", target_temperature=22)
    ends = at("2026-11-24 21:30:00-08:00")

    await move_to(hass, freezer, at("2026-11-24 21:00:01-08:00"))
    assert local_target(held) == 22
    assert held.thermostat.received.empty()
    assert dt_util.parse_datetime(hold_until(hass, held)) == ends

    await move_to(hass, freezer, ends + timedelta(seconds=1))
    await held.pushed("shared", target_temperature=21)
    assert hold_until(hass, held) == STATE_UNKNOWN


@pytest.mark.parametrize("ended_by", ["its end", "resume_schedule"])
async def test_a_hold_without_a_schedule_ends_and_its_setpoint_stays(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
    ended_by: str,
) -> None:
    """With no schedule to go back to, the hold ends and the thermostat keeps its setpoint."""
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_thermostat()
    await action(hass, paired, "hold", temperature=23, duration={"hours": 1})
    await paired.pushed("shared", target_temperature=23)

    if ended_by == "resume_schedule":
        await action(hass, paired, "resume_schedule")
    else:
        await move_to(hass, freezer, at("2026-11-24 21:00:01-08:00"))
    await hass.async_block_till_done()
    assert hold_until(hass, paired) == STATE_UNKNOWN
    assert paired.service.holds.hold_of(SERIAL) is None
    assert local_target(paired) == 23
    assert paired.thermostat.received.empty()


async def test_a_heat_cool_range_hold(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """In heat/cool mode a hold is a low and a high, kept as such."""
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_thermostat(
        shared={
            "can_cool": True,
            "target_temperature_type": "range",
            "target_temperature_low": 19,
            "target_temperature_high": 25,
        }
    )
    await action(
        hass, paired, "hold", target_temp_low=20, target_temp_high=23, duration={"hours": 2}
    )
    await paired.pushed("shared", target_temperature_low=20, target_temperature_high=23)
    hold = paired.service.holds.hold_of(SERIAL)
    assert hold is not None
    assert (hold.low, hold.high) == (20, 23)


async def test_resume_schedule_action(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """The action does what the button does."""
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_with_schedule(hass, pair_thermostat)
    await action(hass, paired, "hold", temperature=24, duration={"hours": 1})
    await paired.pushed("shared", target_temperature=24)
    await action(hass, paired, "resume_schedule")
    await paired.pushed("shared", target_temperature=21)
    assert paired.service.holds.hold_of(SERIAL) is None


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"temperature": 40, "duration": {"hours": 1}}, "temperature_out_of_range"),
        ({"temperature": 22, "until": "2026-11-24 19:00:00"}, "end_not_after_start"),
        (
            {"temperature": 22, "duration": {"hours": 1}, "until_next_change": True},
            "hold_needs_one_end",
        ),
        ({"temperature": 22}, "hold_needs_one_end"),
        ({"duration": {"hours": 1}}, "hold_needs_setpoint"),
        ({"temperature": 22, "until_next_change": True}, "no_schedule"),  # it has none
        (
            {"target_temp_low": 19, "target_temp_high": 23, "duration": {"hours": 1}},
            "hold_range_needs_range_mode",
        ),
    ],
)
async def test_a_wrong_hold_is_refused_and_changes_nothing(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
    data: dict[str, object],
    key: str,
) -> None:
    """Each wrong hold: a translated refusal; no hold, nothing pushed."""
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_thermostat()
    before = local_target(paired)
    err = await refused(hass, paired, "hold", **data)
    assert err.translation_key == key
    await hass.async_block_till_done()
    assert paired.service.holds.hold_of(SERIAL) is None
    assert paired.thermostat.received.empty()
    assert local_target(paired) == before


async def test_a_wrong_type_is_refused_by_the_schema(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A temperature that is no number never reaches the service."""
    with pytest.raises(Exception, match="temperature"):
        await action(hass, paired, "hold", temperature="warm", duration={"hours": 1})
    assert paired.service.holds.hold_of(SERIAL) is None


async def test_resume_schedule_without_a_schedule_is_refused(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """No hold and no schedule: nothing to resume, said so."""
    err = await refused(hass, paired, "resume_schedule")
    assert err.translation_key == "no_schedule"


async def test_a_hold_survives_a_restart(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, held: PairedThermostat
) -> None:
    """Home Assistant restarts in the middle of a hold: it is kept, and ends on time."""

    assert await hass.config_entries.async_reload(held.entry.entry_id)
    await hass.async_block_till_done()
    ends = at("2026-11-24 21:00:00-08:00")
    assert dt_util.parse_datetime(hold_until(hass, held)) == ends

    await move_to(hass, freezer, ends + timedelta(seconds=1))
    await held.pushed("shared", target_temperature=21)
    assert hold_until(hass, held) == STATE_UNKNOWN


async def test_a_hold_that_ended_while_home_assistant_was_down_ends_at_start(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, held: PairedThermostat
) -> None:
    """The hold's end passed while the hub was stopped: at start the schedule's setpoint."""

    assert await hass.config_entries.async_unload(held.entry.entry_id)
    await move_to(hass, freezer, at("2026-11-24 22:30:00-08:00"))
    assert await hass.config_entries.async_setup(held.entry.entry_id)
    assert held.entry.state is ConfigEntryState.LOADED
    # The thermostat retries its subscribe a second later (on the frozen clock).
    await move_to(hass, freezer, at("2026-11-24 22:30:02-08:00"))
    await held.pushed("shared", target_temperature=17.5)
    assert held.service.holds.hold_of(SERIAL) is None
    assert hold_until(hass, held) == STATE_UNKNOWN
