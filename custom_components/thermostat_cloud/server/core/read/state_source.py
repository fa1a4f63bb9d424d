"""What the read model reads, read-only: so `ThermostatState` needs no service itself."""

from __future__ import annotations

from typing import Protocol

from ...model.buckets import BucketStore
from ...model.clock import Clock
from ...model.devices import DeviceRegistry
from ...model.pairing import PairingRegistry


class AvailabilityView(Protocol):
    """Whether a thermostat counts as there (see `availability.Availability`)."""

    def is_available(self, serial: str) -> bool: ...

    def subscribes_skv(self, serial: str) -> bool:
        """Whether it subscribed over firmware 4.x's transport since the start."""


class CommandsView(Protocol):
    """Whether a thermostat takes commands (see `confirmations.Confirmations`)."""

    def taking_commands(self, serial: str) -> bool: ...


class StateSource(Protocol):
    """What the read model reads: the service's stores, availability and a memo, read-only."""

    @property
    def buckets(self) -> BucketStore: ...

    @property
    def devices(self) -> DeviceRegistry:
        """Device records (last seen, what a thermostat reported at entry)."""

    @property
    def ownership(self) -> PairingRegistry:
        """Ownership records: a thermostat's home."""

    @property
    def availability(self) -> AvailabilityView: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def confirmations(self) -> CommandsView: ...

    @property
    def implausible_readings(self) -> set[tuple[str, str]]:
        """(serial, field) of reported values already logged as not shown as such.

        Numbers that are no reading; wire names of no known terminal (`hvac_wires <name>`).
        """
