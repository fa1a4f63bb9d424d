"""Checks of a complete schedule object (spec: Schedule), as `set_schedule` writes it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time as dt_time, timedelta
from typing import Any

from .command_errors import CommandError, ErrorCode, Reason
from .validation import TEMPERATURE_MAX_C, TEMPERATURE_MIN_C, temperature, temperature_pair

SECONDS_PER_DAY = 86400
SCHEDULE_MODES = ("HEAT", "COOL", "RANGE")
SCHEDULE_ENTRY_TYPES = ("setpoint", "continuation")


def validate_schedule(schedule: object) -> dict[str, Any]:
    """Check a complete schedule object (spec: Schedule) and return it as the thermostat stores it.

    Integer day and entry keys (a host's action in YAML: `days: {0: {0: {...}}}`) become the
    strings the thermostat keeps.
    """
    try:
        return _check_schedule(schedule)
    except CommandError as err:
        if err.reason in SCHEDULE_REASONS:
            raise
        raise CommandError(err.code, err.message, Reason.SCHEDULE_INVALID) from None


SCHEDULE_REASONS = frozenset(
    {
        Reason.SCHEDULE_DAY_EMPTY,
        Reason.SCHEDULE_SAME_TIME,
        Reason.SCHEDULE_TEMPERATURE_OUT_OF_RANGE,
        Reason.SCHEDULE_LOW_NOT_BELOW_HIGH,
    }
)
"""Refusals a person who writes a schedule can fix by what they say; the rest are of shape."""
# An entry's own refusal, and the schedule's that names its day and time.
ENTRY_REASONS = {
    Reason.TEMPERATURE_OUT_OF_RANGE: Reason.SCHEDULE_TEMPERATURE_OUT_OF_RANGE,
    Reason.LOW_NOT_BELOW_HIGH: Reason.SCHEDULE_LOW_NOT_BELOW_HIGH,
}


SCHEDULE_DAYS = frozenset(str(day) for day in range(7))


def _schedule_key(key: object) -> str | None:
    """Return a day or entry key as the string the thermostat stores, None if no number."""
    if isinstance(key, int) and not isinstance(key, bool) and key >= 0:
        return str(key)
    # isascii: str.isdigit() also accepts digits such as "²" that are no number here.
    if isinstance(key, str) and key.isascii() and key.isdigit():
        return key
    return None


def _check_schedule(schedule: object) -> dict[str, Any]:
    if not isinstance(schedule, dict):
        raise CommandError(ErrorCode.INVALID_VALUE, "Schedule must be an object")
    ver = schedule.get("ver")
    if isinstance(ver, bool) or not isinstance(ver, int) or ver < 1:
        raise CommandError(ErrorCode.INVALID_VALUE, "Schedule ver must be a positive integer")
    if not isinstance(schedule.get("name", ""), str):
        raise CommandError(ErrorCode.INVALID_VALUE, "Schedule name must be a string")
    if schedule.get("schedule_mode") not in SCHEDULE_MODES:
        raise CommandError(
            ErrorCode.INVALID_VALUE, "Schedule schedule_mode must be HEAT, COOL or RANGE"
        )
    days = schedule.get("days")
    if not isinstance(days, dict):
        raise CommandError(ErrorCode.INVALID_VALUE, "Schedule days must be an object")
    checked_days: dict[str, dict[str, Any]] = {}
    for day_key, entries in days.items():
        day = _schedule_key(day_key)
        if day not in SCHEDULE_DAYS:
            raise CommandError(ErrorCode.INVALID_VALUE, f"Schedule day {day_key!r} is not 0 to 6")
        if day in checked_days:  # 0 and "0"
            raise CommandError(ErrorCode.INVALID_VALUE, f"Schedule day {day} is given twice")
        if not isinstance(entries, dict):
            raise CommandError(ErrorCode.INVALID_VALUE, f"Schedule day {day} must be an object")
        if not entries:
            # Firmware would carry the day before on; a user who emptied a day meant otherwise.
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                f"Schedule day {day} has no entries",
                Reason.SCHEDULE_DAY_EMPTY,
                day=int(day),
            )
        checked_days[day] = checked_entries = {}
        times: set[float] = set()
        for number_key, entry in entries.items():
            where = f"Schedule day {day} entry {number_key}"
            number = _schedule_key(number_key)
            if number is None:
                raise CommandError(ErrorCode.INVALID_VALUE, f"{where}: key must be a number")
            if number in checked_entries:
                raise CommandError(ErrorCode.INVALID_VALUE, f"{where} is given twice")
            _check_schedule_entry(entry, where, int(day))
            if entry["time"] in times:
                # Two setpoints at one time: which one the thermostat keeps is undefined.
                raise CommandError(
                    ErrorCode.INVALID_VALUE,
                    f"{where}: another entry has the same time",
                    Reason.SCHEDULE_SAME_TIME,
                    day=int(day),
                    time=clock_time(entry["time"]),
                )
            times.add(entry["time"])
            checked_entries[number] = entry
    return {**schedule, "days": checked_days}


def clock_time(seconds: float) -> str:
    """Return seconds after midnight as the 24-hour clock shows them, "07:30"."""
    minutes = int(seconds) // 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _check_schedule_entry(entry: object, where: str, day: int) -> None:
    if not isinstance(entry, dict):
        raise CommandError(ErrorCode.INVALID_VALUE, f"{where} must be an object")
    time = entry.get("time")
    if (
        isinstance(time, bool)
        or not isinstance(time, int | float)
        or not 0 <= time <= SECONDS_PER_DAY
    ):
        raise CommandError(ErrorCode.INVALID_VALUE, f"{where}: time must be 0 to 86400")
    if entry.get("type") not in SCHEDULE_MODES:
        raise CommandError(ErrorCode.INVALID_VALUE, f"{where}: type must be HEAT, COOL or RANGE")
    try:
        _check_entry_temperatures(entry, where)
    except CommandError as err:
        if (reason := ENTRY_REASONS.get(err.reason)) is None:
            raise
        limits = {
            name: err.placeholders[name] for name in ("min", "max") if name in err.placeholders
        }
        raise CommandError(
            err.code, err.message, reason, day=day, time=clock_time(time), **limits
        ) from None
    if entry.get("entry_type") not in SCHEDULE_ENTRY_TYPES:
        raise CommandError(
            ErrorCode.INVALID_VALUE, f"{where}: entry_type must be setpoint or continuation"
        )


def _check_entry_temperatures(entry: dict[str, Any], where: str) -> None:
    if entry["type"] == "RANGE":
        # Firmware keeps a range entry's two setpoints as `temp-min` and `temp-max`.
        temperature_pair(
            entry.get("temp-min"),
            entry.get("temp-max"),
            names=(f"{where}: temp-min", f"{where}: temp-max"),
            fields=("temp-min", "temp-max"),
            unordered=f"{where}: temp-min must be less than temp-max",
        )
    else:
        temperature(
            entry.get("temp"), f"{where}: temp", "temp", TEMPERATURE_MIN_C, TEMPERATURE_MAX_C
        )


# -- the schedule in time -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScheduledSetpoint:
    """One schedule entry placed in time: when it takes effect and what it sets, Celsius."""

    starts: datetime
    target: float | None = None
    low: float | None = None
    high: float | None = None


def entries_of_day(schedule: Mapping[str, Any], day: date) -> list[ScheduledSetpoint]:
    """Return the entries of `day`'s weekday (Monday `"0"`), in time order, as local times.

    Entries that do not parse are skipped: firmware (learning) writes the schedule too.
    """
    days = schedule.get("days")
    entries = days.get(str(day.weekday())) if isinstance(days, Mapping) else None
    if not isinstance(entries, Mapping):
        return []
    found: list[ScheduledSetpoint] = []
    for entry in entries.values():
        if not isinstance(entry, Mapping):
            continue
        seconds = as_plain_number(entry.get("time"))
        if seconds is None or not 0 <= seconds <= SECONDS_PER_DAY:
            continue
        # Wall-clock time of that day: through a daylight saving change as firmware counts it.
        starts = datetime.combine(day, dt_time()) + timedelta(seconds=seconds)
        if entry.get("type") == "RANGE":
            low, high = (
                as_plain_number(entry.get("temp-min")),
                as_plain_number(entry.get("temp-max")),
            )
            if low is None or high is None:
                continue
            found.append(ScheduledSetpoint(starts, low=low, high=high))
        elif (target := as_plain_number(entry.get("temp"))) is not None:
            found.append(ScheduledSetpoint(starts, target=target))
    return sorted(found, key=lambda entry: entry.starts)


def as_plain_number(value: object) -> float | None:
    """Return a JSON number as a float, else None (booleans are no numbers)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def scheduled_setpoint(
    schedule: Mapping[str, Any] | None, local: datetime
) -> ScheduledSetpoint | None:
    """Return the entry in force at naive local `local`: the last before it, up to a week back."""
    return _nearest_entry(schedule, local, ahead=False)


def next_schedule_change(
    schedule: Mapping[str, Any] | None, local: datetime
) -> ScheduledSetpoint | None:
    """Return the first entry after `local` (naive local wall-clock time), within a week."""
    return _nearest_entry(schedule, local, ahead=True)


def _nearest_entry(
    schedule: Mapping[str, Any] | None, local: datetime, *, ahead: bool
) -> ScheduledSetpoint | None:
    """Return the first entry after `local` (`ahead`) or the last at or before it, in a week."""
    if not schedule:
        return None
    step = timedelta(days=1 if ahead else -1)
    for days in range(8):
        day = local.date() + step * days
        found = [
            entry for entry in entries_of_day(schedule, day) if (entry.starts > local) == ahead
        ]
        if found:
            return found[0] if ahead else found[-1]
    return None
