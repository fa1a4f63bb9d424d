"""The client of thermostats' local settings API (`http://{ip}:8080/cgi-bin/api/settings`).

The settings CGI (NoLongerEvil-Thermostat `firmware/builder/deps/settings`) answers a read with
`{"cloudregisterurl": ...}` only; a `device_name` another page may add is read too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
import contextlib
from dataclasses import dataclass
from http import HTTPStatus
import ipaddress
import json
import socket
from typing import Any

import aiohttp

SETTINGS_PATH = "/cgi-bin/api/settings"


@dataclass(slots=True)
class LocalNetwork:
    """How this server reaches thermostats' settings API, through the host's HTTP session."""

    session: aiohttp.ClientSession
    settings_port: int = 8080
    probe_timeout: float = 3.0
    configure_timeout: float = 10.0

    def settings_url(self, ip: str) -> str:
        host = f"[{ip}]" if ":" in ip else ip
        return f"http://{host}:{self.settings_port}{SETTINGS_PATH}"

    @staticmethod
    async def resolve_ipv4(host: str) -> str:
        """Return an IPv4 address of a host (an address as it is); OSError when there is none."""
        with contextlib.suppress(ValueError):
            address = ipaddress.ip_address(host)
            if address.version == 4:
                return str(address)
            raise OSError(f"{host} is not an IPv4 address")
        infos = await asyncio.get_running_loop().getaddrinfo(
            host, None, family=socket.AF_INET, type=socket.SOCK_STREAM
        )
        if not infos:
            raise OSError(f"{host} has no IPv4 address")
        return str(infos[0][4][0])

    async def read_settings(self, ip: str) -> dict[str, Any] | None:
        """Return the settings object of a thermostat, or None when nothing answers like one."""
        try:
            async with self.session.get(
                self.settings_url(ip), timeout=aiohttp.ClientTimeout(total=self.probe_timeout)
            ) as resp:
                if resp.status != HTTPStatus.OK:
                    return None
                return await json_object_body(resp)
        except aiohttp.ClientError, TimeoutError, OSError:
            return None

    async def post_settings(
        self, ip: str, payload: Mapping[str, Any]
    ) -> tuple[int, dict[str, Any] | None]:
        """POST to a thermostat's settings API; return the status and, on a 2xx, its JSON object."""
        async with self.session.post(
            self.settings_url(ip),
            json=payload,
            timeout=aiohttp.ClientTimeout(total=self.configure_timeout),
        ) as resp:
            if not HTTPStatus.OK <= resp.status < HTTPStatus.MULTIPLE_CHOICES:
                return resp.status, None
            return resp.status, await json_object_body(resp)


async def json_object_body(resp: aiohttp.ClientResponse) -> dict[str, Any] | None:
    """Return a thermostat's answer as a JSON object; None when it is anything else or breaks off."""
    try:
        # The standard parser whichever session asked (Home Assistant's uses orjson, which
        # refuses the NaN some settings pages write).
        data = await resp.json(content_type=None, loads=json.loads)
    except aiohttp.ClientError, TimeoutError, ValueError:
        return None
    return data if isinstance(data, dict) else None


def text_field(settings: Mapping[str, Any] | None, name: str) -> str | None:
    """Return a field of a settings answer when it is a string, else None."""
    value = settings.get(name) if settings is not None else None
    return value if isinstance(value, str) else None
