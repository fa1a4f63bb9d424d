"""Constants of the Thermostat Cloud integration."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from homeassistant.util.hass_dict import HassKey

if TYPE_CHECKING:
    from .server import ControlApi

DOMAIN: Final = "thermostat_cloud"
TITLE: Final = "Thermostat Cloud"

CONF_API_ORIGIN: Final = "api_origin"
CONF_DEVICE_PORT: Final = "device_port"
CONF_ENTRY_KEY_TTL: Final = "entry_key_ttl"
"""Stored option: how long a pairing code stays valid, in seconds."""
CONF_ENTRY_KEY_MINUTES: Final = "entry_key_minutes"
"""Options form field: the same lifetime, in minutes."""
CONF_COMPAT_API: Final = "compat_api"
CONF_COMPAT_PORT: Final = "compat_port"
CONF_SERIAL: Final = "serial"
CONF_CODE: Final = "code"
CONF_OWNER: Final = "owner"
CONF_WEATHER_ENTITY: Final = "weather_entity"

DEFAULT_DEVICE_PORT: Final = 8000
DEFAULT_ENTRY_KEY_TTL: Final = 3600
MIN_ENTRY_KEY_TTL: Final = 1800
MAX_ENTRY_KEY_TTL: Final = 86400
DEFAULT_COMPAT_PORT: Final = 8082
WEATHER_AUTO: Final = "auto"
"""Weather option: the first weather entity Home Assistant has (the default)."""
WEATHER_NONE: Final = "none"
"""Weather option: serve thermostats no weather."""

SUBENTRY_THERMOSTAT: Final = "thermostat"

DATA_CONTROL_API: HassKey[ControlApi] = HassKey(f"{DOMAIN}_control_api")
"""The control API of the views (one per Home Assistant run); a hub's open listener shares it."""

SIGNAL_HUB_STARTED: Final = f"{DOMAIN}_hub_started"
"""Dispatcher signal fired with the `Hub` when the hub entry is set up (again, on a reload)."""

STORAGE_KEY: Final = f"{DOMAIN}.state"
STORAGE_VERSION: Final = 1


def signal_thermostat_added(entry_id: str) -> str:
    """Dispatcher signal fired with a subentry id when a thermostat subentry is added."""
    return f"{DOMAIN}_{entry_id}_thermostat_added"


def signal_energy_rates_changed(entry_id: str) -> str:
    """Dispatcher signal fired with a subentry id when a thermostat's energy rates changed."""
    return f"{DOMAIN}_{entry_id}_energy_rates_changed"


MAX_DISCOVERED_THERMOSTATS: Final = 10
"""Waiting thermostats shown as discovered on the integration's page, first contact first."""

DOCUMENTATION_URL: Final = "https://github.com/thermostat-cloud/thermostat-cloud"
"""The README (the manifest's `documentation`)."""
TROUBLESHOOTING_URL: Final = f"{DOCUMENTATION_URL}#troubleshooting"
"""The README's troubleshooting: the "Learn more" link of the repairs it explains."""
CONF_ALERTS: Final = "alerts"
"""Hub option: the health alerts' thresholds (a section of the options form), see alerts.py."""
EVENT_ALERT: Final = f"{DOMAIN}_alert"
"""Home Assistant event fired when a health alert opens and when it clears (see alerts.py)."""
THERMOSTAT_MANUFACTURER: Final = "Google Nest"
"""The thermostats' maker as Home Assistant's own Nest integration names it (and the
NoLongerEvil server's Home Assistant discovery): the model is what the thermostat reports,
its display's (`Display-2.12`)."""
EVENT_CHANGE = f"{DOMAIN}_change"
"""Fired for each change of a thermostat's setpoint, mode or preset, naming who made it."""

# The monthly report (monthly_report.py): the notify action it is also sent to, if any.
CONF_REPORT_NOTIFY: Final = "report_notify"
REPORT_NOTIFY_NONE: Final = "none"
EVENT_MONTHLY_REPORT: Final = "thermostat_cloud_monthly_report"
