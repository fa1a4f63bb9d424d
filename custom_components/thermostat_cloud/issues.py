"""Every repair issue the integration raises: its id, when it is raised and when cleared.

The fix flows of the fixable ones live in `repairs.py`, the platform Home Assistant loads
for them. They need the loaded hub and the pairing form, while these issues are raised by the
hub's own parts (pairing sync, coordinator, the open control API), which the hub imports: one
module for both would tie those parts back to the hub.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
import errno
from typing import Final

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir, translation

from .const import DOMAIN, TROUBLESHOOTING_URL
from .server import (
    LOW_BATTERY_V,
    Cause,
    EventKind,
    ServiceEvent,
    ThermostatService,
    Trouble,
)

ISSUE_COMPAT_API: Final = "compat_api_open"
"""The open control API listens without authentication; its fix flow turns it off."""
ISSUE_COMPAT_PORT: Final = "compat_port_unavailable"
"""The open control API's port cannot be used."""
ISSUE_UNPAIRED_THERMOSTATS: Final = "waiting_for_pairing"
"""One repair issue for all unpaired thermostats, once there are more than a few."""
MAX_UNPAIRED_ISSUES: Final = 3
"""Unpaired thermostats announced with a repair issue each; more share one issue."""


PORT_CAUSES: Final = {
    errno.EADDRINUSE: "port_in_use",
    errno.EACCES: "port_permission_denied",
    errno.EPERM: "port_permission_denied",
    errno.EADDRNOTAVAIL: "port_address_unavailable",
}
"""Why a port cannot be listened on, by the system's error: the key of its words (`common`)."""


def port_cause(hass: HomeAssistant, error: OSError) -> str:
    """Return why a port cannot be listened on, in Home Assistant's language.

    The system's own text is English: the callers log it; the user reads this.
    """
    key = PORT_CAUSES.get(error.errno or 0, "port_refused")
    texts = translation.async_get_cached_translations(hass, hass.config.language, "common", DOMAIN)
    return texts.get(f"component.{DOMAIN}.common.{key}", key)


def unpaired_issue_id(serial: str) -> str:
    """Return the repair issue announcing a thermostat that contacted the server unpaired."""
    return f"unpaired_{serial}"


def firmware_issue_id(serial: str) -> str:
    """Return the repair issue of a thermostat whose firmware is too old to be controlled."""
    return f"firmware_too_old_{serial}"


def commands_issue_id(serial: str) -> str:
    """Return the repair issue of a thermostat that is not taking commands."""
    return f"not_taking_commands_{serial}"


def equipment_issue_id(serial: str) -> str:
    """Return the repair issue of a thermostat that has not reported its equipment."""
    return f"equipment_unknown_{serial}"


@callback
def _async_raise(
    hass: HomeAssistant,
    issue_id: str,
    translation_key: str,
    placeholders: dict[str, str],
    *,
    is_fixable: bool = False,
    severity: ir.IssueSeverity = ir.IssueSeverity.WARNING,
    data: dict[str, str | int | float | None] | None = None,
    learn_more_url: str | None = None,
) -> None:
    """Raise (or refresh) an issue; not persistent: each start raises what still holds."""
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue_id,
        is_fixable=is_fixable,
        is_persistent=False,
        severity=severity,
        translation_key=translation_key,
        translation_placeholders=placeholders,
        data=data,
        learn_more_url=learn_more_url,
    )


@callback
def async_delete_all_issues(hass: HomeAssistant) -> None:
    """Delete every issue of the integration (it is being removed)."""
    for domain, issue_id in list(ir.async_get(hass).issues):
        if domain == DOMAIN:
            ir.async_delete_issue(hass, DOMAIN, issue_id)


# -- the open control API -------------------------------------------------------------------


@callback
def async_open_control_api_off(hass: HomeAssistant) -> None:
    """Clear the open control API's issues: the option is off."""
    ir.async_delete_issue(hass, DOMAIN, ISSUE_COMPAT_API)
    ir.async_delete_issue(hass, DOMAIN, ISSUE_COMPAT_PORT)


