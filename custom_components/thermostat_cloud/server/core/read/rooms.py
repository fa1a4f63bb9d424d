"""The room a thermostat is in, as firmware names it: `device.where_id`.

Firmware reports `shared.name` empty unless a name was given on the thermostat; what the
vendor's app showed instead was the room chosen on the thermostat at setup, `device.where_id`
(for example `00000000-0000-0000-0000-000100000006` in a capture of a 5.9.4-5 thermostat,
solbirn/Nest.Thermostat `docs/nest-api-schemas.md`). The rooms offered on the thermostat have
fixed ids (`ROOM_NAMES`, as codykociemba/NoLongerEvil-SelfHosted lists them in
`integrations/mqtt/helpers.py`); a room the user named is in the home's `where.<structure_id>`
bucket, `{"wheres": [{"where_id": ..., "name": ...}]}` (as clients of the vendor's cloud read it:
badnest `api.py`, `_get_names`), which firmware PUTs beside its own buckets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model.buckets import BucketStore, bucket_key
from ...model.text import for_state

FIXED_ROOM_PREFIX = "00000000-0000-0000-0000-0001000000"
# The last two hex digits of the fixed room ids (`00000000-0000-0000-0000-0001000000xx`).
ROOM_NAMES: dict[str, str] = {
    f"{FIXED_ROOM_PREFIX}{suffix}": name
    for suffix, name in (
        ("00", "Entryway"),
        ("01", "Basement"),
        ("02", "Hallway"),
        ("03", "Den"),
        ("04", "Attic"),
        ("05", "Master Bedroom"),
        ("06", "Downstairs"),
        ("07", "Garage"),
        ("09", "Bathroom"),
        ("0a", "Kitchen"),
        ("0b", "Family Room"),
        ("0c", "Living Room"),
        ("0d", "Bedroom"),
        ("0e", "Office"),
        ("0f", "Upstairs"),
        ("10", "Dining Room"),
        ("11", "Backyard"),
        ("12", "Driveway"),
        ("13", "Front Yard"),
        ("14", "Outside"),
        ("15", "Guest House"),
        ("16", "Shed"),
        ("17", "Deck"),
        ("18", "Patio"),
        ("1a", "Guest Room"),
        ("1b", "Front Door"),
        ("1c", "Side Door"),
        ("1d", "Back Door"),
    )
}


def custom_rooms(where: Mapping[str, Any]) -> dict[str, str]:
    """Return where_id -> name of the rooms a `where` bucket lists (malformed entries skipped)."""
    wheres = where.get("wheres")
    if not isinstance(wheres, list):
        return {}
    rooms: dict[str, str] = {}
    for entry in wheres:
        if not isinstance(entry, Mapping):
            continue
        where_id, name = entry.get("where_id"), for_state(entry.get("name"))
        if isinstance(where_id, str) and name:
            rooms[where_id.lower()] = name
    return rooms


def room_name(buckets: BucketStore, structure_id: str | None, where_id: object) -> str | None:
    """Return the room's name: the home's `where` bucket (user-named) first, then the fixed ones."""
    if not isinstance(where_id, str) or not where_id:
        return None
    where_id = where_id.lower()
    if structure_id is not None:
        where = buckets.value(bucket_key("where", structure_id))
        if (name := custom_rooms(where).get(where_id)) is not None:
            return name
    return ROOM_NAMES.get(where_id)
