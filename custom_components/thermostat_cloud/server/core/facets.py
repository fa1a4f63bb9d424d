"""The narrow faces of the service's parts that the host and the surfaces may use.

`ThermostatService` hands these out instead of its parts: each offers what a caller outside
the core does with the commands, holds, vacations, the runtime ledger, the house model and
API keys, and leaves out the service's own business with them (loading, saving, timers,
forgetting a thermostat, the raw write path). A face holds the part's bound methods, not the
part: their signatures and documentation are the part's own, and nothing else of it is in
reach. Three faces gather the read side of several parts: `DevicesFacet` (records, the
roster, availability), `PairingFacet` (ownership and pairing) and `DeliveryFacet` (what each
thermostat was sent and has not confirmed).
"""

from __future__ import annotations

from ..delivery.ledger import Delivery
from ..model.api_keys import ApiKeyStore
from ..model.devices import DeviceRegistry
from ..model.pairing import PairingRegistry
from .device.availability import Availability
from .device.pairing import HomePairing
from .device.roster import Roster
from .home.arrivals import Arrivals
from .home.holds import Holds
from .home.room_follow import RoomFollow
from .home.vacations import Vacations
from .watch.days import DayLedger
from .watch.health_monitor import HealthMonitor
from .watch.house_model import HouseModel
from .watch.runtime import RuntimeLedger
from .write.commands import Commands
from .write.confirmations import Confirmations


class CommandsFacet:
    """The user commands (see `commands.Commands`): each validated, each through the write path.

    The raw `WritePath.apply` (a thermostat's report merged as it is) is not here: it is the
    device sessions' and the core's own.
    """

    def __init__(self, commands: Commands) -> None:
        self.acting_as = commands.acting_as
        self.last_change = commands.last_change
        self.set_temperature = commands.set_temperature
        self.set_setpoints = commands.set_setpoints
        self.set_temperature_range = commands.set_temperature_range
        self.set_mode = commands.set_mode
        self.set_away = commands.set_away
        self.set_home_away = commands.set_home_away
        self.set_eco = commands.set_eco
        self.set_eco_temperatures = commands.set_eco_temperatures
        self.set_fan = commands.set_fan
        self.set_temperature_lock = commands.set_temperature_lock
        self.set_schedule = commands.set_schedule
        self.set_schedule_mode = commands.set_schedule_mode
        self.set_device_setting = commands.set_device_setting
        self.filter_replaced = commands.filter_replaced
        self.set_preset = commands.set_preset
        self.set_target_humidity = commands.set_target_humidity


class HoldsFacet:
    """A thermostat's hold: start one, end it, read it (see `holds.Holds`)."""

    def __init__(self, holds: Holds) -> None:
        self.hold_of = holds.hold_of
        self.hold = holds.hold
        self.resume_schedule = holds.resume_schedule


class RoomsFacet:
    """Each thermostat's offset and followed room (see `room_follow.RoomFollow`)."""

    def __init__(self, rooms: RoomFollow) -> None:
        self.configure = rooms.configure
        self.note_room = rooms.note_room
        self.view = rooms.view


class VacationsFacet:
    """The home's vacations: plan, change, cancel, list (see `vacations.Vacations`)."""

    def __init__(self, vacations: Vacations) -> None:
        self.vacations = vacations.vacations
        self.get = vacations.get
        self.return_ms = vacations.return_ms
        self.add = vacations.add
        self.update = vacations.update
        self.delete = vacations.delete


class ArrivalsFacet:
    """The home's arrival: plan, cancel, read (see `arrivals.Arrivals`)."""

    def __init__(self, arrivals: Arrivals) -> None:
        self.arrival = arrivals.arrival
        self.start_ms = arrivals.start_ms
        self.set = arrivals.set
        self.cancel = arrivals.cancel


class RuntimeFacet:
    """How long each thermostat's equipment ran (see `runtime.RuntimeLedger`)."""

    def __init__(self, runtime: RuntimeLedger) -> None:
        self.figures = runtime.figures
        self.set_rates = runtime.set_rates
        self.note_shown = runtime.note_shown