@callback
def async_open_control_api_port_unavailable(
    hass: HomeAssistant, port: int, error: OSError
) -> Callable[[], None]:
    """Say that the open control API cannot listen; returns the function that clears it.

    The rest of the hub works: a repair issue, not a failed setup. Changing the options
    reloads the hub, which clears it and raises it again if the port is still taken.
    """
    _async_raise(
        hass,
        ISSUE_COMPAT_PORT,
        ISSUE_COMPAT_PORT,
        {"port": str(port), "cause": port_cause(hass, error)},
        severity=ir.IssueSeverity.ERROR,
    )
    return lambda: ir.async_delete_issue(hass, DOMAIN, ISSUE_COMPAT_PORT)


@callback
def async_open_control_api_listening(
    hass: HomeAssistant, port: int, entry_id: str
) -> Callable[[], None]:
    """Warn while the open control API listens; returns the function that clears it.

    Its fix flow (`repairs.CloseCompatApiFlow`) turns the option off.
    """
    ir.async_delete_issue(hass, DOMAIN, ISSUE_COMPAT_PORT)
    _async_raise(
        hass,
        ISSUE_COMPAT_API,
        ISSUE_COMPAT_API,
        {"port": str(port)},
        is_fixable=True,
        data={"entry_id": entry_id},
    )
    return lambda: ir.async_delete_issue(hass, DOMAIN, ISSUE_COMPAT_API)


# -- thermostats waiting to be paired -------------------------------------------------------


class UnpairedIssues:
    """The notices of thermostats waiting to be paired, each with a fix flow asking the code.

    One per waiting thermostat while there are few; beyond that, one that counts them, so
    made-up serials cannot flood the repairs dashboard. See `repairs.PairThermostatFlow`.
    """

    def __init__(self, hass: HomeAssistant) -> None:
        """Initialize from the notices still raised (a reload keeps them)."""
        self.hass = hass
        self._raised = {
            issue_id
            for domain, issue_id in ir.async_get(hass).issues
            if domain == DOMAIN and issue_id.startswith(unpaired_issue_id(""))
        }
        """Issue ids of the thermostats announced one by one."""

    @callback
    def async_update(self, waiting: list[str], limit: int) -> None:
        """Announce the `waiting` thermostats; `limit` is how many the service keeps."""
        announced = waiting if len(waiting) <= MAX_UNPAIRED_ISSUES else []
        wanted = {unpaired_issue_id(serial): serial for serial in announced}
        for issue_id in self._raised - wanted.keys():
            ir.async_delete_issue(self.hass, DOMAIN, issue_id)
        for issue_id, serial in wanted.items():
            if issue_id not in self._raised:
                _async_raise(
                    self.hass, issue_id, "unpaired_thermostat", {"serial": serial}, is_fixable=True
                )
        self._raised = set(wanted)
        if len(waiting) > MAX_UNPAIRED_ISSUES:
            _async_raise(
                self.hass,
                ISSUE_UNPAIRED_THERMOSTATS,
                "unpaired_thermostats",
                {
                    "count": str(len(waiting)),
                    "limit": str(limit),
                    "individual": str(MAX_UNPAIRED_ISSUES),
                },
                is_fixable=True,
            )
        else:
            ir.async_delete_issue(self.hass, DOMAIN, ISSUE_UNPAIRED_THERMOSTATS)


# -- what a thermostat's firmware can do ----------------------------------------------------


def thermostat_error_issue_id(serial: str) -> str:
    """Return the repair issue of a thermostat that reports an error (`error_code`...)."""
    return f"thermostat_error_{serial}"


@callback
def async_thermostat_errors(hass: HomeAssistant, serial: str, errors: dict[str, str]) -> None:
    """Quote the errors a thermostat reports in a repair issue; clear it when there are none.

    `errors`: the text of `error_code` and `wiring_error` by field, only those not empty.
    """
    issue_id = thermostat_error_issue_id(serial)
    if not errors:
        ir.async_delete_issue(hass, DOMAIN, issue_id)
        return
    error = "; ".join(f"{field}: {text}" for field, text in errors.items())
    existing = ir.async_get(hass).async_get_issue(DOMAIN, issue_id)
    if existing is None or (existing.translation_placeholders or {}).get("error") != error:
        _async_raise(hass, issue_id, "thermostat_error", {"serial": serial, "error": error})


