"""What the core-only benches share: pairing in the core, and a part taken off the paths it hears.

`runtime_cost` and `house_model` time the device session's PUT with a listening part of the
service (the runtime ledger, the house model) and without it, in alternating rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from custom_components.thermostat_cloud.server import ServiceEvent, ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry


class Listening(Protocol):
    """A part of the service that hears every contact and every event."""

    def note_contact(self, serial: str) -> None:
        """Note a request of the thermostat."""

    def _on_event(self, event: ServiceEvent) -> None: ...


def pair(service: ThermostatService, serial: str, shared: Mapping[str, Any]) -> IdentityClaim:
    """Report `shared` as the thermostat, pair it; return its identity for later PUTs."""
    claim = IdentityClaim(user_id=f"d.{serial}.bench", password="bench", address="127.0.0.9")
    service.sessions.put(claim, [PutEntry(f"shared.{serial}", dict(shared), None, 0)])
    key, _ = service._ownership.issue(serial)
    assert service.register(key.value, None).success
    return claim


def unhook(service: ThermostatService, part: Listening) -> Callable[[], None]:
    """Take the part off the contact path and the bus; return what puts it back."""
    availability_listeners = service._availability._contact_listeners
    bus_listeners = service.events._listeners
    note_contact, on_event = part.note_contact, part._on_event
    availability_listeners.remove(note_contact)
    bus_listeners.remove(on_event)

    def rehook() -> None:
        availability_listeners.append(note_contact)
        bus_listeners.append(on_event)

    return rehook
