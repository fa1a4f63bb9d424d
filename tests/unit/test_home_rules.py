"""The home's rules decide; the write path writes what they decide, once.

A thermostat that reports the home back (someone came home, or the dial left eco) ends the
home's manual eco on every thermostat still in it. The rule only computes those writes; the
write path writes them as one server change right after the report, without entering
`apply` again. The service core runs on a clock the test holds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from hypothesis import given, settings, strategies as st
import pytest

from custom_components.thermostat_cloud.server import (
    ChangeSource,
    EventKind,
    ServiceConfig,
    ServiceEvent,
    ThermostatService,
    ThermostatState,
)
from custom_components.thermostat_cloud.server.core.home_rules import HomeChange, HomeRules
from custom_components.thermostat_cloud.server.core.write_path import WritePath
from custom_components.thermostat_cloud.server.model.buckets import Bucket
from tests.conftest import FakeClock, MemoryStorage

from .conftest import pair

SERIALS = ("02AA01AC331400AB", "02AA01AC331400CD")
HOME = "home1"
STRUCTURE = f"structure.{HOME}"


def new_service() -> ThermostatService:
    """Return a loaded core (home `home1`) on a clock the test moves; nothing is started."""
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000"),
        MemoryStorage({"home_user_id": "user1", "home_structure_id": HOME}),
        FakeClock(),
    )
    asyncio.run(service.async_load())
    return service


def away_home(serials: tuple[str, ...] = SERIALS) -> ThermostatService:
    """Return a home whose thermostats all went away, and report the manual eco they entered."""
    service = new_service()
    for serial in serials:
        pair(service, serial)
    assert service.commands.set_home_away(HOME, True).changed
    for serial in serials:
        report(service, serial, "device", eco={"mode": "manual-eco", "touched_by": 3})
    return service


def clock_of(service: ThermostatService) -> FakeClock:
    clock = service.clock
    assert isinstance(clock, FakeClock)
    return clock


def report(service: ThermostatService, serial: str, bucket: str, **fields: Any) -> None:
    """Let a thermostat report fields, as a PUT does (`bucket` "structure" is its home's)."""
    key = STRUCTURE if bucket == "structure" else f"{bucket}.{serial}"
    service.commands.apply(serial, {key: fields}, ChangeSource.DEVICE)


def revisions(service: ThermostatService) -> dict[str, int]:
    return {bucket.key: bucket.revision for bucket in service.buckets}


def heard(events: list[ServiceEvent]) -> list[tuple[str, tuple[str, ...], ChangeSource]]:
    """Return the STATE events as (device, bucket keys, source)."""
    return [(e.serial, e.keys, e.source) for e in events if e.kind is EventKind.STATE]


@contextmanager
def counting_applies() -> Iterator[list[str]]:
    """Count every entry into `WritePath.apply`, re-entries included (by writer)."""
    entries: list[str] = []
    original = WritePath.apply

    def counted(self: WritePath, serial: str, *args: Any, **kwargs: Any) -> dict[str, Bucket]:
        entries.append(serial)
        return original(self, serial, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WritePath, "apply", counted)
        yield entries


def listening(service: ThermostatService) -> list[ServiceEvent]:
    events: list[ServiceEvent] = []
    service.events.listen(events.append)
    return events


def test_the_rule_returns_the_homes_return_and_writes_nothing() -> None:
    """Asked about a report (merged already), the rule reads; buckets and events stay."""
    service = away_home()
    clock_of(service).advance(60)
    updates = {STRUCTURE: {"away": False}}
    merged = service.buckets.merge(STRUCTURE, updates[STRUCTURE])
    assert merged is not None
    before = revisions(service)
    events = listening(service)

    change = HomeRules(service.context).home_back(SERIALS[0], updates, {STRUCTURE: merged})

    assert (revisions(service), events) == (before, [])
    assert isinstance(change, HomeChange)
    now_s = service.clock.now_ms() // 1000
    assert (change.writer, change.result_key) == (SERIALS[0], STRUCTURE)
    assert list(change.updates) == [STRUCTURE, *(f"device.{serial}" for serial in SERIALS)]
    assert change.updates[STRUCTURE] == {
        "away": False,
        "manual_eco_all": False,
        "manual_eco_timestamp": now_s,
    }
    for serial in SERIALS:
        eco = change.updates[f"device.{serial}"]
        assert eco["eco"]["mode"] == "schedule"
        assert eco["eco_mode_enabled"] is False


def test_a_report_that_brings_the_home_back_is_followed_by_one_server_change() -> None:
    """One entry into apply; the report's change, then the home's return, each once."""
    service = away_home()
    before = revisions(service)
    events = listening(service)
    pushed: list[tuple[str, list[str]]] = []
    server_changed = service.delivery.server_changed

    def push(serial: str, keys: Any) -> None:
        pushed.append((serial, list(keys)))
        server_changed(serial, keys)

    service.delivery.server_changed = push  # type: ignore[method-assign]
    first, second = SERIALS
    devices = tuple(f"device.{serial}" for serial in SERIALS)

    with counting_applies() as entries:
        report(service, first, "structure", away=False)

    assert entries == [first]
    assert heard(events) == [
        # The report: the thermostat has it; the other of the home is told.
        (first, (STRUCTURE,), ChangeSource.DEVICE),
        (second, (STRUCTURE,), ChangeSource.SERVER),
        # The home's return, one change for each thermostat.
        (first, (STRUCTURE, *devices), ChangeSource.SERVER),
        (second, (STRUCTURE,), ChangeSource.SERVER),
    ]
    assert pushed == [
        (second, [STRUCTURE]),
        (first, [STRUCTURE, *devices]),
        (second, [STRUCTURE]),
    ]
    after = revisions(service)
    assert after[STRUCTURE] == before[STRUCTURE] + 2
    assert all(after[key] == before[key] + 1 for key in devices)
    assert not any(ThermostatState(service, serial).away for serial in SERIALS)
    assert not any(ThermostatState(service, serial).eco for serial in SERIALS)


def test_an_eco_report_older_than_the_away_writes_only_itself() -> None:
    """Eco left on the dial before the home went away does not bring the home back."""
    service = away_home()
    stale = service.clock.now_ms() // 1000 - 60
    events = listening(service)

    with counting_applies() as entries:
        report(
            service, SERIALS[0], "device", eco={"mode": "schedule", "mode_update_timestamp": stale}
        )

    assert entries == [SERIALS[0]]
    assert heard(events) == [(SERIALS[0], (f"device.{SERIALS[0]}",), ChangeSource.DEVICE)]
    assert ThermostatState(service, SERIALS[0]).away


REPORTS: list[tuple[str, Mapping[str, Any]]] = [
    ("structure", {"away": False}),
    ("structure", {"away": True}),
    ("structure", {"away": False, "manual_eco_all": True}),
    ("device", {"eco": {"mode": "schedule"}}),
    ("device", {"eco": {"mode": "manual-eco"}}),
    ("device", {"eco": {"mode": "auto-eco"}}),
]
STEPS = st.lists(
    st.tuples(
        st.sampled_from(range(len(SERIALS))),
        st.sampled_from(range(len(REPORTS))),
        st.sampled_from((-120, 0, 30)),  # the eco report's stamp against the clock, seconds
        st.sampled_from((0, 5, 700)),  # seconds before the report
        st.booleans(),  # the home's Away switch turned on first
    ),
    min_size=1,
    max_size=8,
)


@pytest.mark.filterwarnings(
    # Home Assistant's test plugin registers its random in a way Hypothesis warns about.
    "ignore:It looks like `register_random`:hypothesis.errors.HypothesisWarning"
)
@settings(max_examples=40, derandomize=True, deadline=None)
@given(steps=STEPS)
def test_every_report_is_written_once_and_the_home_follows_at_most_once(
    steps: list[tuple[int, int, int, int, bool]],
) -> None:
    """For any reports: one apply each, at most one server change after it, which ends away."""
    service = away_home()
    clock = clock_of(service)
    for index, kind, stamp, wait, go_away in steps:
        if go_away:
            service.commands.set_home_away(HOME, True)
        clock.advance(wait)
        serial = SERIALS[index]
        bucket, fields = REPORTS[kind]
        if "eco" in fields:
            now_s = clock.now_ms() // 1000
            fields = {"eco": {**fields["eco"], "mode_update_timestamp": now_s + stamp}}
        before = revisions(service)
        events = listening(service)
        with counting_applies() as entries:
            report(service, serial, bucket, **fields)
        home_back = [
            event
            for event in heard(events)
            if event[0] == serial and event[2] is ChangeSource.SERVER
        ]

        assert entries == [serial]
        assert len(home_back) <= 1
        after = revisions(service)
        assert all(after[key] - before.get(key, 0) <= (2 if home_back else 1) for key in after)
        if home_back:
            assert not any(ThermostatState(service, other).away for other in SERIALS)
            assert not any(ThermostatState(service, other).eco for other in SERIALS)
