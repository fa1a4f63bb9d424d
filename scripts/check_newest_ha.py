"""Drive the integration in a real Home Assistant and read its log: `scripts/check-newest-ha`.

`scripts/check-newest-ha` installs a Home Assistant release (with its frontend and Playwright)
into a scratch environment and runs this file with that environment's Python (the repository on
PYTHONPATH). It starts Home Assistant with the integration linked in, its frontend, and a
simulated thermostat paired (bench/ha_server.py, the launcher the crash test uses), drives every
climate action and each of the integration's own actions over the REST API, checks that each one
did what it says; then, in Chromium, as the browser tests do (tests/browser/walkthrough.py),
pairs another thermostat in "Add thermostat" by its code, and opens the schedule card, edits a
setpoint and saves it until the thermostat has it, in English and in German, failing on any
console error, uncaught exception or server error of the pages. It stops Home Assistant and
fails on any warning, error or deprecation in the log that names the integration.

The log scanner reads Home Assistant's log line format before and after 2026.11, which added
the UTC offset to the timestamp (`2026-11-25 14:13:03.123 WARNING ...` and
`2026-11-25 14:13:03.123+00:00 WARNING ...`); tests/test_check_newest_ha.py tests it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
import copy
from dataclasses import dataclass, field
import os
from pathlib import Path
import re
import shutil
import sys
import time
from typing import Any

DOMAIN = "thermostat_cloud"
NAMES = re.compile(rf"\b(?:custom_components\.)?{DOMAIN}\b")
"""How a log line names the integration: its logger, its domain, a path into its folder."""
ENTRY = re.compile(
    r"^(?P<time>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}(?:[+-]\d\d:\d\d)?) "
    r"(?P<level>[A-Z]+) \((?P<thread>.*?)\) \[(?P<logger>[^\]]+)\] (?P<message>.*)$"
)
"""The first line of a log entry; the UTC offset is there from Home Assistant 2026.11 on."""
RAW_WARNING = re.compile(r"^\S+:\d+: \w*Warning: ")
"""A Python warning printed to the console as is (`path:line: Category: message`)."""
SERIOUS_LEVELS = frozenset({"WARNING", "ERROR", "CRITICAL"})
DEPRECATION = re.compile(r"deprecat", re.IGNORECASE)
EXPECTED = (
    # Home Assistant says this of every custom integration it loads, at every start.
    re.compile(rf"We found a custom integration {DOMAIN} which has not been tested"),
)
"""Warnings naming the integration that say nothing about it."""


@dataclass(slots=True)
class LogEntry:
    """One log entry: its first line's fields and any lines that follow (a traceback)."""

    level: str | None
    """None for text that is not in Home Assistant's format (a print, a raw warning)."""
    logger: str
    message: str
    line_number: int
    more: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Return the whole entry as one text."""
        return "\n".join([self.message, *self.more])


def parse_log(lines: Iterable[str]) -> list[LogEntry]:
    """Split a Home Assistant log into entries.

    Lines that follow an entry (a traceback) belong to it; a Python warning printed as is
    starts an entry of its own, as does any text before the first entry.
    """
    entries: list[LogEntry] = []
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\n")
        if match := ENTRY.match(line):
            entries.append(
                LogEntry(match["level"], match["logger"], match["message"], line_number=number)
            )
        elif entries and not RAW_WARNING.match(line):
            entries[-1].more.append(line)
        elif line.strip():
            entries.append(LogEntry(None, "", line, line_number=number))
    return entries


def is_finding(entry: LogEntry) -> bool:
    """Return whether the entry is a warning, error or deprecation naming the integration."""
    if not (NAMES.search(entry.logger) or NAMES.search(entry.text)):
        return False
    if any(expected.search(entry.message) for expected in EXPECTED):
        return False
    if entry.level is None:  # a raw Python warning or traceback on the console
        return bool(re.search(r"Warning|Error|Traceback", entry.text))
    return entry.level in SERIOUS_LEVELS or bool(DEPRECATION.search(entry.text))


def findings(lines: Iterable[str]) -> list[LogEntry]:
    """Return the entries of a log the check fails on."""
    return [entry for entry in parse_log(lines) if is_finding(entry)]


# -- driving a real Home Assistant ---------------------------------------------------------------

GUARD = 20.0
"""Longest wait, in seconds, for an action's effect to show in the entity's state."""


class CheckFailed(Exception):
    """An action did not do what it says."""


@dataclass(slots=True)
class Driver:
    """Calls actions on one climate entity of a running Home Assistant over its REST API."""

    http: Any  # aiohttp.ClientSession, imported lazily (the scanner needs no aiohttp)
    url: str
    entity_id: str
    done: list[str] = field(default_factory=list)

    async def state(self) -> dict[str, Any]:
        """Return the entity's state object."""
        async with self.http.get(f"{self.url}/api/states/{self.entity_id}") as resp:
            resp.raise_for_status()
            state: dict[str, Any] = await resp.json()
            return state

    async def call(
        self,
        domain: str,
        service: str,
        data: dict[str, Any] | None = None,
        *,
        target: bool = True,
        response: bool = False,
    ) -> Any:
        """Call an action; the answer when `response`. Anything but 200 fails the check."""
        body = {"entity_id": self.entity_id, **(data or {})} if target else dict(data or {})
        query = "?return_response" if response else ""
        async with self.http.post(
            f"{self.url}/api/services/{domain}/{service}{query}", json=body
        ) as resp:
            text = await resp.text()
            if resp.status != 200:
                raise CheckFailed(f"{domain}.{service} {data or ''}: HTTP {resp.status} {text}")
        self.done.append(f"{domain}.{service} {data or ''}".rstrip())
        return (await resp.json())["service_response"] if response else None

    async def expect(self, what: str, holds: Callable[[dict[str, Any]], bool]) -> None:
        """Wait until the entity's state shows an action's effect."""
        deadline = time.monotonic() + GUARD
        while not holds(state := await self.state()):
            if time.monotonic() > deadline:
                raise CheckFailed(f"{what}: the state stayed {state}")
            # Another process changes the state: polling its REST API is all there is here.
            await asyncio.sleep(0.1)


