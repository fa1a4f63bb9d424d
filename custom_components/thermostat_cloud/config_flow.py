"""Config flows: the hub entry, its options and reconfigure; adding thermostats.

A thermostat is a subentry of the hub. "Add thermostat" finds thermostats on the network and
points one here, or takes the code a thermostat shows; a thermostat that calls in unpaired
is also shown as discovered (a config flow that ends by adding the hub's subentry).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

from homeassistant.components import network
from homeassistant.components.weather.const import DOMAIN as WEATHER_DOMAIN
from homeassistant.config_entries import (
    ConfigEntry,
    ConfigEntryState,
    ConfigFlow,
    ConfigFlowResult,
    ConfigSubentryFlow,
    OptionsFlow,
    SubentryFlowResult,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import selector
import probatio
from yarl import URL

from .const import (
    CONF_API_ORIGIN,
    CONF_COMPAT_API,
    CONF_COMPAT_PORT,
    CONF_DEVICE_PORT,
    CONF_ENTRY_KEY_MINUTES,
    CONF_ENTRY_KEY_TTL,
    CONF_SERIAL,
    CONF_WEATHER_ENTITY,
    DATA_CONTROL_API,
    DEFAULT_COMPAT_PORT,
    DEFAULT_DEVICE_PORT,
    DEFAULT_ENTRY_KEY_TTL,
    DOMAIN,
    MAX_ENTRY_KEY_TTL,
    MIN_ENTRY_KEY_TTL,
    SUBENTRY_THERMOSTAT,
    TITLE,
    WEATHER_AUTO,
    WEATHER_NONE,
)
from .energy import MAX_RATE, RATE_FIELDS
from .entry_data import ThermostatCloudConfigEntry, loaded_entry
from .equipment import HAS_EQUIPMENT
from .pairing_form import PairingCodeForm
from .pairing_sync import thermostat_subentries, thermostat_title
from .server import (
    ELECTRICITY,
    GAS,
    ConfigureOutcome,
    EventKind,
    FoundThermostat,
    ScanError,
    ServiceEvent,
    ThermostatService,
    configure_thermostat,
    origin_with_port,
    scan_thermostats,
)

_LOGGER = logging.getLogger(__name__)

RATE_SELECTORS = {
    ELECTRICITY: selector.NumberSelector(
        selector.NumberSelectorConfig(
            min=0,
            max=MAX_RATE,
            step=0.01,
            unit_of_measurement="kW",
            mode=selector.NumberSelectorMode.BOX,
        )
    ),
    GAS: selector.NumberSelector(
        selector.NumberSelectorConfig(
            min=0,
            max=MAX_RATE,
            step=0.001,
            unit_of_measurement="m³/h",
            mode=selector.NumberSelectorMode.BOX,
        )
    ),
}

PORT_SELECTOR = selector.NumberSelector(
    selector.NumberSelectorConfig(min=1, max=65535, step=1, mode=selector.NumberSelectorMode.BOX)
)


def validate_api_origin(value: str) -> str | None:
    """Error key for an api_origin thermostats cannot use, else None.

    Firmware needs a plain http origin with a host and an explicit port: a URL without a
    port breaks the thermostat's low-power keepalive, and the device listener speaks plain
    HTTP, so an https origin would hand thermostats URLs nothing answers.
    """
    try:
        url = URL(value.strip())
    except ValueError:
        return "invalid_origin"
    if url.scheme == "https" and url.host:
        return "origin_https"
    if url.scheme != "http" or not url.host:
        return "invalid_origin"
    if url.explicit_port is None:
        return "origin_port_missing"
    if url.path not in ("", "/") or url.query_string or url.fragment:
        return "origin_has_path"
    return None


def normalize_origin(value: str) -> str:
    """`scheme://host:port`, the port always written out, without a trailing slash."""
    return origin_with_port(value.strip())


def _port_free(port: int) -> bool:
    """Whether a TCP port can be bound on all interfaces right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("", port))
        except OSError:
            # In use, or not ours to bind (privileged): the form says so, never a traceback.
            return False
    return True


async def _async_default_origin(hass: HomeAssistant, port: int) -> str:
    """Home Assistant's LAN address with the device port."""
    address = await network.async_get_source_ip(hass)
    return f"http://{address}:{port}"


