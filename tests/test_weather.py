"""`/svc/weather/v1` over real TCP, served from a weather entity in Home Assistant.

The weather entity is Home Assistant's own `template` weather, driven by helper states the
tests set, so its conditions, units and forecasts go through Home Assistant's weather entity
and its `weather.get_forecasts` action as a real integration's would.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
import json
from typing import Any
from zoneinfo import ZoneInfo

import aiohttp
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import weather
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from yarl import URL

from custom_components.thermostat_cloud.const import CONF_DEVICE_PORT, CONF_WEATHER_ENTITY
from custom_components.thermostat_cloud.weather_source import CONDITIONS
from thermostat_sim import basic_auth

from .conftest import SERIAL, shown
from .docs_pages import differences, examples_of

BACKYARD = "weather.backyard"
TOKEN = "07719,US"
# 03:00 in the test home's time zone (US/Pacific, winter: UTC-8), before sunrise.
NIGHT = datetime(2027, 1, 15, 11, 0, tzinfo=UTC)

DAILY_F = [
    {
        "datetime": "2027-01-15T00:00:00-08:00",
        "condition": "rainy",
        "temperature": 60,
        "templow": 45,
        "humidity": 80,
    },
    {"datetime": "2027-01-16T00:00:00-08:00", "condition": "snowy", "temperature": 33},
]
HOURLY_F = [
    {"datetime": "2027-01-15T04:00:00-08:00", "condition": "clear-night", "temperature": 50},
    {"datetime": "2027-01-15T05:00:00-08:00", "condition": "fog", "temperature": 49.5},
]


def set_outdoors(
    hass: HomeAssistant,
    *,
    condition: str = "partlycloudy",
    temperature: str = "70",
    daily: list[dict[str, Any]] | None = None,
    hourly: list[dict[str, Any]] | None = None,
) -> None:
    """Return what the template weather entity reports (°F, wind in km/h)."""
    hass.states.async_set("sensor.outdoor_condition", condition)
    hass.states.async_set("sensor.outdoor_temperature", temperature)
    hass.states.async_set(
        "sensor.outdoor_forecast",
        "ok",
        {
            "daily": DAILY_F if daily is None else daily,
            "hourly": HOURLY_F if hourly is None else hourly,
        },
    )


def template_weather(name: str) -> dict[str, Any]:
    """Return the configuration of a template weather entity."""
    return {
        "name": name,
        "condition": "{{ states('sensor.outdoor_condition') }}",
        "temperature": "{{ states('sensor.outdoor_temperature') }}",
        "temperature_unit": "°F",
        "humidity": "{{ 55 }}",
        "wind_speed": "{{ 16.1 }}",
        "wind_speed_unit": "km/h",
        "wind_bearing": "{{ 200 }}",
        "forecast_daily": "{{ state_attr('sensor.outdoor_forecast', 'daily') }}",
        "forecast_hourly": "{{ state_attr('sensor.outdoor_forecast', 'hourly') }}",
        "availability": "{{ states('sensor.outdoor_temperature') != 'unavailable' }}",
    }


async def setup_weather(hass: HomeAssistant, *names: str) -> None:
    """Template weather entities (weather.<name>) reading the helper states."""
    set_outdoors(hass)
    assert await async_setup_component(
        hass, "template", {"template": [{"weather": [template_weather(n) for n in names]}]}
    )
    await hass.async_block_till_done()


@pytest.fixture
async def backyard(hass: HomeAssistant) -> str:
    """One weather entity in a home in the US."""
    hass.config.country = "US"
    await setup_weather(hass, "Backyard")
    assert hass.states.get(BACKYARD) is not None
    return BACKYARD


async def ask(hub: MockConfigEntry, query: str | None = TOKEN) -> tuple[int, bytes]:
    """GET the weather as firmware does.

    GET weather_url + query as firmware does: `query` is appended as it is (percent-encoded
    where a URL needs it). None asks without a query.
    """
    path = "/svc/weather/v1" if query is None else f"/svc/weather/v1?query={query}"
    url = URL(f"http://127.0.0.1:{hub.data[CONF_DEVICE_PORT]}{path}", encoded=True)
    async with (
        aiohttp.ClientSession() as http,
        http.get(url, headers={"Authorization": basic_auth(SERIAL)}) as resp,
    ):
        return resp.status, await resp.read()


async def weather_of(hub: MockConfigEntry, query: str = TOKEN) -> dict[str, Any]:
    """Return the answer's value under its only key, which must be the token."""
    status, raw = await ask(hub, query)
    assert status == 200, raw
    body = json.loads(raw)
    assert len(body) == 1
    return dict(next(iter(body.values())))


