"""The house's model as Home Assistant shows it: rates learned from a simulated house over TCP.

The simulated thermostat heats a room with known rates (`thermostat_sim.room`), switching its
relay as firmware does, on the test's clock; the weather entity gives the outdoor temperature.
The diagnostic sensors show the rates at today's outdoor temperature once enough runs are
learned, and follow the weather.
"""

from __future__ import annotations

from homeassistant.const import STATE_UNAVAILABLE, EntityCategory
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.util import dt as dt_util
import pytest

from custom_components.thermostat_cloud.server import MIN_RUNS
from thermostat_sim import House, Room

from .conftest import LoopClock, PairedThermostat, PairThermostat, shown
from .test_holds import TUESDAY_EVENING, at
from .test_vacations import pair_at_home, set_vacation

WEATHER = "weather.home"
ROOM = Room(temperature_c=18.5, outdoor_c=5.0, heating_rate_c_per_h=8.0, loss_per_h=0.2)
"""A leaky house with a strong furnace: short cycles, so that the test runs few."""
DIFFERENTIAL_C = 1.5
MIDDLE_C = 19.25
"""The room's temperature halfway through its cycle between 18.5 and 20 °C."""


def weather(hass: HomeAssistant, celsius: float, unit: str = "°C") -> None:
    """Set the weather entity's temperature (in `unit`) as its integration would."""
    hass.states.async_set(WEATHER, "cloudy", {"temperature": celsius, "temperature_unit": unit})


async def live(paired: PairedThermostat, house: House, clock: LoopClock, cycles: int) -> None:
    """Let the house run until the heat has started `cycles` more times, a minute a step."""
    started = 0
    while started < cycles:
        was_heating = house.heating
        await clock.advance(60)
        await paired.thermostat.live(house, 60)
        started += house.heating and not was_heating
    await paired.hass.async_block_till_done()


def new_house() -> House:
    """Return the known house, as the thermostat controls it."""
    room = Room(**{name: getattr(ROOM, name) for name in ROOM.__slots__})
    return House(room=room, differential_c=DIFFERENTIAL_C)


@pytest.fixture
async def paired(
    hass: HomeAssistant, clock: LoopClock, pair_thermostat: PairThermostat
) -> PairedThermostat:
    """Return a thermostat heating to 20 °C in the known house, 5 °C outdoors."""
    weather(hass, 5.0)
    return await pair_thermostat(shared={"current_temperature": ROOM.temperature_c})


@pytest.mark.slow  # a day and a half of the house, a minute a step
async def test_the_rates_of_a_house_appear_once_learned_and_follow_the_weather(
    hass: HomeAssistant, clock: LoopClock, paired: PairedThermostat
) -> None:
    """Unavailable for the first runs, then the house's rates; a colder day reads lower."""
    house = new_house()
    heating = paired.entity_id("sensor", "heating_rate")
    drift = paired.entity_id("sensor", "drift_rate")
    assert shown(hass, heating) == STATE_UNAVAILABLE

    await live(paired, house, clock, MIN_RUNS)
    assert shown(hass, heating) == STATE_UNAVAILABLE  # the fifth run is under way
    await live(paired, house, clock, 1)
    state = hass.states.get(heating)
    assert state is not None
    assert state.attributes["runs"] == MIN_RUNS
    assert state.attributes["unit_of_measurement"] == "°C/h"
    loss_at_5 = ROOM.loss_per_h * (MIDDLE_C - 5.0)
    assert float(state.state) == pytest.approx(ROOM.heating_rate_c_per_h - loss_at_5, rel=0.1)
    assert float(shown(hass, drift)) == pytest.approx(-loss_at_5, rel=0.15)
    assert shown(hass, paired.entity_id("sensor", "cooling_rate")) == STATE_UNAVAILABLE

    # A cold week: the house loses more, heats slower; the line through both reads each day.
    house.room.outdoor_c = -5.0
    weather(hass, -5.0)
    await live(paired, house, clock, MIN_RUNS)
    loss_at_minus_5 = ROOM.loss_per_h * (MIDDLE_C + 5.0)
    assert float(shown(hass, drift)) == pytest.approx(-loss_at_minus_5, rel=0.15)
    cold = float(shown(hass, heating))
    assert cold == pytest.approx(ROOM.heating_rate_c_per_h - loss_at_minus_5, rel=0.1)

    weather(hass, 41.0, "°F")  # 5 °C again, as an entity in Fahrenheit reports it
    await hass.async_block_till_done()
    mild = float(shown(hass, heating))
    assert mild > cold
    assert mild == pytest.approx(ROOM.heating_rate_c_per_h - loss_at_5, rel=0.1)

    # Kept across a reload: shown at once from the saved document.
    assert await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()
    assert float(shown(hass, heating)) == mild


