"""The outdoor temperature the service's days are weighed against (server/core/watch/days.py).

The service keeps each thermostat's days; this gives it the outdoor temperature of the weather
entity the thermostats are served (weather_source.py) every `OUTDOOR_INTERVAL`. Without one the
days have no degree-days, and the energy report says so (energy_report.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.event import async_track_time_interval

from .server import ThermostatService
from .weather_source import WeatherSource

OUTDOOR_INTERVAL = timedelta(minutes=10)
"""How often the outdoor temperature is taken for the degree-days."""


@callback
def async_follow_outdoor(
    hass: HomeAssistant, service: ThermostatService, weather: WeatherSource
) -> Callable[[], None]:
    """Give the service the outdoor temperature now and every `OUTDOOR_INTERVAL`; returns the stop."""

    @callback
    def take(*_: Any) -> None:
        if (celsius := weather.outdoor_celsius()) is not None:
            service.days.note_outdoor(celsius)

    take()
    return async_track_time_interval(hass, take, OUTDOOR_INTERVAL)
