"""A wake-up flag a long-lived handler waits on with a timeout."""

from __future__ import annotations

import asyncio


class Wakeup:
    """Set by publishers, awaited by one handler (a held long-poll or an event stream).

    A set that lands before the handler waits is not lost: `wait` returns at once and clears it.
    """

    __slots__ = ("_event",)

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def set(self) -> None:
        """Wake the waiting handler (or the next wait)."""
        self._event.set()

    async def wait(self, timeout: float) -> bool:
        """Wait until set or the timeout elapses; True when set."""
        if not self._event.is_set():
            try:
                async with asyncio.timeout(timeout):
                    await self._event.wait()
            except TimeoutError:
                return False
        self._event.clear()
        return True
