"""What a person does in the UI and what they read there, in their language.

Shared by the browser tests (tests/browser/) and `scripts/check-newest-ha`, which drives the
same pairing dialog and schedule card on the newest Home Assistant release: one way to open a
page as a logged-in user of a language, pair in "Add thermostat", show the card, and check
what a page shows (no English left where a translation exists, nothing overflowing its box).

Texts come from where the UI takes them: the integration's `translations/<language>.json`,
the card's `frontend/src/translations/<language>.json`, and Home Assistant's own frontend
translations (the installed `hass_frontend` package), so a test follows the translations
instead of copying them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cache
import importlib.util
import json
from pathlib import Path
import re
from typing import Any

import aiohttp
from playwright.async_api import Browser, BrowserContext, Locator, Page, expect

from custom_components.thermostat_cloud.const import DOMAIN
from tests.browser.harness import ENTITY_WAIT, LOOPBACK_URL, PageProblems, refuse_off_machine
from tests.real_home_assistant import HomeAssistantClient, Tokens
from thermostat_sim import SimulatedThermostat

ROOT = Path(__file__).resolve().parents[2]
INTEGRATION_TRANSLATIONS = ROOT / "custom_components" / DOMAIN / "translations"
CARD_TRANSLATIONS = ROOT / "frontend" / "src" / "translations"
CARD = "thermostat-cloud-schedule-card"
DASHBOARD = "dashboard-heating"


@dataclass(frozen=True, slots=True)
class Language:
    """A language a person uses Home Assistant in, and what its calendar looks like."""

    code: str
    """Home Assistant's language code (its profile's and the translations' file names)."""
    locale: str
    """The browser's locale of a person of that language."""
    first_weekday: str
    """The long name of the day their week starts on, as the browser writes it."""


LANGUAGES = {
    "en": Language("en", "en-US", "Sunday"),
    "de": Language("de", "de-DE", "Montag"),
    "fr": Language("fr", "fr-FR", "lundi"),
}


# -- the texts the UI shows -------------------------------------------------------------------------


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Return {"a.b.c": text} of a nested translation file."""
    flat: dict[str, str] = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            flat |= flatten(value, f"{path}.")
        else:
            flat[path] = str(value)
    return flat


@cache
def integration_strings(language: str) -> dict[str, str]:
    """Return the integration's texts in a language (its translations file), flat."""
    return flatten(json.loads((INTEGRATION_TRANSLATIONS / f"{language}.json").read_text()))


@cache
def card_strings(language: str) -> dict[str, str]:
    """Return the schedule card's texts in a language."""
    return flatten(json.loads((CARD_TRANSLATIONS / f"{language}.json").read_text()))


@cache
def frontend_strings(language: str) -> dict[str, str]:
    """Return Home Assistant's frontend texts in a language, from the installed frontend.

    The frontend ships each language as one file for the app and one per panel ("config",
    "lovelace", ...), named `<language>-<hash>.json` (`en-GB-<hash>.json` is another language).
    """
    spec = importlib.util.find_spec("hass_frontend")
    if spec is None or spec.origin is None:
        raise LookupError("Home Assistant's frontend (hass_frontend) is not installed")
    folder = Path(spec.origin).parent / "static" / "translations"
    name = re.compile(rf"{re.escape(language)}-[0-9a-f]{{32}}\.json")
    strings: dict[str, str] = {}
    for path in sorted([*folder.glob("*.json"), *folder.glob("*/*.json")]):
        if name.fullmatch(path.name):
            strings |= flatten(json.loads(path.read_text()))
    assert strings, f"the frontend has no {language} translation in {folder}"
    return strings


def english_left(shown: str, english: dict[str, str], translated: dict[str, str]) -> list[str]:
    """Return the English texts that show although their translation exists.

    Each English text is cut at its placeholders; a piece of three letters or more that
    shows as whole words is English left over, unless the translation has the same words
    ("Thermostat", "OK").
    """
    left = []
    for key, text in english.items():
        translation = translated.get(key)
        if translation is None or translation == text:
            continue
        for piece in re.split(r"\{\w+\}", text):
            piece = piece.strip(" .,:;()…")
            if len(re.sub(r"\W", "", piece)) < 3 or piece.lower() in translation.lower():
                continue
            if re.search(rf"(?<!\w){re.escape(piece)}(?!\w)", shown):
                left.append(f"{key}: {piece!r}")
    return left


# -- pages ------------------------------------------------------------------------------------------