def assert_units_agree(entry: dict[str, Any], suffix: str = "") -> None:
    """Assert that the Celsius and Fahrenheit values of a field agree."""
    celsius, fahrenheit = entry[f"temp{suffix}_c"], entry[f"temp{suffix}_f"]
    assert fahrenheit == round(celsius * 9 / 5 + 32, 1)


# -- the answer -------------------------------------------------------------------------------


# The sun integration's sensors keep their update timer after the test.
@pytest.mark.parametrize("expected_lingering_timers", [True])
async def test_answer_has_the_weather_services_shape_and_units(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, backyard: str, hub: MockConfigEntry
) -> None:
    freezer.move_to(NIGHT)
    assert await async_setup_component(hass, "sun", {})
    await hass.async_block_till_done()

    status, raw = await ask(hub)

    assert status == 200
    body = json.loads(raw)
    assert list(body) == [TOKEN]
    weather = body[TOKEN]
    assert list(weather)[:3] == ["current", "location", "forecast"]
    current = weather["current"]
    # 70 °F from the entity; Home Assistant shows it as 21.1 °C.
    assert current["temp_c"] == 21.1
    assert current["temp_f"] == 70.0
    assert_units_agree(current)
    assert current["humidity"] == 55
    assert (current["condition"], current["icon"]) == ("Partly Cloudy", "partlycloudy")
    assert current["wind_dir"] == "SSW"  # 200°
    assert current["wind_kph"] == 16.1
    assert current["wind_mph"] == 10.0
    assert current["gmt_offset"] == "-08.00"
    # Today's sunrise and sunset at home: before dawn, the sun entity's next ones.
    sun = hass.states.get("sun.sun")
    assert sun is not None
    for ours, theirs in (("sunrise", "next_rising"), ("sunset", "next_setting")):
        expected = dt_util.parse_datetime(sun.attributes[theirs])
        assert expected is not None
        assert current[ours] == int(expected.timestamp())
    assert current["sunrise"] < current["sunset"]

    # The order and forms of real answers: coordinates and offset are strings.
    assert weather["location"] == {
        "zip": "07719",
        "city": "test home",
        "country": "US",
        "lat": "32.873360",
        "lon": "-117.227430",
        "short_name": "test home",
        "timezone": "PST",
        "timezone_long": "US/Pacific",
        "full_name": "test home, 07719, US",
        "gmt_offset": "-08.00",
    }
    assert list(weather["location"]) == [
        "zip", "city", "country", "lat", "lon", "short_name", "timezone", "timezone_long",
        "full_name", "gmt_offset",
    ]  # fmt: skip

    daily = weather["forecast"]["daily"]
    assert [day["date"] for day in daily] == [
        int(datetime(2027, 1, 15, 8, tzinfo=UTC).timestamp()),
        int(datetime(2027, 1, 16, 8, tzinfo=UTC).timestamp()),
    ]
    assert (daily[0]["temp_high_c"], daily[0]["temp_high_f"]) == (15.6, 60.1)
    assert (daily[0]["temp_low_c"], daily[0]["temp_low_f"]) == (7.2, 45.0)
    assert (daily[0]["condition"], daily[0]["icon"], daily[0]["humidity"]) == ("Rain", "rain", 80)
    assert (daily[1]["condition"], daily[1]["icon"]) == ("Snow", "snow")
    assert "temp_low_c" not in daily[1]  # the entity gave no low
    for day in daily:
        assert_units_agree(day, "_high")
    assert_units_agree(daily[0], "_low")
    # The app-side names of the same values, alongside.
    assert daily[0]["high_temperature"] == daily[0]["temp_high_c"]
    assert daily[0]["low_temperature"] == daily[0]["temp_low_c"]
    assert daily[0]["conditions"] == "Rain"

    hourly = weather["forecast"]["hourly"]
    assert [hour["time"] for hour in hourly] == [
        int(datetime(2027, 1, 15, 12, tzinfo=UTC).timestamp()),
        int(datetime(2027, 1, 15, 13, tzinfo=UTC).timestamp()),
    ]
    assert [(hour["temp_c"], hour["icon"]) for hour in hourly] == [(10.0, "clear"), (9.7, "fog")]
    # Numbered from 1, first in each entry, as in real answers.
    assert [next(iter(hour)) for hour in hourly] == ["hour", "hour"]
    assert [hour["hour"] for hour in hourly] == [1, 2]
    for hour in hourly:
        assert_units_agree(hour)

    # The app-side `now` block repeats the current conditions under its names.
    assert weather["now"] == {
        "conditions": "Partly Cloudy",
        "current_humidity": 55,
        "current_temperature": 21.1,
        "current_wind": 16.1,
        "gmt_offset": "-08.00",
        "icon": "partlycloudy",
        "sunrise": current["sunrise"],
        "sunset": current["sunset"],
        "wind_direction": "SSW",
    }


