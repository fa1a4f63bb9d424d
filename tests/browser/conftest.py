"""Browser tests: the UI of a real Home Assistant, driven in Chromium by Playwright.

One Home Assistant for all the browser tests of a run, started as a subprocess by
`bench/ha_server.py`'s launcher (`hass` on a free loopback port, a throwaway configuration
under /tmp with the frontend and the recorder, this checkout's integration linked in, the
Thermostat Cloud hub entry on a free device port, `--skip-pip`: the dev dependencies hold all
it needs) and stopped when they are done. Onboarding is finished through its REST API (owner
`OWNER`); every page starts logged in as that owner. Chromium is Debian's (`/usr/bin/chromium`,
or `$CHROMIUM`); scripts/setup installs it on CI.

Every test module here starts with

    pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

(Home Assistant's process, the browser and the HTTP client live on pytest-asyncio's session
loop, so the tests run on it too; `-m browser` selects these tests, `-m "not browser"` skips
them; the marker is also added to every test of this folder).

Fixtures (their types, `LIVING_ROOM`, `OWNER` and helpers are in `tests/browser/harness.py`):
- `home_assistant`: `BrowserHomeAssistant`: `url` of the UI, `device_url` thermostats use,
  `client` (`tests.real_home_assistant.HomeAssistantClient`: the REST and websocket APIs as an
  administrator), `tokens` (the owner's), `hub_entry_id`, `config_dir`.
- `make_page(width=1280, height=800, dark=False, language="en")`: a new logged-in page of that
  size and colour scheme (Home Assistant's default theme follows the browser's), in the browser
  of a person of that language (`walkthrough.LANGUAGES`: its locale, and the frontend's
  language as a person picks it in their profile). Every page collects console
  errors, uncaught exceptions and 5xx answers; the test fails when there are any, except the
  offline network's, each named in `OFFLINE_ERRORS`. A failed test leaves a picture of each of
  its pages in tests/browser/screenshots/.
- `page`: `make_page()`: desktop size, light.
- `goto(page, path)`: open a path of the UI (e.g. "/config/integrations/dashboard") and wait
  until the UI has connected to Home Assistant (its "Loading..." screen is gone).
- `screenshot(page_or_locator, name)`: save a PNG to tests/browser/screenshots/<test>-<name>.png
  (git-ignored: look at it after a run). `readme_picture(page_or_locator, name)` does the same
  and, with UPDATE_SCREENSHOTS=1, writes the README's docs/images/<name>.png.
- `make_thermostat(serial=None, **buckets)`: a simulated thermostat (`thermostat_sim`, which
  behaves like firmware) talking to Home Assistant's device port over 127.0.0.1, with a serial
  of its own unless given, and buckets by name (e.g. `**LIVING_ROOM`: shared=..., device=...).
  It has registered, asked for its code (`(await t.passphrase())["value"]`) and holds its
  subscribe, as a thermostat on its pairing screen does. Stopped after the test.
- `pair(thermostat)`: pair it through the control API (`POST /api/thermostat_cloud/api/register`,
  which adds its subentry as Add thermostat does) and wait for its climate entity; returns a
  `PairedThermostat` (thermostat, serial, entity_id, device_id): for tests of pages that need a
  paired thermostat without going through pairing.
- `living_room`: `pair(make_thermostat(**LIVING_ROOM))`, the paired thermostat most pages show.

A thermostat paired in one test stays paired for the next ones (one Home Assistant): find yours
by its serial or device id, not by position.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path
import re
from typing import Any

import aiohttp
from playwright.async_api import Browser, Locator, Page, Playwright, async_playwright, expect
import pytest
import pytest_asyncio
import pytest_socket

from bench.ha_server import CONSOLE_LOG, LaunchedHomeAssistant
from custom_components.thermostat_cloud.const import DOMAIN
from tests.browser.harness import (
    BROWSER_DIR,
    CHROMIUM,
    CHROMIUM_ARGS,
    HOME_ASSISTANT_YAML,
    INTEGRATION_LOGGER,
    LIVING_ROOM,
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
    logged_errors,
    wait_until_shown,
)
from tests.browser.walkthrough import new_page, open_path, thermostat_on_its_pairing_screen
from tests.real_home_assistant import HomeAssistantClient
from thermostat_sim import SimulatedThermostat

# A busy machine (CI, two cores, Home Assistant setting up onboarding's integrations) can take a
# few seconds to render a page; the default of 5 s is for fast desktops.
expect.set_options(timeout=20_000)


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations() -> None:
    """Replace the suite's: these tests use a Home Assistant process, not the `hass` fixture."""


