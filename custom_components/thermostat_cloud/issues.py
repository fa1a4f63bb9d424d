"""Repair issues the integration raises about thermostats."""

from __future__ import annotations

from collections.abc import Callable

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir

from .const import DOMAIN
from .server import EventKind, ServiceEvent, ThermostatService


@callback
def async_warn(
    hass: HomeAssistant, issue_id: str, translation_key: str, **placeholders: str
) -> None:
    """Raise (or refresh) a warning the user can act on but that has no fix flow."""
    _async_raise(hass, issue_id, translation_key, placeholders, is_fixable=False)


@callback
def async_ask_for_code(
    hass: HomeAssistant, issue_id: str, translation_key: str, **placeholders: str
) -> None:
    """Raise (or refresh) a notice whose fix flow pairs a thermostat by its code.

    See `repairs.PairThermostatFlow`.
    """
    _async_raise(hass, issue_id, translation_key, placeholders, is_fixable=True)


@callback
def _async_raise(
    hass: HomeAssistant,
    issue_id: str,
    translation_key: str,
    placeholders: dict[str, str],
    *,
    is_fixable: bool,
) -> None:
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue_id,
        is_fixable=is_fixable,
        is_persistent=False,
        severity=ir.IssueSeverity.WARNING,
        translation_key=translation_key,
        translation_placeholders=placeholders,
    )


def firmware_issue_id(serial: str) -> str:
    """Return the repair issue of a thermostat whose firmware is too old to be controlled."""
    return f"firmware_too_old_{serial}"


@callback
def async_follow_firmware(hass: HomeAssistant, service: ThermostatService) -> Callable[[], None]:
    """Say in a repair issue when a thermostat runs firmware before 5.x.

    Such firmware (4.x) only PUTs empty heartbeats and never opens the connection changes
    are pushed on (NoLongerEvil-Thermostat issue #213): it shows up, but cannot be
    controlled. Returns the function that stops following and clears the issues.
    """
    raised: set[str] = set()

    @callback
    def update(serial: str) -> None:
        issue_id = firmware_issue_id(serial)
        version = (
            service.availability.firmware_too_old(serial) if serial in service.devices else None
        )
        if version is None:
            if issue_id in raised:
                raised.discard(issue_id)
                ir.async_delete_issue(hass, DOMAIN, issue_id)
            return
        raised.add(issue_id)
        async_warn(hass, issue_id, "firmware_too_old", serial=serial, version=version)

    @callback
    def on_event(event: ServiceEvent) -> None:
        if event.kind in (EventKind.FIRMWARE, EventKind.FORGOTTEN):
            update(event.serial)

    for record in service.devices.records():
        update(record.serial)
    stop_listening = service.events.listen(on_event)

    @callback
    def stop() -> None:
        stop_listening()
        for issue_id in raised:
            ir.async_delete_issue(hass, DOMAIN, issue_id)
        raised.clear()

    return stop
