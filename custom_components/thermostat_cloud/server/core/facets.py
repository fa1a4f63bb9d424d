"""The narrow faces of the service's parts that the host and the surfaces may use.

`ThermostatService` hands these out instead of its parts: each lists what a caller outside
the core does with holds, vacations, the runtime ledger, the house model and API keys, and leaves out the
service's own business with them (loading, saving, timers, forgetting a thermostat).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from datetime import date, datetime, timedelta
from typing import Any, Protocol

from ..model.api_keys import ApiKey, CreatedKey, Scope
from .home.holds import Hold
from .home.vacations import Vacation
from .watch.health import Finding, HealthThresholds
from .watch.house_model import Estimate
from .watch.runtime import Rates, RuntimeFigures


class HoldsFacet(Protocol):
    """A thermostat's hold: start one, end it, read it (see `holds.Holds`)."""

    def hold_of(self, serial: str) -> Hold | None:
        """Return the thermostat's hold, or None."""

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
    ) -> Hold:
        """Hold a temperature (or a low and a high); refused with nothing changed if wrong."""

    def resume_schedule(self, serial: str) -> None:
        """End the thermostat's hold: back to its schedule."""


class VacationsFacet(Protocol):
    """The home's vacations: plan, change, cancel, list (see `vacations.Vacations`)."""

    def vacations(self) -> list[Vacation]:
        """Return every vacation, the earliest first."""

    def get(self, vacation_id: str) -> Vacation | None:
        """Return one vacation, or None."""

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


class RuntimeFacet(Protocol):
    """How long each thermostat's equipment ran (see `runtime.RuntimeLedger`)."""

    def figures(self, serial: str) -> RuntimeFigures:
        """Return the thermostat's totals so far."""

    def set_rates(self, serial: str, rates: Rates) -> None:
        """Set the powers and gas rates its energy is counted at."""

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

    def report(self, serial: str, first: date, last: date) -> dict[str, Any]:
        """Return a thermostat's figures of a range of days, with totals and reasons."""

    def local_date(self, ms: int) -> date:
        """Return the home's date at a time (Unix ms)."""

    def note_outdoor(self, celsius: float | None) -> None:
        """Take the outdoor temperature now (None: not known; the last one stands a while)."""

    @property
    def reported_month(self) -> str | None:
        """The last month the home's monthly report was made of."""

    def mark_reported(self, month: str) -> None:
        """Note that the home's report of `month` was made."""


class HouseModelFacet(Protocol):
    """Each thermostat's house model (see `house_model.HouseModel`)."""

    @property
    def outdoor(self) -> float | None:
        """The outdoor temperature (°C) last told, None when none is known."""

    def estimate(self, serial: str, kind: str, outdoor: float | None = None) -> Estimate:
        """Return a rate (°C/h) at an outdoor temperature, the last told by default."""

    def note_outdoor(self, celsius: float | None) -> None:
        """Tell the outdoor temperature (°C), None when it is not known."""


class HealthFacet(Protocol):
    """What is found wrong with the equipment behind each thermostat (see `health_monitor`).

    A thermostat's findings changing is published as a HEALTH event naming it.
    """

    @property
    def thresholds(self) -> HealthThresholds:
        """The thresholds the findings are raised at (the service config's `health`)."""

    def findings(self, serial: str) -> tuple[Finding, ...]:
        """Return the thermostat's findings, in the order of `FindingKind`."""

    def serials_with_findings(self) -> list[str]:
        """Return the thermostats that have a finding."""

    def raised_between(self, serial: str, start: datetime, end: datetime) -> dict[str, int]:
        """Count the thermostat's findings raised from `start` to before `end`, by kind."""

    def note_outdoor(self, celsius: float | None) -> None:
        """Note the home's outdoor temperature now (None: not known, no outdoor finding)."""


class ApiKeysFacet(Protocol):
    """The hosted API's keys (see `model.api_keys.ApiKeyStore`)."""

    def records(self) -> list[ApiKey]:
        """Return every key."""

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

    def authenticate(self, secret: str) -> ApiKey | None:
        """Return the key of this secret, or None."""

    def touch(self, key: ApiKey) -> None:
        """Note the key as used now."""
