"""The service's settings, and the URL form firmware needs."""

from __future__ import annotations

from dataclasses import dataclass, field

from yarl import URL

from ..model.pairing import DEFAULT_ENTRY_KEY_TTL_SECONDS
from .watch.health import HealthThresholds

SERVER_VERSION = "0.1.0"
# A device with no held subscribe is still counted available this long after its last request.
# Firmware resubscribes at once after every close, so a gap this long means it is gone.
AVAILABILITY_GRACE_SECONDS = 120.0
SAVE_DELAY_SECONDS = 1.0
"""Bucket writes reach the disk within this long (see `ThermostatService.request_save`)."""
MAX_UNPAIRED_DEVICES = 50
"""Unpaired devices the server remembers; contact from one more forgets the least useful."""
REQUEST_TIMEOUT_SECONDS = 30.0
"""A new connection's request head, and a request's body after its head, must arrive within
this long (see `listener`)."""


@dataclass(slots=True)
class ServiceConfig:
    """Settings of the service."""

    api_origin: str
    """Origin handed to devices, with an explicit port: `http://192.168.1.10:8000`."""
    entry_key_ttl_seconds: int = DEFAULT_ENTRY_KEY_TTL_SECONDS
    suspend_time_max: int = 300
    batch_window: float = 3.0
    defer_device_window: int = 15
    disable_defer_window: int = 60
    """Sent only with an immediate push that carries setpoints or the mode: for this long
    firmware sends its own changes at once (its acknowledgement of the push among them)."""
    save_delay: float = SAVE_DELAY_SECONDS
    max_unpaired_devices: int = MAX_UNPAIRED_DEVICES
    request_timeout: float = REQUEST_TIMEOUT_SECONDS
    availability_grace: float = AVAILABILITY_GRACE_SECONDS
    resubscribe_grace: float = 30.0
    """A thermostat whose subscribe just closed counts as available this long: it resubscribes
    at once, and a flicker in between is not "unavailable"."""
    time_zone: str = "UTC"
    """The home's IANA time zone, which thermostats get with the weather and run their
    schedules in: holds and vacations read the schedule in it."""
    health: HealthThresholds = field(default_factory=HealthThresholds)
    """When the health monitor raises a finding (see docs/health.md)."""

    @property
    def idle_connection_timeout(self) -> float:
        """Longer than firmware sleeps between requests (`suspend_time_max`)."""
        return self.suspend_time_max + 60.0

    @property
    def hold_timeout(self) -> float:
        """How long a subscribe is held silently before closing with no body."""
        return max(1.0, self.suspend_time_max - 10)


def origin_with_port(url: str) -> str:
    """`scheme://host:port` with the port always written out (firmware needs it)."""
    parsed = URL(url)
    if not parsed.host or parsed.scheme not in ("http", "https"):
        raise ValueError(f"Not an http(s) URL with a host: {url!r}")
    host = f"[{parsed.host}]" if ":" in parsed.host else parsed.host
    return f"{parsed.scheme}://{host}:{parsed.port}"
