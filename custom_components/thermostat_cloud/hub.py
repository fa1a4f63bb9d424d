"""The hub: the running service of the hub entry, which starts its parts and stops them.

Like esphome's manager, it owns its life: `async_start` loads the saved state, opens the
device port, starts the service (its timers; subscribes are taken from then on) and every part
(pairing sync, the coordinator, the firmware notices, the hub's device, the open control API),
registering each one's stop on the entry; unloading the entry, or a failed start, runs them.
`async_stop` stops the service around the device port's close. It is the entry's runtime data (`entry_data.py` names the
entry type); nothing it is built from imports it back.
"""

from __future__ import annotations

from collections.abc import Callable
import logging
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import EVENT_HOMEASSISTANT_STOP
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers.storage import Store
import orjson

from .alerts import HealthAlerts, thresholds_from_options
from .change_authors import ChangeAuthors
from .const import (
    CONF_API_ORIGIN,
    CONF_COMPAT_API,
    CONF_COMPAT_PORT,
    CONF_DEVICE_PORT,
    CONF_ENTRY_KEY_TTL,
    CONF_WEATHER_ENTITY,
    DATA_CONTROL_API,
    DEFAULT_COMPAT_PORT,
    DEFAULT_DEVICE_PORT,
    DEFAULT_ENTRY_KEY_TTL,
    DOMAIN,
    STORAGE_KEY,
    STORAGE_VERSION,
    TITLE,
    WEATHER_AUTO,
)
from .coordinator import ThermostatCoordinator
from .energy import EnergyRates
from .issues import (
    async_follow_commands,
    async_follow_firmware,
    async_open_control_api_listening,
    async_open_control_api_off,
    async_open_control_api_port_unavailable,
)
from .monthly_report import async_follow_monthly_report
from .pairing_sync import PairingSync, note_saved_subentries
from .room_source import RoomSensors
from .server import (
    SERVER_VERSION,
    ControlListener,
    DeviceServer,
    ServiceConfig,
    ThermostatService,
)
from .weather_source import WeatherSource

_LOGGER = logging.getLogger(__name__)


class HassStorage:
    """The service's Storage on Home Assistant's Store (atomic writes, final write on stop)."""

    def __init__(self, hass: HomeAssistant) -> None:
        """Initialize on a private Home Assistant Store with atomic writes."""
        self._store: Store[dict[str, Any]] = Store(
            hass, STORAGE_VERSION, STORAGE_KEY, private=True, atomic_writes=True
        )

    async def async_load(self) -> dict[str, Any] | None:
        """Return the saved document."""
        return await self._store.async_load()

    def embed_json(self, data: bytes) -> Any:
        """Spliced into the document as it is: the Store writes with orjson."""
        return orjson.Fragment(data)

    def schedule_save(self, snapshot: Callable[[], dict[str, Any]], delay: float) -> None:
        """Coalesced save; Home Assistant also writes it on its final-write event."""
        self._store.async_delay_save(snapshot, delay)

    async def async_save(self, data: dict[str, Any]) -> None:
        """Save now."""
        await self._store.async_save(data)

    async def async_remove(self) -> None:
        """Delete the stored state (the integration is being removed)."""
        await self._store.async_remove()


def service_config(entry: ConfigEntry, time_zone: str) -> ServiceConfig:
    """Return the service settings from the hub entry's data and options, in the home's zone."""
    return ServiceConfig(
        api_origin=entry.data[CONF_API_ORIGIN],
        entry_key_ttl_seconds=int(entry.options.get(CONF_ENTRY_KEY_TTL, DEFAULT_ENTRY_KEY_TTL)),
        time_zone=time_zone,
        health=thresholds_from_options(entry.options),
    )


