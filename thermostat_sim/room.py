"""A room that warms and cools with the equipment a simulated thermostat drives.

`Room` is the physics: each step the running equipment moves the room at its rate and the
room drifts toward the outdoor temperature (a loss coefficient per hour). `Equipment` is what
the thermostat's relays drive, and how it fails: a furnace that stops heating (the relay on,
no heat), a compressor that trips after a short run and calls again soon (short cycling).
`House` is the thermostat's own control, as firmware does it: it reads the setpoints, mode,
eco and safety temperatures from the thermostat's buckets and answers each step with the
fields to report (relays, room temperature) when they changed.

Everything is settable, and nothing here knows time or the network: the caller steps it
(`SimulatedThermostat.live` steps it and PUTs what changed, on the test's clock).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

STEP_S = 60.0
"""The longest step the physics takes at once; longer steps are cut into these."""
ECO_MODES = ("manual-eco", "auto-eco")


@dataclass(slots=True)
class Room:
    """One room's temperature, moved by the equipment and the outdoors."""

    temperature_c: float = 20.0
    outdoor_c: float = 5.0
    heating_rate_c_per_h: float = 4.0
    """How fast one working heating stage warms the room (before the loss), °C per hour."""
    cooling_rate_c_per_h: float = 3.0
    """How fast one working cooling stage cools the room (before the gain), °C per hour."""
    loss_per_h: float = 0.05
    """The share of the room-to-outdoor difference lost per hour (a leaky house: more)."""

    def step(self, seconds: float, *, heating_stages: int = 0, cooling_stages: int = 0) -> float:
        """Let `seconds` pass with this many working stages; return the room temperature."""
        left = seconds
        while left > 0:
            hours = min(left, STEP_S) / 3600
            drift = (self.outdoor_c - self.temperature_c) * self.loss_per_h
            power = (
                heating_stages * self.heating_rate_c_per_h
                - cooling_stages * self.cooling_rate_c_per_h
            )
            self.temperature_c += (drift + power) * hours
            left -= STEP_S
        return self.temperature_c


@dataclass(slots=True)
class Equipment:
    """What the relays drive, and how it fails."""

    heats: bool = True
    """False: a furnace that stops heating (it is called, the room gets no heat)."""
    cools: bool = True
    """False: cooling that does not cool."""
    trip_after_s: float | None = None
    """A short-cycling compressor or furnace: its safety switch ends each run after this
    long, seen by the thermostat as the call ending; None runs as long as called."""
    rest_s: float = 120.0
    """After a trip, the call starts again this long later (the switch resets)."""


@dataclass(slots=True)
class House:
    """A room, its equipment and the thermostat's control of it, as firmware runs it."""

    room: Room = field(default_factory=Room)
    equipment: Equipment = field(default_factory=Equipment)
    differential_c: float = 0.5
    """Heat starts this far below the setpoint (cooling this far above) and stops at it."""
    report_step_c: float = 0.1
    """The room temperature is reported rounded to this, and only when that changes."""
    heating: bool = False
    cooling: bool = False
    _run_s: float = 0.0
    _rest_left_s: float = 0.0
    _reported: dict[str, Any] = field(default_factory=dict)

    def step(
        self, seconds: float, shared: Mapping[str, Any], device: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Let `seconds` pass, then decide the relays; return the `shared` fields to report.

        `shared` and `device` are the thermostat's buckets (setpoints, mode, eco and safety
        temperatures as it has them). Only fields whose value changed are returned.
        """
        equipment = self.equipment
        self.room.step(
            seconds,
            heating_stages=int(self.heating and equipment.heats),
            cooling_stages=int(self.cooling and equipment.cools),
        )
        if self.heating or self.cooling:
            self._run_s += seconds
        self._rest_left_s = max(0.0, self._rest_left_s - seconds)
        want_heat, want_cool = self._calls(shared, device)
        if (
            equipment.trip_after_s is not None
            and (self.heating or self.cooling)
            and self._run_s >= equipment.trip_after_s
        ):
            want_heat = want_cool = False
            self._rest_left_s = equipment.rest_s
        elif self._rest_left_s > 0:
            want_heat = want_cool = False
        if want_heat != self.heating or want_cool != self.cooling:
            self._run_s = 0.0
        self.heating, self.cooling = want_heat, want_cool
        return self._changes()

    def _calls(self, shared: Mapping[str, Any], device: Mapping[str, Any]) -> tuple[bool, bool]:
        """Return whether heat and cooling are called, with the differential as hysteresis."""
        room = self.room.temperature_c
        low, high = self._targets(shared, device)
        safety_low = device.get("lower_safety_temp")
        if device.get("lower_safety_temp_enabled") and isinstance(safety_low, int | float):
            low = max(low, float(safety_low)) if low is not None else float(safety_low)
        heat = low is not None and (
            room < low - self.differential_c or (self.heating and room < low)
        )
        cool = high is not None and (
            room > high + self.differential_c or (self.cooling and room > high)
        )
        return heat, cool and not heat

    @staticmethod
    def _targets(
        shared: Mapping[str, Any], device: Mapping[str, Any]
    ) -> tuple[float | None, float | None]:
        """Return the temperature heated to and the one cooled to (None: not at all)."""
        eco = device.get("eco")
        if isinstance(eco, Mapping) and eco.get("mode") in ECO_MODES:
            return device.get("away_temperature_low"), device.get("away_temperature_high")
        mode = shared.get("target_temperature_type")
        target = shared.get("target_temperature")
        if mode in ("heat", "emergency"):
            return target, None
        if mode == "cool":
            return None, target
        if mode == "range":
            return shared.get("target_temperature_low"), shared.get("target_temperature_high")
        return None, None

    def _changes(self) -> dict[str, Any]:
        step = self.report_step_c
        now = {
            "hvac_heater_state": self.heating,
            "hvac_ac_state": self.cooling,
            "current_temperature": round(round(self.room.temperature_c / step) * step, 2),
        }
        changes = {name: value for name, value in now.items() if self._reported.get(name) != value}
        self._reported.update(changes)
        return changes
