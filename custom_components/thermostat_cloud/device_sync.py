"""Keeps what Home Assistant knows of each thermostat in step with what it reports.

Three pieces follow a thermostat with entities, each declaring the fields and aspects it reads
as entities do; the coordinator calls each through its change filter (`reads_changed`) only
for an event that changed them, so a temperature-only report costs none of them:
- its device: the name given on it or its room's, its firmware version, model and MAC;
- the others of its room: thermostats of a room without a name of their own are numbered in
  the order they were paired ("Living Room (2)"), so one joining, leaving, moving or taking a
  name renames the others;
- its equipment and errors: repair issues, and the sensors of equipment it reports enabled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
import re
from typing import Any

from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr

from .const import DOMAIN
from .equipment import EQUIPMENT_READS, async_enable_reported_equipment, reported_equipment
from .issues import async_equipment_known, async_equipment_unknown, async_thermostat_errors
from .server import EventKind, ServiceEvent, ThermostatService

NAME_READS = frozenset(
    {
        # `reported_name`.
        "shared.name",
        "device.name",
        # `room`: the room chosen on the thermostat, named by its fixed id or by the home's
        # `where` bucket (a room the user named), in the home its pairing puts it in.
        "device.where_id",
        "where",
        EventKind.PAIRING,
    }
)
"""What `ThermostatState.display_name` reads of one thermostat (its place in a room's
numbering reads the others' names and rooms too)."""

DEVICE_READS = NAME_READS | {
    # `software_version` when the thermostat never said it at entry.
    "device.current_version",
    # A new version said at entry or on a request.
    EventKind.FIRMWARE,
    # Model and MAC address are noted at entry, which publishes nothing of its own; firmware
    # subscribes right after it (a MAC-identified one is resolved by that subscribe).
    EventKind.CONNECTION,
}
"""What the thermostat's device in the device registry shows."""

MAC_RE = re.compile(r"(?:[0-9a-f]{2}:){5}[0-9a-f]{2}")


def mac_connection(service: ThermostatService, serial: str) -> tuple[str, str] | None:
    """Return the device registry connection of the thermostat's MAC address.

    Return the device registry connection of the MAC address the thermostat reported in
    `/svc/entry`, when that is a MAC address (it is whatever the request said).
    """
    record = service.devices.record(serial)
    if record is None or not record.mac:
        return None
    mac = dr.format_mac(record.mac)
    return (dr.CONNECTION_NETWORK_MAC, mac) if MAC_RE.fullmatch(mac) else None


@dataclass(frozen=True, slots=True)
class SyncPiece:
    """One piece of the follow-up and what it reads."""

    reads: frozenset[str]
    run: Callable[[str], None]
    """Called with the serial of the thermostat whose event changed what it reads."""

    def __call__(self, event: ServiceEvent) -> None:
        """Follow up an event that changed what the piece reads."""
        self.run(event.serial)


class DeviceSync:
    """The follow-up of the thermostats of one hub entry that have entities."""

    def __init__(self, hass: HomeAssistant, entry_id: str, service: ThermostatService) -> None:
        """Initialize the follow-up of a hub entry's service."""
        self.hass = hass
        self.entry_id = entry_id
        self.service = service
        self._equipment: dict[str, frozenset[tuple[Platform, str]]] = {}
        """Equipment entities last seen reported per followed thermostat, to enable new ones
        once; its keys are the thermostats followed."""
        self._due: set[str] = set()
        """Followed thermostats whose device is refreshed at the end of this loop turn."""
        self.pieces = (
            SyncPiece(NAME_READS, self._refresh_others),
            SyncPiece(DEVICE_READS, self._refresh_own),
            SyncPiece(EQUIPMENT_READS, self._follow_equipment),
        )
        """What the coordinator calls for every thermostat's events that change what one
        reads (see `ThermostatCoordinator.listen_home`)."""

    def follow(self, serial: str) -> None:
        """Start following a thermostat (its first entity was added)."""
        if serial not in self._equipment:
            self._equipment[serial] = frozenset()
            self._follow_equipment(serial)

    def forget(self, serial: str) -> None:
        """Stop following a thermostat (its last entity was removed): its issues go too."""
        if self._equipment.pop(serial, None) is not None:
            async_equipment_known(self.hass, serial)
            async_thermostat_errors(self.hass, serial, {})

    def _refresh_own(self, serial: str) -> None:
        self._refresh_soon({serial})

    def _refresh_others(self, serial: str) -> None:
        """Refresh the devices of the other followed thermostats (their names may change)."""
        self._refresh_soon(set(self._equipment) - {serial})

    def _refresh_soon(self, serials: set[str]) -> None:
        """Refresh these devices once the request or command at hand is handled.

        A device request publishes as it goes (entry says a new version before it notes the
        model; one PUT of several buckets is one event each): refreshed after it, the device
        is written once, with all of it.
        """
        if not (followed := serials & self._equipment.keys()):
            return
        if not self._due:
            self.hass.loop.call_soon(self._refresh_due)
        self._due |= followed

    def _refresh_due(self) -> None:
        due, self._due = self._due, set()
        for serial in due & self._equipment.keys():
            self._refresh_device(serial)

    def _follow_equipment(self, serial: str) -> None:
        """Follow what the thermostat said it can do and its errors: repair issues, sensors.

        Firmware sends its complete state (what it can heat, cool, its fan...) only after
        it restarts; against a new server it reports changes. Until it has said what it can
        do, Home Assistant offers heating only and a repair issue asks for one restart; once
        it has, the sensors of the equipment it has are enabled.
        """
        if (known := self._equipment.get(serial)) is None:
            return
        thermostat = self.service.thermostat(serial)
        # What a technician needs first: the error the thermostat shows, quoted.
        async_thermostat_errors(self.hass, serial, thermostat.reported_errors)
        if thermostat.equipment_reported:
            async_equipment_known(self.hass, serial)
            equipment = reported_equipment(thermostat)
            if new := equipment - known:
                async_enable_reported_equipment(self.hass, serial, new)
            self._equipment[serial] = equipment
        else:
            async_equipment_unknown(self.hass, serial)

    def _refresh_device(self, serial: str) -> None:
        """Update the thermostat's device from what the thermostat last reported.

        Firmware version, model and MAC address as the thermostat last reported them in
        `/svc/entry` (the MAC may be learned after pairing; known connections are kept), and
        the name given on the thermostat, else its room's (a name the user gave in Home
        Assistant still wins: it is `name_by_user`, which this leaves alone).
        """
        registry = dr.async_get(self.hass)
        device = registry.async_get_device_by_identifier((DOMAIN, serial), self.entry_id)
        if device is None:
            return
        state = self.service.thermostat(serial)
        changes: dict[str, Any] = {}
        if (device.sw_version, device.model) != (state.software_version, state.model):
            changes.update(sw_version=state.software_version, model=state.model)
        if (name := state.display_name) is not None and device.name != name:
            changes["name"] = name
        if (connection := mac_connection(self.service, serial)) is not None and (
            connection not in device.connections
        ):
            # The whole set: Home Assistant 2026.11 reports `merge_connections` as deprecated.
            changes["new_connections"] = device.connections | {connection}
        if changes:
            registry.async_update_device(device.id, **changes)
