"""The home's rules decide; the write path writes what they decide, once.

A thermostat that reports the home back (someone came home, or the dial left eco) ends the
home's manual eco on every thermostat still in it. The rule only computes those writes; the
write path writes them as one server change right after the report, without entering
`apply` again. The core is built from its parts here, on a clock the test holds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings, strategies as st
import pytest

from custom_components.thermostat_cloud.server import (
    ChangeSource,
    EventKind,
    ServiceConfig,
    ServiceEvent,
)
from custom_components.thermostat_cloud.server.core.context import CoreContext
from custom_components.thermostat_cloud.server.core.events import Announcements, EventBus
from custom_components.thermostat_cloud.server.core.read.readings import BucketReadings, home_away
from custom_components.thermostat_cloud.server.core.write.commands import Commands
from custom_components.thermostat_cloud.server.core.write.confirmations import Confirmations
from custom_components.thermostat_cloud.server.core.write.home_rules import HomeChange, HomeRules
from custom_components.thermostat_cloud.server.core.write.write_path import WritePath
from custom_components.thermostat_cloud.server.delivery import Delivery, SubscriptionHub
from custom_components.thermostat_cloud.server.model.buckets import Bucket, BucketStore
from custom_components.thermostat_cloud.server.model.devices import DeviceRegistry
from custom_components.thermostat_cloud.server.model.pairing import PairingRegistry
from tests.conftest import FakeClock

SERIALS = ("02AA01AC331400AB", "02AA01AC331400CD")
HOME = "home1"
STRUCTURE = f"structure.{HOME}"


@dataclass
class Core:
    """The command layer over its stores, with what the test watches."""

    context: CoreContext
    clock: FakeClock
    commands: Commands
    delivery: Delivery
    events: list[ServiceEvent] = field(default_factory=list)

    @property
    def buckets(self) -> BucketStore:
        """Every bucket."""
        return self.context.buckets


def not_read(serial: str) -> Any:
    raise AssertionError("the read model is not asked here")


def core_of(serials: tuple[str, ...] = SERIALS, home: str = HOME) -> tuple[Core, EventBus]:
    """Return the command layer over fresh stores, the thermostats in the home; and its bus."""
    clock = FakeClock()
    buckets = BucketStore(clock)
    pairings = PairingRegistry(clock)
    for serial in serials:
        key, _ = pairings.issue(serial)
        pairings.claim(key, "user1", home)
    bus = EventBus()
    context = CoreContext(
        config=ServiceConfig(api_origin="http://127.0.0.1:8000"),
        clock=clock,
        buckets=buckets,
        devices=DeviceRegistry(clock),
        ownership=pairings,
        events=Announcements(bus, ()),
        request_save=lambda: None,
        save_now_later=lambda: None,
    )
    delivery = Delivery(buckets, SubscriptionHub(), pairings.home_keys)
    confirmations = Confirmations(context, state_of=not_read)
    commands = Commands(context, delivery=delivery, confirmations=confirmations)
    return Core(context, clock, commands, delivery), bus


def away_home(serials: tuple[str, ...] = SERIALS) -> Core:
    """Return a home whose thermostats all went away and reported the manual eco they entered."""
    core, bus = core_of(serials)
    assert core.commands.set_home_away(HOME, True).changed
    for serial in serials:
        report(core, serial, "device", eco={"mode": "manual-eco", "touched_by": 3})
    bus.listen(core.events.append)
    return core


def in_eco(core: Core, serial: str) -> bool:
    return BucketReadings(core.buckets, serial).eco


def report(core: Core, serial: str, bucket: str, **fields: Any) -> None:
    """Let a thermostat report fields, as a PUT does (`bucket` "structure" is its home's)."""
    key = STRUCTURE if bucket == "structure" else f"{bucket}.{serial}"
    core.commands.write_path.apply(serial, {key: fields}, ChangeSource.DEVICE)


def revisions(core: Core) -> dict[str, int]:
    return {bucket.key: bucket.revision for bucket in core.buckets}


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


def test_the_rule_returns_the_homes_return_and_writes_nothing() -> None:
    """Asked about a report (merged already), the rule reads; buckets and events stay."""
    core = away_home()
    core.clock.advance(60)
    updates = {STRUCTURE: {"away": False}}
    merged = core.buckets.merge(STRUCTURE, updates[STRUCTURE])
    assert merged is not None
    before = revisions(core)

    change = HomeRules(core.context).home_back(SERIALS[0], updates, {STRUCTURE: merged})

    assert (revisions(core), core.events) == (before, [])
    assert isinstance(change, HomeChange)
    now_s = core.clock.now_ms() // 1000
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
    core = away_home()
    before = revisions(core)
    pushed: list[tuple[str, list[str]]] = []
    server_changed = core.delivery.server_changed

    def push(serial: str, keys: Any) -> None:
        pushed.append((serial, list(keys)))
        server_changed(serial, keys)

    core.delivery.server_changed = push  # type: ignore[method-assign]
    first, second = SERIALS
    devices = tuple(f"device.{serial}" for serial in SERIALS)

    with counting_applies() as entries:
        report(core, first, "structure", away=False)

    assert entries == [first]
    assert heard(core.events) == [
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
    after = revisions(core)
    assert after[STRUCTURE] == before[STRUCTURE] + 2
    assert all(after[key] == before[key] + 1 for key in devices)
    assert not home_away(core.buckets, HOME)
    assert not any(in_eco(core, serial) for serial in SERIALS)


def test_an_eco_report_older_than_the_away_writes_only_itself() -> None:
    """Eco left on the dial before the home went away does not bring the home back."""
    core = away_home()
    stale = core.clock.now_ms() // 1000 - 60

    with counting_applies() as entries:
        report(core, SERIALS[0], "device", eco={"mode": "schedule", "mode_update_timestamp": stale})

    assert entries == [SERIALS[0]]
    assert heard(core.events) == [(SERIALS[0], (f"device.{SERIALS[0]}",), ChangeSource.DEVICE)]
    assert home_away(core.buckets, HOME)


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
    core = away_home()
    clock = core.clock
    for index, kind, stamp, wait, go_away in steps:
        if go_away:
            core.commands.set_home_away(HOME, True)
        clock.advance(wait)
        serial = SERIALS[index]
        bucket, fields = REPORTS[kind]
        if "eco" in fields:
            now_s = clock.now_ms() // 1000
            fields = {"eco": {**fields["eco"], "mode_update_timestamp": now_s + stamp}}
        before = revisions(core)
        core.events.clear()
        with counting_applies() as entries:
            report(core, serial, bucket, **fields)
        home_back = [
            event
            for event in heard(core.events)
            if event[0] == serial and event[2] is ChangeSource.SERVER
        ]

        assert entries == [serial]
        assert len(home_back) <= 1
        after = revisions(core)
        assert all(after[key] - before.get(key, 0) <= (2 if home_back else 1) for key in after)
        if home_back:
            assert not home_away(core.buckets, HOME)
            assert not any(in_eco(core, other) for other in SERIALS)
