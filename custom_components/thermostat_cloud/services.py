"""Actions on thermostat climate entities for what the climate model does not cover.

Registered once in `async_setup`; each calls a method of the targeted climate entity, which
goes through the command layer. Field validation that needs the thermostat (ranges, the PIN,
the schedule's shape) happens there and ends as a translated ServiceValidationError, so the
schemas below only check types.
"""

from __future__ import annotations

from typing import Any, Final

from homeassistant.components.climate.const import (
    DOMAIN as CLIMATE_DOMAIN,
    ClimateEntityFeature,
)
from homeassistant.core import HomeAssistant, SupportsResponse, callback
from homeassistant.helpers import config_validation as cv, service
import probatio

from .const import DOMAIN

SERVICE_SET_FAN_TIMER: Final = "set_fan_timer"
SERVICE_SET_TEMPERATURE_LOCK: Final = "set_temperature_lock"
SERVICE_SET_ECO_TEMPERATURES: Final = "set_eco_temperatures"
SERVICE_GET_SCHEDULE: Final = "get_schedule"
SERVICE_SET_SCHEDULE: Final = "set_schedule"

ATTR_DURATION: Final = "duration"
ATTR_ENABLED: Final = "enabled"
ATTR_PIN: Final = "pin"
ATTR_MIN_TEMPERATURE: Final = "min_temperature"
ATTR_MAX_TEMPERATURE: Final = "max_temperature"
ATTR_LOW: Final = "low"
ATTR_HIGH: Final = "high"
ATTR_SCHEDULE: Final = "schedule"
ATTR_TURN_OFF_LEARNING: Final = "turn_off_learning"


@callback
def async_setup_services(hass: HomeAssistant) -> None:
    """Register the thermostat actions."""

    def register(
        name: str,
        method: str,
        schema: dict[Any, Any] | None,
        response: SupportsResponse = SupportsResponse.NONE,
        required_features: list[int] | None = None,
    ) -> None:
        service.async_register_platform_entity_service(
            hass,
            DOMAIN,
            name,
            entity_domain=CLIMATE_DOMAIN,
            schema=schema,
            func=method,
            supports_response=response,
            required_features=required_features,
        )

    register(
        SERVICE_SET_FAN_TIMER,
        "async_set_fan_timer",
        {probatio.Required(ATTR_DURATION): cv.time_period},
        # A thermostat without a fan is not a target: Home Assistant says so itself.
        required_features=[ClimateEntityFeature.FAN_MODE],
    )
    register(
        SERVICE_SET_TEMPERATURE_LOCK,
        "async_set_temperature_lock",
        {
            probatio.Required(ATTR_ENABLED): cv.boolean,
            # A string, so a PIN such as 0042 keeps its leading zeros.
            probatio.Optional(ATTR_PIN): cv.string,
            probatio.Optional(ATTR_MIN_TEMPERATURE): probatio.Coerce(float),
            probatio.Optional(ATTR_MAX_TEMPERATURE): probatio.Coerce(float),
        },
    )
    register(
        SERVICE_SET_ECO_TEMPERATURES,
        "async_set_eco_temperatures",
        {
            probatio.Required(ATTR_LOW): probatio.Coerce(float),
            probatio.Required(ATTR_HIGH): probatio.Coerce(float),
        },
    )
    register(SERVICE_GET_SCHEDULE, "async_get_schedule", None, SupportsResponse.ONLY)
    register(
        SERVICE_SET_SCHEDULE,
        "async_set_schedule",
        {
            probatio.Required(ATTR_SCHEDULE): dict,
            probatio.Optional(ATTR_TURN_OFF_LEARNING): cv.boolean,
        },
    )
