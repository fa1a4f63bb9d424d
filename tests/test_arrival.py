"""Arrival: `set_arrival`, `cancel_arrival` and the *Preparing for arrival* binary sensor.

A simulated thermostat over real TCP; the clock is moved with the freezer and
`async_fire_time_changed` (as for vacations). The thermostat said it heats 6 °C per hour (its
time-to-target); its own eco low is 12.5 °C and WEEK_SCHEDULE has 21 °C on a Tuesday noon:
8.5 °C to heat, 1 h 25 min ahead.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.climate.const import SERVICE_SET_PRESET_MODE
from homeassistant.const import STATE_OFF, STATE_ON
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util
import pytest

from custom_components.thermostat_cloud.const import DOMAIN, STORAGE_KEY
from custom_components.thermostat_cloud.server import MIN_RUNS

from .conftest import SERIAL, LoopClock, PairedThermostat, PairThermostat, entity_ids, shown
from .test_change_authors import changed_by
from .test_holds import TUESDAY_EVENING, at, move_to
from .test_house_model import ROOM, live, new_house, weather
from .test_services import action
from .test_vacations import (
    OWN_ECO,
    down_until,
    heats_at_six_degrees_an_hour,
    home_is_away,
    pair_at_home,
    set_vacation,
    structure_key,
    thermostat_has,
)

ARRIVAL = "2026-12-01 12:00:00-08:00"
"""Next Tuesday noon: WEEK_SCHEDULE has 21 °C."""
PLANNED_START = "2026-12-01 10:35:00-08:00"
"""(21 - 12.5) °C at 6 °C per hour: 1 h 25 min before."""


async def set_arrival(hass: HomeAssistant, **data: Any) -> dict[str, Any]:
    """Call `set_arrival` and return its answer."""
    response = await hass.services.async_call(
        DOMAIN, "set_arrival", data, blocking=True, return_response=True
    )
    assert response is not None
    return dict(response)


async def cancel_arrival(hass: HomeAssistant) -> None:
    await hass.services.async_call(DOMAIN, "cancel_arrival", {}, blocking=True)


def preparing_id(hass: HomeAssistant, paired: PairedThermostat) -> str:
    """Return the *Preparing for arrival* sensor's entity id (on the hub's device)."""
    entity_id = er.async_get(hass).async_get_entity_id(
        "binary_sensor", DOMAIN, f"{paired.entry.entry_id}_preparing_for_arrival"
    )
    assert entity_id is not None
    return entity_id


def planned(hass: HomeAssistant, paired: PairedThermostat) -> tuple[str, datetime, datetime]:
    """Return the sensor's state, its planned start and its arrival."""
    state = hass.states.get(preparing_id(hass, paired))
    assert state is not None
    start = dt_util.parse_datetime(state.attributes["start"])
    arrival = dt_util.parse_datetime(state.attributes["arrival"])
    assert start is not None
    assert arrival is not None
    return state.state, start, arrival


