"""What each thermostat has been sent and what it is still owed, and writing it.

Nothing else keeps or decides who has what: subscribes hand their connections over (`hold`),
device PUTs and server writes report here (`device_put`, `server_changed`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Coroutine, Iterable, Mapping
import logging
from typing import Any

from ..model.buckets import Bucket, BucketStore
from .subscriptions import HeldConnection, PushSink, SkvSink, SubscriptionHub

_LOGGER = logging.getLogger(__name__)


def _no_listener(serial: str, keys: list[str]) -> None:
    """Nobody follows what is written."""


class Delivery:
    """Per held connection: the timestamps the device has; per device: what it is owed."""

    def __init__(
        self,
        buckets: BucketStore,
        subscriptions: SubscriptionHub,
        home_keys: Callable[[str], list[str]],
        *,
        on_written: Callable[[str, list[str]], None] = _no_listener,
    ) -> None:
        """Initialize from the bucket store, the subscription hub and the `home_keys` lookup.

        `on_written` is told the serial and the keys of every push written onto a held
        connection.
        """
        self._buckets = buckets
        self._subscriptions = subscriptions
        self._home_keys = home_keys
        self._known: dict[HeldConnection, dict[str, int]] = {}
        """Held connection -> bucket key -> timestamp its device has (0: nothing)."""
        self._undelivered: dict[str, set[str]] = {}
        """Serial -> keys of server-side changes not yet written to the device's connection."""
        self._structure_resent: set[str] = set()
        """Devices sent their home's structure since this start (see `owed`)."""
        self._given: dict[str, dict[str, tuple[int, int]]] = {}
        """Firmware 4.x: serial -> key -> (revision, timestamp) last given it: its PUTs carry no
        revision and its subscribe may list no version."""
        self._on_written = on_written

    # -- held connections ------------------------------------------------------------------

    def hold(
        self,
        conn: HeldConnection,
        known: dict[str, int],
        sink: PushSink | None,
        skv_sink: SkvSink | None = None,
    ) -> None:
        """Take a held subscribe with the timestamps its device listed (4.x: via `skv_sink`)."""
        self._known[conn] = known
        conn.attach(sink, skv_sink)
        self._subscriptions.register(conn)

    def release(self, conn: HeldConnection) -> None:
        """Forget an ended subscribe: nothing more is written to it."""
        self._subscriptions.unregister(conn)
        self._known.pop(conn, None)
        conn.detach()

    def push(self, conn: HeldConnection, force: bool = False) -> None:
        """Write what the device is owed (with `force`, all it follows) onto its connection.

        The first push ends the connection after its batch window; a write stalled by a slow
        reader continues as a task the connection keeps.
        """
        if (sink := conn.sink) is None:
            if conn.skv_sink is not None:
                self._answer_skv(conn, conn.skv_sink, force)
            return
        pending = self.due(conn, force)
        if not pending:
            return
        encode = conn.encode
        chunk = b'{"objects":[' + b",".join([encode(bucket) for bucket in pending]) + b"]}"
        keys = self.sent(conn, pending)
        self._start_write(conn, keys, sink.write(chunk), close_after=False)
        if not conn.batching:
            conn.batching = True
            self._subscriptions.close_after(conn, conn.batch_window)

    def _start_write(
        self,
        conn: HeldConnection,
        keys: list[str],
        sending: Coroutine[Any, Any, None],
        *,
        close_after: bool,
    ) -> None:
        """Write now; a write stalled by a slow reader goes on as a task the connection keeps.

        A dropped connection takes back what it was sent; `close_after` ends it either way.
        """

        async def write() -> None:
            dropped = False
            try:
                await sending
            except ConnectionError:
                _LOGGER.debug("Subscribe connection of %s dropped by the device", conn.serial)
                self.unsent(conn, keys)
                dropped = True
            finally:
                if dropped or close_after:
                    conn.close()

        task = asyncio.get_running_loop().create_task(write(), eager_start=True)
        if not task.done():
            conn.writes.add(task)
            task.add_done_callback(conn.writes.discard)

    def _answer_skv(self, conn: HeldConnection, sink: SkvSink, force: bool) -> None:
        """Answer a 4.x subscribe with the first bucket it is owed; the rest wait for the next.

        Firmware 4.x takes one bucket per subscribe (row "Firmware 4.x speaks its own transport").
        """
        pending = [] if conn.closed.done() else self.due(conn, force)
        if not pending:
            return
        bucket = pending[0]
        conn.skv_sink = None  # one answer per subscribe
        keys = self.sent(conn, (bucket,))
        self.note_given(conn.serial, (bucket,))
        self._start_write(conn, keys, sink.write_bucket(bucket), close_after=True)

    def note_given(self, serial: str, buckets: Iterable[Bucket]) -> None:
        """Note that a 4.x device was given these buckets' versions (a push or a PUT answer)."""
        given = self._given.setdefault(serial, {})
        for bucket in buckets:
            given[bucket.key] = (bucket.revision, bucket.timestamp)

    def given(self, serial: str, key: str) -> tuple[int, int]:
        """Return the (revision, timestamp) a 4.x device was last given of a bucket, else 0s."""
        return self._given.get(serial, {}).get(key, (0, 0))

    def _push_all(self, serial: str, force: bool = False) -> int:
        """Push to every held connection not already closing (what changed stays owed)."""
        held = self._subscriptions.held(serial)
        for conn in held:
            if not conn.closed.done():
                self.push(conn, force)
        return len(held)

    def due(self, conn: HeldConnection, force: bool) -> list[Bucket]:
        """Return what to write onto a held connection now (with `force`, all it follows)."""
        known = self._known.get(conn)
        return [] if known is None else self.owed(conn.serial, known, force)

    def sent(self, conn: HeldConnection, buckets: Iterable[Bucket]) -> list[str]:
        """Note that these buckets were written onto the connection; return their keys."""
        known = self._known.get(conn)
        keys = []
        for bucket in buckets:
            if known is not None:
                known[bucket.key] = bucket.timestamp
            keys.append(bucket.key)
        self._mark_delivered(conn.serial, keys)
        self._on_written(conn.serial, keys)
        return keys

    def unsent(self, conn: HeldConnection, keys: Iterable[str]) -> None:
        """Note that a write failed: the device lacks these buckets' server versions."""
        self.mark_undelivered(conn.serial, keys)

    def notify_device(self, serial: str) -> int:
        """Push every stored bucket the device follows to its held connections; how many."""
        return self._push_all(serial, force=True)

    def wake(self, serial: str) -> None:
        """Push what a device is owed to its held connections now (its home just changed)."""
        self._push_all(serial)

    # -- what a device is owed -------------------------------------------------------------

    def owed(self, serial: str, known: Mapping[str, int], force: bool = False) -> list[Bucket]:
        """Buckets a device should be sent: those it follows that are newer than its copy.

        It follows what it listed plus, when paired, its home's user and structure buckets.
        A listed bucket the server lacks is never sent (no reply loop at timestamp 0). Server
        changes never sent go whatever it lists: a PUT answer may have given it a newer
        timestamp. The structure goes once per start: a thermostat may have reset its mode
        while its cached timestamp survived.
        """
        undelivered = self._undelivered.get(serial, ())
        home = self._home_keys(serial)
        resend = home[1] if home and serial not in self._structure_resent else None
        out: list[Bucket] = []
        for key in (*known, *(k for k in home if k not in known)):
            bucket = self._buckets.get(key)
            if bucket is not None and (
                force or key in undelivered or key == resend or bucket.timestamp > known.get(key, 0)
            ):
                out.append(bucket)
        return out

    def _mark_delivered(self, serial: str, keys: Collection[str]) -> None:
        if serial not in self._structure_resent and any(k.startswith("structure.") for k in keys):
            self._structure_resent.add(serial)
        if (undelivered := self._undelivered.get(serial)) is not None:
            undelivered.difference_update(keys)
            if not undelivered:
                del self._undelivered[serial]

    def mark_undelivered(self, serial: str, keys: Iterable[str]) -> None:
        """Note that the device does not have these buckets' server versions: send them again."""
        self._undelivered.setdefault(serial, set()).update(keys)

    def server_changed(self, serial: str, keys: Iterable[str]) -> None:
        """Note that the server wrote these buckets: owed to the device, pushed now."""
        self.mark_undelivered(serial, keys)
        self._push_all(serial)

    def device_put(self, serial: str, keys: Iterable[str], conflicts: Collection[str]) -> None:
        """Note that the device wrote these buckets: not echoed back to it.

        Except a server change it was not sent yet (the PUT answer's timestamp hides it: still
        owed, pushed now) and a conflicted write (the device keeps its own copy).
        """
        owed = False
        for key in keys:
            bucket = self._buckets.get(key)
            if bucket is None:
                continue
            if key in self._undelivered.get(serial, ()):
                owed = True
            elif key not in conflicts:
                for conn in self._subscriptions.held(serial):
                    known = self._known.get(conn)
                    if known is not None and known.get(key, 0) < bucket.timestamp:
                        known[key] = bucket.timestamp
        if owed:
            self._push_all(serial)

    def forget(self, serial: str) -> None:
        self._undelivered.pop(serial, None)
        self._given.pop(serial, None)