async def test_the_documented_answer_has_the_fields_served(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, backyard: str, hub: MockConfigEntry
) -> None:
    """docs/weather.md's example answer has the served answer's fields, of the same types.

    The entity forecasts both days and hours, with humidity on its first day, as the
    example shows; its values are the home's, so only the keys and types must agree.
    """
    freezer.move_to(NIGHT)
    (request,) = examples_of("device")
    method, path = request
    assert (method, path) == ("GET", f"/svc/weather/v1?query={TOKEN}")
    documented = examples_of("device")[request]["answer"]

    status, raw = await ask(hub, path.partition("?query=")[2])

    assert status == 200
    problems = differences(documented.block.json, json.loads(raw), (), shape_only=True)
    assert not problems, "\n".join(f"{documented.block.where}{problem}" for problem in problems)


@pytest.mark.parametrize(
    ("temperature", "celsius", "fahrenheit"),
    [("-40", -40.0, -40.0), ("32", 0.0, 32.0), ("98.6", 37.0, 98.6), ("-3.1", -19.5, -3.1)],
)
async def test_both_units_agree(
    hass: HomeAssistant,
    *,
    backyard: str,
    hub: MockConfigEntry,
    temperature: str,
    celsius: float,
    fahrenheit: float,
) -> None:
    """The weather a thermostat reads gives the outdoor temperature in °C and °F, converted alike."""
    set_outdoors(hass, temperature=temperature)
    await hass.async_block_till_done()

    current = (await weather_of(hub))["current"]

    assert (current["temp_c"], current["temp_f"]) == (celsius, fahrenheit)


async def test_every_home_assistant_condition_maps_to_a_firmware_icon(
    hass: HomeAssistant, backyard: str, hub: MockConfigEntry
) -> None:
    """The thermostat shows an icon for every condition a Home Assistant weather entity has.

    The conditions are Home Assistant's own: one it adds fails here until it is mapped.
    """
    home_assistant_conditions = {
        value
        for name, value in vars(weather).items()
        if name.startswith("ATTR_CONDITION_") and name != "ATTR_CONDITION_CLASS"
    }
    seen: dict[str, tuple[str, str]] = {}
    for ha_condition in sorted(home_assistant_conditions):
        set_outdoors(hass, condition=ha_condition)
        await hass.async_block_till_done()
        current = (await weather_of(hub))["current"]
        seen[ha_condition] = (current["condition"], current["icon"])
        assert (await weather_of(hub))["now"]["icon"] == current["icon"]
    # Every condition is served as mapped: none falls to the unknown icon by being left out.
    assert seen == CONDITIONS
    assert [c for c, (_, icon) in seen.items() if icon == "unknown"] == ["exceptional"]
    assert seen["partlycloudy"] == ("Partly Cloudy", "partlycloudy")
    assert seen["pouring"] == ("Heavy Rain", "rain")
    assert seen["windy-variant"] == ("Windy and Cloudy", "mostlycloudy")


# -- location and time ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "country", "zip_code", "full_name"),
    [
        ("07719,US", "US", "07719", "test home, 07719, US"),
        ("SW1A%201AA,GB", "GB", "SW1A 1AA", "test home, SW1A 1AA, GB"),
        # The home's country is the home's, whatever the thermostat was set to.
        ("75001,FR", "GB", "75001", "test home, 75001, GB"),
        # Home Assistant without a country: the country the thermostat asked about.
        ("75001,FR", None, "75001", "test home, 75001, FR"),
        # `ipv4` names no postal code: no `zip`, none made up.
        ("ipv4", "US", None, "test home, US"),
        ("ipv4", None, None, "test home"),
    ],
)
async def test_location_is_the_home_with_the_postal_code_asked_about(
    hass: HomeAssistant,
    *,
    backyard: str,
    hub: MockConfigEntry,
    query: str,
    country: str | None,
    zip_code: str | None,
    full_name: str,
) -> None:
    hass.config.country = country
    hass.config.latitude = 40.164221
    hass.config.longitude = -74.0887581

    location = (await weather_of(hub, query))["location"]

    assert location.get("zip") == zip_code
    assert location["country"] == (country or ("FR" if "FR" in query else ""))
    assert (location["city"], location["short_name"]) == ("test home", "test home")
    assert location["full_name"] == full_name
    assert "state" not in location  # Home Assistant knows no region; none is made up
    # Strings with six decimals, as real answers write them (`"40.164221"`).
    assert (location["lat"], location["lon"]) == ("40.164221", "-74.088758")