def _validate_server_input(
    user_input: dict[str, Any], current_port: int | None
) -> tuple[dict[str, str], dict[str, Any]]:
    """Errors by field, and the cleaned data."""
    errors: dict[str, str] = {}
    port = int(user_input[CONF_DEVICE_PORT])
    origin = ""
    if error := validate_api_origin(user_input[CONF_API_ORIGIN]):
        errors[CONF_API_ORIGIN] = error
    else:
        url = URL(user_input[CONF_API_ORIGIN].strip())
        if url.port != port and url.port in (current_port, DEFAULT_DEVICE_PORT):
            # The user moved the device port and left the address on the old one (the form's
            # default): thermostats must follow the server to its new port. Any other port is
            # kept: a container's port mapping or a forwarding router can hand thermostats one.
            url = url.with_port(port)
        origin = normalize_origin(str(url))
    if port != current_port and not _port_free(port):
        errors[CONF_DEVICE_PORT] = "port_in_use"
    return errors, {CONF_API_ORIGIN: origin, CONF_DEVICE_PORT: port}


def _server_schema(origin: str, port: int) -> probatio.Schema:
    return probatio.Schema(
        {
            probatio.Required(CONF_API_ORIGIN, default=origin): selector.TextSelector(
                selector.TextSelectorConfig(type=selector.TextSelectorType.URL)
            ),
            probatio.Required(CONF_DEVICE_PORT, default=port): PORT_SELECTOR,
        }
    )


