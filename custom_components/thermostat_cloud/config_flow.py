"""Config flow: the hub entry (server settings), its options and reconfigure."""

from __future__ import annotations

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
    CONF_CODE,
    CONF_COMPAT_API,
    CONF_COMPAT_PORT,
    CONF_DEVICE_PORT,
    CONF_ENTRY_KEY_TTL,
    CONF_OWNER,
    CONF_SERIAL,
    CONF_WEATHER_ENTITY,
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
from .hub import ThermostatCloudConfigEntry
from .pairing_sync import thermostat_subentries, thermostat_title
from .server import origin_with_port
from .server.pairing import RegisterOutcome

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

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Ask for the origin thermostats use and the device port; check the port binds."""
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


CODE_ERRORS = {
    RegisterOutcome.MALFORMED: "invalid_format",
    RegisterOutcome.INVALID: "invalid_code",
    RegisterOutcome.EXPIRED: "expired_code",
    RegisterOutcome.CLAIMED: "claimed_code",
}


class ThermostatSubentryFlow(ConfigSubentryFlow):
    """Add a thermostat by typing the code it shows, for the user who will own it."""

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Ask for the code and the owner; claim it; the thermostat leaves its pairing screen.

        The owner is a Home Assistant user: their hosted API keys own the thermostat (may
        delete it), other users' keys see it as shared. Left empty, it belongs to the home and
        every key owns it. The flow context has no user id to go by, so the form asks,
        suggesting the instance owner.
        """
        entry: ThermostatCloudConfigEntry = self._get_entry()
        if entry.state is not ConfigEntryState.LOADED:
            return self.async_abort(reason="hub_not_loaded")
        users = {
            user.id: user.name or user.id
            for user in await self.hass.auth.async_get_users()
            if user.is_active and not user.system_generated
        }
        errors: dict[str, str] = {}
        if user_input is not None:
            owner_id: str | None = user_input.get(CONF_OWNER) or None
            if owner_id is not None and owner_id not in users:
                errors[CONF_OWNER] = "owner_unavailable"  # removed while the form was open
            else:
                result = await entry.runtime_data.pairing.async_pair_from_flow(
                    user_input[CONF_CODE], owner_id
                )
                if result.success and result.serial is not None:
                    if result.serial in thermostat_subentries(entry):
                        return self.async_abort(
                            reason="paired_again",
                            description_placeholders={"serial": result.serial},
                        )
                    return self.async_create_entry(
                        title=thermostat_title(result.serial),
                        data={CONF_SERIAL: result.serial},
                        unique_id=result.serial,
                    )
                errors[CONF_CODE] = CODE_ERRORS.get(result.outcome, "invalid_code")
        schema: dict[Any, Any] = {probatio.Required(CONF_CODE): selector.TextSelector()}
        if users:
            schema[probatio.Optional(CONF_OWNER)] = selector.SelectSelector(
                selector.SelectSelectorConfig(
                    options=[
                        selector.SelectOptionDict(value=user_id, label=name)
                        for user_id, name in users.items()
                    ],
                    mode=selector.SelectSelectorMode.DROPDOWN,
                )
            )
        owner = await self.hass.auth.async_get_owner()
        suggested = {CONF_OWNER: owner.id} if owner is not None and owner.id in users else {}
        return self.async_show_form(
            step_id="user",
            data_schema=self.add_suggested_values_to_schema(
                probatio.Schema(schema), user_input if user_input is not None else suggested
            ),
            errors=errors,
        )


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
    """Pairing-code lifetime, the compatibility listener and the weather thermostats show."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """One form with every hub option."""
        errors: dict[str, str] = {}
        options = self.config_entry.options
        if user_input is not None:
            cleaned: dict[str, Any] = {
                CONF_ENTRY_KEY_TTL: int(user_input[CONF_ENTRY_KEY_TTL]),
                CONF_COMPAT_API: bool(user_input[CONF_COMPAT_API]),
                CONF_COMPAT_PORT: int(user_input[CONF_COMPAT_PORT]),
                CONF_WEATHER_ENTITY: str(user_input.get(CONF_WEATHER_ENTITY, WEATHER_AUTO)),
            }
            current_compat = (
                options.get(CONF_COMPAT_PORT, DEFAULT_COMPAT_PORT)
                if options.get(CONF_COMPAT_API)
                else None
            )
            if cleaned[CONF_COMPAT_PORT] == int(
                self.config_entry.data.get(CONF_DEVICE_PORT, DEFAULT_DEVICE_PORT)
            ):
                errors[CONF_COMPAT_PORT] = "port_conflict"
            elif (
                cleaned[CONF_COMPAT_API]
                and cleaned[CONF_COMPAT_PORT] != current_compat
                and not await self.hass.async_add_executor_job(
                    _port_free, cleaned[CONF_COMPAT_PORT]
                )
            ):
                errors[CONF_COMPAT_PORT] = "port_in_use"
            if not errors:
                return self.async_create_entry(data=cleaned)
        values = user_input or options
        weather = str(values.get(CONF_WEATHER_ENTITY, WEATHER_AUTO))
        schema = probatio.Schema(
            {
                probatio.Required(
                    CONF_ENTRY_KEY_TTL,
                    default=values.get(CONF_ENTRY_KEY_TTL, DEFAULT_ENTRY_KEY_TTL),
                ): selector.NumberSelector(
                    selector.NumberSelectorConfig(
                        min=MIN_ENTRY_KEY_TTL,
                        max=MAX_ENTRY_KEY_TTL,
                        step=60,
                        unit_of_measurement="s",
                        mode=selector.NumberSelectorMode.BOX,
                    )
                ),
                probatio.Required(
                    CONF_COMPAT_API, default=values.get(CONF_COMPAT_API, False)
                ): selector.BooleanSelector(),
                probatio.Required(
                    CONF_COMPAT_PORT, default=values.get(CONF_COMPAT_PORT, DEFAULT_COMPAT_PORT)
                ): PORT_SELECTOR,
                probatio.Required(CONF_WEATHER_ENTITY, default=weather): _weather_selector(
                    self.hass, weather
                ),
            }
        )
        return self.async_show_form(step_id="init", data_schema=schema, errors=errors)
