"""Keep thermostat subentries and the service's pairings in step, also across a crash.

A pairing can start in the UI (the subentry flow) or through the control API's
`POST /api/register`; it can end by removing the subentry or through the hosted API's DELETE.
Whichever side moves, the other follows: pairings without a subentry get one, removed
subentries unpair, and unpaired thermostats that make contact are announced as repair issues
whose fix flow asks for the code (one each for the first few, then one for all of them) and as
discovered thermostats on the integration's page.

After a crash the two stores can disagree: the service saves its state before a pairing or
unpairing is acknowledged, while Home Assistant saves config entries (so subentries) about a
second after they change. Start-up therefore reconciles towards the service's store, the
newer of the two, using its pairing journal (`server/model/pairing.py`):

- a pairing whose subentry Home Assistant has not been seen to save gets its subentry again
  (the pairing was acknowledged; the subentry was lost in the crash);
- a pairing whose subentry was saved once and is gone now is unpaired (the subentry was
  removed while the hub was not loaded, or the unpairing did not reach the disk);
- a subentry of a thermostat the service unpaired (its tombstone) is removed (the unpairing,
  from the hosted API or from removing the subentry, was saved; the subentry's removal was
  not).

A subentry counts as saved by Home Assistant once the hub is set up with it (config entries
are loaded from disk at start, and a reload happens long after Home Assistant's one-second
save), fails to start with it, or is unloaded with it outside a Home Assistant stop.
"""

from __future__ import annotations

import logging
from types import MappingProxyType

from homeassistant.config_entries import (
    SOURCE_INTEGRATION_DISCOVERY,
    ConfigEntry,
    ConfigSubentry,
)
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers import device_registry as dr, discovery_flow
from homeassistant.helpers.dispatcher import async_dispatcher_send

from .const import (
    CONF_SERIAL,
    DOMAIN,
    MAX_DISCOVERED_THERMOSTATS,
    SUBENTRY_THERMOSTAT,
    signal_thermostat_added,
)
from .issues import UnpairedIssues
from .server import EventKind, PairingOrigin, RegisterResult, ServiceEvent, ThermostatService

_LOGGER = logging.getLogger(__name__)


def thermostat_subentries(entry: ConfigEntry) -> dict[str, str]:
    """Return serial -> subentry id of every thermostat subentry."""
    return {
        subentry.data[CONF_SERIAL]: subentry_id
        for subentry_id, subentry in entry.subentries.items()
        if subentry.subentry_type == SUBENTRY_THERMOSTAT
    }


def thermostat_title(serial: str) -> str:
    """Title of a thermostat subentry until its device is named (and the device's fallback)."""
    return f"Thermostat {serial}"


NAME_FIELDS = frozenset({"name", "name_by_user"})


@callback
def _device_named(data: dr.EventDeviceRegistryUpdatedData) -> bool:
    """Return whether a device registry event may have given a device another name."""
    return data["action"] == "create" or (
        data["action"] == "update" and not NAME_FIELDS.isdisjoint(data["changes"])
    )


@callback
def note_saved_subentries(
    hass: HomeAssistant, entry: ConfigEntry, service: ThermostatService
) -> None:
    """Note the thermostat subentries as saved when the hub unloads or fails to start.

    The hub unloads (disabled, reloaded) or fails to start (its port is taken): its subentries
    were saved long ago, so a pairing whose subentry is removed while the hub is not loaded is
    unpaired at the next setup, not added again. Not on a Home Assistant stop: a pairing made in
    its last second may not have its subentry saved, and the next start sees what was. The
    caller saves (the service's stop does).
    """
    if hass.is_stopping:
        return
    for serial in thermostat_subentries(entry):
        service.pairing.note_mirror(serial, saved=True)


