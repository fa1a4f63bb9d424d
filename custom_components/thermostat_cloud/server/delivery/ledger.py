"""What each thermostat has been sent and what it is still owed.

The subscribe handler asks `outgoing` what to push and reports what it wrote (`mark_delivered`)
or failed to write (`mark_undelivered`); the PUT handler reports what the device just wrote
(`device_put`); server-side writes make their buckets owed (`server_changed`). Nothing else
decides who has what.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable

from ..model.buckets import Bucket, BucketStore
from .subscriptions import SubscriptionHub


class Delivery:
    """Per device: server changes not yet written to its connection, and a structure resend.

    The structure resend happens once per start.
    """

    def __init__(
        self,
        buckets: BucketStore,
        subscriptions: SubscriptionHub,
        home_keys: Callable[[str], list[str]],
    ) -> None:
        """Initialize from the bucket store, the subscription hub and the `home_keys` lookup."""
        self._buckets = buckets
        self._subscriptions = subscriptions
        self._home_keys = home_keys
        self._undelivered: dict[str, set[str]] = {}
        """Serial -> keys of server-side changes not yet written to the device's connection."""
        self._structure_resent: set[str] = set()
        """Devices sent their home's structure since this start (see `outgoing`)."""

    def outgoing(self, known: dict[str, int], serial: str, force: bool) -> list[Bucket]:
        """Buckets a device should be sent: those it follows that are newer than its copy.

        A device follows the buckets it listed when subscribing, plus (when paired) its user
        and structure buckets, which are sent on every subscribe unless the device already
        lists their current version. A listed bucket the server has no data for is never
        sent, so an unknown bucket at timestamp 0 cannot cause a reply loop.

        Buckets changed on the server that were never sent to the device are sent whatever
        timestamp it lists: a PUT answer gives the device the server's newest timestamp even
        when the device has not seen the server's own change yet.

        The structure bucket is sent once after every server start whatever the device lists:
        a thermostat may have reset its mode while the timestamp it cached survived.
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

    def mark_delivered(self, serial: str, keys: Iterable[str]) -> None:
        """Note that these buckets were written onto the device's connection."""
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
        """Note that the server wrote these buckets: they are owed to the device.

        They are pushed to its held connections now.
        """
        self.mark_undelivered(serial, keys)
        self._subscriptions.wake(serial)

    def device_put(self, serial: str, keys: Iterable[str], conflicts: Collection[str]) -> None:
        """Note that the device wrote these buckets and is answered with their current versions.

        It has them now, so they are not echoed to it; except a bucket with a server change
        it has not been sent (the answer carries the server's newest timestamp, but the device
        still lacks that change: it stays owed and is pushed now), and one whose write
        conflicted (the device keeps its own copy).
        """
        owed = False
        for key in keys:
            bucket = self._buckets.get(key)
            if bucket is None:
                continue
            if key in self._undelivered.get(serial, ()):
                owed = True
            elif key not in conflicts:
                for conn in self._subscriptions.connections(serial):
                    if conn.known.get(key, 0) < bucket.timestamp:
                        conn.known[key] = bucket.timestamp
        if owed:
            self._subscriptions.wake(serial)

    def forget(self, serial: str) -> None:
        """Note that the device was forgotten: nothing is owed to it."""
        self._undelivered.pop(serial, None)
