"""The home's arrival in Home Assistant: its actions and what the entities show of it.

The service plans the arrival (`server.core.home.arrivals`): the home leaves away and eco early
enough for each thermostat to reach its schedule by then. This module turns `set_arrival` and
`cancel_arrival` into calls of its public API and its refusals into translated errors; the
*Preparing for arrival* binary sensor is in `binary_sensor.py`, the card's line in
`schedule_card.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.helpers import config_validation as cv
from homeassistant.util import dt as dt_util
import probatio

from .const import DOMAIN
from .entry_data import require_service
from .holds import local, run
from .server import EventKind, ThermostatService

SERVICE_SET_ARRIVAL: Final = "set_arrival"
SERVICE_CANCEL_ARRIVAL: Final = "cancel_arrival"
ATTR_ARRIVAL: Final = "arrival"
ATTR_TRAVEL_TIME: Final = "travel_time"

ARRIVAL_READS: Final = frozenset({EventKind.ARRIVAL.value})
"""What shows the arrival reads: the home's `ARRIVAL` events (planned, re-planned, begun, over)."""

SET_ARRIVAL_SCHEMA: Final = probatio.Schema(
    {
        probatio.Optional(ATTR_ARRIVAL): cv.datetime,
        # Signed: a negative travel time is refused by the service as an arrival in the past.
        probatio.Optional(ATTR_TRAVEL_TIME): cv.time_period,
    }
)


@dataclass(frozen=True, slots=True)
class PlannedArrival:
    """The arrival as Home Assistant shows it: when, and when the home leaves eco for it."""

    arrival: datetime
    start: datetime
    preparing: bool
    """The planned start came: the home is getting ready."""

    def attributes(self) -> dict[str, str]:
        """Return the planned start and the arrival, ISO 8601 in the home's zone."""
        return {"start": self.start.isoformat(), "arrival": self.arrival.isoformat()}


def planned_arrival(service: ThermostatService) -> PlannedArrival | None:
    """Return the home's planned arrival, None when there is none."""
    arrivals = service.arrivals
    arrival, start_ms = arrivals.arrival(), arrivals.start_ms()
    if arrival is None or start_ms is None:
        return None
    return PlannedArrival(
        arrival=_time(arrival.arrival_ms), start=_time(start_ms), preparing=arrival.started
    )


def async_setup_arrival_actions(hass: HomeAssistant) -> None:
    """Register `set_arrival` and `cancel_arrival`: the home's, like vacations."""
    hass.services.async_register(
        DOMAIN,
        SERVICE_SET_ARRIVAL,
        _async_set_arrival,
        schema=SET_ARRIVAL_SCHEMA,
        supports_response=SupportsResponse.OPTIONAL,
    )
    hass.services.async_register(DOMAIN, SERVICE_CANCEL_ARRIVAL, _async_cancel_arrival)


async def _async_set_arrival(call: ServiceCall) -> ServiceResponse:
    running = require_service(call.hass)
    when: datetime | None = call.data.get(ATTR_ARRIVAL)
    travel: timedelta | None = call.data.get(ATTR_TRAVEL_TIME)
    run(
        call.hass,
        lambda: running.arrivals.set(None if when is None else local(when), travel=travel),
    )
    planned = planned_arrival(running)
    assert planned is not None  # just planned
    return dict(planned.attributes())


async def _async_cancel_arrival(call: ServiceCall) -> None:
    require_service(call.hass).arrivals.cancel()


def _time(ms: int) -> datetime:
    return dt_util.as_local(datetime.fromtimestamp(ms / 1000, UTC))
