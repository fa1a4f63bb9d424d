"""The control API inside Home Assistant: its views on Home Assistant's HTTP server.

Views are registered once (they cannot be unregistered) and find the hub per request; while the
hub entry is not loaded they answer 503. They require Home Assistant authentication: a
long-lived access token as `Authorization: Bearer ...`, or, for a browser `EventSource` that
cannot send headers, a path signed with the `auth/sign_path` websocket command (the `authSig`
query parameter; Home Assistant accepts signed paths for GET only). Pairing, network scans
and device configuration are for administrators.

When the hub option `compat_api` is on, the hub also serves this control API at the spec's
bare paths without authentication, on a port of its own (`Hub`).
"""

from __future__ import annotations

import logging

from aiohttp import web
from homeassistant.components.http.const import KEY_HASS_USER
from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.http import HomeAssistantView

from .const import DATA_CONTROL_API, DOMAIN
from .entry_data import loaded_service
from .server import ControlApi, ControlRoute, LocalNetwork, error_response

_LOGGER = logging.getLogger(__name__)

CONTROL_URL = f"/api/{DOMAIN}"
"""`{control_url}` on Home Assistant's HTTP server."""


class ControlApiView(HomeAssistantView):
    """One control API route under `{control_url}`."""

    requires_auth = True

    def __init__(self, route: ControlRoute) -> None:
        """Initialize the view of one control API route."""
        self.url = f"{CONTROL_URL}{route.path}"
        self.name = f"api:{DOMAIN}:{route.name}"
        self._admin = route.admin
        self._handle = route.handler

    async def _respond(self, request: web.Request) -> web.StreamResponse:
        if self._admin and not request[KEY_HASS_USER].is_admin:
            _LOGGER.debug("Refused %s to non-administrator %s", request.path, request.remote)
            return error_response(403, "Administrator access required")
        return await self._handle(request)


class _GetView(ControlApiView):
    async def get(self, request: web.Request) -> web.StreamResponse:
        """Serve the route."""
        return await self._respond(request)


class _PostView(ControlApiView):
    async def post(self, request: web.Request) -> web.StreamResponse:
        """Serve the route."""
        return await self._respond(request)


@callback
def async_register_views(hass: HomeAssistant) -> None:
    """Register the control API views once per Home Assistant run."""
    if DATA_CONTROL_API in hass.data:
        return
    api = ControlApi(
        lambda _: loaded_service(hass), network=LocalNetwork(async_get_clientsession(hass))
    )
    hass.data[DATA_CONTROL_API] = api
    for route in api.routes:
        view_class = _GetView if route.method == "GET" else _PostView
        hass.http.register_view(view_class(route))

    @callback
    def _close_streams(_: Event) -> None:
        # Event streams never end on their own; Home Assistant would wait for them on stop.
        api.close_streams()

    hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STOP, _close_streams)
