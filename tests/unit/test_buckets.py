"""Bucket merge and timestamp rules, and entry-key lifecycle, without a network."""

from __future__ import annotations

import json

from custom_components.thermostat_cloud.server.core.testing import harness
from custom_components.thermostat_cloud.server.model.buckets import Bucket, BucketStore, split_key
from custom_components.thermostat_cloud.server.model.pairing import (
    ENTRY_KEY_ALPHABET,
    IssueOutcome,
    KeyStatus,
    PairingRegistry,
    RegisterOutcome,
    format_code,
    normalize_code,
)
from tests.conftest import FakeClock

KEY = "shared.02AA01AC331400AB"


def test_merge_is_shallow_and_bumps_only_on_change() -> None:
    clock = FakeClock()
    store = BucketStore(clock)
    first = store.merge(KEY, {"target_temperature": 20.0, "eco": {"mode": "schedule"}})
    assert first is not None
    assert (first.revision, first.timestamp) == (1, clock.now)

    clock.advance(1)
    assert store.merge(KEY, {"target_temperature": 20.0}) is None
    assert store.get(KEY) == Bucket(KEY, 1, clock.now - 1000, first.value)

    second = store.merge(KEY, {"eco": {"mode": "manual-eco"}})
    assert second is not None
    assert second.revision == 2
    assert second.timestamp == clock.now
    # Shallow: the nested object is replaced, not merged; other fields stay.
    assert second.value == {"target_temperature": 20.0, "eco": {"mode": "manual-eco"}}


def test_json_types_matter_when_comparing() -> None:
    """True is not 1 and 1 is not 1.0 to firmware, so a type change is a change."""
    store = BucketStore(FakeClock())
    store.merge(KEY, {"leaf": 1, "current_temperature": 20})
    changed = store.merge(KEY, {"leaf": True, "current_temperature": 20.0})
    assert changed is not None
    assert changed.revision == 2
    assert json.dumps(changed.value) == '{"leaf": true, "current_temperature": 20.0}'


def test_timestamp_strictly_increases_even_when_the_clock_does_not() -> None:
    clock = FakeClock()
    store = BucketStore(clock)
    stamps = []
    for value in range(5):
        bucket = store.merge(KEY, {"n": value})
        assert bucket is not None
        stamps.append(bucket.timestamp)
    clock.now -= 60_000  # wall clock stepped back (NTP)
    bucket = store.merge(KEY, {"n": 99})
    assert bucket is not None
    stamps.append(bucket.timestamp)
    assert stamps == sorted(set(stamps))


def test_values_handed_out_are_never_mutated() -> None:
    store = BucketStore(FakeClock())
    before = store.merge(KEY, {"a": 1})
    assert before is not None
    snapshot = before.value
    store.merge(KEY, {"b": 2})
    assert snapshot == {"a": 1}


def test_wire_order_puts_revision_and_timestamp_before_key() -> None:
    bucket = Bucket(KEY, 3, 1234, {"x": 1})
    assert list(bucket.wire()) == ["object_revision", "object_timestamp", "object_key", "value"]
    assert list(bucket.descriptor()) == ["object_revision", "object_timestamp", "object_key"]


def test_field_changes_are_ordered_across_buckets_within_one_millisecond() -> None:
    """Which bucket changed a field last (`fan_mode` lives in two): merge order, not clock."""
    clock = FakeClock()
    store = BucketStore(clock)
    device = store.merge("device.02AA01AC331400AB", {"fan_mode": "on"})
    shared = store.merge(KEY, {"fan_mode": "auto", "current_temperature": 20.0})
    assert device is not None
    assert shared is not None
    assert device.timestamp == shared.timestamp  # the clock did not move
    assert shared.field_changed("fan_mode") > device.field_changed("fan_mode")

    store.merge("device.02AA01AC331400AB", {"fan_mode": "off"})
    store.merge(KEY, {"current_temperature": 21.0})  # another field: fan_mode keeps its time
    assert device.field_changed("fan_mode") > shared.field_changed("fan_mode")

    # Loaded from storage: no change seen yet, the bucket timestamp is all there is, and any
    # change since the start is newer.
    loaded = BucketStore(clock)
    loaded.load({KEY: shared.as_stored()}, lambda key: None)
    restored = loaded.get(KEY)
    assert restored is not None
    assert restored.field_changed("fan_mode") == (0, shared.timestamp)
    again = loaded.merge("device.02AA01AC331400AB", {"fan_mode": "on"})
    assert again is not None
    assert again.field_changed("fan_mode") > restored.field_changed("fan_mode")


