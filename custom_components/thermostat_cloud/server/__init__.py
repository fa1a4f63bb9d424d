"""The thermostat cloud service core.

It uses asyncio, aiohttp and orjson (the JSON library of the host that embeds it), nothing of
the host itself. Its public names are the core's (`core.__all__`) and the surfaces' below.
"""

from . import core
from .control import ControlApi, ControlListener, ControlRoute
from .core import *  # noqa: F403  (the core's public names are the server's)
from .core.read.validation import (
    ECO_TEMPERATURE_MAX_C,
    ECO_TEMPERATURE_MIN_C,
    LOWER_SAFETY_MAX_C,
    LOWER_SAFETY_MIN_C,
    OUTDOOR_THRESHOLD_MAX_C,
    OUTDOOR_THRESHOLD_MIN_C,
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
    "ECO_TEMPERATURE_MAX_C",
    "ECO_TEMPERATURE_MIN_C",
    "LOWER_SAFETY_MAX_C",
    "LOWER_SAFETY_MIN_C",
    "OUTDOOR_THRESHOLD_MAX_C",
    "OUTDOOR_THRESHOLD_MIN_C",
    "TARGET_HUMIDITY_MAX",
    "TARGET_HUMIDITY_MIN",
    "TEMPERATURE_MAX_C",
    "TEMPERATURE_MIN_C",
    "UPPER_SAFETY_MAX_C",
    "UPPER_SAFETY_MIN_C",
    "ApiKey",
    "ConfigureOutcome",
    "ControlApi",
    "ControlListener",
    "ControlRoute",
    "DeviceServer",
    "FoundThermostat",
    "HostedApi",
    "LocalNetwork",
    "RegisterOutcome",
    "ScanError",
    "Scope",
    "bucket_key",
    "configure_thermostat",
    "error_response",
    "postal_location",
    "round_half",
    "scan_thermostats",
    "token_kind",
]
__all__ += core.__all__
