"""The core's holds and vacations without Home Assistant: the schedule in time, what is saved.

Holds and vacations at work (over real TCP, with a moving clock) are in tests/test_holds.py and
tests/test_vacations.py; here: which entry is in force when, the previous version's saved
document, and stored entries that do not parse.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
import logging
from typing import Any

from hypothesis import given, settings, strategies as st
import pytest

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core.read.schedule import (
    next_schedule_change,
    scheduled_setpoint,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import FakeClock, MemoryStorage
from thermostat_sim import WEEK_SCHEDULE

from .conftest import pair


def wall(year: int, month: int, day: int, hour: int, minute: int) -> datetime:
    """Return a wall-clock time of the home (naive: the schedule's own clock)."""
    return datetime(year, month, day, hour, minute, tzinfo=UTC).replace(tzinfo=None)


SCHEDULE: dict[str, Any] = {
    **WEEK_SCHEDULE,
    "days": {
        # Tuesday (Monday is "0"): 21 °C from 07:00, 17.5 °C from 22:00.
        **WEEK_SCHEDULE["days"],
        # Thursday: a range from 06:00.
        "3": {
            "0": {
                "time": 21600,
                "temp-min": 19.0,
                "temp-max": 24.0,
                "type": "RANGE",
                "entry_type": "setpoint",
            }
        },
    },
}


@pytest.mark.parametrize(
    ("local", "target", "low_high"),
    [
        (wall(2026, 11, 24, 6, 59), None, (19.0, 24.0)),  # Tuesday, before 07:00: Thursday's
        (wall(2026, 11, 24, 7, 0), 21.0, None),
        (wall(2026, 11, 24, 23, 0), 17.5, None),
        (wall(2026, 11, 25, 12, 0), 17.5, None),  # Wednesday: Tuesday's last, carried on
        (wall(2026, 11, 26, 6, 0), None, (19.0, 24.0)),
    ],
)
def test_the_entry_in_force_looks_back_across_days(
    local: datetime, target: float | None, low_high: tuple[float, float] | None
) -> None:
    """The thermostat keeps an entry's setpoint until the next, across midnight and days."""
    entry = scheduled_setpoint(SCHEDULE, local)
    assert entry is not None
    assert entry.target == target
    assert (entry.low, entry.high) == (low_high or (None, None))


def test_the_next_change_is_the_next_entry() -> None:
    """From Tuesday 20:00 the next entry is 22:00; after it, Thursday 06:00."""
    change = next_schedule_change(SCHEDULE, wall(2026, 11, 24, 20, 0))
    assert change is not None
    assert change.starts == wall(2026, 11, 24, 22, 0)
    change = next_schedule_change(SCHEDULE, wall(2026, 11, 24, 22, 0))
    assert change is not None
    assert change.starts == wall(2026, 11, 26, 6, 0)


def test_no_schedule_has_no_entry() -> None:
    """An empty schedule, or entries that do not parse, give nothing to resume."""
    assert scheduled_setpoint({}, wall(2026, 11, 24, 20, 0)) is None
    broken = {"days": {"1": {"0": {"time": "7am", "temp": 21}}}}
    assert next_schedule_change(broken, wall(2026, 11, 24, 20, 0)) is None


async def test_the_previous_versions_document_loads_and_keeps_everything(
    service: ThermostatService,
) -> None:
    """A document saved before holds and vacations (no such keys) loads: there are none.

    Saved again, everything it held is kept, and the two new keys are added beside it.
    """
    pair(service, "02AA01AC331400AB")
    await service.async_flush()
    storage = harness(service).storage
    assert isinstance(storage, MemoryStorage)
    assert storage.data is not None
    previous = {
        key: value for key, value in storage.data.items() if key not in {"holds", "vacations"}
    }

    again = MemoryStorage(previous)
    reloaded = ThermostatService(service.config, again, FakeClock())
    await reloaded.async_load()
    assert reloaded.holds.hold_of("02AA01AC331400AB") is None
    assert reloaded.vacations.vacations() == []
    assert reloaded.pairing.is_paired("02AA01AC331400AB")
    await reloaded.async_flush()
    assert again.data == {**previous, "holds": {}, "vacations": {"list": [], "rates": {}}}


async def test_stored_holds_and_vacations_that_do_not_parse_are_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Damaged entries are ignored with a warning; the good ones and the rest load."""
    until = int(datetime(2100, 1, 1, tzinfo=UTC).timestamp() * 1000)
    document = {
        "holds": {
            "GOOD": {"until_ms": until, "target": 22.0, "written_ms": 0},
            "NO_END": {"target": 22.0},
            "BOTH": {"until_ms": until, "target": 22.0, "low": 19.0, "high": 24.0},
            "BARE": 22.0,
        },
        "vacations": {
            "list": [
                {"id": "a1", "start_ms": until, "end_ms": until + 1000, "summary": "Skiing"},
                {"id": 5, "start_ms": "soon"},
                "nonsense",
            ],
            "rates": {"GOOD": 6.0, "BAD": "fast"},
        },
    }
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000"), MemoryStorage(document), FakeClock()
    )
    with caplog.at_level(logging.WARNING):
        await service.async_load()
    assert harness(service).snapshot()["holds"] == {
        "GOOD": {"until_ms": until, "target": 22.0, "low": None, "high": None, "written_ms": 0}
    }
    assert [v.summary for v in service.vacations.vacations()] == ["Skiing"]
    assert harness(service).snapshot()["vacations"]["rates"] == {"GOOD": 6.0}
    assert "Ignoring the stored hold of NO_END" in caplog.text
    assert "Ignoring the stored hold of BARE" in caplog.text
    assert "Ignoring a stored vacation" in caplog.text


async def test_unpairing_a_thermostat_ends_its_hold(service: ThermostatService) -> None:
    """A thermostat no longer in the home keeps no hold (nor its timer)."""
    pair(service, "02AA01AC331400AB")
    harness(service).merge(
        "shared.02AA01AC331400AB", {"target_temperature_type": "heat", "target_temperature": 20.0}
    )
    service.start()
    service.holds.hold("02AA01AC331400AB", temperature=22, duration=timedelta(hours=1))
    assert service.holds.hold_of("02AA01AC331400AB") is not None
    assert service.pairing.unpair("02AA01AC331400AB")
    assert service.holds.hold_of("02AA01AC331400AB") is None


ENTRY_TIMES = st.lists(st.integers(0, 86399), min_size=1, max_size=4, unique=True)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    days=st.dictionaries(st.integers(0, 6), ENTRY_TIMES, min_size=1, max_size=7),
    minute_of_week=st.integers(0, 7 * 24 * 60 - 1),
)
def test_the_entry_in_force_is_the_last_before_and_the_next_is_the_first_after(
    days: dict[int, list[int]], minute_of_week: int
) -> None:
    """For any week and any moment: in force is the latest entry at or before it.

    The next change is the earliest after it; a week around at most (the week repeats).
    """
    schedule = {
        "days": {
            str(day): {
                str(number): {"time": time, "temp": 10 + day + number / 10, "type": "HEAT"}
                for number, time in enumerate(times)
            }
            for day, times in days.items()
        }
    }
    monday = wall(2026, 11, 23, 0, 0)
    now = monday + timedelta(minutes=minute_of_week)
    starts = sorted(
        monday + timedelta(days=day + week * 7, seconds=time)
        for day, times in days.items()
        for time in times
        for week in (-1, 0, 1)
    )
    in_force = scheduled_setpoint(schedule, now)
    upcoming = next_schedule_change(schedule, now)
    assert in_force is not None
    assert upcoming is not None
    assert in_force.starts == max(start for start in starts if start <= now)
    assert upcoming.starts == min(start for start in starts if start > now)
