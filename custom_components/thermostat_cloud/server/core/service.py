"""The thermostat cloud service: its parts, composed, and what it keeps on disk.

The parts, each its own module: `commands` (every write), `delivery` (who has received what),
`availability` (contact and availability timers), `roster` (known and unpaired thermostats),
`pairing` (claiming codes, unpairing, the home's ids), `sessions` (the device protocol's
rules) and `clients` (what API clients may see). The service loads and saves their state and starts and stops them.
"""

from __future__ import annotations

from collections.abc import Callable
import logging
from typing import Any, Protocol

from ..delivery.ledger import Delivery
from ..delivery.subscriptions import SubscriptionHub
from ..model.api_keys import ApiKeyStore
from ..model.buckets import BucketStore
from ..model.clock import Clock, SystemClock
from ..model.devices import DeviceRegistry
from ..model.pairing import PairingRegistry
from .availability import Availability
from .clients import Clients
from .commands import Commands
from .config import ServiceConfig
from .confirmations import Confirmations
from .context import CoreContext
from .events import EventBus
from .holds import Holds
from .pairing import HomePairing
from .roster import Roster
from .runtime import RuntimeLedger
from .sessions import DeviceSessions
from .state import ThermostatState
from .vacations import Vacations
from .weather import WeatherProvider

_LOGGER = logging.getLogger(__name__)

STORAGE_VERSION = 1


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


