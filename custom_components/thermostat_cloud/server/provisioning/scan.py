"""Find thermostats: probe every address of the /24 of `api_origin` for a settings page.

A host whose answer is not a JSON object is skipped. The settings CGI answers only its
`cloudregisterurl`, so a thermostat is known by its address and the server it uses now.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
import ipaddress
import logging
from typing import Any

from yarl import URL

from ..core import origin_with_port
from ..model import flat_dict
from .network import LocalNetwork, text_field

_LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class FoundThermostat:
    """A thermostat the scan found: where it is, its name and the cloud URL it uses now."""

    ip: str
    device_name: str
    cloudregisterurl: str | None
    configured: bool
    """It already points at this server."""

    @classmethod
    def from_settings(
        cls, ip: str, settings: Mapping[str, Any], api_origin: str
    ) -> FoundThermostat:
        """Return what a settings answer says, compared with this server's `api_origin`."""
        return cls(
            ip=ip,
            device_name=text_field(settings, "device_name") or "",
            cloudregisterurl=text_field(settings, "cloudregisterurl"),
            configured=is_this_server(api_origin, settings.get("cloudregisterurl")),
        )

    def as_json(self) -> dict[str, Any]:
        return flat_dict(self)


@dataclass(frozen=True, slots=True)
class ScanResult:
    """The thermostats found on one /24."""

    subnet: str
    devices: list[FoundThermostat]


class ScanError(Exception):
    """The scan cannot start: `api_origin` names no IPv4 subnet to scan."""

    def __init__(self, message: str, detail: str | None = None) -> None:
        """Initialize with what the user is told and, for the log, why."""
        super().__init__(message)
        self.message = message
        self.detail = detail


def is_this_server(api_origin: str, url: object) -> bool:
    """Whether a thermostat's cloud URL points at `api_origin` (default ports written or not)."""
    if not isinstance(url, str) or not url.strip():
        return False
    try:
        return origin_with_port(url.strip().rstrip("/")) == origin_with_port(api_origin)
    except ValueError:
        return False


async def scan_thermostats(network: LocalNetwork, api_origin: str) -> ScanResult:
    """Probe the /24 of `api_origin` for thermostats' settings pages, all at once."""
    host = URL(api_origin).host
    if not host:
        raise ScanError("api_origin has no host name to derive a subnet from")
    try:
        address = await network.resolve_ipv4(host)
    except OSError as err:
        raise ScanError(f"Cannot resolve {host} to an IPv4 address", str(err)) from err
    subnet = ipaddress.ip_network(f"{address}/24", strict=False)
    hosts = [str(ip) for ip in subnet.hosts()]
    answers = await asyncio.gather(*(network.read_settings(ip) for ip in hosts))
    devices = [
        FoundThermostat.from_settings(ip, settings, api_origin)
        for ip, settings in zip(hosts, answers, strict=True)
        if settings is not None
    ]
    _LOGGER.debug("Scan of %s found %d thermostats", subnet, len(devices))
    return ScanResult(str(subnet), devices)
