"""Energy from runtime: the power or gas rate of each piece of a thermostat's equipment.

Given in the thermostat's reconfigure step (kW of electricity, m³/h of gas), kept in its
subentry's data and handed to the core's runtime ledger, which turns running time into energy
as it counts it. The electricity and gas sensors appear once a rate of their kind is given.
"""

from __future__ import annotations

from collections.abc import Mapping
import math
from typing import Any

from homeassistant.config_entries import ConfigEntry, ConfigSubentry
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.dispatcher import async_dispatcher_send

from .const import signal_energy_rates_changed
from .pairing_sync import thermostat_subentries
from .server import ELECTRICITY, EQUIPMENT, GAS, ThermostatService

POWER_EQUIPMENT = tuple(equipment for equipment in EQUIPMENT if equipment != "airwave")
"""Equipment that may draw electricity of its own (Airwave is the fan running on)."""
GAS_EQUIPMENT = ("heating_stage_1", "heating_stage_2", "heating_stage_3", "alt_heat")
"""Equipment that may burn gas: a furnace's stages, and alternate heat (a furnace beside a
heat pump); aux and emergency heat are electric."""
MAX_RATE = 1000.0
"""The largest power (kW) or gas rate (m³/h) the form takes."""


def power_field(equipment: str) -> str:
    """Return the subentry data key of a piece of equipment's power (kW)."""
    return f"{equipment}_power"


def gas_field(equipment: str) -> str:
    """Return the subentry data key of a piece of equipment's gas rate (m³/h)."""
    return f"{equipment}_gas"


RATE_FIELDS: dict[str, tuple[str, str]] = {
    **{power_field(e): (e, ELECTRICITY) for e in POWER_EQUIPMENT},
    **{gas_field(e): (e, GAS) for e in GAS_EQUIPMENT},
}
"""Subentry data key -> (equipment, energy kind)."""


def subentry_rates(data: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Return the rates a thermostat subentry's data gives: equipment -> kind -> rate."""
    rates: dict[str, dict[str, float]] = {}
    for key, (equipment, kind) in RATE_FIELDS.items():
        value = data.get(key)
        if (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(value)
            and 0 < value <= MAX_RATE
        ):
            rates.setdefault(equipment, {})[kind] = float(value)
    return rates


def energy_kinds(subentry: ConfigSubentry) -> list[str]:
    """Return the energy kinds the thermostat has a rate of, electricity first."""
    given = {kind for by_kind in subentry_rates(subentry.data).values() for kind in by_kind}
    return [kind for kind in (ELECTRICITY, GAS) if kind in given]


class EnergyRates:
    """Hands each thermostat subentry's rates to the ledger, and announces new ones."""

    def __init__(self, hass: HomeAssistant, entry: ConfigEntry, service: ThermostatService) -> None:
        """Initialize for the hub entry and its service."""
        self._hass = hass
        self._entry = entry
        self._service = service
        self._applied: dict[str, dict[str, dict[str, float]]] = {}

    @callback
    def async_apply(self) -> None:
        """Give the ledger the rates of every thermostat subentry that changed.

        Subentries whose rates changed are announced, so the sensor platform adds the energy
        sensors of a kind given for the first time.
        """
        for serial, subentry_id in thermostat_subentries(self._entry).items():
            rates = subentry_rates(self._entry.subentries[subentry_id].data)
            if self._applied.get(subentry_id) == rates:
                continue
            first = subentry_id not in self._applied
            self._applied[subentry_id] = rates
            self._service.runtime.set_rates(serial, rates)
            if not first:
                async_dispatcher_send(
                    self._hass, signal_energy_rates_changed(self._entry.entry_id), subentry_id
                )
