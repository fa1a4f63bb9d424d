"""The hub's options: pairing codes' lifetime, the open control API's listener, the weather.

The listener's port is asked on a second step, only when the listener is turned on.
"""

from __future__ import annotations

import logging
from typing import Any

from homeassistant.components.notify.const import DOMAIN as NOTIFY_DOMAIN
from homeassistant.components.weather.const import DOMAIN as WEATHER_DOMAIN
from homeassistant.config_entries import ConfigFlowResult, OptionsFlow
from homeassistant.core import HomeAssistant
from homeassistant.helpers import selector
import probatio

from .const import (
    CONF_COMPAT_API,
    CONF_COMPAT_PORT,
    CONF_DEVICE_PORT,
    CONF_ENTRY_KEY_MINUTES,
    CONF_ENTRY_KEY_TTL,
    CONF_REPORT_NOTIFY,
    CONF_WEATHER_ENTITY,
    DEFAULT_COMPAT_PORT,
    DEFAULT_DEVICE_PORT,
    DEFAULT_ENTRY_KEY_TTL,
    MAX_ENTRY_KEY_TTL,
    MIN_ENTRY_KEY_TTL,
    REPORT_NOTIFY_NONE,
    WEATHER_AUTO,
    WEATHER_NONE,
)
from .ports import PORT_SELECTOR, port_free

_LOGGER = logging.getLogger(__name__)


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


def _notify_selector(hass: HomeAssistant, current: str) -> selector.SelectSelector:
    """Return the selector of the monthly report's notify action: none, or a notify action."""
    # The persistent notification is made anyway; send_message needs an entity.
    services = sorted(
        name
        for name in hass.services.async_services_for_domain(NOTIFY_DOMAIN)
        if name not in ("send_message", "persistent_notification")
    )
    if current not in (REPORT_NOTIFY_NONE, *services):
        services.append(current)  # chosen before, gone now: still shown as chosen
    return selector.SelectSelector(
        selector.SelectSelectorConfig(
            options=[
                selector.SelectOptionDict(value=REPORT_NOTIFY_NONE, label=REPORT_NOTIFY_NONE),
                *(
                    selector.SelectOptionDict(value=name, label=f"{NOTIFY_DOMAIN}.{name}")
                    for name in services
                ),
            ],
            mode=selector.SelectSelectorMode.DROPDOWN,
            translation_key=CONF_REPORT_NOTIFY,
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
                CONF_REPORT_NOTIFY: str(user_input.get(CONF_REPORT_NOTIFY, REPORT_NOTIFY_NONE)),
            }
            if self._options[CONF_COMPAT_API]:
                return await self.async_step_compat_port()
            return self.async_create_entry(data=self._options)
        weather = str(options.get(CONF_WEATHER_ENTITY, WEATHER_AUTO))
        notify = str(options.get(CONF_REPORT_NOTIFY, REPORT_NOTIFY_NONE))
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
                probatio.Required(CONF_REPORT_NOTIFY, default=notify): _notify_selector(
                    self.hass, notify
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
            elif port != current and not await self.hass.async_add_executor_job(port_free, port):
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
