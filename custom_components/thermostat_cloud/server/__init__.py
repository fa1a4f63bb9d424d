"""The thermostat cloud service core.

It uses asyncio, aiohttp and orjson (the JSON library of the host that embeds it), nothing of
the host itself.
"""

from .control import ControlApi, ControlListener, Route
from .core import (
    ECO_MODES,
    SERVER_VERSION,
    ChangeSource,
    CommandError,
    CommandResult,
    ErrorCode,
    EventKind,
    PairingOrigin,
    Reason,
    RegisterResult,
    ServiceConfig,
    ServiceEvent,
    Storage,
    ThermostatService,
    ThermostatState,
    origin_with_port,
)
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
from .model import ApiKey, RegisterOutcome, Scope, bucket_key
from .provisioning import (
    ConfigureOutcome,
    FoundThermostat,
    LocalNetwork,
    ScanError,
    configure_thermostat,
    scan_thermostats,
)

__all__ = [
    "ECO_MODES",
    "ECO_TEMPERATURE_MAX_C",
    "ECO_TEMPERATURE_MIN_C",
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
    "Storage",
    "ThermostatService",
    "ThermostatState",
    "bucket_key",
    "configure_thermostat",
    "error_response",
    "origin_with_port",
    "postal_location",
    "round_half",
    "scan_thermostats",
    "token_kind",
]
