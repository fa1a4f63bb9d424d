"""Home Assistant's weather, in the shape thermostat firmware reads from its weather service.

Not a `weather` platform (that name is Home Assistant's): this module answers the device
endpoint `/svc/weather/v1` from a weather entity Home Assistant already has, so thermostats show
the outdoor weather and nothing leaves the network. Which field comes from where, and the
public sources for each field's name and form, are tabled in docs/weather.md.

Current conditions are read from the entity's state at every request (free and always current).
Forecasts come from `weather.get_forecasts`, kept for REFRESH_INTERVAL and then refreshed in the
background while the kept ones are served; only a cold cache makes a request wait, at most
REFRESH_TIMEOUT, for its first forecasts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
import logging
import math
from typing import Any

from homeassistant.components.weather import (
    ATTR_FORECAST_CONDITION,
    ATTR_FORECAST_HUMIDITY,
    ATTR_FORECAST_TEMP,
    ATTR_FORECAST_TEMP_LOW,
    ATTR_FORECAST_TIME,
    ATTR_FORECAST_WIND_BEARING,
    ATTR_FORECAST_WIND_SPEED,
)
from homeassistant.components.weather.const import (
    ATTR_WEATHER_HUMIDITY,
    ATTR_WEATHER_TEMPERATURE,
    ATTR_WEATHER_TEMPERATURE_UNIT,
    ATTR_WEATHER_WIND_BEARING,
    ATTR_WEATHER_WIND_SPEED,
    ATTR_WEATHER_WIND_SPEED_UNIT,
    DOMAIN as WEATHER_DOMAIN,
    SERVICE_GET_FORECASTS,
    WeatherEntityFeature,
)
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import (
    ATTR_ENTITY_ID,
    ATTR_SUPPORTED_FEATURES,
    EVENT_STATE_CHANGED,
    STATE_UNAVAILABLE,
    STATE_UNKNOWN,
    SUN_EVENT_SUNRISE,
    SUN_EVENT_SUNSET,
    UnitOfSpeed,
    UnitOfTemperature,
)
from homeassistant.core import (
    CALLBACK_TYPE,
    Event,
    EventStateChangedData,
    HomeAssistant,
    State,
    callback,
    split_entity_id,
)
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers.sun import get_astral_event_date
from homeassistant.util import dt as dt_util
from homeassistant.util.unit_conversion import SpeedConverter, TemperatureConverter

from .const import WEATHER_AUTO, WEATHER_NONE
from .server import postal_location, token_kind

_LOGGER = logging.getLogger(__name__)

REFRESH_INTERVAL = timedelta(minutes=5)
"""Forecasts are asked of the weather entity at most this often."""
REFRESH_TIMEOUT = 10.0
"""Seconds one forecast refresh may take; a request with no forecasts yet waits this long."""
DAILY_ENTRIES = 10
"""The most days served: the archived answers carry six or ten, the captured one six."""
HOURLY_ENTRIES = 48
"""The most hours served: the archived answer with hours, and the captured one, carry 48."""
COORDINATE_DECIMALS = 6
"""Latitude and longitude are strings with six decimals in real answers (`"40.164221"`)."""

# Home Assistant condition -> (text, icon). The firmware's icon names are the Weather
# Underground set its weather service used (`sunny`, `mostlycloudy`, `partlycloudy` in archived
# answers); the texts follow that service's "Mostly Cloudy" style.
CONDITIONS: dict[str, tuple[str, str]] = {
    "clear-night": ("Clear", "clear"),
    "cloudy": ("Cloudy", "cloudy"),
    "exceptional": ("Unknown", "unknown"),
    "fog": ("Fog", "fog"),
    "hail": ("Hail", "sleet"),
    "lightning": ("Thunderstorm", "tstorms"),
    "lightning-rainy": ("Thunderstorms and Rain", "tstorms"),
    "partlycloudy": ("Partly Cloudy", "partlycloudy"),
    "pouring": ("Heavy Rain", "rain"),
    "rainy": ("Rain", "rain"),
    "snowy": ("Snow", "snow"),
    "snowy-rainy": ("Sleet", "sleet"),
    "sunny": ("Sunny", "sunny"),
    "windy": ("Windy", "partlycloudy"),
    "windy-variant": ("Windy and Cloudy", "mostlycloudy"),
}
UNKNOWN_CONDITION = ("Unknown", "unknown")
COMPASS = (
    "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE",
    "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
)  # fmt: skip


def _number(value: Any) -> float | None:
    """Return a finite number from an attribute or forecast field, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _round(value: float) -> float:
    return round(value, 1)


