"""The hub's config flow: where thermostats reach Home Assistant, and a discovered thermostat.

The hub entry is set up here (and reconfigured: its origin and device port). Its options are
in `options_flow.py`; a thermostat is a subentry of the hub, added in `thermostat_flow.py`; a
thermostat that calls in unpaired is shown as discovered, a flow here that ends by adding the
hub's subentry.
"""

from __future__ import annotations

from typing import Any

from homeassistant.components import network
from homeassistant.config_entries import (
    ConfigEntry,
    ConfigFlow,
    ConfigFlowResult,
    ConfigSubentryFlow,
    OptionsFlow,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import selector
import probatio
from yarl import URL

from .const import (
    CONF_API_ORIGIN,
    CONF_DEVICE_PORT,
    CONF_SERIAL,
    DEFAULT_DEVICE_PORT,
    DOMAIN,
    SUBENTRY_THERMOSTAT,
    TITLE,
)
from .entry_data import loaded_entry
from .options_flow import ThermostatCloudOptionsFlow
from .pairing_form import PairingCodeForm
from .pairing_sync import thermostat_subentries
from .ports import PORT_SELECTOR, port_free
from .server import origin_with_port
from .thermostat_flow import ThermostatSubentryFlow


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
    if port != current_port and not port_free(port):
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
