"""Browser tests: the UI of a real Home Assistant, driven in Chromium by Playwright.

One Home Assistant per test session, started as a subprocess by `bench/ha_server.py`'s launcher
(`hass` on a free loopback port, a throwaway configuration under /tmp with the frontend, this
checkout's integration linked in, the Thermostat Cloud hub entry on a free device port, no
requirement installs: the dev dependencies hold them all). Onboarding is finished through its
REST API, and every page starts logged in as the owner. Chromium is Debian's
(`/usr/bin/chromium`, or `$CHROMIUM`); scripts/setup installs it on CI.

Every module here starts with

    pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

(the session's Home Assistant, browser and HTTP client live on pytest-asyncio's session loop, so
the tests must run on it too; `-m browser` selects these tests, `-m "not browser"` skips them).

Fixtures:
- `home_assistant` (session): `BrowserHomeAssistant`: `url` of the UI, `device_url` thermostats
  use, `client` (`tests.real_home_assistant.HomeAssistantClient`, the REST and websocket APIs as
  an administrator), `hub_entry_id`, `config_dir`.
- `make_page(width=1280, height=800, dark=False)` (per test): a new logged-in browser page of
  that size and colour scheme (Home Assistant's default theme follows the browser's). Every
  page collects console errors, uncaught exceptions and 5xx answers of Home Assistant; the
  test fails when there are any (after the test's own result).
- `page`: `make_page()` at the default size, light.
- `goto(page, path)`: open a path of the UI (e.g. "/config/integrations") and wait until the
  UI has connected to Home Assistant (the "Loading..." screen is gone).
- `screenshot(page, name)`: save a PNG to tests/browser/screenshots/<test>-<name>.png
  (git-ignored: look at it after a run). `readme_picture(page, name)` does the same and, when
  UPDATE_SCREENSHOTS=1, writes docs/images/<name>.png, the README's picture.
- Types and helpers for tests are in `tests/browser/harness.py`.
- `make_thermostat(serial=None, **buckets)`: a started simulated thermostat (`thermostat_sim`,
  firmware-like) talking to Home Assistant's device server over 127.0.0.1, with a serial of its
  own unless given; it has registered and asked for its pairing code (`await t.passphrase()`
  answers the code it shows). Stopped after the test. `LIVING_ROOM` is a realistic set of
  buckets (heating, humidity, fan) for pictures.
- `pair(thermostat)`: pair it through the control API (`POST /api/thermostat_cloud/api/register`,
  which adds its subentry as "Add thermostat" does) and wait for its climate entity; returns a `PairedThermostat` (serial, entity_id,
  device_id), for tests of pages that need a paired thermostat without going through pairing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
import json
from pathlib import Path
import re
from typing import Any

import aiohttp
from playwright.async_api import Browser, Page, Playwright, async_playwright, expect
import pytest
import pytest_asyncio
import pytest_socket

from bench.ha_server import LaunchedHomeAssistant
from custom_components.thermostat_cloud.const import DOMAIN
from tests.browser.harness import (
    BROWSER_DIR,
    CHROMIUM,
    CHROMIUM_ARGS,
    ENTITY_WAIT,
    HOME_ASSISTANT_YAML,
    OWNER,
    README_IMAGES,
    SCREENSHOTS,
    SERIALS,
    UPDATE_SCREENSHOTS,
    BrowserHomeAssistant,
    Goto,
    MakePage,
    MakeThermostat,
    PageProblems,
    Pair,
    PairedThermostat,
    Screenshot,
    wait_until_shown,
)
from tests.real_home_assistant import HomeAssistantClient
from thermostat_sim import SimulatedThermostat

# A busy machine (CI, two cores, Home Assistant setting up onboarding's integrations) can take a
# few seconds to render a page; the default of 5 s is for fast desktops.
expect.set_options(timeout=20_000)


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations() -> None:
    """Replace the suite's: these tests use a Home Assistant process, not the `hass` fixture."""


