"""The health alerts in Home Assistant: thresholds from the options, figures, issues, events.

The service's health monitor finds what is wrong with the equipment behind each thermostat
(`server.core.watch.health`, docs/health.md); this is its one Home Assistant follower. For each
finding it raises a repair issue that names the thermostat and says what was seen, with the
figures in the user's units, and what to check first (`issues.py`); it fires
`thermostat_cloud_alert` when a finding opens and when it clears, with the same text in
Home Assistant's language, so an automation (the "Notify me of thermostat alerts" blueprint)
can tell a phone and take the notification back. The *Heating and cooling problem* binary
sensor reads the findings itself. The hub hands the monitor the outdoor temperature (the
weather entity's, `weather_source.py`), as it does the house model.

Findings open at start (kept across a restart by the service) raise their issues again
without an event: their event was fired when they opened.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
import logging
from typing import Any, Final

from homeassistant.components.climate.const import DOMAIN as CLIMATE_DOMAIN
from homeassistant.const import UnitOfTemperature
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import (
    device_registry as dr,
    entity_registry as er,
    issue_registry as ir,
    translation,
)
from homeassistant.util.unit_conversion import TemperatureConverter

from .const import CONF_ALERTS, DOMAIN, EVENT_ALERT
from .issues import async_health_alert, async_health_alert_cleared, health_issue_id
from .server import (
    DEFAULT_THRESHOLDS,
    EventKind,
    Finding,
    FindingKind,
    HealthThresholds,
    ServiceEvent,
    ThermostatService,
)

_LOGGER = logging.getLogger(__name__)

OPENED: Final = "opened"
CLEARED: Final = "cleared"
NOT_KNOWN: Final = "\u2013"  # an en dash
"""A figure the finding does not have (the outdoor temperature without a weather entity)."""

TEMPERATURE_FIGURES = frozenset({"room_start", "room_now", "outdoor", "limit", "lockout"})
"""Figures that are temperatures (°C in a finding), shown in the user's unit (not the limit of
short cycling: a number of starts)."""
PER_DEGREE_DAY_FIGURES = frozenset({"minutes_per_degree_day", "median_minutes_per_degree_day"})
"""Figures per degree-day: a Fahrenheit degree-day is 5/9 of a Celsius one."""
DEGREE_DAY_FIGURES = frozenset({"degree_days"})
"""Degree-days: 9/5 as many Fahrenheit ones."""

PLACEHOLDERS: Final[dict[FindingKind, tuple[str, ...]]] = {
    FindingKind.NOT_HEATING: ("minutes", "room_start", "room_now", "outdoor"),
    FindingKind.NOT_COOLING: ("minutes", "room_start", "room_now", "outdoor"),
    FindingKind.SHORT_CYCLING: ("starts_per_hour", "limit"),
    FindingKind.LONG_RUNTIME: (
        "runtime_minutes",
        "degree_days",
        "minutes_per_degree_day",
        "median_minutes_per_degree_day",
        "days",
    ),
    FindingKind.AUX_ABOVE_LOCKOUT: ("minutes", "outdoor", "lockout"),
    FindingKind.TOO_COLD: ("room_now", "limit", "outdoor"),
    FindingKind.TOO_HOT: ("room_now", "limit", "outdoor"),
    FindingKind.SILENT_IN_FROST: ("minutes", "outdoor", "limit"),
}
"""The figures each finding's text shows (besides the thermostat's `name`); one the finding
lacks (the outdoor temperature without a weather entity) shows as a dash."""

SEVERITY: Final[dict[FindingKind, ir.IssueSeverity]] = {
    FindingKind.NOT_HEATING: ir.IssueSeverity.ERROR,
    FindingKind.NOT_COOLING: ir.IssueSeverity.ERROR,
    FindingKind.SHORT_CYCLING: ir.IssueSeverity.WARNING,
    FindingKind.LONG_RUNTIME: ir.IssueSeverity.WARNING,
    FindingKind.AUX_ABOVE_LOCKOUT: ir.IssueSeverity.WARNING,
    FindingKind.TOO_COLD: ir.IssueSeverity.CRITICAL,
    FindingKind.TOO_HOT: ir.IssueSeverity.CRITICAL,
    FindingKind.SILENT_IN_FROST: ir.IssueSeverity.CRITICAL,
}
"""How urgent each finding is: a house freezing or overheating comes first."""


# -- the thresholds, from the hub's options ----------------------------------------------------


def thresholds_from_options(options: Mapping[str, Any]) -> HealthThresholds:
    """Return the thresholds the hub's options set (the defaults for what they leave out).

    The options' section holds the fields of `HealthThresholds`, temperatures in °C without
    the `_c`; the too-cold and too-hot ones are absent while the thermostats' own safety
    temperatures apply. Options saved by a version that had no alerts have none: the defaults. Values the service
    refuses (edited by hand) fall back to the defaults, said in the log.
    """
    alerts: Mapping[str, Any] = options.get(CONF_ALERTS) or {}
    try:
        return HealthThresholds(
            not_warming_minutes=int(
                alerts.get("not_warming_minutes", DEFAULT_THRESHOLDS.not_warming_minutes)
            ),
            max_starts_per_hour=int(
                alerts.get("max_starts_per_hour", DEFAULT_THRESHOLDS.max_starts_per_hour)
            ),
            long_runtime_factor=float(
                alerts.get("long_runtime_factor", DEFAULT_THRESHOLDS.long_runtime_factor)
            ),
            silent_minutes=int(alerts.get("silent_minutes", DEFAULT_THRESHOLDS.silent_minutes)),
            frost_outdoor_c=float(alerts.get("frost_outdoor", DEFAULT_THRESHOLDS.frost_outdoor_c)),
            too_cold_c=_celsius_or_none(alerts.get("too_cold")),
            too_hot_c=_celsius_or_none(alerts.get("too_hot")),
        )
    except (TypeError, ValueError) as err:
        _LOGGER.warning(
            "The alert thresholds in the options are not usable (%s); using the defaults. "
            "Set them again in the Thermostat Cloud options",
            err,
        )
        return DEFAULT_THRESHOLDS


def _celsius_or_none(value: Any) -> float | None:
    return None if value is None else float(value)


# -- what a finding says, in the user's units --------------------------------------------------


def _number(value: float) -> str:
    """Return a figure as people write it: at most one decimal, none when it is whole."""
    return f"{round(value, 1):g}"


@dataclass(frozen=True, slots=True)
class AlertText:
    """What a finding says: its issue's translation key and placeholders, and its figures."""

    translation_key: str
    placeholders: dict[str, str]
    figures: dict[str, float | int | str]
    """The finding's figures in the user's units (temperatures, per degree-day)."""


