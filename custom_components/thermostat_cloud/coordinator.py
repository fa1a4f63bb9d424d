"""Routes service events to the entities of each thermostat, and follows its availability.

The service publishes every change once, on one event bus, in the loop turn of the write
(device PUT, inline subscribe update, command, pairing, connection open/close, availability
timer); each event says what it changed (`ServiceEvent.changed`). The coordinator is that bus's
one Home Assistant listener: it hands each event to the listeners of its thermostat that read
what it changed (`reads_changed`, the one change filter), logs availability changes once per
thermostat (not once per entity), and calls the pieces of the device sync (`device_sync.py`:
the device registry, room names, equipment) through the same filter, as it calls the home's
entities. It is push-only, not a `DataUpdateCoordinator`: nothing is polled.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
import logging

from homeassistant.core import HomeAssistant, callback

from .device_sync import DeviceSync
from .server import HOME, ServiceEvent, ThermostatService

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
        self._device_sync = DeviceSync(hass, entry_id, service)
        self._home_listeners: list[_Listener] = []
        """Listeners of the home (the hub's entities, the device sync): the home's own events
        (its vacations, which name no thermostat) and every thermostat's."""

    @callback
    def async_start(self) -> Callable[[], None]:
        """Follow the service's events and sync the devices; returns the function that stops it."""
        stops = [self.listen_home(piece, piece.reads) for piece in self._device_sync.pieces]
        stops.append(self.service.events.listen(self._on_event))

        @callback
        def stop() -> None:
            for stop_one in stops:
                stop_one()

        return stop

    @callback
    def listen(
        self, serial: str, call: ThermostatListener, reads: frozenset[str] | None
    ) -> Callable[[], None]:
        """Call `call` with each event about one thermostat that changes what it `reads`.

        See `reads_changed`; returns the remover.
        """
        self._available.setdefault(serial, self.service.devices.is_available(serial))
        listener = _Listener(call, reads)
        self._listeners[serial].append(listener)
        self._device_sync.follow(serial)

        @callback
        def remove() -> None:
            listeners = self._listeners.get(serial)
            if listeners is not None and listener in listeners:
                listeners.remove(listener)
                if not listeners:
                    del self._listeners[serial]
                    self._available.pop(serial, None)
                    self._device_sync.forget(serial)

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
        if listeners := self._listeners.get(event.serial):
            self._call(listeners, event, self._changed(event))

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

    def _note_availability(self, serial: str) -> bool:
        """Return whether the thermostat's availability changed (logging that it did)."""
        available = self.service.devices.is_available(serial)
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
