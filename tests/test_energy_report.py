"""The `get_energy_report` action with a simulated thermostat over real TCP.

The home is in US/Pacific (the test harness's time zone); the clock is moved with the freezer
and Home Assistant's timers fire as they fall due (`move_to`), so the outdoor temperature is
taken every ten minutes from a template weather entity, as it is in a running home.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
import pytest

from custom_components.thermostat_cloud.const import DOMAIN

from .conftest import SERIAL, PairedThermostat, PairThermostat
from .test_holds import at, move_to
from .test_weather import set_outdoors, setup_weather

SHARED = f"shared.{SERIAL}"


async def report(hass: HomeAssistant, **data: Any) -> dict[str, Any]:
    """Call `get_energy_report` and return its answer."""
    answer = await hass.services.async_call(
        DOMAIN, "get_energy_report", data, blocking=True, return_response=True
    )
    assert answer is not None
    return dict(answer)


async def heat_for(
    hass: HomeAssistant, paired: PairedThermostat, freezer: FrozenDateTimeFactory, hours: float
) -> None:
    """Heat for `hours`, time passing in five-minute steps with the thermostat in touch."""
    await paired.thermostat.put(SHARED, {"hvac_heater_state": True})
    steps = int(hours * 12)
    now = at("2026-11-24 08:00:00-08:00")
    for step in range(1, steps + 1):
        await move_to(hass, freezer, now + timedelta(minutes=5 * step))
        await paired.thermostat.put(f"device.{SERIAL}", {"current_humidity": 40 + step % 3})
    await paired.thermostat.put(SHARED, {"hvac_heater_state": False})
    await hass.async_block_till_done()


@pytest.fixture
async def heated(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> PairedThermostat:
    """On Tuesday 24 November at 08:00, 41 °F outdoors: the thermostat heats for two hours."""
    freezer.move_to(at("2026-11-24 08:00:00-08:00"))
    await setup_weather(hass, "Backyard")
    set_outdoors(hass, temperature="41")
    await hass.async_block_till_done()
    paired = await pair_thermostat()
    await heat_for(hass, paired, freezer, 2)
    return paired


async def test_a_thermostats_day_week_and_month(
    hass: HomeAssistant, heated: PairedThermostat
) -> None:
    """The day's two hours, in the day, its week (to today) and its month (to today)."""
    climate = heated.entity_id("climate")
    day = await report(hass, entity_id=climate)
    assert (day["period"], day["start"], day["end"]) == ("day", "2026-11-24", "2026-11-24")
    assert day["time_zone"] == "US/Pacific"
    (thermostat,) = day["thermostats"]
    assert thermostat["entity_id"] == climate
    assert thermostat["days"][0]["runtime_hours"]["heating_stage_1"] == 2.0
    # The weather covered two hours of the day so far: too little for degree-days.
    assert thermostat["days"][0]["heating_degree_days"] is None
    assert day["weather"] == "missing"

    week = await report(hass, entity_id=climate, period="week", date="2026-11-25")
    assert (week["start"], week["end"]) == ("2026-11-23", "2026-11-24")  # Monday to today
    assert week["home"]["heating_hours"] == 2.0

    month = await report(hass, period="month")
    assert (month["start"], month["end"]) == ("2026-11-01", "2026-11-24")
    assert [t["serial"] for t in month["thermostats"]] == [SERIAL]
    assert month["home"]["runtime_hours"] == {"heating_stage_1": 2.0}


async def test_a_whole_day_of_weather_gives_degree_days(
    hass: HomeAssistant, heated: PairedThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """41 °F (5 °C) for a whole day, 13 °C under the base; the first day, from 08:00, too little."""
    start = at("2026-11-24 10:00:00-08:00")
    for step in range(
        1, 6 * 38 + 2
    ):  # to just past midnight after the next day, ten minutes a step
        await move_to(hass, freezer, start + timedelta(minutes=10 * step))
    answer = await report(hass, period="day", date="2026-11-25")
    assert answer["home"]["heating_degree_days"] == 13.0
    assert answer["weather"] == "complete"
    both = await report(hass, period="week")
    assert both["weather"] == "partial"
    # Monday had none; Tuesday from 08:00 and Thursday's first minutes are short of 3/4.
    days = both["thermostats"][0]["days"]
    assert [d["heating_degree_days"] for d in days] == [None, None, 13.0, None]
    assert both["home"]["days_with_weather"] == 1


async def test_bad_requests_are_refused_in_words(
    hass: HomeAssistant, heated: PairedThermostat
) -> None:
    """An entity that is not one of ours, a period that has not begun."""
    with pytest.raises(ServiceValidationError) as refused:
        await report(hass, entity_id="climate.somebody_elses")
    assert refused.value.translation_key == "report_unknown_thermostat"
    # Home Assistant shows the translated message (without its final full stop).
    assert str(refused.value) == "climate.somebody_elses is not a thermostat of Thermostat Cloud"

    with pytest.raises(ServiceValidationError) as refused:
        await report(hass, period="month", date="2026-12-02")
    assert refused.value.translation_key == "report_in_future"
    assert str(refused.value) == (
        "There is no report for 2026-12-02 yet: that period has not begun"
    )
