"""Keep thermostat subentries and the service's pairings in step.

A pairing can start in the UI (the subentry flow) or through the control API's
`POST /api/register`; it can end by removing the subentry or through the hosted API's DELETE.
Whichever side moves, the other follows: pairings without a subentry get one, removed
subentries unpair, and unpaired thermostats that make contact are announced as a repair issue.
"""

from __future__ import annotations

import logging
from types import MappingProxyType

from homeassistant.config_entries import ConfigSubentry
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.dispatcher import async_dispatcher_send

from .const import (
    CONF_SERIAL,
    DOMAIN,
    SUBENTRY_THERMOSTAT,
    signal_thermostat_added,
    unpaired_issue_id,
)
from .hub import Hub, ThermostatCloudConfigEntry
from .server import EventKind, RegisterResult, ServiceEvent, ThermostatService

_LOGGER = logging.getLogger(__name__)


def thermostat_subentries(entry: ThermostatCloudConfigEntry) -> dict[str, str]:
    """Serial -> subentry id of every thermostat subentry."""
    return {
        subentry.data[CONF_SERIAL]: subentry_id
        for subentry_id, subentry in entry.subentries.items()
        if subentry.subentry_type == SUBENTRY_THERMOSTAT
    }


def thermostat_title(serial: str) -> str:
    """Default title of a thermostat subentry."""
    return f"Thermostat {serial}"


class PairingSync:
    """Mirrors service pairings into subentries and back."""

    def __init__(self, hass: HomeAssistant, entry: ThermostatCloudConfigEntry, hub: Hub) -> None:
        self.hass = hass
        self.entry = entry
        self.hub = hub
        self.known_subentries: set[str] = set()
        """Subentries whose entities the platforms have; set by async_start."""
        self._flow_pairing = False

    @property
    def service(self) -> ThermostatService:
        """The running service."""
        return self.hub.service

    @callback
    def pair_from_flow(self, code: str, user_id: str | None = None) -> RegisterResult:
        """Claim a code for the "Add thermostat" flow, which then creates its own subentry.

        `user_id` (a Home Assistant user) owns the thermostat; None: the home does.
        """
        self._flow_pairing = True
        try:
            return self.service.register(code, user_id)
        finally:
            self._flow_pairing = False

    @callback
    def async_start(self) -> None:
        """Reconcile once after setup, then follow service events.

        The subentries are the user's word: while the hub runs, every pairing gets its
        subentry in the same loop turn, so a stored pairing without one means the user deleted
        the thermostat while the hub was not loaded, and it is unpaired now.
        """
        subentries = thermostat_subentries(self.entry)
        for pairing in self.service.pairings.pairings():
            if pairing.serial not in subentries:
                _LOGGER.info(
                    "Thermostat %s was deleted while Thermostat Cloud was not running; "
                    "unpairing it",
                    pairing.serial,
                )
                self.service.unpair(pairing.serial)
        for serial in subentries:
            if not self.service.is_paired(serial):
                _LOGGER.warning(
                    "Thermostat %s has a subentry but no pairing in the stored state; remove "
                    "it and add it again with a new code",
                    serial,
                )
        # The platforms, set up next, add the entities of these; later changes announce only
        # subentries added after this point.
        self.known_subentries = set(self.entry.subentries)
        self.entry.async_on_unload(self.hub.listen(self._on_event))

    @callback
    def _on_event(self, event: ServiceEvent) -> None:
        if event.kind is EventKind.UNPAIRED_CONTACT:
            ir.async_create_issue(
                self.hass,
                DOMAIN,
                unpaired_issue_id(event.serial),
                is_fixable=False,
                is_persistent=False,
                severity=ir.IssueSeverity.WARNING,
                translation_key="unpaired_thermostat",
                translation_placeholders={"serial": event.serial},
            )
        elif event.kind is EventKind.PAIRING:
            if self.service.is_paired(event.serial):
                ir.async_delete_issue(self.hass, DOMAIN, unpaired_issue_id(event.serial))
                if not self._flow_pairing:
                    self._ensure_subentry(event.serial)
            elif (subentry_id := thermostat_subentries(self.entry).get(event.serial)) is not None:
                # Unpaired elsewhere (hosted API DELETE): the subentry, its device and
                # entities go too.
                self.hass.config_entries.async_remove_subentry(self.entry, subentry_id)

    @callback
    def _ensure_subentry(self, serial: str) -> None:
        if serial in thermostat_subentries(self.entry):
            return
        self.hass.config_entries.async_add_subentry(
            self.entry,
            ConfigSubentry(
                data=MappingProxyType({CONF_SERIAL: serial}),
                subentry_type=SUBENTRY_THERMOSTAT,
                title=thermostat_title(serial),
                unique_id=serial,
            ),
        )

    @callback
    def async_subentries_changed(self) -> None:
        """The entry's subentries changed: announce new ones, unpair removed ones."""
        current = set(self.entry.subentries)
        for subentry_id in current - self.known_subentries:
            async_dispatcher_send(
                self.hass, signal_thermostat_added(self.entry.entry_id), subentry_id
            )
        self.known_subentries = current
        subentries = thermostat_subentries(self.entry)
        for pairing in self.service.pairings.pairings():
            if pairing.serial not in subentries:
                self.service.unpair(pairing.serial)