def attribute(name: str, value: Any) -> Callable[[dict[str, Any]], bool]:
    """Return a test that a state has an attribute with a value."""
    return lambda state: state["attributes"].get(name) == value


def in_mode(mode: str) -> Callable[[dict[str, Any]], bool]:
    """Return a test that a climate state is in an hvac mode."""
    return lambda state: state["state"] == mode


async def drive_climate(driver: Driver) -> None:
    """Every climate action the entity supports, each checked in its state."""
    attributes = (await driver.state())["attributes"]
    for mode in attributes["hvac_modes"]:
        await driver.call("climate", "set_hvac_mode", {"hvac_mode": mode})
        await driver.expect(f"hvac mode {mode}", in_mode(mode))
    await driver.call("climate", "turn_on")
    await driver.expect("turn_on", lambda state: state["state"] != "off")
    await driver.call("climate", "turn_off")
    await driver.expect("turn_off", in_mode("off"))
    await driver.call("climate", "toggle")
    await driver.expect("toggle", lambda state: state["state"] != "off")

    await driver.call("climate", "set_hvac_mode", {"hvac_mode": "heat"})
    await driver.expect("heat", in_mode("heat"))
    await driver.call("climate", "set_temperature", {"temperature": 21.5})
    await driver.expect("one setpoint", attribute("temperature", 21.5))
    await driver.call("climate", "set_temperature", {"hvac_mode": "cool", "temperature": 25.0})
    await driver.expect(
        "cool at 25", lambda state: in_mode("cool")(state) and attribute("temperature", 25.0)(state)
    )
    await driver.call("climate", "set_hvac_mode", {"hvac_mode": "heat_cool"})
    await driver.expect("heat_cool", in_mode("heat_cool"))
    await driver.call(
        "climate", "set_temperature", {"target_temp_low": 19.0, "target_temp_high": 24.5}
    )
    await driver.expect("a range", attribute("target_temp_high", 24.5))

    for preset in [*attributes["preset_modes"], "none"]:
        await driver.call("climate", "set_preset_mode", {"preset_mode": preset})
        await driver.expect(f"preset {preset}", attribute("preset_mode", preset))
    for fan in [*attributes["fan_modes"], "auto"]:
        await driver.call("climate", "set_fan_mode", {"fan_mode": fan})
        await driver.expect(f"fan {fan}", attribute("fan_mode", fan))
    await driver.call("climate", "set_humidity", {"humidity": 45})
    await driver.expect("humidity", attribute("humidity", 45))


