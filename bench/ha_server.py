"""A real Home Assistant for `scripts/bench --home-assistant`, in its own process.

`LaunchedHomeAssistant` makes a throwaway configuration under /tmp (HTTP on a free loopback
port; the Thermostat Cloud hub entry from `scripts/dev_seed.py` on a free device port; this
checkout's integration linked in; the `bench_access` helper integration from bench/bench_access,
which creates an administrator and a long-lived access token and writes the token to a file),
starts `python -m homeassistant` on it, waits until the control API answers, pairs the first
`paired` benchmark thermostats through the control API's `POST /api/register` (so each becomes a
subentry with a climate entity, as pairing from the UI does) and maps their serials to climate
entity ids. `stop()` always ends the process: SIGTERM, then SIGKILL; Home Assistant also stops
by itself when the load generator goes away (its standard input closes) or after its time limit.
`kill()` and `restart()` crash it (SIGKILL, no final save) and start it again on the same
configuration, for the crash test (`tests/test_crash.py`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
import contextlib
from dataclasses import dataclass
import importlib.metadata
import importlib.util
import os
from pathlib import Path
import shutil
import signal
import socket
import sys
import tempfile
import time
from typing import Any

import aiohttp

from thermostat_sim import SimulatedThermostat

from .fleet import bench_serial, initial_buckets
from .target import REPOSITORY_ROOT, HomeAssistant

LOOPBACK = "127.0.0.1"
START_TIMEOUT = 300.0
"""Longest wait for Home Assistant to answer (its first start on a slow machine)."""
STOP_TIMEOUT = 30.0
"""Longest wait for a clean stop before SIGKILL."""
POLL_INTERVAL = 0.2
STOP_MARGIN = 120.0
"""Seconds a launched Home Assistant outlives the suite's time limit before stopping itself
(the load generator normally stops it long before)."""
DEFAULT_PAIRED = 100
"""Thermostats paired by default. Pairing is per home: each new one rewrites the home's
structure bucket for every paired device, so pairing N costs O(N²) entity updates."""
ACCESS_COMPONENT = "bench_access"
MAX_UNPAIRED_DEVICES = 1 << 20
"""Unpaired thermostats the benchmark's hub remembers (a real install: 50). The fleet beyond
the paired ones stands in for paired thermostats, which are never forgotten; set through the
`bench_access` helper, since the integration has no setting for it."""
TOKEN_FILE = "bench_access_token"
CONSOLE_LOG = "console.log"
CLIMATE_ENTITIES_TEMPLATE = (
    "{% for state in states.climate %}"
    "{{ state.entity_id }} {{ device_attr(state.entity_id, 'serial_number') }}\n"
    "{% endfor %}"
)
"""One `entity_id serial` line per climate entity (through `POST /api/template`)."""


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        port: int = probe.getsockname()[1]
        return port


def configuration_yaml(http_port: int, token_file: Path, max_seconds: float) -> str:
    """Return the throwaway configuration.

    Return the throwaway configuration: HTTP and the REST API on loopback only, the benchmark's
    access helper (which also lets the hub remember the whole fleet), quiet logs (a log line
    per thermostat would cost more than the service).
    """
    return f"""\
http:
  server_host: {LOOPBACK}
  server_port: {http_port}
api:
logger:
  default: warning
{ACCESS_COMPONENT}:
  token_file: {token_file}
  max_seconds: {max_seconds}
  max_unpaired_devices: {MAX_UNPAIRED_DEVICES}
"""


def prepare_config(
    config_dir: Path, http_port: int, device_port: int, max_seconds: float, extra_yaml: str = ""
) -> None:
    """Write the configuration, link the integrations in and seed the hub entry."""
    (config_dir / "configuration.yaml").write_text(
        configuration_yaml(http_port, config_dir / TOKEN_FILE, max_seconds) + extra_yaml
    )
    components = config_dir / "custom_components"
    components.mkdir(parents=True, exist_ok=True)
    (components / "thermostat_cloud").symlink_to(
        REPOSITORY_ROOT / "custom_components" / "thermostat_cloud"
    )
    shutil.copytree(
        Path(__file__).parent / ACCESS_COMPONENT,
        components / ACCESS_COMPONENT,
        ignore=shutil.ignore_patterns("__pycache__"),
    )


def ha_version() -> str:
    """Return the installed Home Assistant's version (without importing it)."""
    return importlib.metadata.version("homeassistant")


def home_assistant_command(config_dir: Path, requirements_installed: bool) -> list[str]:
    """Return the command Home Assistant is started with.

    How Home Assistant is started. Its first start installs the requirements of its default
    integrations (the frontend among them) into the environment, as `scripts/develop` does;
    once the frontend is there, later starts skip that, so a requirement that cannot be built
    on this machine is not retried (for tens of seconds) at every start.
    """
    command = [sys.executable, "-m", "homeassistant", "--config", str(config_dir)]
    if requirements_installed:
        command.append("--skip-pip")
    return [*command, "--log-no-color"]


