"""The hub's options: pairing codes, the open control API, the weather, the alerts' limits.

The health alerts' thresholds are a collapsed section of the first step.

The listener's port is asked on a second step, only when the listener is turned on.
"""

from __future__ import annotations

import logging
from typing import Any

from homeassistant.components.notify.const import DOMAIN as NOTIFY_DOMAIN
from homeassistant.components.weather.const import DOMAIN as WEATHER_DOMAIN
from homeassistant.config_entries import ConfigFlowResult, OptionsFlow
from homeassistant.const import UnitOfTemperature
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import section
from homeassistant.helpers import selector
from homeassistant.util.unit_conversion import TemperatureConverter
import probatio

from .alerts import thresholds_from_options
from .const import (
    CONF_ALERTS,
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
from .server import (
    MIN_LONG_RUNTIME_FACTOR,
    MIN_NOT_WARMING_MINUTES,
    MIN_SILENT_MINUTES,
    MIN_STARTS_PER_HOUR,
    TEMPERATURE_LIMITS_C,
    HealthThresholds,
)

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


def _box(step: float, unit: str | None = None) -> selector.NumberSelector:
    """Return a number typed in a box (its limits are checked by `_alerts_error`, in words)."""
    config = selector.NumberSelectorConfig(step=step, mode=selector.NumberSelectorMode.BOX)
    if unit is not None:
        config["unit_of_measurement"] = unit
    return selector.NumberSelector(config)


class AlertsForm:
    """The alerts section: the thresholds in the user's temperature unit, stored in °C."""

    def __init__(self, hass: HomeAssistant) -> None:
        """Initialize in Home Assistant's temperature unit."""
        self.unit = hass.config.units.temperature_unit

    def _shown(self, celsius: float) -> float:
        return round(TemperatureConverter.convert(celsius, UnitOfTemperature.CELSIUS, self.unit), 1)

    def _celsius(self, value: float) -> float:
        return round(TemperatureConverter.convert(value, self.unit, UnitOfTemperature.CELSIUS), 2)

    def section(self, thresholds: HealthThresholds) -> section:
        """Return the section, filled with the thresholds in force.

        The too-cold and too-hot fields are empty while the thermostats' own safety
        temperatures apply.
        """
        fields: dict[Any, Any] = {
            probatio.Required("not_warming_minutes", default=thresholds.not_warming_minutes): _box(
                1, "min"
            ),
            probatio.Required("max_starts_per_hour", default=thresholds.max_starts_per_hour): _box(
                1
            ),
            probatio.Required("long_runtime_factor", default=thresholds.long_runtime_factor): _box(
                0.1
            ),
            probatio.Required("silent_minutes", default=thresholds.silent_minutes): _box(1, "min"),
            probatio.Required(
                "frost_outdoor", default=self._shown(thresholds.frost_outdoor_c)
            ): _box(0.5, self.unit),
        }
        for name, celsius in (
            ("too_cold", thresholds.too_cold_c),
            ("too_hot", thresholds.too_hot_c),
        ):
            suggested = {} if celsius is None else {"suggested_value": self._shown(celsius)}
            fields[probatio.Optional(name, description=suggested)] = _box(0.5, self.unit)
        return section(probatio.Schema(fields), {"collapsed": True})

    def placeholders(self) -> dict[str, str]:
        """Return the limits the error texts name, in the user's unit."""
        low, high = (f"{self._shown(celsius):g} {self.unit}" for celsius in TEMPERATURE_LIMITS_C)
        return {
            "min_not_warming": str(MIN_NOT_WARMING_MINUTES),
            "min_silent": str(MIN_SILENT_MINUTES),
            "min_starts": str(MIN_STARTS_PER_HOUR),
            "min_factor": f"{MIN_LONG_RUNTIME_FACTOR:g}",
            "min_temperature": low,
            "max_temperature": high,
        }

    def options(self, user_input: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
        """Return the options of what was typed (°C), or the error that refuses it."""
        alerts: dict[str, Any] = {
            "not_warming_minutes": round(float(user_input["not_warming_minutes"])),
            "max_starts_per_hour": round(float(user_input["max_starts_per_hour"])),
            "long_runtime_factor": float(user_input["long_runtime_factor"]),
            "silent_minutes": round(float(user_input["silent_minutes"])),
            "frost_outdoor": self._celsius(float(user_input["frost_outdoor"])),
        }
        for name in ("too_cold", "too_hot"):
            if user_input.get(name) is not None:
                alerts[name] = self._celsius(float(user_input[name]))
        return alerts, _alerts_error(alerts)


def _alerts_error(alerts: dict[str, Any]) -> str | None:
    """Return the error (a translation key) of thresholds the service would refuse, or None."""
    low, high = TEMPERATURE_LIMITS_C
    temperatures = [
        alerts[name] for name in ("frost_outdoor", "too_cold", "too_hot") if name in alerts
    ]
    for error, refused in (
        ("not_warming_too_short", alerts["not_warming_minutes"] < MIN_NOT_WARMING_MINUTES),
        ("silent_too_short", alerts["silent_minutes"] < MIN_SILENT_MINUTES),
        ("starts_too_few", alerts["max_starts_per_hour"] < MIN_STARTS_PER_HOUR),
        ("factor_too_small", alerts["long_runtime_factor"] < MIN_LONG_RUNTIME_FACTOR),
        ("temperature_out_of_range", any(not low <= t <= high for t in temperatures)),
        (
            "cold_not_below_hot",
            "too_cold" in alerts
            and "too_hot" in alerts
            and alerts["too_cold"] >= alerts["too_hot"],
        ),
    ):
        if refused:
            return error
    return None


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
        options: dict[str, Any] = dict(self.config_entry.options)
        errors: dict[str, str] = {}
        alerts_form = AlertsForm(self.hass)
        if user_input is not None and CONF_ALERTS in user_input:
            alerts, error = alerts_form.options(user_input[CONF_ALERTS])
            if error is not None:
                _LOGGER.warning("The alert thresholds were refused (%s): %s", error, alerts)
                errors["base"] = error
            else:
                options = {**options, CONF_ALERTS: alerts}
        if user_input is not None and not errors:
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
                # Optional: a form sent without it (an older client) keeps the thresholds.
                probatio.Optional(CONF_ALERTS): alerts_form.section(
                    thresholds_from_options(options)
                ),
            }
        )
        if user_input is not None:
            # Refused: the form again with what was typed.
            schema = self.add_suggested_values_to_schema(schema, user_input)
        return self.async_show_form(
            step_id="init",
            data_schema=schema,
            errors=errors,
            description_placeholders=alerts_form.placeholders(),
            last_step=False,
        )

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