async def drive_own_actions(driver: Driver) -> None:
    """Each of the integration's actions (services.yaml)."""
    await driver.call(DOMAIN, "set_fan_timer", {"duration": "00:15:00"})
    await driver.expect("fan timer", attribute("fan_mode", "on"))
    await driver.call("climate", "set_fan_mode", {"fan_mode": "auto"})
    await driver.expect("fan timer ended", attribute("fan_mode", "auto"))

    lock = {"enabled": True, "pin": "1234", "min_temperature": 18, "max_temperature": 23.5}
    await driver.call(DOMAIN, "set_temperature_lock", lock)
    await driver.call(DOMAIN, "set_temperature_lock", {"enabled": False})
    await driver.call(DOMAIN, "set_eco_temperatures", {"low": 12.0, "high": 28.0})

    from thermostat_sim import WEEK_SCHEDULE  # noqa: PLC0415 (as in run())

    schedule = (await driver.call(DOMAIN, "get_schedule", response=True))[driver.entity_id]
    if schedule["schedule"]["days"] != WEEK_SCHEDULE["days"]:
        raise CheckFailed(f"get_schedule answered {schedule}, not the thermostat's schedule")
    await driver.call(DOMAIN, "set_schedule", {"schedule": schedule["schedule"]})

    key = {"name": "check-newest-ha", "scopes": ["read", "write"]}
    created = await driver.call(DOMAIN, "create_api_key", key, target=False, response=True)
    listed = await driver.call(DOMAIN, "list_api_keys", target=False, response=True)
    if created["id"] not in {item["id"] for item in listed["api_keys"]}:
        raise CheckFailed(f"list_api_keys does not list the key just created: {listed}")
    await driver.call(DOMAIN, "revoke_api_key", {"key_id": created["id"]}, target=False)


UI_SERIAL = "02AA01AC3314C001"
"""The thermostat paired in the browser (the benchmark's are BENCH...)."""
UI_LANGUAGES = ("en", "de")
"""The card is driven in these languages (the week starts on Sunday, then on Monday)."""


