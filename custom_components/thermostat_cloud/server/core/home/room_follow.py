"""The room a thermostat serves: a temperature offset, or room sensors it follows.

Everything a person sees and sets is in the room's frame. The shift is the offset, or while
following a room reading, the room's reading minus the thermostat's own, bounded by
`ROOM_SHIFT_MAX_C`; both on the thermostat's 0.5 °C steps. A setpoint written through the
command layer is sent minus the shift (`RoomFrames`, which this keeps), and remembered with
the shift it was sent with (its frame): the setpoints shown are the thermostat's plus their frame. When
the shift moves a step away from the frame, no sooner than `RESHIFT_INTERVAL_MS` after the
last re-send, the setpoints shown are sent again with the new shift (`Rule.ROOM`), so the
room's target holds. The thermostat's own schedule means the room too: a setpoint its schedule
just took is the room's target, sent again minus the shift (`Rule.ROOM`); one set at its ring
stays its own. Eco and safety temperatures stay the thermostat's own: they protect
the house, not the room. A room reading not renewed for `ROOM_STALE_MS` is no longer used:
the shift falls back to the offset until one comes again. See docs/comfort.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
import logging
from typing import Any

from ..context import CoreContext
from ..events import ChangeSource, EventKind, Follows, ServiceEvent
from ..read.command_errors import CommandError
from ..read.modes import Setpoints
from ..read.readings import BucketReadings, takes_range
from ..read.validation import round_half
from ..write.changes import THERMOSTAT_SCHEDULE, Author, AuthorKind, Rule
from ..write.commands import Commands, RoomFrames
from .holds import SETPOINT_FIELDS

_LOGGER = logging.getLogger(__name__)

OFFSET_MAX_C = 5.0
"""An offset is between -5 and +5 °C."""
ROOM_SHIFT_MAX_C = 3.0
"""A followed room moves the thermostat's setpoints at most this far from what it is asked."""
RESHIFT_STEP_C = 0.5
"""The shift re-sends the setpoints when it moved this far: one step of the thermostat."""
RESHIFT_INTERVAL_MS = 5 * 60_000
"""At most one re-send this often, so a sensor's noise never keeps the thermostat busy."""
ROOM_STALE_MS = 15 * 60_000
"""A room reading not renewed for this long is no longer used: the thermostat's own counts."""
CURRENT_TEMPERATURE_FIELD = "shared.current_temperature"
SCHEDULE_AUTHOR = Author(AuthorKind.THERMOSTAT, THERMOSTAT_SCHEDULE)


@dataclass(frozen=True, slots=True)
class RoomView:
    """What a person sees of a thermostat's room (Celsius)."""

    reading: float | None
    """The followed room's reading, while one is in control."""
    offset: float
    frame: float
    """The shift the thermostat's setpoints were sent with: add it to show them."""
    fallen_back: bool
    """Room sensors are chosen, but none gives a usable reading now."""
    lost: bool = False
    """Fallen back for `ROOM_STALE_MS`: worth a repair. Sensors just chosen, or not yet up
    after a restart, are given that long to report before anyone is told."""
    sources: tuple[str, ...] = ()
    """The sensors whose average the reading is (the host's names), while following."""

    @property
    def following(self) -> bool:
        """A room reading is in control."""
        return self.reading is not None

    def current(self, own: float | None) -> float | None:
        """Return the room's temperature: its reading, else the thermostat's plus the offset."""
        if self.reading is not None:
            return self.reading
        return None if own is None else round(own + self.offset, 2)

    def shown(self, setpoints: Setpoints) -> Setpoints:
        """Return the thermostat's setpoints in the room's frame."""

        def shift(value: float | int | None) -> float | None:
            return None if value is None else value + self.frame

        return Setpoints(shift(setpoints.target), shift(setpoints.low), shift(setpoints.high))


@dataclass(slots=True)
class _Room:
    offset: float = 0.0
    sensors: tuple[str, ...] = ()
    """The sensors chosen to follow (the host's names); none: not following."""
    reading: float | None = None
    sources: tuple[str, ...] = ()
    good_ms: int | None = None
    """When the room's reading was last usable."""
    chosen_ms: int = 0
    """When these sensors were chosen (or the service started with them)."""
    resent_ms: int | None = None


