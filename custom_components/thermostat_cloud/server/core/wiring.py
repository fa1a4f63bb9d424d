"""Building the core: every part, in one place, each given what it needs when it is made.

`build_core` makes the stores, the context, and each part with its collaborators and hooks
as constructor arguments: delivery tells confirmations what it wrote, the roster tells the
parts that keep per-device state of a forgotten device, availability tells the ledgers of
each contact, and the write path's announcements reach the followers (events.py) in the
order they are listed here. Where two parts need each other, the one built first reaches
the other when called (a function), never by an attribute set afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..delivery.ledger import Delivery
from ..delivery.subscriptions import SubscriptionHub
from ..model.api_keys import ApiKeyStore
from ..model.buckets import BucketStore
from ..model.clock import Clock
from ..model.devices import DeviceRegistry
from ..model.pairing import PairingRegistry
from .config import ServiceConfig
from .context import CoreContext
from .device.availability import Availability
from .device.clients import Clients
from .device.pairing import HomePairing
from .device.requests import WeatherProvider
from .device.roster import Roster
from .device.sessions import DeviceSessions
from .events import Announcements, EventBus, Follower
from .home.arrivals import Arrivals
from .home.holds import Holds
from .home.leads import Leads
from .home.room_follow import RoomFollow
from .home.vacations import Vacations
from .read.state import ThermostatState
from .watch.days import DayLedger
from .watch.health_monitor import HealthMonitor
from .watch.house_model import HouseModel
from .watch.runtime import RuntimeLedger
from .write.commands import Commands, RoomFrames
from .write.confirmations import Confirmations
from .write.write_path import AnswerFirst


@dataclass(frozen=True, slots=True, kw_only=True)
class Core:
    """The core's parts, as `build_core` wired them."""

    context: CoreContext
    subscriptions: SubscriptionHub
    delivery: Delivery
    confirmations: Confirmations
    commands: Commands
    api_keys: ApiKeyStore
    roster: Roster
    availability: Availability
    house_model: HouseModel
    runtime: RuntimeLedger
    health: HealthMonitor
    holds: Holds
    vacations: Vacations
    arrivals: Arrivals
    rooms: RoomFollow
    days: DayLedger
    home: HomePairing
    sessions: DeviceSessions
    clients: Clients
    followers: list[Follower]
    """The parts that follow changes, in the order they are told (see events.py)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Host:
    """What the service gives the core: the outbound bus, saving, its read model, its state."""

    events: EventBus
    request_save: Callable[[], None]
    save_now_later: Callable[[], None]
    state_of: Callable[[str], ThermostatState]
    is_loaded: Callable[[], bool]
    weather_provider: Callable[[], WeatherProvider | None]


def build_core(config: ServiceConfig, clock: Clock, host: Host) -> Core:
    """Build every part of the core, each wired to the others it works with."""
    buckets = BucketStore(clock)
    devices = DeviceRegistry(clock)
    ownership = PairingRegistry(clock, config.entry_key_ttl_seconds)
    followers: list[Follower] = []
    context = CoreContext(
        config=config,
        clock=clock,
        buckets=buckets,
        devices=devices,
        ownership=ownership,
        events=Announcements(host.events, followers),
        request_save=host.request_save,
        save_now_later=host.save_now_later,
    )

    def last_contact_ms(serial: str) -> int | None:
        record = devices.get(serial)
        return record.last_seen if record is not None and record.last_seen else None

    subscriptions = SubscriptionHub()
    answer_first = AnswerFirst()
    confirmations = Confirmations(context, state_of=host.state_of, later=answer_first.later)
    delivery = Delivery(
        buckets, subscriptions, ownership.home_keys, on_written=confirmations.written
    )
    room_frames = RoomFrames()
    commands = Commands(
        context,
        delivery=delivery,
        confirmations=confirmations,
        answer_first=answer_first,
        room_frames=room_frames,
    )
    holds: Holds | None = None

    def held(serial: str) -> bool:
        assert holds is not None  # built before any event
        return holds.hold_of(serial) is not None

    rooms = RoomFollow(context, commands=commands, frames=room_frames, held=held)
    api_keys = ApiKeyStore(clock, host.save_now_later, host.request_save)
    forgets: list[Callable[[str], None]] = []
    roster = Roster(context, subscriptions=subscriptions, forgets=forgets)
    house_model = HouseModel(context)
    availability: Availability | None = None

    def is_available(serial: str) -> bool:
        assert availability is not None  # built before any request reaches a part
        return availability.is_available(serial)

    runtime = RuntimeLedger(context, last_contact_ms=last_contact_ms, is_available=is_available)
    health = HealthMonitor(
        context,
        is_available=is_available,
        last_contact_ms=last_contact_ms,
        runtime_figures=runtime.figures,
    )
    availability = Availability(
        context,
        subscriptions=subscriptions,
        roster=roster,
        contact_listeners=(runtime.note_contact, house_model.note_contact, health.note_contact),
        later=answer_first.later,
    )
    home: HomePairing | None = None

    def home_serials() -> list[str]:
        assert home is not None  # built before any vacation is checked
        return ownership.serials_in(home.home_structure_id)

    holds = Holds(context, commands=commands, frame_of=rooms.frame)
    vacations: Vacations | None = None
    arrivals: Arrivals | None = None

    def rates_changed() -> None:
        # Both are built before any event.
        assert vacations is not None
        assert arrivals is not None
        vacations.rates_changed()
        arrivals.rates_changed()

    leads = Leads(
        context,
        home_serials=home_serials,
        learned_rate=lambda serial, kind: house_model.estimate(serial, kind).rate,
        rates_changed=rates_changed,
    )
    vacations = Vacations(context, commands=commands, home_serials=home_serials, leads=leads)
    arrivals = Arrivals(
        context,
        commands=commands,
        home_serials=home_serials,
        leads=leads,
        vacations=vacations.vacations,
    )
    days = DayLedger(context, runtime_seconds=lambda serial: runtime.figures(serial).seconds)
    home = HomePairing(
        context,
        commands=commands,
        delivery=delivery,
        roster=roster,
        api_keys=api_keys,
    )
    forgets.extend(
        (
            availability.forget,
            holds.forget,
            rooms.forget,
            commands.forget_last_change,
            health.forget,
            delivery.forget,
            confirmations.forget,
        )
    )
    followers.extend((house_model, runtime, days, holds, leads, arrivals, health, rooms))
    sessions = DeviceSessions(
        context,
        commands=commands,
        answer_first=answer_first,
        confirmations=confirmations,
        delivery=delivery,
        availability=availability,
        roster=roster,
        home=home,
        is_loaded=host.is_loaded,
        weather_provider=host.weather_provider,
    )
    clients = Clients(
        context,
        state_of=host.state_of,
        subscriptions=subscriptions,
        roster=roster,
        home=home,
    )
    return Core(
        context=context,
        subscriptions=subscriptions,
        delivery=delivery,
        confirmations=confirmations,
        commands=commands,
        api_keys=api_keys,
        roster=roster,
        availability=availability,
        house_model=house_model,
        runtime=runtime,
        health=health,
        holds=holds,
        vacations=vacations,
        arrivals=arrivals,
        rooms=rooms,
        days=days,
        home=home,
        sessions=sessions,
        clients=clients,
        followers=followers,
    )
