"""The domain core: commands, the read model, device sessions and the service composing them.

The surfaces (device, control, hosted) import from here, not from the modules inside.
"""

from .availability import Availability
from .command_errors import CommandError, CommandResult, ErrorCode, Reason
from .commands import Commands
from .config import SERVER_VERSION, ServiceConfig, origin_with_port
from .events import ChangeSource, EventKind, PairingOrigin, ServiceEvent
from .pairing import HomePairing, RegisterResult
from .roster import Roster
from .service import Storage, ThermostatService
from .sessions import (
    BucketAccess,
    DeviceSessions,
    Identity,
    IdentityClaim,
    MacNotResolvedError,
    NotLoadedError,
    NotWritableError,
    ObjectDescriptor,
    PutEntry,
    SessionRefusal,
    Subscription,
    UnidentifiedDeviceError,
    is_revision,
    next_revision,
)
from .state import ECO_MODES, StateSource, ThermostatState
from .validation import as_number

__all__ = [
    "ECO_MODES",
    "SERVER_VERSION",
    "Availability",
    "BucketAccess",
    "ChangeSource",
    "CommandError",
    "CommandResult",
    "Commands",
    "DeviceSessions",
    "ErrorCode",
    "EventKind",
    "HomePairing",
    "Identity",
    "IdentityClaim",
    "MacNotResolvedError",
    "NotLoadedError",
    "NotWritableError",
    "ObjectDescriptor",
    "PairingOrigin",
    "PutEntry",
    "Reason",
    "RegisterResult",
    "Roster",
    "ServiceConfig",
    "ServiceEvent",
    "SessionRefusal",
    "StateSource",
    "Storage",
    "Subscription",
    "ThermostatService",
    "ThermostatState",
    "UnidentifiedDeviceError",
    "as_number",
    "is_revision",
    "next_revision",
    "origin_with_port",
]