class ThermostatCloudConfigFlow(ConfigFlow, domain=DOMAIN):
    """Create the hub entry: where thermostats reach Home Assistant."""

    VERSION = 1

    def __init__(self) -> None:
        """Initialize the flow."""
        self._serial = ""

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Ask for the origin thermostats use and the device port; check the port binds.

        One hub serves every thermostat. The manifest cannot say so (`single_config_entry`
        would refuse the discovered thermostats' flows too), so this step does.
        """
        if self._async_current_entries(include_ignore=False):
            return self.async_abort(reason="single_instance_allowed")
        errors: dict[str, str] = {}
        if user_input is not None:
            errors, data = await self.hass.async_add_executor_job(
                _validate_server_input, user_input, None
            )
            if not errors:
                return self.async_create_entry(title=TITLE, data=data)
        port = int(user_input[CONF_DEVICE_PORT]) if user_input else DEFAULT_DEVICE_PORT
        origin = (
            user_input[CONF_API_ORIGIN]
            if user_input
            else await _async_default_origin(self.hass, DEFAULT_DEVICE_PORT)
        )
        return self.async_show_form(
            step_id="user",
            data_schema=_server_schema(origin, port),
            errors=errors,
            description_placeholders={"port": str(port)},
        )

    async def async_step_integration_discovery(
        self, discovery_info: dict[str, Any]
    ) -> ConfigFlowResult:
        """Lead a thermostat that called in unpaired (see `PairingSync`) to its code.

        Shown on the integration's page as a discovered device; it is a thermostat of the
        hub, so the flow ends by adding the hub's subentry, not an entry of its own. Its
        unique id is the serial: an ignored thermostat stays ignored.
        """
        self._serial = str(discovery_info[CONF_SERIAL])
        await self.async_set_unique_id(self._serial)
        self._abort_if_unique_id_configured()
        self.context["title_placeholders"] = {"serial": self._serial}
        return await self.async_step_discovered()

    async def async_step_discovered(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for the code the discovered thermostat shows; pair it under the hub."""
        hub = loaded_entry(self.hass)
        if hub is None:
            return self.async_abort(reason="hub_not_loaded")
        if self._serial in thermostat_subentries(hub):
            return self.async_abort(
                reason="already_paired", description_placeholders={"serial": self._serial}
            )
        form = PairingCodeForm(self.hass, hub)

        def paired(serial: str) -> ConfigFlowResult:
            hub.runtime_data.pairing.ensure_subentry(serial)
            return self.async_abort(
                reason="restart" if form.needs_restart(serial) else "paired",
                description_placeholders={"serial": serial},
            )

        return await form.async_step(
            self, "discovered", user_input, paired, {"serial": self._serial}
        )

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Change the origin or the device port of the running hub."""
        entry = self._get_reconfigure_entry()
        current_port = int(entry.data.get(CONF_DEVICE_PORT, DEFAULT_DEVICE_PORT))
        errors: dict[str, str] = {}
        if user_input is not None:
            errors, data = await self.hass.async_add_executor_job(
                _validate_server_input, user_input, current_port
            )
            if not errors:
                # The update listener restarts the hub when the settings changed.
                return self.async_update_and_abort(entry, data_updates=data)
        values = user_input or entry.data
        return self.async_show_form(
            step_id="reconfigure",
            data_schema=_server_schema(
                values[CONF_API_ORIGIN], int(values.get(CONF_DEVICE_PORT, current_port))
            ),
            errors=errors,
        )

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: ConfigEntry) -> OptionsFlow:
        """Hub options."""
        return ThermostatCloudOptionsFlow()

    @classmethod
    @callback
    def async_get_supported_subentry_types(
        cls, config_entry: ConfigEntry
    ) -> dict[str, type[ConfigSubentryFlow]]:
        """Thermostats are subentries of the hub, added by their pairing code."""
        return {SUBENTRY_THERMOSTAT: ThermostatSubentryFlow}


WAIT_FOR_CONTACT_SECONDS = 300.0
"""How long "Add thermostat" waits for a thermostat it pointed here to call in."""
CONF_THERMOSTAT = "thermostat"
CONF_API_KEY = "api_key"


def _minutes(seconds: float) -> str:
    """Return a duration in whole minutes, at least one, as the UI and the log say it."""
    return str(max(1, round(seconds / 60)))


def _found_label(found: FoundThermostat) -> str:
    """Return how a found thermostat is listed: its address and the server it uses now.

    Its settings page says nothing more (no name: the serial comes once it calls in).
    """
    return f"{found.ip}: {found.cloudregisterurl or '-'}"


async def async_wait_for_contact(service: ThermostatService, address: str) -> str:
    """Return the serial of the thermostat that calls in from `address`.

    Waits on the service's events (a thermostat's first contact announces it, its address
    noted); the caller bounds the wait.
    """
    called_in: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def on_event(event: ServiceEvent) -> None:
        if event.kind not in (EventKind.CONNECTION, EventKind.UNPAIRED_CONTACT):
            return
        record = service.device(event.serial)
        if record is not None and record.address == address and not called_in.done():
            called_in.set_result(event.serial)

    stop_listening = service.events.listen(on_event)
    try:
        return await called_in
    finally:
        stop_listening()


class ThermostatSubentryFlow(ConfigSubentryFlow):
    """Add a thermostat: find it on the network and point it here, or type its code."""

    def __init__(self) -> None:
        """Initialize the flow."""
        self._found: dict[str, FoundThermostat] = {}
        self._address = ""
        self._serial = ""
        self._wait: asyncio.Task[str] | None = None

    def _hub(self) -> ThermostatCloudConfigEntry | None:
        entry: ThermostatCloudConfigEntry = self._get_entry()
        return entry if entry.state is ConfigEntryState.LOADED else None

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Ask for the power (kW) or gas rate (m³/h) of each piece of the thermostat's equipment.

        Fields for the equipment the thermostat reports, and any given before; the energy
        sensors of a kind appear once a rate of it is given.
        """
        entry = self._get_entry()
        subentry = self._get_reconfigure_subentry()
        serial = subentry.data[CONF_SERIAL]
        if user_input is not None:
            rates = {
                key: float(value)
                for key, value in user_input.items()
                if key in RATE_FIELDS and isinstance(value, int | float) and value > 0
            }
            return self.async_update_and_abort(entry, subentry, data={CONF_SERIAL: serial, **rates})
        hub = self._hub()
        thermostat = hub.runtime_data.service.thermostat(serial) if hub else None
        fields: dict[Any, Any] = {}
        for key, (equipment, kind) in RATE_FIELDS.items():
            has = HAS_EQUIPMENT[equipment]
            if thermostat is None or has(thermostat) or key in subentry.data:
                fields[probatio.Optional(key)] = RATE_SELECTORS[kind]
        schema = self.add_suggested_values_to_schema(probatio.Schema(fields), subentry.data)
        return self.async_show_form(
            step_id="reconfigure",
            data_schema=schema,
            description_placeholders={"name": subentry.title},
        )

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Offer to find the thermostats on the network or to type the code one shows."""
        if self._hub() is None:
            return self.async_abort(reason="hub_not_loaded")
        return self.async_show_menu(step_id="user", menu_options=["scan", "code"])

    async def async_step_code(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Ask for the code and the owner; claim it; the thermostat leaves its pairing screen."""
        return await self._async_code_step("code", user_input)

    async def async_step_contacted(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Ask for the code the thermostat pointed here shows, now that it called in."""
        return await self._async_code_step("contacted", user_input)

    async def _async_code_step(
        self, step_id: str, user_input: dict[str, Any] | None
    ) -> SubentryFlowResult:
        entry = self._hub()
        if entry is None:
            return self.async_abort(reason="hub_not_loaded")
        form = PairingCodeForm(self.hass, entry)

        def paired(serial: str) -> SubentryFlowResult:
            if serial in thermostat_subentries(entry):
                return self.async_abort(
                    reason="paired_again", description_placeholders={"serial": serial}
                )
            return self.async_create_entry(
                title=thermostat_title(serial),
                data={CONF_SERIAL: serial},
                unique_id=serial,
                description="restart" if form.needs_restart(serial) else "paired",
                description_placeholders={"serial": serial},
            )

        return await form.async_step(
            self,
            step_id,
            user_input,
            paired,
            {"serial": self._serial, "address": self._address},
        )

    # -- finding a thermostat on the network and pointing it here ---------------------------

    async def async_step_scan(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Look for thermostats' settings pages on the network; list them, or say none answered."""
        entry = self._hub()
        if entry is None:
            return self.async_abort(reason="hub_not_loaded")
        service = entry.runtime_data.service
        try:
            result = await scan_thermostats(
                self.hass.data[DATA_CONTROL_API].network, service.config.api_origin
            )
        except ScanError as err:
            _LOGGER.warning(
                "Cannot look for thermostats: %s; set the address thermostats use to Home "
                "Assistant's IPv4 address (Reconfigure)",
                err.message,
            )
            return self.async_abort(
                reason="scan_unavailable",
                description_placeholders={"origin": service.config.api_origin},
            )
        self._found = {found.ip: found for found in result.devices}
        if not self._found:
            _LOGGER.warning(
                "No thermostat answered on %s: check that it is on and on the same network as "
                "Home Assistant, or type the code it shows instead",
                result.subnet,
            )
            return self.async_show_form(
                step_id="scan",
                data_schema=probatio.Schema({}),
                errors={"base": "no_thermostats_found"},
                description_placeholders={"subnet": result.subnet},
            )
        return await self.async_step_pick()

    def _pick_form(self, errors: dict[str, str]) -> SubentryFlowResult:
        entry = self._hub()
        origin = entry.runtime_data.service.config.api_origin if entry is not None else ""
        return self.async_show_form(
            step_id="pick",
            data_schema=probatio.Schema(
                {
                    probatio.Required(CONF_THERMOSTAT): selector.SelectSelector(
                        selector.SelectSelectorConfig(
                            options=[
                                selector.SelectOptionDict(value=ip, label=_found_label(found))
                                for ip, found in self._found.items()
                            ],
                            mode=selector.SelectSelectorMode.LIST,
                        )
                    )
                }
            ),
            errors=errors,
            description_placeholders={"origin": origin},
        )

    async def async_step_pick(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Point the chosen thermostat here (unless it already is), then wait for it."""
        if user_input is None:
            return self._pick_form({})
        # The list's selector refuses anything the search did not find.
        found = self._found[user_input[CONF_THERMOSTAT]]
        self._address = found.ip
        if found.configured:
            return await self.async_step_wait()
        return await self._async_configure(None)

    async def async_step_key_needed(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Offer a restart of the thermostat, or typing its serial, to get its key.

        Restarting opens the settings page's first-boot window, which gives the key: no serial
        to type. Typing the serial stays the way when that does not help.
        """
        return self.async_show_menu(
            step_id="key_needed",
            menu_options=["restarted", "api_key"],
            description_placeholders={"address": self._address},
        )

    async def async_step_restarted(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Try again after the thermostat restarted: its first-boot window gives the key."""
        return await self._async_configure(None)

    async def async_step_api_key(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Ask for the thermostat's key (its serial), which its settings page wants."""
        if user_input is None:
            return self._api_key_form({})
        return await self._async_configure(user_input[CONF_API_KEY])

    def _api_key_form(self, errors: dict[str, str]) -> SubentryFlowResult:
        return self.async_show_form(
            step_id="api_key",
            data_schema=probatio.Schema({probatio.Required(CONF_API_KEY): selector.TextSelector()}),
            errors=errors,
            description_placeholders={"address": self._address},
        )

    async def _async_configure(self, api_key: str | None) -> SubentryFlowResult:
        entry = self._hub()
        if entry is None:
            return self.async_abort(reason="hub_not_loaded")
        service = entry.runtime_data.service
        result = await configure_thermostat(
            self.hass.data[DATA_CONTROL_API].network,
            service.config.api_origin,
            self._address,
            api_key,
            device_at=service.device_at,
        )
        if result.success:
            return await self.async_step_wait()
        if result.outcome is ConfigureOutcome.KEY_REFUSED:
            _LOGGER.warning(
                "The thermostat at %s refused %s; restart it and try again within 30 minutes, "
                "or enter its serial (Settings > Technical info on the thermostat)",
                self._address,
                "the key typed" if api_key else "to change its address without its key",
            )
            if api_key:
                return self._api_key_form({"base": "key_refused"})
            return await self.async_step_key_needed()
        if result.outcome is ConfigureOutcome.INVALID_INPUT:
            _LOGGER.warning("Cannot point the thermostat at Home Assistant: %s", result.error)
            return self.async_abort(reason="origin_https")
        _LOGGER.warning(
            "Could not point the thermostat at %s at Home Assistant: %s; check that it is on and "
            "search again",
            self._address,
            result.error,
        )
        return self._pick_form({"base": "configure_failed"})

    async def async_step_wait(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Wait for the thermostat to call in at its new address."""
        if self._wait is None:
            entry = self._hub()
            if entry is None:
                return self.async_abort(reason="hub_not_loaded")
            service = entry.runtime_data.service
            record = service.device_at(self._address)
            if record is not None and service.is_available(record.serial):
                self._serial = record.serial  # it already talks to this server
                return await self.async_step_heard()
            self._wait = self.hass.async_create_task(
                self._async_wait_for_contact(service),
                f"{DOMAIN} wait for the thermostat at {self._address}",
                eager_start=False,
            )
        if not self._wait.done():
            return self.async_show_progress(
                step_id="wait",
                progress_action="wait_for_thermostat",
                progress_task=self._wait,
                description_placeholders={"address": self._address},
            )
        wait, self._wait = self._wait, None
        if wait.cancelled() or wait.exception() is not None:
            _LOGGER.warning(
                "The thermostat at %s did not call Home Assistant within %s minutes; restart it "
                "(Settings > Reset > Restart) and try again",
                self._address,
                _minutes(WAIT_FOR_CONTACT_SECONDS),
            )
            return self.async_show_progress_done(next_step_id="not_heard")
        self._serial = wait.result()
        return self.async_show_progress_done(next_step_id="heard")

    async def _async_wait_for_contact(self, service: ThermostatService) -> str:
        async with asyncio.timeout(WAIT_FOR_CONTACT_SECONDS):
            return await async_wait_for_contact(service, self._address)

    async def async_step_not_heard(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Say that the thermostat did not call in; submitting waits again."""
        if user_input is not None:
            return await self.async_step_wait()
        return self.async_show_form(
            step_id="not_heard",
            data_schema=probatio.Schema({}),
            errors={"base": "no_contact"},
            description_placeholders={
                "address": self._address,
                "minutes": _minutes(WAIT_FOR_CONTACT_SECONDS),
            },
        )

    async def async_step_heard(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Ask the thermostat that called in for its code, unless it is paired already."""
        entry = self._hub()
        if entry is None:
            return self.async_abort(reason="hub_not_loaded")
        if entry.runtime_data.service.is_paired(self._serial):
            return self.async_abort(
                reason="already_paired", description_placeholders={"serial": self._serial}
            )
        return await self.async_step_contacted()


def _weather_selector(hass: HomeAssistant, current: str) -> selector.SelectSelector:
    """Return the selector of the weather option.

    The first weather entity (default), none, or one of Home Assistant's weather entities.
    """
    options = [
        selector.SelectOptionDict(value=WEATHER_AUTO, label=WEATHER_AUTO),
        selector.SelectOptionDict(value=WEATHER_NONE, label=WEATHER_NONE),
    ]
    entity_ids = sorted(hass.states.async_entity_ids(WEATHER_DOMAIN))
    if current not in (WEATHER_AUTO, WEATHER_NONE, *entity_ids):
        entity_ids.append(current)  # chosen before, gone now: still shown as chosen
    for entity_id in entity_ids:
        state = hass.states.get(entity_id)
        name = state.name if state is not None else entity_id
        options.append(selector.SelectOptionDict(value=entity_id, label=f"{name} ({entity_id})"))
    return selector.SelectSelector(
        selector.SelectSelectorConfig(
            options=options,
            mode=selector.SelectSelectorMode.DROPDOWN,
            translation_key=CONF_WEATHER_ENTITY,
        )
    )


class ThermostatCloudOptionsFlow(OptionsFlow):
    """Pairing-code lifetime, the compatibility listener and the weather thermostats show.

    The listener's port is asked on a second step, only when the listener is turned on.
    """

    def __init__(self) -> None:
        """Initialize the flow."""
        self._options: dict[str, Any] = {}

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Ask for the lifetime of pairing codes (minutes), the compatibility listener, weather."""
        options = self.config_entry.options
        if user_input is not None:
            self._options = {
                **options,
                # Stored in seconds, as the service takes it (and earlier versions stored it).
                CONF_ENTRY_KEY_TTL: round(float(user_input[CONF_ENTRY_KEY_MINUTES]) * 60),
                CONF_COMPAT_API: bool(user_input[CONF_COMPAT_API]),
                CONF_WEATHER_ENTITY: str(user_input.get(CONF_WEATHER_ENTITY, WEATHER_AUTO)),
            }
            if self._options[CONF_COMPAT_API]:
                return await self.async_step_compat_port()
            return self.async_create_entry(data=self._options)
        weather = str(options.get(CONF_WEATHER_ENTITY, WEATHER_AUTO))
        minutes = int(options.get(CONF_ENTRY_KEY_TTL, DEFAULT_ENTRY_KEY_TTL)) // 60
        schema = probatio.Schema(
            {
                probatio.Required(CONF_ENTRY_KEY_MINUTES, default=minutes): selector.NumberSelector(
                    selector.NumberSelectorConfig(
                        min=MIN_ENTRY_KEY_TTL // 60,
                        max=MAX_ENTRY_KEY_TTL // 60,
                        step=1,
                        unit_of_measurement="min",
                        mode=selector.NumberSelectorMode.BOX,
                    )
                ),
                probatio.Required(
                    CONF_COMPAT_API, default=options.get(CONF_COMPAT_API, False)
                ): selector.BooleanSelector(),
                probatio.Required(CONF_WEATHER_ENTITY, default=weather): _weather_selector(
                    self.hass, weather
                ),
            }
        )
        return self.async_show_form(step_id="init", data_schema=schema, last_step=False)

    async def async_step_compat_port(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for the port of the compatibility listener; check it is free."""
        errors: dict[str, str] = {}
        options = self.config_entry.options
        if user_input is not None:
            port = int(user_input[CONF_COMPAT_PORT])
            current = (
                options.get(CONF_COMPAT_PORT, DEFAULT_COMPAT_PORT)
                if options.get(CONF_COMPAT_API)
                else None
            )
            if port == int(self.config_entry.data.get(CONF_DEVICE_PORT, DEFAULT_DEVICE_PORT)):
                errors[CONF_COMPAT_PORT] = "port_conflict"
            elif port != current and not await self.hass.async_add_executor_job(_port_free, port):
                errors[CONF_COMPAT_PORT] = "port_in_use"
            if errors:
                _LOGGER.warning(
                    "The open control API cannot use port %s (%s); choose another one",
                    port,
                    "it is the device port"
                    if errors[CONF_COMPAT_PORT] == "port_conflict"
                    else "something else listens on it",
                )
            else:
                return self.async_create_entry(data={**self._options, CONF_COMPAT_PORT: port})
        port = (user_input or options).get(CONF_COMPAT_PORT, DEFAULT_COMPAT_PORT)
        return self.async_show_form(
            step_id="compat_port",
            data_schema=probatio.Schema(
                {probatio.Required(CONF_COMPAT_PORT, default=port): PORT_SELECTOR}
            ),
            errors=errors,
        )
