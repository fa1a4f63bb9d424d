"""The one command layer: every write to bucket state goes through `Commands.apply`.

Device PUTs and inline updates call `apply` with `ChangeSource.DEVICE`; the control API, the
hosted API, the host's entities and pairing call the typed commands below, which validate
and then call `apply` with `ChangeSource.SERVER`. `apply` merges, persists, hands the server's
writes to delivery (which pushes them to held subscribe connections) and publishes one event
per affected device for listeners outside the write path.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
import logging
from typing import Any

from ..delivery.ledger import Delivery
from ..model.buckets import (
    HOME_SCOPED_TYPES,
    Bucket,
    BucketStore,
    bucket_key,
    home_bucket_keys,
    home_device_keys,
    split_key,
)
from ..model.clock import Clock
from ..model.devices import DeviceRegistry
from ..model.pairing import PairingRegistry
from ..model.records import UnstorableError, ensure_storable
from ..model.text import for_log
from .command_errors import CommandError, CommandResult, ErrorCode, Reason
from .confirmations import Confirmations
from .events import ChangeSource, EventBus, EventKind, ServiceEvent, field_name
from .modes import takes_range
from .readings import BucketReadings, home_away, home_manual_eco_since
from .schedule import SCHEDULE_MODES, validate_schedule
from .validation import (
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
    setpoint,
    temperature,
    temperature_pair,
)

_LOGGER = logging.getLogger(__name__)

# Least gap between the low and high setpoints a single setpoint in range mode leaves: the
# middle of the spec's advice for ranges (at least 1 to 2 °C, 2 to 3 °F).
RANGE_MIN_GAP_C = 1.5
FAN_TIMER_MAX_SECONDS = 43200
FAN_MODES = ("auto", "on", "off")
WAKE_DISPLAY = {"target_change_pending": True}
"""Sent with every setpoint: firmware applies a setpoint without it but its screen stays dark;
it acknowledges by reporting `false`."""
TOUCHED_BY_SERVER = 3
"""`touched_by` firmware records for a change that came from the cloud."""


def _refuse_unstorable(keys: list[str]) -> None:
    """Refuse these buckets' changes, as the store refused them.

    The other buckets' changes stand.
    """
    if keys:
        raise CommandError(
            ErrorCode.INVALID_VALUE,
            "A value cannot be stored: it holds text that is not valid Unicode",
        )


def _merged_fields(key: str, bucket: Bucket, fields: Mapping[str, Any]) -> frozenset[str]:
    """Return the fields the merge just changed, as events name them (`shared.leaf`).

    The merge stamps each field it changed with its number, the highest of the bucket.
    """
    stamps = bucket.field_changes
    latest = max(stamps.get(name, 0) for name in fields)
    bucket_type = key.partition(".")[0]
    return frozenset(field_name(bucket_type, name) for name in fields if stamps.get(name) == latest)


class Commands:
    """Validated writes to bucket state, and the merge-persist-publish primitive under them."""

    def __init__(
        self,
        *,
        clock: Clock,
        buckets: BucketStore,
        pairings: PairingRegistry,
        devices: DeviceRegistry,
        delivery: Delivery,
        events: EventBus,
        request_save: Callable[[], None],
        confirmations: Confirmations,
    ) -> None:
        """Initialize from the clock, the stores, delivery, the events, saving, confirmations."""
        self._clock = clock
        self._buckets = buckets
        self._pairings = pairings
        self._devices = devices
        self._delivery = delivery
        self._events = events
        self._request_save = request_save
        self._confirmations = confirmations
        self._fan_timers: dict[str, asyncio.TimerHandle] = {}

    # -- the primitive ---------------------------------------------------------------------

    def apply(
        self,
        serial: str,
        updates: Mapping[str, Mapping[str, Any]],
        source: ChangeSource,
        *,
        followed: bool = True,
    ) -> dict[str, Bucket]:
        """Merge fields into buckets, persist and notify; returns the buckets that changed.

        Home-scoped buckets (user, structure) are followed by every device of the home, so a
        change to one is announced for each of those devices. What the server writes is
        followed until each device confirms it, unless `followed` is False (the home's
        bookkeeping that pairing writes, which no thermostat reports back).
        """
        if source is ChangeSource.SERVER:
            # A command writes all of its buckets or none of them.
            try:
                ensure_storable(updates)
            except UnstorableError as err:
                _LOGGER.debug("%s: command refused: %s", serial, err)
                _refuse_unstorable(list(updates))
        changed: dict[str, Bucket] = {}
        changed_fields: dict[str, frozenset[str]] = {}
        unstorable: list[str] = []
        for key, fields in updates.items():
            try:
                bucket = self._buckets.merge(key, fields)
            except UnstorableError as err:
                _LOGGER.debug("%s: change to %s refused: %s", serial, for_log(key), err)
                unstorable.append(key)
                continue
            if bucket is not None:
                changed[key] = bucket
                changed_fields[key] = _merged_fields(key, bucket, fields)
        if not changed:
            _refuse_unstorable(unstorable)
            return changed
        self._request_save()
        # Insertion-ordered sets: the writing device first, each key once per device.
        affected: dict[str, dict[str, None]] = {serial: dict.fromkeys(changed)}
        for key in changed:
            parts = split_key(key)
            if parts is not None and parts[0] in HOME_SCOPED_TYPES:
                for other in self._followers(key):
                    affected.setdefault(other, {})[key] = None
        for target, keys in affected.items():
            # Another device of the home did not make this change: it must be told.
            target_source = source if target == serial else ChangeSource.SERVER
            if target_source is ChangeSource.SERVER:
                if followed:
                    # Followed until the device confirms it; told before the push is written.
                    self._confirmations.asked(
                        target, [changed[key] for key in keys], updates, changed_fields
                    )
                # Owed to the device (its own writes are not echoed): pushed now.
                self._delivery.server_changed(target, keys)
            fields_of_target = frozenset().union(*(changed_fields[key] for key in keys))
            self._events.publish(
                ServiceEvent(
                    EventKind.STATE, target, tuple(keys), target_source, fields=fields_of_target
                )
            )
        if source is ChangeSource.DEVICE:
            self._follow_home_back(serial, updates, changed)
        _refuse_unstorable(unstorable)
        return changed

    def _followers(self, key: str) -> list[str]:
        """Return the serials whose devices follow a home-scoped bucket."""
        return [
            p.serial
            for p in self._pairings.pairings()
            if key in home_bucket_keys(p.user_id, p.structure_id)
        ]

    def _write(self, serial: str, bucket_type: str, fields: Mapping[str, Any]) -> CommandResult:
        return self._write_key(serial, bucket_key(bucket_type, serial), fields)

    def _write_key(
        self,
        serial: str,
        key: str,
        fields: Mapping[str, Any],
        also: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> CommandResult:
        """Write `fields` to `key` (and `also` to other buckets, as one change).

        The result names `key`.
        """
        changed = self.apply(serial, {key: fields, **(also or {})}, ChangeSource.SERVER)
        bucket = self._buckets.get(key)
        assert bucket is not None  # merge created it, or it already existed
        return CommandResult(serial, key, bucket.revision, bucket.timestamp, key in changed)

    def require_device(self, serial: str) -> None:
        """Refuse commands to a serial the server has never heard of (no phantom devices)."""
        if serial not in self._devices and not self._buckets.keys_of_serial(serial):
            raise CommandError(ErrorCode.DEVICE_NOT_FOUND, "Device not found")

    def _readings(self, serial: str) -> BucketReadings:
        """Read the thermostat's fields through the state layer (which knows where they are)."""
        return BucketReadings(self._buckets, serial)

    def set_home_devices(self, structure_id: str, devices: list[str]) -> None:
        """Set the home's list of thermostats (serials) in its structure bucket.

        Written as firmware reads it (`home_device_keys`). Announced to the thermostats
        still in the home (the first stands as the writer); with none left no device follows
        the bucket, so it is only stored.
        """
        key = bucket_key("structure", structure_id)
        fields = {"devices": home_device_keys(devices)}
        if devices:
            self.apply(devices[0], {key: fields}, ChangeSource.SERVER, followed=False)
        elif self._buckets.merge(key, fields) is not None:
            self._request_save()

    # -- temperature and mode ----------------------------------------------------------------

    def set_temperature(self, serial: str, value: object, mode: str | None = None) -> CommandResult:
        """Single setpoint; with `mode` (heat/cool) the thermostat also switches to it.

        In range mode, without `mode`, it moves one end of the range (see `_range_towards`).
        """
        self.require_device(serial)
        celsius = setpoint(value)
        fields: dict[str, Any] = {"target_temperature": celsius, **WAKE_DISPLAY}
        if mode is not None:
            if mode not in ("heat", "cool"):
                raise CommandError(ErrorCode.INVALID_VALUE, "Mode must be heat or cool")
            self._check_capability(serial, mode)
            fields["target_temperature_type"] = mode
        elif takes_range(self._readings(serial).mode):
            return self._write(
                serial, "shared", {**self._range_towards(serial, value), **WAKE_DISPLAY}
            )
        return self._write(serial, "shared", fields)

    def _range_towards(self, serial: str, value: object) -> dict[str, float]:
        """Return a single setpoint in range mode as the range end on the side the room must move.

        Above the room temperature it becomes the low end (the thermostat heats up to it),
        below it the high end (it cools down to it); with the room temperature unknown or
        equal, the nearer end. The other end stays unless it is closer than RANGE_MIN_GAP_C,
        then it moves away to that gap. The thermostat stays in range mode.
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
        fields: dict[str, Any] = {
            "target_temperature_low": low_c,
            "target_temperature_high": high_c,
            **WAKE_DISPLAY,
        }
        if switch_to_range:
            self._check_capability(serial, "range")
            fields["target_temperature_type"] = "range"
        return self._write(serial, "shared", fields)

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
        firmware holds; see `_home_eco`. The thermostat names its home: see `set_home_away`.
        """
        self.require_device(serial)
        boolean(away, "Away")
        pairing = self._pairings.pairing(serial)
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
        serials = self._pairings.serials_in(structure_id)
        if not serials:
            raise CommandError(
                ErrorCode.NOT_PAIRED, "Away is a home setting: pair a thermostat first"
            )
        writer = writer or serials[0]
        if self._home_in_eco(structure_id) == flag:
            return self._unchanged(writer, bucket_key("structure", structure_id))
        return self._home_eco(writer, structure_id, on=flag)

    def set_eco(self, serial: str, enabled: object) -> CommandResult:
        """Set the thermostat's own eco mode (`device.eco`).

        Turning it off also brings the home back from away: firmware leaves manual eco only
        when `device.eco`, the home's `manual_eco_all` and `away` all say so.
        """
        self.require_device(serial)
        on = boolean(enabled, "Eco")
        pairing = self._pairings.pairing(serial)
        if not on and pairing is not None and self._home_in_eco(pairing.structure_id):
            return self._home_eco(serial, pairing.structure_id, on=False, result_key="device")
        return self._write(serial, "device", self._device_eco(serial, on=on))

    def _device_eco(self, serial: str, *, on: bool) -> dict[str, Any]:
        """Return `device.eco` as firmware reports it, and `eco_mode_enabled`.

        `device.eco` holds the mode, who touched it and when in seconds; `eco_mode_enabled` is
        for clients that read that.
        """
        # Buckets merge shallowly: keep the other fields firmware keeps in `eco`.
        kept = self._readings(serial).eco_fields
        return {
            "eco": {
                **kept,
                "mode": "manual-eco" if on else "schedule",
                "touched_by": TOUCHED_BY_SERVER,
                "mode_update_timestamp": self._clock.now_ms() // 1000,
            },
            "eco_mode_enabled": on,
        }

    def _home_in_eco(self, structure_id: str) -> bool:
        return home_away(self._buckets, structure_id)

    def _home_eco(
        self,
        serial: str,
        structure_id: str,
        *,
        on: bool,
        result_key: str = "structure",
        extra: Mapping[str, Mapping[str, Any]] | None = None,
        every_device: bool = True,
    ) -> CommandResult:
        """Enter or leave the home's manual eco, as one change pushed at once.

        On: `structure.manual_eco_all` with `manual_eco_timestamp` in seconds (firmware drops
        it when more than 600 s off its clock) and `away`. Off: the same three cleared, and
        `device.eco` back to `schedule` on the thermostats still in eco, or a stale
        `manual-eco` there puts it back into eco; with `every_device`, while the home is in
        manual eco, on every thermostat of the home (one may hold eco the server has not
        heard of yet). A home not in away keeps its other thermostats untouched.
        `extra`: more buckets in the same change, written over those.
        """
        key = bucket_key("structure", structure_id)
        fields = {
            "away": on,
            "manual_eco_all": on,
            "manual_eco_timestamp": self._clock.now_ms() // 1000,
        }
        also: dict[str, Mapping[str, Any]] = {}
        if not on:
            every_device = every_device and self._home_in_eco(structure_id)
            for other in self._pairings.serials_in(structure_id):
                if every_device or self._readings(other).eco:
                    also[bucket_key("device", other)] = self._device_eco(other, on=False)
        also.update(extra or {})
        if result_key == "device":
            device_key = bucket_key("device", serial)
            return self._write_key(serial, device_key, also.pop(device_key), {key: fields, **also})
        return self._write_key(serial, key, fields, also)

    def _follow_home_back(
        self,
        serial: str,
        updates: Mapping[str, Mapping[str, Any]],
        changed: Mapping[str, Bucket],
    ) -> None:
        """End the home's manual eco everywhere when a thermostat reports the home back.

        A thermostat brings the home back by reporting `structure.away` false (someone came
        home) or by leaving eco itself (the dial, its app: `device.eco` on `schedule`).
        Firmware leaves manual eco only when `away`, `manual_eco_all` and its `device.eco` all
        say so, so the home's manual eco and the eco of every thermostat still in it are
        cleared in one push, or they stay in eco. An eco report older than the command that
        entered manual eco does not undo it.
        """
        pairing = self._pairings.pairing(serial)
        if pairing is None:
            return
        entered_at = home_manual_eco_since(self._buckets, pairing.structure_id)
        if entered_at is None:
            return
        structure_key = bucket_key("structure", pairing.structure_id)
        device_key = bucket_key("device", serial)
        home = updates.get(structure_key, {})
        if (
            structure_key in changed
            and home.get("away") is False
            and home.get("manual_eco_all") is not True
        ):
            _LOGGER.debug("%s reports the home back; the home leaves away", serial)
        elif device_key in changed and "eco" in updates[device_key]:
            readings = self._readings(serial)
            left_at = readings.eco_changed_at
            if readings.eco_mode != "schedule" or left_at is None or left_at < entered_at:
                return
            _LOGGER.debug("%s left eco on the thermostat; the home leaves away", serial)
        else:
            return
        self._home_eco(serial, pairing.structure_id, on=False, every_device=False)

    def set_eco_temperatures(self, serial: str, low: object, high: object) -> CommandResult:
        """Set the temperatures the thermostat holds in eco mode."""
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

        A timer is what firmware ends itself, with the server down too: `fan_timer_duration`
        (seconds) and `fan_timer_timeout` (when it ends, Unix seconds) as vendor clients wrote
        them, in fan mode `auto`. Not `on`: that is the continuous fan, which would stay on
        after the timer (protocol notes, "Fan control"; firmware's modes are off, auto and
        duty-cycle).
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
            # Whole Unix seconds, rounded up: the fan runs at least as long as asked.
            timeout = -(-(self._clock.now_ms() + int(seconds) * 1000) // 1000)
            result = self._write_fan(
                serial,
                {
                    "fan_mode": "auto",
                    "fan_timer_duration": int(seconds),
                    "fan_timer_timeout": timeout,
                },
            )
            self._arm_fan_timer(serial, timeout)
            return result
        if mode not in FAN_MODES:
            raise CommandError(ErrorCode.INVALID_VALUE, "Fan mode must be on, auto or off")
        self._cancel_fan_timer(serial)
        return self._write_fan(serial, {"fan_mode": mode, "fan_timer_timeout": 0})

    def _write_fan(self, serial: str, fields: dict[str, Any]) -> CommandResult:
        """Write fan settings to the device bucket (spec).

        A thermostat that reports its fan mode in `shared` gets it there too, or a mode it
        changed on its dial would make the same command a no-op in the device bucket.
        """
        also = (
            {bucket_key("shared", serial): {"fan_mode": fields["fan_mode"]}}
            if self._readings(serial).fan_mode_in_shared
            else None
        )
        return self._write_key(serial, bucket_key("device", serial), fields, also)

    def _arm_fan_timer(self, serial: str, timeout_s: int) -> None:
        self._cancel_fan_timer(serial)
        delay = max(0.0, timeout_s - self._clock.now_ms() / 1000)
        loop = asyncio.get_running_loop()
        self._fan_timers[serial] = loop.call_later(
            delay, self._fan_timer_elapsed, serial, timeout_s
        )

    def _cancel_fan_timer(self, serial: str) -> None:
        if (handle := self._fan_timers.pop(serial, None)) is not None:
            handle.cancel()

    def _fan_timer_elapsed(self, serial: str, timeout_s: int) -> None:
        self._fan_timers.pop(serial, None)
        if self._readings(serial).fan_timer_end != timeout_s:
            return  # replaced by a newer timer or a manual mode since it was armed
        _LOGGER.debug("Fan timer of %s elapsed; fan back to auto", serial)
        self._write_fan(serial, {"fan_mode": "auto", "fan_timer_timeout": 0})

    def restore_fan_timers(self) -> None:
        """Re-arm fan timers stored in device buckets (after a restart); overdue ones end now."""
        for serial in self._buckets.serials():
            if (timeout := self._readings(serial).fan_timer_end) is not None:
                self._arm_fan_timer(serial, timeout)

    def cancel_timers(self) -> None:
        """Stop every pending timer (unload); they are re-armed from state on the next start."""
        for handle in self._fan_timers.values():
            handle.cancel()
        self._fan_timers.clear()

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
        return self._write_key(
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
        pairing = self._pairings.pairing(serial)
        if preset == "away":
            if pairing is None:
                raise CommandError(
                    ErrorCode.NOT_PAIRED, "Away is a home setting: pair the thermostat first"
                )
            return self._home_eco(serial, pairing.structure_id, on=True, extra=extra)
        want_eco = preset == "eco"
        if pairing is not None and self._home_in_eco(pairing.structure_id):
            # Leaving away sets every thermostat's eco back to schedule; eco turns this one's on.
            if want_eco:
                extra[device_key] = self._device_eco(serial, on=True)
            return self._home_eco(
                serial, pairing.structure_id, on=False, result_key="device", extra=extra
            )
        if self._readings(serial).eco != want_eco:
            return self._write_key(serial, device_key, self._device_eco(serial, on=want_eco), extra)
        if extra:
            return self._write_key(serial, shared_key, extra[shared_key])
        return self._unchanged(serial, device_key)

    def _unchanged(self, serial: str, key: str) -> CommandResult:
        """Return the result of a command that had nothing to write."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return CommandResult(serial, key, 0, 0, changed=False)
        return CommandResult(serial, key, bucket.revision, bucket.timestamp, changed=False)

    def set_target_humidity(self, serial: str, percent: object) -> CommandResult:
        """Target humidity for the humidifier or dehumidifier, which it also enables."""
        self.require_device(serial)
        value = DEVICE_SETTINGS["target_humidity"](percent, "target_humidity")
        return self._write(
            serial, "device", {"target_humidity": value, "target_humidity_enabled": True}
        )