def test_load_skips_entries_that_do_not_parse() -> None:
    store = BucketStore(FakeClock())
    bad: list[str] = []
    store.load(
        {KEY: {"revision": 2, "timestamp": 5, "value": {"a": 1}}, "device.X": {"revision": "x"}},
        bad.append,
    )
    assert store.get(KEY) == Bucket(KEY, 2, 5, {"a": 1})
    assert bad == ["device.X"]


def test_split_key() -> None:
    """A bucket key splits at its first dot: a home's id may hold more dots."""
    assert split_key("structure.abc.def") == ("structure", "abc.def")
    assert split_key("nodot") is None
    assert split_key(".x") is None
    assert split_key("x.") is None


# -- entry keys ------------------------------------------------------------------------------------


def test_codes_are_seven_unambiguous_characters() -> None:
    registry = PairingRegistry(FakeClock())
    key, created = registry.issue("SERIAL01")
    assert created
    assert len(key.value) == 7
    assert set(key.value) <= set(ENTRY_KEY_ALPHABET)
    assert format_code("ABC1234") == "ABC-1234"


def test_normalize_code_accepts_case_and_dash() -> None:
    assert normalize_code(" abc-1234 ") == "ABC1234"
    assert normalize_code("ABC1234") == "ABC1234"
    assert normalize_code("ABC-123") is None
    assert normalize_code("ABC-12345") is None
    assert normalize_code("ABC_1234") is None


def test_ttl_is_never_under_thirty_minutes() -> None:
    clock = FakeClock()
    registry = PairingRegistry(clock, ttl_seconds=60)
    key, _ = registry.issue("SERIAL01")
    assert key.expires - clock.now == 30 * 60 * 1000


def test_pending_key_is_reused_and_slides_forward_near_expiry() -> None:
    clock = FakeClock()
    registry = PairingRegistry(clock, ttl_seconds=3600)
    key, _ = registry.issue("SERIAL01")
    expires = key.expires

    clock.advance(600)
    again, outcome = registry.issue("SERIAL01")
    assert (again.value, again.expires, outcome) == (key.value, expires, IssueOutcome.UNCHANGED)

    clock.advance(2000)  # 1000 s left: under the 30 minutes firmware needs
    again, outcome = registry.issue("SERIAL01")
    assert again.value == key.value
    assert outcome is IssueOutcome.EXTENDED
    assert again.expires == clock.now + 3600 * 1000


def test_expired_key_ends_and_a_new_one_follows() -> None:
    clock = FakeClock()
    registry = PairingRegistry(clock, ttl_seconds=3600)
    key, _ = registry.issue("SERIAL01")
    clock.advance(3601)
    assert registry.status("SERIAL01") == (KeyStatus.NO_KEY, None)
    assert registry.check(key.value) == (RegisterOutcome.INVALID, None)
    _, outcome = registry.issue("SERIAL01")
    assert outcome is IssueOutcome.CREATED


def test_expired_key_reports_expired_when_claimed_late() -> None:
    clock = FakeClock()
    registry = PairingRegistry(clock, ttl_seconds=3600)
    key, _ = registry.issue("SERIAL01")
    clock.advance(3601)
    outcome, found = registry.check(key.value)
    assert outcome is RegisterOutcome.EXPIRED
    assert found is key
    assert registry.status("SERIAL01")[0] is KeyStatus.NO_KEY


def test_key_is_single_use() -> None:
    registry = PairingRegistry(FakeClock())
    key, _ = registry.issue("SERIAL01")
    assert registry.check(key.value)[0] is RegisterOutcome.PAIRED
    registry.claim(key, "user1", "home")
    assert registry.check(key.value)[0] is RegisterOutcome.CLAIMED
    assert registry.status("SERIAL01")[0] is KeyStatus.CLAIMED
    # A claimed key is not handed out again: the device gets a fresh one.
    fresh, outcome = registry.issue("SERIAL01")
    assert outcome is IssueOutcome.CREATED
    assert fresh.value != key.value


def test_two_devices_never_share_a_pending_code() -> None:
    registry = PairingRegistry(FakeClock())
    codes = {registry.issue(f"SERIAL{i:04d}")[0].value for i in range(300)}
    assert len(codes) == 300


