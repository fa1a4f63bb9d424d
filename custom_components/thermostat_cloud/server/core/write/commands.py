"""The command list: every validated write the surfaces and the host may ask for.

Each command checks its input and the thermostat's capabilities, then writes through the one
write path (write_path.py); device PUTs and inline updates call `apply`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ...delivery.ledger import Delivery
from ...model.buckets import bucket_key, home_device_keys
from ..context import CoreContext
from ..events import ChangeSource
from ..read.command_errors import CommandError, CommandResult, ErrorCode, Reason
from ..read.readings import BucketReadings, holds_eco, home_away, takes_range
from ..read.schedule import SCHEDULE_MODES, validate_schedule
from ..read.validation import (
    DEVICE_SETTINGS,
    DUAL_FUEL_SETTINGS,
    ECO_TEMPERATURE_MAX_C,
    ECO_TEMPERATURE_MIN_C,
    HEAT_PUMP_SETTINGS,
    SHARED_SETTINGS,
    TEMPERATURE_MAX_C,
    TEMPERATURE_MIN_C,
    as_number,
    boolean,
    is_valid_pin_hash,
    normalize_mode,
    pin_hash,
    round_half,
    setpoint,
    temperature,
    temperature_pair,
)
from .changes import Authoring, Change, ChangeLog
from .confirmations import Confirmations
from .fan_timers import FAN_MODES, FAN_TIMER_MAX_SECONDS, FanTimers
from .home_rules import HomeChange, HomeRules
from .write_path import AnswerFirst, WritePath

# Least gap between the low and high setpoints a single setpoint in range mode leaves: the
# middle of the spec's advice for ranges (at least 1 to 2 °C, 2 to 3 °F).
RANGE_MIN_GAP_C = 1.5
WAKE_DISPLAY = {"target_change_pending": True}
"""Sent with every setpoint: firmware applies a setpoint without it but its screen stays dark;
it acknowledges by reporting `false`."""


@dataclass(slots=True)
class RoomFrames:
    """The room's frame of each thermostat's setpoints (see home/room_follow.py).

    Plain maps the command layer reads on its path to the wire: a setpoint asked for is sent
    minus `shift`, and `sent` keeps the shift it went with (its frame).
    """

    shift: dict[str, float] = field(default_factory=dict)
    """The shift now, kept by `RoomFollow`."""
    sent: dict[str, float] = field(default_factory=dict)
    """The shift each thermostat's setpoints were sent with."""


@dataclass(frozen=True, slots=True)
class _ModeNow:
    """What the mode rules read of a thermostat (`readings.ModeReadings`), read before a write."""

    mode: str | None
    eco: bool
    away: bool


