"""The mode rules, decided once for the command layer and the host's climate entity.

Which setpoints a mode takes (`takes_range`) and whether a thermostat holds its eco
temperatures (`holds_eco`) are read with the mode, in readings.py: a command asks them on its
way to the wire.
"""

from __future__ import annotations

from dataclasses import dataclass

from .readings import holds_eco, takes_range
from .state import ThermostatState


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
