"""What saving the service's state needs: flat records, and JSON serialized once."""

from __future__ import annotations

from collections.abc import Callable
import json
from typing import Any

type EmbedJson = Callable[[bytes], Any]
"""How a save document carries JSON the service serialized already (`Storage.embed_json`)."""


def compact_json(data: Any) -> bytes:
    """JSON without spaces, as bytes."""
    return json.dumps(data, separators=(",", ":")).encode()


def flat_dict(record: Any) -> dict[str, Any]:
    """A dataclass of plain values as a dict, for storage.

    `dataclasses.asdict` deep-copies recursively and made a save of 1,000 thermostats' records
    cost 10 ms of the event loop; these records hold plain values only, so a shallow copy is
    the same result for a fraction of it.
    """
    return {name: getattr(record, name) for name in record.__dataclass_fields__}
