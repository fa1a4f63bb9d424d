"""LAN provisioning: find thermostats' settings pages and point them at this server."""

from .configure import ConfigureOutcome, ConfigureResult, DeviceLookup, configure_thermostat
from .network import SETTINGS_PATH, LocalNetwork
from .scan import FoundThermostat, ScanError, ScanResult, is_this_server, scan_thermostats

__all__ = [
    "SETTINGS_PATH",
    "ConfigureOutcome",
    "ConfigureResult",
    "DeviceLookup",
    "FoundThermostat",
    "LocalNetwork",
    "ScanError",
    "ScanResult",
    "configure_thermostat",
    "is_this_server",
    "scan_thermostats",
]