def test_home_bucket_change_is_announced_once_per_device() -> None:
    from custom_components.thermostat_cloud.server import ChangeSource, EventKind, ServiceEvent
    from tests.unit.test_home_rules import core_of

    core, bus = core_of(("SERIALA1", "SERIALB2"), "home1")
    seen: list[ServiceEvent] = []
    bus.listen(seen.append)
    core.commands.write_path.apply(
        "SERIALA1",
        {"structure.home1": {"away": True}, "shared.SERIALA1": {"target_temperature": 20.0}},
        ChangeSource.SERVER,
    )
    # Each device's share of the command is followed until it confirms it (COMMANDS).
    assert [(e.kind, e.serial, e.keys) for e in seen] == [
        (EventKind.COMMANDS, "SERIALA1", ()),
        (EventKind.STATE, "SERIALA1", ("structure.home1", "shared.SERIALA1")),
        (EventKind.COMMANDS, "SERIALB2", ()),
        (EventKind.STATE, "SERIALB2", ("structure.home1",)),
    ]


async def test_saves_are_not_postponed_by_a_stream_of_changes() -> None:
    """The first unsaved change schedules the save; later ones join it."""
    from collections.abc import Callable
    from typing import Any

    from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService

    class RecordingStorage:
        def __init__(self) -> None:
            self.scheduled: list[tuple[Callable[[], dict[str, Any]], float]] = []

        async def async_load(self) -> dict[str, Any] | None:
            return {"home_user_id": "u", "home_structure_id": "s"}

        def embed_json(self, data: bytes) -> Any:
            return json.loads(data)

        def schedule_save(self, snapshot: Callable[[], dict[str, Any]], delay: float) -> None:
            self.scheduled.append((snapshot, delay))

        async def async_save(self, data: dict[str, Any]) -> None:
            raise AssertionError("not expected")

    storage = RecordingStorage()
    service = ThermostatService(ServiceConfig(api_origin="http://127.0.0.1:1"), storage)
    await service.async_load()
    for value in range(5):
        harness(service).merge(KEY, {"n": value})
        harness(service).request_save()
    assert [delay for _, delay in storage.scheduled] == [service.config.save_delay]

    snapshot = storage.scheduled[0][0]()  # the store writes
    assert snapshot["buckets"][KEY]["value"] == {"n": 4}
    harness(service).request_save()
    assert len(storage.scheduled) == 2


def test_wire_json_is_the_wire_form_and_follows_changes() -> None:
    store = BucketStore(FakeClock())
    bucket = store.merge(KEY, {"a": 1})
    assert bucket is not None
    first = bucket.wire_json()
    assert json.loads(first) == bucket.wire()
    assert first.startswith(b'{"object_revision":1,"object_timestamp":')
    store.merge(KEY, {"a": 2})
    assert json.loads(bucket.wire_json())["value"] == {"a": 2}


def test_each_save_carries_what_changed_since_the_last_one() -> None:
    """No change is lost between saves, whatever path made it.

    Buckets and device records keep their saved form between saves: a change (a merge, a
    request from the device, new identity) must still reach the next save.
    """
    from custom_components.thermostat_cloud.server.model.devices import DeviceRegistry

    clock = FakeClock()
    buckets, devices = BucketStore(clock), DeviceRegistry(clock)
    devices.touch("A")
    buckets.merge("shared.A", {"target_temperature": 20.0})
    buckets.merge("shared.B", {"target_temperature": 18.0})
    assert buckets.dump(json.loads)["shared.A"]["value"] == {"target_temperature": 20.0}
    first_seen = devices.dump(json.loads)[0]["last_seen"]

    clock.advance(5)
    buckets.merge("shared.A", {"target_temperature": 21.5})
    devices.touch("A")
    devices.update_identity("A", {"model": "Display-3.0"})

    saved = buckets.dump(json.loads)
    assert saved["shared.A"] == {
        "revision": 2,
        "timestamp": clock.now,
        "value": {"target_temperature": 21.5},
    }
    assert saved["shared.B"]["value"] == {"target_temperature": 18.0}
    (record,) = devices.dump(json.loads)
    assert record["last_seen"] == first_seen + 5000
    assert record["model"] == "Display-3.0"


def test_kept_json_costs_its_length_not_the_encoders_buffer() -> None:
    """Memory per thermostat stays small: kept JSON does not hold the encoder's buffer.

    Every bucket keeps its JSON for pushes and saves (three per thermostat): orjson's own
    result holds on to its ~1 KiB working buffer, which for 10,000 thermostats was 40 MiB.
    """
    import tracemalloc

    from custom_components.thermostat_cloud.server.model.records import compact_json

    value = {"target_temperature": 20.5, "target_temperature_type": "heat"}
    tracemalloc.start()
    try:
        kept = [compact_json(value) for _ in range(1000)]
        allocated = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(kept[0]) == 60
    assert allocated < 1000 * 200  # bytes header and 60 bytes of JSON: about 100 each