NEW_YORK_WINTER = datetime(2027, 1, 15, 17, tzinfo=UTC)
NEW_YORK_SUMMER = datetime(2027, 7, 15, 16, tzinfo=UTC)


@pytest.mark.parametrize(
    ("time_zone", "moment", "offset", "abbreviation"),
    [
        ("America/New_York", NEW_YORK_WINTER, "-05.00", "EST"),
        ("America/New_York", NEW_YORK_SUMMER, "-04.00", "EDT"),
        ("Europe/London", NEW_YORK_WINTER, "+00.00", "GMT"),
        ("Europe/Berlin", NEW_YORK_SUMMER, "+02.00", "CEST"),
        ("Asia/Kolkata", NEW_YORK_SUMMER, "+05.50", "IST"),
        ("Asia/Kathmandu", NEW_YORK_SUMMER, "+05.75", "+0545"),
        ("America/St_Johns", NEW_YORK_WINTER, "-03.50", "NST"),
        ("America/St_Johns", NEW_YORK_SUMMER, "-02.50", "NDT"),
        ("Pacific/Kiritimati", NEW_YORK_SUMMER, "+14.00", "+14"),
    ],
)
async def test_gmt_offset_is_the_home_zone_now_in_decimal_hours(
    hass: HomeAssistant,
    *,
    freezer: FrozenDateTimeFactory,
    backyard: str,
    hub: MockConfigEntry,
    time_zone: str,
    moment: datetime,
    offset: str,
    abbreviation: str,
) -> None:
    await hass.config.async_set_time_zone(time_zone)
    freezer.move_to(moment)

    weather = await weather_of(hub)

    location = weather["location"]
    assert (location["gmt_offset"], location["timezone"]) == (offset, abbreviation)
    assert location["timezone_long"] == time_zone
    assert weather["current"]["gmt_offset"] == weather["now"]["gmt_offset"] == offset
    # A client reading it as python-nest does (`float(gmt_offset)` hours) gets the zone's offset.
    assert timedelta(hours=float(location["gmt_offset"])) == ZoneInfo(time_zone).utcoffset(moment)


async def test_gmt_offset_follows_daylight_saving_time_without_a_restart(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, backyard: str, hub: MockConfigEntry
) -> None:
    await hass.config.async_set_time_zone("America/New_York")
    # 2027-03-14 02:00 EST: clocks go forward an hour.
    freezer.move_to(datetime(2027, 3, 14, 6, 59, tzinfo=UTC))
    before = (await weather_of(hub))["location"]
    freezer.tick(timedelta(minutes=2))
    after = (await weather_of(hub))["location"]

    assert (before["gmt_offset"], before["timezone"]) == ("-05.00", "EST")
    assert (after["gmt_offset"], after["timezone"]) == ("-04.00", "EDT")


# -- how much forecast ------------------------------------------------------------------------

FORECAST_START = datetime(2027, 1, 15, 12, tzinfo=UTC)


def celsius(fahrenheit: float) -> float:
    """Return a Fahrenheit temperature in Celsius, to a tenth, as the answer carries it."""
    return round((fahrenheit - 32) * 5 / 9, 1)


def hours_forecast(count: int) -> list[dict[str, Any]]:
    """Return `count` hourly forecast items from FORECAST_START, each a different temperature."""
    return [
        {
            "datetime": (FORECAST_START + timedelta(hours=n)).isoformat(),
            "condition": "cloudy",
            "temperature": 40 + n,
        }
        for n in range(count)
    ]


def days_forecast(count: int) -> list[dict[str, Any]]:
    """Return `count` daily forecast items from FORECAST_START."""
    return [
        {
            "datetime": (FORECAST_START + timedelta(days=n)).isoformat(),
            "condition": "sunny",
            "temperature": 60 + n,
            "templow": 40 + n,
        }
        for n in range(count)
    ]


