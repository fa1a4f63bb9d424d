"""Long-poll hub: which devices hold a subscribe connection, and reaching them.

A subscribe handler registers its held connection here with a `push` callback, then checks
"anything newer?" with no await in between: a change that lands afterwards calls `push` in the
publisher's own loop turn, so nothing is lost and nothing waits for a task switch. The push
is written to the socket before the command that caused it returns, which is what keeps
fan-out to a thousand thermostats fast.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import Enum, auto


class WakeReason(Enum):
    """Why a held connection was woken."""

    CHANGED = auto()
    FORCE = auto()
    """Push every bucket the device follows, newer or not (notify-device)."""
    CLOSE = auto()
    """Close now without a body: shutdown, or the device opened a newer connection."""


def _no_push(force: bool) -> None:
    """Until the handler attaches its writer there is nothing to push to."""


@dataclass(eq=False, slots=True)
class HeldConnection:
    """One device's open subscribe request (what its device has is `Delivery`'s to keep)."""

    serial: str
    session: str
    push: Callable[[bool], None] = _no_push
    """Send what the device does not have yet (all it follows when the argument is True)."""
    closed: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    """Resolved when the connection must close without waiting for its deadline."""

    def detach_writer(self) -> None:
        """Note that the handler is done with the connection: nothing more is pushed through it."""
        self.push = _no_push

    def wake(self, reason: WakeReason) -> None:
        """Push to the device now, or close the connection."""
        if self.closed.done():
            return
        if reason is WakeReason.CLOSE:
            self.closed.set_result(None)
        else:
            self.push(reason is WakeReason.FORCE)


class SubscriptionHub:
    """Every held subscribe connection, by serial."""

    def __init__(self) -> None:
        """Initialize the hub with no held connections."""
        self._by_serial: dict[str, set[HeldConnection]] = {}
        self._closed = False

    @property
    def closed(self) -> bool:
        """True once the hub is shutting down; new connections are closed at once."""
        return self._closed

    def register(self, conn: HeldConnection) -> None:
        """Add a held connection, closing older ones of the same device session.

        A device holds one subscribe at a time; an older connection of the same session is a
        half-open leftover (network blip) that would otherwise linger until its hold timeout.
        """
        held = self._by_serial.setdefault(conn.serial, set())
        for older in held:
            if older.session == conn.session:
                older.wake(WakeReason.CLOSE)
        held.add(conn)
        if self._closed:
            conn.wake(WakeReason.CLOSE)

    def unregister(self, conn: HeldConnection) -> None:
        """Remove a held connection."""
        held = self._by_serial.get(conn.serial)
        if held is None:
            return
        held.discard(conn)
        if not held:
            del self._by_serial[conn.serial]

    def connections(self, serial: str) -> Iterator[HeldConnection]:
        """Held connections of one device, oldest first is not guaranteed."""
        return iter(tuple(self._by_serial.get(serial, ())))

    def count(self, serial: str) -> int:
        """Return the number of held connections (the control API's subscription_count)."""
        return len(self._by_serial.get(serial, ()))

    def total(self) -> int:
        """Held connections of every device."""
        return sum(len(held) for held in self._by_serial.values())

    def wake(self, serial: str, reason: WakeReason = WakeReason.CHANGED) -> int:
        """Wake every held connection of a device; returns how many were woken."""
        held = self._by_serial.get(serial)
        if not held:
            return 0
        for conn in held:
            conn.wake(reason)
        return len(held)

    def close_all(self) -> None:
        """Wake every held connection to close; used on unload and shutdown."""
        self._closed = True
        for held in self._by_serial.values():
            for conn in held:
                conn.wake(WakeReason.CLOSE)

    def reopen(self) -> None:
        """Accept connections again after close_all (listener restarted)."""
        self._closed = False
