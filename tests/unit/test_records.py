"""What may be saved: nothing that would make every later save, and so every push, fail."""

from __future__ import annotations

import orjson
import pytest

from custom_components.thermostat_cloud.server.model.buckets import BucketStore
from custom_components.thermostat_cloud.server.model.records import (
    UnstorableError,
    compact_json,
    ensure_storable,
)
from tests.conftest import FakeClock


@pytest.mark.parametrize(
    "value",
    [{"name": "\ud800"}, {"\udfff": 1}, {"days": [{"names": ["ok", "\ud83d"]}]}],
)
def test_a_lone_surrogate_anywhere_is_refused(value: object) -> None:
    """Python's JSON reader accepts one; the host's storage cannot write it."""
    with pytest.raises(UnstorableError):
        ensure_storable(value)


def test_a_bucket_keeps_its_value_when_a_change_could_not_be_saved() -> None:
    """The refused change is not half applied: the thermostat's state stays as it was."""
    buckets = BucketStore(FakeClock())
    buckets.merge("shared.02AA01AC331400AB", {"name": "Hall"})
    with pytest.raises(UnstorableError):
        buckets.merge("shared.02AA01AC331400AB", {"name": "\ud800", "current_temperature": 20})
    bucket = buckets.get("shared.02AA01AC331400AB")
    assert bucket is not None
    assert (bucket.value, bucket.revision) == ({"name": "Hall"}, 1)


def test_json_is_compact_ordered_and_reads_back_the_same() -> None:
    """Fields keep the order firmware sent them in; numbers keep their exact value."""
    value = {"z": 0.1, "a": [1, 2.5, None], "name": "Büro", "big": 2**63 - 1}
    written = compact_json(value)
    assert written == '{"z":0.1,"a":[1,2.5,null],"name":"Büro","big":9223372036854775807}'.encode()
    assert orjson.loads(written) == value
