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
from collections.abc import Callable, Coroutine, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
import logging
from typing import Any, Concatenate, Final, TypedDict, override

from homeassistant.components.climate.const import DOMAIN as CLIMATE_DOMAIN, HVACMode
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import EntityCategory, Platform, UnitOfTemperature
from homeassistant.core import Context, HomeAssistant, callback
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
from .equipment import EQUIPMENT_SETTINGS, HasEquipment
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

_LOGGER = logging.getLogger(__name__)

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


class ProjectedEntity[ViewT](Entity):
    """An entity updated by push only, showing its last projection.

    Each platform says in one place, `_update_attrs`, how a projection shows: it copies it
    onto the entity's `_attr_*`, which Home Assistant reads.
    """

    _attr_has_entity_name = True
    _attr_should_poll = False
    hub: Hub
    _shown: Shown[ViewT]

    def __init__(self, hub: Hub, unique_id: str, device_info: DeviceInfo) -> None:
        """Place the entity on its device and show its first projection."""
        self.hub = hub
        self._attr_unique_id = unique_id
        self._attr_device_info = device_info
        self._show_now()

    @abstractmethod
    def _project(self) -> ViewT:
        """Return what the entity shows now."""

    @abstractmethod
    def _is_available(self) -> bool:
        """Return whether the entity is available now."""

    @abstractmethod
    def _listen(self) -> Callable[[], None]:
        """Follow the changes of what the entity reads with `_handle_change`; the remover."""

    @abstractmethod
    def _update_attrs(self, view: ViewT) -> None:
        """Copy a projection onto the entity's `_attr_*`."""

    def _show_now(self) -> None:
        """Project and show it (from `__init__`: Home Assistant reads features on adding)."""
        self._shown = self._apply(Shown(self._is_available(), self._project()))

    def _apply(self, shown: Shown[ViewT]) -> Shown[ViewT]:
        self._attr_available = shown.available
        self._update_attrs(shown.view)
        return shown

    def _refresh(self) -> bool:
        """Project again; show it and return True when what the entity shows changed."""
        shown = Shown(self._is_available(), self._project())
        if shown == self._shown:
            return False
        self._shown = self._apply(shown)
        return True

    @property
    def view(self) -> ViewT:
        """The last projection, which the state write shows."""
        return self._shown.view

    @override
    async def async_added_to_hass(self) -> None:
        """Follow the changes of what this entity reads."""
        await super().async_added_to_hass()
        # Home Assistant writes this first state right after; changes compare against it.
        self._refresh()
        self.async_on_remove(self._listen())

    @callback
    def _handle_change(self, event: ServiceEvent) -> None:
        """Write the state when what the entity shows changed.

        A change of the home comes once per thermostat of the home: written once.
        """
        if self._refresh():
            self.async_write_ha_state()

    def acting(self, context: Context | None) -> AbstractContextManager[None]:
        """Run the commands inside as the change of whoever `context` names.

        The author is named (change_authors.py) once the change is written: its push first.
        """
        return self.hub.service.commands.acting_as(partial(self.hub.authors.author, context))

    def _run[T](self, call: Callable[[], T]) -> T:
        """Run a call of the service as the change of whoever the entity's context names.

        A refusal turns into a translated error.
        """
        try:
            with self.acting(self._context):
                return call()
        except CommandError as err:
            raise command_error(self.hass, err) from err


class HomeEntity[ViewT](ProjectedEntity[ViewT]):
    """An entity of the hub's home, on the hub's device, following the home's changes."""

    def __init__(self, hub: Hub, key: str, reads: frozenset[str]) -> None:
        """Initialize the entity of the hub's home from its key and what it reads."""
        self._home_reads = reads
        entry_id = hub.entry.entry_id
        super().__init__(hub, f"{entry_id}_{key}", DeviceInfo(identifiers={(DOMAIN, entry_id)}))

    @override
    def _is_available(self) -> bool:
        return True

    @override
    def _listen(self) -> Callable[[], None]:
        return self.hub.thermostats.listen_home(self._handle_change, self._home_reads)


