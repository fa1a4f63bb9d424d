"""The crash test: a real Home Assistant killed and started again.

The crash test: a real Home Assistant is killed (SIGKILL, so nothing is saved on the way out)
right after a pairing, right after an API key is shown, and in the middle of a burst of writes
with an unpairing, and started again each time; what docs/storage.md promises survives.

The promise: pairings, unpairings and API keys are saved before they are
acknowledged; bucket writes acknowledged in the last second before a crash may be lost, and
nothing older. The burst checks the second half by what is on disk: writes the state file
showed before the kill survive it, later ones may not, and the state is never corrupted.

Home Assistant is started by the benchmark's launcher (`bench/ha_server.py`), on loopback
ports of its own; four starts take about a minute and a half on two busy cores, so this test
has its own time limit. Each restart waits until Home Assistant reports RUNNING (its SIGTERM
handler and the hub are in place) before the next step.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
import contextlib
import itertools
from pathlib import Path
from typing import Any

import aiohttp
import orjson
import pytest

from bench.fleet import bench_serial
from bench.ha_server import LaunchedHomeAssistant
from custom_components.thermostat_cloud.const import DOMAIN, STORAGE_KEY
from tests.real_home_assistant import HomeAssistantClient
from thermostat_sim import SimulatedThermostat

# Starts a real Home Assistant and kills it: about 30 s.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(480)]

GUARD = 60.0
"""Longest wait for something the test waits on (a save reaching the disk)."""
REPORTER = bench_serial(0)
"""Paired by the launcher through the control API; reports its temperature in the burst."""
BY_FLOW, BY_API = bench_serial(1), bench_serial(2)
"""Paired just before the first kill: in the UI's flow, and with `POST /api/register`."""


@pytest.fixture
async def home_assistant(socket_enabled: None) -> AsyncGenerator[LaunchedHomeAssistant]:
    """Start a real Home Assistant with the hub loaded and REPORTER paired.

    A real Home Assistant with the hub loaded and REPORTER paired; stopped after the test.

    `config` serves the UI's flow API, `auth` and `websocket_api` the websocket commands
    used here. Home Assistant may not install requirements: the frontend, without which it
    starts in recovery mode, is a dev dependency.
    """
    launcher = LaunchedHomeAssistant(
        paired=1,
        max_seconds=900,
        extra_yaml="auth:\nconfig:\nwebsocket_api:\n",
        install_requirements=False,
    )
    try:
        await launcher.start()
        yield launcher
    finally:
        await launcher.stop()


async def wait_until_saved_user(ha: HomeAssistantClient, config_dir: Path) -> None:
    """Wait until Home Assistant has saved this run's admin.

    Wait until Home Assistant has saved this run's admin (the launcher makes one at every
    start). It saves users a second after the last change, and every request with the user's
    token is one: a key owned by a user lost in a crash would stop working, which is Home
    Assistant's own loss window, not the one under test.
    """
    user_id = (await ha.websocket({"type": "auth/current_user"}))["id"]
    path = config_dir / ".storage" / "auth"
    async with asyncio.timeout(GUARD):
        # Another process writes the file (not there at all before its first save): there is
        # no event to wait on, so look again.
        while not path.exists() or user_id.encode() not in path.read_bytes():  # noqa: ASYNC110
            await asyncio.sleep(0.05)


def saved_shared(config_dir: Path, serial: str) -> dict[str, Any]:
    """Return the thermostat's `shared` bucket as the state file on disk has it now."""
    path = config_dir / ".storage" / STORAGE_KEY
    with contextlib.suppress(FileNotFoundError):
        document = orjson.loads(path.read_bytes())
        bucket = document["data"]["buckets"].get(f"shared.{serial}")
        if bucket is not None:
            return dict(bucket["value"])
    return {}


async def test_what_was_acknowledged_survives_sigkill(
    home_assistant: LaunchedHomeAssistant,
) -> None:
    launcher = home_assistant
    assert launcher.running is not None
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as http:
        ha = HomeAssistantClient(http, launcher.running)
        await ha.promote_http_config()
        device_url = launcher.running.device_url

        # 1. Two pairings, killed right after the second is acknowledged: Home Assistant saves
        # subentries a second after they change, so neither subentry is on disk.
        codes = {
            serial: (await SimulatedThermostat(device_url, serial, http).passphrase())["value"]
            for serial in (BY_FLOW, BY_API)
        }
        await ha.pair_in_the_flow(codes[BY_FLOW])
        reply = await ha.call("POST", f"/api/{DOMAIN}/api/register", {"code": codes[BY_API]})
        assert reply["success"], reply
        await launcher.kill()

        ha.running = await launcher.restart()
        assert {REPORTER, BY_FLOW, BY_API} <= (await ha.climate_entities()).keys()

        # 2. An API key, killed right after it was shown.
        await wait_until_saved_user(ha, launcher.config_dir)
        created = await ha.call(
            "POST",
            f"/api/services/{DOMAIN}/create_api_key?return_response",
            {"name": "crash test", "scopes": ["read", "write"]},
        )
        key = created["service_response"]["key"]
        await launcher.kill()

        ha.running = await launcher.restart()
        assert await ha.hosted_serials(key) == {REPORTER, BY_FLOW, BY_API}

        # 3. A burst of thermostat reports and commands. The first part reaches the disk
        # (the test waits until the state file shows it); then the hosted API unpairs
        # BY_FLOW and the kill lands in the middle of the second part.
        reporter = SimulatedThermostat(device_url, REPORTER, http)
        for tenth in range(10):
            await reporter.put(f"shared.{REPORTER}", {"current_temperature": 20 + tenth / 10})
        command = {"serial": BY_API, "command": "set_temperature", "value": 22.5}
        assert (await ha.call("POST", f"/api/{DOMAIN}/command", command))["success"]
        saved = 20.9
        async with asyncio.timeout(GUARD):
            # Another process writes the file: there is no event to wait on, so look again.
            while saved_shared(launcher.config_dir, REPORTER).get("current_temperature") != saved:  # noqa: ASYNC110
                await asyncio.sleep(0.05)
        devices = (await ha.call("GET", f"/api/{DOMAIN}/api/v1/devices", key=key))["devices"]
        (by_flow_id,) = (device["id"] for device in devices if device["serial"] == BY_FLOW)
        await ha.call("DELETE", f"/api/{DOMAIN}/api/v1/thermostat/{by_flow_id}", key=key)
        sent: list[float] = []
        ten_acknowledged = asyncio.Event()

        async def report_until_killed() -> None:
            for tenth in itertools.count(1):
                sent.append(round(21 + tenth / 10, 1))
                try:
                    await reporter.put(f"shared.{REPORTER}", {"current_temperature": sent[-1]})
                except aiohttp.ClientError:
                    return  # killed
                if tenth == 10:
                    ten_acknowledged.set()

        burst = asyncio.create_task(report_until_killed())
        async with asyncio.timeout(GUARD):
            await ten_acknowledged.wait()
        await launcher.kill()
        await burst
        assert len(sent) > 10

        ha.running = await launcher.restart()
        # The unpairing was acknowledged: it stays, in the hosted API and in Home Assistant.
        assert await ha.hosted_serials(key) == {REPORTER, BY_API}
        assert BY_FLOW not in await ha.climate_entities()
        # Writes the disk had survive; later ones may be lost, and nothing is made up.
        reported = (await ha.status(REPORTER))["current_temperature"]
        assert reported in (saved, *sent)
        assert (await ha.status(BY_API))["target_temperature"] == 22.5
