"""The Home Assistant runtime object of the hub entry: the service, its storage and listener."""

from __future__ import annotations

from collections.abc import Callable
import logging
from typing import Any

from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers.storage import Store
import orjson

from .const import (
    CONF_API_ORIGIN,
    CONF_DEVICE_PORT,
    CONF_ENTRY_KEY_TTL,
    CONF_WEATHER_ENTITY,
    DEFAULT_DEVICE_PORT,
    DEFAULT_ENTRY_KEY_TTL,
    STORAGE_KEY,
    STORAGE_VERSION,
    WEATHER_AUTO,
)
from .coordinator import ThermostatTracker
from .pairing_sync import PairingSync
from .server import DeviceServer, ServiceConfig, ThermostatService
from .weather_source import WeatherSource

_LOGGER = logging.getLogger(__name__)

type ThermostatCloudConfigEntry = ConfigEntry[Hub]


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


def service_config(entry: ConfigEntry) -> ServiceConfig:
    """Return the service settings from the hub entry's data and options."""
    return ServiceConfig(
        api_origin=entry.data[CONF_API_ORIGIN],
        entry_key_ttl_seconds=int(entry.options.get(CONF_ENTRY_KEY_TTL, DEFAULT_ENTRY_KEY_TTL)),
    )


class Hub:
    """Owns the running service of one hub entry."""

    def __init__(self, hass: HomeAssistant, entry: ConfigEntry) -> None:
        """Initialize the service of a hub entry, and its pairing, thermostat and weather parts."""
        self.hass = hass
        self.entry = entry
        self.service = ThermostatService(service_config(entry), HassStorage(hass))
        self.device_server = DeviceServer(self.service)
        self.device_port: int = int(entry.data.get(CONF_DEVICE_PORT, DEFAULT_DEVICE_PORT))
        self.settings = self.settings_of(entry)
        self.pairing = PairingSync(hass, entry, self.service)
        """Subentries and service pairings in step; started once the service is loaded."""
        self.thermostats = ThermostatTracker(hass, entry.entry_id, self.service)
        """Service events to the entities of each thermostat; availability log."""
        self.weather = WeatherSource(hass, entry, self.weather_choice(entry))
        """Answers the thermostats' weather requests from a Home Assistant weather entity."""
        self.service.weather_provider = self.weather
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
        """Load state and start the device listener in Home Assistant's event loop.

        Raises OSError when the port cannot be bound.
        """
        await self.service.async_load()
        await self.device_server.async_start(None, self.device_port)
        _LOGGER.debug("Device protocol listening on port %s", self.device_port)

    async def async_stop(self, *_: Any) -> None:
        """Close held long-polls, release the port and save; safe to call twice."""
        if self._stopped:
            return
        self._stopped = True
        await self.device_server.async_stop()
