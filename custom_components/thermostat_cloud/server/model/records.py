"""What saving the service's state needs: flat records, and JSON serialized once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeIs

import orjson

type EmbedJson = Callable[[bytes], Any]
"""How a save document carries JSON the service serialized already (`Storage.embed_json`)."""


class UnstorableError(ValueError):
    """A value the host's storage (orjson) cannot write."""


def ensure_storable(data: Any) -> None:
    r"""Refuse (UnstorableError) what the saved document could not hold.

    Python's `json` reads `"\ud800"` (an unpaired UTF-16 surrogate) into a string that orjson
    refuses to write: kept, one such string would make every later save fail, and with it
    the thermostat's pushes. Everything that stores outside values checks them here first.
    """
    try:
        orjson.dumps(data)
    except TypeError as err:  # orjson.JSONEncodeError is a TypeError
        raise UnstorableError(str(err)) from None


def compact_json(data: Any) -> bytes:
    """JSON without spaces, as bytes: every push and save of a changed bucket.

    orjson (the host's own JSON library) keeps keys in insertion order and writes
    numbers as the shortest text that reads back the same, as `json.dumps` does (non-finite
    numbers and integers beyond 64 bits never get into a bucket: parse_json refuses them),
    at a tenth of the cost, which for a thermostat's hundred-field buckets is most of a push.

    The result is copied: orjson's own bytes keep the buffer it grew while writing (about
    1 KiB however short the JSON), and every bucket and device record keeps its JSON.
    """
    return bytes(memoryview(orjson.dumps(data)))


def flat_dict(record: Any) -> dict[str, Any]:
    """Return a dataclass of plain values as a dict, for storage.

    `dataclasses.asdict` deep-copies recursively and made a save of 1,000 thermostats' records
    cost 10 ms of the event loop; these records hold plain values only, so a shallow copy is
    the same result for a fraction of it.
    """
    return {name: getattr(record, name) for name in record.__dataclass_fields__}


def is_int(value: object) -> TypeIs[int]:
    """Whether a saved value is a whole number (JSON's `true` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)