async def new_page(
    browser: Browser,
    url: str,
    tokens: Tokens,
    problems: PageProblems,
    *,
    width: int = 1280,
    height: int = 800,
    dark: bool = False,
    language: str = "en",
) -> tuple[BrowserContext, Page]:
    """Open a page logged in as the owner, in a browser of a person of `language`.

    The browser's locale is theirs, and the frontend's language (`selectedLanguage` in its
    localStorage, which the frontend stores when a person picks a language in their profile)
    too. The page collects its problems in `problems`; nothing leaves the machine.
    """
    context = await browser.new_context(
        viewport={"width": width, "height": height},
        color_scheme="dark" if dark else "light",
        locale=LANGUAGES[language].locale,
        timezone_id="UTC",
    )
    hass_tokens = json.dumps(tokens.hass_tokens(url))
    storage = {"hassTokens": hass_tokens, "selectedLanguage": json.dumps(language)}
    await context.add_init_script(
        "".join(
            f"window.localStorage.setItem({json.dumps(key)}, {json.dumps(value)});"
            for key, value in storage.items()
        )
    )
    await context.route(lambda target: not target.startswith(LOOPBACK_URL), refuse_off_machine)
    page = await context.new_page()
    page.on("console", problems.console)
    page.on("pageerror", problems.exception)
    page.on("response", problems.response)
    return context, page


async def open_path(page: Page, url: str, path: str) -> None:
    """Open a path of the UI and wait until the UI is connected (no "Loading..." left)."""
    await page.goto(f"{url}{path}")
    # The launch screen stays until the frontend has connected and loaded its data
    # (it hangs there when Home Assistant cannot load what the UI asks for).
    await expect(page.locator("#ha-launch-screen")).to_have_count(0, timeout=30_000)
    await expect(page.locator("home-assistant-main")).to_be_attached()


SHOWN_TEXT = """
root => {
  const parts = [];
  const visit = node => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (child.textContent.trim()) parts.push(child.textContent.trim());
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE || ['STYLE', 'SCRIPT', 'TEMPLATE'].includes(child.tagName)) continue;
      if (getComputedStyle(child).display === 'none') continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'label']) {
        if (child.hasAttribute(name)) parts.push(child.getAttribute(name));
      }
      if (child.shadowRoot) visit(child.shadowRoot);
      visit(child);
    }
  };
  if (root.shadowRoot) visit(root.shadowRoot);
  visit(root);
  return parts.join('\\n');
}
"""
"""The text of an element for a person: what shows, and what a screen reader says (labels)."""

OVERFLOWING = """
root => {
  const found = [];
  const walk = node => {
    for (const el of node.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // A 1 px box is text for screen readers only ("visually hidden"): cut on purpose.
      if (box.width > 1 && box.height > 1 && style.visibility !== 'hidden') {
        if (box.right > window.innerWidth + 0.5 || box.left < -0.5) {
          found.push(`${el.tagName.toLowerCase()}.${el.className} leaves the window`);
        } else if (['BUTTON', 'LABEL', 'P', 'SPAN', 'SELECT', 'H1', 'H2', 'LI'].includes(el.tagName)
                   && style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1
                   && !el.classList.contains('segment')) {
          found.push(`${el.tagName.toLowerCase()}.${el.className}: "${el.textContent.trim()}" is cut`);
        }
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  if (root.shadowRoot) walk(root.shadowRoot);
  walk(root);
  return found;
}
"""
"""What leaves the window, or a text cut off in its box (a timeline segment may be cut: it
shows its numbers only when they fit; text for screen readers only is cut to 1 px)."""


async def shown_text(what: Locator) -> str:
    """Return what a person reads in an element (its text and its labels, shadow roots too)."""
    text: str = await what.evaluate(SHOWN_TEXT)
    return text


async def overflowing(what: Locator) -> list[str]:
    """Return the elements that leave the window or whose text is cut."""
    found: list[str] = await what.evaluate(OVERFLOWING)
    return found


# -- pairing: Settings > Devices & services > Thermostat Cloud > Add thermostat -------------------


async def thermostat_on_its_pairing_screen(
    device_url: str, serial: str, http: aiohttp.ClientSession, **buckets: dict[str, Any]
) -> SimulatedThermostat:
    """Start a simulated thermostat that shows its code and holds its subscribe, unpaired.

    It has registered (`/entry`), asked for its code (`(await t.passphrase())["value"]`) and
    holds its subscribe, as a thermostat on its pairing screen does. `buckets` by name
    (`shared=...`, `device=...`). The caller stops it.
    """
    thermostat = SimulatedThermostat(
        device_url,
        serial,
        http,
        buckets={f"{name}.{serial}": value for name, value in buckets.items()},
    )
    await thermostat.entry()
    await thermostat.passphrase()
    thermostat.start()
    async with asyncio.timeout(ENTITY_WAIT):
        await thermostat.subscribed.wait()
    return thermostat


