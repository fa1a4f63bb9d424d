"""The narrow faces of the service's parts that the host and the surfaces may use.

`ThermostatService` hands these out instead of its parts: each lists what a caller outside
the core does with the commands, holds, vacations, the runtime ledger, the house model and
API keys, and leaves out the service's own business with them (loading, saving, timers,
forgetting a thermostat, the raw write path). Three faces gather the read side of several
parts: `DevicesFacet` (records, the roster, availability), `PairingFacet` (ownership and
pairing) and `DeliveryFacet` (what each thermostat was sent and has not confirmed).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from contextlib import AbstractContextManager
from datetime import date, datetime, timedelta
from typing import Any, Protocol

from ..delivery.ledger import Delivery
from ..model.api_keys import ApiKey, CreatedKey, Scope
from ..model.devices import DeviceRecord, DeviceRegistry
from ..model.pairing import Pairing, PairingRegistry
from .device.availability import Availability
from .device.pairing import HomePairing, RegisterResult
from .device.roster import Roster
from .events import PairingOrigin
from .firmware.trouble import Trouble
from .home.arrivals import Arrival
from .home.holds import Hold
from .home.vacations import Vacation
from .read.command_errors import CommandResult
from .watch.health import Finding, HealthThresholds
from .watch.house_model import Estimate
from .watch.runtime import Rates, RuntimeFigures
from .write.changes import Authoring, Change
from .write.confirmations import Confirmations, PendingField


class CommandsFacet(Protocol):
    """The user commands (see `commands.Commands`): each validated, each through the write path.

    The raw `Commands.apply` (a thermostat's report merged as it is) is not here: it is the
    device sessions' and the core's own.
    """

    def acting_as(self, author: Authoring) -> AbstractContextManager[None]: ...

    def last_change(self, serial: str) -> Change | None: ...

    def set_temperature(
        self, serial: str, value: object, mode: str | None = None
    ) -> CommandResult: ...

    def set_setpoints(
        self,
        serial: str,
        target: object = None,
        low: object = None,
        high: object = None,
        *,
        mode: str | None = None,
    ) -> CommandResult: ...

    def set_temperature_range(
        self, serial: str, low: object, high: object, *, switch_to_range: bool = False
    ) -> CommandResult: ...

    def set_mode(self, serial: str, mode: object) -> CommandResult: ...

    def set_away(self, serial: str, away: object) -> CommandResult: ...

    def set_home_away(
        self, structure_id: str, away: object, writer: str | None = None
    ) -> CommandResult: ...

    def set_eco(self, serial: str, enabled: object) -> CommandResult: ...

    def set_eco_temperatures(self, serial: str, low: object, high: object) -> CommandResult: ...

    def set_fan(
        self, serial: str, mode: object = None, duration: object = None
    ) -> CommandResult: ...

    def set_temperature_lock(
        self,
        serial: str,
        enabled: object,
        pin_hash_value: object = None,
        temp_min: object = None,
        temp_max: object = None,
        *,
        pin: object = None,
    ) -> CommandResult: ...

    def set_schedule(
        self, serial: str, schedule: object, *, turn_off_learning: object = None
    ) -> CommandResult: ...

    def set_schedule_mode(self, serial: str, mode: object) -> CommandResult: ...

    def set_device_setting(self, serial: str, name: object, value: object) -> CommandResult: ...

    def filter_replaced(self, serial: str) -> CommandResult: ...

    def set_preset(self, serial: str, preset: object) -> CommandResult: ...

    def set_target_humidity(self, serial: str, percent: object) -> CommandResult: ...


class HoldsFacet(Protocol):
    """A thermostat's hold: start one, end it, read it (see `holds.Holds`)."""

    def hold_of(self, serial: str) -> Hold | None: ...

    def hold(
        self,
        serial: str,
        *,
        temperature: object = None,
        low: object = None,
        high: object = None,
        until: datetime | None = None,
        duration: timedelta | None = None,
        until_next_change: bool = False,
    ) -> Hold: ...

    def resume_schedule(self, serial: str) -> None: ...


class VacationsFacet(Protocol):
    """The home's vacations: plan, change, cancel, list (see `vacations.Vacations`)."""

    def vacations(self) -> list[Vacation]:
        """Return every vacation, the earliest first."""

    def get(self, vacation_id: str) -> Vacation | None: ...

    def return_ms(self, vacation: Vacation) -> int:
        """Return when the home comes back from this vacation (its thermostats heat ahead)."""

    def add(
        self,
        start: datetime,
        end: datetime,
        *,
        eco_low: object = None,
        eco_high: object = None,
        summary: str = "",
    ) -> Vacation:
        """Add a vacation; refused (with nothing changed) when it is wrong."""

    def update(
        self,
        vacation_id: str,
        start: datetime,
        end: datetime,
        *,
        eco_low: object = None,
        eco_high: object = None,
        summary: str = "",
    ) -> Vacation:
        """Change a vacation (all of it); refused when it is wrong or unknown."""

    def delete(self, vacation_id: str) -> None:
        """Delete a vacation; one under way ends now."""


class ArrivalsFacet(Protocol):
    """The home's arrival: plan, cancel, read (see `arrivals.Arrivals`)."""

    def arrival(self) -> Arrival | None:
        """Return the planned arrival, None when there is none."""

    def start_ms(self) -> int | None:
        """Return when the home leaves eco for the arrival (Unix ms), None without one."""

    def set(self, when: datetime | None = None, *, travel: timedelta | None = None) -> Arrival:
        """Plan the arrival at `when` or `travel` from now; refused when it is wrong."""

    def cancel(self) -> None:
        """Cancel the arrival, if one is planned."""


class RuntimeFacet(Protocol):
    """How long each thermostat's equipment ran (see `runtime.RuntimeLedger`)."""

    def figures(self, serial: str) -> RuntimeFigures: ...

    def set_rates(self, serial: str, rates: Rates) -> None: ...

    def note_shown(
        self,
        serial: str,
        seconds: Mapping[str, float],
        cycles: Mapping[str, int],
        energy: Mapping[str, float],
    ) -> None:
        """Note the totals the host has shown, so they never go down."""


class DaysFacet(Protocol):
    """Each thermostat's days and the home's weather by day (see `days.DayLedger`)."""

    def report(self, serial: str, first: date, last: date) -> dict[str, Any]: ...

    def local_date(self, ms: int) -> date:
        """Return the home's date at a time (Unix ms)."""

    def note_outdoor(self, celsius: float | None) -> None:
        """Take the outdoor temperature now (None: not known; the last one stands a while)."""

    @property
    def reported_month(self) -> str | None: ...

    def mark_reported(self, month: str) -> None: ...


class HouseModelFacet(Protocol):
    """Each thermostat's house model (see `house_model.HouseModel`)."""

    @property
    def outdoor(self) -> float | None:
        """The outdoor temperature (°C) last told, None when none is known."""

    def estimate(self, serial: str, kind: str, outdoor: float | None = None) -> Estimate:
        """Return a rate (°C/h) at an outdoor temperature, the last told by default."""

    def note_outdoor(self, celsius: float | None) -> None: ...


class HealthFacet(Protocol):
    """What is found wrong with the equipment behind each thermostat (see `health_monitor`).

    A thermostat's findings changing is published as a HEALTH event naming it.
    """

    @property
    def thresholds(self) -> HealthThresholds:
        """The thresholds the findings are raised at (the service config's `health`)."""

    def findings(self, serial: str) -> tuple[Finding, ...]:
        """Return the thermostat's findings, in the order of `FindingKind`."""

    def serials_with_findings(self) -> list[str]: ...

    def raised_between(self, serial: str, start: datetime, end: datetime) -> dict[str, int]:
        """Count the thermostat's findings raised from `start` to before `end`, by kind."""

    def note_outdoor(self, celsius: float | None) -> None:
        """Note the home's outdoor temperature now (None: not known, no outdoor finding)."""


class ApiKeysFacet(Protocol):
    """The hosted API's keys (see `model.api_keys.ApiKeyStore`)."""

    def records(self) -> list[ApiKey]: ...

    def create(
        self,
        name: str,
        owner_id: str,
        scopes: Collection[Scope],
        serials: Iterable[str] | None = None,
    ) -> CreatedKey:
        """Create a key; its secret is in the answer only."""

    def revoke(self, key_id: str) -> ApiKey | None:
        """Revoke a key; None when there is no such key."""

    def authenticate(self, secret: str) -> ApiKey | None: ...

    def touch(self, key: ApiKey) -> None: ...


class DevicesFacet:
    """The thermostats heard from: their records, the roster and their availability."""

    __slots__ = ("_availability", "_devices", "_roster")

    def __init__(self, devices: DeviceRegistry, roster: Roster, availability: Availability) -> None:
        self._devices = devices
        self._roster = roster
        self._availability = availability

    def record(self, serial: str) -> DeviceRecord | None:
        return self._devices.get(serial)

    def record_at(self, address: str) -> DeviceRecord | None:
        """Return the device record of the thermostat last heard from this IP address."""
        return self._devices.by_address(address)

    def records(self) -> list[DeviceRecord]:
        return self._devices.records()

    def is_known(self, serial: str) -> bool:
        """Return whether the thermostat has been heard from and not forgotten."""
        return self._roster.is_known(serial)

    def known_serials(self) -> list[str]:
        return self._roster.known_serials()

    def waiting_for_pairing(self) -> list[str]:
        """Return the unpaired thermostats in contact, the newest first."""
        return self._roster.waiting_for_pairing()

    def is_available(self, serial: str) -> bool:
        return self._availability.is_available(serial)

    def firmware_too_old(self, serial: str) -> str | None:
        return self._availability.firmware_too_old(serial)


class PairingFacet:
    """Who owns which thermostat: pairing, unpairing, and the host's mirror of pairings."""

    __slots__ = ("_home", "_ownership")

    def __init__(self, ownership: PairingRegistry, home: HomePairing) -> None:
        self._ownership = ownership
        self._home = home

    def is_paired(self, serial: str) -> bool:
        return self._ownership.is_paired(serial)

    def record(self, serial: str) -> Pairing | None:
        return self._ownership.pairing(serial)

    def records(self) -> list[Pairing]:
        """Return every ownership record, in pairing order."""
        return self._ownership.pairings()

    def register(
        self, code: str, user_id: str | None = None, *, origin: PairingOrigin = PairingOrigin.API
    ) -> RegisterResult:
        """Claim a pairing code as typed (see `pairing.HomePairing.register`).

        A caller that tells a user the outcome awaits the service's `async_flush` first.
        """
        return self._home.register(code, user_id, origin=origin)

    def unpair(self, serial: str) -> bool:
        """Unpair a thermostat; it keeps its buckets and can pair again with a new code."""
        return self._home.unpair(serial)

    def unpaired_serials(self) -> list[str]:
        """Return the thermostats unpaired whose mirror the host may not have removed yet."""
        return self._ownership.unpaired_serials()

    def note_mirror(self, serial: str, *, saved: bool) -> bool:
        """Note the host saved its mirror of a pairing, or (not `saved`) of its unpairing.

        True when the journal changed. `saved=False`: the host saved its state without this
        unpaired thermostat's mirror. The journal is for a host that mirrors pairings (see
        `model.pairing`); the caller saves.
        """
        if saved:
            return self._ownership.note_mirror_saved(serial)
        return self._ownership.note_mirror_gone(serial)


class DeliveryFacet:
    """What each thermostat was sent and has not confirmed, and whether it takes commands."""

    __slots__ = ("_confirmations", "_delivery")

    def __init__(self, delivery: Delivery, confirmations: Confirmations) -> None:
        self._delivery = delivery
        self._confirmations = confirmations

    def pending(self, serial: str) -> list[PendingField]:
        return self._confirmations.pending(serial)

    def trouble(self, serial: str) -> Trouble | None:
        return self._confirmations.trouble(serial)

    def troubled(self) -> list[str]:
        return self._confirmations.troubled()

    def notify(self, serial: str) -> int:
        """Tell the thermostat's held subscribes to ask again now; return how many were told."""
        return self._delivery.notify_device(serial)
