"""The schedule check's refusals that the action tests (tests/test_services.py) do not reach.

A schedule the thermostat could misread is refused whole, with a detail a user can act on
(in the APIs' answer and Home Assistant's log).
"""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.thermostat_cloud.server import CommandError, Reason
from custom_components.thermostat_cloud.server.core.read.schedule import validate_schedule

ENTRY = {"time": 25200, "temp": 21.0, "type": "HEAT", "entry_type": "setpoint"}
SCHEDULE = {"ver": 2, "name": "Week", "schedule_mode": "HEAT", "days": {"1": {"0": ENTRY}}}


def detail(schedule: Any) -> str:
    """Return the detail of the refusal of a schedule (it must be refused)."""
    with pytest.raises(CommandError) as err:
        validate_schedule(schedule)
    assert err.value.reason is Reason.SCHEDULE_INVALID
    assert not err.value.placeholders  # the English detail is for the APIs and the log
    return err.value.message


def test_a_schedule_is_stored_with_the_keys_the_thermostat_uses() -> None:
    """Day and entry keys from YAML (numbers) become the strings firmware keeps."""
    stored = validate_schedule({**SCHEDULE, "days": {1: {0: ENTRY, 1: {**ENTRY, "time": 0}}}})
    assert stored == {**SCHEDULE, "days": {"1": {"0": ENTRY, "1": {**ENTRY, "time": 0}}}}
    assert list(stored["days"]["1"]) == ["0", "1"]


@pytest.mark.parametrize(
    ("schedule", "message"),
    [
        ([], "Schedule must be an object"),
        ({**SCHEDULE, "ver": True}, "Schedule ver must be a positive integer"),
        ({**SCHEDULE, "name": 5}, "Schedule name must be a string"),
        ({**SCHEDULE, "days": []}, "Schedule days must be an object"),
        ({**SCHEDULE, "days": {"²": {"0": ENTRY}}}, "Schedule day '²' is not 0 to 6"),
        ({**SCHEDULE, "days": {"1": []}}, "Schedule day 1 must be an object"),
        ({**SCHEDULE, "days": {"1": {"0": "07:00"}}}, "Schedule day 1 entry 0 must be an object"),
        (
            {**SCHEDULE, "days": {"1": {"0": {**ENTRY, "time": True}}}},
            "Schedule day 1 entry 0: time must be 0 to 86400",
        ),
        (
            {**SCHEDULE, "days": {"1": {"0": {**ENTRY, "type": "AUTO"}}}},
            "Schedule day 1 entry 0: type must be HEAT, COOL or RANGE",
        ),
        (
            {**SCHEDULE, "days": {"1": {"0": {**ENTRY, "temp": "21"}}}},
            "Schedule day 1 entry 0: temp must be a number",
        ),
        (
            {**SCHEDULE, "days": {"1": {"0": {**ENTRY, "entry_type": "once"}}}},
            "Schedule day 1 entry 0: entry_type must be setpoint or continuation",
        ),
    ],
)
def test_a_malformed_schedule_is_refused_saying_where(schedule: Any, message: str) -> None:
    """The detail names the day and entry, so the user finds what to fix."""
    assert detail(schedule) == message


def test_the_same_time_on_two_days_is_no_clash() -> None:
    """Only two entries at one time on the same day are ambiguous to the thermostat."""
    days = {"1": {"0": ENTRY}, "2": {"0": ENTRY}}
    assert validate_schedule({**SCHEDULE, "days": days})["days"] == days
