"""The browser tests' vocabulary: what the fixtures in conftest.py hand out, and helpers."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
import itertools
import os
from pathlib import Path
import re
import time
from typing import Any

from playwright.async_api import (
    ConsoleMessage,
    Error as PlaywrightError,
    Locator,
    Page,
    Response,
    Route,
)

from custom_components.thermostat_cloud.const import DOMAIN
from tests.real_home_assistant import HomeAssistantClient, Owner, Tokens
from thermostat_sim import SimulatedThermostat

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",  # runs as root on CI
    "--disable-gpu",
    # Containers give /dev/shm 64 MB, too little for Chromium's shared memory: use /tmp.
    "--disable-dev-shm-usage",
    # No traffic of Chromium's own beyond loopback (updates, sync, field trials, QUIC probes).
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
LOOPBACK_URL = "http://127.0.0.1:"
"""Where the pages may send requests: Home Assistant on loopback, nowhere else."""
BROWSER_DIR = Path(__file__).parent
SCREENSHOTS = BROWSER_DIR / "screenshots"
README_IMAGES = BROWSER_DIR.parents[1] / "docs" / "images"
UPDATE_SCREENSHOTS = os.environ.get("UPDATE_SCREENSHOTS") == "1"
OWNER = Owner()
ENTITY_WAIT = 30.0
"""Longest wait for Home Assistant to show a thermostat it was told about."""

HOME_ASSISTANT_YAML = """\
frontend:
config:
recorder:
energy:
"""
"""What the UI needs besides the launcher's `http:` and `api:`. `recorder:` and `energy:` as every
installation has them (default_config): without them the integration page's `recorder/info`
call, and the card picker's `energy/get_prefs`, fail in the browser's console."""

OFFLINE_ERRORS: dict[str, re.Pattern[str]] = {
    # Home Assistant's `brands` integration fetches the icons of core integrations from
    # brands.home-assistant.io; offline it answers 404. A custom integration brings its own
    # (ours: custom_components/thermostat_cloud/brand/), so a 404 for ours stays an error.
    "core integrations' icons from the brands CDN": re.compile(
        r"status of 404 .*/api/brands/integration/(?!thermostat_cloud/|bench_access/)[a-z0-9_]+/"
    ),
    # The launcher's helper integration (bench/bench_access) is not published: no icon.
    "the launcher's helper has no icon": re.compile(
        r"status of 404 .*/api/brands/integration/bench_access/"
    ),
}
"""Console errors that are the offline network's, not the page's: each named, nothing else."""


async def refuse_off_machine(route: Route) -> None:
    """Refuse a request that would leave the machine, as an offline machine's DNS would.

    The page sees the name not resolve (net::ERR_NAME_NOT_RESOLVED in its console, a problem
    unless named in OFFLINE_ERRORS), whatever the network of the machine running the tests.
    """
    await route.abort("namenotresolved")


LOG_LINE = re.compile(
    # 2026.10: "2026-11-25 14:37:29.970 ERROR ..."; 2026.11 adds the UTC offset to the time.
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:?\d\d|Z)? "
    r"(?P<level>[A-Z]+) \((?P<thread>[^)]*)\) \[(?P<logger>[^\]]+)\] (?P<message>.*)$"
)
SETUP_LOGGERS = ("homeassistant.setup", "homeassistant.loader", "homeassistant.requirements")
"""Where Home Assistant says an integration could not be loaded (a missing requirement)."""
INTEGRATION_LOGGER = "custom_components.thermostat_cloud"


def log_records(text: str) -> list[tuple[str, str, str]]:
    """Return (level, logger, message) of every line of Home Assistant's log that starts one."""
    return [
        (match["level"], match["logger"], match["message"])
        for line in text.splitlines()
        if (match := LOG_LINE.match(line))
    ]


def logged_errors(text: str) -> list[tuple[str, str]]:
    """Return (logger, message) of every ERROR or CRITICAL line of Home Assistant's log."""
    return [
        (logger, message)
        for level, logger, message in log_records(text)
        if level in ("ERROR", "CRITICAL")
    ]


LIVING_ROOM: dict[str, dict[str, Any]] = {
    "shared": {
        "name": "Living room",
        "can_heat": True,
        "can_cool": True,
        "target_temperature_type": "heat",
        "target_temperature": 21.0,
        "target_temperature_low": 19.0,
        "target_temperature_high": 24.0,
        "current_temperature": 19.6,
        "hvac_heater_state": True,
        "hvac_ac_state": False,
        "hvac_fan_state": True,
    },
    "device": {
        "has_fan": True,
        "has_emer_heat": False,
        "has_humidifier": False,
        "current_humidity": 44,
        "fan_mode": "auto",
        "temperature_scale": "C",
        "eco": {"mode": "schedule"},
        "leaf": False,
        # Heating, a trained thermostat says when it reaches its target (a Unix time).
        "time_to_target": int(time.time()) + 25 * 60,
        "time_to_target_training": "ready",
    },
}
"""Buckets of a heating living-room thermostat (field names as firmware reports them)."""

SERIALS = (f"02AA01AC3314B{number:03d}" for number in itertools.count(1))
"""A serial of its own for each simulated thermostat (they share one Home Assistant)."""


@dataclass(slots=True)
class BrowserHomeAssistant:
    """The browser tests' Home Assistant, onboarded, and how they reach it."""

    url: str
    device_url: str
    client: HomeAssistantClient
    tokens: Tokens
    hub_entry_id: str
    config_dir: Path


@dataclass(frozen=True, slots=True)
class PairedThermostat:
    """A thermostat Home Assistant shows: its serial, climate entity and device."""

    thermostat: SimulatedThermostat
    serial: str
    entity_id: str
    device_id: str


@dataclass
class PageProblems:
    """What went wrong in a page: console errors, uncaught exceptions, server errors.

    (No slots: Playwright keeps its wrappers of bound-method listeners on their object.)
    """

    seen: list[str] = field(default_factory=list)

    def console(self, message: ConsoleMessage) -> None:
        """Note a console error unless it is a named offline failure."""
        text = f"{message.text} {message.location.get('url', '')}"
        if message.type == "error" and not any(p.search(text) for p in OFFLINE_ERRORS.values()):
            self.seen.append(f"console error: {text}")

    def exception(self, error: PlaywrightError) -> None:
        """Note an uncaught exception or unhandled rejection."""
        self.seen.append(f"uncaught: {error.message}\n{error.stack or ''}")

    def response(self, response: Response) -> None:
        """Note a server error from Home Assistant."""
        if response.status >= 500:
            self.seen.append(f"HTTP {response.status} for {response.request.method} {response.url}")


# What the fixtures hand out (see conftest.py).
type MakePage = Callable[..., Awaitable[Page]]
type Goto = Callable[[Page, str], Awaitable[None]]
type Screenshot = Callable[[Page | Locator, str], Awaitable[Path]]
type MakeThermostat = Callable[..., Awaitable[SimulatedThermostat]]
type Pair = Callable[[SimulatedThermostat], Awaitable[PairedThermostat]]


async def wait_until_shown(
    client: HomeAssistantClient, thermostat: SimulatedThermostat
) -> PairedThermostat:
    """Wait until Home Assistant has a climate entity for the thermostat; return where it is."""
    async with asyncio.timeout(ENTITY_WAIT):
        entity_id = await client.climate_entity_of(thermostat.serial)
    devices = await client.websocket({"type": "config/device_registry/list"})
    (device_id,) = (
        device["id"] for device in devices if [DOMAIN, thermostat.serial] in device["identifiers"]
    )
    return PairedThermostat(thermostat, thermostat.serial, entity_id, device_id)
