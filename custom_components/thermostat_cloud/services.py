"""Every action of the integration, registered once in `async_setup`, loaded hub or not.

Thermostat actions, for what the climate model does not cover: each calls a method of the
targeted climate entity, which goes through the command layer. Field validation that needs the
thermostat (ranges, the PIN, the schedule's shape) happens there and ends as a translated
ServiceValidationError, so their schemas only check types.

API key actions, for the hosted API: admin-only. The key belongs to the Home Assistant user
who calls `create_api_key`, and is shown only in that action's response, which comes once the
key is saved (as does `revoke_api_key`'s).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from homeassistant.components.climate.const import (
    DOMAIN as CLIMATE_DOMAIN,
    ClimateEntityFeature,
)
from homeassistant.core import HomeAssistant, ServiceCall, SupportsResponse, callback
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import config_validation as cv, service
import probatio

from .arrival import async_setup_arrival_actions
from .const import DOMAIN
from .energy_report import async_setup_report_action
from .entry_data import require_service
from .holds import async_setup_hold_actions
from .server import ApiKey, Scope, ThermostatService

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

SERVICE_CREATE_API_KEY: Final = "create_api_key"
SERVICE_LIST_API_KEYS: Final = "list_api_keys"
SERVICE_REVOKE_API_KEY: Final = "revoke_api_key"
ATTR_NAME: Final = "name"
ATTR_SCOPES: Final = "scopes"
ATTR_SERIALS: Final = "serials"
ATTR_KEY_ID: Final = "key_id"

CREATE_API_KEY_SCHEMA = probatio.Schema(
    {
        probatio.Required(ATTR_NAME): probatio.All(
            cv.string, probatio.Strip, probatio.Length(min=1)
        ),
        probatio.Required(ATTR_SCOPES): probatio.All(
            cv.ensure_list, probatio.Length(min=1), [probatio.In([str(s) for s in Scope])]
        ),
        probatio.Optional(ATTR_SERIALS): probatio.All(cv.ensure_list, [cv.string]),
    }
)
REVOKE_API_KEY_SCHEMA = probatio.Schema({probatio.Required(ATTR_KEY_ID): cv.string})


@callback
def async_setup_services(hass: HomeAssistant) -> None:
    """Register every action.

    The thermostat actions, holds and vacations, the arrival, the energy report, the API key
    actions.
    """
    _async_setup_thermostat_actions(hass)
    async_setup_hold_actions(hass)
    async_setup_arrival_actions(hass)
    async_setup_report_action(hass)
    _async_setup_api_key_actions(hass)


@callback
def _async_setup_thermostat_actions(hass: HomeAssistant) -> None:

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


@callback
def _async_setup_api_key_actions(hass: HomeAssistant) -> None:
    service.async_register_admin_service(
        hass,
        DOMAIN,
        SERVICE_CREATE_API_KEY,
        _async_create_api_key,
        schema=CREATE_API_KEY_SCHEMA,
        supports_response=SupportsResponse.ONLY,
    )
    service.async_register_admin_service(
        hass,
        DOMAIN,
        SERVICE_LIST_API_KEYS,
        _async_list_api_keys,
        supports_response=SupportsResponse.ONLY,
    )
    service.async_register_admin_service(
        hass, DOMAIN, SERVICE_REVOKE_API_KEY, _async_revoke_api_key, schema=REVOKE_API_KEY_SCHEMA
    )


def _iso(ms: int | None) -> str | None:
    return None if ms is None else datetime.fromtimestamp(ms / 1000, UTC).isoformat()


async def _describe(hass: HomeAssistant, key: ApiKey) -> dict[str, Any]:
    """Return a key as the actions show it: no secret, times in ISO 8601, the owner's name."""
    owner = await hass.auth.async_get_user(key.owner_id)
    return {
        **key.public(),
        "owner_name": owner.name if owner is not None else None,
        "created": _iso(key.created),
        "last_used": _iso(key.last_used),
    }


def _canonical_serials(service: ThermostatService, typed: list[str]) -> list[str]:
    """Return serials as the server knows them (typed in any case); unknown ones are refused."""
    known = {serial.upper(): serial for serial in service.devices.known_serials()}
    serials = []
    for serial in typed:
        if (canonical := known.get(serial.strip().upper())) is None:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="unknown_serial",
                translation_placeholders={"serial": serial},
            )
        serials.append(canonical)
    return serials


async def _async_create_api_key(call: ServiceCall) -> dict[str, Any]:
    service = require_service(call.hass)
    if call.context.user_id is None:
        raise ServiceValidationError(
            translation_domain=DOMAIN, translation_key="api_key_owner_required"
        )
    serials = call.data.get(ATTR_SERIALS)
    created = service.api_keys.create(
        name=call.data[ATTR_NAME],
        owner_id=call.context.user_id,
        scopes=[Scope(s) for s in call.data[ATTR_SCOPES]],
        serials=None if serials is None else _canonical_serials(service, serials),
    )
    # The key is shown once: it must be on disk before the user sees it.
    await service.async_flush()
    return {**await _describe(call.hass, created.key), "key": created.secret}


async def _async_list_api_keys(call: ServiceCall) -> dict[str, Any]:
    service = require_service(call.hass)
    return {"api_keys": [await _describe(call.hass, key) for key in service.api_keys.records()]}


async def _async_revoke_api_key(call: ServiceCall) -> None:
    service = require_service(call.hass)
    if service.api_keys.revoke(call.data[ATTR_KEY_ID]) is None:
        raise ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key="unknown_api_key",
            translation_placeholders={"key_id": call.data[ATTR_KEY_ID]},
        )
    await service.async_flush()
