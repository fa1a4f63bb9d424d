"""What every thermostat entity shares: its device, its view of the buckets, push updates.

Each platform projects the thermostat's state onto what an entity shows in one pure function
(a description's `value_fn`, climate's `project_climate`); the entity keeps the last
projection and writes its state only when a new one differs. It declares what the projection
reads (bucket fields and aspects, see `coordinator.reads_changed`), and the coordinator calls it
only for changes of those, in the loop turn of the change (device PUT, inline subscribe
update, command): nothing to poll, nothing to go stale. Which bucket field means what is known
in one place, `server.core.read.state.ThermostatState`, which the control API's status record reads
too.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Concatenate

from homeassistant.components.climate.const import DOMAIN as CLIMATE_DOMAIN
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import UnitOfTemperature
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import device_registry as dr, translation
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.helpers.dispatcher import async_dispatcher_connect
from homeassistant.helpers.entity import Entity, EntityDescription
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.util import dt as dt_util
from homeassistant.util.unit_conversion import TemperatureConverter

from .const import (
    CONF_SERIAL,
    DOMAIN,
    SUBENTRY_THERMOSTAT,
    THERMOSTAT_MANUFACTURER,
    signal_thermostat_added,
)
from .coordinator import AVAILABILITY
from .device_sync import mac_connection
from .entry_data import ThermostatCloudConfigEntry
from .hub import Hub
from .pairing_sync import thermostat_title
from .server import (
    DEVICE_RELAYS,
    HVAC_RELAYS,
    CommandError,
    CommandResult,
    ErrorCode,
    Reason,
    ServiceEvent,
    ThermostatService,
    ThermostatState,
    round_half,
)

# Refusals the user can fix by changing the call; the rest are errors of the integration.
VALIDATION_ERRORS = frozenset(
    {ErrorCode.INVALID_VALUE, ErrorCode.UNSUPPORTED, ErrorCode.NOT_PAIRED}
)


def thermostat_device_info(hub: Hub, subentry: ConfigSubentry) -> DeviceInfo:
    """Return the device registry entry of one thermostat, below the hub's device."""
    serial = subentry.data[CONF_SERIAL]
    state = hub.service.thermostat(serial)
    info = DeviceInfo(
        identifiers={(DOMAIN, serial)},
        # The name given on the thermostat, else its room's, else "Thermostat <serial>" (not
        # the subentry's title: that follows the device's name, see PairingSync).
        name=state.display_name or thermostat_title(serial),
        serial_number=serial,
        manufacturer=THERMOSTAT_MANUFACTURER,
        model=state.model,
        sw_version=state.software_version,
    )
    hub_device = dr.async_get(hub.hass).async_get_device_by_identifier(
        (DOMAIN, hub.entry.entry_id), hub.entry.entry_id
    )
    if hub_device is not None:
        info["via_device_id"] = hub_device.id
    if (connection := mac_connection(hub.service, serial)) is not None:
        info["connections"] = {connection}
    return info


RELAYS = frozenset(
    {f"shared.{field}" for field in HVAC_RELAYS.values()}
    | {f"device.{field}" for field in DEVICE_RELAYS.values()}
)
"""The fields of every relay (`ThermostatState.hvac` reads them all)."""


