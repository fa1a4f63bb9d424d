"""The weekly schedule card: its module served to the dashboard, and its websocket command.

The card (sources in the repository's `frontend/`, the built module committed under
`frontend/` here, so HACS installs need no build) is registered with Home Assistant's frontend
as an extra module: every dashboard loads it, and it registers the custom element and its
entry in the card picker, nothing more.

The card reads the schedule through `thermostat_cloud/schedule/subscribe` (the schedule now,
then again whenever it changes: the thermostat's learning, its dial, another client) and saves
it through the `set_schedule` action, so validation and the write stay in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
import hashlib
from pathlib import Path
from typing import Any, Final

from homeassistant.components.climate.const import DOMAIN as CLIMATE_DOMAIN
from homeassistant.components.frontend import add_extra_js_url
from homeassistant.components.http.server import StaticPathConfig
from homeassistant.components.websocket_api import async_register_command
from homeassistant.components.websocket_api.connection import ActiveConnection
from homeassistant.components.websocket_api.decorators import websocket_command
from homeassistant.components.websocket_api.messages import event_message
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import config_validation as cv, entity_registry as er
import probatio

from .const import DOMAIN
from .hub import ThermostatCloudConfigEntry
from .server import EventKind, ServiceEvent
from .server.state import ThermostatState

CARD_FILE: Final = Path(__file__).parent / "frontend" / "thermostat-cloud-schedule-card.js"
CARD_URL: Final = f"/{DOMAIN}/frontend/thermostat-cloud-schedule-card.js"

WS_SUBSCRIBE_SCHEDULE: Final = f"{DOMAIN}/schedule/subscribe"
ERROR_NOT_A_THERMOSTAT: Final = "not_a_thermostat"
ERROR_NOT_LOADED: Final = "not_loaded"


def card_version(module: bytes) -> str:
    """Return the version the module's URL carries: a digest of its bytes.

    The module is served with long-lived cache headers, so a new version needs a new URL.
    """
    return hashlib.sha256(module).hexdigest()[:16]


async def async_register_card(hass: HomeAssistant) -> None:
    """Serve the card's module and have every dashboard load it; register the command."""
    module = await hass.async_add_executor_job(CARD_FILE.read_bytes)
    await hass.http.async_register_static_paths(
        [StaticPathConfig(CARD_URL, str(CARD_FILE), cache_headers=True)]
    )
    add_extra_js_url(hass, f"{CARD_URL}?v={card_version(module)}")
    async_register_command(hass, ws_subscribe_schedule)


def schedule_message(state: ThermostatState) -> dict[str, Any]:
    """Return what the card shows: the schedule as stored (°C, day 0 Monday) and learning."""
    schedule = state.schedule
    return {
        "schedule": dict(schedule) if schedule is not None else None,
        "learning": state.learning_mode,
    }


@websocket_command(
    {
        probatio.Required("type"): WS_SUBSCRIBE_SCHEDULE,
        probatio.Required("entity_id"): cv.entity_id,
    }
)
@callback
def ws_subscribe_schedule(
    hass: HomeAssistant, connection: ActiveConnection, msg: dict[str, Any]
) -> None:
    """Send a thermostat's schedule, then again each time it or learning changes."""
    entity_id: str = msg["entity_id"]
    registered = er.async_get(hass).async_get(entity_id)
    if (
        registered is None
        or registered.platform != DOMAIN
        or registered.domain != CLIMATE_DOMAIN
        or registered.config_entry_id is None
    ):
        connection.send_error(
            msg["id"], ERROR_NOT_A_THERMOSTAT, f"{entity_id} is not a Thermostat Cloud thermostat"
        )
        return
    entry: ThermostatCloudConfigEntry | None = hass.config_entries.async_get_entry(
        registered.config_entry_id
    )
    if entry is None or entry not in hass.config_entries.async_loaded_entries(DOMAIN):
        connection.send_error(msg["id"], ERROR_NOT_LOADED, "Thermostat Cloud is not running")
        return
    hub = entry.runtime_data
    # The climate entity's unique id is the thermostat's serial.
    state = ThermostatState(hub.service, registered.unique_id)
    last_sent: Mapping[str, Any] = schedule_message(state)

    @callback
    def on_event(event: ServiceEvent) -> None:
        nonlocal last_sent
        if event.kind is not EventKind.STATE:
            return
        message = schedule_message(state)
        if message == last_sent:  # most changes are temperatures, not the schedule
            return
        last_sent = message
        connection.send_message(event_message(msg["id"], message))

    connection.subscriptions[msg["id"]] = hub.thermostats.listen(state.serial, on_event)
    connection.send_result(msg["id"])
    connection.send_message(event_message(msg["id"], last_sent))