class ThermostatEntity[ViewT](ProjectedEntity[ViewT]):
    """An entity of one paired thermostat."""

    def __init__(
        self, hub: Hub, subentry: ConfigSubentry, key: str | None, reads: frozenset[str] | None
    ) -> None:
        """Initialize the entity from the hub, the thermostat's subentry, its key and reads.

        `reads` is what its projection reads (availability is added), None for everything.
        """
        self.thermostat = hub.service.thermostat(subentry.data[CONF_SERIAL])
        self.serial = self.thermostat.serial
        self._reads = None if reads is None else reads | {AVAILABILITY}
        unique_id = self.serial if key is None else f"{self.serial}_{key}"
        super().__init__(hub, unique_id, thermostat_device_info(hub, subentry))

    @property
    def service(self) -> ThermostatService:
        """The running service."""
        return self.hub.service

    @override
    def _is_available(self) -> bool:
        """Available with its thermostat: a held subscribe connection, or contact within the grace."""
        return self.service.devices.is_available(self.serial)

    @override
    def _listen(self) -> Callable[[], None]:
        return self.hub.thermostats.listen(self.serial, self._handle_change, self._reads)

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
        return self._run(lambda: command(self.serial, *args, **kwargs))


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

    @override
    def _project(self) -> ValueT:
        return self.entity_description.value_fn(self.thermostat)


@dataclass(frozen=True, kw_only=True)
class ThermostatSettingDescription[ValueT](ThermostatEntityDescription[ValueT]):
    """A setting the thermostat keeps, and the `device` field it is."""

    setting: str
    """A name the command layer's `set_device_setting` takes."""


class SettingFields(TypedDict):
    """What a setting's description says by its key and field (see `setting_fields`)."""

    key: str
    translation_key: str
    setting: str
    reads: frozenset[str]
    equipment_fn: HasEquipment | None


def setting_fields(platform: Platform, key: str, setting: str) -> SettingFields:
    """Return the description fields of the setting `device.<setting>` keyed `key`.

    It reads its field; a setting of equipment the thermostat may lack (a heat pump, dual
    fuel) is created disabled unless it reports the equipment (`equipment.py`).
    """
    return SettingFields(
        key=key,
        translation_key=key,
        setting=setting,
        reads=frozenset({f"device.{setting}"}),
        equipment_fn=EQUIPMENT_SETTINGS.get((platform, key)),
    )


class ThermostatSettingEntity[ValueT](ThermostatDescribedEntity[ValueT]):
    """A setting the thermostat keeps and acts on, written through `set_device_setting`."""

    entity_description: ThermostatSettingDescription[ValueT]
    _attr_entity_category = EntityCategory.CONFIG

    def _write_setting(self, value: object) -> None:
        """Write the setting's field to the thermostat."""
        commands = self.service.commands
        self.run_command(commands.set_device_setting, self.entity_description.setting, value)


def command_error(hass: HomeAssistant, err: CommandError) -> HomeAssistantError:
    """Return the translated Home Assistant error for a refused command.

    One translation key per reason, temperatures in Home Assistant's unit, fields by the labels
    of the action's fields.
    """
    error_type = ServiceValidationError if err.code in VALIDATION_ERRORS else HomeAssistantError
    if err.reason.value == err.code.value or err.reason is Reason.SCHEDULE_INVALID:
        # Only the English message says more: the user is told to read it in the log.
        _LOGGER.warning("A command was refused: %s", err.message)
    placeholders = {
        name: _placeholder(hass, err.reason, name, value)
        for name, value in err.placeholders.items()
    }
    if err.reason in TEMPERATURE_RANGE_REASONS:
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
TEMPERATURE_RANGE_REASONS = frozenset(
    {Reason.TEMPERATURE_OUT_OF_RANGE, Reason.SCHEDULE_TEMPERATURE_OUT_OF_RANGE}
)