def parse_climate_entities(text: str) -> dict[str, str]:
    """Return serial -> climate entity id from `CLIMATE_ENTITIES_TEMPLATE`'s output."""
    entities: dict[str, str] = {}
    for line in text.splitlines():
        entity_id, _, serial = line.strip().partition(" ")
        if entity_id.startswith("climate.") and serial and serial != "None":
            entities[serial] = entity_id
    return entities


def _is_running(config: dict[str, Any]) -> bool:
    """`GET /api/config` says Home Assistant has finished starting."""
    return config.get("state") == "RUNNING"


@dataclass(slots=True)
class Running:
    """Where the started Home Assistant answers and who it is."""

    control_url: str
    device_url: str
    token: str
    pid: int
    climate_entities: dict[str, str]
    """Serial -> climate entity id of every paired benchmark thermostat."""


class LaunchedHomeAssistant:
    """One Home Assistant process with the integration loaded and thermostats paired."""

    def __init__(
        self,
        paired: int,
        max_seconds: float,
        keep_config: bool = False,
        *,
        extra_yaml: str = "",
        install_requirements: bool = True,
    ) -> None:
        """Initialize the launch settings; nothing runs until the target is opened."""
        self.paired = paired
        self.max_seconds = max_seconds
        self.keep_config = keep_config
        self.extra_yaml = extra_yaml
        """Appended to the configuration (integrations a caller needs besides the API)."""
        self.install_requirements = install_requirements
        """False: never let Home Assistant install requirements (`--skip-pip`)."""
        self.config_dir = Path(tempfile.mkdtemp(prefix="thermostat-cloud-bench-ha-"))
        self.process: asyncio.subprocess.Process | None = None
        self.running: Running | None = None

    async def start(self) -> Running:
        """Start Home Assistant and pair the thermostats.

        Start Home Assistant, wait for it, pair the thermostats (bounded by START_TIMEOUT
        plus the pairing's own time).
        """
        http_port, device_port = free_port(), free_port()
        prepare_config(self.config_dir, http_port, device_port, self.max_seconds, self.extra_yaml)
        await self._run_dev_seed(device_port)
        control_url = f"http://{LOOPBACK}:{http_port}"
        running = self.running = Running(
            control_url=control_url,
            device_url=f"http://{LOOPBACK}:{device_port}",
            token="",
            pid=0,
            climate_entities={},
        )
        await self._launch(running)
        async with aiohttp.ClientSession(
            headers={"Authorization": f"Bearer {running.token}"},
            timeout=aiohttp.ClientTimeout(total=60),
        ) as http:
            await self._pair(http, running)
            running.climate_entities = await self._climate_entities(http, control_url)
        return running

    async def kill(self) -> None:
        """Crash Home Assistant: SIGKILL, so nothing is saved on the way out."""
        process, self.process = self.process, None
        if process is not None:
            _kill_group(process.pid)
            await process.wait()
            if process.stdin is not None:
                process.stdin.close()

    async def restart(self) -> Running:
        """Start Home Assistant again after `kill()`.

        Start Home Assistant again on the same configuration and ports, after `kill()`;
        returns once it is running with the hub loaded (with a new access token).
        """
        assert self.running is not None, "start() first"
        await self.kill()
        await self._launch(self.running)
        return self.running

    async def _launch(self, running: Running) -> None:
        """Start the process and wait until Home Assistant is ready.

        Start the process; wait for the token, for Home Assistant to have finished starting
        (no start-up work left to compete with measurements, and its SIGTERM handler in
        place) and for the hub entry to answer.
        """
        (self.config_dir / TOKEN_FILE).unlink(missing_ok=True)
        requirements_installed = (
            not self.install_requirements or importlib.util.find_spec("hass_frontend") is not None
        )
        console = (self.config_dir / CONSOLE_LOG).open("ab")
        try:
            self.process = await asyncio.create_subprocess_exec(
                *home_assistant_command(self.config_dir, requirements_installed),
                stdin=asyncio.subprocess.PIPE,
                stdout=console,
                stderr=console,
                # Not the repository: its custom_components/ would shadow the configuration's.
                cwd=self.config_dir,
                start_new_session=True,
            )
        finally:
            console.close()
        running.pid = self.process.pid
        async with asyncio.timeout(START_TIMEOUT):
            running.token = await self._wait_for_token()
        async with (
            aiohttp.ClientSession(
                headers={"Authorization": f"Bearer {running.token}"},
                timeout=aiohttp.ClientTimeout(total=60),
            ) as http,
            asyncio.timeout(START_TIMEOUT),
        ):
            await self._wait_until(http, f"{running.control_url}/api/config", _is_running)
            await self._wait_until(http, f"{running.control_url}/api/thermostat_cloud/health")

    async def _run_dev_seed(self, device_port: int) -> None:
        seed = await asyncio.create_subprocess_exec(
            sys.executable,
            str(REPOSITORY_ROOT / "scripts" / "dev_seed.py"),
            str(self.config_dir),
            str(device_port),
            env={**os.environ, "PYTHONPATH": str(REPOSITORY_ROOT)},
            stdout=asyncio.subprocess.DEVNULL,
        )
        if await seed.wait():
            raise RuntimeError("scripts/dev_seed.py failed (see above)")

    def _check_alive(self) -> None:
        assert self.process is not None
        if self.process.returncode is not None:
            tail = (self.config_dir / CONSOLE_LOG).read_text(errors="replace")[-4000:]
            raise RuntimeError(
                f"Home Assistant exited with status {self.process.returncode}:\n{tail}"
            )

    async def _wait_for_token(self) -> str:
        path = self.config_dir / TOKEN_FILE
        while not path.exists():
            self._check_alive()
            await asyncio.sleep(POLL_INTERVAL)
        return path.read_text().strip()

    async def _wait_until(
        self,
        http: aiohttp.ClientSession,
        url: str,
        ready: Callable[[dict[str, Any]], bool] = lambda _: True,
    ) -> None:
        """Poll `GET url` until it answers 200 with a JSON body that `ready` accepts."""
        while True:
            self._check_alive()
            with contextlib.suppress(aiohttp.ClientError, ValueError):
                async with http.get(url) as resp:
                    if resp.status == 200 and ready(await resp.json()):
                        return
            await asyncio.sleep(POLL_INTERVAL)

    async def _pair(self, http: aiohttp.ClientSession, running: Running) -> None:
        """Pair every thermostat through the control API.

        Each thermostat asks for its code (`GET /svc/passphrase`, as firmware does) and the
        code is claimed through the control API, which creates the thermostat's subentry.
        """
        for index in range(self.paired):
            serial = bench_serial(index)
            thermostat = SimulatedThermostat(
                running.device_url, serial, http, buckets=initial_buckets(serial)
            )
            code = (await thermostat.passphrase())["value"]
            async with http.post(
                f"{running.control_url}/api/thermostat_cloud/api/register", json={"code": code}
            ) as resp:
                reply: dict[str, Any] = await resp.json()
            if not reply.get("success"):
                raise RuntimeError(f"pairing {serial} failed: {reply}")

    async def _climate_entities(
        self, http: aiohttp.ClientSession, control_url: str
    ) -> dict[str, str]:
        """Wait until every paired thermostat has its climate entity; serial -> entity id."""
        wanted = {bench_serial(index) for index in range(self.paired)}
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            self._check_alive()
            async with http.post(
                f"{control_url}/api/template", json={"template": CLIMATE_ENTITIES_TEMPLATE}
            ) as resp:
                resp.raise_for_status()
                entities = parse_climate_entities(await resp.text())
            if wanted <= entities.keys():
                return {serial: entities[serial] for serial in sorted(wanted)}
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"{len(wanted - entities.keys())} paired thermostats have no climate entity"
                )
            await asyncio.sleep(POLL_INTERVAL)

    async def stop(self) -> None:
        """End Home Assistant.

        End Home Assistant (SIGTERM, then SIGKILL to its whole process group) and remove
        the throwaway configuration unless asked to keep it.
        """
        process, self.process = self.process, None
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(STOP_TIMEOUT):
                    await process.wait()
            except TimeoutError:
                _kill_group(process.pid)
                await process.wait()
        if process is not None:
            # Whatever it left behind (a requirement install it had started, say).
            _kill_group(process.pid)
        if process is not None and process.stdin is not None:
            process.stdin.close()
        if self.keep_config:
            print(f"bench: Home Assistant configuration kept in {self.config_dir}", file=sys.stderr)
        else:
            shutil.rmtree(self.config_dir, ignore_errors=True)


def _kill_group(pgid: int) -> None:
    """SIGKILL the process group Home Assistant was started in (its own session)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


async def start_home_assistant(
    paired: int, max_seconds: float, *, keep_config: bool = False
) -> HomeAssistant:
    """Return a launched Home Assistant as a benchmark target; closing the target stops it."""
    launcher = LaunchedHomeAssistant(paired, max_seconds, keep_config)
    try:
        running = await launcher.start()
    except BaseException:
        await launcher.stop()
        raise
    return HomeAssistant(
        running.device_url,
        running.control_url,
        running.token,
        running.pid,
        climate_entities=running.climate_entities,
        on_close=launcher.stop,
    )