def _temperature_figures(kind: FindingKind) -> frozenset[str]:
    """Return the figures of a finding of `kind` that are temperatures."""
    # A short-cycling limit counts starts; every other limit is a temperature.
    if kind is FindingKind.SHORT_CYCLING:
        return TEMPERATURE_FIGURES - {"limit"}
    return TEMPERATURE_FIGURES


def shown_figures(hass: HomeAssistant, finding: Finding) -> dict[str, float | int | str]:
    """Return a finding's figures in Home Assistant's units, and `unit`, the temperature unit.

    What the event and the problem sensor's attributes carry.
    """
    unit = hass.config.units.temperature_unit
    temperatures = _temperature_figures(finding.kind)
    figures: dict[str, float | int | str] = {}
    for key, value in finding.figures.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            figures[key] = value
        elif key in temperatures:
            figures[key] = round(
                TemperatureConverter.convert(value, UnitOfTemperature.CELSIUS, unit), 1
            )
        elif key in PER_DEGREE_DAY_FIGURES and unit == UnitOfTemperature.FAHRENHEIT:
            figures[key] = round(value * 5 / 9, 1)
        elif key in DEGREE_DAY_FIGURES and unit == UnitOfTemperature.FAHRENHEIT:
            figures[key] = round(value * 9 / 5, 1)
        else:
            figures[key] = value
    figures["unit"] = unit
    return figures


def alert_text(hass: HomeAssistant, name: str, finding: Finding) -> AlertText:
    """Return what a finding of thermostat `name` says, in Home Assistant's units."""
    figures = shown_figures(hass, finding)
    temperatures = _temperature_figures(finding.kind)
    placeholders = {"name": name}
    for key in PLACEHOLDERS[finding.kind]:
        value = figures.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            placeholders[key] = NOT_KNOWN
        elif key in temperatures:
            placeholders[key] = f"{_number(value)} {figures['unit']}"
        else:
            placeholders[key] = _number(value)
    key = f"health_{finding.kind.value}"
    if finding.kind is FindingKind.SHORT_CYCLING:
        key = f"{key}_{'cooling' if finding.figures.get('cycle') == 'cooling' else 'heating'}"
    return AlertText(key, placeholders, figures)