class ThermostatEntity[ViewT](Entity):
    """An entity of one paired thermostat, updated by push only, showing its last projection."""

    _attr_has_entity_name = True
    _attr_should_poll = False

    def __init__(
        self, hub: Hub, subentry: ConfigSubentry, key: str | None, reads: frozenset[str] | None
    ) -> None:
        """Initialize the entity from the hub, the thermostat's subentry, its key and reads.

        `reads` is what its projection reads (availability is added), None for everything.
        """
        self.hub = hub
        self.thermostat = hub.service.thermostat(subentry.data[CONF_SERIAL])
        self.serial = self.thermostat.serial
        self._attr_unique_id = self.serial if key is None else f"{self.serial}_{key}"
        self._attr_device_info = thermostat_device_info(hub, subentry)
        self._reads = None if reads is None else reads | {AVAILABILITY}
        # Home Assistant reads features and capabilities when it adds the entity.
        self._shown = self._show()

    @abstractmethod
    def _project(self) -> ViewT:
        """Return what the entity shows of the thermostat's state now."""

    @property
    def view(self) -> ViewT:
        """The last projection, which the state write shows."""
        return self._shown.view

    @property
    def service(self) -> ThermostatService:
        """The running service."""
        return self.hub.service

    @property
    def available(self) -> bool:
        """As last projected: a held subscribe connection, or contact within the grace."""
        return self._shown.available

    async def async_added_to_hass(self) -> None:
        """Follow the changes of what this entity reads."""
        await super().async_added_to_hass()
        # Home Assistant writes this first state right after; changes compare against it.
        self._shown = self._show()
        self.async_on_remove(
            self.hub.thermostats.listen(self.serial, self._handle_change, self._reads)
        )

    def _is_available(self) -> bool:
        """Return whether the entity is available now: with its thermostat."""
        return self.service.devices.is_available(self.serial)

    def _show(self) -> Shown[ViewT]:
        return Shown(self._is_available(), self._project())

    @callback
    def _handle_change(self, event: ServiceEvent) -> None:
        """Project again; write the state when what the entity shows changed."""
        shown = self._show()
        if shown == self._shown:
            return
        self._shown = shown
        self.async_write_ha_state()

    def run_command[**P](
        self,
        command: Callable[Concatenate[str, P], CommandResult],
        *args: P.args,
        **kwargs: P.kwargs,
    ) -> CommandResult:
        """Run a command on this thermostat (its serial goes first).

        It is the change of whoever the entity's context names (see change_authors.py); a
        refusal turns into a translated error; mypy checks the arguments against the command's.
        """
        try:
            with self.hub.authors.acting(self._context):
                return command(self.serial, *args, **kwargs)
        except CommandError as err:
            raise command_error(self.hass, err) from err


@dataclass(frozen=True, slots=True)
class Shown[ViewT]:
    """What an entity shows: whether it is available, and its projection."""

    available: bool
    view: ViewT


@dataclass(frozen=True, kw_only=True)
class ThermostatEntityDescription[ValueT](EntityDescription):
    """An entity that shows one value of the thermostat, and what that value reads."""

    value_fn: Callable[[ThermostatState], ValueT]
    reads: frozenset[str] | None
    """The bucket fields (`device.leaf`) and aspects `value_fn` reads; None for everything."""
    equipment_fn: Callable[[ThermostatState], bool] | None = None
    """Whether the thermostat has the equipment this shows or sets; without it (or before
    the thermostat said) the entity is created disabled, and enabled once the thermostat
    reports the equipment (`equipment.py`)."""


class ThermostatDescribedEntity[ValueT](ThermostatEntity[ValueT]):
    """A thermostat entity defined by an entity description: it shows `value_fn`'s value."""

    entity_description: ThermostatEntityDescription[ValueT]

    def __init__(
        self,
        hub: Hub,
        subentry: ConfigSubentry,
        description: ThermostatEntityDescription[ValueT],
    ) -> None:
        """Initialize the entity from the hub, the thermostat's subentry and its description."""
        self.entity_description = description
        super().__init__(hub, subentry, description.key, description.reads)
        if (has_equipment := description.equipment_fn) is not None:
            self._attr_entity_registry_enabled_default = has_equipment(self.thermostat)

    def _project(self) -> ValueT:
        return self.entity_description.value_fn(self.thermostat)


def command_error(hass: HomeAssistant, err: CommandError) -> HomeAssistantError:
    """Return the translated Home Assistant error for a refused command.

    One translation key per reason, temperatures in Home Assistant's unit, fields by the labels
    of the action's fields.
    """
    error_type = ServiceValidationError if err.code in VALIDATION_ERRORS else HomeAssistantError
    placeholders: dict[str, str]
    if err.reason.value == err.code.value:  # a generic reason: only the message says more
        placeholders = {"message": err.message}
    else:
        placeholders = {
            name: _placeholder(hass, err.reason, name, value)
            for name, value in err.placeholders.items()
        }
        if err.reason is Reason.TEMPERATURE_OUT_OF_RANGE:
            placeholders["unit"] = hass.config.units.temperature_unit
    return error_type(
        translation_domain=DOMAIN,
        translation_key=err.reason.value,
        translation_placeholders=placeholders,
    )