class Hub:
    """Owns the running service of one hub entry and the parts that serve it."""

    def __init__(self, hass: HomeAssistant, entry: ConfigEntry[Hub]) -> None:
        """Initialize the service of a hub entry, and its pairing, thermostat and weather parts."""
        self.hass = hass
        self.entry = entry
        self.service = ThermostatService(
            service_config(entry, hass.config.time_zone), HassStorage(hass)
        )
        self.device_server = DeviceServer(self.service)
        self.device_port: int = int(entry.data.get(CONF_DEVICE_PORT, DEFAULT_DEVICE_PORT))
        self.settings = self.settings_of(entry)
        self.pairing = PairingSync(hass, entry, self.service)
        """Subentries and service pairings in step; started once the service is loaded."""
        self.thermostats = ThermostatCoordinator(hass, entry.entry_id, self.service)
        """Service events to the entities of each thermostat; availability log."""
        self.weather = WeatherSource(hass, entry, self.weather_choice(entry))
        """Answers the thermostats' weather requests from a Home Assistant weather entity."""
        self.service.weather_provider = self.weather
        self.authors = ChangeAuthors(hass, self.service)
        """Who each command from Home Assistant comes from; the change events."""
        self.energy_rates = EnergyRates(hass, entry, self.service)
        """Each thermostat's powers and gas rates (its reconfigure step), for the ledger."""
        self.rooms = RoomSensors(hass, entry, self.service)
        """Each thermostat's offset and followed room sensors (its reconfigure step)."""
        self.alerts = HealthAlerts(hass, entry.entry_id, self.service)
        """The health findings as repair issues and events; the outdoor temperature."""
        self._stopped = False

    @staticmethod
    def settings_of(entry: ConfigEntry) -> dict[str, Any]:
        """Return the entry settings the running service was built from.

        Not the weather entity: changing it needs no restart (see `weather_choice`).
        """
        settings = {**entry.data, **entry.options}
        settings.pop(CONF_WEATHER_ENTITY, None)
        return settings

    @staticmethod
    def weather_choice(entry: ConfigEntry) -> str:
        """Return the weather option: a weather entity id, WEATHER_AUTO or WEATHER_NONE."""
        return str(entry.options.get(CONF_WEATHER_ENTITY, WEATHER_AUTO))

    async def async_start(self) -> None:
        """Load the state, listen for thermostats and start every part.

        Raises OSError when the device port cannot be bound; the stops registered so far
        run then, as on unload.
        """
        entry = self.entry
        # Unload, and a failed start, stop the service: held long-polls close, the port is
        # released, state is saved. Registered first, so it runs after every other unload
        # callback (they run last registered first); the note just before it, so it is saved.
        entry.async_on_unload(self.async_stop)
        entry.async_on_unload(self._note_saved_subentries)
        await self.service.async_load()
        self.energy_rates.async_apply()
        await self.device_server.async_start(None, self.device_port)
        _LOGGER.debug("Device protocol listening on port %s", self.device_port)
        self.service.start()
        self.pairing.async_start()
        entry.async_on_unload(self.thermostats.async_start())
        entry.async_on_unload(await self.authors.async_start(self.thermostats))
        entry.async_on_unload(async_follow_monthly_report(self.hass, entry, self.service))
        entry.async_on_unload(async_follow_firmware(self.hass, self.service))
        entry.async_on_unload(async_follow_commands(self.hass, self.service))
        entry.async_on_unload(self.weather.async_follow_outdoor(self._note_outdoor))
        entry.async_on_unload(self.rooms.async_start())
        entry.async_on_unload(await self.alerts.async_start())
        self._register_device()
        entry.async_on_unload(
            self.hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STOP, self.async_stop)
        )
        entry.async_on_unload(self._close_control_api_streams)
        await self._async_start_open_control_api()
        entry.async_on_unload(entry.add_update_listener(self._async_entry_updated))

    async def async_stop(self, *_: Any) -> None:
        """Close held long-polls, release the port and save; safe to call twice.

        In this order: the device server waits for open requests, so the held long-polls are
        told to end first; the service saves once nothing can change it any more.
        """
        if self._stopped:
            return
        self._stopped = True
        self.service.close_connections()
        await self.device_server.async_stop()
        await self.service.async_stop()

    @callback
    def _note_saved_subentries(self) -> None:
        """Note the subentries as saved by Home Assistant, on unload or a failed start.

        See `note_saved_subentries`; nothing to note before the state is loaded.
        """
        if self.service.loaded:
            note_saved_subentries(self.hass, self.entry, self.service)

    @callback
    def _note_outdoor(self, celsius: float | None) -> None:
        """Tell the service's followers of the weather (house model, health, days) the outdoor °C.

        The one follower of the outdoor temperature: on every change and every
        `OUTDOOR_INTERVAL` (see `WeatherSource.async_follow_outdoor`).
        """
        self.service.house_model.note_outdoor(celsius)
        self.service.health.note_outdoor(celsius)
        self.service.days.note_outdoor(celsius)

    @callback
    def _register_device(self) -> None:
        """Register the hub's own device: the embedded server every thermostat device hangs from."""
        dr.async_get(self.hass).async_get_or_create(
            config_entry_id=self.entry.entry_id,
            identifiers={(DOMAIN, self.entry.entry_id)},
            name=TITLE,
            entry_type=dr.DeviceEntryType.SERVICE,
            sw_version=SERVER_VERSION,
        )

    @callback
    def _close_control_api_streams(self) -> None:
        """End the control API's event streams of this service (they never end on their own)."""
        self.hass.data[DATA_CONTROL_API].close_streams(self.service)

    async def _async_start_open_control_api(self) -> None:
        """Serve the control API at the spec's bare paths, without authentication, if chosen.

        The hub option `compat_api`; a repair issue warns while it listens.
        """
        options = self.entry.options
        if not options.get(CONF_COMPAT_API, False):
            async_open_control_api_off(self.hass)
            return
        port = int(options.get(CONF_COMPAT_PORT, DEFAULT_COMPAT_PORT))
        listener = ControlListener(self.service, network=self.hass.data[DATA_CONTROL_API].network)
        try:
            await listener.async_start(None, port)
        except OSError as err:
            _LOGGER.error(
                "The open control API cannot listen on port %s (%s); choose another port in "
                "the Thermostat Cloud options",
                port,
                err,
            )
            self.entry.async_on_unload(
                async_open_control_api_port_unavailable(self.hass, port, err)
            )
            return
        _LOGGER.warning("Open control API listening on port %s without authentication", port)
        clear_warning = async_open_control_api_listening(self.hass, port, self.entry.entry_id)
        self.entry.async_on_unload(listener.async_stop)
        self.entry.async_on_unload(
            self.hass.bus.async_listen_once(EVENT_HOMEASSISTANT_STOP, listener.async_stop)
        )
        self.entry.async_on_unload(clear_warning)

    async def _async_entry_updated(self, hass: HomeAssistant, entry: ConfigEntry) -> None:
        """Restart the service when its settings changed.

        Adding or removing a thermostat subentry also lands here; that must not restart the
        service, or the pairing push would lose the thermostat's held connection.
        """
        self.weather.set_choice(self.weather_choice(entry))
        self._note_outdoor(self.weather.outdoor_celsius())
        self.energy_rates.async_apply()
        self.rooms.async_apply()
        if self.settings != self.settings_of(entry):
            await hass.config_entries.async_reload(entry.entry_id)
        else:
            await self.pairing.async_subentries_changed()