def _placeholder(hass: HomeAssistant, reason: Reason, name: str, value: str | float) -> str:
    if name in FIELD_PLACEHOLDERS:
        return _field_label(hass, str(value))
    if name == "day":  # a schedule's
        return weekday_label(hass, int(value))
    if reason in TEMPERATURE_RANGE_REASONS and name in TEMPERATURE_PLACEHOLDERS:
        shown = limit_in_unit(
            float(value), hass.config.units.temperature_unit, lowest=name == "min"
        )
        return f"{round(shown, 1):g}"
    if reason is Reason.MODE_UNSUPPORTED:
        return mode_label(hass, str(value))
    if reason in (Reason.VACATIONS_OVERLAP, Reason.ARRIVAL_IN_VACATION) and (
        when := dt_util.parse_datetime(str(value))
    ):
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


EMERGENCY = "emergency"
"""The thermostat's emergency heat mode: HVAC mode heat with the climate preset below."""
PRESET_EMERGENCY_HEAT = "emergency_heat"
MODE_OF_HVAC_MODE: Final = {
    HVACMode.OFF: "off",
    HVACMode.HEAT: "heat",
    HVACMode.COOL: "cool",
    HVACMode.HEAT_COOL: "range",
}
"""Home Assistant's HVAC modes and the thermostat's (`shared.target_temperature_type`)."""
HVAC_MODE_OF_MODE: Final = {mode: hvac for hvac, mode in MODE_OF_HVAC_MODE.items()} | {
    EMERGENCY: HVACMode.HEAT
}
"""The same table the other way; emergency heat is a way of heating."""


def mode_label(hass: HomeAssistant, mode: str) -> str:
    """Return the name Home Assistant shows for a mode, the thermostat's or an HVAC mode.

    In Home Assistant's language. Emergency heat is the climate entity's preset of that name;
    a mode without a name falls back to itself.
    """
    language = hass.config.language
    if mode == EMERGENCY:
        labels = translation.async_get_cached_translations(hass, language, "entity", DOMAIN)
        key = f"component.{DOMAIN}.entity.climate.thermostat.state_attributes.preset_mode.state"
        return labels.get(f"{key}.{PRESET_EMERGENCY_HEAT}", mode)
    hvac_mode = HVAC_MODE_OF_MODE.get(mode, mode)
    labels = translation.async_get_cached_translations(
        hass, language, "entity_component", CLIMATE_DOMAIN
    )
    return labels.get(f"component.{CLIMATE_DOMAIN}.entity_component._.state.{hvac_mode}", hvac_mode)


def weekday_label(hass: HomeAssistant, day: int) -> str:
    """Return a schedule's day, 0 (Monday) to 6, by its name in Home Assistant's language."""
    texts = translation.async_get_cached_translations(hass, hass.config.language, "common", DOMAIN)
    return texts.get(f"component.{DOMAIN}.common.weekday_{day}", str(day))


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


type EntityFactory = Callable[[Hub, ConfigSubentry], Iterable[Entity]]
"""A platform's entities of one thermostat."""
type PlatformSetup = Callable[
    [HomeAssistant, ThermostatCloudConfigEntry, AddConfigEntryEntitiesCallback],
    Coroutine[Any, Any, None],
]


def platform_setup(
    *factories: EntityFactory, home: Callable[[Hub], Iterable[Entity]] | None = None
) -> PlatformSetup:
    """Return a platform's `async_setup_entry`: its entities of every thermostat, of the home.

    `factories` make the entities of one thermostat, for every thermostat subentry now and
    when one is added; `home` makes those of the home, on the hub's device.
    """

    async def async_setup_entry(
        hass: HomeAssistant,
        entry: ThermostatCloudConfigEntry,
        async_add_entities: AddConfigEntryEntitiesCallback,
    ) -> None:
        if home is not None:
            async_add_entities(home(entry.runtime_data))
        if factories:
            async_add_thermostat_entities(
                hass,
                entry,
                async_add_entities,
                lambda hub, subentry: [
                    entity for factory in factories for entity in factory(hub, subentry)
                ],
            )

    return async_setup_entry


def described[DescriptionT](
    entity: Callable[[Hub, ConfigSubentry, DescriptionT], Entity],
    descriptions: Iterable[DescriptionT],
) -> EntityFactory:
    """Return the factory of one entity per description."""
    return lambda hub, subentry: [entity(hub, subentry, d) for d in descriptions]


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
