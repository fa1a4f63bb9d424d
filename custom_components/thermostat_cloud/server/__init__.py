"""The thermostat cloud service core.

It uses asyncio, aiohttp and orjson (the JSON library of the host that embeds it), nothing of
the host itself.
"""

from .control import ControlApi, ControlListener, Route
from .core.command_errors import CommandError, CommandResult, ErrorCode, Reason
from .core.events import ChangeSource, EventKind, PairingOrigin, ServiceEvent
from .core.modes import Setpoints, held_setpoints, holds_eco, takes_range
from .core.service import (
    SERVER_VERSION,
    RegisterResult,
    ServiceConfig,
    Storage,
    ThermostatService,
    origin_with_port,
)
from .core.state import DEVICE_RELAYS, ECO_MODES, HVAC_RELAYS, ThermostatState
from .core.validation import (
    ECO_TEMPERATURE_MAX_C,
    ECO_TEMPERATURE_MIN_C,
    LOWER_SAFETY_MAX_C,
    LOWER_SAFETY_MIN_C,
    TARGET_HUMIDITY_MAX,
    TARGET_HUMIDITY_MIN,
    TEMPERATURE_MAX_C,
    TEMPERATURE_MIN_C,
    UPPER_SAFETY_MAX_C,
    UPPER_SAFETY_MIN_C,
    round_half,
)
from .device.api import DeviceServer
from .device.weather import postal_location, token_kind
from .hosted import HostedApi
from .http import error_response
from .model.api_keys import ApiKey, Scope
from .model.buckets import bucket_key
from .model.pairing import RegisterOutcome
from .provisioning import (
    ConfigureOutcome,
    FoundThermostat,
    LocalNetwork,
    ScanError,
    configure_thermostat,
    scan_thermostats,
)

__all__ = [
    "DEVICE_RELAYS",
    "ECO_MODES",
    "ECO_TEMPERATURE_MAX_C",
    "ECO_TEMPERATURE_MIN_C",
    "HVAC_RELAYS",
    "LOWER_SAFETY_MAX_C",
    "LOWER_SAFETY_MIN_C",
    "SERVER_VERSION",
    "TARGET_HUMIDITY_MAX",
    "TARGET_HUMIDITY_MIN",
    "TEMPERATURE_MAX_C",
    "TEMPERATURE_MIN_C",
    "UPPER_SAFETY_MAX_C",
    "UPPER_SAFETY_MIN_C",
    "ApiKey",
    "ChangeSource",
    "CommandError",
    "CommandResult",
    "ConfigureOutcome",
    "ControlApi",
    "ControlListener",
    "DeviceServer",
    "ErrorCode",
    "EventKind",
    "FoundThermostat",
    "HostedApi",
    "LocalNetwork",
    "PairingOrigin",
    "Reason",
    "RegisterOutcome",
    "RegisterResult",
    "Route",
    "ScanError",
    "Scope",
    "ServiceConfig",
    "ServiceEvent",
    "Setpoints",
    "Storage",
    "ThermostatService",
    "ThermostatState",
    "bucket_key",
    "configure_thermostat",
    "error_response",
    "held_setpoints",
    "holds_eco",
    "origin_with_port",
    "postal_location",
    "round_half",
    "scan_thermostats",
    "takes_range",
    "token_kind",
]
