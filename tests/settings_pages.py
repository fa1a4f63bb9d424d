"""Thermostats' local settings pages, simulated on loopback addresses (127.0.0.x).

The control API's scan and configure-device, and "Add thermostat"'s search, talk to these;
no test touches an address outside 127.0.0.0/8.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import random
import socket
from typing import Any

from aiohttp import web

from custom_components.thermostat_cloud.server.provisioning import SETTINGS_PATH


@dataclass
class FakeThermostatSettings:
    """A fake thermostat's local settings API.

    The local settings API of one thermostat (`GET`/`POST /cgi-bin/api/settings`), as the
    firmware's CGI answers (NoLongerEvil-Thermostat `firmware/builder/deps/settings`): a read
    answers `{"cloudregisterurl": ...}` only (no name); it stores `<endpoint>/entry`, refuses
    a wrong `api_key` with 401, gives its key to `{"initialize": <its hostname, the serial>}`
    and, once, to `{"setup": "true"}` in its first-boot window: less than 30 minutes after it
    started, while it still uses the community cloud's default address.
    """

    device_name: str
    cloudregisterurl: str
    require_api_key: str | None = None
    hostname: str | None = None
    status: int = 200
    read_status: int = 200
    """The status of a settings read: another status is another web server, not a thermostat."""
    answer: str | None = None
    """The raw body of every answer instead of the settings JSON (odd firmware)."""
    posts: list[dict[str, Any]] = field(default_factory=list)
    user_agents: list[str] = field(default_factory=list)
    """The User-Agent of every request: which HTTP client asked."""
    just_started: bool = False
    """Less than 30 minutes since it started, its first-boot window not used yet."""

    setup_used: bool = False
    """Its first-boot window gave the key (the CGI's `.setup_done`): never again."""

    def restart(self) -> None:
        """Restart the thermostat: its first-boot window opens again (if it was not used)."""
        self.just_started = True

    def _setup_window_open(self) -> bool:
        return (
            self.just_started
            and not self.setup_used
            and DEFAULT_CLOUD_HOST in self.cloudregisterurl
        )

    def app(self) -> web.Application:
        """Return the web app serving the settings API."""
        app = web.Application()
        app.router.add_get(SETTINGS_PATH, self.get)
        app.router.add_post(SETTINGS_PATH, self.post)
        return app

    async def get(self, request: web.Request) -> web.Response:
        """Answer a settings read."""
        self.user_agents.append(request.headers.get("User-Agent", ""))
        if self.read_status != 200:
            return web.Response(status=self.read_status, text="Not Found")
        if self.answer is not None:
            return web.Response(text=self.answer)
        return web.json_response({"cloudregisterurl": self.cloudregisterurl})

    async def post(self, request: web.Request) -> web.Response:
        """Record a settings write and answer it."""
        self.user_agents.append(request.headers.get("User-Agent", ""))
        body = await request.json()
        self.posts.append(body)
        if "initialize" in body:
            if self.hostname is None or body["initialize"] != self.hostname:
                return web.json_response({"status": "Invalid hostname."}, status=400)
            return web.json_response({"api_key": self.require_api_key})
        if body.get("setup") == "true" and self._setup_window_open():
            self.just_started = False
            self.setup_used = True
            return web.json_response(
                {"api_key": self.require_api_key, "device_name": self.hostname}
            )
        if self.require_api_key is not None and body.get("api_key") != self.require_api_key:
            return web.json_response({"status": "Invalid or Missing API Key."}, status=401)
        if not 200 <= self.status < 300:
            return web.Response(status=self.status, text="broken")
        self.cloudregisterurl = f"{body['endpoint']}/entry"
        if self.answer is not None:
            return web.Response(status=self.status, text=self.answer or None)
        return web.json_response({"device_name": self.device_name}, status=self.status)


DEFAULT_CLOUD_HOST = "backdoor.nolongerevil.com"
"""The community cloud's address a flashed thermostat starts with (the CGI's `IS_DEFAULT`)."""

# Below Linux's ephemeral range (32768 to 60999), from which the kernel takes the local port of
# every outgoing connection: a port picked there can be taken by a connection of the running
# suite between picking it and binding it ("address already in use" once in a few hundred runs).
TEST_PORTS = range(20000, 32768)


def free_port_on_loopback_hosts(*hosts: str) -> int:
    """Return a port, outside the ephemeral range, that can be bound on every given host now."""
    rng = random.Random()
    while True:
        port = rng.choice(TEST_PORTS)
        try:
            for host in hosts:
                with socket.socket() as sock:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                    sock.bind((host, port))
        except OSError:
            continue
        return port
