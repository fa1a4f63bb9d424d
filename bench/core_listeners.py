"""What the core-only benches share: pairing in the core, and a part taken off the paths it hears.

`runtime_cost` and `house_model` time the device session's PUT with a listening part of the
service (the runtime ledger, the house model) and without it, in alternating rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry
from custom_components.thermostat_cloud.server.core.events import Follower


class Listening(Follower, Protocol):
    """A part of the service that hears every contact and follows changes."""

    def note_contact(self, serial: str) -> None:
        """Note a request of the thermostat."""


def pair(service: ThermostatService, serial: str, shared: Mapping[str, Any]) -> IdentityClaim:
    """Report `shared` as the thermostat, pair it; return its identity for later PUTs."""
    claim = IdentityClaim(user_id=f"d.{serial}.bench", password="bench", address="127.0.0.9")
    service.sessions.put(claim, [PutEntry(f"shared.{serial}", dict(shared), None, 0)])
    key, _ = service._ownership.issue(serial)
    assert service.register(key.value, None).success
    return claim


def unhook(service: ThermostatService, part: Listening) -> Callable[[], None]:
    """Take the part off the contact path and the followers; return what puts it back."""
    availability_listeners = service._availability._contact_listeners
    followers = service._followers
    note_contact = part.note_contact
    availability_listeners.remove(note_contact)
    place = followers.index(part)
    followers.remove(part)

    def rehook() -> None:
        availability_listeners.append(note_contact)
        followers.insert(place, part)

    return rehook
