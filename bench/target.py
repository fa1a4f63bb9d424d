"""What the load generator runs against.

What the load generator runs against: the service core in its own process, or a real Home
Assistant (started by `scripts/develop`) through its device port and HTTP API.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
import asyncio
from collections.abc import Awaitable, Callable
import contextlib
import json
from pathlib import Path
import sys
import time
from typing import Any

import aiohttp

from .system import process_cpu_seconds, process_rss_bytes

SERVER_START_TIMEOUT = 30.0
REPOSITORY_ROOT = Path(__file__).resolve().parent.parent


PUSH_PATHS = {
    "": "command",
    "http": "POST /command",
    "climate": "climate.set_temperature",
}
"""Ways a command can enter, by the key prefix of their figures: the core's command layer
directly, the control API's `POST /command`, and Home Assistant's climate service."""
ACCEPTANCE_RECORDED = frozenset({"climate"})
"""Paths whose server says when it accepted each command (Home Assistant's service call,
through the bench_access helper): they get figures from acceptance as well as from sending.
(The core's command layer is timed from acceptance already.)"""


class Target(ABC):
    """A running server: where thermostats connect, how to command them, what it costs."""

    name = "target"
    device_url: str
    push_paths: tuple[str, ...] = ("http",)
    """Keys of PUSH_PATHS this target measures push latency through."""

    def __init__(self) -> None:
        """Initialize the HTTP client the target is reached through."""
        self.http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        self.api_headers: dict[str, str] = {}

    api_url = ""
    """`{control_url}` of the control API (empty: none)."""

    @abstractmethod
    async def command(self, serial: str) -> int:
        """Change the device's setpoint; returns `time.monotonic_ns()` of acceptance."""

    async def http_command(self, serial: str) -> int:
        """`POST {control_url}/command` set_temperature; returns when the request was sent."""
        sent_ns = time.monotonic_ns()
        async with self.http.post(
            f"{self.api_url}/command",
            json={"serial": serial, "command": "set_temperature", "value": _setpoint(serial)},
            headers=self.api_headers,
        ) as resp:
            resp.raise_for_status()
        return sent_ns

    def push_command(self, path: str) -> Callable[[str], Awaitable[int]]:
        """Return the command of one of `push_paths`.

        Return the command of one of `push_paths`: takes a serial, returns the acceptance (or
        sending) time in `time.monotonic_ns()`.
        """
        if path == "http":
            return self.http_command
        raise KeyError(path)

    def reaches(self, path: str, serial: str) -> bool:
        """Whether commands through `path` can address this device."""
        return True

    async def accepted_ns(self, path: str) -> list[int] | None:
        """Return when the server accepted each command of `path` since the last call.

        When the server accepted each command of `path` since the last call, oldest first
        (`time.monotonic_ns()`), or None where it does not say.
        """
        return None

    @abstractmethod
    async def fanout(self, serials: list[str]) -> tuple[int, int | None]:
        """Change every listed device's setpoint at once.

        Change every listed device's setpoint at once; returns when that began and, when
        the server can tell, when it had written the last push.
        """

    @abstractmethod
    async def cpu_seconds(self) -> float | None:
        """CPU time the server process has used so far (None: not known)."""

    @abstractmethod
    async def rss_bytes(self) -> int | None:
        """Resident memory of the server process (None: not known)."""

    async def held(self) -> int | None:
        """Subscribe connections the server holds (None: not known)."""
        return None

    async def profiling(self, enable: bool) -> None:  # noqa: B027 - optional hook
        """Bracket a measured section for the server's profiler, when there is one."""

    async def close(self) -> None:
        """Stop what this target started."""
        await self.http.close()


class CoreServer(Target):
    """The service core alone, in a child process.

    `ThermostatService` alone, in a child process (`python -m bench.server`), so the load
    generator's CPU is not counted against it.
    """

    name = "core"
    push_paths = ("", "http")

    def __init__(
        self, batch_window: float, max_seconds: float, profile: Path | None = None
    ) -> None:
        """Initialize the settings of the service process to start."""
        super().__init__()
        self.profile = profile
        self.batch_window = batch_window
        self.max_seconds = max_seconds
        self.process: asyncio.subprocess.Process | None = None
        self.control_url = ""
        self.pid = 0

    async def start(self) -> None:
        """Spawn the server and wait for its ready line."""
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.server",
            "--batch-window",
            str(self.batch_window),
            "--max-seconds",
            str(self.max_seconds),
            *(("--profile", str(self.profile)) if self.profile else ()),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=REPOSITORY_ROOT,
        )
        assert self.process.stdout is not None
        async with asyncio.timeout(SERVER_START_TIMEOUT):
            line = await self.process.stdout.readline()
        if not line:
            raise RuntimeError("bench server exited before it was ready (see its stderr)")
        ready = json.loads(line)
        self.device_url = ready["device_url"]
        self.control_url = ready["control_url"]
        self.api_url = ready["api_url"]
        self.pid = ready["pid"]

    async def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        async with self.http.post(f"{self.control_url}{path}", json=body) as resp:
            resp.raise_for_status()
            data: dict[str, Any] = await resp.json()
            return data

    async def command(self, serial: str) -> int:
        """Send a command through the service's bench listener; return when it was accepted."""
        return int((await self._post("/bench/command", {"serial": serial}))["accepted_ns"])

    def push_command(self, path: str) -> Callable[[str], Awaitable[int]]:
        """Return the command of a push path (`""`: the service's own command layer)."""
        return self.command if path == "" else super().push_command(path)

    async def fanout(self, serials: list[str]) -> tuple[int, int | None]:
        """Write to every listed thermostat in one command; return when it was accepted and written."""
        reply = await self._post("/bench/fanout", {"serials": serials})
        return int(reply["accepted_ns"]), int(reply["written_ns"])

    async def _stats(self) -> dict[str, Any]:
        async with self.http.get(f"{self.control_url}/bench/stats") as resp:
            resp.raise_for_status()
            data: dict[str, Any] = await resp.json()
            return data

    async def cpu_seconds(self) -> float:
        """Return the CPU time the service process used."""
        return float((await self._stats())["cpu_s"])

    async def rss_bytes(self) -> int:
        """Return the resident memory of the service process."""
        return int((await self._stats())["rss_bytes"])

    async def held(self) -> int:
        """Return how many subscribe connections the service holds."""
        return int((await self._stats())["held"])

    async def profiling(self, enable: bool) -> None:
        """Turn the service process's profiler on or off, if it was started with one."""
        if self.profile is not None:
            await self._post("/bench/profile", {"enable": enable})

    async def close(self) -> None:
        """Stop the service process and close the HTTP client."""
        process, self.process = self.process, None
        if process is not None and process.returncode is None:
            with contextlib.suppress(aiohttp.ClientError):
                await self._post("/bench/stop", {})
            try:
                async with asyncio.timeout(10):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()
        await super().close()


