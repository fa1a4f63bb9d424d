"""Routes service events to the entities of each thermostat, and follows its availability.

The service publishes every change once, on one event bus, in the loop turn of the write
(device PUT, inline subscribe update, command, pairing, connection open/close, availability
timer); each event says what it changed (`ServiceEvent.changed`). The coordinator is that bus's
one Home Assistant listener: it hands each event to the listeners of its thermostat that read
what it changed (`reads_changed`, the one change filter), logs availability changes once per
thermostat (not once per entity), keeps the device registry's name, firmware version, model and
MAC address current, says in a repair issue when a thermostat has not reported its equipment
yet, and enables the sensors of equipment it reports later. It is push-only, not a
`DataUpdateCoordinator`: nothing is polled.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
import logging
import re
from typing import Any

from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import device_registry as dr

from .const import DOMAIN
from .equipment import async_enable_reported_equipment, reported_equipment
from .issues import async_equipment_known, async_equipment_unknown, async_thermostat_errors
from .server import HOME, EventKind, ServiceEvent, ThermostatService

_LOGGER = logging.getLogger(__name__)

type ThermostatListener = Callable[[ServiceEvent], None]

AVAILABILITY = "availability"
"""The aspect of a change of the thermostat's availability, which the coordinator notes: every
entity reads it."""


def reads_changed(reads: frozenset[str] | None, changed: frozenset[str]) -> bool:
    """Return whether a listener reading `reads` must hear of a change of `changed`: the filter.

    `reads` names bucket fields as events do (`shared.target_temperature`), whole buckets by
    type (`schedule`) and aspects (`availability`, `pairing`, `connection`, `firmware`);
    None reads everything. `changed` holds the bucket types of its fields too (see
    `ThermostatCoordinator._changed`).
    """
    return reads is None or not reads.isdisjoint(changed)


def _with_bucket_types(event: ServiceEvent) -> frozenset[str]:
    """Return what an event changed, with the bucket types of its fields (`shared`)."""
    changed = event.changed
    if event.fields:
        changed |= {name.partition(".")[0] for name in event.fields}
    return changed


@dataclass(frozen=True, slots=True, eq=False)
class _Listener:
    """A listener of one thermostat and what it reads (each one itself: removed by identity)."""

    call: ThermostatListener
    reads: frozenset[str] | None


MAC_RE = re.compile(r"(?:[0-9a-f]{2}:){5}[0-9a-f]{2}")


def mac_connection(service: ThermostatService, serial: str) -> tuple[str, str] | None:
    """Return the device registry connection of the thermostat's MAC address.

    Return the device registry connection of the MAC address the thermostat reported in
    `/svc/entry`, when that is a MAC address (it is whatever the request said).
    """
    record = service.device(serial)
    if record is None or not record.mac:
        return None
    mac = dr.format_mac(record.mac)
    return (dr.CONNECTION_NETWORK_MAC, mac) if MAC_RE.fullmatch(mac) else None


class ThermostatCoordinator:
    """One per hub entry: the service-event fan-out to entities, keyed by serial."""

    def __init__(self, hass: HomeAssistant, entry_id: str, service: ThermostatService) -> None:
        """Initialize the coordinator of a hub entry's service."""
        self.hass = hass
        self.entry_id = entry_id
        self.service = service
        self._listeners: defaultdict[str, list[_Listener]] = defaultdict(list)
        self._available: dict[str, bool] = {}
        """Last availability seen per thermostat with entities, to log changes only."""
        self._rooms: dict[str, str | None] = {}
        """Last room seen per thermostat, to rename the others of a room when it moves."""
        self._equipment: dict[str, frozenset[tuple[Platform, str]]] = {}
        """Equipment sensors last seen reported per thermostat, to enable new ones once."""
        self._home_listeners: list[_Listener] = []
        """Listeners of the home (the hub's entities): the home's own events (its vacations,
        which name no thermostat) and every thermostat's."""

    @callback
    def async_start(self) -> Callable[[], None]:
        """Follow the service's events; returns the function that stops it."""
        return self.service.events.listen(self._on_event)

    @callback
    def listen(
        self, serial: str, call: ThermostatListener, reads: frozenset[str] | None
    ) -> Callable[[], None]:
        """Call `call` with each event about one thermostat that changes what it `reads`.

        See `reads_changed`; returns the remover.
        """
        self._available.setdefault(serial, self.service.is_available(serial))
        listener = _Listener(call, reads)
        self._listeners[serial].append(listener)

        self._follow_equipment(serial)

        @callback
        def remove() -> None:
            listeners = self._listeners.get(serial)
            if listeners is not None and listener in listeners:
                listeners.remove(listener)
                if not listeners:
                    del self._listeners[serial]
                    self._available.pop(serial, None)
                    self._rooms.pop(serial, None)
                    self._equipment.pop(serial, None)
                    async_equipment_known(self.hass, serial)
                    async_thermostat_errors(self.hass, serial, {})

        return remove

    @callback
    def listen_home(
        self, call: ThermostatListener, reads: frozenset[str] | None
    ) -> Callable[[], None]:
        """Call `call` with each event about the home or any thermostat that changes what it `reads`.

        For the home's entities: the home's own events (its vacations, which name no
        thermostat) and every thermostat's (a home-scoped bucket's change comes once per
        thermostat of the home; an entity writes its state only when what it shows changed).
        Returns the remover.
        """
        listener = _Listener(call, reads)
        self._home_listeners.append(listener)

        @callback
        def remove() -> None:
            if listener in self._home_listeners:
                self._home_listeners.remove(listener)

        return remove

    @callback
    def _on_event(self, event: ServiceEvent) -> None:
        if self._home_listeners:
            self._call(self._home_listeners, event, _with_bucket_types(event))
        if event.serial == HOME:
            return
        listeners = self._listeners.get(event.serial)
        if event.kind is EventKind.PAIRING or (
            listeners and event.kind is EventKind.STATE and self._room_changed(event.serial)
        ):
            # Thermostats of a room are numbered in the order they were paired ("Living Room
            # (2)"): one joining, leaving or unpaired can change the others' names.
            for serial in tuple(self._listeners):
                if serial != event.serial:
                    self._refresh_device(serial)
        if not listeners:
            return
        changed = self._changed(event)
        if event.kind in (EventKind.CONNECTION, EventKind.STATE):
            self._refresh_device(event.serial)
        if event.kind is EventKind.STATE:
            self._follow_equipment(event.serial)
        self._call(listeners, event, changed)

    @staticmethod
    def _call(listeners: list[_Listener], event: ServiceEvent, changed: frozenset[str]) -> None:
        """Call the listeners that read what the event changed."""
        for listener in tuple(listeners):
            if not reads_changed(listener.reads, changed):
                continue
            try:
                listener.call(event)
            except Exception:
                # One entity's failure must not keep the event from the others.
                _LOGGER.exception("Entity of thermostat %s failed on %s", event.serial, event)

    def _changed(self, event: ServiceEvent) -> frozenset[str]:
        """Return what an event changed, with the bucket types of its fields and availability."""
        changed = _with_bucket_types(event)
        if self._note_availability(event.serial):
            changed |= {AVAILABILITY}
        return changed

    def _follow_equipment(self, serial: str) -> None:
        """Follow what the thermostat said it can do and its errors: repair issues, sensors.

        Firmware sends its complete state (what it can heat, cool, its fan...) only after
        it restarts; against a new server it reports changes. Until it has said what it can
        do, Home Assistant offers heating only and a repair issue asks for one restart; once
        it has, the sensors of the equipment it has are enabled.
        """
        thermostat = self.service.thermostat(serial)
        # What a technician needs first: the error the thermostat shows, quoted.
        async_thermostat_errors(self.hass, serial, thermostat.reported_errors)
        if thermostat.equipment_reported:
            async_equipment_known(self.hass, serial)
            equipment = reported_equipment(thermostat)
            if new := equipment - self._equipment.get(serial, frozenset()):
                async_enable_reported_equipment(self.hass, serial, new)
            self._equipment[serial] = equipment
        else:
            async_equipment_unknown(self.hass, serial)

    def _note_availability(self, serial: str) -> bool:
        """Return whether the thermostat's availability changed (logging that it did)."""
        available = self.service.is_available(serial)
        if self._available.get(serial) == available:
            return False
        self._available[serial] = available
        if available:
            _LOGGER.info("Thermostat %s is back online", serial)
        else:
            _LOGGER.info(
                "Thermostat %s is unavailable: no held connection and no contact for %d s",
                serial,
                int(self.service.config.availability_grace),
            )
        return True

    def _room_changed(self, serial: str) -> bool:
        """Return whether the thermostat's room changed since the last look (noting it)."""
        room = self.service.thermostat(serial).room
        if serial in self._rooms and self._rooms[serial] == room:
            return False
        self._rooms[serial] = room
        return True

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