async def drive_ui(running: Any, http: Any, shots: Path) -> list[str]:
    """Pair a thermostat in the browser and drive its schedule card; what was done.

    Raises CheckFailed when a step does not show what it should or a page had a problem.
    Pictures of the pages go to `shots` (Playwright makes the folder). The card is edited in
    the last of UI_LANGUAGES.
    """
    # Imported here: the log scanner above runs without Playwright (tests/test_check_newest_ha).
    from playwright.async_api import (  # noqa: PLC0415
        Error as PlaywrightError,
        async_playwright,
    )

    from tests.browser.harness import (  # noqa: PLC0415
        CHROMIUM,
        CHROMIUM_ARGS,
        LIVING_ROOM,
        OWNER,
        PageProblems,
        wait_until_shown,
    )
    from tests.browser.walkthrough import (  # noqa: PLC0415
        LANGUAGES,
        enter_code,
        first_weekday,
        new_page,
        open_add_thermostat,
        open_card,
        put_card_on_dashboard,
        submit_and_finish,
        thermostat_on_its_pairing_screen,
    )
    from tests.real_home_assistant import HomeAssistantClient  # noqa: PLC0415
    from thermostat_sim import WEEK_SCHEDULE  # noqa: PLC0415

    if not CHROMIUM.exists():
        raise CheckFailed(f"no Chromium at {CHROMIUM} to drive the UI (set CHROMIUM)")
    done: list[str] = []
    client = HomeAssistantClient(http, running)
    await client.promote_http_config()
    tokens = await client.onboard(OWNER)
    problems = PageProblems()
    thermostat = await thermostat_on_its_pairing_screen(
        running.device_url, UI_SERIAL, http, **LIVING_ROOM
    )
    try:
        async with async_playwright() as driver:
            browser = await driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                _, page = await new_page(browser, running.control_url, tokens, problems)
                code = (await thermostat.passphrase())["value"]
                dialog = await open_add_thermostat(page, running.control_url)
                await enter_code(dialog, code)
                await page.screenshot(path=shots / "pairing-form.png")
                await submit_and_finish(dialog, UI_SERIAL)
                paired = await wait_until_shown(client, thermostat)
                done.append(f"UI: paired {UI_SERIAL} in Add thermostat by its code")

                # Every day as the simulator's Tuesday: the card saves no week with an empty day.
                tuesday = WEEK_SCHEDULE["days"]["1"]
                week = {**WEEK_SCHEDULE, "days": {str(day): tuesday for day in range(7)}}
                await thermostat.put(f"schedule.{UI_SERIAL}", copy.deepcopy(week))
                path = await put_card_on_dashboard(client, paired.entity_id)
                room = LIVING_ROOM["shared"]["name"]
                for language in UI_LANGUAGES:
                    _, page = await new_page(
                        browser, running.control_url, tokens, problems, language=language
                    )
                    card = await open_card(page, running.control_url, path, room, language)
                    first = await first_weekday(card)
                    if first != LANGUAGES[language].first_weekday:
                        raise CheckFailed(f"the card's week ({language}) starts on {first}")
                    await page.screenshot(path=shots / f"card-{language}.png")
                    done.append(f"UI: the schedule card shows the week from {first} ({language})")
                    if language == UI_LANGUAGES[-1]:
                        await edit_and_save(page, card, thermostat, language)
                        await page.screenshot(path=shots / "card-saved.png")
                        done.append(f"UI: a setpoint saved on the card ({language}) was sent")
            except (PlaywrightError, AssertionError) as err:
                raise CheckFailed(f"UI: {err}") from err
            finally:
                await browser.close()
    finally:
        await thermostat.stop()
    if problems.seen:
        raise CheckFailed("UI: the pages had problems:\n" + "\n".join(problems.seen))
    return done


async def edit_and_save(page: Any, card: Any, thermostat: Any, language: str) -> None:
    """Raise Tuesday's first setpoint by one degree in the card and save; the thermostat has it."""
    from playwright.async_api import expect  # noqa: PLC0415

    from tests.browser.walkthrough import LANGUAGES, card_strings  # noqa: PLC0415
    from thermostat_sim import WEEK_SCHEDULE  # noqa: PLC0415

    tuesday = WEEK_SCHEDULE["days"]["1"]["0"]  # firmware's day 1; 2024-01-02 was a Tuesday
    name = await page.evaluate(
        "locale => new Intl.DateTimeFormat(locale, {weekday: 'long', timeZone: 'UTC'})"
        ".format(Date.UTC(2024, 0, 2))",
        LANGUAGES[language].locale,
    )
    strings = card_strings(language)
    await card.get_by_role("button", name=strings["edit_day"].replace("{day}", name)).click()
    setpoint = card.locator(".editor").get_by_role("spinbutton", name=strings["heat"]).first
    await expect(setpoint).to_be_visible()
    await setpoint.fill(str(tuesday["temp"] + 1))
    await setpoint.press("Tab")
    await card.get_by_role("button", name=strings["save"], exact=True).click()
    key = f"schedule.{thermostat.serial}"
    while (await thermostat.next_object(key))["value"]["days"]["1"]["0"]["temp"] != (
        tuesday["temp"] + 1
    ):
        pass


