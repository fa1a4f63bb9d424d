"""How a thermostat firmware leaves unnamed is named after its room (`device.where_id`).

The room-naming tests with Home Assistant are in tests/test_rooms.py; these cover the lookup's
edges: letter case, the user's own names, malformed `where` buckets.
"""

from __future__ import annotations

from custom_components.thermostat_cloud.server import bucket_key
from custom_components.thermostat_cloud.server.core.read.rooms import FIXED_ROOM_PREFIX, room_name
from custom_components.thermostat_cloud.server.model.buckets import BucketStore
from tests.conftest import FakeClock

HOME = "6f1c2f36-1a2b-4c3d-8e9f-000000000001"
LIVING_ROOM = f"{FIXED_ROOM_PREFIX}0c"
SUNROOM = "6F1C2F36-1A2B-4C3D-8E9F-00000000BEEF"


def home_with_rooms(*wheres: object) -> BucketStore:
    """Return the buckets of a home whose `where` bucket lists these entries."""
    buckets = BucketStore(FakeClock())
    buckets.merge(bucket_key("where", HOME), {"wheres": list(wheres)})
    return buckets


def test_a_fixed_room_is_named_whatever_the_case_of_its_id() -> None:
    """Firmware's ids are lower case in captures; an upper-case one names the same room."""
    buckets = BucketStore(FakeClock())
    assert room_name(buckets, HOME, LIVING_ROOM) == "Living Room"
    assert room_name(buckets, HOME, LIVING_ROOM.upper()) == "Living Room"
    assert room_name(buckets, None, LIVING_ROOM) == "Living Room"


def test_the_users_name_for_a_room_wins_over_the_fixed_one() -> None:
    """A room renamed on the thermostat shows the new name, and a user's own room its name."""
    buckets = home_with_rooms(
        {"where_id": LIVING_ROOM, "name": "Lounge"}, {"where_id": SUNROOM, "name": "Sunroom"}
    )
    assert room_name(buckets, HOME, LIVING_ROOM) == "Lounge"
    assert room_name(buckets, HOME, SUNROOM.lower()) == "Sunroom"
    # Another home's rooms are not this one's.
    assert room_name(buckets, "another-home", SUNROOM) is None


def test_malformed_room_entries_are_skipped_not_fatal() -> None:
    """A `where` bucket firmware or a client garbled still names the rooms it can."""
    buckets = home_with_rooms(
        "Sunroom",
        {"where_id": SUNROOM},
        {"where_id": 7, "name": "Seven"},
        {"where_id": LIVING_ROOM, "name": ""},
        {"where_id": SUNROOM, "name": "Sunroom"},
    )
    assert room_name(buckets, HOME, SUNROOM) == "Sunroom"
    assert room_name(buckets, HOME, LIVING_ROOM) == "Living Room"
    broken = BucketStore(FakeClock())
    broken.merge(bucket_key("where", HOME), {"wheres": {"where_id": SUNROOM}})
    assert room_name(broken, HOME, LIVING_ROOM) == "Living Room"


def test_no_room_is_no_name() -> None:
    """An unknown id, an empty one or one that is no text leaves the thermostat's own name."""
    buckets = BucketStore(FakeClock())
    for where_id in (f"{FIXED_ROOM_PREFIX}08", "", None, 12):
        assert room_name(buckets, HOME, where_id) is None, where_id
