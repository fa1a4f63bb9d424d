"""What the health monitor finds wrong with the equipment behind a thermostat, and its limits.

Each rule, its default and the default's source are in docs/health.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum


class FindingKind(StrEnum):
    """What was found wrong (at most one finding of each kind per thermostat)."""

    NOT_HEATING = "not_heating"
    """Heat called for `not_warming_minutes`, and the room did not rise."""
    NOT_COOLING = "not_cooling"
    """Cooling called for `not_warming_minutes`, and the room did not fall."""
    SHORT_CYCLING = "short_cycling"
    """More heating or cooling starts in the last hour than `max_starts_per_hour`."""
    LONG_RUNTIME = "long_runtime"
    """Yesterday's heating runtime per degree-day well above the thermostat's own median."""
    AUX_ABOVE_LOCKOUT = "aux_above_lockout"
    """Auxiliary heat ran with the outdoor temperature above the thermostat's aux lockout."""
    TOO_COLD = "too_cold"
    """The room is below the freeze threshold (the thermostat's low safety temperature)."""
    TOO_HOT = "too_hot"
    """The room is above the heat threshold (the thermostat's high safety temperature)."""
    SILENT_IN_FROST = "silent_in_frost"
    """The thermostat is silent `silent_minutes` with the outdoor temperature near freezing."""


type Figure = float | int | str
"""A figure of a finding: a plain number (°C, minutes, a count) or a short word."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing found wrong with one thermostat's equipment, and the figures it was found on.

    `figures` (all optional, by kind; temperatures in °C):
    - not_heating / not_cooling: `minutes`, `room_start`, `room_now`, `stage` (what ran,
      comma-separated: `heating_stage_1`, `heat_pump`, `heating_stage_2`, `heating_stage_3`,
      `aux_heat`, `emergency_heat`, `alternate_heat`, `cooling_stage_1`, `cooling_stage_2`,
      `cooling_stage_3`), `outdoor` when known;
    - short_cycling: `starts_per_hour`, `limit`, `cycle` (`heating` or `cooling`);
    - long_runtime: `runtime_minutes`, `degree_days`, `minutes_per_degree_day`,
      `median_minutes_per_degree_day`, `factor`, `days` (of history);
    - aux_above_lockout: `minutes`, `outdoor`, `lockout`;
    - too_cold / too_hot: `room_now`, `limit`, `outdoor` when known;
    - silent_in_frost: `minutes` (since it was last heard), `outdoor`, `limit`.
    """

    serial: str
    kind: FindingKind
    since: datetime
    """When it was found (aware, UTC)."""
    figures: Mapping[str, Figure]


# -- thresholds ---------------------------------------------------------------------------------

MIN_NOT_WARMING_MINUTES = 10
"""The least `not_warming_minutes`: a call shorter says nothing about the equipment."""
MIN_SILENT_MINUTES = 10
"""The least `silent_minutes`: shorter is a thermostat's ordinary reconnect."""
MIN_STARTS_PER_HOUR = 2
MIN_LONG_RUNTIME_FACTOR = 1.2
TEMPERATURE_LIMITS_C = (-10.0, 50.0)
"""What a user's too-cold or too-hot threshold, and the frost limit, may be."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HealthThresholds:
    """When a finding is raised; the defaults and their sources are in docs/health.md.

    Refused (ValueError) when a value is below its minimum or out of range.
    """

    not_warming_minutes: int = 30
    """Heat (cooling) called this long without the room rising (falling): not_heating."""
    max_starts_per_hour: int = 6
    """More heating or cooling starts than this in an hour: short_cycling (the most a
    thermostat manufacturer lets its cycle-rate setting allow, see docs/health.md)."""
    long_runtime_factor: float = 2.0
    """A day's heating minutes per degree-day above this times the thermostat's median."""
    too_cold_c: float | None = None
    """Below this room temperature: too_cold; None: the thermostat's low safety temperature."""
    too_hot_c: float | None = None
    """Above this room temperature: too_hot; None: the thermostat's high safety temperature."""
    silent_minutes: int = 30
    """Silent this long in the frost: silent_in_frost."""
    frost_outdoor_c: float = 2.0
    """"Near or below freezing": the outdoor temperature at or below this."""

    def __post_init__(self) -> None:
        for name, value, least in (
            ("not_warming_minutes", self.not_warming_minutes, MIN_NOT_WARMING_MINUTES),
            ("silent_minutes", self.silent_minutes, MIN_SILENT_MINUTES),
            ("max_starts_per_hour", self.max_starts_per_hour, MIN_STARTS_PER_HOUR),
            ("long_runtime_factor", self.long_runtime_factor, MIN_LONG_RUNTIME_FACTOR),
        ):
            if not value >= least:
                raise ValueError(f"{name} must be at least {least}, not {value}")
        for name, temperature in (
            ("too_cold_c", self.too_cold_c),
            ("too_hot_c", self.too_hot_c),
            ("frost_outdoor_c", self.frost_outdoor_c),
        ):
            low, high = TEMPERATURE_LIMITS_C
            if temperature is not None and not low <= temperature <= high:
                raise ValueError(f"{name} must be from {low} to {high} °C, not {temperature}")
        if (
            self.too_cold_c is not None
            and self.too_hot_c is not None
            and self.too_cold_c >= self.too_hot_c
        ):
            raise ValueError("too_cold_c must be below too_hot_c")

    def strict(self) -> HealthThresholds:
        """Return these thresholds made strict, for a vacation home nobody watches.

        Every time limit at its minimum, fewer starts allowed, a smaller factor, and a frost
        limit a few degrees higher; the user's own temperatures stay.
        """
        return replace(
            self,
            not_warming_minutes=MIN_NOT_WARMING_MINUTES * 2,
            silent_minutes=MIN_SILENT_MINUTES,
            max_starts_per_hour=4,
            long_runtime_factor=1.5,
            frost_outdoor_c=5.0,
        )


DEFAULT_THRESHOLDS = HealthThresholds()
STRICT_THRESHOLDS = DEFAULT_THRESHOLDS.strict()
