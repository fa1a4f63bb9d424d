"""How a command is refused, and what a command that succeeded wrote."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Why a command was refused; also a translation key of clients that word it themselves."""

    DEVICE_NOT_FOUND = "device_not_found"
    INVALID_VALUE = "invalid_value"
    UNSUPPORTED = "unsupported"
    NOT_PAIRED = "not_paired"
    UNKNOWN_COMMAND = "unknown_command"


class Reason(StrEnum):
    """Exactly what was refused, a translation key of clients that word it themselves.

    Placeholders as noted (bucket field names, Celsius), values that need no translation; the
    first five are ErrorCode's generic reasons, for refusals without a more specific one, whose
    English message only the APIs and the log show.
    """

    DEVICE_NOT_FOUND = "device_not_found"
    INVALID_VALUE = "invalid_value"
    UNSUPPORTED = "unsupported"
    NOT_PAIRED = "not_paired"
    UNKNOWN_COMMAND = "unknown_command"
    NOT_A_NUMBER = "not_a_number"  # field
    TEMPERATURE_OUT_OF_RANGE = "temperature_out_of_range"  # field, min, max
    LOW_NOT_BELOW_HIGH = "low_not_below_high"  # low, high: two fields
    HUMIDITY_OUT_OF_RANGE = "humidity_out_of_range"  # field, min, max (percent)
    MODE_UNSUPPORTED = "mode_unsupported"  # mode
    NO_FAN = "no_fan"
    FAN_DURATION_OUT_OF_RANGE = "fan_duration_out_of_range"  # max (seconds)
    PIN_INVALID = "pin_invalid"
    SCHEDULE_INVALID = "schedule_invalid"
    """A schedule not shaped as the spec's Schedule; what is wrong only in the message."""
    SCHEDULE_DAY_EMPTY = "schedule_day_empty"  # day: 0 (Monday) to 6
    SCHEDULE_SAME_TIME = "schedule_same_time"  # day, time: "HH:MM"
    SCHEDULE_TEMPERATURE_OUT_OF_RANGE = "schedule_temperature_out_of_range"  # day, time, min, max
    SCHEDULE_LOW_NOT_BELOW_HIGH = "schedule_low_not_below_high"  # day, time
    LEARNING_ON = "learning_rewrites_schedule"
    """A schedule while learning is on, without saying whether to turn learning off."""
    NO_HEAT_PUMP = "no_heat_pump"
    NO_DUAL_FUEL = "no_dual_fuel"
    END_NOT_AFTER_START = "end_not_after_start"
    END_IN_PAST = "end_in_past"
    TEMPERATURE_WHEN_OFF = "temperature_when_off"
    RANGE_NEEDS_LOW_HIGH = "range_needs_low_high"
    LOW_HIGH_NEED_RANGE = "low_high_need_range"
    HOLD_RANGE_NEEDS_RANGE_MODE = "hold_range_needs_range_mode"
    HOLD_NEEDS_ONE_END = "hold_needs_one_end"
    HOLD_NEEDS_SETPOINT = "hold_needs_setpoint"
    NO_SCHEDULE = "no_schedule"
    VACATIONS_OVERLAP = "vacations_overlap"  # start, end: the other vacation's, ISO 8601 UTC
    UNKNOWN_VACATION = "unknown_vacation"
    ARRIVAL_TIME_OR_TRAVEL = "arrival_time_or_travel"
    ARRIVAL_IN_PAST = "arrival_in_past"
    ARRIVAL_TOO_FAR = "arrival_too_far"  # days
    ARRIVAL_IN_VACATION = "arrival_in_vacation"  # start, end: the vacation's, ISO 8601 UTC


class CommandError(Exception):
    """A refused command: a clear message for the client, never a crash."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        reason: Reason | None = None,
        **placeholders: str | float,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason or Reason(code.value)
        self.placeholders = placeholders


@dataclass(frozen=True, slots=True)
class CommandResult:
    """What a command wrote (the hosted API's command response)."""

    serial: str
    key: str
    revision: int
    timestamp: int
    changed: bool

    def response(self, message: str) -> dict[str, Any]:
        """Return the command response both APIs answer with."""
        return {
            "success": True,
            "message": message,
            "device": self.serial,
            "object": self.key,
            "revision": self.revision,
            "timestamp": self.timestamp,
        }