async def away(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """Set the home away (the hub's Away switch) and wait until the thermostat holds it."""
    entity_id = er.async_get(hass).async_get_entity_id(
        "switch", DOMAIN, f"{paired.entry.entry_id}_away"
    )
    await hass.services.async_call("switch", "turn_on", {"entity_id": entity_id}, blocking=True)
    await thermostat_has(paired, structure_key(paired), away=True)


@pytest.fixture
async def paired(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> PairedThermostat:
    """Return the thermostat at home on Tuesday evening, heating at 6 °C per hour, away."""
    paired = await pair_at_home(hass, pair_thermostat, freezer)
    await heats_at_six_degrees_an_hour(hass, paired)
    await away(hass, paired)
    return paired


async def test_the_home_leaves_away_at_the_planned_start_and_the_arrival_is_gone_after(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """Off and away until 10:35; then on, the home back; at noon off, nothing planned."""
    sensor = preparing_id(hass, paired)
    assert shown(hass, sensor) == STATE_OFF
    answer = await set_arrival(hass, arrival="2026-12-01 12:00:00")
    assert dt_util.parse_datetime(answer["start"]) == at(PLANNED_START)
    assert dt_util.parse_datetime(answer["arrival"]) == at(ARRIVAL)
    assert planned(hass, paired) == (STATE_OFF, at(PLANNED_START), at(ARRIVAL))

    await move_to(hass, freezer, at("2026-12-01 10:34:00-08:00"))
    assert home_is_away(paired)
    assert shown(hass, sensor) == STATE_OFF
    await move_to(hass, freezer, at("2026-12-01 10:35:01-08:00"))
    await thermostat_has(paired, structure_key(paired), away=False, manual_eco_all=False)
    assert planned(hass, paired) == (STATE_ON, at(PLANNED_START), at(ARRIVAL))
    await thermostat_has(paired, f"device.{SERIAL}", eco_mode_enabled=False)
    # The logbook and the climate entity name who did it: "by an arrival: warm in time".
    assert changed_by(hass, paired) == ("rule", "arrival")

    await move_to(hass, freezer, at("2026-12-01 12:00:01-08:00"))
    state = hass.states.get(sensor)
    assert state is not None
    assert state.state == STATE_OFF
    assert "start" not in state.attributes
    assert not home_is_away(paired)
    assert paired.service.arrivals.arrival() is None


async def test_a_travel_time_plans_the_arrival_from_now_and_a_new_one_replaces_it(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """Twenty minutes' travel at 20:00: too short to heat, so the home is back at once."""
    answer = await set_arrival(hass, travel_time={"hours": 3})
    assert dt_util.parse_datetime(answer["arrival"]) == at("2026-11-24 23:00:00-08:00")
    # 17.5 °C at 23:00 Tuesday: 5 °C at 6 °C/h is 50 minutes.
    assert dt_util.parse_datetime(answer["start"]) == at("2026-11-24 22:10:00-08:00")

    answer = await set_arrival(hass, travel_time={"minutes": 20})
    assert dt_util.parse_datetime(answer["arrival"]) == at("2026-11-24 20:20:00-08:00")
    await thermostat_has(paired, structure_key(paired), away=False)
    assert shown(hass, preparing_id(hass, paired)) == STATE_ON


async def test_a_cancelled_arrival_leaves_the_home_as_it_is_and_nothing_happens_later(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """Cancelled before its start: still away at the start and after the arrival."""
    await set_arrival(hass, arrival="2026-12-01 12:00:00")
    await cancel_arrival(hass)
    assert shown(hass, preparing_id(hass, paired)) == STATE_OFF
    await move_to(hass, freezer, at("2026-12-01 12:00:01-08:00"))
    assert home_is_away(paired)
    await cancel_arrival(hass)  # nothing planned: nothing to do


async def test_an_arrival_survives_a_restart(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """Home Assistant restarts before the start: the arrival is kept and happens on time."""
    await set_arrival(hass, arrival="2026-12-01 12:00:00")
    assert await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()
    assert planned(hass, paired) == (STATE_OFF, at(PLANNED_START), at(ARRIVAL))
    await move_to(hass, freezer, at("2026-12-01 10:35:01-08:00"))
    await thermostat_has(paired, structure_key(paired), away=False)


async def test_an_arrival_that_passed_while_home_assistant_was_down_leaves_away_at_start(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """Nothing stays in away: the home is back as soon as it starts, the arrival gone."""
    await set_arrival(hass, arrival="2026-12-01 12:00:00")
    await down_until(hass, freezer, paired, "2026-12-01 13:00:00-08:00")
    await thermostat_has(paired, structure_key(paired), away=False)
    assert shown(hass, preparing_id(hass, paired)) == STATE_OFF
    assert paired.service.arrivals.arrival() is None


@pytest.mark.parametrize(
    ("data", "key", "placeholders"),
    [
        ({"arrival": "2026-11-24 19:00:00"}, "arrival_in_past", {}),
        ({"travel_time": {"minutes": -5}}, "arrival_in_past", {}),
        ({"travel_time": {"days": 8}}, "arrival_too_far", {"days": "7"}),
        ({"arrival": "2026-12-09 12:00:00"}, "arrival_too_far", {"days": "7"}),
        ({}, "arrival_time_or_travel", {}),
        (
            {"arrival": "2026-12-01 12:00:00", "travel_time": {"minutes": 20}},
            "arrival_time_or_travel",
            {},
        ),
        (
            {"arrival": "2026-11-27 12:00:00"},
            "arrival_in_vacation",
            {"start": "2026-11-26 08:00", "end": "2026-11-28 08:00"},
        ),
    ],
)
async def test_a_wrong_arrival_is_refused_and_changes_nothing(
    hass: HomeAssistant,
    paired: PairedThermostat,
    data: dict[str, Any],
    key: str,
    placeholders: dict[str, str],
) -> None:
    """Each wrong arrival: a translated refusal; the arrival planned before stays."""
    await set_vacation(hass, start="2026-11-26 08:00:00", end="2026-11-28 08:00:00")
    await set_arrival(hass, arrival="2026-12-01 12:00:00")
    with pytest.raises(ServiceValidationError) as err:
        await set_arrival(hass, **data)
    assert err.value.translation_domain == DOMAIN
    assert err.value.translation_key == key
    assert (err.value.translation_placeholders or {}).items() >= placeholders.items()
    assert planned(hass, paired) == (STATE_OFF, at(PLANNED_START), at(ARRIVAL))


async def test_a_vacation_planned_over_an_arrival_takes_its_place(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """The vacation's end brings the home back: the arrival inside it is dropped at once."""
    await set_arrival(hass, arrival="2026-12-01 12:00:00")
    await set_vacation(hass, start="2026-11-30 08:00:00", end="2026-12-02 08:00:00")
    await hass.async_block_till_done()
    assert paired.service.arrivals.arrival() is None
    assert shown(hass, preparing_id(hass, paired)) == STATE_OFF
    await move_to(hass, freezer, at("2026-12-01 10:35:01-08:00"))
    assert home_is_away(paired)


ALWAYS_21 = {
    "ver": 2,
    "name": "Always 21",
    "schedule_mode": "HEAT",
    "days": {
        str(day): {"0": {"time": 0, "temp": 21.0, "type": "HEAT", "entry_type": "setpoint"}}
        for day in range(7)
    },
}


@pytest.mark.slow  # five hours of the house a minute a step, then five a step
async def test_the_house_is_warm_by_the_arrival_by_the_learned_rate(
    hass: HomeAssistant, clock: LoopClock, pair_thermostat: PairThermostat
) -> None:
    """A known house heats at about 5 °C/h near 21 °C (8 °C/h furnace, leaky, 5 °C outdoors).

    Planned before anything is learned the home leaves eco at the arrival itself; once the
    model has the rate, (21 - 12.5) °C ahead of it. In its own eco the room cools; the
    thermostat leaves eco at the planned start and the room is at 21 °C by the arrival.
    """
    clock.freezer.move_to(at(TUESDAY_EVENING))
    weather(hass, 5.0)
    # The simulator runs no schedule: its setpoint is the schedule's, 21 °C.
    paired = await pair_thermostat(
        device=OWN_ECO,
        shared={"current_temperature": ROOM.temperature_c, "target_temperature": 21.0},
    )
    await action(hass, paired, "set_schedule", schedule=ALWAYS_21)
    await paired.pushed("schedule", schedule_mode="HEAT")
    arrival = at("2026-11-25 05:00:00-08:00")
    answer = await set_arrival(hass, arrival="2026-11-25 05:00:00")
    assert dt_util.parse_datetime(answer["start"]) == arrival  # no rate yet: no lead

    house = new_house()
    await live(paired, house, clock, MIN_RUNS + 2)
    _, start, _ = planned(hass, paired)
    learned = paired.service.house_model.estimate(SERIAL, "heating").rate
    assert learned is not None
    # From its own eco low to 21 °C at the learned rate (to the millisecond).
    assert abs(start - (arrival - timedelta(hours=(21 - 12.5) / learned))) < timedelta(seconds=1)
    assert arrival - timedelta(hours=3) < start < arrival - timedelta(hours=1)

    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="eco")
    await thermostat_has(paired, f"device.{SERIAL}", eco_mode_enabled=True)
    reached: datetime | None = None
    while dt_util.utcnow() < arrival:
        await clock.advance(300)
        await paired.thermostat.live(house, 300)
        now = dt_util.utcnow()
        in_eco = paired.thermostat.local[f"device.{SERIAL}"].value["eco"]["mode"] == "manual-eco"
        if now < start:
            assert in_eco, now
            assert house.room.temperature_c < 20
        elif start + timedelta(minutes=1) <= now < arrival:
            assert not in_eco, now
            assert shown(hass, preparing_id(hass, paired)) == STATE_ON
            if reached is None and house.room.temperature_c >= 21:
                reached = now
    assert reached is not None
    assert reached <= arrival
    assert shown(hass, preparing_id(hass, paired)) == STATE_OFF  # over


async def test_a_document_from_before_arrivals_loads_with_none_and_the_entities_keep_their_ids(
    hass: HomeAssistant, hass_storage: dict[str, Any], paired: PairedThermostat
) -> None:
    """The previous version's document has no `arrival`, nor its entity: both join, off."""
    entry = paired.entry
    registry = er.async_get(hass)
    assert await hass.config_entries.async_unload(entry.entry_id)
    registry.async_remove(preparing_id(hass, paired))
    before = entity_ids(hass, entry)
    hass_storage[STORAGE_KEY]["data"].pop("arrival")

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    after = entity_ids(hass, entry)
    assert {unique_id: after[unique_id] for unique_id in before} == before
    assert paired.service.arrivals.arrival() is None
    assert shown(hass, preparing_id(hass, paired)) == STATE_OFF
    assert home_is_away(paired)
