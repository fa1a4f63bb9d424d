"""What the read model reads: the service's stores, availability and a memo, read-only.

The service builds the one `StateSource` from its private parts; `ThermostatState` (state.py)
and `HomeState` (here) take it, so neither needs the service itself. Outside the core they
come from the service's `thermostat()` and `home()`.
"""

from __future__ import annotations

from typing import Protocol

from ...model.buckets import BucketStore
from ...model.clock import Clock
from ...model.devices import DeviceRegistry
from ...model.pairing import PairingRegistry
from .readings import home_away


class AvailabilityView(Protocol):
    """Whether a thermostat counts as there (see `availability.Availability`)."""

    def is_available(self, serial: str) -> bool:
        """Return whether the device is available."""

    def subscribes_skv(self, serial: str) -> bool:
        """Whether it subscribed over firmware 4.x's transport since the start."""


class CommandsView(Protocol):
    """Whether a thermostat takes commands (see `confirmations.Confirmations`)."""

    def taking_commands(self, serial: str) -> bool:
        """Return False while the thermostat is found not taking commands."""


class StateSource(Protocol):
    """What the read model reads: the service's stores, availability and a memo, read-only."""

    @property
    def buckets(self) -> BucketStore:
        """Every bucket."""

    @property
    def devices(self) -> DeviceRegistry:
        """Device records (last seen, what a thermostat reported at entry)."""

    @property
    def ownership(self) -> PairingRegistry:
        """Ownership records: a thermostat's home."""

    @property
    def availability(self) -> AvailabilityView:
        """Whether a thermostat counts as there."""

    @property
    def clock(self) -> Clock:
        """The service's clock."""

    @property
    def confirmations(self) -> CommandsView:
        """Whether each thermostat takes commands."""

    @property
    def implausible_readings(self) -> set[tuple[str, str]]:
        """(serial, field) of reported numbers already logged as no reading."""


class HomeState:
    """Read access to one home (a structure): its thermostats and whether it is away."""

    __slots__ = ("source", "structure_id")

    def __init__(self, source: StateSource, structure_id: str) -> None:
        """Initialize read access to the home of this structure id (the service's read source)."""
        self.source = source
        self.structure_id = structure_id

    @property
    def serials(self) -> list[str]:
        """The thermostats paired into the home, in the order they were paired."""
        return self.source.ownership.serials_in(self.structure_id)

    @property
    def away(self) -> bool:
        """Whether the home is away (see `home_away`)."""
        return home_away(self.source.buckets, self.structure_id)
