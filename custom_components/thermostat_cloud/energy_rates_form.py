"""The thermostat's reconfigure form: the power or gas rate of each piece of its equipment.

Fields for the equipment the thermostat reports, and any given before (see `energy.py` for
what the rates become).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from homeassistant.helpers import selector
import probatio

from .energy import MAX_RATE, RATE_FIELDS
from .equipment import HAS_EQUIPMENT
from .server import ELECTRICITY, GAS, ThermostatState


def _rate_selector(step: float, unit: str) -> selector.NumberSelector:
    return selector.NumberSelector(
        selector.NumberSelectorConfig(
            min=0,
            max=MAX_RATE,
            step=step,
            unit_of_measurement=unit,
            mode=selector.NumberSelectorMode.BOX,
        )
    )


RATE_SELECTORS = {ELECTRICITY: _rate_selector(0.01, "kW"), GAS: _rate_selector(0.001, "m³/h")}


def rates_schema(thermostat: ThermostatState | None, given: Mapping[str, Any]) -> probatio.Schema:
    """Return the form's fields: the thermostat's equipment's, and those `given` before.

    Every field when the thermostat cannot be read (the hub not loaded).
    """
    fields: dict[Any, Any] = {}
    for key, (equipment, kind) in RATE_FIELDS.items():
        has = HAS_EQUIPMENT[equipment]
        if thermostat is None or has(thermostat) or key in given:
            fields[probatio.Optional(key)] = RATE_SELECTORS[kind]
    return probatio.Schema(fields)


def rates_from_input(user_input: Mapping[str, Any]) -> dict[str, float]:
    """Return the rates the form was given: a blank or zero field is no rate."""
    return {
        key: float(value)
        for key, value in user_input.items()
        if key in RATE_FIELDS and isinstance(value, int | float) and value > 0
    }
