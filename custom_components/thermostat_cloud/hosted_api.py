"""The hosted API inside Home Assistant: its view on Home Assistant's HTTP server.

The view is registered once per Home Assistant run (views cannot be unregistered) and looks the
running service up on every request, answering 503 while the hub entry is not loaded. It does
not use Home Assistant's own authentication: callers present `svc_` API keys, which carry
scopes, serial restrictions and rate limits (see `server/hosted/api.py`); the API key actions
(`services.py`) hand them out.
"""

from __future__ import annotations

from aiohttp import web
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.http import HomeAssistantView

from .const import DOMAIN
from .entry_data import loaded_service
from .server import HostedApi

HOSTED_API_URL = f"/api/{DOMAIN}/api/v1"


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
def async_register_hosted_api_view(hass: HomeAssistant) -> None:
    """Register the hosted API view (once, from async_setup)."""
    hass.http.register_view(HostedApiView(hass))
