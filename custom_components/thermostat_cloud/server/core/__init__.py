"""The domain core: commands, the read model, device sessions, what clients may see, the service.

The surfaces (device, control, hosted) import from here, not from the modules inside.
"""

from .config import SERVER_VERSION, ServiceConfig, origin_with_port
from .device.availability import Availability
from .device.clients import WITHHELD_FIELDS, Access, ClientBucket, Clients, DeviceSummary, Principal
from .device.pairing import HomePairing, RegisterResult
from .device.requests import (
    BucketAccess,
    MacNotResolvedError,
    NotLoadedError,
    NotWritableError,
    ObjectDescriptor,
    SessionRefusal,
    Subscription,
    UnidentifiedDeviceError,
    WeatherProvider,
)
from .device.roster import Roster
from .device.sessions import DeviceSessions, IdentityClaim, ProtocolTimes, PutEntry
from .events import HOME, ChangeSource, EventKind, PairingOrigin, ServiceEvent
from .facets import CommandsFacet, DeliveryFacet, DevicesFacet, PairingFacet
from .firmware.firmware import (
    MIN_CONTROL_FIRMWARE,
    Identity,
    carries_setpoints,
    firmware_major,
    is_firmware_version,
    is_heartbeat,
    is_revision,
    is_skv_transport,
    nested_put_buckets,
    next_revision,
    skv_nested,
    skv_value,
    subscribe_listing,
    too_old_to_control,
)
from .firmware.trouble import LOW_BATTERY_V, Cause, Trouble
from .home.arrivals import Arrival, Arrivals
from .home.holds import Hold, Holds
from .home.vacations import Vacation, Vacations
from .read.command_errors import CommandError, CommandResult, ErrorCode, Reason
from .read.modes import Setpoints, held_setpoints
from .read.readings import (
    DEVICE_RELAYS,
    ECO_MODES,
    EQUIPMENT_FIELDS,
    HVAC_RELAYS,
    holds_eco,
    takes_range,
)
from .read.state import HomeState, ThermostatState
from .read.state_source import StateSource
from .read.validation import as_number
from .service import Storage, ThermostatService
from .watch.days import home_totals
from .watch.health import (
    DEFAULT_THRESHOLDS,
    MIN_LONG_RUNTIME_FACTOR,
    MIN_NOT_WARMING_MINUTES,
    MIN_SILENT_MINUTES,
    MIN_STARTS_PER_HOUR,
    STRICT_THRESHOLDS,
    TEMPERATURE_LIMITS_C,
    Finding,
    FindingKind,
    HealthThresholds,
)
from .watch.house_model import DRIFT, MIN_RUNS, Estimate, HouseModel
from .watch.monthly import MIN_DAYS_WITH_DATA, month_before, month_key, month_range
from .watch.runtime import (
    COOLING,
    ELECTRICITY,
    EQUIPMENT,
    GAS,
    HEATING,
    Rates,
    RuntimeFigures,
    RuntimeLedger,
)
from .write.changes import ATTRIBUTED_FIELDS, Author, AuthorKind, Change, ChangeKind, Rule
from .write.commands import Commands
from .write.confirmations import (
    CONTACT_DEADLINE_S,
    WRITTEN_DEADLINE_S,
    Confirmations,
    PendingField,
    pending_record,
)

__all__ = [
    "ATTRIBUTED_FIELDS",
    "CONTACT_DEADLINE_S",
    "COOLING",
    "DEFAULT_THRESHOLDS",
    "DEVICE_RELAYS",
    "DRIFT",
    "ECO_MODES",
    "ELECTRICITY",
    "EQUIPMENT",
    "EQUIPMENT_FIELDS",
    "GAS",
    "HEATING",
    "HOME",
    "HVAC_RELAYS",
    "LOW_BATTERY_V",
    "MIN_CONTROL_FIRMWARE",
    "MIN_DAYS_WITH_DATA",
    "MIN_LONG_RUNTIME_FACTOR",
    "MIN_NOT_WARMING_MINUTES",
    "MIN_RUNS",
    "MIN_SILENT_MINUTES",
    "MIN_STARTS_PER_HOUR",
    "SERVER_VERSION",
    "STRICT_THRESHOLDS",
    "TEMPERATURE_LIMITS_C",
    "WITHHELD_FIELDS",
    "WRITTEN_DEADLINE_S",
    "Access",
    "Arrival",
    "Arrivals",
    "Author",
    "AuthorKind",
    "Availability",
    "BucketAccess",
    "Cause",
    "Change",
    "ChangeKind",
    "ChangeSource",
    "ClientBucket",
    "Clients",
    "CommandError",
    "CommandResult",
    "Commands",
    "CommandsFacet",
    "Confirmations",
    "DeliveryFacet",
    "DeviceSessions",
    "DeviceSummary",
    "DevicesFacet",
    "ErrorCode",
    "Estimate",
    "EventKind",
    "Finding",
    "FindingKind",
    "HealthThresholds",
    "Hold",
    "Holds",
    "HomePairing",
    "HomeState",
    "HouseModel",
    "Identity",
    "IdentityClaim",
    "MacNotResolvedError",
    "NotLoadedError",
    "NotWritableError",
    "ObjectDescriptor",
    "PairingFacet",
    "PairingOrigin",
    "PendingField",
    "Principal",
    "ProtocolTimes",
    "PutEntry",
    "Rates",
    "Reason",
    "RegisterResult",
    "Roster",
    "Rule",
    "RuntimeFigures",
    "RuntimeLedger",
    "ServiceConfig",
    "ServiceEvent",
    "SessionRefusal",
    "Setpoints",
    "StateSource",
    "Storage",
    "Subscription",
    "ThermostatService",
    "ThermostatState",
    "Trouble",
    "UnidentifiedDeviceError",
    "Vacation",
    "Vacations",
    "WeatherProvider",
    "as_number",
    "carries_setpoints",
    "firmware_major",
    "held_setpoints",
    "holds_eco",
    "home_totals",
    "is_firmware_version",
    "is_heartbeat",
    "is_revision",
    "is_skv_transport",
    "month_before",
    "month_key",
    "month_range",
    "nested_put_buckets",
    "next_revision",
    "origin_with_port",
    "pending_record",
    "skv_nested",
    "skv_value",
    "subscribe_listing",
    "takes_range",
    "too_old_to_control",
]
