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

    Python's `json` reads `"\ud800"` into a string orjson refuses to write: kept, it would
    fail every later save, and with it the thermostat's pushes.
    """
    try:
        orjson.dumps(data)
    except TypeError as err:  # orjson.JSONEncodeError is a TypeError
        raise UnstorableError(str(err)) from None


def compact_json(data: Any) -> bytes:
    """JSON without spaces, as bytes: every push and save of a changed bucket.

    orjson writes what `json.dumps` would at a tenth of the cost, most of a push. The copy
    drops the ~1 KiB buffer orjson's bytes keep, as every bucket and record keeps its JSON.
    """
    return bytes(memoryview(orjson.dumps(data)))


def flat_dict(record: Any) -> dict[str, Any]:
    """Return a dataclass of plain values as a dict (`asdict`'s deep copy cost 10 ms per 1,000)."""
    return {name: getattr(record, name) for name in record.__dataclass_fields__}


def is_int(value: object) -> TypeIs[int]:
    """Whether a saved value is a whole number (JSON's `true` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


class FlatRecord:
    """A dataclass of plain values, saved as the dict of its fields (in their order)."""

    __slots__ = ()

    def dump(self) -> dict[str, Any]:
        return flat_dict(self)
