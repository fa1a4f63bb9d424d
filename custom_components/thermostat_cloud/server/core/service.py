"""The thermostat cloud service: a facade over its parts, and what it keeps on disk.

The parts are private and built by `wiring`; the service loads and saves their state and
starts and stops them. The host and the surfaces use `events`, read access
(`ThermostatState`, `HomeState`) and the narrow faces in `facets`; tests and benchmarks reach
further only through `testing.CoreHarness`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import date
import logging
from typing import Any, Protocol

from ..model.buckets import BucketStore, bucket_key
from ..model.clock import Clock, SystemClock
from ..model.devices import DeviceRegistry
from ..model.pairing import PairingRegistry
from .config import ServiceConfig
from .device.requests import WeatherProvider
from .events import EventBus
from .facets import (
    ApiKeysFacet,
    ArrivalsFacet,
    CommandsFacet,
    DaysFacet,
    DeliveryFacet,
    DevicesFacet,
    HealthFacet,
    HoldsFacet,
    HouseModelFacet,
    PairingFacet,
    RoomsFacet,
    RuntimeFacet,
    VacationsFacet,
)
from .read.state import HomeState, ThermostatState
from .read.state_source import AvailabilityView, CommandsView
from .watch.monthly import Rates, build_monthly_report
from .wiring import Host, build_core

_LOGGER = logging.getLogger(__name__)

STORAGE_VERSION = 1


class Storage(Protocol):
    """Where the service keeps its state (the host's store, or a file in benchmarks)."""

    async def async_load(self) -> dict[str, Any] | None: ...

    def embed_json(self, data: bytes) -> Any:
        """Embed JSON the service serialized already as a part of the document to save.

        Buckets and device records are serialized once per change: a save every few seconds
        then costs the event loop next to nothing for the thousands that did not change.
        """

    def schedule_save(self, snapshot: Callable[[], dict[str, Any]], delay: float) -> None: ...

    async def async_save(self, data: dict[str, Any]) -> None: ...


@dataclass(frozen=True, slots=True)
class _ReadSource:
    buckets: BucketStore
    devices: DeviceRegistry
    ownership: PairingRegistry
    availability: AvailabilityView
    clock: Clock
    confirmations: CommandsView
    implausible_readings: set[tuple[str, str]]


class ThermostatService:
    """Everything the three surfaces and the host share, with nothing of the host in it."""

    def __init__(self, config: ServiceConfig, storage: Storage, clock: Clock | None = None) -> None:
        """Build the parts through `wiring.build_core`; the clock defaults to the system's."""
        self._config = config
        self._clock: Clock = clock or SystemClock()
        self._storage = storage
        self.events = EventBus()
        core = build_core(
            config,
            self._clock,
            Host(
                events=self.events,
                request_save=self._request_save,
                save_now_later=self.save_now_later,
                state_of=self.thermostat,
                is_loaded=lambda: self._loaded,
                weather_provider=lambda: self.weather_provider,
            ),
        )
        context = core.context
        self._buckets = context.buckets
        self._devices = context.devices
        self._ownership = context.ownership
        self._followers = core.followers
        self._subscriptions = core.subscriptions
        self._delivery = core.delivery
        self._confirmations = core.confirmations
        self._health = core.health
        """Saved under the document's `health` key."""
        self._commands = core.commands
        self._extra_state: dict[str, Any] = {}
        """State other modules persist with the service (hosted API keys)."""
        self._api_keys = core.api_keys
        self._roster = core.roster
        self._availability = core.availability
        self._holds = core.holds
        """Kept across its schedule, ended on time or by the dial."""
        self._house_model = core.house_model
        """Saved under the document's `house_model` key."""
        self._vacations = core.vacations
        """Away from their start, home again in time for their end."""
        self._arrivals = core.arrivals
        """Out of eco in time for someone coming home; saved under the document's `arrival`."""
        self._rooms = core.rooms
        """Each thermostat's frame saved under the document's `rooms` key."""
        self._runtime = core.runtime
        """Kept across unpairing; saved under the document's `runtime` key."""
        self._days = core.days
        self._home = core.home
        self._implausible_readings: set[tuple[str, str]] = set()
        """(serial, field) of reported numbers already logged as no reading (state.py)."""
        self._reads = _ReadSource(
            buckets=self._buckets,
            devices=self._devices,
            ownership=self._ownership,
            availability=self._availability,
            clock=self._clock,
            confirmations=self._confirmations,
            implausible_readings=self._implausible_readings,
        )
        # The parts a caller uses, through their narrow faces (`facets`); `events` is above.
        self.commands = CommandsFacet(core.commands)
        self.holds = HoldsFacet(core.holds)
        self.vacations = VacationsFacet(core.vacations)
        self.arrivals = ArrivalsFacet(core.arrivals)
        self.rooms = RoomsFacet(core.rooms)
        """Each thermostat's offset and the room it follows."""
        self.runtime = RuntimeFacet(core.runtime)
        self.days = DaysFacet(core.days)
        """Each thermostat's days: runtime, weather, eco and away, changes by author."""
        self.house_model = HouseModelFacet(core.house_model)
        self.health = HealthFacet(core.health)
        self.api_keys = ApiKeysFacet(core.api_keys)
        self.devices = DevicesFacet(self._devices, self._roster, self._availability)
        self.pairing = PairingFacet(self._ownership, self._home)
        self.delivery = DeliveryFacet(self._delivery, self._confirmations)
        self.clients = core.clients
        self.sessions = core.sessions
        """The device surface's own parts, whole: it serves the thermostats with them."""
        self.weather_provider: WeatherProvider | None = None
        """Answers `/svc/weather/v1` (the host's weather); None serves no weather."""
        self._loaded = False
        self._save_requested = False

    # -- settings ---------------------------------------------------------------------------------

    @property
    def config(self) -> ServiceConfig:
        return self._config

    @property
    def clock(self) -> Clock:
        return self._clock

    # -- reading ----------------------------------------------------------------------------------

    def monthly_report(
        self,
        month: date,
        serials: Sequence[str],
        *,
        rates: Mapping[str, Rates],
        prices: Mapping[str, float],
        health_findings: Mapping[str, int],
    ) -> dict[str, Any] | None:
        """Return the home's report of the month holding `month`; None with too little data."""
        filters = {}
        for serial in serials:
            state = self.thermostat(serial)
            seconds = state.filter_runtime_seconds
            filters[serial] = {
                "replacement_needed": state.filter_replacement_needed,
                "runtime_hours": None if seconds is None else round(seconds / 3600, 1),
            }
        return build_monthly_report(
            self._days,
            serials,
            month,
            rates=rates,
            prices=prices,
            filters=filters,
            health_findings=health_findings,
        )

    def thermostat(self, serial: str) -> ThermostatState:
        return ThermostatState(self._reads, serial)

    def home(self) -> HomeState:
        return HomeState(self._reads, self._home.home_structure_id)

    # -- diagnostics ------------------------------------------------------------------------------

    def diagnostics(self) -> dict[str, Any]:
        """Return what support needs of the service, before the host redacts it.

        The extra state by name only: its values are API keys.
        """
        serials = sorted(
            {*self._roster.known_serials(), *(p.serial for p in self._ownership.pairings())}
        )
        structure_key = bucket_key("structure", self._home.home_structure_id)
        structure = self._buckets.get(structure_key)
        return {
            "extra_state": sorted(self._extra_state),
            "home": {structure_key: structure.as_stored() if structure is not None else None},
            "vacations": self._vacations.dump(),
            "arrival": self._arrivals.dump(),
            "thermostats": {serial: self._thermostat_diagnostics(serial) for serial in serials},
        }

    def _thermostat_diagnostics(self, serial: str) -> dict[str, Any]:
        record = self._devices.get(serial)
        pairing = self._ownership.pairing(serial)
        trouble = self._confirmations.trouble(serial)
        return {
            "paired": pairing is not None,
            "paired_at": pairing.paired_at if pairing else None,
            "structure_id": pairing.structure_id if pairing else None,
            "available": self._availability.is_available(serial),
            "subscriptions": self._subscriptions.count(serial),
            "hold": hold.dump() if (hold := self._holds.hold_of(serial)) else None,
            "house_model": self._house_model.diagnostics(serial),
            "commands": {
                "taking_commands": trouble is None,
                "likely_causes": [cause.value for cause in trouble.causes] if trouble else [],
                "pending": [  # without the values asked: one may be a PIN hash
                    {
                        "field": f"{p.key.partition('.')[0]}.{p.field}",
                        "since": p.since_ms,
                        "written": p.written_ms,
                    }
                    for p in self._confirmations.pending(serial)
                ],
            },
            "record": asdict(record) if record is not None else None,
            "buckets": {
                key: bucket.as_stored()
                for key in sorted(self._buckets.keys_of_serial(serial))
                if (bucket := self._buckets.get(key)) is not None
            },
        }

    # -- persistence --------------------------------------------------------------------------

    async def async_load(self) -> None:
        """Restore persisted state; a fresh install gets new home ids."""
        data = await self._storage.async_load() or {}
        self._home.load(data)
        self._buckets.load(
            data.get("buckets", {}),
            lambda key: _LOGGER.warning("Ignoring stored bucket %s: it does not parse", key),
        )
        self._devices.load(data.get("devices", []))
        self._ownership.load(data.get("pairing", {}))
        self._extra_state = dict(data.get("extra", {}))
        self._confirmations.load(data.get("pending_commands"))
        self._api_keys.attach(self._extra_state)
        self._holds.load(data.get("holds"))
        self._vacations.load(data.get("vacations"))
        self._arrivals.load(data.get("arrival"))
        self._runtime.load(data.get("runtime"))
        self._days.load(data.get("days"))
        self._house_model.load(data.get("house_model"))
        self._health.load(data.get("health"))
        self._rooms.load(data.get("rooms"))
        self._loaded = True
        if not data:
            self.save_now_later()

    def _snapshot(self) -> dict[str, Any]:
        return {
            "home_user_id": self._home.home_user_id,
            "home_structure_id": self._home.home_structure_id,
            "buckets": self._buckets.dump(self._storage.embed_json),
            "devices": self._devices.dump(self._storage.embed_json),
            "pairing": self._ownership.dump(),
            "extra": self._extra_state,
            "holds": self._holds.dump(),
            "vacations": self._vacations.dump(),
            "arrival": self._arrivals.dump(),
            "pending_commands": self._confirmations.dump(),
            "runtime": self._runtime.dump(),
            "days": self._days.dump(),
            "house_model": self._house_model.dump(),
            "health": self._health.dump(),
            "rooms": self._rooms.dump(),
        }

    def _request_save(self) -> None:
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
            self._storage.schedule_save(self._snapshot_for_save, self._config.save_delay)

    def save_now_later(self) -> None:
        """Ownership or keys changed: save without the coalescing delay.

        Marks the save as requested, so a `_request_save` in the same turn (pairing writes
        buckets too) joins this save instead of pushing it back by `save_delay`.
        """
        self._save_requested = True
        self._storage.schedule_save(self._snapshot_for_save, 0)

    def _snapshot_for_save(self) -> dict[str, Any]:
        self._save_requested = False
        return self._snapshot()

    async def async_flush(self) -> None:
        """Write everything now: for a clean stop and acknowledgements that must outlive a crash."""
        # This save carries every change so far; a later change must schedule its own.
        self._save_requested = False
        await self._storage.async_save(self._snapshot())

    # -- lifecycle --------------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._loaded

    def start(self) -> None:
        """Accept subscribes and start the timers, once the device server listens (`hub.Hub`)."""
        self._subscriptions.reopen()
        self._home.write_home_devices(self._buckets)
        self._commands.restore_fan_timers()
        self._availability.start()
        self._holds.start()
        self._vacations.start()
        self._arrivals.start()
        self._confirmations.start()
        self._health.start()
        self._rooms.start()

    def close_connections(self) -> None:
        self._subscriptions.close_all()

    async def async_stop(self) -> None:
        """Close held connections, stop the timers and save everything.

        The host calls `close_connections` before it stops the device server (which waits for
        open requests, so held subscribes must be told to end first), and this after.
        """
        self.close_connections()
        self._commands.cancel_timers()
        self._availability.stop()
        self._holds.stop()
        self._vacations.stop()
        self._arrivals.stop()
        self._confirmations.stop()
        self._runtime.stop()
        self._health.stop()
        self._rooms.stop()
        self._days.stop()
        if self._loaded:
            await self.async_flush()
