"""The thermostat cloud service core.

It uses asyncio, aiohttp and orjson (the JSON library of the host that embeds it), nothing of
the host itself.
"""

from .command_errors import CommandError, CommandResult, ErrorCode, Reason
from .device_api import DeviceServer
from .events import ChangeSource, EventKind, ServiceEvent
from .service import RegisterResult, ServiceConfig, Storage, ThermostatService, origin_with_port

__all__ = [
    "ChangeSource",
    "CommandError",
    "CommandResult",
    "DeviceServer",
    "ErrorCode",
    "EventKind",
    "Reason",
    "RegisterResult",
    "ServiceConfig",
    "ServiceEvent",
    "Storage",
    "ThermostatService",
    "origin_with_port",
]