@pytest.fixture(autouse=True)
def loopback_sockets(socket_enabled: None) -> None:
    """Let every test here reach the session's Home Assistant (127.0.0.1 only, as everywhere)."""


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


CALL_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Note on the test whether its call failed, for the pages' teardown."""
    report = yield
    if report.when == "call":
        item.stash[CALL_FAILED] = report.failed
    return report


def _file_name(request: pytest.FixtureRequest) -> str:
    return re.sub(r"[^\w-]+", "-", request.node.name).strip("-")


# -- Home Assistant and the browser, one of each for the browser tests ----------------------------------------------------------


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def http_session() -> AsyncGenerator[aiohttp.ClientSession]:
    """Return one HTTP client for the browser tests (loopback only)."""
    # Package fixtures start before a test's `socket_enabled`: allow sockets here (the plugin
    # still limits them to 127.0.0.1).
    pytest_socket.enable_socket()
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
        yield session


@pytest_asyncio.fixture(scope="package", loop_scope="session")
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
        # Whatever the pages did, the integration logged no error.
        log = (launcher.config_dir / CONSOLE_LOG).read_text(errors="replace")
        errors = [
            f"{logger}: {message}"
            for logger, message in logged_errors(log)
            if logger.startswith(INTEGRATION_LOGGER)
        ]
        if errors:
            pytest.fail("The integration logged errors:\n" + "\n".join(errors))
    finally:
        await launcher.stop()


@pytest_asyncio.fixture(scope="package", loop_scope="session")
async def playwright() -> AsyncGenerator[Playwright]:
    """Return Playwright's driver."""
    async with async_playwright() as driver:
        yield driver


@pytest_asyncio.fixture(scope="package", loop_scope="session")
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
    request: pytest.FixtureRequest,
    browser: Browser,
    home_assistant: BrowserHomeAssistant,
) -> AsyncGenerator[MakePage]:
    """Open logged-in pages; the test fails if any of them had a problem.

    A test that failed leaves a picture of each of its pages in tests/browser/screenshots/.
    """
    problems = PageProblems()
    contexts = []

    async def make(
        *, width: int = 1280, height: int = 800, dark: bool = False, language: str = "en"
    ) -> Page:
        context, page = await new_page(
            browser,
            home_assistant.url,
            home_assistant.tokens,
            problems,
            width=width,
            height=height,
            dark=dark,
            language=language,
        )
        contexts.append(context)
        return page

    yield make
    failed = request.node.stash.get(CALL_FAILED, False)
    for number, context in enumerate(contexts):
        if failed:
            for page in context.pages:
                await page.screenshot(
                    path=SCREENSHOTS / f"{_file_name(request)}-failed-{number}.png"
                )
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
        await open_path(page, home_assistant.url, path)

    return go


# -- pictures --------------------------------------------------------------------------------------


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Screenshot:
    """Save a picture of the page to tests/browser/screenshots/ (git-ignored)."""
    test_name = _file_name(request)

    async def take(what: Page | Locator, name: str) -> Path:
        path = SCREENSHOTS / f"{test_name}-{name}.png"
        await what.screenshot(path=path, animations="disabled")
        return path

    return take


@pytest.fixture
def readme_picture(screenshot: Screenshot) -> Screenshot:
    """Save a picture; with UPDATE_SCREENSHOTS=1 also as the README's docs/images/<name>.png."""

    async def take(what: Page | Locator, name: str) -> Path:
        path = await screenshot(what, name)
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
    home_assistant: BrowserHomeAssistant,
    http_session: aiohttp.ClientSession,
) -> AsyncGenerator[MakeThermostat]:
    """Start simulated thermostats against the device server; stopped after the test."""
    started: list[SimulatedThermostat] = []

    async def make(serial: str | None = None, **buckets: dict[str, Any]) -> SimulatedThermostat:
        thermostat = await thermostat_on_its_pairing_screen(
            home_assistant.device_url, serial or next(SERIALS), http_session, **buckets
        )
        started.append(thermostat)
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


@pytest_asyncio.fixture(loop_scope="session")
async def living_room(make_thermostat: MakeThermostat, pair: Pair) -> PairedThermostat:
    """Return the `LIVING_ROOM` thermostat, paired: the one most pages show."""
    return await pair(await make_thermostat(**LIVING_ROOM))
