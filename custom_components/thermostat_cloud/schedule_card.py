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

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
import hashlib
import logging
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
from homeassistant.helpers.dispatcher import async_dispatcher_connect
import probatio

from .arrival import ARRIVAL_READS, PlannedArrival, planned_arrival
from .climate_view import PRESET_READS
from .const import DOMAIN, SIGNAL_HUB_STARTED
from .entry_data import ThermostatCloudConfigEntry
from .hub import Hub
from .sensor import ECO_TEMPERATURES
from .server import EventKind, Hold, ServiceEvent, ThermostatState, holds_eco

_LOGGER = logging.getLogger(__name__)

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
    async_register_command(hass, ws_subscribe_schedule)
    try:
        module = await hass.async_add_executor_job(CARD_FILE.read_bytes)
    except OSError as err:
        # A damaged install loses the card, not the thermostats.
        _LOGGER.warning(
            "The schedule card is not available: %s. Reinstall Thermostat Cloud to get it back",
            err,
        )
        return
    await hass.http.async_register_static_paths(
        [StaticPathConfig(CARD_URL, str(CARD_FILE), cache_headers=True)]
    )
    add_extra_js_url(hass, f"{CARD_URL}?v={card_version(module)}")


SCHEDULE_READS: Final = (
    frozenset({"schedule", "device.learning_mode", EventKind.HOLD.value})
    | PRESET_READS
    | ECO_TEMPERATURES
)
"""What `schedule_message` reads: the whole schedule bucket, learning, the hold, and eco."""


def schedule_message(
    state: ThermostatState, hold: Hold | None, arrival: PlannedArrival | None = None
) -> dict[str, Any]:
    """Return what the card shows: the schedule as stored (°C, day 0 Monday), learning, the hold.

    The hold's end is ISO 8601 (UTC), its setpoints Celsius; None without a hold. While the
    thermostat keeps its eco temperatures (the home away, or its own eco) `eco` says which
    and what they are, Celsius: that, not the schedule or a hold, is what the house keeps.
    `arrival`: the home's planned arrival and when the home leaves eco for it (ISO 8601).
    """
    schedule = state.schedule
    eco = state.eco_temperatures
    return {
        "schedule": dict(schedule) if schedule is not None else None,
        "learning": state.learning_mode,
        "eco": {"away": state.away, "low": eco["low"], "high": eco["high"]}
        if holds_eco(state)
        else None,
        "hold": None
        if hold is None
        else {
            "until": datetime.fromtimestamp(hold.until_ms / 1000, UTC).isoformat(),
            "target": hold.target,
            "low": hold.low,
            "high": hold.high,
        },
        "arrival": None
        if arrival is None
        else {"at": arrival.arrival.isoformat(), "start": arrival.start.isoformat()},
    }


class ScheduleSubscription:
    """One open card's subscription to a thermostat's schedule.

    It follows the running service's events about the thermostat, and the next service when
    the hub entry is reloaded (its options changed), so an open card stays live throughout.
    """

    def __init__(
        self, hass: HomeAssistant, connection: ActiveConnection, msg_id: int, serial: str
    ) -> None:
        """Initialize the subscription; `async_start` sends the first message."""
        self.hass = hass
        self.connection = connection
        self.msg_id = msg_id
        self.serial = serial
        self._state: ThermostatState | None = None
        self._hub: Hub | None = None
        self._last_sent: Mapping[str, Any] | None = None
        self._remove_listener: Callable[[], None] | None = None
        self._remove_home_listener: Callable[[], None] | None = None

    @callback
    def async_start(self, hub: Hub) -> Callable[[], None]:
        """Send the schedule now and on every change; returns the function that ends it."""
        self._follow(hub)
        remove_reload = async_dispatcher_connect(self.hass, SIGNAL_HUB_STARTED, self._follow)

        @callback
        def end() -> None:
            remove_reload()
            self._stop_following()

        return end

    @callback
    def _follow(self, hub: Hub) -> None:
        self._stop_following()
        self._hub = hub
        self._state = hub.service.thermostat(self.serial)
        self._remove_listener = hub.thermostats.listen(self.serial, self._on_event, SCHEDULE_READS)
        self._remove_home_listener = hub.thermostats.listen_home(self._on_event, ARRIVAL_READS)
        self._send_if_changed()

    @callback
    def _stop_following(self) -> None:
        if self._remove_listener is not None:
            self._remove_listener()
            self._remove_listener = None
        if self._remove_home_listener is not None:
            self._remove_home_listener()
            self._remove_home_listener = None

    @callback
    def _on_event(self, event: ServiceEvent) -> None:
        self._send_if_changed()

    @callback
    def _send_if_changed(self) -> None:
        assert self._state is not None
        assert self._hub is not None
        service = self._hub.service
        message = schedule_message(
            self._state, service.holds.hold_of(self.serial), planned_arrival(service)
        )
        if message == self._last_sent:
            return
        self._last_sent = message
        self.connection.send_message(event_message(self.msg_id, message))


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
    # The climate entity's unique id is the thermostat's serial.
    subscription = ScheduleSubscription(hass, connection, msg["id"], registered.unique_id)
    connection.send_result(msg["id"])
    connection.subscriptions[msg["id"]] = subscription.async_start(entry.runtime_data)