@callback
def async_equipment_unknown(hass: HomeAssistant, serial: str) -> None:
    """Ask for one restart of a thermostat that has not said what it can heat or cool."""
    issue_id = equipment_issue_id(serial)
    if ir.async_get(hass).async_get_issue(DOMAIN, issue_id) is None:
        _async_raise(hass, issue_id, "equipment_unknown", {"serial": serial})


@callback
def async_equipment_known(hass: HomeAssistant, serial: str) -> None:
    """Clear the restart notice: the thermostat reported its equipment, or has no entities."""
    ir.async_delete_issue(hass, DOMAIN, equipment_issue_id(serial))


type Wanted = tuple[str, dict[str, str], ir.IssueSeverity] | None
"""An issue's translation key, placeholders and severity while it is wanted, else None."""


@callback
def _async_follow(
    hass: HomeAssistant,
    service: ThermostatService,
    *,
    kinds: frozenset[EventKind],
    serials: Iterable[str],
    issue_id: Callable[[str], str],
    wanted: Callable[[str], Wanted],
    learn_more_url: str | None = None,
) -> Callable[[], None]:
    """Keep one repair issue per thermostat raised exactly while `wanted` says so.

    Checked for `serials` now and for a thermostat whenever an event of `kinds` names it.
    `learn_more_url`: the page the issue's "Learn more" opens.
    Returns the function that stops following and clears the issues.
    """
    raised: set[str] = set()

    @callback
    def update(serial: str) -> None:
        found = issue_id(serial)
        issue = wanted(serial)
        if issue is None:
            if found in raised:
                raised.discard(found)
                ir.async_delete_issue(hass, DOMAIN, found)
            return
        raised.add(found)
        key, placeholders, severity = issue
        _async_raise(
            hass, found, key, placeholders, severity=severity, learn_more_url=learn_more_url
        )

    @callback
    def on_event(event: ServiceEvent) -> None:
        if event.kind in kinds:
            update(event.serial)

    for serial in serials:
        update(serial)
    stop_listening = service.events.listen(on_event)

    @callback
    def stop() -> None:
        stop_listening()
        for found in raised:
            ir.async_delete_issue(hass, DOMAIN, found)
        raised.clear()

    return stop


@callback
def async_follow_firmware(hass: HomeAssistant, service: ThermostatService) -> Callable[[], None]:
    """Say in a repair issue when a thermostat on firmware 4.x only sends heartbeats.

    Such a thermostat PUTs empty heartbeats and has not opened the connection changes are
    pushed on (NoLongerEvil-Thermostat issue #213): it shows up, but cannot be controlled.
    4.x that subscribes over its own transport is controlled and raises nothing. Returns the
    function that stops following and clears the issues.
    """

    def wanted(serial: str) -> Wanted:
        version = (
            service.devices.firmware_too_old(serial)
            if service.devices.record(serial) is not None
            else None
        )
        if version is None:
            return None
        placeholders = {"serial": serial, "version": version}
        return "firmware_too_old", placeholders, ir.IssueSeverity.WARNING

    return _async_follow(
        hass,
        service,
        kinds=frozenset({EventKind.FIRMWARE, EventKind.FORGOTTEN}),
        serials=[record.serial for record in service.devices.records()],
        issue_id=firmware_issue_id,
        wanted=wanted,
        learn_more_url=TROUBLESHOOTING_URL,
    )


# -- a thermostat that does not take commands -----------------------------------------------