class ThermostatService:
    """Everything the three surfaces share, with nothing of the host in it."""

    def __init__(self, config: ServiceConfig, storage: Storage, clock: Clock | None = None) -> None:
        """Initialize the service from its config, its storage and a clock (else the system's)."""
        self.config = config
        self.clock: Clock = clock or SystemClock()
        self._storage = storage
        self.events = EventBus()
        """Change notifications for listeners outside the write path (SSE, the host)."""
        self.buckets = BucketStore(self.clock)
        self.devices = DeviceRegistry(self.clock)
        self.pairings = PairingRegistry(self.clock, config.entry_key_ttl_seconds)
        context = CoreContext(
            config=config,
            clock=self.clock,
            buckets=self.buckets,
            devices=self.devices,
            pairings=self.pairings,
            events=self.events,
            request_save=self.request_save,
            save_now_later=self.save_now_later,
        )
        self.subscriptions = SubscriptionHub()
        self.delivery = Delivery(self.buckets, self.subscriptions, self.pairings.home_keys)
        """What each device has been sent and is owed."""
        self.confirmations = Confirmations(context, state_of=self._state_of)
        """What each thermostat has not confirmed, and whether it takes commands."""
        self.delivery.on_written = self.confirmations.written
        self.commands = Commands(context, delivery=self.delivery, confirmations=self.confirmations)
        self.extra_state: dict[str, Any] = {}
        """State other modules persist with the service (hosted API keys)."""
        self.api_keys = ApiKeyStore(self.clock, self.save_now_later, self.request_save)
        """Hosted API keys, persisted in `extra_state`."""
        self.roster = Roster(context, subscriptions=self.subscriptions)
        self.availability = Availability(
            context, subscriptions=self.subscriptions, roster=self.roster
        )
        self.holds = Holds(context, commands=self.commands)
        """Each thermostat's hold: kept across its schedule, ended on time or by the dial."""
        self.vacations = Vacations(context, commands=self.commands, home_serials=self._home_serials)
        """The home's vacations: away from their start, home again in time for their end."""
        self.roster.on_forget(self.availability.forget)
        self.roster.on_forget(self.holds.forget)
        self.runtime = RuntimeLedger(
            context,
            last_contact_ms=self._last_contact_ms,
            is_available=self.availability.is_available,
        )
        """How long each thermostat's equipment ran, its cycles and energy (kept across
        unpairing, under the saved document's `runtime` key)."""
        self.availability.on_contact(self.runtime.note_contact)
        self.roster.on_forget(self.delivery.forget)
        self.roster.on_forget(self.confirmations.forget)
        self.pairing = HomePairing(
            context,
            commands=self.commands,
            delivery=self.delivery,
            roster=self.roster,
            api_keys=self.api_keys,
            flush=self.async_flush,
        )
        self.sessions = DeviceSessions(
            config=config,
            clock=self.clock,
            buckets=self.buckets,
            devices=self.devices,
            pairings=self.pairings,
            commands=self.commands,
            confirmations=self.confirmations,
            delivery=self.delivery,
            availability=self.availability,
            roster=self.roster,
            pairing=self.pairing,
            request_save=self.request_save,
            save_now_later=self.save_now_later,
            is_loaded=lambda: self.loaded,
            weather_provider=lambda: self.weather_provider,
        )
        self.clients = Clients(
            context,
            state_of=self._state_of,
            subscriptions=self.subscriptions,
            roster=self.roster,
            pairing=self.pairing,
        )
        """What API clients may see: the read side of the control and hosted APIs."""
        self.weather_provider: WeatherProvider | None = None
        """Answers `/svc/weather/v1` (the host's weather); None serves no weather."""
        self.loaded = False
        self._save_requested = False
        self.implausible_readings: set[tuple[str, str]] = set()
        """(serial, field) of reported numbers already logged as no reading (state.py)."""

    def _state_of(self, serial: str) -> ThermostatState:
        """Return the read model of one thermostat (the service is its source)."""
        return ThermostatState(self, serial)

    def _home_serials(self) -> list[str]:
        """Return the thermostats paired to the home, in pairing order."""
        return self.pairings.serials_in(self.pairing.home_structure_id)

    # -- persistence --------------------------------------------------------------------------

    async def async_load(self) -> None:
        """Restore persisted state; a fresh install gets new home ids."""
        data = await self._storage.async_load() or {}
        self.pairing.load(data)
        self.buckets.load(
            data.get("buckets", {}),
            lambda key: _LOGGER.warning("Ignoring stored bucket %s: it does not parse", key),
        )
        self.devices.load(data.get("devices", []))
        self.pairings.load(data.get("pairing", {}))
        self.extra_state = dict(data.get("extra", {}))
        self.confirmations.load(data.get("pending_commands"))
        self.api_keys.attach(self.extra_state)
        self.holds.load(data.get("holds"))
        self.vacations.load(data.get("vacations"))
        self.runtime.load(data.get("runtime"))
        self.loaded = True
        if not data:
            self.save_now_later()

    def snapshot(self) -> dict[str, Any]:
        """Return the whole persistable state."""
        return {
            "home_user_id": self.pairing.home_user_id,
            "home_structure_id": self.pairing.home_structure_id,
            "buckets": self.buckets.dump(self._storage.embed_json),
            "devices": self.devices.dump(self._storage.embed_json),
            "pairing": self.pairings.dump(),
            "extra": self.extra_state,
            "holds": self.holds.dump(),
            "vacations": self.vacations.dump(),
            "pending_commands": self.confirmations.dump(),
            "runtime": self.runtime.dump(),
        }

    def _last_contact_ms(self, serial: str) -> int | None:
        record = self.devices.get(serial)
        return record.last_seen if record is not None and record.last_seen else None

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

    # -- lifecycle --------------------------------------------------------------------------------

    def start(self) -> None:
        """Accept subscribes and start the timers.

        The device server calls this once it listens (see `device.api.DeviceServer`).
        """
        self.subscriptions.reopen()
        self.pairing.write_home_devices(self.buckets)
        self.commands.restore_fan_timers()
        self.availability.start()
        self.holds.start()
        self.vacations.start()
        self.confirmations.start()

    def close_connections(self) -> None:
        """Tell every held subscribe to close, and refuse new ones until `start`."""
        self.subscriptions.close_all()

    async def async_stop(self) -> None:
        """Close held connections, stop the timers and save everything."""
        self.close_connections()
        self.commands.cancel_timers()
        self.availability.stop()
        self.holds.stop()
        self.vacations.stop()
        self.confirmations.stop()
        self.runtime.stop()
        if self.loaded:
            await self.async_flush()
