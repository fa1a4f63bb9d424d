"""The mode rules, decided once for the command layer and the host's climate entity."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .state import ThermostatState

RANGE_MODE = "range"
"""`shared.target_temperature_type` of heat-cool: a low and a high setpoint."""


class ModeReadings(Protocol):
    """The readings the rules need (`ThermostatState` has them; away is the home's)."""

    @property
    def mode(self) -> str | None:
        """`shared.target_temperature_type`."""

    @property
    def eco(self) -> bool:
        """Whether the thermostat's own eco mode is on."""

    @property
    def away(self) -> bool:
        """Whether the home is away (every thermostat of the home in eco)."""


def takes_range(mode: str | None) -> bool:
    """Return whether the mode's setpoints are a low and a high, not a single target."""
    return mode == RANGE_MODE


def holds_eco(thermostat: ModeReadings) -> bool:
    """Return whether the thermostat holds its eco temperatures, whatever its mode.

    The home being away counts too: it puts every thermostat in eco before they report so.
    """
    return (thermostat.eco or thermostat.away) and thermostat.mode not in (None, "off")


@dataclass(frozen=True, slots=True)
class Setpoints:
    """The setpoints a thermostat holds now, Celsius: a target, or a low and a high."""

    target: float | int | None = None
    low: float | int | None = None
    high: float | int | None = None


def held_setpoints(thermostat: ThermostatState) -> Setpoints:
    """Return the setpoints the thermostat holds: eco's, its range's, or its target."""
    if holds_eco(thermostat):
        eco = thermostat.eco_temperatures
        return Setpoints(low=eco["low"], high=eco["high"])
    if takes_range(thermostat.mode):
        return Setpoints(
            low=thermostat.target_temperature_low, high=thermostat.target_temperature_high
        )
    return Setpoints(target=thermostat.target_temperature)