def commands_placeholders(service: ThermostatService, trouble: Trouble) -> dict[str, str]:
    """Return the values a "not taking commands" text shows, none of them words to translate.

    Times are milliseconds since the epoch, which the texts show with the ICU date and time
    formats (`{sent, date, medium}`): Home Assistant's frontend writes them in the reader's
    language. `sent` is when the oldest setting still waiting was sent. A value a cause's text
    does not show may be absent from the thermostat: each has a stand-in that is no word.
    """
    serial = trouble.serial
    name = service.thermostat(serial).name
    sent_ms = min(
        (pending.since_ms for pending in service.delivery.pending(serial)),
        default=trouble.since_ms,
    )
    voltage = trouble.battery_voltage
    unknown = "\N{EN DASH}"
    return {
        "name": name,
        # The name falls back to the serial: then the serial once.
        "thermostat": serial if name == serial else f"{name} ({serial})",
        "sent": str(sent_ms),
        # Never seen at all: not in touch since the setting was sent either.
        "last_seen": str(trouble.last_seen_ms or sent_ms),
        "voltage": f"{voltage:.2f}" if voltage is not None else unknown,
        "threshold": f"{LOW_BATTERY_V:.1f}",
        "version": trouble.firmware or unknown,
    }


@callback
def async_follow_commands(hass: HomeAssistant, service: ThermostatService) -> Callable[[], None]:
    """Say in a repair issue when a thermostat is not taking commands, and the likely cause.

    Raised when the service finds a command overdue (`Confirmations`), cleared as soon as it
    takes commands again. The issue's text is that of its most likely cause, each with what
    to do. Returns the function that stops following and clears the issues.
    """

    def wanted(serial: str) -> Wanted:
        trouble = service.delivery.trouble(serial)
        if trouble is None:
            return None
        return (
            f"not_taking_commands_{trouble.causes[0].value}",
            commands_placeholders(service, trouble),
            ir.IssueSeverity.ERROR,
        )

    return _async_follow(
        hass,
        service,
        kinds=frozenset({EventKind.COMMANDS}),
        serials=service.delivery.troubled(),
        issue_id=commands_issue_id,
        wanted=wanted,
        learn_more_url=TROUBLESHOOTING_URL,
    )


COMMANDS_CAUSES: Final = tuple(cause.value for cause in Cause)
"""The causes a repair issue can name, each its own text (`not_taking_commands_<cause>`)."""


# -- what the health monitor finds wrong with the equipment ------------------------------------


def health_issue_id(serial: str, kind: str) -> str:
    """Return the repair issue of one health finding (`FindingKind`) of a thermostat."""
    return f"health_{kind}_{serial}"


@callback
def async_health_alert(
    hass: HomeAssistant,
    serial: str,
    kind: str,
    translation_key: str,
    placeholders: dict[str, str],
    *,
    severity: ir.IssueSeverity,
) -> None:
    """Raise (or refresh, with new figures) the repair issue of a health finding.

    Its text names the thermostat, says what was seen and what to check first; it clears
    by itself when the finding does (`async_health_alert_cleared`). See `alerts.py`.
    """
    _async_raise(
        hass, health_issue_id(serial, kind), translation_key, placeholders, severity=severity
    )


@callback
def async_health_alert_cleared(hass: HomeAssistant, serial: str, kind: str) -> None:
    """Clear the repair issue of a health finding: its cause is gone."""
    ir.async_delete_issue(hass, DOMAIN, health_issue_id(serial, kind))


# -- a followed room without a reading --------------------------------------------------------


def room_issue_id(serial: str) -> str:
    """Return the repair issue of a thermostat whose followed room sensors give no reading."""
    return f"room_sensors_unavailable_{serial}"


@callback
def async_follow_room_sensors(
    hass: HomeAssistant,
    service: ThermostatService,
    serials: Iterable[str],
    sensors_of: Callable[[str], str],
    name_of: Callable[[str], str],
) -> Callable[[], None]:
    """Say in a repair issue when a thermostat fell back from its room sensors to its own reading.

    Raised 15 minutes after the last usable reading (`room_follow.ROOM_STALE_MS`), cleared by
    itself as soon as one comes back. Returns the function that stops following.
    """

    def wanted(serial: str) -> Wanted:
        if not service.rooms.view(serial).lost:
            return None
        placeholders = {"name": name_of(serial), "sensors": sensors_of(serial)}
        return "room_sensors_unavailable", placeholders, ir.IssueSeverity.WARNING

    return _async_follow(
        hass,
        service,
        kinds=frozenset({EventKind.ROOM}),
        serials=serials,
        issue_id=room_issue_id,
        wanted=wanted,
    )
