"""Delivery writes each push through the sink the device surface hands it, and keeps the books.

The device surface gives delivery the held subscribe's answer as a `PushSink`; delivery
decides what is due, writes it there and notes what the thermostat has. These tests hand it
sinks that record or fail, as a connection would, and check what the thermostat would get.
"""

from __future__ import annotations

import json

from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core import (
    ObjectDescriptor,
    PutEntry,
    Subscription,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from custom_components.thermostat_cloud.server.delivery import HeldConnection, SubscriptionHub
from tests.conftest import SERIAL, LoopClock

from .conftest import CLAIM, SHARED


class RecordingSink:
    """A connection that takes every write: what was written, in order."""

    def __init__(self) -> None:
        """Start with nothing written."""
        self.chunks: list[bytes] = []

    async def write(self, data: bytes, /) -> None:
        """Take the chunk."""
        self.chunks.append(data)

    def objects(self) -> list[dict[str, object]]:
        """Every bucket written, as the thermostat parses its chunks."""
        return [obj for chunk in self.chunks for obj in json.loads(chunk)["objects"]]


class DroppedSink:
    """A connection the thermostat has dropped: every write fails."""

    async def write(self, data: bytes, /) -> None:
        """Fail as a reset socket does."""
        raise ConnectionResetError


def subscribe_up_to_date(service: ThermostatService) -> Subscription:
    """Return the subscribe of a thermostat that lists the server's copy of its `shared`."""
    service.sessions.put(CLAIM, [PutEntry(SHARED, {"current_temperature": 20.0}, None, 0)])
    bucket = harness(service).bucket(SHARED)
    assert bucket is not None
    identity = service.sessions.contact(CLAIM, session="s1")
    listed = [ObjectDescriptor(SHARED, bucket.revision, bucket.timestamp, None)]
    return service.sessions.subscribe(identity, "s1", listed)


async def test_a_command_is_written_through_the_sink_at_once(service: ThermostatService) -> None:
    """A setpoint reaches the held connection before the command returns; nothing before it."""
    subscription = subscribe_up_to_date(service)
    sink = RecordingSink()
    service.sessions.hold(subscription, sink)
    assert sink.chunks == []  # up to date: the hold is silent

    service.commands.set_temperature(SERIAL, 22)

    assert [(o["object_key"], o["value"]["target_temperature"]) for o in sink.objects()] == [  # type: ignore[index]
        (SHARED, 22.0)
    ]
    assert not subscription.connection.closed.done()  # open for the batch window
    service.sessions.release(subscription)


async def test_a_push_the_connection_could_not_take_is_sent_on_the_next_subscribe(
    service: ThermostatService,
) -> None:
    """A dropped connection ends, and the setpoint it missed is owed to the thermostat still."""
    subscription = subscribe_up_to_date(service)
    service.sessions.hold(subscription, DroppedSink())

    service.commands.set_temperature(SERIAL, 22)

    assert subscription.connection.closed.done()
    service.sessions.release(subscription)
    # The thermostat lists the newest timestamp it has (a PUT answer may have given it the
    # server's); the setpoint it never received is sent all the same.
    bucket = harness(service).bucket(SHARED)
    assert bucket is not None
    identity = service.sessions.contact(CLAIM, session="s1")
    listed = [ObjectDescriptor(SHARED, bucket.revision, bucket.timestamp, None)]
    again = service.sessions.subscribe(identity, "s1", listed)
    sink = RecordingSink()
    service.sessions.hold(again, sink)
    assert [o["value"]["target_temperature"] for o in sink.objects()] == [22.0]  # type: ignore[index]
    service.sessions.release(again)


async def test_a_released_subscribe_is_written_no_more(service: ThermostatService) -> None:
    """Once the handler let go of its connection, a change is owed, not written into it."""
    subscription = subscribe_up_to_date(service)
    sink = RecordingSink()
    service.sessions.hold(subscription, sink)
    service.sessions.release(subscription)

    service.commands.set_temperature(SERIAL, 22)

    assert sink.chunks == []
    assert [b.key for b in harness(service).owed(SERIAL, subscription.known)] == [SHARED]


async def test_a_connection_told_to_close_keeps_a_later_change_for_the_next_subscribe(
    service: ThermostatService,
) -> None:
    """Once its deadline passed, a held connection ends with what it had; nothing is added.

    Its handler ends it in the next loop turn: a change landing before that is owed and goes
    out on the thermostat's next subscribe, not into the closing answer.
    """
    subscription = subscribe_up_to_date(service)
    sink = RecordingSink()
    service.sessions.hold(subscription, sink)
    subscription.connection.close()

    service.commands.set_temperature(SERIAL, 22)

    assert sink.chunks == []
    service.sessions.release(subscription)
    assert [b.key for b in harness(service).owed(SERIAL, subscription.known)] == [SHARED]


async def test_each_connection_closes_when_its_own_batch_window_ends(clock: LoopClock) -> None:
    """One timer closes every window in turn; a shorter window queued later is not kept waiting."""
    hub = SubscriptionHub()
    longer = HeldConnection(serial=SERIAL, session="long")
    shorter = HeldConnection(serial=SERIAL, session="short")
    hub.close_after(longer, 0.2)
    hub.close_after(shorter, 0.01)

    await clock.advance(0.01)
    assert shorter.closed.done()
    assert not longer.closed.done()
    await clock.advance(0.19)
    assert longer.closed.done()