class PairingSync:
    """Mirrors service pairings into subentries and back."""

    def __init__(self, hass: HomeAssistant, entry: ConfigEntry, service: ThermostatService) -> None:
        """Initialize from the hub entry and its service."""
        self.hass = hass
        self.entry = entry
        self.service = service
        self.known_subentries: set[str] = set()
        """Subentries whose entities the platforms have; set by async_start."""
        self._subentry_serials: set[str] = set()
        """Serials that had a thermostat subentry at the last look."""
        self._unpaired_issues = UnpairedIssues(hass)
        self._discovered: set[str] = set()
        """Serials of the waiting thermostats a discovered flow was started for."""

    async def async_pair_from_flow(self, code: str, user_id: str | None = None) -> RegisterResult:
        """Claim a code for the "Add thermostat" flow, which then creates its own subentry.

        `user_id` (a Home Assistant user) owns the thermostat; None: the home does. Returns
        once the pairing is on disk, so the subentry the flow creates is never the only
        record of it.
        """
        result = self.service.pairing.register(code, user_id, origin=PairingOrigin.FLOW)
        if result.success:
            await self.service.async_flush()
        return result

    @callback
    def async_start(self) -> None:
        """Reconcile once after setup (see the module docstring), then follow service events."""
        service = self.service
        journal_changed = False
        subentries = thermostat_subentries(self.entry)
        for pairing in service.pairing.records():
            serial = pairing.serial
            if serial in subentries:
                journal_changed |= service.pairing.note_mirror(serial, saved=True)
            elif pairing.mirror_saved:
                _LOGGER.info(
                    "Thermostat %s was deleted while Thermostat Cloud was not running; "
                    "unpairing it",
                    serial,
                )
                self.service.pairing.unpair(serial)
            else:
                _LOGGER.info(
                    "Thermostat %s was paired just before Home Assistant stopped without "
                    "saving it; adding it again",
                    serial,
                )
                self.ensure_subentry(serial)
        tombstones = set(service.pairing.unpaired_serials())
        for serial, subentry_id in thermostat_subentries(self.entry).items():
            if self.service.pairing.is_paired(serial):
                continue
            if serial in tombstones:
                _LOGGER.info(
                    "Thermostat %s was unpaired just before Home Assistant stopped without "
                    "saving it; removing it",
                    serial,
                )
                self.hass.config_entries.async_remove_subentry(self.entry, subentry_id)
            else:
                _LOGGER.warning(
                    "Thermostat %s has a subentry but no pairing in the stored state; remove "
                    "it and add it again with a new code",
                    serial,
                )
        for serial in tombstones - subentries.keys():
            journal_changed |= service.pairing.note_mirror(serial, saved=False)
        if journal_changed:
            self.service.save_now_later()
        # The platforms, set up next, add the entities of these; later changes announce only
        # subentries added after this point.
        self.known_subentries = set(self.entry.subentries)
        self._subentry_serials = set(thermostat_subentries(self.entry))
        self._update_unpaired_issues()
        self.entry.async_on_unload(self.service.events.listen(self._on_event))
        self.entry.async_on_unload(self.abort_discovered_flows)
        self._follow_device_names()

    @callback
    def _follow_device_names(self) -> None:
        """Title each thermostat's subentry as its device is named, now and at every rename.

        The integration's page lists a subentry above its device: both read "Living Room",
        not "Thermostat <serial>" above "Living Room". The device is renamed when the
        thermostat's room or name changes (the coordinator) or by the user (`name_by_user`,
        which wins); a subentry stored with the old default title is retitled here at start.
        """
        registry = dr.async_get(self.hass)
        for device in dr.async_entries_for_config_entry(registry, self.entry.entry_id):
            self._title_as(device)

        @callback
        def renamed(event: Event[dr.EventDeviceRegistryUpdatedData]) -> None:
            if (device := registry.async_get(event.data["device_id"])) is not None:
                self._title_as(device)

        self.entry.async_on_unload(
            self.hass.bus.async_listen(
                dr.EVENT_DEVICE_REGISTRY_UPDATED, renamed, event_filter=_device_named
            )
        )

    @callback
    def _title_as(self, device: dr.DeviceEntry | dr.ChildDeviceEntry) -> None:
        """Title the subentry of the device's thermostat (if it is one of ours) as it is named."""
        if device.config_entry_id != self.entry.entry_id:
            return
        subentry = self.entry.subentries.get(device.config_subentry_id or "")
        title = device.name_by_user or device.name
        if subentry is not None and subentry.subentry_type == SUBENTRY_THERMOSTAT and title:
            self.hass.config_entries.async_update_subentry(self.entry, subentry, title=title)

    @callback
    def _on_event(self, event: ServiceEvent) -> None:
        if event.kind in (EventKind.UNPAIRED_CONTACT, EventKind.FORGOTTEN):
            self._update_unpaired_issues()
        elif event.kind is EventKind.PAIRING:
            if self.service.pairing.is_paired(event.serial):
                if event.origin is not PairingOrigin.FLOW:
                    self.ensure_subentry(event.serial)
            elif (subentry_id := thermostat_subentries(self.entry).get(event.serial)) is not None:
                # Unpaired elsewhere (hosted API DELETE): the subentry, its device and
                # entities go too.
                self.hass.config_entries.async_remove_subentry(self.entry, subentry_id)
            self._update_unpaired_issues()

    @callback
    def _update_unpaired_issues(self) -> None:
        """Announce the thermostats waiting for pairing: repair notices, discovered flows."""
        waiting = self.service.devices.waiting_for_pairing()
        self._unpaired_issues.async_update(waiting, self.service.config.max_unpaired_devices)
        self._update_discovered_flows(waiting[:MAX_DISCOVERED_THERMOSTATS])

    @callback
    def _update_discovered_flows(self, waiting: list[str]) -> None:
        """Show each waiting thermostat where Home Assistant shows newly found devices.

        A discovered flow per thermostat on the integration's page leads to its code; it goes
        away once the thermostat is paired by any path or forgotten. A thermostat the user
        chose to ignore has an ignored entry by its serial, which aborts its flow at once.
        """
        flows = self.hass.config_entries.flow.async_progress_by_handler(
            DOMAIN, match_context={"source": SOURCE_INTEGRATION_DISCOVERY}
        )
        shown = set()
        for flow in flows:
            serial = flow["context"].get("unique_id")
            if serial in waiting:
                shown.add(serial)
            else:
                self.hass.config_entries.flow.async_abort(flow["flow_id"])
        for serial in waiting:
            if serial not in shown and serial not in self._discovered:
                discovery_flow.async_create_flow(
                    self.hass,
                    DOMAIN,
                    context={"source": SOURCE_INTEGRATION_DISCOVERY},
                    data={CONF_SERIAL: serial},
                )
        # Announced once per waiting spell: a flow the user dismissed is not raised again.
        self._discovered = set(waiting)

    @callback
    def abort_discovered_flows(self) -> None:
        """Abort the discovered thermostats' flows (the hub unloads: they could not pair)."""
        self._discovered = set()
        for flow in self.hass.config_entries.flow.async_progress_by_handler(
            DOMAIN, match_context={"source": SOURCE_INTEGRATION_DISCOVERY}
        ):
            self.hass.config_entries.flow.async_abort(flow["flow_id"])

    @callback
    def ensure_subentry(self, serial: str) -> None:
        """Add the subentry of a paired thermostat unless it has one.

        The flows that pair outside "Add thermostat" (a repair notice's fix flow, a
        discovered thermostat) add it here.
        """
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

    async def async_subentries_changed(self) -> None:
        """Handle a change of the entry's subentries: announce new ones, unpair removed ones.

        Only thermostats whose subentry was there and is gone now are unpaired: a pairing
        from the flow has no subentry yet while its save is written, and must keep it.
        """
        current = set(self.entry.subentries)
        # Noted before the announcement: adding the entities creates the device, whose name
        # retitles the subentry, whose update listener runs this again at once (eager tasks).
        added, self.known_subentries = current - self.known_subentries, current
        for subentry_id in added:
            async_dispatcher_send(
                self.hass, signal_thermostat_added(self.entry.entry_id), subentry_id
            )
        serials = set(thermostat_subentries(self.entry))
        removed, self._subentry_serials = self._subentry_serials - serials, serials
        for serial in removed:
            if self.service.pairing.unpair(serial):
                await self.service.async_flush()