class HomeAssistant(Target):
    """A real Home Assistant with the integration loaded.

    A real Home Assistant with the integration loaded (started by `bench/ha_server.py`,
    or by `scripts/develop` and given by URL).

    Devices connect to `device_url` (the integration's device port). Commands go through the
    control API (`POST /api/thermostat_cloud/command` with a Home Assistant access token) when
    it answers, and through `climate.set_temperature` (REST `POST /api/services/...`) for the
    devices whose climate entity is known; CPU time and RSS are read from /proc when the Home
    Assistant process id is given.
    """

    name = "home-assistant"

    def __init__(
        self,
        device_url: str,
        control_url: str | None,
        token: str | None,
        pid: int | None,
        *,
        climate_entities: dict[str, str] | None = None,
        on_close: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Initialize a target for a running Home Assistant."""
        super().__init__()
        self.device_url = device_url.rstrip("/")
        self.control_url = (control_url or "").rstrip("/")
        self.token = token
        self.pid = pid
        self.api_url = f"{self.control_url}/api/thermostat_cloud"
        self.api_headers = {"Authorization": f"Bearer {token}"}
        self.climate_entities = climate_entities or {}
        """Serial -> climate entity id of the paired devices."""
        self.push_paths = ("http", "climate") if self.climate_entities else ("http",)
        self._on_close = on_close

    @property
    def can_command(self) -> bool:
        """Whether commands can be sent (a control URL and a token were given)."""
        return bool(self.control_url and self.token)

    def push_command(self, path: str) -> Callable[[str], Awaitable[int]]:
        """Return the command of a push path (`climate`: through the climate entity)."""
        return self.service_command if path == "climate" else super().push_command(path)

    def reaches(self, path: str, serial: str) -> bool:
        """Return whether a push path reaches the thermostat."""
        return path != "climate" or serial in self.climate_entities

    async def accepted_ns(self, path: str) -> list[int] | None:
        """Return the acceptance times of climate.set_temperature calls.

        Return acceptance of climate.set_temperature calls, as recorded in Home Assistant by the
        `bench_access` helper (a Home Assistant started without it does not say).
        """
        if path != "climate":
            return None
        async with self.http.get(
            f"{self.control_url}/api/bench_access/accepted", headers=self.api_headers
        ) as resp:
            if resp.status == 404:
                return None
            resp.raise_for_status()
            data: dict[str, list[int]] = await resp.json()
            return data["accepted_ns"]

    async def command(self, serial: str) -> int:
        """Send a command through the control API; return when it was accepted."""
        return await self.http_command(serial)

    async def service_command(self, serial: str) -> int:
        """Call `climate.set_temperature` on one device's entity.

        `climate.set_temperature` on the device's entity through the REST API (which
        answers once the service has run); returns when the request was sent.
        """
        return await self.climate_fanout([serial])

    async def climate_fanout(self, serials: list[str]) -> int:
        """Set a new setpoint on every listed device in `climate.set_temperature` calls.

        One `climate.set_temperature` call for the entities of all listed devices, each to
        a new setpoint of its own; returns when the request was sent. (One call sets one
        temperature: the devices are grouped by the setpoint they get next.)
        """
        groups: dict[float, list[str]] = {}
        for serial in serials:
            groups.setdefault(_setpoint(serial), []).append(self.climate_entities[serial])
        sent_ns = time.monotonic_ns()
        await asyncio.gather(
            *(self._set_temperature(entities, value) for value, entities in groups.items())
        )
        return sent_ns

    async def _set_temperature(self, entity_ids: list[str], value: float) -> None:
        async with self.http.post(
            f"{self.control_url}/api/services/climate/set_temperature",
            json={"entity_id": entity_ids, "temperature": value},
            headers=self.api_headers,
        ) as resp:
            resp.raise_for_status()

    async def fanout(self, serials: list[str]) -> tuple[int, int | None]:
        """Send a command to every listed thermostat at once; return when they were sent."""
        sent_ns = time.monotonic_ns()
        await asyncio.gather(*(self.http_command(serial) for serial in serials))
        return sent_ns, None

    async def cpu_seconds(self) -> float | None:
        """Return the CPU time of the Home Assistant process, if its pid is known."""
        return process_cpu_seconds(self.pid) if self.pid else None

    async def rss_bytes(self) -> int | None:
        """Return the resident memory of the Home Assistant process, if its pid is known."""
        return process_rss_bytes(self.pid) if self.pid else None

    async def close(self) -> None:
        """Close the HTTP client, then run the close callback."""
        try:
            await super().close()
        finally:
            if self._on_close is not None:
                await self._on_close()


_setpoints: dict[str, float] = {}


def _setpoint(serial: str) -> float:
    """Return a different setpoint on every call for a device (16.0 to 25.5 °C, then around)."""
    value = _setpoints.get(serial, 15.5) + 0.5
    _setpoints[serial] = value if value <= 25.5 else 16.0
    return _setpoints[serial]
