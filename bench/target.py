"""What the load generator runs against: the service core in its own process, or a real Home
Assistant (started by `scripts/develop`) through its device port and HTTP API."""

from __future__ import annotations

import asyncio
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


class Target:
    """A running server: where thermostats connect, how to command them, what it costs."""

    name = "target"
    device_url: str
    core_commands = False
    """Whether `command`/`fanout` reach the core's command layer directly."""

    def __init__(self) -> None:
        self.http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
        self.api_headers: dict[str, str] = {}

    api_url = ""
    """`{control_url}` of the control API (empty: none)."""

    async def command(self, serial: str) -> int:
        """Change the device's setpoint; returns `time.monotonic_ns()` of acceptance."""
        raise NotImplementedError

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

    async def fanout(self, serials: list[str]) -> tuple[int, int | None]:
        """Change every listed device's setpoint at once; returns when that began and, when
        the server can tell, when it had written the last push."""
        raise NotImplementedError

    async def cpu_seconds(self) -> float | None:
        """CPU time the server process has used so far (None: not known)."""
        raise NotImplementedError

    async def rss_bytes(self) -> int | None:
        """Resident memory of the server process (None: not known)."""
        raise NotImplementedError

    async def held(self) -> int | None:
        """Subscribe connections the server holds (None: not known)."""
        return None

    async def profiling(self, enable: bool) -> None:
        """Bracket a measured section for the server's profiler, when there is one."""

    async def close(self) -> None:
        """Stop what this target started."""
        await self.http.close()


class CoreServer(Target):
    """`ThermostatService` alone, in a child process (`python -m bench.server`), so the load
    generator's CPU is not counted against it."""

    name = "core"
    core_commands = True

    def __init__(
        self, batch_window: float, max_seconds: float, profile: Path | None = None
    ) -> None:
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
        return int((await self._post("/bench/command", {"serial": serial}))["accepted_ns"])

    async def fanout(self, serials: list[str]) -> tuple[int, int | None]:
        reply = await self._post("/bench/fanout", {"serials": serials})
        return int(reply["accepted_ns"]), int(reply["written_ns"])

    async def _stats(self) -> dict[str, Any]:
        async with self.http.get(f"{self.control_url}/bench/stats") as resp:
            resp.raise_for_status()
            data: dict[str, Any] = await resp.json()
            return data

    async def cpu_seconds(self) -> float:
        return float((await self._stats())["cpu_s"])

    async def rss_bytes(self) -> int:
        return int((await self._stats())["rss_bytes"])

    async def held(self) -> int:
        return int((await self._stats())["held"])

    async def profiling(self, enable: bool) -> None:
        if self.profile is not None:
            await self._post("/bench/profile", {"enable": enable})

    async def close(self) -> None:
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
    """A real Home Assistant with the integration loaded (`scripts/develop`).

    Devices connect to `device_url` (the integration's device port). Commands go through the
    control API (`POST /api/thermostat_cloud/command` with a Home Assistant access token) when
    it answers; CPU time and RSS are read from /proc when the Home Assistant process id is
    given.
    """

    name = "home-assistant"

    def __init__(
        self, device_url: str, control_url: str | None, token: str | None, pid: int | None
    ) -> None:
        super().__init__()
        self.device_url = device_url.rstrip("/")
        self.control_url = (control_url or "").rstrip("/")
        self.token = token
        self.pid = pid
        self.api_url = f"{self.control_url}/api/thermostat_cloud"
        self.api_headers = {"Authorization": f"Bearer {token}"}

    @property
    def can_command(self) -> bool:
        """Whether commands can be sent (a control URL and a token were given)."""
        return bool(self.control_url and self.token)

    async def command(self, serial: str) -> int:
        return await self.http_command(serial)

    async def fanout(self, serials: list[str]) -> tuple[int, int | None]:
        sent_ns = time.monotonic_ns()
        await asyncio.gather(*(self.http_command(serial) for serial in serials))
        return sent_ns, None

    async def cpu_seconds(self) -> float | None:
        return process_cpu_seconds(self.pid) if self.pid else None

    async def rss_bytes(self) -> int | None:
        return process_rss_bytes(self.pid) if self.pid else None


_setpoints: dict[str, float] = {}


def _setpoint(serial: str) -> float:
    """A different setpoint on every call for a device (16.0 to 25.5 °C, then around)."""
    value = _setpoints.get(serial, 15.5) + 0.5
    _setpoints[serial] = value if value <= 25.5 else 16.0
    return _setpoints[serial]
