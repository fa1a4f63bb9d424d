"""The domain core: the service, its one command layer, its one event path, the read model."""

from .command_errors import CommandError, CommandResult, ErrorCode
from .commands import Commands
from .events import EventKind, ServiceEvent
from .service import ThermostatService, origin_with_port
from .state import ThermostatState
from .validation import as_number

__all__ = [
    "CommandError",
    "CommandResult",
    "Commands",
    "ErrorCode",
    "EventKind",
    "ServiceEvent",
    "ThermostatService",
    "ThermostatState",
    "as_number",
    "origin_with_port",
]
