"""The thermostat cloud service: state, pairing, persistence and who is owed what."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
import logging
import secrets
from typing import Any, Protocol

from yarl import URL

from ..delivery.ledger import Delivery
from ..delivery.subscriptions import SubscriptionHub, WakeReason
from ..device.headers import firmware_major
from ..device.weather import WeatherProvider
from ..model.api_keys import ApiKeyStore
from ..model.buckets import BucketStore, bucket_key, home_bucket_keys
from ..model.clock import Clock, SystemClock
from ..model.devices import DeviceRegistry
from ..model.pairing import (
    DEFAULT_ENTRY_KEY_TTL_SECONDS,
    Pairing,
    PairingRegistry,
    RegisterOutcome,
    normalize_code,
)
from .commands import Commands
from .events import ChangeSource, EventBus, EventKind, PairingOrigin, ServiceEvent

_LOGGER = logging.getLogger(__name__)

SERVER_VERSION = "0.1.0"
STORAGE_VERSION = 1
HOME_STRUCTURE_NAME = "Home"
# A device with no held subscribe is still counted available this long after its last request.
# Firmware resubscribes at once after every close, so a gap this long means it is gone.
AVAILABILITY_GRACE_SECONDS = 120.0
SAVE_DELAY_SECONDS = 1.0
"""Bucket writes reach the disk within this long (see `ThermostatService.request_save`)."""
MAX_UNPAIRED_DEVICES = 50
"""Unpaired devices the server remembers; contact from one more forgets the least useful."""
MIN_CONTROL_FIRMWARE = 5
"""Firmware major version from which a thermostat subscribes (earlier: heartbeats only)."""
REQUEST_TIMEOUT_SECONDS = 30.0
"""A new connection's request head, and a request's body after its head, must arrive within
this long (see `listener`)."""


class Storage(Protocol):
    """Where the service keeps its state (the host's store, or a file in benchmarks)."""

    async def async_load(self) -> dict[str, Any] | None:
        """Return the saved document, or None."""

    def embed_json(self, data: bytes) -> Any:
        """Embed JSON the service serialized already as a part of the document to save.

        It is parsed back, or, where the encoder can splice it in as it is (orjson's
        `Fragment`), kept.

        Buckets and device records are serialized once per change: a save every few seconds
        then costs the event loop next to nothing for the thousands that did not change.
        """

    def schedule_save(self, snapshot: Callable[[], dict[str, Any]], delay: float) -> None:
        """Save `snapshot()` within `delay` seconds (coalescing repeated requests)."""

    async def async_save(self, data: dict[str, Any]) -> None:
        """Save now."""


@dataclass(slots=True)
class ServiceConfig:
    """Settings of the service."""

    api_origin: str
    """Origin handed to devices, with an explicit port: `http://192.168.1.10:8000`."""
    entry_key_ttl_seconds: int = DEFAULT_ENTRY_KEY_TTL_SECONDS
    suspend_time_max: int = 300
    batch_window: float = 3.0
    defer_device_window: int = 15
    disable_defer_window: int = 60
    """Sent only with an immediate push that carries setpoints or the mode: for this long
    firmware sends its own changes at once (its acknowledgement of the push among them)."""
    save_delay: float = SAVE_DELAY_SECONDS
    max_unpaired_devices: int = MAX_UNPAIRED_DEVICES
    request_timeout: float = REQUEST_TIMEOUT_SECONDS
    availability_grace: float = AVAILABILITY_GRACE_SECONDS
    resubscribe_grace: float = 30.0
    """A thermostat whose subscribe just closed counts as available this long: it resubscribes
    at once, and a flicker in between is not "unavailable"."""

    @property
    def idle_connection_timeout(self) -> float:
        """Return how long a kept-alive connection may stay idle between requests.

        It is longer than firmware sleeps between them (`suspend_time_max`).
        """
        return self.suspend_time_max + 60.0

    @property
    def hold_timeout(self) -> float:
        """How long a subscribe is held silently before closing with no body."""
        return max(1.0, self.suspend_time_max - 10)


def origin_with_port(url: str) -> str:
    """`scheme://host:port` with the port always written out (firmware needs it)."""
    parsed = URL(url)
    if not parsed.host or parsed.scheme not in ("http", "https"):
        raise ValueError(f"Not an http(s) URL with a host: {url!r}")
    host = f"[{parsed.host}]" if ":" in parsed.host else parsed.host
    return f"{parsed.scheme}://{host}:{parsed.port}"


@dataclass(frozen=True, slots=True)
class RegisterResult:
    """Outcome of claiming a pairing code."""

    outcome: RegisterOutcome
    serial: str | None = None

    @property
    def success(self) -> bool:
        """True when the device is now paired."""
        return self.outcome is RegisterOutcome.PAIRED


class ThermostatService:
    """Everything the three surfaces share, with nothing of the host in it."""

    def __init__(self, config: ServiceConfig, storage: Storage, clock: Clock | None = None) -> None:
        """Initialize the service from its config, its storage and a clock (else the system's)."""
        self.config = config
        self.clock: Clock = clock or SystemClock()
        self._storage = storage
        self.events = EventBus()
        self.buckets = BucketStore(self.clock)
        self.devices = DeviceRegistry(self.clock)
        self.pairings = PairingRegistry(self.clock, config.entry_key_ttl_seconds)
        self.subscriptions = SubscriptionHub()
        self.delivery = Delivery(self.buckets, self.subscriptions, self.home_keys)
        """What each device has been sent and is owed."""
        self.commands = Commands(
            clock=self.clock,
            buckets=self.buckets,
            pairings=self.pairings,
            devices=self.devices,
            events=self.events,
            request_save=self.request_save,
        )
        self.home_user_id = ""
        self.home_structure_id = ""
        self.extra_state: dict[str, Any] = {}
        """State other modules persist with the service (hosted API keys)."""
        self.api_keys = ApiKeyStore(self.clock, self.save_now_later, self.request_save)
        """Hosted API keys, persisted in `extra_state`."""
        self.weather_provider: WeatherProvider | None = None
        """Answers `/svc/weather/v1` (the host's weather); None serves no weather."""
        self.loaded = False
        self._save_requested = False
        self._closed_at: dict[str, int] = {}
        """Serial -> when its last held subscribe closed (ms)."""
        self._announced: dict[str, None] = {}
        """Unpaired serials announced (UNPAIRED_CONTACT), in order of first contact."""
        self.implausible_readings: set[tuple[str, str]] = set()
        """(serial, field) of reported numbers already logged as no reading (state.py)."""
        self._availability_timers: dict[str, asyncio.TimerHandle] = {}
        self.events.listen(self._push_server_changes)

    # -- persistence --------------------------------------------------------------------------

    async def async_load(self) -> None:
        """Restore persisted state; a fresh install gets new home ids."""
        data = await self._storage.async_load() or {}
        self.home_user_id = data.get("home_user_id") or f"user{secrets.token_hex(6)}"
        self.home_structure_id = data.get("home_structure_id") or secrets.token_hex(8)
        self.buckets.load(
            data.get("buckets", {}),
            lambda key: _LOGGER.warning("Ignoring stored bucket %s: it does not parse", key),
        )
        self.devices.load(data.get("devices", []))
        self.pairings.load(data.get("pairing", {}))
        self.extra_state = dict(data.get("extra", {}))
        self.api_keys.attach(self.extra_state)
        self.loaded = True
        if not data:
            self.save_now_later()

    def snapshot(self) -> dict[str, Any]:
        """Return the whole persistable state."""
        return {
            "home_user_id": self.home_user_id,
            "home_structure_id": self.home_structure_id,
            "buckets": self.buckets.dump(self._storage.embed_json),
            "devices": self.devices.dump(self._storage.embed_json),
            "pairing": self.pairings.dump(),
            "extra": self.extra_state,
        }

    def request_save(self) -> None:
        """Bucket state changed: save within `save_delay` of the first unsaved change.

        Later changes ride along with that save instead of postponing it, so thermostats that
        report every few seconds cannot keep their state from ever reaching the disk. The
        delay is the loss window of bucket writes in a crash: a save serializes only what
        changed (the rest is spliced in as kept JSON) and writes in the host's executor,
        so one a second costs the event loop little (`python -m bench.save_cost`); the delay
        only gathers the writes of a burst into one file write.
        """
        if not self._save_requested:
            self._save_requested = True
            self._storage.schedule_save(self._snapshot_for_save, self.config.save_delay)

    def save_now_later(self) -> None:
        """Ownership or keys changed: save without the coalescing delay.

        Marks the save as requested, so a `request_save` in the same turn (pairing writes
        buckets too) joins this save instead of pushing it back by `save_delay`.
        """
        self._save_requested = True
        self._storage.schedule_save(self._snapshot_for_save, 0)

    def _snapshot_for_save(self) -> dict[str, Any]:
        self._save_requested = False
        return self.snapshot()

    async def async_flush(self) -> None:
        """Write everything now and return once it is written.

        This is for a clean stop, and every acknowledgement that must survive a crash (pairing,
        unpairing, API keys).
        """
        # This save carries every change so far; a later change must schedule its own.
        self._save_requested = False
        await self._storage.async_save(self.snapshot())

    # -- device contact ---------------------------------------------------------------------------

    def is_paired(self, serial: str) -> bool:
        """Whether a device has an owner."""
        return self.pairings.pairing(serial) is not None

    def note_contact(
        self,
        serial: str,
        *,
        create: bool = True,
        address: str | None = None,
        credential: str | None = None,
    ) -> None:
        """Note a device request: last seen, availability, and announcing an unpaired device.

        Every device request lands here; the announcement of an unpaired device is one-time.

        `create=False` for requests that do not need to know the device (ping, a status
        read): they only refresh an existing record, so made-up serials leave no trace.
        `address` and `credential` (where it called from, the password it sent) are noted
        before the events go out, so a listener waiting for the thermostat at an address
        finds it by that address.
        """
        if not create and serial not in self.devices:
            return
        was_available = self.is_available(serial)
        _, created = self.devices.touch(serial)
        if created:
            self.request_save()
            if not self.is_paired(serial):
                self._forget_surplus_unpaired(serial)
        if self.devices.note_access(serial, address, credential):
            self.request_save()
        if not self.subscriptions.count(serial):
            self._arm_availability_check(serial)
        if not was_available:
            self.events.publish(ServiceEvent(EventKind.CONNECTION, serial))
        if not self.is_paired(serial) and serial not in self._announced:
            self._announced[serial] = None
            _LOGGER.info(
                "Thermostat %s contacted the server but is not paired; pair it with the code "
                "on its screen",
                serial,
            )
            self.events.publish(ServiceEvent(EventKind.UNPAIRED_CONTACT, serial))

    def note_firmware(self, serial: str, version: str) -> None:
        """Keep the firmware version a device reports; a new one is published (FIRMWARE).

        Firmware before 5.x only PUTs empty heartbeats and never subscribes (NoLongerEvil-
        Thermostat issue #213): the host tells the user that it needs 5.x to be controlled.
        """
        record = self.devices.get(serial)
        if record is None or record.software_version == version:
            return
        self.devices.update_identity(serial, {"software_version": version})
        self.request_save()
        if (major := firmware_major(version)) is not None and major < MIN_CONTROL_FIRMWARE:
            _LOGGER.warning(
                "Thermostat %s runs firmware %s, which never opens the connection changes are "
                "pushed on; it needs firmware 5.x to be controlled",
                serial,
                version,
            )
        self.events.publish(ServiceEvent(EventKind.FIRMWARE, serial))

    def firmware_too_old(self, serial: str) -> str | None:
        """Return the firmware version of a device too old to be controlled, else None."""
        record = self.devices.get(serial)
        version = record.software_version if record is not None else None
        major = firmware_major(version)
        return version if major is not None and major < MIN_CONTROL_FIRMWARE else None

    def waiting_for_pairing(self) -> list[str]:
        """Unpaired devices that made contact, in order of first contact."""
        return [serial for serial in self._announced if not self.is_paired(serial)]

    def _forget_surplus_unpaired(self, newest: str) -> None:
        """Keep at most `max_unpaired_devices` unpaired records.

        Made-up serials must not grow the saved state without end. The least useful go first:
        devices without a code on their screen or a held subscribe (a serial that made one
        request), then the longest silent.
        """
        unpaired = [
            record
            for record in self.devices.records()
            if record.serial != newest and not self.is_paired(record.serial)
        ]
        surplus = len(unpaired) + 1 - self.config.max_unpaired_devices
        if surplus <= 0:
            return
        unpaired.sort(
            key=lambda record: (
                self.pairings.has_pending_key(record.serial)
                or bool(self.subscriptions.count(record.serial)),
                record.last_seen,
            )
        )
        for record in unpaired[:surplus]:
            self.forget_device(record.serial)

    def forget_device(self, serial: str) -> None:
        """Forget an unpaired device: its record, buckets and pending code.

        It is a new device if it makes contact again.
        """
        if self.is_paired(serial):
            raise ValueError("A paired device is unpaired, not forgotten")
        self.devices.forget(serial)
        for key in self.buckets.keys_of_serial(serial):
            self.buckets.remove(key)
        self.pairings.forget_key(serial)
        self._announced.pop(serial, None)
        self._closed_at.pop(serial, None)
        self.delivery.forget(serial)
        if (handle := self._availability_timers.pop(serial, None)) is not None:
            handle.cancel()
        self.request_save()
        _LOGGER.debug("Forgot unpaired thermostat %s: too many unpaired thermostats", serial)
        self.events.publish(ServiceEvent(EventKind.FORGOTTEN, serial))

    def is_available(self, serial: str) -> bool:
        """Return whether the device is available.

        It is with a held subscribe, a subscribe closed moments ago (firmware resubscribes at
        once), or a request within the availability grace.
        """
        if self.subscriptions.count(serial):
            return True
        return self.clock.now_ms() < self._available_until_ms(serial)

    def _available_until_ms(self, serial: str) -> int:
        """When a thermostat without a held subscribe stops counting as available."""
        record = self.devices.get(serial)
        last_seen = record.last_seen if record is not None and record.last_seen else None
        closed = self._closed_at.get(serial)
        return max(
            last_seen + int(self.config.availability_grace * 1000) if last_seen else 0,
            closed + int(self.config.resubscribe_grace * 1000) if closed else 0,
        )

    def connection_closed(self, serial: str) -> None:
        """Note that a held subscribe ended.

        Closing is not contact: a thermostat that lost power is only noticed when its silent
        hold times out, so it gets the short resubscribe grace from now, not the request grace.
        """
        self._closed_at[serial] = self.clock.now_ms()
        self.connection_changed(serial)

    def connection_changed(self, serial: str) -> None:
        """Publish that a subscribe opened or closed.

        Without one, re-check availability when the grace runs out.
        """
        self.events.publish(ServiceEvent(EventKind.CONNECTION, serial))
        if self.subscriptions.count(serial):
            if (handle := self._availability_timers.pop(serial, None)) is not None:
                handle.cancel()
        else:
            self._arm_availability_check(serial)

    def _arm_availability_check(self, serial: str) -> None:
        if (handle := self._availability_timers.pop(serial, None)) is not None:
            handle.cancel()
        if not self.subscriptions.closed:
            delay = (self._available_until_ms(serial) - self.clock.now_ms()) / 1000
            self._availability_timers[serial] = asyncio.get_running_loop().call_later(
                max(delay, 0) + 0.5, self._availability_elapsed, serial
            )

    def _availability_elapsed(self, serial: str) -> None:
        """Availability grace elapsed with no held subscribe: listeners re-check."""
        self._availability_timers.pop(serial, None)
        self.events.publish(ServiceEvent(EventKind.CONNECTION, serial))

    # -- what a device follows -----------------------------------------------------------------

    def home_keys(self, serial: str) -> list[str]:
        """Return the home's bucket keys a paired device follows (user, structure, rooms).

        The user and structure buckets are always sent; the home's `where` bucket once a
        thermostat of the home has reported it.
        """
        pairing = self.pairings.pairing(serial)
        if pairing is None:
            return []
        return home_bucket_keys(pairing.user_id, pairing.structure_id)

    def _push_server_changes(self, event: ServiceEvent) -> None:
        """Push server-side writes, owed to the device, to its held connections.

        A device's own writes are not echoed to it.
        """
        if event.kind is EventKind.STATE and event.source is ChangeSource.SERVER:
            self.delivery.server_changed(event.serial, event.keys)
        elif event.kind is EventKind.PAIRING:
            self.subscriptions.wake(event.serial)

    def notify_device(self, serial: str) -> int:
        """Push every stored bucket the device follows to its held connections."""
        return self.subscriptions.wake(serial, WakeReason.FORCE)

    def is_known(self, serial: str) -> bool:
        """Whether the server has heard of a device."""
        return serial in self.devices or bool(self.buckets.keys_of_serial(serial))

    def is_home_id(self, identifier: str) -> bool:
        """Whether an identifier is a user or structure id of a home on this server."""
        if identifier in (self.home_user_id, self.home_structure_id):
            return True
        return any(identifier in (p.user_id, p.structure_id) for p in self.pairings.pairings())

    def is_home_key(self, key: str) -> bool:
        """Whether a `user.`/`structure.`/`where.` key belongs to a home on this server."""
        return self.is_home_id(key.partition(".")[2])

    def known_serials(self) -> list[str]:
        """Every device the server has heard of, sorted."""
        return sorted({r.serial for r in self.devices.records()} | self.buckets.serials())

    # -- pairing -----------------------------------------------------------------------------------

    def register(
        self, code: str, user_id: str | None = None, *, origin: PairingOrigin = PairingOrigin.API
    ) -> RegisterResult:
        """Claim a pairing code as typed: the one pairing implementation.

        The code is accepted in any case, with or without the `XXX-XXXX` dash.

        Records ownership, then writes the user and structure buckets through the command
        layer, which pushes them through a held subscribe connection or leaves them for the
        next subscribe. `origin` goes on the PAIRING event (Home Assistant's flow adds the
        subentry itself).
        """
        value = normalize_code(code)
        if value is None:
            return RegisterResult(RegisterOutcome.MALFORMED)
        outcome, key = self.pairings.check(value)
        if outcome is not RegisterOutcome.PAIRED or key is None:
            if outcome is RegisterOutcome.EXPIRED:
                self.save_now_later()
            return RegisterResult(outcome, key.serial if key else None)
        owner = user_id or self.home_user_id
        pairing = self.pairings.claim(key, owner, self.home_structure_id)
        self.save_now_later()
        _LOGGER.info("Thermostat %s paired", key.serial)
        self._write_home_buckets(pairing)
        self.events.publish(ServiceEvent(EventKind.PAIRING, key.serial, origin=origin))
        return RegisterResult(RegisterOutcome.PAIRED, key.serial)

    async def async_register(self, code: str, user_id: str | None = None) -> RegisterResult:
        """Run `register`, returning once its outcome is on disk.

        What the user is told about (the flow's new thermostat, the control API's answer)
        survives a crash.
        """
        result = self.register(code, user_id)
        if result.outcome in (RegisterOutcome.PAIRED, RegisterOutcome.EXPIRED):
            await self.async_flush()
        return result

    def _write_home_buckets(self, pairing: Pairing) -> None:
        devices = self.pairings.serials_in(pairing.structure_id)
        self.commands.apply(
            pairing.serial,
            {
                bucket_key("user", pairing.user_id): {"name": pairing.user_id},
                bucket_key("structure", pairing.structure_id): {
                    "name": HOME_STRUCTURE_NAME,
                    "devices": devices,
                },
            },
            ChangeSource.SERVER,
        )

    def unpair(self, serial: str) -> bool:
        """Drop ownership; the device keeps its buckets and can pair again with a new code."""
        pairing = self.pairings.unpair(serial)
        if pairing is None:
            return False
        self.api_keys.forget_serial(serial)
        self.save_now_later()
        self._announced.pop(serial, None)
        _LOGGER.info("Thermostat %s unpaired", serial)
        self.commands.set_home_devices(
            pairing.structure_id, self.pairings.serials_in(pairing.structure_id)
        )
        self.events.publish(ServiceEvent(EventKind.PAIRING, serial))
        return True

    async def async_unpair(self, serial: str) -> bool:
        """`unpair`, returning once it is on disk (the hosted API's DELETE answers after)."""
        unpaired = self.unpair(serial)
        if unpaired:
            await self.async_flush()
        return unpaired

    # -- lifecycle --------------------------------------------------------------------------------

    def start(self) -> None:
        """Accept subscribes and start the timers.

        The device server calls this once it listens (see `device.api.DeviceServer`).
        """
        self.subscriptions.reopen()
        self.commands.restore_fan_timers()
        # A thermostat seen just before a restart counts as available until its grace runs
        # out; if it never comes back, listeners must hear that it is gone.
        for record in self.devices.records():
            if record.last_seen:
                self._arm_availability_check(record.serial)

    def close_connections(self) -> None:
        """Tell every held subscribe to close, and refuse new ones until `start`."""
        self.subscriptions.close_all()

    async def async_stop(self) -> None:
        """Close held connections, stop the timers and save everything."""
        self.close_connections()
        self.commands.cancel_timers()
        for handle in self._availability_timers.values():
            handle.cancel()
        self._availability_timers.clear()
        if self.loaded:
            await self.async_flush()
