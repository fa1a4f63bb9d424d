"""What every thermostat entity shares: its device, its buckets, push updates, availability.

Entities hold no state of their own: each property reads the service's buckets when Home
Assistant asks, and the tracker calls `async_write_ha_state` in the loop turn of every change
(device PUT, inline subscribe update, command), so there is nothing to poll and nothing to go
stale. Bucket fields read here, where the spec does not name them, follow the control API's
status record (server/status.py): `device.current_humidity`, `device.backplate_temperature`,
`device.time_to_target` (minutes), `device.away_temperature_low/high`, `device.eco.mode`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
import math
from typing import Any

from homeassistant.config_entries import ConfigSubentry
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers.device_registry import CONNECTION_NETWORK_MAC, DeviceInfo
from homeassistant.helpers.dispatcher import async_dispatcher_connect
from homeassistant.helpers.entity import Entity
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .const import CONF_SERIAL, DOMAIN, SUBENTRY_THERMOSTAT, TITLE, signal_thermostat_added
from .hub import Hub, ThermostatCloudConfigEntry
from .server import CommandError, ErrorCode, EventKind, ServiceEvent, ThermostatService
from .server.buckets import bucket_key
from .server.service import SERVER_VERSION
from .tracker import firmware_version, model_of

# Relays that mean "heating" / "cooling" in the `shared` bucket.
HEAT_RELAYS = (
    "hvac_heater_state",
    "hvac_heat_x2_state",
    "hvac_heat_x3_state",
    "hvac_aux_heater_state",
    "hvac_emer_heat_state",
    "hvac_alt_heat_state",
)
COOL_RELAYS = ("hvac_ac_state", "hvac_cool_x2_state", "hvac_cool_x3_state")
FAN_RELAY = "hvac_fan_state"

# Refusals the user can fix by changing the call; the rest are errors of the integration.
VALIDATION_ERRORS = frozenset(
    {ErrorCode.INVALID_VALUE, ErrorCode.UNSUPPORTED, ErrorCode.NOT_PAIRED}
)


def number(value: object) -> float | None:
    """A finite JSON number as stored, else None (booleans are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


class Thermostat:
    """Read access to one thermostat's buckets (always the current values)."""

    __slots__ = ("serial", "service")

    def __init__(self, service: ThermostatService, serial: str) -> None:
        self.service = service
        self.serial = serial

    @property
    def shared(self) -> Mapping[str, Any]:
        """The `shared.<serial>` bucket: setpoints, mode, relays, capabilities."""
        return self.service.buckets.value(bucket_key("shared", self.serial))

    @property
    def device(self) -> Mapping[str, Any]:
        """The `device.<serial>` bucket: settings, humidity, fan, eco."""
        return self.service.buckets.value(bucket_key("device", self.serial))

    @property
    def structure(self) -> Mapping[str, Any]:
        """The home's `structure.<id>` bucket (away), empty while unpaired."""
        pairing = self.service.pairings.pairing(self.serial)
        if pairing is None:
            return {}
        return self.service.buckets.value(bucket_key("structure", pairing.structure_id))

    @property
    def schedule(self) -> Mapping[str, Any] | None:
        """The `schedule.<serial>` bucket, or None when the thermostat has not reported one."""
        bucket = self.service.buckets.get(bucket_key("schedule", self.serial))
        return bucket.value if bucket is not None else None

    @property
    def capabilities(self) -> dict[str, bool]:
        """What its equipment can do (the command layer's own reading)."""
        return self.service.commands.capabilities(self.serial)

    def any_on(self, fields: Iterable[str]) -> bool:
        """Whether any of these `shared` relay flags is true."""
        shared = self.shared
        return any(shared.get(name) is True for name in fields)

    @property
    def heating(self) -> bool:
        """A heat stage (including aux and emergency heat) is running."""
        return self.any_on(HEAT_RELAYS)

    @property
    def cooling(self) -> bool:
        """A cool stage is running."""
        return self.any_on(COOL_RELAYS)

    @property
    def fan_running(self) -> bool:
        """The fan relay is on."""
        return self.shared.get(FAN_RELAY) is True

    @property
    def mode(self) -> str | None:
        """`shared.target_temperature_type`: off, heat, cool, range or emergency."""
        mode = self.shared.get("target_temperature_type")
        return mode if isinstance(mode, str) else None

    @property
    def away(self) -> bool:
        """The home is set away (the structure's away, which the away preset controls)."""
        return self.structure.get("away") is True

    @property
    def eco(self) -> bool:
        """The thermostat's own eco mode is on (manual or automatic)."""
        eco = self.device.get("eco")
        if isinstance(eco, dict) and isinstance(eco.get("mode"), str):
            return eco["mode"] in ("manual-eco", "auto-eco")
        return self.device.get("eco_mode_enabled") is True

    @property
    def leaf(self) -> bool:
        """The thermostat shows its energy-saving leaf."""
        return self.shared.get("leaf") is True


def thermostat_device_info(hub: Hub, subentry: ConfigSubentry) -> DeviceInfo:
    """The device registry entry of one thermostat, below the hub's device."""
    serial = subentry.data[CONF_SERIAL]
    info = DeviceInfo(
        identifiers={(DOMAIN, serial)},
        name=subentry.title,
        serial_number=serial,
        model=model_of(hub.service, serial),
        sw_version=firmware_version(hub.service, serial),
    )
    hub_device = dr.async_get(hub.hass).async_get_device_by_identifier(
        (DOMAIN, hub.entry.entry_id), hub.entry.entry_id
    )
    if hub_device is not None:
        info["via_device_id"] = hub_device.id
    record = hub.service.devices.get(serial)
    if record is not None and record.mac:
        info["connections"] = {(CONNECTION_NETWORK_MAC, dr.format_mac(record.mac))}
    return info


@callback
def async_register_hub_device(hass: HomeAssistant, entry: ThermostatCloudConfigEntry) -> None:
    """The hub's own device: the embedded server every thermostat device hangs from."""
    dr.async_get(hass).async_get_or_create(
        config_entry_id=entry.entry_id,
        identifiers={(DOMAIN, entry.entry_id)},
        name=TITLE,
        entry_type=dr.DeviceEntryType.SERVICE,
        sw_version=SERVER_VERSION,
    )


class ThermostatEntity(Entity):
    """An entity of one paired thermostat, updated by push only."""

    _attr_has_entity_name = True
    _attr_should_poll = False

    def __init__(self, hub: Hub, subentry: ConfigSubentry, key: str | None) -> None:
        self.hub = hub
        self.thermostat = Thermostat(hub.service, subentry.data[CONF_SERIAL])
        self.serial = self.thermostat.serial
        self._attr_unique_id = self.serial if key is None else f"{self.serial}_{key}"
        self._attr_device_info = thermostat_device_info(hub, subentry)

    @property
    def service(self) -> ThermostatService:
        """The running service."""
        return self.hub.service

    @property
    def available(self) -> bool:
        """A held subscribe connection, or contact within the availability grace."""
        return self.service.is_available(self.serial)

    async def async_added_to_hass(self) -> None:
        """Follow this thermostat's events."""
        await super().async_added_to_hass()
        self._read_state()
        self.async_on_remove(self.hub.thermostats.listen(self.serial, self._handle_event))

    @callback
    def _read_state(self) -> None:
        """Copy bucket values into `_attr_*` before a state write (for entities that cache)."""

    @callback
    def _handle_event(self, event: ServiceEvent) -> None:
        if event.kind in (EventKind.STATE, EventKind.CONNECTION, EventKind.PAIRING):
            self._read_state()
            self.async_write_ha_state()

    def run_command[T](self, command: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a command-layer call, turning a refusal into a translated error."""
        try:
            return command(self.serial, *args, **kwargs)
        except CommandError as err:
            raise command_error(err) from err


def command_error(err: CommandError) -> HomeAssistantError:
    """The translated Home Assistant error for a refused command."""
    error_type = ServiceValidationError if err.code in VALIDATION_ERRORS else HomeAssistantError
    return error_type(
        translation_domain=DOMAIN,
        translation_key=err.code.value,
        translation_placeholders={"message": err.message},
    )


@callback
def async_add_thermostat_entities(
    hass: HomeAssistant,
    entry: ThermostatCloudConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
    build: Callable[[Hub, ConfigSubentry], Iterable[Entity]],
) -> None:
    """Add a platform's entities for every thermostat subentry, now and when one is added."""
    hub = entry.runtime_data

    @callback
    def add(subentry_id: str) -> None:
        subentry = entry.subentries.get(subentry_id)
        if subentry is None or subentry.subentry_type != SUBENTRY_THERMOSTAT:
            return
        async_add_entities(build(hub, subentry), config_subentry_id=subentry_id)

    for subentry_id in entry.subentries:
        add(subentry_id)
    entry.async_on_unload(
        async_dispatcher_connect(hass, signal_thermostat_added(entry.entry_id), add)
    )
