"""Held subscribe connections: which devices hold one, and the sink each one's pushes go to.

A subscribe hands over its sink, then checks "anything newer?" with no await in between, so
a later change is written in the publisher's own loop turn: nothing lost, no task switch,
which keeps fan-out to a thousand thermostats fast.
"""

from __future__ import annotations

import asyncio
import bisect
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ..model.buckets import Bucket


class PushSink(Protocol):
    """Where one held connection's pushes are written; ConnectionError once the device is gone."""

    async def write(self, data: bytes, /) -> None:
        """Write one chunk of the subscribe's answer."""


class SkvSink(Protocol):
    """Where a firmware 4.x subscribe's one answer goes: a bucket, named by its headers.

    (Row "Firmware 4.x speaks its own transport" of docs/device-protocol.md.)
    """

    async def write_bucket(self, bucket: Bucket, /) -> None:
        """Write the answer: this bucket."""


@dataclass(eq=False, slots=True)
class HeldConnection:
    """One device's open subscribe request (what its device has is `Delivery`'s to keep)."""

    serial: str
    session: str
    encode: Callable[[Bucket], bytes] = Bucket.wire_json
    """A bucket as this device names it on the wire (a MAC-identified one: under its MAC)."""
    hold_timeout: float | None = None
    """Seconds the connection is held with nothing to send (None: until closed)."""
    batch_window: float = 0.0
    """Seconds the connection stays open for more after its first push."""
    closed: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    """Resolved when the connection must close: its deadline passed, shutdown, or a newer one."""
    one_bucket: bool = False
    """Firmware 4.x's subscribe: answered once, with one bucket, through `skv_sink`."""
    sink: PushSink | None = None
    skv_sink: SkvSink | None = None
    writes: set[asyncio.Task[None]] = field(default_factory=set)
    """Writes waiting for a slow reader, kept until they finish."""
    batching: bool = field(default=False, init=False)
    """A push went out: the connection closes at the end of its batch window."""
    _deadline: asyncio.TimerHandle | None = field(default=None, init=False)

    def attach(self, sink: PushSink | None, skv_sink: SkvSink | None = None) -> None:
        """Write pushes to `sink` (4.x: its answer to `skv_sink`) from now on."""
        self.sink = sink
        self.skv_sink = skv_sink
        if self.hold_timeout is not None:
            self._deadline = asyncio.get_running_loop().call_later(self.hold_timeout, self.close)

    def close(self) -> None:
        """End the connection now (without a body when nothing was pushed)."""
        if not self.closed.done():
            self.closed.set_result(None)

    def detach(self) -> None:
        """Drop the sink and deadline: nothing more is written to the connection.

        They form cycles; breaking them frees it at once, not in the cycle collector, which
        in a large host process stalls the loop for tenths of a second.
        """
        self.sink = None
        self.skv_sink = None
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None


class BatchCloser:
    """Closes held connections at the end of their batch windows, with one loop timer.

    Windows of equal length end in the order they began, so a queue with one timer at its
    head serves a fan-out to a thousand connections; a timer each cost more than all else
    the push did but the socket write.
    """

    def __init__(self) -> None:
        self._queue: deque[tuple[float, HeldConnection]] = deque()
        self._timer: asyncio.TimerHandle | None = None

    def close_after(self, conn: HeldConnection, window: float) -> None:
        """Close `conn` `window` seconds from now (its hold timeout, if sooner, still applies)."""
        if conn.closed.done():
            return
        loop = asyncio.get_running_loop()
        end = loop.time() + window
        queue = self._queue
        if not queue or end >= queue[-1][0]:
            queue.append((end, conn))
        else:
            bisect.insort(queue, (end, conn), key=lambda entry: entry[0])
        if queue[0][1] is conn:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = loop.call_at(end, self._close_due)

    def _close_due(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        queue = self._queue
        while queue and queue[0][0] <= now:
            queue.popleft()[1].close()
        self._timer = loop.call_at(queue[0][0], self._close_due) if queue else None

    def cancel(self) -> None:
        """Forget every window (the connections are closed by other means: shutdown)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._queue.clear()


class SubscriptionHub:
    """Every held subscribe connection, by serial."""

    def __init__(self) -> None:
        self._by_serial: dict[str, set[HeldConnection]] = {}
        self._closed = False
        self._batches = BatchCloser()

    def close_after(self, conn: HeldConnection, window: float) -> None:
        self._batches.close_after(conn, window)

    @property
    def closed(self) -> bool:
        """True once the hub is shutting down; new connections are closed at once."""
        return self._closed

    def register(self, conn: HeldConnection) -> None:
        """Add a held connection, closing older ones of the same session (half-open leftovers)."""
        held = self._by_serial.setdefault(conn.serial, set())
        for older in held:
            if older.session == conn.session:
                older.close()
        held.add(conn)
        if self._closed:
            conn.close()

    def unregister(self, conn: HeldConnection) -> None:
        held = self._by_serial.get(conn.serial)
        if held is None:
            return
        held.discard(conn)
        if not held:
            del self._by_serial[conn.serial]

    def held(self, serial: str) -> set[HeldConnection]:
        """Held connections of one device (the hub's own set: do not keep or change it)."""
        return self._by_serial.get(serial) or _NONE

    def count(self, serial: str) -> int:
        """Return the number of held connections (the control API's subscription_count)."""
        return len(self._by_serial.get(serial, ()))

    def total(self) -> int:
        return sum(len(held) for held in self._by_serial.values())

    def close_all(self) -> None:
        """Close every held connection; used on unload and shutdown."""
        self._closed = True
        for held in self._by_serial.values():
            for conn in held:
                conn.close()
        self._batches.cancel()

    def reopen(self) -> None:
        """Accept connections again after close_all (listener restarted)."""
        self._closed = False


_NONE: set[HeldConnection] = set()
