"""Holds and vacations in Home Assistant: their actions.

The service keeps both (`server.core.home.holds`, `server.core.home.vacations`): it keeps a hold across
the thermostat's schedule and ends it on time or when someone turns the dial, and it puts the
home in away for a vacation and back in time. This module only turns actions into calls of its
public API, in Celsius, and its refusals into translated errors. The Hold until sensor is in
`sensor.py`, the Resume schedule button in `button.py`, the vacations' calendar in
`calendar.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from homeassistant.components.climate.const import (
    ATTR_TARGET_TEMP_HIGH,
    ATTR_TARGET_TEMP_LOW,
    DOMAIN as CLIMATE_DOMAIN,
)
from homeassistant.const import ATTR_TEMPERATURE, UnitOfTemperature
from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.helpers import config_validation as cv, service
from homeassistant.util import dt as dt_util
from homeassistant.util.unit_conversion import TemperatureConverter
import probatio

from .const import DOMAIN
from .entity import ThermostatEntity, command_error
from .entry_data import require_service
from .server import CommandError, EventKind, ThermostatService, Vacation

SERVICE_HOLD: Final = "hold"
SERVICE_RESUME_SCHEDULE: Final = "resume_schedule"
SERVICE_SET_VACATION: Final = "set_vacation"

ATTR_UNTIL: Final = "until"
ATTR_DURATION: Final = "duration"
ATTR_UNTIL_NEXT_CHANGE: Final = "until_next_change"
ATTR_START: Final = "start"
ATTR_END: Final = "end"
ATTR_ECO_LOW: Final = "eco_low"
ATTR_ECO_HIGH: Final = "eco_high"

HOLD_READS: Final = frozenset({EventKind.HOLD.value})
"""What a hold's projection reads: the `HOLD` events of its thermostat."""

HOLD_SCHEMA: Final[dict[Any, Any]] = {
    probatio.Optional(ATTR_TEMPERATURE): probatio.Coerce(float),
    probatio.Optional(ATTR_TARGET_TEMP_LOW): probatio.Coerce(float),
    probatio.Optional(ATTR_TARGET_TEMP_HIGH): probatio.Coerce(float),
    probatio.Optional(ATTR_UNTIL): cv.datetime,
    probatio.Optional(ATTR_DURATION): cv.positive_time_period,
    probatio.Optional(ATTR_UNTIL_NEXT_CHANGE): cv.boolean,
}
VACATION_SCHEMA: Final = probatio.Schema(
    {
        probatio.Required(ATTR_START): cv.datetime,
        probatio.Required(ATTR_END): cv.datetime,
        probatio.Optional(ATTR_ECO_LOW): probatio.Coerce(float),
        probatio.Optional(ATTR_ECO_HIGH): probatio.Coerce(float),
    }
)


def async_setup_hold_actions(hass: HomeAssistant) -> None:
    """Register `hold` and `resume_schedule` (on climate entities) and `set_vacation`."""
    service.async_register_platform_entity_service(
        hass,
        DOMAIN,
        SERVICE_HOLD,
        entity_domain=CLIMATE_DOMAIN,
        schema=HOLD_SCHEMA,
        func=_async_hold,
    )
    service.async_register_platform_entity_service(
        hass,
        DOMAIN,
        SERVICE_RESUME_SCHEDULE,
        entity_domain=CLIMATE_DOMAIN,
        schema=None,
        func=_async_resume_schedule,
    )
    hass.services.async_register(
        DOMAIN,
        SERVICE_SET_VACATION,
        _async_set_vacation,
        schema=VACATION_SCHEMA,
        supports_response=SupportsResponse.OPTIONAL,
    )


def celsius(hass: HomeAssistant, value: float | None) -> float | None:
    """Convert an action's temperature, given in Home Assistant's unit, to Celsius."""
    if value is None:
        return None
    return TemperatureConverter.convert(
        value, hass.config.units.temperature_unit, UnitOfTemperature.CELSIUS
    )


def local(when: datetime) -> datetime:
    """Return an action's time as an aware time: a time without a zone is the home's."""
    return (
        dt_util.as_local(when)
        if when.tzinfo is not None
        else when.replace(tzinfo=dt_util.get_default_time_zone())
    )


def run[T](hass: HomeAssistant, command: Callable[[], T]) -> T:
    """Run a call of the service; a refusal becomes its translated error."""
    try:
        return command()
    except CommandError as err:
        raise command_error(hass, err) from err


async def _async_hold(entity: ThermostatEntity[Any], call: ServiceCall) -> None:
    hass = entity.hass
    data = call.data
    until = data.get(ATTR_UNTIL)
    duration: timedelta | None = data.get(ATTR_DURATION)
    with entity.acting(call.context):
        run(
            hass,
            lambda: entity.service.holds.hold(
                entity.serial,
                temperature=celsius(hass, data.get(ATTR_TEMPERATURE)),
                low=celsius(hass, data.get(ATTR_TARGET_TEMP_LOW)),
                high=celsius(hass, data.get(ATTR_TARGET_TEMP_HIGH)),
                until=None if until is None else local(until),
                duration=duration,
                until_next_change=bool(data.get(ATTR_UNTIL_NEXT_CHANGE, False)),
            ),
        )


async def _async_resume_schedule(entity: ThermostatEntity[Any], call: ServiceCall) -> None:
    with entity.acting(call.context):
        run(entity.hass, lambda: entity.service.holds.resume_schedule(entity.serial))


async def _async_set_vacation(call: ServiceCall) -> ServiceResponse:
    hass = call.hass
    running = require_service(hass)
    data = call.data
    vacation = run(
        hass,
        lambda: running.vacations.add(
            local(data[ATTR_START]),
            local(data[ATTR_END]),
            eco_low=celsius(hass, data.get(ATTR_ECO_LOW)),
            eco_high=celsius(hass, data.get(ATTR_ECO_HIGH)),
        ),
    )
    return describe_vacation(running, vacation)


def describe_vacation(running: ThermostatService, vacation: Vacation) -> dict[str, Any]:
    """Return a vacation as actions answer it: its id, its times, and when the home is back."""
    return {
        "id": vacation.id,
        "start": _time(vacation.start_ms).isoformat(),
        "end": _time(vacation.end_ms).isoformat(),
        "home_from": _time(running.vacations.return_ms(vacation)).isoformat(),
    }


def _time(ms: int) -> datetime:
    return dt_util.as_local(datetime.fromtimestamp(ms / 1000, UTC))