async def test_the_rates_are_diagnostic_sensors_unavailable_until_learned(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Three diagnostic sensors per thermostat, named in the user's words, none shown yet."""
    registry = er.async_get(hass)
    for key, name in (
        ("heating_rate", "Heating rate"),
        ("cooling_rate", "Cooling rate"),
        ("drift_rate", "Drift with equipment off"),
    ):
        entity_id = paired.entity_id("sensor", key)
        entry = registry.async_get(entity_id)
        assert entry is not None
        assert entry.entity_category is EntityCategory.DIAGNOSTIC
        state = hass.states.get(entity_id)
        assert state is not None
        assert state.state == STATE_UNAVAILABLE
        assert state.attributes["friendly_name"].endswith(name)


async def heat_runs(paired: PairedThermostat, clock: LoopClock, rate: float, runs: int) -> None:
    """Report `runs` half-hour heating runs at `rate` °C/h, an hour off after each."""
    shared = f"shared.{paired.serial}"
    for _ in range(runs):
        await paired.thermostat.put(shared, {"hvac_heater_state": True, "current_temperature": 18})
        for _ in range(3):
            await clock.advance(600)
            await paired.thermostat.heartbeat()
        await paired.thermostat.put(
            shared, {"hvac_heater_state": False, "current_temperature": 18 + rate / 2}
        )
        for _ in range(6):
            await clock.advance(600)
            await paired.thermostat.heartbeat()
        await paired.thermostat.put(shared, {"current_temperature": 18})


async def test_a_vacation_ends_by_the_learned_heating_rate(
    hass: HomeAssistant, clock: LoopClock, pair_thermostat: PairThermostat
) -> None:
    """Learned: 3 °C/h. Eco 15 °C to the schedule's 21 °C is two hours: home at 10:00.

    The thermostat's time-to-target said 6 °C/h (one hour), which counts only until the model
    has learned.
    """
    clock.freezer.move_to(at(TUESDAY_EVENING))
    weather(hass, 5.0)
    paired = await pair_at_home(hass, pair_thermostat)
    now = dt_util.utcnow().timestamp()
    await paired.thermostat.put(
        f"shared.{paired.serial}",
        {"current_temperature": 18.0, "target_temperature": 21.0, "hvac_heater_state": True},
    )
    await paired.thermostat.put(f"device.{paired.serial}", {"time_to_target": int(now + 1800)})
    eco = {"eco_low": 15, "eco_high": 28}
    answer = await set_vacation(hass, start="2026-11-28 08:00", end="2026-12-01 12:00", **eco)
    assert dt_util.parse_datetime(answer["home_from"]) == at("2026-12-01 11:00:00-08:00")

    await heat_runs(paired, clock, 3.0, MIN_RUNS + 1)
    answer = await set_vacation(hass, start="2026-12-05 08:00", end="2026-12-08 12:00", **eco)
    assert dt_util.parse_datetime(answer["home_from"]) == at("2026-12-08 10:00:00-08:00")
    first = paired.service.vacations.vacations()[0]  # planned before: timed again
    assert (
        paired.service.vacations.return_ms(first) == at("2026-12-01 10:00-08:00").timestamp() * 1000
    )