@pytest.mark.parametrize(("hours", "days"), [(72, 15), (48, 10), (47, 9), (5, 3), (0, 0)])
async def test_up_to_48_hours_and_10_days_of_what_the_entity_forecasts(
    hass: HomeAssistant,
    *,
    freezer: FrozenDateTimeFactory,
    backyard: str,
    hub: MockConfigEntry,
    hours: int,
    days: int,
) -> None:
    freezer.move_to(FORECAST_START)
    set_outdoors(hass, hourly=hours_forecast(hours), daily=days_forecast(days))
    await hass.async_block_till_done()

    forecast = (await weather_of(hub))["forecast"]

    served_hours, served_days = min(hours, 48), min(days, 10)
    hourly, daily = forecast["hourly"], forecast["daily"]
    # The first ones, in order, none made up.
    assert [hour["hour"] for hour in hourly] == list(range(1, served_hours + 1))
    assert [hour["time"] for hour in hourly] == [
        int((FORECAST_START + timedelta(hours=n)).timestamp()) for n in range(served_hours)
    ]
    assert [hour["temp_c"] for hour in hourly] == [celsius(40 + n) for n in range(served_hours)]
    assert [day["date"] for day in daily] == [
        int((FORECAST_START + timedelta(days=n)).timestamp()) for n in range(served_days)
    ]
    assert [day["temp_low_c"] for day in daily] == [celsius(40 + n) for n in range(served_days)]


async def test_forecast_wind_and_items_without_a_temperature(
    hass: HomeAssistant, *, freezer: FrozenDateTimeFactory, backyard: str, hub: MockConfigEntry
) -> None:
    """Forecast wind reaches the thermostat as a compass point and both speeds.

    A bearing written as a compass point stays one; an item with no temperature is left out,
    not made up.
    """
    freezer.move_to(FORECAST_START)
    hours = hours_forecast(3)
    hours[0] |= {"wind_bearing": 90, "wind_speed": 20}
    hours[1] |= {"wind_bearing": "ne"}
    del hours[2]["temperature"]
    set_outdoors(hass, hourly=hours, daily=[])
    await hass.async_block_till_done()

    hourly = (await weather_of(hub))["forecast"]["hourly"]

    assert [
        (hour["temp_c"], hour.get("wind_dir"), hour.get("wind_kph"), hour.get("wind_mph"))
        for hour in hourly
    ] == [(celsius(40), "E", 20.0, 12.4), (celsius(41), "NE", None, None)]


# -- the cache --------------------------------------------------------------------------------


async def test_forecasts_are_kept_then_refreshed_in_the_background(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, backyard: str, hub: MockConfigEntry
) -> None:
    freezer.move_to(NIGHT)
    first = await weather_of(hub)
    assert first["forecast"]["daily"][0]["temp_high_f"] == 60.1

    # The entity's forecast and its current temperature change.
    set_outdoors(
        hass, temperature="50", daily=[{**DAILY_F[0], "temperature": 80}], hourly=HOURLY_F[:1]
    )
    await hass.async_block_till_done()
    freezer.tick(timedelta(minutes=4, seconds=59))  # forecasts are refreshed every 5 minutes
    kept = await weather_of(hub)
    assert kept["current"]["temp_f"] == 50.0  # current conditions: read at every request
    assert kept["forecast"] == first["forecast"]  # forecasts: kept, not asked for again

    freezer.tick(timedelta(seconds=1))
    stale = await weather_of(hub)
    # The kept forecasts are served while the refresh runs in the background...
    assert stale["forecast"] == first["forecast"]
    await hass.async_block_till_done()
    fresh = await weather_of(hub)
    # ...and the next request gets the new ones.
    assert fresh["forecast"]["daily"][0]["temp_high_f"] == 80.1
    assert len(fresh["forecast"]["daily"]) == 1
    assert len(fresh["forecast"]["hourly"]) == 1


# -- no weather -------------------------------------------------------------------------------


async def test_no_weather_entity_is_the_token_with_an_empty_object(
    hass: HomeAssistant, hub: MockConfigEntry
) -> None:
    status, raw = await ask(hub)
    assert (status, json.loads(raw)) == (200, {TOKEN: {}})