class Commands:
    """Validated writes to bucket state, each through the one write path."""

    def __init__(
        self,
        context: CoreContext,
        *,
        delivery: Delivery,
        confirmations: Confirmations,
        answer_first: AnswerFirst | None = None,
        room_frames: RoomFrames | None = None,
    ) -> None:
        """`answer_first` holds a report's announcements until its answer (write_path.py).

        `room_frames`: what a setpoint asked for is sent minus (see `RoomFrames`).
        """
        self._frames = room_frames or RoomFrames()
        self._buckets = context.buckets
        self._clock = context.clock
        self._ownership = context.ownership
        self._devices = context.devices
        self._home = HomeRules(context)
        self._changes = ChangeLog(context)
        self._writes = WritePath(
            context,
            delivery=delivery,
            confirmations=confirmations,
            home_rules=self._home,
            changes=self._changes,
            answer_first=answer_first or AnswerFirst(),
        )
        self._fan = FanTimers(context, self._writes)

    @property
    def write_path(self) -> WritePath:
        """The one write primitive, which a thermostat's report writes through directly."""
        return self._writes

    @contextmanager
    def acting_as(self, author: Authoring) -> Iterator[None]:
        """Attribute the commands run inside to `author` (see changes.py); the innermost counts."""
        with self._writes.acting_as(author):
            yield

    def last_change(self, serial: str) -> Change | None:
        return self._changes.last(serial)

    def forget_last_change(self, serial: str) -> None:
        self._changes.forget(serial)

    def _write(self, serial: str, bucket_type: str, fields: Mapping[str, Any]) -> CommandResult:
        return self._writes.write(serial, bucket_key(bucket_type, serial), fields)

    def _write_home(self, change: HomeChange) -> CommandResult:
        return self._writes.command(change.writer, change.updates, change.result_key)

    def require_device(self, serial: str) -> None:
        """Refuse commands to a serial the server has never heard of (no phantom devices)."""
        if serial not in self._devices and not self._buckets.keys_of_serial(serial):
            raise CommandError(ErrorCode.DEVICE_NOT_FOUND, "Device not found")

    def _readings(self, serial: str) -> BucketReadings:
        return BucketReadings(self._buckets, serial)

    def set_home_devices(self, structure_id: str, devices: list[str]) -> None:
        """Set the home's list of thermostats in its structure bucket (`home_device_keys`).

        Announced to the thermostats still in the home; with none left no device follows the
        bucket, so it is only stored.
        """
        key = bucket_key("structure", structure_id)
        fields = {"devices": home_device_keys(devices)}
        if devices:
            self._writes.apply(devices[0], {key: fields}, ChangeSource.SERVER, followed=False)
        else:
            self._writes.store(key, fields)

    # -- temperature and mode ----------------------------------------------------------------

    def set_setpoints(
        self,
        serial: str,
        target: object = None,
        low: object = None,
        high: object = None,
        *,
        mode: str | None = None,
    ) -> CommandResult:
        """Set the setpoints a caller asks for, optionally switching to `mode` in the same write.

        While the thermostat holds eco and no mode is asked for, low and high are its eco
        temperatures (they are what it shows). Otherwise they must be those of the mode it ends
        up in; switching to off with a setpoint is refused, as it would set one the thermostat
        does not use. A refusal comes before anything is written.
        """
        self.require_device(serial)
        readings = self._readings(serial)
        if mode is None and holds_eco(_ModeNow(readings.mode, readings.eco, self._away(serial))):
            return self.set_eco_temperatures(serial, low, high)
        if mode == "off":
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                "A thermostat turned off has no setpoint",
                Reason.TEMPERATURE_WHEN_OFF,
            )
        if not takes_range(readings.mode if mode is None else mode):
            if low is not None or high is not None:
                raise CommandError(
                    ErrorCode.INVALID_VALUE,
                    "Low and high temperatures are for range mode",
                    Reason.LOW_HIGH_NEED_RANGE,
                )
            return self.set_temperature(serial, target, mode)
        if target is not None:
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                "In range mode the setpoints are a low and a high temperature",
                Reason.RANGE_NEEDS_LOW_HIGH,
            )
        return self.set_temperature_range(serial, low, high, switch_to_range=mode is not None)

    def holds_eco(self, serial: str) -> bool:
        """Return whether eco's temperatures are the thermostat's setpoints now."""
        readings = self._readings(serial)
        return holds_eco(_ModeNow(readings.mode, readings.eco, self._away(serial)))

    @staticmethod
    def _to_thermostat(celsius: float, shift: float, low: float, high: float) -> float:
        """Return a room's setpoint as the thermostat must hold it: minus the shift, in limits."""
        return max(low, min(high, round_half(celsius - shift)))

    def _away(self, serial: str) -> bool:
        pairing = self._ownership.pairing(serial)
        return pairing is not None and home_away(self._buckets, pairing.structure_id)

    def set_temperature(self, serial: str, value: object, mode: str | None = None) -> CommandResult:
        """Single setpoint; with `mode` (heat/cool) the thermostat also switches to it.

        In range mode, without `mode`, it moves one end of the range (see `_range_towards`).
        """
        self.require_device(serial)
        shift = self._frames.shift.get(serial, 0.0)
        celsius = self._to_thermostat(setpoint(value), shift, TEMPERATURE_MIN_C, TEMPERATURE_MAX_C)
        fields: dict[str, Any] = {"target_temperature": celsius, **WAKE_DISPLAY}
        if mode is not None:
            if mode not in ("heat", "cool"):
                raise CommandError(ErrorCode.INVALID_VALUE, "Mode must be heat or cool")
            self._check_capability(serial, mode)
            fields["target_temperature_type"] = mode
        elif takes_range(self._readings(serial).mode):
            fields = {**self._range_towards(serial, celsius), **WAKE_DISPLAY}
        return self._write_shifted(serial, fields, shift)

    def _write_shifted(self, serial: str, fields: Mapping[str, Any], shift: float) -> CommandResult:
        """Write setpoints sent minus `shift`, noted first as their frame.

        So the change announced shows them in the room's frame; a write refused keeps the
        frame it had.
        """
        sent = self._frames.sent
        before = sent.get(serial, 0.0)
        sent[serial] = shift
        try:
            return self._write(serial, "shared", fields)
        except CommandError:
            sent[serial] = before
            raise

    def _range_towards(self, serial: str, value: object) -> dict[str, float]:
        """Return a single setpoint in range mode as the range end on the side the room must move.

        Above the room it becomes the low end, below it the high end; with the room unknown or
        equal, the nearer end. The other end keeps at least RANGE_MIN_GAP_C away.
        """
        readings = self._readings(serial)
        celsius = setpoint(value)
        low, high = readings.range_ends
        low_c = celsius if low is None else float(low)
        high_c = celsius if high is None else float(high)
        room = readings.room_temperature
        if room is None or celsius == room:
            heat_side = abs(celsius - low_c) <= abs(high_c - celsius)
        else:
            heat_side = celsius > room
        if heat_side:
            low_c = temperature(
                value,
                "Low temperature",
                "target_temperature_low",
                TEMPERATURE_MIN_C,
                TEMPERATURE_MAX_C - RANGE_MIN_GAP_C,
            )
            high_c = max(high_c, low_c + RANGE_MIN_GAP_C)
        else:
            high_c = temperature(
                value,
                "High temperature",
                "target_temperature_high",
                TEMPERATURE_MIN_C + RANGE_MIN_GAP_C,
                TEMPERATURE_MAX_C,
            )
            low_c = min(low_c, high_c - RANGE_MIN_GAP_C)
        return {"target_temperature_low": low_c, "target_temperature_high": high_c}

    def set_temperature_range(
        self, serial: str, low: object, high: object, *, switch_to_range: bool = False
    ) -> CommandResult:
        """Low and high setpoints of range (heat-cool) mode."""
        self.require_device(serial)
        low_c, high_c = temperature_pair(
            low,
            high,
            names=("Low temperature", "High temperature"),
            fields=("target_temperature_low", "target_temperature_high"),
            unordered="Low temperature must be less than high temperature",
        )
        shift = self._frames.shift.get(serial, 0.0)
        # Both ends move alike; their limits keep them apart.
        step = 0.5
        fields: dict[str, Any] = {
            "target_temperature_low": self._to_thermostat(
                low_c, shift, TEMPERATURE_MIN_C, TEMPERATURE_MAX_C - step
            ),
            "target_temperature_high": self._to_thermostat(
                high_c, shift, TEMPERATURE_MIN_C + step, TEMPERATURE_MAX_C
            ),
            **WAKE_DISPLAY,
        }
        if switch_to_range:
            self._check_capability(serial, "range")
            fields["target_temperature_type"] = "range"
        return self._write_shifted(serial, fields, shift)

    def _check_capability(self, serial: str, mode: str) -> None:
        caps = self._readings(serial).capabilities
        needed = {
            "heat": ("can_heat",),
            "cool": ("can_cool",),
            "range": ("can_heat", "can_cool"),
            "emergency": ("has_emer_heat",),
        }.get(mode, ())
        missing = [name for name in needed if not caps[name]]
        if missing:
            raise CommandError(
                ErrorCode.UNSUPPORTED,
                f"The thermostat cannot do {mode} ({', '.join(missing)} is false)",
                Reason.MODE_UNSUPPORTED,
                mode=mode,
            )

    def set_mode(self, serial: str, mode: object) -> CommandResult:
        """HVAC mode: off, heat, cool, range (and its aliases) or emergency."""
        self.require_device(serial)
        name = normalize_mode(mode)
        self._check_capability(serial, name)
        return self._write(serial, "shared", {"target_temperature_type": name})

    # -- presence and eco ----------------------------------------------------------------------

    def set_away(self, serial: str, away: object) -> CommandResult:
        """Set the home's away state: every thermostat of the home in eco, or all back.

        Firmware undoes `structure.away` alone within minutes (it starts auto-eco, which
        preconditioning ends), so away is also the home's manual eco (`manual_eco_all`), which
        firmware holds; see `HomeRules.home_eco`. The thermostat names its home (`set_home_away`).
        """
        self.require_device(serial)
        boolean(away, "Away")
        pairing = self._ownership.pairing(serial)
        if pairing is None:
            raise CommandError(
                ErrorCode.NOT_PAIRED, "Away is a home setting: pair the thermostat first"
            )
        return self.set_home_away(pairing.structure_id, away, writer=serial)

    def set_home_away(
        self, structure_id: str, away: object, writer: str | None = None
    ) -> CommandResult:
        """Set a home's away state, by the home itself (the hub's Away switch).

        Written as `writer`'s change (the home's first thermostat by default). A home already
        in the state asked for is left as it is: nothing is written, so asking to leave away
        when the home is not away never turns off a thermostat's own eco.
        """
        flag = boolean(away, "Away")
        serials = self._ownership.serials_in(structure_id)
        if not serials:
            raise CommandError(
                ErrorCode.NOT_PAIRED, "Away is a home setting: pair a thermostat first"
            )
        writer = writer or serials[0]
        if home_away(self._buckets, structure_id) == flag:
            return self._writes.unchanged(writer, bucket_key("structure", structure_id))
        return self._write_home(self._home.home_eco(writer, structure_id, on=flag))

    def set_eco(self, serial: str, enabled: object) -> CommandResult:
        """Set the thermostat's own eco mode (`device.eco`).

        Turning it off also brings the home back from away: firmware leaves manual eco only
        when `device.eco`, the home's `manual_eco_all` and `away` all say so.
        """
        self.require_device(serial)
        on = boolean(enabled, "Eco")
        pairing = self._ownership.pairing(serial)
        if not on and pairing is not None and home_away(self._buckets, pairing.structure_id):
            return self._write_home(
                self._home.home_eco(serial, pairing.structure_id, on=False, result_key="device")
            )
        return self._write(serial, "device", self._home.device_eco(serial, on=on))

    def set_eco_temperatures(self, serial: str, low: object, high: object) -> CommandResult:
        self.require_device(serial)
        low_c, high_c = temperature_pair(
            low,
            high,
            names=("Eco low temperature", "Eco high temperature"),
            fields=("away_temperature_low", "away_temperature_high"),
            unordered="Eco low temperature must be less than eco high temperature",
            limits=(ECO_TEMPERATURE_MIN_C, ECO_TEMPERATURE_MAX_C),
        )
        return self._write(
            serial,
            "device",
            {"away_temperature_low": low_c, "away_temperature_high": high_c},
        )

    # -- fan -------------------------------------------------------------------------------------

    def set_fan(self, serial: str, mode: object = None, duration: object = None) -> CommandResult:
        """Fan mode (`on`, `auto`, `off`), or run the fan for `duration` seconds then `auto`.

        The timer is one firmware ends itself, with the server down too (see fan_timers.py).
        """
        self.require_device(serial)
        if not self._readings(serial).capabilities["has_fan"]:
            raise CommandError(ErrorCode.UNSUPPORTED, "The thermostat has no fan", Reason.NO_FAN)
        if (mode is None) == (duration is None):
            raise CommandError(ErrorCode.INVALID_VALUE, "Give either a fan mode or a duration")
        if duration is not None:
            seconds = as_number(duration, "Fan duration")
            if seconds != int(seconds) or not 1 <= seconds <= FAN_TIMER_MAX_SECONDS:
                raise CommandError(
                    ErrorCode.INVALID_VALUE,
                    f"Fan duration must be whole seconds from 1 to {FAN_TIMER_MAX_SECONDS}",
                    Reason.FAN_DURATION_OUT_OF_RANGE,
                    max=FAN_TIMER_MAX_SECONDS,
                )
            return self._fan.run_for(serial, int(seconds))
        if mode not in FAN_MODES:
            raise CommandError(ErrorCode.INVALID_VALUE, "Fan mode must be on, auto or off")
        return self._fan.set_mode(serial, mode)

    def restore_fan_timers(self) -> None:
        self._fan.restore()

    def cancel_timers(self) -> None:
        self._fan.cancel_all()

    # -- lock, schedule, settings ----------------------------------------------------------------

    def set_temperature_lock(
        self,
        serial: str,
        enabled: object,
        pin_hash_value: object = None,
        temp_min: object = None,
        temp_max: object = None,
        *,
        pin: object = None,
    ) -> CommandResult:
        """Lock the thermostat's dial to a range behind a PIN, or unlock it.

        Give the PIN's hash (hosted API: the PIN never travels) or the PIN itself (the
        host's action, the control API), which is hashed here and never stored.
        """
        self.require_device(serial)
        if not boolean(enabled, "Enabled"):
            return self._write(
                serial,
                "device",
                {
                    "temperature_lock": False,
                    "temperature_lock_pin_hash": "",
                    "temperature_lock_enabled": False,
                },
            )
        if pin is not None:
            pin_hash_value = pin_hash(pin, serial)
        if not is_valid_pin_hash(pin_hash_value):
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                "pin_hash must be Base64 of the SHA-1 of the 4-digit PIN followed by the serial",
            )
        low, high = temperature_pair(
            temp_min,
            temp_max,
            names=("temp_min", "temp_max"),
            fields=("temperature_lock_low_temp", "temperature_lock_high_temp"),
            unordered="temp_min must be less than temp_max",
        )
        return self._write(
            serial,
            "device",
            {
                "temperature_lock": True,
                "temperature_lock_enabled": True,
                "temperature_lock_pin_hash": pin_hash_value,
                "temperature_lock_low_temp": low,
                "temperature_lock_high_temp": high,
            },
        )

    def set_schedule(
        self, serial: str, schedule: object, *, turn_off_learning: object = None
    ) -> CommandResult:
        """Replace the device's schedule with a complete, validated schedule object.

        The one learning rule, for every surface: while `device.learning_mode` is on, firmware
        may modify a schedule it was given (protocol notes, "Learning mode"), so the caller
        must say what to do: `turn_off_learning` true writes learning off in the same change,
        false keeps learning; without it (None) the schedule is refused.
        """
        self.require_device(serial)
        if turn_off_learning is not None and not isinstance(turn_off_learning, bool):
            raise CommandError(ErrorCode.INVALID_VALUE, "turn_off_learning must be true or false")
        checked = validate_schedule(schedule)
        if turn_off_learning is None and self._readings(serial).setting("learning_mode") is True:
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                "Learning is on: the thermostat may modify this schedule as it learns. Send "
                "turn_off_learning true to turn learning off with it, or false to keep learning",
                Reason.LEARNING_ON,
            )
        also = (
            {bucket_key("device", serial): {"learning_mode": False}} if turn_off_learning else None
        )
        return self._write_schedule(serial, checked, checked["schedule_mode"], also)

    def set_schedule_mode(self, serial: str, mode: object) -> CommandResult:
        """Which setpoint type the schedule drives: HEAT, COOL or RANGE."""
        self.require_device(serial)
        name = mode.upper() if isinstance(mode, str) else mode
        if name not in SCHEDULE_MODES:
            raise CommandError(ErrorCode.INVALID_VALUE, "Schedule mode must be HEAT, COOL or RANGE")
        return self._write_schedule(serial, {"schedule_mode": name}, name)

    def _write_schedule(
        self,
        serial: str,
        fields: Mapping[str, Any],
        mode: str,
        also: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> CommandResult:
        """Write the schedule bucket, and its mode in `shared` too (and `also`, one change).

        Firmware captures show the mode only in the schedule, but the protocol notes say the
        two must match or the thermostat ignores the schedule, and firmware ignores a field it
        does not use.
        """
        return self._writes.write(
            serial,
            bucket_key("schedule", serial),
            fields,
            {bucket_key("shared", serial): {"schedule_mode": mode}, **(also or {})},
        )

    def set_device_setting(self, serial: str, name: object, value: object) -> CommandResult:
        """One whitelisted device field (see DEVICE_SETTINGS)."""
        self.require_device(serial)
        if not isinstance(name, str) or name not in DEVICE_SETTINGS:
            raise CommandError(
                ErrorCode.INVALID_VALUE,
                f"Setting must be one of {', '.join(sorted(DEVICE_SETTINGS))}",
            )
        checked = DEVICE_SETTINGS[name](value, name)
        capabilities = self._readings(serial).capabilities
        if name in HEAT_PUMP_SETTINGS and not capabilities["has_heat_pump"]:
            raise CommandError(
                ErrorCode.UNSUPPORTED,
                f"{name} is a heat pump setting and the thermostat reports no heat pump",
                Reason.NO_HEAT_PUMP,
            )
        if name in DUAL_FUEL_SETTINGS and not capabilities["has_dual_fuel"]:
            raise CommandError(
                ErrorCode.UNSUPPORTED,
                f"{name} is a dual fuel setting and the thermostat reports no dual fuel",
                Reason.NO_DUAL_FUEL,
            )
        # Where firmware reads it: a few settings live in `shared` (a 5.9.4-5 capture).
        bucket_type = "shared" if name in SHARED_SETTINGS else "device"
        return self._write(serial, bucket_type, {name: checked})

    def filter_replaced(self, serial: str) -> CommandResult:
        """Tell the thermostat its filter was replaced now: `device.filter_changed_date`.

        The protocol notes list it among the fields a cloud writes ("Last filter change (Unix
        timestamp)", bidirectional); no source says what else firmware resets with it.
        """
        self.require_device(serial)
        return self._write(serial, "device", {"filter_changed_date": self._clock.now_ms() // 1000})

    # -- single-write climate actions (Home Assistant's presets and target humidity) ------------

    PRESETS = ("none", "eco", "away", "emergency_heat")

    def set_preset(self, serial: str, preset: object) -> CommandResult:
        """Home Assistant's climate presets, each written as one change (one event, one push).

        `emergency_heat` is the mode. The others leave emergency heat for heat; `away` is the
        home's away (see `set_away`); `eco` is the thermostat's own eco and brings the home
        back from away; `none` turns both off (see `set_eco`).
        """
        self.require_device(serial)
        if preset not in self.PRESETS:
            raise CommandError(
                ErrorCode.INVALID_VALUE, f"Preset must be one of {', '.join(self.PRESETS)}"
            )
        if preset == "emergency_heat":
            return self.set_mode(serial, "emergency")
        shared_key = bucket_key("shared", serial)
        device_key = bucket_key("device", serial)
        extra: dict[str, Mapping[str, Any]] = {}
        if self._readings(serial).mode == "emergency":
            self._check_capability(serial, "heat")
            extra[shared_key] = {"target_temperature_type": "heat"}
        pairing = self._ownership.pairing(serial)
        if preset == "away":
            if pairing is None:
                raise CommandError(
                    ErrorCode.NOT_PAIRED, "Away is a home setting: pair the thermostat first"
                )
            return self._write_home(
                self._home.home_eco(serial, pairing.structure_id, on=True, extra=extra)
            )
        want_eco = preset == "eco"
        if pairing is not None and home_away(self._buckets, pairing.structure_id):
            # Leaving away sets every thermostat's eco back to schedule; eco turns this one's on.
            if want_eco:
                extra[device_key] = self._home.device_eco(serial, on=True)
            return self._write_home(
                self._home.home_eco(
                    serial, pairing.structure_id, on=False, result_key="device", extra=extra
                )
            )
        if self._readings(serial).eco != want_eco:
            return self._writes.write(
                serial, device_key, self._home.device_eco(serial, on=want_eco), extra
            )
        if extra:
            return self._writes.write(serial, shared_key, extra[shared_key])
        return self._writes.unchanged(serial, device_key)

    def set_target_humidity(self, serial: str, percent: object) -> CommandResult:
        """Target humidity for the humidifier or dehumidifier, which it also enables."""
        self.require_device(serial)
        value = DEVICE_SETTINGS["target_humidity"](percent, "target_humidity")
        return self._write(
            serial, "device", {"target_humidity": value, "target_humidity_enabled": True}
        )