def flow_dialog(page: Page) -> Locator:
    """Return Home Assistant's config flow dialog.

    Its content is slotted into the dialog's shadow DOM, so the element with the dialog role
    does not contain it.
    """
    return page.locator("dialog-data-entry-flow")


async def open_add_thermostat(page: Page, url: str, language: str = "en") -> Locator:
    """Open "Add thermostat" on the integration's page; return the dialog, on its menu."""
    ours = integration_strings(language)
    step = "config_subentries.thermostat.step.user"
    await open_path(page, url, f"/config/integrations/integration/{DOMAIN}")
    await page.get_by_role(
        "button", name=ours["config_subentries.thermostat.initiate_flow.user"]
    ).click()
    dialog = flow_dialog(page)
    await expect(dialog.get_by_text(ours[f"{step}.menu_options.scan"])).to_be_visible()
    return dialog


async def enter_code(dialog: Locator, code: str, language: str = "en") -> None:
    """Choose to enter the code on the menu; type it as the thermostat shows it (ABC-1234)."""
    ours = integration_strings(language)
    await dialog.get_by_text(
        ours["config_subentries.thermostat.step.user.menu_options.code"]
    ).click()
    await code_field(dialog, language).fill(f"{code[:3]}-{code[3:]}")


def code_field(dialog: Locator, language: str = "en") -> Locator:
    """Return the pairing code's field of the code form."""
    label = integration_strings(language)["config_subentries.thermostat.step.code.data.code"]
    return dialog.get_by_role("textbox", name=label)


async def submit_and_finish(dialog: Locator, serial: str, language: str = "en") -> None:
    """Submit the code form; see the thermostat's configuration created; close the dialog."""
    frontend = frontend_strings(language)
    flow = "ui.panel.config.integrations.config_flow"
    await dialog.get_by_role("button", name=frontend[f"{flow}.submit"]).click()
    created = frontend[f"{flow}.created_config"].replace("{name}", f"Thermostat {serial}")
    await expect(dialog.get_by_text(created.rstrip("."))).to_be_visible()
    finish = dialog.get_by_role("button", name=frontend[f"{flow}.finish"])
    await finish.click()
    await expect(finish).to_be_hidden()


# -- the schedule card on a dashboard --------------------------------------------------------------


async def ensure_dashboard(
    client: HomeAssistantClient, url_path: str, title: str, *, in_sidebar: bool = True
) -> None:
    """Create a dashboard stored in Home Assistant, unless an earlier test did."""
    dashboards = await client.websocket({"type": "lovelace/dashboards/list"})
    if not any(dashboard["url_path"] == url_path for dashboard in dashboards):
        await client.websocket(
            {
                "type": "lovelace/dashboards/create",
                "url_path": url_path,
                "title": title,
                "mode": "storage",
                "show_in_sidebar": in_sidebar,
            }
        )


async def put_card_on_dashboard(client: HomeAssistantClient, entity_id: str) -> str:
    """Put the schedule card of a thermostat on the Heating dashboard; return its path."""
    await ensure_dashboard(client, DASHBOARD, "Heating")
    await client.websocket(
        {
            "type": "lovelace/config/save",
            "url_path": DASHBOARD,
            "config": {
                "title": "Home",
                "views": [
                    {
                        "title": "Heating",
                        "path": "heating",
                        "cards": [{"type": f"custom:{CARD}", "entity": entity_id}],
                    }
                ],
            },
        }
    )
    return f"/{DASHBOARD}/heating"


async def open_card(page: Page, url: str, path: str, room: str, language: str = "en") -> Locator:
    """Open the dashboard; return the card once it shows the thermostat's week."""
    await open_path(page, url, path)
    card = page.locator(CARD)
    title = card_strings(language)["title"].replace("{name}", room)
    await expect(card.get_by_text(title)).to_be_visible()
    await expect(card.locator(".day-line").first).to_be_visible()
    return card


async def first_weekday(card: Locator) -> str:
    """Return the long name of the first day of the card's week."""
    name = await card.locator(".day-line .day-name").first.get_attribute("title")
    assert name is not None
    return name
