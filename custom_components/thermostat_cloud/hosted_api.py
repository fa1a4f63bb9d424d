"""Home Assistant side of the hosted API: its view and the API key actions.

The view is registered once per Home Assistant run (views cannot be unregistered) and looks the
running service up on every request, answering 503 while the hub entry is not loaded. It does
not use Home Assistant's own authentication: callers present `svc_` API keys, which carry
scopes, serial restrictions and rate limits (see `server/hosted/api.py`).

API keys are managed with admin-only actions. The key belongs to the Home Assistant user who
calls `create_api_key`, and is shown only in that action's response, which comes once the key
is saved (as does `revoke_api_key`'s).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from aiohttp import web
from homeassistant.core import HomeAssistant, ServiceCall, SupportsResponse, callback
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.http import HomeAssistantView
from homeassistant.helpers.service import async_register_admin_service
import probatio

from .const import DOMAIN
from .entry_data import loaded_service
from .server import ApiKey, HostedApi, Scope, ThermostatService

HOSTED_API_URL = f"/api/{DOMAIN}/api/v1"

SERVICE_CREATE_API_KEY = "create_api_key"
SERVICE_LIST_API_KEYS = "list_api_keys"
SERVICE_REVOKE_API_KEY = "revoke_api_key"
ATTR_NAME = "name"
ATTR_SCOPES = "scopes"
ATTR_SERIALS = "serials"
ATTR_KEY_ID = "key_id"

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


class HostedApiView(HomeAssistantView):
    """Every path under `/api/thermostat_cloud/api/v1/`, dispatched by HostedApi."""

    url = f"{HOSTED_API_URL}/{{path:.*}}"
    name = f"api:{DOMAIN}:hosted_api"
    requires_auth = False  # API keys, checked by HostedApi

    def __init__(self, hass: HomeAssistant) -> None:
        """Initialize the watcher for Home Assistant's users."""
        self.hass = hass
        self.api = HostedApi(is_user_active=self._is_user_active)

    async def _is_user_active(self, user_id: str) -> bool:
        """Stop a key working when its Home Assistant user is removed or deactivated."""
        user = await self.hass.auth.async_get_user(user_id)
        return user is not None and user.is_active

    async def _dispatch(self, request: web.Request, path: str) -> web.Response:
        return await self.api.handle(request, loaded_service(self.hass), path)

    get = post = put = delete = patch = _dispatch


@callback
def async_setup_hosted_api(hass: HomeAssistant) -> None:
    """Register the hosted API view and the API key actions (once, from async_setup)."""
    hass.http.register_view(HostedApiView(hass))
    async_register_admin_service(
        hass,
        DOMAIN,
        SERVICE_CREATE_API_KEY,
        _async_create_api_key,
        schema=CREATE_API_KEY_SCHEMA,
        supports_response=SupportsResponse.ONLY,
    )
    async_register_admin_service(
        hass,
        DOMAIN,
        SERVICE_LIST_API_KEYS,
        _async_list_api_keys,
        supports_response=SupportsResponse.ONLY,
    )
    async_register_admin_service(
        hass, DOMAIN, SERVICE_REVOKE_API_KEY, _async_revoke_api_key, schema=REVOKE_API_KEY_SCHEMA
    )


def _require_service(hass: HomeAssistant) -> ThermostatService:
    if (service := loaded_service(hass)) is None:
        raise ServiceValidationError(translation_domain=DOMAIN, translation_key="not_loaded")
    return service


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
    known = {serial.upper(): serial for serial in service.known_serials()}
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
    service = _require_service(call.hass)
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
    service = _require_service(call.hass)
    return {"api_keys": [await _describe(call.hass, key) for key in service.api_keys.records()]}


async def _async_revoke_api_key(call: ServiceCall) -> None:
    service = _require_service(call.hass)
    if service.api_keys.revoke(call.data[ATTR_KEY_ID]) is None:
        raise ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key="unknown_api_key",
            translation_placeholders={"key_id": call.data[ATTR_KEY_ID]},
        )
    await service.async_flush()