def temperatures(value: float, unit: str, suffix: str = "") -> dict[str, float]:
    """`temp{suffix}_c` and `temp{suffix}_f` of a temperature in `unit`.

    Fahrenheit is derived from the Celsius value as served, so the two always agree:
    temp_f == round(temp_c * 9 / 5 + 32, 1).
    """
    celsius = _round(TemperatureConverter.convert(value, unit, UnitOfTemperature.CELSIUS))
    fahrenheit = _round(
        TemperatureConverter.convert(
            celsius, UnitOfTemperature.CELSIUS, UnitOfTemperature.FAHRENHEIT
        )
    )
    return {f"temp{suffix}_c": celsius, f"temp{suffix}_f": fahrenheit}


def wind_speeds(value: float, unit: str) -> dict[str, float]:
    """`wind_kph` and `wind_mph`, the miles per hour derived from the kilometres as served."""
    kph = _round(SpeedConverter.convert(value, unit, UnitOfSpeed.KILOMETERS_PER_HOUR))
    mph = _round(
        SpeedConverter.convert(kph, UnitOfSpeed.KILOMETERS_PER_HOUR, UnitOfSpeed.MILES_PER_HOUR)
    )
    return {"wind_kph": kph, "wind_mph": mph}


def humidity_and_wind(humidity: Any, bearing: Any, speed: Any, speed_unit: str) -> dict[str, Any]:
    """Return the humidity and wind fields of those Home Assistant gives (the given ones)."""
    fields: dict[str, Any] = {}
    if (percent := _number(humidity)) is not None:
        fields["humidity"] = round(percent)
    if (direction := compass(bearing)) is not None:
        fields["wind_dir"] = direction
    if (wind := _number(speed)) is not None:
        fields.update(wind_speeds(wind, speed_unit))
    return fields


def compass(bearing: Any) -> str | None:
    """Return a 16-point compass direction (`NNE`) from degrees, or a direction already written so."""
    if isinstance(bearing, str):
        return bearing.upper() if bearing.upper() in COMPASS else None
    if (degrees := _number(bearing)) is None:
        return None
    return COMPASS[round(degrees % 360 / 22.5) % 16]


def condition(ha_condition: Any) -> dict[str, str]:
    """`condition` text and firmware `icon` of a Home Assistant condition."""
    text, icon = CONDITIONS.get(ha_condition, UNKNOWN_CONDITION)
    return {"condition": text, "icon": icon}


def epoch(value: Any) -> int | None:
    """Epoch seconds of a forecast's ISO `datetime` (or a datetime)."""
    moment = dt_util.parse_datetime(value) if isinstance(value, str) else value
    if not isinstance(moment, datetime):
        return None
    return int(dt_util.as_utc(moment).timestamp())


def gmt_offset_hours(moment: datetime) -> float:
    """Return the UTC offset of an aware datetime, in hours."""
    offset = moment.utcoffset() or timedelta()
    return offset.total_seconds() / 3600


def gmt_offset_text(hours: float) -> str:
    """`"-05.00"`, `"+05.50"`: signed decimal hours, zero-padded, as real answers write them.

    Fractions are decimal hours (UTC+5:30 is `"+05.50"`), the way python-nest reads the field
    (`float(gmt_offset)` hours); real answers show only whole hours.
    """
    return f"{hours:+06.2f}"


