"""The service's storage for the in-process benchmarks: nothing loaded, nothing saved.

It embeds serialized JSON with orjson's `Fragment`, as Home Assistant's store does, so what a
save would cost stays what `bench.save_cost` measures by saving by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson


class UnsavedStorage:
    """A fresh install whose saves are left out of what is measured."""

    async def async_load(self) -> dict[str, Any] | None:
        """Return nothing: a fresh install."""
        return None

    def embed_json(self, data: bytes) -> Any:
        """Splice serialized JSON in, as Home Assistant's store does."""
        return orjson.Fragment(data)

    def schedule_save(self, snapshot: Callable[[], dict[str, Any]], delay: float) -> None:
        """Save nothing: saving is not part of what is measured."""

    async def async_save(self, data: dict[str, Any]) -> None:
        """Save nothing: saving is not part of what is measured."""
