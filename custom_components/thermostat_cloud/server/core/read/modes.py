"""The mode rules, decided once: which setpoints a mode takes, and when eco holds.

The command layer writes by them and the host's climate entity shows and routes by them.
"""

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
    """Return whether the mode's setpoints are a low and a high, not a single target.

    Range mode takes `target_temperature_low` and `_high`; heat, cool, emergency heat (and
    off, keeping it for later) take `target_temperature`.
    """
    return mode == RANGE_MODE


def holds_eco(thermostat: ModeReadings) -> bool:
    """Return whether the thermostat holds its eco temperatures.

    Its eco is on (`device.eco`: manual or auto-eco) or the home is away (which puts every
    thermostat of the home in eco, before it reports so), and it is not off: then it keeps
    `device.away_temperature_low` and `_high`, whatever its mode.
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
