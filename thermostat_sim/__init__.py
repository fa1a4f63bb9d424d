"""A simulated thermostat that speaks the device protocol the way firmware does.

Used by the tests, the benchmarks and by hand against a running Home Assistant
(`python -m thermostat_sim --help`).
"""

from .room import Equipment, House, Room
from .skv import SkvThermostat
from .thermostat import (
    FIRMWARE_IDLE_STATE,
    FIRMWARE_SETTINGS,
    HEAT_PUMP_DUAL_FUEL,
    HEAT_PUMP_SHARED,
    ROOM_IDS,
    WEEK_SCHEDULE,
    Chunk,
    SimulatedThermostat,
    basic_auth,
)

__all__ = [
    "FIRMWARE_IDLE_STATE",
    "FIRMWARE_SETTINGS",
    "HEAT_PUMP_DUAL_FUEL",
    "HEAT_PUMP_SHARED",
    "ROOM_IDS",
    "WEEK_SCHEDULE",
    "Chunk",
    "Equipment",
    "House",
    "Room",
    "SimulatedThermostat",
    "SkvThermostat",
    "basic_auth",
]