class DaysFacet:
    """Each thermostat's days and the home's weather by day (see `days.DayLedger`)."""

    def __init__(self, days: DayLedger) -> None:
        self._days = days
        self.report = days.report
        self.local_date = days.local_date
        self.note_outdoor = days.note_outdoor
        self.mark_reported = days.mark_reported

    @property
    def reported_month(self) -> str | None:
        return self._days.reported_month


class HouseModelFacet:
    """Each thermostat's house model (see `house_model.HouseModel`)."""

    def __init__(self, house_model: HouseModel) -> None:
        self._house_model = house_model
        self.estimate = house_model.estimate
        self.note_outdoor = house_model.note_outdoor

    @property
    def outdoor(self) -> float | None:
        """The outdoor temperature (°C) last told, None when none is known."""
        return self._house_model.outdoor


class HealthFacet:
    """What is found wrong with the equipment behind each thermostat (see `health_monitor`).

    A thermostat's findings changing is published as a HEALTH event naming it.
    """

    def __init__(self, health: HealthMonitor) -> None:
        self.thresholds = health.thresholds
        """The thresholds the findings are raised at (the service config's `health`)."""
        self.findings = health.findings
        self.serials_with_findings = health.serials_with_findings
        self.raised_between = health.raised_between
        self.note_outdoor = health.note_outdoor


class ApiKeysFacet:
    """The hosted API's keys (see `model.api_keys.ApiKeyStore`)."""

    def __init__(self, api_keys: ApiKeyStore) -> None:
        self.records = api_keys.records
        self.create = api_keys.create
        self.revoke = api_keys.revoke
        self.authenticate = api_keys.authenticate
        self.touch = api_keys.touch


class DevicesFacet:
    """The thermostats heard from: their records, the roster and their availability."""

    def __init__(self, devices: DeviceRegistry, roster: Roster, availability: Availability) -> None:
        self.record = devices.get
        self.record_at = devices.by_address
        """Return the device record of the thermostat last heard from an IP address."""
        self.records = devices.records
        self.is_known = roster.is_known
        """Return whether the thermostat has been heard from and not forgotten."""
        self.known_serials = roster.known_serials
        self.waiting_for_pairing = roster.waiting_for_pairing
        """Return the unpaired thermostats in contact, the newest first."""
        self.is_available = availability.is_available
        self.firmware_too_old = availability.firmware_too_old


class PairingFacet:
    """Who owns which thermostat: pairing, unpairing, and the host's mirror of pairings."""

    def __init__(self, ownership: PairingRegistry, home: HomePairing) -> None:
        self._ownership = ownership
        self.is_paired = ownership.is_paired
        self.record = ownership.pairing
        self.records = ownership.pairings
        """Return every ownership record, in pairing order."""
        self.register = home.register
        """Claim a pairing code as typed (see `pairing.HomePairing.register`).

        A caller that tells a user the outcome awaits the service's `async_flush` first.
        """
        self.unpair = home.unpair
        """Unpair a thermostat; it keeps its buckets and can pair again with a new code."""
        self.unpaired_serials = ownership.unpaired_serials
        """Return the thermostats unpaired whose mirror the host may not have removed yet."""

    def note_mirror(self, serial: str, *, saved: bool) -> bool:
        """Note the host saved its mirror of a pairing, or (not `saved`) of its unpairing.

        True when the journal changed. `saved=False`: the host saved its state without this
        unpaired thermostat's mirror. The journal is for a host that mirrors pairings (see
        `model.pairing`); the caller saves.
        """
        if saved:
            return self._ownership.note_mirror_saved(serial)
        return self._ownership.note_mirror_gone(serial)


class DeliveryFacet:
    """What each thermostat was sent and has not confirmed, and whether it takes commands."""

    def __init__(self, delivery: Delivery, confirmations: Confirmations) -> None:
        self.pending = confirmations.pending
        self.trouble = confirmations.trouble
        self.troubled = confirmations.troubled
        self.notify = delivery.notify_device
        """Tell the thermostat's held subscribes to ask again now; return how many were told."""