def forecast_entry(
    item: dict[str, Any], temp_unit: str, speed_unit: str, *, daily: bool
) -> dict[str, Any] | None:
    """One `forecast.daily` / `forecast.hourly` entry from a `weather.get_forecasts` item."""
    when = epoch(item.get(ATTR_FORECAST_TIME))
    temp = _number(item.get(ATTR_FORECAST_TEMP))
    if when is None or temp is None:
        return None
    entry: dict[str, Any] = {"date" if daily else "time": when}
    entry.update(condition(item.get(ATTR_FORECAST_CONDITION)))
    if daily:
        entry.update(temperatures(temp, temp_unit, "_high"))
        if (low := _number(item.get(ATTR_FORECAST_TEMP_LOW))) is not None:
            entry.update(temperatures(low, temp_unit, "_low"))
        # The app-side names of the same values (home.nest.com's forecast): harmless extras.
        entry["conditions"] = entry["condition"]
        entry["high_temperature"] = entry["temp_high_c"]
        if "temp_low_c" in entry:
            entry["low_temperature"] = entry["temp_low_c"]
    else:
        entry.update(temperatures(temp, temp_unit))
    entry.update(
        humidity_and_wind(
            item.get(ATTR_FORECAST_HUMIDITY),
            item.get(ATTR_FORECAST_WIND_BEARING),
            item.get(ATTR_FORECAST_WIND_SPEED),
            speed_unit,
        )
    )
    return entry


@dataclass(slots=True)
class Forecasts:
    """Forecasts of one weather entity, as served, and when they were asked for."""

    entity_id: str
    fetched_at: datetime
    daily: list[dict[str, Any]] = field(default_factory=list)
    hourly: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ServedWeather:
    """What `/svc/weather/v1` last answered (for diagnostics)."""

    at: datetime
    entity_id: str | None
    query_kind: str
    answer: dict[str, Any]