# The command layer names a field by the bucket field it writes; the user knows it by the field
# of the action they called: (domain, action, field) of its label.
ACTION_FIELDS: dict[str, tuple[str, str, str]] = {
    "target_temperature": (CLIMATE_DOMAIN, "set_temperature", "temperature"),
    "target_temperature_low": (CLIMATE_DOMAIN, "set_temperature", "target_temp_low"),
    "target_temperature_high": (CLIMATE_DOMAIN, "set_temperature", "target_temp_high"),
    "target_humidity": (CLIMATE_DOMAIN, "set_humidity", "humidity"),
    "temperature_lock_low_temp": (DOMAIN, "set_temperature_lock", "min_temperature"),
    "temperature_lock_high_temp": (DOMAIN, "set_temperature_lock", "max_temperature"),
    "away_temperature_low": (DOMAIN, "set_eco_temperatures", "low"),
    "away_temperature_high": (DOMAIN, "set_eco_temperatures", "high"),
}
FIELD_PLACEHOLDERS = frozenset({"field", "low", "high"})
TEMPERATURE_PLACEHOLDERS = frozenset({"min", "max"})


def _placeholder(hass: HomeAssistant, reason: Reason, name: str, value: str | float) -> str:
    if name in FIELD_PLACEHOLDERS:
        return _field_label(hass, str(value))
    if reason is Reason.TEMPERATURE_OUT_OF_RANGE and name in TEMPERATURE_PLACEHOLDERS:
        shown = limit_in_unit(
            float(value), hass.config.units.temperature_unit, lowest=name == "min"
        )
        return f"{round(shown, 1):g}"
    if reason is Reason.MODE_UNSUPPORTED:
        return mode_label(hass, THERMOSTAT_MODES.get(str(value), str(value)))
    if reason is Reason.VACATIONS_OVERLAP and (when := dt_util.parse_datetime(str(value))):
        # The other vacation's times, as the home's clock shows them.
        return dt_util.as_local(when).strftime("%Y-%m-%d %H:%M")
    return str(value)


def limit_in_unit(celsius: float, unit: str, *, lowest: bool) -> float:
    """Return a temperature limit in `unit`, the same in refusals and on the climate entity.

    Celsius as it is; otherwise the nearest whole degree the thermostat takes after its
    rounding to 0.5 °C (40 °F = 4.44 °C for a 4.5 °C minimum, 90 °F = 32.2 °C for a 32 °C
    maximum), moving inwards when the nearest is not taken. Whole degrees, because Home
    Assistant shows limits rounded and checks values against them unrounded: a limit of
    40.1 °F would show 40 and refuse it.
    """
    if unit == UnitOfTemperature.CELSIUS:
        return celsius
    # Rounded first so that a limit exactly on a whole degree stays on it.
    whole = round(round(TemperatureConverter.convert(celsius, UnitOfTemperature.CELSIUS, unit), 6))
    inwards = 1 if lowest else -1
    while True:
        taken = round_half(TemperatureConverter.convert(whole, unit, UnitOfTemperature.CELSIUS))
        if (taken >= celsius) if lowest else (taken <= celsius):
            return float(whole)
        whole += inwards


# The thermostat's modes by the name Home Assistant shows for them: the climate entity's HVAC
# modes, and emergency heat, which the climate entity offers as a preset.
THERMOSTAT_MODES = {"heat": "heat", "cool": "cool", "range": "heat_cool", "off": "off"}
EMERGENCY_HEAT = "emergency_heat"


def mode_label(hass: HomeAssistant, mode: str) -> str:
    """Return the name Home Assistant shows for an HVAC mode, in its language.

    Emergency heat (the thermostat's mode `emergency`) is the climate entity's preset of that
    name. A mode without a name falls back to itself.
    """
    language = hass.config.language
    if mode in ("emergency", EMERGENCY_HEAT):
        labels = translation.async_get_cached_translations(hass, language, "entity", DOMAIN)
        key = f"component.{DOMAIN}.entity.climate.thermostat.state_attributes.preset_mode.state"
        return labels.get(f"{key}.{EMERGENCY_HEAT}", mode)
    labels = translation.async_get_cached_translations(
        hass, language, "entity_component", CLIMATE_DOMAIN
    )
    return labels.get(f"component.{CLIMATE_DOMAIN}.entity_component._.state.{mode}", mode)


def _field_label(hass: HomeAssistant, field: str) -> str:
    """Return the label of the action field a command field came from.

    The label is in Home Assistant's language.
    """
    if (source := ACTION_FIELDS.get(field)) is None:
        return field
    domain, action, name = source
    labels = translation.async_get_cached_translations(
        hass, hass.config.language, "services", domain
    )
    return labels.get(f"component.{domain}.services.{action}.fields.{name}.name", name)


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
