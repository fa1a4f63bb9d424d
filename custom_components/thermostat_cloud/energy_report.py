"""Why a day looked as it did: the `get_energy_report` action.

A thermostat or the whole home, a day, a week (Monday to Sunday) or a month, in Home
Assistant's time zone, from the days the service keeps (server/core/watch/days.py). A period not over
yet is answered up to today; one that has not begun is refused. Days without weather have no
degree-days, and the answer says how many days had weather (`weather`: complete, partial or
missing).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Final

from homeassistant.components.climate.const import DOMAIN as CLIMATE_DOMAIN
from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import HomeAssistant, ServiceCall, SupportsResponse, callback
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import config_validation as cv, entity_registry as er
from homeassistant.util import dt as dt_util
import probatio

from .const import DOMAIN
from .entry_data import loaded_entry, require_service
from .server import home_totals

SERVICE_GET_ENERGY_REPORT: Final = "get_energy_report"
ATTR_PERIOD: Final = "period"
ATTR_DATE: Final = "date"
PERIODS: Final = ("day", "week", "month")

REPORT_SCHEMA = probatio.Schema(
    {
        probatio.Optional(ATTR_ENTITY_ID): cv.entity_id,
        probatio.Optional(ATTR_PERIOD, default="day"): probatio.In(PERIODS),
        probatio.Optional(ATTR_DATE): cv.date,
    }
)


def period_of(period: str, day: date) -> tuple[date, date]:
    """Return the first and last day of the day, week (Monday first) or month holding `day`."""
    if period == "day":
        return day, day
    if period == "week":
        monday = day - timedelta(days=day.weekday())
        return monday, monday + timedelta(days=6)
    first = day.replace(day=1)
    next_month = (first + timedelta(days=32)).replace(day=1)
    return first, next_month - timedelta(days=1)


def _refuse(key: str, **placeholders: str) -> ServiceValidationError:
    return ServiceValidationError(
        translation_domain=DOMAIN, translation_key=key, translation_placeholders=placeholders
    )


async def _async_get_energy_report(call: ServiceCall) -> dict[str, Any]:
    hass = call.hass
    service = require_service(hass)
    entry = loaded_entry(hass)
    assert entry is not None  # require_service found it loaded
    today = dt_util.now().date()
    asked: date = call.data.get(ATTR_DATE, today)
    first, last = period_of(call.data[ATTR_PERIOD], asked)
    if first > today:
        raise _refuse("report_in_future", date=asked.isoformat())
    last = min(last, today)
    registry = er.async_get(hass)
    serials: dict[str, str | None] = {}
    if (entity_id := call.data.get(ATTR_ENTITY_ID)) is not None:
        found = registry.async_get(entity_id)
        if found is None or found.platform != DOMAIN or found.domain != CLIMATE_DOMAIN:
            raise _refuse("report_unknown_thermostat", entity_id=entity_id)
        serials[found.unique_id] = entity_id
    else:
        for subentry in entry.subentries.values():
            serial = subentry.unique_id
            if serial is not None:
                serials[serial] = registry.async_get_entity_id(CLIMATE_DOMAIN, DOMAIN, serial)
    thermostats = [
        {"entity_id": entity, "serial": serial, **service.days.report(serial, first, last)}
        for serial, entity in serials.items()
    ]
    days = (last - first).days + 1
    home = home_totals(thermostats)
    weather_days = home["days_with_weather"]
    return {
        "period": call.data[ATTR_PERIOD],
        "start": first.isoformat(),
        "end": last.isoformat(),
        "time_zone": hass.config.time_zone,
        "weather": "complete" if weather_days == days else "partial" if weather_days else "missing",
        "thermostats": thermostats,
        "home": home,
    }


@callback
def async_setup_report_action(hass: HomeAssistant) -> None:
    """Register `get_energy_report`."""
    hass.services.async_register(
        DOMAIN,
        SERVICE_GET_ENERGY_REPORT,
        _async_get_energy_report,
        schema=REPORT_SCHEMA,
        supports_response=SupportsResponse.ONLY,
    )