async def test_unavailable_weather_entity_is_the_token_with_an_empty_object(
    hass: HomeAssistant, backyard: str, hub: MockConfigEntry
) -> None:
    assert (await weather_of(hub))["current"]["temp_f"] == 70.0
    hass.states.async_set("sensor.outdoor_temperature", "unavailable")
    await hass.async_block_till_done()
    assert shown(hass, backyard) == "unavailable"

    status, raw = await ask(hub)

    assert (status, json.loads(raw)) == (200, {TOKEN: {}})


async def choose_weather(hass: HomeAssistant, hub: MockConfigEntry, choice: str) -> list[str]:
    """Save the hub options with a weather choice; returns the choices the form offered."""
    result = await hass.config_entries.options.async_init(hub.entry_id)
    assert result["data_schema"] is not None
    schema = result["data_schema"].schema
    key = next(k for k in schema if k == CONF_WEATHER_ENTITY)
    offered = [option["value"] for option in schema[key].config["options"]]
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {
            "entry_key_minutes": 60,
            "compat_api": False,
            CONF_WEATHER_ENTITY: choice,
        },
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    return offered


async def test_options_choose_the_entity_or_no_weather_without_a_restart(
    hass: HomeAssistant, hub: MockConfigEntry
) -> None:
    await setup_weather(hass, "Backyard", "Attic")
    # The default is the first weather entity: weather.attic before weather.backyard.
    await weather_of(hub)
    first = hub.runtime_data.weather.last_served
    assert first is not None
    assert first.entity_id == "weather.attic"
    assert await choose_weather(hass, hub, "auto") == ["auto", "none", "weather.attic", BACKYARD]
    service = hub.runtime_data.service

    for choice, expected in ((BACKYARD, BACKYARD), ("none", None), ("auto", "weather.attic")):
        await choose_weather(hass, hub, choice)
        assert hub.options[CONF_WEATHER_ENTITY] == choice
        # The same running service: the thermostats' connections were not dropped.
        assert hub.state is ConfigEntryState.LOADED
        assert hub.runtime_data.service is service
        weather = await weather_of(hub)
        assert bool(weather) is (expected is not None)
        assert hub.runtime_data.weather.last_served.entity_id == expected


async def test_a_chosen_weather_entity_that_is_gone_stays_chosen(
    hass: HomeAssistant, hub: MockConfigEntry
) -> None:
    """The options form still shows an entity chosen before and removed since, as chosen."""
    await setup_weather(hass, "Backyard")
    await choose_weather(hass, hub, BACKYARD)
    hass.states.async_remove(BACKYARD)

    assert await choose_weather(hass, hub, BACKYARD) == ["auto", "none", BACKYARD]
    assert hub.options[CONF_WEATHER_ENTITY] == BACKYARD
    assert await weather_of(hub) == {}


# -- the token --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "token"),
    [
        ("07719,US", "07719,US"),
        ("ipv4", "ipv4"),
        ("SW1A%201AA,GB", "SW1A 1AA,GB"),
        ("H0H+0H0,CA", "H0H 0H0,CA"),
        ("75001%2CFR", "75001,FR"),
        ("%C3%A9,FR", "é,FR"),
        ("12345", "12345"),
        ("x" * 64, "x" * 64),
    ],
)
async def test_the_token_is_echoed_exactly(
    hass: HomeAssistant, backyard: str, hub: MockConfigEntry, query: str, token: str
) -> None:
    status, raw = await ask(hub, query)

    assert status == 200
    body = json.loads(raw)
    assert list(body) == [token]
    assert body[token]["current"]["temp_f"] == 70.0


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        (None, "query parameter required"),
        ("", "query parameter is empty"),
        ("%20%20", "query parameter is empty"),
        ("x" * 65, "longer than 64 characters"),
        ("07719,US%0A", "control characters"),
        ("07719%00,US", "control characters"),
        ("07719,US%7F", "control characters"),
        ("07719,US&query=ipv4", "more than once"),
    ],
)
async def test_malformed_query_is_a_clear_400(
    hass: HomeAssistant,
    *,
    backyard: str,
    hub: MockConfigEntry,
    caplog: pytest.LogCaptureFixture,
    query: str | None,
    reason: str,
) -> None:
    caplog.set_level("DEBUG", logger="custom_components.thermostat_cloud")

    status, raw = await ask(hub, query)

    assert status == 400
    body = json.loads(raw)
    assert list(body) == ["error"]
    assert reason in body["error"]
    assert "Rejected GET /svc/weather/v1 from 127.0.0.1: Invalid weather query: " in caplog.text
    assert reason in caplog.text
    assert "07719" not in caplog.text  # the home's postal code is not logged
    assert "Traceback" not in caplog.text