# -- the follower ------------------------------------------------------------------------------


class HealthAlerts:
    """The findings of every thermostat as repair issues and events; the outdoor temperature.

    One per hub entry, started by the hub once the service runs.
    """

    def __init__(
        self,
        hass: HomeAssistant,
        entry_id: str,
        service: ThermostatService,
    ) -> None:
        """Initialize the follower of a hub entry's findings."""
        self.hass = hass
        self.entry_id = entry_id
        self.service = service
        self._raised: dict[str, dict[FindingKind, AlertText]] = {}
        """What each thermostat's raised issues say, by finding kind."""

    async def async_start(self) -> Callable[[], None]:
        """Raise the open findings' issues and follow the findings.

        Returns the function that stops following and clears the issues (they are raised
        again at the next start if the findings still hold).
        """
        # The events carry the issue's text: translated once here, read from the cache after.
        await translation.async_load_integrations(self.hass, {DOMAIN})
        for serial in self.service.health.serials_with_findings():
            self._update(serial, announce=False)
        stop_listening = self.service.events.listen(self._on_event)

        @callback
        def stop() -> None:
            stop_listening()
            for serial, raised in self._raised.items():
                for kind in raised:
                    async_health_alert_cleared(self.hass, serial, kind)
            self._raised.clear()

        return stop

    @callback
    def _on_event(self, event: ServiceEvent) -> None:
        if event.kind is EventKind.HEALTH:
            self._update(event.serial, announce=True)

    @callback
    def _update(self, serial: str, *, announce: bool) -> None:
        """Raise, refresh and clear the thermostat's issues as its findings now are.

        `announce`: fire the event for what opened and what cleared.
        """
        findings = {f.kind: f for f in self.service.health.findings(serial)}
        raised = self._raised.setdefault(serial, {})
        name = self.service.thermostat(serial).name
        for kind in [kind for kind in raised if kind not in findings]:
            text = raised.pop(kind)
            async_health_alert_cleared(self.hass, serial, kind)
            if announce:
                self._fire(serial, kind, CLEARED, text)
        for kind, finding in findings.items():
            text = alert_text(self.hass, name, finding)
            if raised.get(kind) == text:
                continue
            opened = kind not in raised
            raised[kind] = text
            async_health_alert(
                self.hass,
                serial,
                kind,
                text.translation_key,
                text.placeholders,
                severity=SEVERITY[kind],
            )
            if announce and opened:
                self._fire(serial, kind, OPENED, text)
        if not raised:
            del self._raised[serial]

    @callback
    def _fire(self, serial: str, kind: FindingKind, status: str, text: AlertText) -> None:
        """Fire `thermostat_cloud_alert`: which thermostat, what, the figures and the text."""
        device = dr.async_get(self.hass).async_get_device_by_identifier(
            (DOMAIN, serial), self.entry_id
        )
        entity_id = er.async_get(self.hass).async_get_entity_id(CLIMATE_DOMAIN, DOMAIN, serial)
        title, message = self._texts(text)
        self.hass.bus.async_fire(
            EVENT_ALERT,
            {
                "status": status,
                "kind": kind.value,
                "device_id": device.id if device is not None else None,
                "entity_id": entity_id,
                "name": text.placeholders["name"],
                "figures": text.figures,
                "title": title,
                "message": message,
                "issue_id": health_issue_id(serial, kind),
            },
        )

    def _texts(self, text: AlertText) -> tuple[str, str]:
        """Return the issue's title and description in Home Assistant's language."""
        texts = translation.async_get_cached_translations(
            self.hass, self.hass.config.language, "issues", DOMAIN
        )
        prefix = f"component.{DOMAIN}.issues.{text.translation_key}"
        return (
            texts.get(f"{prefix}.title", text.translation_key).format(**text.placeholders),
            texts.get(f"{prefix}.description", "").format(**text.placeholders),
        )