class RoomFollow:
    """Each thermostat's offset and followed room: the shift, and the re-sends it needs."""

    follows = Follows(fields=frozenset({CURRENT_TEMPERATURE_FIELD}) | SETPOINT_FIELDS)
    """The thermostat's own reading, which the shift is measured from, and its setpoints (its
    schedule's are the room's)."""

    def __init__(
        self,
        context: CoreContext,
        *,
        commands: Commands,
        frames: RoomFrames,
        held: Callable[[str], bool],
    ) -> None:
        """`frames`: the maps the command layer shifts setpoints by; kept here.

        `held`: whether a hold keeps the thermostat's setpoint (the hold puts it back itself).
        """
        self._frames = frames
        self._held = held
        self._context = context
        self._commands = commands
        self._rooms: dict[str, _Room] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._started = False

    # -- what the host tells ----------------------------------------------------------------

    def configure(self, serial: str, *, offset: float, sensors: tuple[str, ...] = ()) -> None:
        """Set a thermostat's offset (°C, bounded) and the room sensors it follows.

        Other sensors than before: the reading of the ones before is no longer the room's.
        """
        room = self._room(serial)
        room.offset = max(-OFFSET_MAX_C, min(OFFSET_MAX_C, offset))
        if room.sensors != sensors:
            room.sensors = sensors
            room.reading = room.good_ms = None
            room.sources = ()
            room.chosen_ms = self._context.clock.now_ms()
        self._changed(serial)

    def note_room(self, serial: str, celsius: float | None, sources: tuple[str, ...] = ()) -> None:
        """Take the followed sensors' reading (the average of `sources`); None when none is.

        The last reading stays in use for `ROOM_STALE_MS`, so a sensor's short absence moves
        nothing.
        """
        room = self._room(serial)
        if not room.sensors:
            return
        was = self.view(serial)
        if celsius is not None:
            room.reading = celsius
            room.sources = sources
            room.good_ms = self._context.clock.now_ms()
        if self.view(serial) != was:
            self._changed(serial)
        else:
            self._reshift(serial)

    # -- what the command layer asks -------------------------------------------------------

    def shift(self, serial: str) -> float:
        """Return the shift now, on the thermostat's 0.5 °C steps."""
        room = self._rooms.get(serial)
        if room is None:
            return 0.0
        reading, own = (
            self._reading(room),
            BucketReadings(self._context.buckets, serial).room_temperature,
        )
        if reading is None or own is None:
            return round_half(room.offset)
        gap = reading - float(own)
        return round_half(max(-ROOM_SHIFT_MAX_C, min(ROOM_SHIFT_MAX_C, gap)))

    def frame(self, serial: str) -> float:
        """Return the shift the thermostat's setpoints were sent with."""
        return self._frames.sent.get(serial, 0.0)

    # -- what a person sees ----------------------------------------------------------------

    def view(self, serial: str) -> RoomView:
        room = self._rooms.get(serial) or _Room()
        reading = self._reading(room)
        fallen_back = bool(room.sensors) and reading is None
        return RoomView(
            reading=reading,
            offset=room.offset,
            frame=self.frame(serial),
            fallen_back=fallen_back,
            lost=fallen_back and self._context.clock.now_ms() >= self._lost_at(room),
            sources=room.sources if reading is not None else (),
        )

    @staticmethod
    def _lost_at(room: _Room) -> int:
        """Return when a room without a usable reading counts as lost."""
        return max(room.chosen_ms, room.good_ms or 0) + ROOM_STALE_MS

    def _reading(self, room: _Room) -> float | None:
        if not room.sensors or room.reading is None or room.good_ms is None:
            return None
        if self._context.clock.now_ms() - room.good_ms >= ROOM_STALE_MS:
            return None
        return room.reading

    # -- re-sending ------------------------------------------------------------------------

    def follow(self, event: ServiceEvent) -> None:
        """Measure the shift again; take a setpoint the schedule just set as the room's.

        The schedule's is sent once the write that reported it is done (after its push).
        """
        if event.source is not ChangeSource.DEVICE or event.serial not in self._rooms:
            return
        if CURRENT_TEMPERATURE_FIELD in event.fields:
            self._reshift(event.serial)
        if event.author == SCHEDULE_AUTHOR and not SETPOINT_FIELDS.isdisjoint(event.fields):
            asyncio.get_running_loop().call_soon(self._scheduled, event.serial)

    def _scheduled(self, serial: str) -> None:
        """Send the setpoint the schedule set as the room's target: minus the shift of now.

        A hold keeps its own setpoint; no shift (no offset, not following) sends nothing.
        """
        if self._started and self.shift(serial) and not self._held(serial):
            self._send(serial, plus=0.0)

    def _changed(self, serial: str) -> None:
        self._context.events.publish(ServiceEvent(EventKind.ROOM, serial))
        self._reshift(serial)

    def _reshift(self, serial: str) -> None:
        """Re-send the setpoints when the shift moved a step, at most every few minutes.

        Arms a timer for when the rate allows it, and for when the room reading turns stale.
        """
        shift = self.shift(serial)
        if shift:
            self._frames.shift[serial] = shift
        else:
            self._frames.shift.pop(serial, None)
        if not self._started:
            return
        self._cancel(serial)
        room = self._room(serial)
        now = self._context.clock.now_ms()
        wake: list[int] = []
        if room.sensors and (self._reading(room) is not None or now < self._lost_at(room)):
            wake.append(self._lost_at(room))
        if abs(shift - self.frame(serial)) >= RESHIFT_STEP_C:
            allowed = (room.resent_ms or 0) + RESHIFT_INTERVAL_MS
            if now >= allowed:
                self._resend(serial, room, now)
            else:
                wake.append(allowed)
        if wake:
            delay = (min(wake) - now) / 1000
            self._timers[serial] = asyncio.get_running_loop().call_later(
                max(0.0, delay), self._woken, serial
            )

    def _woken(self, serial: str) -> None:
        self._timers.pop(serial, None)
        room = self._room(serial)
        if room.sensors and room.good_ms is not None and self._reading(room) is None:
            _LOGGER.info(
                "%s: no room reading for %d minutes; the thermostat's own reading counts",
                serial,
                ROOM_STALE_MS // 60_000,
            )
            room.good_ms = None
            self._changed(serial)
            return
        if room.sensors and room.reading is None:
            # Sensors that never reported: their time is up, and the repair is raised.
            self._changed(serial)
            return
        self._reshift(serial)

    def _resend(self, serial: str, room: _Room, now: int) -> None:
        """Send the setpoints shown (the room's) again; the command layer applies the shift."""
        frame = self.frame(serial)
        if not self._send(serial, plus=frame):
            return
        room.resent_ms = now
        if self.frame(serial) != frame:
            # Shown in the new frame even where the limits kept the thermostat's setpoint.
            self._context.events.publish(ServiceEvent(EventKind.ROOM, serial))

    def _send(self, serial: str, *, plus: float) -> bool:
        """Send the thermostat's setpoints plus `plus` as the room's, as the room rule.

        Return False when there was nothing of the room's to send (off, or eco holds).
        """
        readings = BucketReadings(self._context.buckets, serial)
        mode = readings.mode
        if mode in (None, "off") or self._commands.holds_eco(serial):
            # Nothing of the room's to send: eco's temperatures are the thermostat's own.
            return False
        low, high = readings.range_ends
        target = readings.shared.get("target_temperature")
        try:
            with self._commands.acting_as(Author.rule(Rule.ROOM)):
                if takes_range(mode) and low is not None and high is not None:
                    self._commands.set_setpoints(serial, low=low + plus, high=high + plus)
                elif isinstance(target, int | float) and not takes_range(mode):
                    self._commands.set_setpoints(serial, target + plus)
        except CommandError as err:
            # The thermostat's learning may hold a setpoint the limits refuse once shifted.
            _LOGGER.warning("%s: the room's setpoint was not sent: %s", serial, err.message)
        return True

    def _cancel(self, serial: str) -> None:
        if (handle := self._timers.pop(serial, None)) is not None:
            handle.cancel()

    def _room(self, serial: str) -> _Room:
        return self._rooms.setdefault(serial, _Room())

    # -- persistence and lifecycle ---------------------------------------------------------

    def load(self, saved: object) -> None:
        """Restore each thermostat's frame (the document's `rooms`); absent in older data."""
        self._rooms.clear()
        self._frames.sent.clear()
        self._frames.shift.clear()
        if not isinstance(saved, Mapping):
            return
        for serial, frame in saved.items():
            if isinstance(frame, int | float) and abs(frame) <= OFFSET_MAX_C:
                self._frames.sent[str(serial)] = float(frame)
            else:
                _LOGGER.warning("Ignoring the stored room frame of %s: it does not parse", serial)

    def dump(self) -> dict[str, Any]:
        return {serial: frame for serial, frame in self._frames.sent.items() if frame}

    def start(self) -> None:
        self._started = True
        for serial in list(self._rooms):
            self._reshift(serial)

    def stop(self) -> None:
        self._started = False
        for serial in list(self._timers):
            self._cancel(serial)

    def forget(self, serial: str) -> None:
        self._cancel(serial)
        self._rooms.pop(serial, None)
        self._frames.sent.pop(serial, None)
        self._frames.shift.pop(serial, None)
