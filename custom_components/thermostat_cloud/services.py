"""Actions on thermostat climate entities for what the climate model does not cover.

Registered once in `async_setup`; each calls a method of the targeted climate entity, which
goes through the command layer. Field validation that needs the thermostat (ranges, the PIN,
the schedule's shape) happens there and ends as a translated ServiceValidationError, so the
schemas below only check types.
"""

from __future__ import annotations

from typing import Final

from homeassistant.components.climate import DOMAIN as CLIMATE_DOMAIN
from homeassistant.core import HomeAssistant, SupportsResponse, callback
from homeassistant.helpers import config_validation as cv, service
import voluptuous as vol

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


@callback
def async_setup_services(hass: HomeAssistant) -> None:
    """Register the thermostat actions."""
    for name, schema, method, response in (
        (
            SERVICE_SET_FAN_TIMER,
            {vol.Required(ATTR_DURATION): cv.time_period},
            "async_set_fan_timer",
            SupportsResponse.NONE,
        ),
        (
            SERVICE_SET_TEMPERATURE_LOCK,
            {
                vol.Required(ATTR_ENABLED): cv.boolean,
                # A string, so a PIN such as 0042 keeps its leading zeros.
                vol.Optional(ATTR_PIN): cv.string,
                vol.Optional(ATTR_MIN_TEMPERATURE): vol.Coerce(float),
                vol.Optional(ATTR_MAX_TEMPERATURE): vol.Coerce(float),
            },
            "async_set_temperature_lock",
            SupportsResponse.NONE,
        ),
        (
            SERVICE_SET_ECO_TEMPERATURES,
            {
                vol.Required(ATTR_LOW): vol.Coerce(float),
                vol.Required(ATTR_HIGH): vol.Coerce(float),
            },
            "async_set_eco_temperatures",
            SupportsResponse.NONE,
        ),
        (SERVICE_GET_SCHEDULE, None, "async_get_schedule", SupportsResponse.ONLY),
        (
            SERVICE_SET_SCHEDULE,
            {vol.Required(ATTR_SCHEDULE): dict},
            "async_set_schedule",
            SupportsResponse.NONE,
        ),
    ):
        service.async_register_platform_entity_service(
            hass,
            DOMAIN,
            name,
            entity_domain=CLIMATE_DOMAIN,
            schema=schema,
            func=method,
            supports_response=response,
        )
