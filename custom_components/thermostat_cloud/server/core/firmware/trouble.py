"""Why a thermostat likely does not take commands, from what the server knows of it.

`Confirmations` finds that it does not; this names the likely causes, most likely first.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..read.state import ThermostatState
from .firmware import firmware_major, too_old_to_control

LOW_BATTERY_V = 3.6
"""Below this cell voltage a thermostat turns Wi-Fi off to save power (Nest support, "A low
battery level will cause the Nest Learning Thermostat to disconnect from the Internet";
KraigM/homebridge-nest issue #18: Wi-Fi off at about 3.6 V; USA-RedDragon/badnest issue #86)."""
CLOCK_SKEW_MAX_S = 600
"""Firmware drops manual eco whose timestamp is further than this off its clock (protocol
notes, "Enter/Exit eco mode")."""
CONFLICTS_MANY = 3
"""Revision conflicts within `CONTACT_DEADLINE_S` that count as repeated."""


class Cause(StrEnum):
    """Why a thermostat likely does not take commands, from what the server knows."""

    NO_CONTACT = "no_contact"
    """No held connection and no request for a while: asleep, off or off the network."""
    LOW_BATTERY = "low_battery"
    """Its cell voltage is below `LOW_BATTERY_V`: it sleeps and drops its connection."""
    ECO_HELD = "eco_held"
    """Home/Away Assist or its occupancy sensor holds it in eco."""
    CLOCK_SKEW = "clock_skew"
    """Its clock is far from the server's: it drops eco commands."""
    HEARTBEAT_ONLY = "heartbeat_only"
    """Firmware 4.x that only sends heartbeats: nothing can be pushed to it."""
    READ_ONLY = "read_only"
    """Firmware 4.x that reports its state but has not subscribed over 4.x's transport, the
    connection commands are sent on (NoLongerEvil-Thermostat issue #111)."""
    REVISION_CONFLICTS = "revision_conflicts"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Trouble:
    """A thermostat that is not taking commands, and the likely causes."""

    serial: str
    since_ms: int
    causes: tuple[Cause, ...]
    """Most likely first; `UNKNOWN` alone when nothing explains it."""
    last_seen_ms: int | None
    battery_voltage: float | None
    firmware: str | None
    read_only: bool
    """Firmware 4.x that reports its state but does not subscribe: read, not controlled."""


def likely_trouble(
    state: ThermostatState,
    since_ms: int,
    *,
    clock_skew_s: float | None,
    recent_conflicts: int,
) -> Trouble:
    """Return the trouble of a thermostat found not taking commands since `since_ms`.

    `clock_skew_s`: how far its clock was off in its last eco report; `recent_conflicts`: how
    many of its recent reports crossed the server's changes.
    """
    causes: list[Cause] = []
    firmware = state.software_version
    major = firmware_major(firmware)
    uncontrolled = too_old_to_control(firmware) and not state.subscribes_skv
    read_only = uncontrolled and major == 4 and state.current_temperature is not None
    if uncontrolled:
        causes.append(Cause.READ_ONLY if read_only else Cause.HEARTBEAT_ONLY)
    voltage = state.battery_voltage
    if voltage is not None and voltage < LOW_BATTERY_V:
        causes.append(Cause.LOW_BATTERY)
    if not state.available:
        causes.append(Cause.NO_CONTACT)
    if state.eco_mode == "auto-eco" or (
        state.eco and state.device_flag("auto_away_enable") is True
    ):
        causes.append(Cause.ECO_HELD)
    if clock_skew_s is not None and abs(clock_skew_s) > CLOCK_SKEW_MAX_S:
        causes.append(Cause.CLOCK_SKEW)
    if recent_conflicts >= CONFLICTS_MANY:
        causes.append(Cause.REVISION_CONFLICTS)
    return Trouble(
        state.serial,
        since_ms,
        tuple(causes) or (Cause.UNKNOWN,),
        state.last_seen_ms,
        float(voltage) if voltage is not None else None,
        firmware,
        read_only,
    )