@pytest.fixture(autouse=True)
def verify_cleanup() -> None:
    """Replace the Home Assistant plugin's.

    Replace the Home Assistant plugin's checks of an in-process Home Assistant and its
    function-scoped loop: there is none here. These tests run on the session's loop, whose
    worker threads (Playwright writes screenshots in them) outlive a test by design; the
    fixtures stop what they start.
    """


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test of this folder `browser`, so `-m` selects or skips them all."""
    for item in items:
        if BROWSER_DIR in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)


# -- the session's Home Assistant and browser ------------------------------------------------------


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def http_session() -> AsyncGenerator[aiohttp.ClientSession]:
    """Return one HTTP client for the session (loopback only)."""
    # Session fixtures start before any test's `socket_enabled`: allow sockets here (the
    # plugin still limits them to 127.0.0.1).
    pytest_socket.enable_socket()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
        yield session


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def home_assistant(
    http_session: aiohttp.ClientSession,
) -> AsyncGenerator[BrowserHomeAssistant]:
    """Start Home Assistant with the frontend, finish onboarding, confirm its HTTP settings."""
    launcher = LaunchedHomeAssistant(
        paired=0, max_seconds=3600, extra_yaml=HOME_ASSISTANT_YAML, install_requirements=False
    )
    try:
        running = await launcher.start()
        client = HomeAssistantClient(http_session, running)
        # Without it Home Assistant asks in the UI and restarts after five minutes.
        await client.promote_http_config()
        tokens = await client.onboard(OWNER)
        yield BrowserHomeAssistant(
            url=running.control_url,
            device_url=running.device_url,
            client=client,
            tokens=tokens,
            hub_entry_id=await client.hub_entry_id(),
            config_dir=launcher.config_dir,
        )
    finally:
        await launcher.stop()


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def playwright() -> AsyncGenerator[Playwright]:
    """Return Playwright's driver."""
    async with async_playwright() as driver:
        yield driver


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser(playwright: Playwright) -> AsyncGenerator[Browser]:
    """Return Debian's Chromium, headless."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"No Chromium at {CHROMIUM}: install it (Debian: apt-get install chromium; "
            "scripts/setup does it when run as root), set CHROMIUM to another one, "
            'or leave the browser tests out with -m "not browser"'
        )
    chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    await chromium.close()


# -- pages -----------------------------------------------------------------------------------------


@pytest_asyncio.fixture(loop_scope="session")
async def make_page(
    socket_enabled: None, browser: Browser, home_assistant: BrowserHomeAssistant
) -> AsyncGenerator[MakePage]:
    """Open logged-in pages; the test fails if any of them had a problem."""
    problems = PageProblems()
    contexts = []
    hass_tokens = json.dumps(home_assistant.tokens.hass_tokens(home_assistant.url))

    async def make(*, width: int = 1280, height: int = 800, dark: bool = False) -> Page:
        context = await browser.new_context(
            viewport={"width": width, "height": height},
            color_scheme="dark" if dark else "light",
            locale="en-US",
            timezone_id="UTC",
        )
        contexts.append(context)
        # The frontend keeps its tokens in localStorage: a browser that has logged in before.
        await context.add_init_script(
            f"window.localStorage.setItem('hassTokens', {json.dumps(hass_tokens)});"
        )
        page = await context.new_page()
        page.on("console", problems.console)
        page.on("pageerror", problems.exception)
        page.on("response", problems.response)
        return page

    yield make
    for context in contexts:
        await context.close()
    if problems.seen:
        pytest.fail("The UI had problems:\n" + "\n".join(problems.seen))


@pytest_asyncio.fixture(loop_scope="session")
async def page(make_page: MakePage) -> Page:
    """Return a logged-in page at desktop size, light theme."""
    return await make_page()


@pytest.fixture
def goto(home_assistant: BrowserHomeAssistant) -> Goto:
    """Open a path of the UI and wait until the UI is connected (no "Loading..." left)."""

    async def go(page: Page, path: str) -> None:
        await page.goto(f"{home_assistant.url}{path}")
        # The launch screen stays until the frontend has connected and loaded its data
        # (it hangs there when Home Assistant cannot load what the UI asks for).
        await expect(page.locator("#ha-launch-screen")).to_have_count(0, timeout=30_000)
        await expect(page.locator("home-assistant-main")).to_be_attached()

    return go


# -- pictures --------------------------------------------------------------------------------------


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Screenshot:
    """Save a picture of the page to tests/browser/screenshots/ (git-ignored)."""
    test_name = re.sub(r"[^\w-]+", "-", request.node.name).strip("-")

    async def take(page: Page, name: str) -> Path:
        path = SCREENSHOTS / f"{test_name}-{name}.png"
        await page.screenshot(path=path, animations="disabled")
        return path

    return take


@pytest.fixture
def readme_picture(screenshot: Screenshot) -> Screenshot:
    """Save a picture; with UPDATE_SCREENSHOTS=1 also as the README's docs/images/<name>.png."""

    async def take(page: Page, name: str) -> Path:
        path = await screenshot(page, name)
        if UPDATE_SCREENSHOTS:
            README_IMAGES.mkdir(parents=True, exist_ok=True)
            target = README_IMAGES / f"{name}.png"
            target.write_bytes(path.read_bytes())
            return target
        return path

    return take


# -- simulated thermostats -------------------------------------------------------------------------


@pytest_asyncio.fixture(loop_scope="session")
async def make_thermostat(
    socket_enabled: None,
    home_assistant: BrowserHomeAssistant,
    http_session: aiohttp.ClientSession,
) -> AsyncGenerator[MakeThermostat]:
    """Start simulated thermostats against the device server; stopped after the test."""
    started: list[SimulatedThermostat] = []

    async def make(serial: str | None = None, **buckets: dict[str, Any]) -> SimulatedThermostat:
        serial = serial or next(SERIALS)
        thermostat = SimulatedThermostat(
            home_assistant.device_url,
            serial,
            http_session,
            buckets={f"{name}.{serial}": value for name, value in buckets.items()},
        )
        started.append(thermostat)
        await thermostat.entry()
        await thermostat.passphrase()
        thermostat.start()
        async with asyncio.timeout(ENTITY_WAIT):
            await thermostat.subscribed.wait()
        return thermostat

    yield make
    for thermostat in started:
        await thermostat.stop()


@pytest.fixture
def pair(home_assistant: BrowserHomeAssistant) -> Pair:
    """Pair a thermostat through the control API; return it once Home Assistant shows it."""

    async def pair_thermostat(thermostat: SimulatedThermostat) -> PairedThermostat:
        client = home_assistant.client
        code = (await thermostat.passphrase())["value"]
        reply = await client.call("POST", f"/api/{DOMAIN}/api/register", {"code": code})
        assert reply["success"], reply
        return await wait_until_shown(client, thermostat)

    return pair_thermostat
