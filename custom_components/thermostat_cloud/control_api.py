"""The control API inside Home Assistant: views on its HTTP server, and the open listener.

Views are registered once (they cannot be unregistered) and find the hub per request; while the
hub entry is not loaded they answer 503. They require Home Assistant authentication: a
long-lived access token as `Authorization: Bearer ...`, or, for a browser `EventSource` that
cannot send headers, a path signed with the `auth/sign_path` websocket command (the `authSig`
query parameter; Home Assistant accepts signed paths for GET only). Pairing, network scans
and device configuration are for administrators.

The compatibility listener (hub option `compat_api`) serves the same handlers at the spec's
bare paths with no authentication, and raises a repair issue while it is on (another one,
with what to do, when its port cannot be used).
"""

from __future__ import annotations

import logging

from aiohttp import web
from homeassistant.components.http.const import KEY_HASS_USER
from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.aiohttp_client import async_get_clientsession
from homeassistant.helpers.http import HomeAssistantView
from homeassistant.util.hass_dict import HassKey

from .const import CONF_COMPAT_API, CONF_COMPAT_PORT, DEFAULT_COMPAT_PORT, DOMAIN
from .hub import ThermostatCloudConfigEntry
from .server import (
    ControlApi,
    ControlListener,
    LocalNetwork,
    Route,
    ThermostatService,
    error_response,
)

_LOGGER = logging.getLogger(__name__)

CONTROL_URL = f"/api/{DOMAIN}"
"""`{control_url}` on Home Assistant's HTTP server."""
ISSUE_COMPAT_API = "compat_api_open"
ISSUE_COMPAT_PORT = "compat_port_unavailable"
DATA_CONTROL_API: HassKey[ControlApi] = HassKey(f"{DOMAIN}_control_api")


@callback
def loaded_service(hass: HomeAssistant) -> ThermostatService | None:
    """Return the running service of the loaded hub entry, if any."""
    entries: list[ThermostatCloudConfigEntry] = hass.config_entries.async_loaded_entries(DOMAIN)
    return entries[0].runtime_data.service if entries else None


class ControlApiView(HomeAssistantView):
    """One control API route under `{control_url}`."""

    requires_auth = True

    def __init__(self, api: ControlApi, route: Route) -> None:
        """Initialize the view of one control API route."""
        self.url = f"{CONTROL_URL}{route.path}"
        self.name = f"api:{DOMAIN}:{route.name}"
        self._admin = route.admin
        self._handle = api.handler(route)

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
        hass.http.register_view(view_class(api, route))

    @callback
    def _close_streams(_: Event) -> None:
        # Event streams never end on their own; Home Assistant would wait for them on stop.
        api.close_streams()

    hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STOP, _close_streams)


async def async_start_control_api(hass: HomeAssistant, entry: ThermostatCloudConfigEntry) -> None:
    """Tie the control API to a loaded hub entry: streams end on unload; the open listener."""
    service = entry.runtime_data.service
    api = hass.data[DATA_CONTROL_API]
    entry.async_on_unload(lambda: api.close_streams(service))

    if not entry.options.get(CONF_COMPAT_API, False):
        ir.async_delete_issue(hass, DOMAIN, ISSUE_COMPAT_API)
        ir.async_delete_issue(hass, DOMAIN, ISSUE_COMPAT_PORT)
        return
    port = int(entry.options.get(CONF_COMPAT_PORT, DEFAULT_COMPAT_PORT))
    listener = ControlListener(service, network=api.network)
    try:
        await listener.async_start(None, port)
    except OSError as err:
        _LOGGER.error(
            "The open control API cannot listen on port %s (%s); choose another port in the "
            "Thermostat Cloud options",
            port,
            err,
        )
        # The rest of the hub works: a repair issue, not a failed setup. Changing the options
        # reloads the hub, which deletes it and raises it again if the port is still taken.
        ir.async_create_issue(
            hass,
            DOMAIN,
            ISSUE_COMPAT_PORT,
            is_fixable=False,
            is_persistent=False,
            severity=ir.IssueSeverity.ERROR,
            translation_key=ISSUE_COMPAT_PORT,
            translation_placeholders={"port": str(port), "error": str(err.strerror or err)},
        )
        entry.async_on_unload(lambda: ir.async_delete_issue(hass, DOMAIN, ISSUE_COMPAT_PORT))
        return
    ir.async_delete_issue(hass, DOMAIN, ISSUE_COMPAT_PORT)
    _LOGGER.warning("Open control API listening on port %s without authentication", port)
    ir.async_create_issue(
        hass,
        DOMAIN,
        ISSUE_COMPAT_API,
        is_fixable=True,
        is_persistent=False,
        severity=ir.IssueSeverity.WARNING,
        translation_key=ISSUE_COMPAT_API,
        translation_placeholders={"port": str(port)},
        data={"entry_id": entry.entry_id},
    )
    entry.async_on_unload(listener.async_stop)
    entry.async_on_unload(hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STOP, listener.async_stop))
    entry.async_on_unload(lambda: ir.async_delete_issue(hass, DOMAIN, ISSUE_COMPAT_API))