async def run(version: str) -> int:
    """Start Home Assistant, drive it, stop it and scan its log; the exit status."""
    import aiohttp  # noqa: PLC0415 (the scanner above needs no third-party package)

    from bench.fleet import bench_serial, initial_buckets  # noqa: PLC0415
    from bench.ha_server import CONSOLE_LOG, LaunchedHomeAssistant  # noqa: PLC0415
    from thermostat_sim import WEEK_SCHEDULE, SimulatedThermostat  # noqa: PLC0415

    # Deprecation warnings are hidden outside __main__ by default; Home Assistant logs them.
    os.environ["PYTHONWARNINGS"] = "default::DeprecationWarning,default::PendingDeprecationWarning"
    from tests.browser.harness import HOME_ASSISTANT_YAML  # noqa: PLC0415

    launcher = LaunchedHomeAssistant(
        paired=1,
        max_seconds=900,
        keep_config=True,
        extra_yaml=HOME_ASSISTANT_YAML,
        install_requirements=False,
    )
    failure: str | None = None
    driven: list[str] = []
    try:
        running = await launcher.start()
        serial = bench_serial(0)
        print(f"check: Home Assistant {version} running; {serial} paired")
        buckets: dict[str, dict[str, Any]] = initial_buckets(serial)
        buckets[f"device.{serial}"] |= {"has_humidifier": True, "target_humidity": 35}
        # What the simulated thermostat reports as its schedule (a day with two setpoints).
        buckets[f"schedule.{serial}"] = copy.deepcopy(WEEK_SCHEDULE)
        async with aiohttp.ClientSession(
            headers={"Authorization": f"Bearer {running.token}"},
            timeout=aiohttp.ClientTimeout(total=60),
        ) as http:
            driver = Driver(http, running.control_url, running.climate_entities[serial], driven)
            thermostat = SimulatedThermostat(running.device_url, serial, http, buckets=buckets)
            thermostat.start()
            try:
                async with asyncio.timeout(GUARD):
                    await thermostat.waiting.wait()
                await driver.expect("the humidifier reported", attribute("humidity", 35))
                await drive_climate(driver)
                await drive_own_actions(driver)
                driven.extend(await drive_ui(running, http, launcher.config_dir / "screenshots"))
            except (CheckFailed, TimeoutError) as err:
                failure = str(err) or "timed out waiting for the thermostat"
            finally:
                await thermostat.stop()
    finally:
        await launcher.stop()

    log = launcher.config_dir / CONSOLE_LOG
    found = findings(log.read_text(errors="replace").splitlines()) if log.exists() else []
    print(f"check: {len(driven)} steps driven:")
    for action in driven:
        print(f"  {action}")
    for entry in found:
        print(
            f"check: log line {entry.line_number}: {entry.level} [{entry.logger}] {entry.text.rstrip()}"
        )
    if failure is not None:
        print(f"check: FAILED: {failure}")
    if failure is None and not found:
        print(f"check: Home Assistant {version}: no warning, error or deprecation names {DOMAIN}")
        shutil.rmtree(launcher.config_dir, ignore_errors=True)
        print(f"check: passed, so its configuration was removed again: {launcher.config_dir}")
        return 0
    print(f"check: Home Assistant {version}: FAILED; its configuration and log: {log.parent}")
    return 1


def main() -> int:
    """Run the check against the Home Assistant this interpreter has."""
    from importlib.metadata import version  # noqa: PLC0415

    return asyncio.run(run(version("homeassistant")))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())