class WeatherSource:
    """The service's WeatherProvider: Home Assistant's weather entity, served to thermostats."""

    def __init__(self, hass: HomeAssistant, entry: ConfigEntry, choice: str) -> None:
        """Initialize the source with the hub's weather option."""
        self.hass = hass
        self.entry = entry
        self.choice = choice
        """The option: WEATHER_AUTO, WEATHER_NONE or a weather entity id."""
        self.last_served: ServedWeather | None = None
        self._forecasts: Forecasts | None = None
        self._refreshing: asyncio.Task[Forecasts] | None = None

    @callback
    def set_choice(self, choice: str) -> None:
        """Serve the newly chosen option from the next request on (no restart needed)."""
        if choice != self.choice:
            self.choice = choice
            self._forecasts = None

    @callback
    def entity_id(self) -> str | None:
        """Return the weather entity to serve: the chosen one, or the first one (by entity id)."""
        if self.choice == WEATHER_NONE:
            return None
        if self.choice != WEATHER_AUTO:
            return self.choice
        entity_ids = sorted(self.hass.states.async_entity_ids(WEATHER_DOMAIN))
        return entity_ids[0] if entity_ids else None

    @callback
    def outdoor_celsius(self) -> float | None:
        """Return the weather entity's temperature now, in °C; None when there is none."""
        entity_id = self.entity_id()
        state = self.hass.states.get(entity_id) if entity_id else None
        if state is None or state.state in (STATE_UNAVAILABLE, STATE_UNKNOWN):
            return None
        if (temp := _number(state.attributes.get(ATTR_WEATHER_TEMPERATURE))) is None:
            return None
        unit, _ = self._units(state)
        return TemperatureConverter.convert(temp, unit, UnitOfTemperature.CELSIUS)

    @callback
    def async_follow_outdoor(self, note: Callable[[float | None], None]) -> CALLBACK_TYPE:
        """Call `note` with the outdoor temperature now and whenever a weather entity changes.

        Any weather entity: with the automatic choice, the one served can change with them.
        """

        @callback
        def is_weather(data: EventStateChangedData) -> bool:
            return split_entity_id(data["entity_id"])[0] == WEATHER_DOMAIN

        @callback
        def changed(event: Event[EventStateChangedData]) -> None:
            note(self.outdoor_celsius())

        note(self.outdoor_celsius())
        return self.hass.bus.async_listen(EVENT_STATE_CHANGED, changed, event_filter=is_weather)

    async def __call__(self, token: str) -> dict[str, Any]:
        """Return the weather to serve under `token`; `{}` when there is no weather entity to serve."""
        entity_id = self.entity_id()
        answer: dict[str, Any] = {}
        state = self.hass.states.get(entity_id) if entity_id else None
        if state is not None and state.state not in (STATE_UNAVAILABLE, STATE_UNKNOWN):
            forecasts = await self._forecasts_of(state.entity_id)
            answer = self._answer(state, forecasts, token)
        self.last_served = ServedWeather(dt_util.utcnow(), entity_id, token_kind(token), answer)
        return answer

    # -- forecasts -----------------------------------------------------------------------------

    async def _forecasts_of(self, entity_id: str) -> Forecasts | None:
        """Return the kept forecasts (refreshed in the background when old), or the first ones."""
        kept = self._forecasts
        if kept is not None and kept.entity_id == entity_id:
            if dt_util.utcnow() - kept.fetched_at >= REFRESH_INTERVAL:
                self._start_refresh(entity_id)
            return kept
        task = self._start_refresh(entity_id)
        try:
            async with asyncio.timeout(REFRESH_TIMEOUT):
                forecasts = await asyncio.shield(task)
        except TimeoutError:
            _LOGGER.debug("No forecasts from %s yet; serving current conditions", entity_id)
            return None
        # A refresh of the entity chosen before the option changed is not this entity's.
        return forecasts if forecasts.entity_id == entity_id else None

    def _start_refresh(self, entity_id: str) -> asyncio.Task[Forecasts]:
        """One refresh at a time; a request never starts a second one."""
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = self.entry.async_create_task(
                self.hass, self._refresh(entity_id), "thermostat_cloud weather forecasts"
            )
        return self._refreshing

    async def _refresh(self, entity_id: str) -> Forecasts:
        """Ask the entity for its daily and hourly forecasts (those it supports)."""
        forecasts = Forecasts(entity_id, dt_util.utcnow())
        state = self.hass.states.get(entity_id)
        features = int(state.attributes.get(ATTR_SUPPORTED_FEATURES, 0)) if state else 0
        temp_unit, speed_unit = self._units(state)
        for kind, feature, limit in (
            ("daily", WeatherEntityFeature.FORECAST_DAILY, DAILY_ENTRIES),
            ("hourly", WeatherEntityFeature.FORECAST_HOURLY, HOURLY_ENTRIES),
        ):
            if not features & feature:
                continue
            items = await self._fetch(entity_id, kind)
            entries = [
                entry
                for item in items
                if isinstance(item, dict)
                and (entry := forecast_entry(item, temp_unit, speed_unit, daily=kind == "daily"))
            ]
            entries = entries[:limit]
            if kind == "hourly":
                # Real answers number their hours from 1 (`"hour": 1` first).
                entries = [{"hour": number, **entry} for number, entry in enumerate(entries, 1)]
            setattr(forecasts, kind, entries)
        if self.entity_id() == entity_id:
            self._forecasts = forecasts
        return forecasts

    async def _fetch(self, entity_id: str, kind: str) -> list[Any]:
        """`weather.get_forecasts` of one type; [] when the entity cannot answer."""
        try:
            async with asyncio.timeout(REFRESH_TIMEOUT):
                response = await self.hass.services.async_call(
                    WEATHER_DOMAIN,
                    SERVICE_GET_FORECASTS,
                    {"type": kind},
                    target={ATTR_ENTITY_ID: entity_id},
                    blocking=True,
                    return_response=True,
                )
        except (HomeAssistantError, TimeoutError) as err:
            _LOGGER.debug("No %s forecast from %s: %s", kind, entity_id, err or "timeout")
            return []
        result = (response or {}).get(entity_id)
        forecast = result.get("forecast") if isinstance(result, dict) else None
        return forecast if isinstance(forecast, list) else []

    # -- the answer ----------------------------------------------------------------------------

    def _units(self, state: State | None) -> tuple[str, str]:
        """Return the entity's temperature and wind speed units (forecasts come in the same ones).

        Home Assistant writes them; one it could not convert falls back to the home's unit,
        which is what the weather entity converts to by default.
        """
        attributes = state.attributes if state is not None else {}
        units = self.hass.config.units
        temp_unit = attributes.get(ATTR_WEATHER_TEMPERATURE_UNIT)
        if not temp_unit or temp_unit not in TemperatureConverter.VALID_UNITS:
            temp_unit = units.temperature_unit
        speed_unit = attributes.get(ATTR_WEATHER_WIND_SPEED_UNIT)
        if not speed_unit or speed_unit not in SpeedConverter.VALID_UNITS:
            speed_unit = units.wind_speed_unit or UnitOfSpeed.KILOMETERS_PER_HOUR
        return str(temp_unit), str(speed_unit)

    def _answer(self, state: State, forecasts: Forecasts | None, token: str) -> dict[str, Any]:
        """Return `current`, `location` and `forecast` (and the app-side `now` block)."""
        attributes = state.attributes
        temp = _number(attributes.get(ATTR_WEATHER_TEMPERATURE))
        if temp is None:
            return {}
        temp_unit, speed_unit = self._units(state)
        now = dt_util.now()
        offset = gmt_offset_text(gmt_offset_hours(now))
        current: dict[str, Any] = {**temperatures(temp, temp_unit), **condition(state.state)}
        current.update(
            humidity_and_wind(
                attributes.get(ATTR_WEATHER_HUMIDITY),
                attributes.get(ATTR_WEATHER_WIND_BEARING),
                attributes.get(ATTR_WEATHER_WIND_SPEED),
                speed_unit,
            )
        )
        current.update(self._sun(now.date()))
        current["gmt_offset"] = offset
        current["observation_time"] = int(state.last_updated.timestamp())
        answer: dict[str, Any] = {
            "current": current,
            "location": self._location(token, now, offset),
            "forecast": {
                "daily": forecasts.daily if forecasts else [],
                "hourly": forecasts.hourly if forecasts else [],
            },
        }
        answer["now"] = self._now_block(current)
        return answer

    def _location(self, token: str, now: datetime, offset: str) -> dict[str, Any]:
        """Return the home's location, in the order and forms of real answers.

        `zip` is the postal code the thermostat asked about (Home Assistant knows none);
        `state` is left out (Home Assistant knows no region), so `short_name` is the city and
        `full_name` the city, postal code and country. The country is the home's, else the one
        the thermostat asked about.
        """
        config = self.hass.config
        postal_code, asked_country = postal_location(token) or ("", "")
        city = config.location_name
        country = config.country or asked_country
        location: dict[str, Any] = {"zip": postal_code} if postal_code else {}
        location.update(
            {
                "city": city,
                "country": country,
                "lat": f"{config.latitude:.{COORDINATE_DECIMALS}f}",
                "lon": f"{config.longitude:.{COORDINATE_DECIMALS}f}",
                "short_name": city,
                "timezone": now.tzname() or config.time_zone,
                "timezone_long": config.time_zone,
                "full_name": ", ".join(part for part in (city, postal_code, country) if part),
                "gmt_offset": offset,
            }
        )
        return location

    def _sun(self, day: date) -> dict[str, int]:
        """Today's sunrise and sunset at home (epoch seconds); none on a polar day or night."""
        times: dict[str, int] = {}
        for name, event in (("sunrise", SUN_EVENT_SUNRISE), ("sunset", SUN_EVENT_SUNSET)):
            if (moment := get_astral_event_date(self.hass, event, day)) is not None:
                times[name] = int(moment.timestamp())
        return times

    @staticmethod
    def _now_block(current: dict[str, Any]) -> dict[str, Any]:
        """Return the same current conditions under the app-side names (home.nest.com's `now`)."""
        names = {
            "condition": "conditions",
            "humidity": "current_humidity",
            "temp_c": "current_temperature",
            "wind_kph": "current_wind",
            "gmt_offset": "gmt_offset",
            "icon": "icon",
            "sunrise": "sunrise",
            "sunset": "sunset",
            "wind_dir": "wind_direction",
        }
        return {now_name: current[name] for name, now_name in names.items() if name in current}

    # -- diagnostics ---------------------------------------------------------------------------

    @callback
    def diagnostics(self) -> dict[str, Any]:
        """Return the option, the entity it resolves to, and what was served last and when."""
        served = self.last_served
        return {
            "option": self.choice,
            "entity_id": self.entity_id(),
            "forecasts_fetched_at": (
                self._forecasts.fetched_at.isoformat() if self._forecasts else None
            ),
            "last_served": (
                {
                    "at": served.at.isoformat(),
                    "entity_id": served.entity_id,
                    "query_kind": served.query_kind,
                    "answer": served.answer,
                }
                if served is not None
                else None
            ),
        }
