"""The "not taking commands" repair texts as Home Assistant's own frontend writes them.

The integration fills in times as numbers and its texts format them with ICU arguments
(`{sent, date, medium}`): the frontend's message formatter writes them in the reader's language.
Here the frontend of a real Home Assistant, in a browser of a person of that language, renders
every cause's text with the values the integration fills in: a date and time in the reader's
form, no raw number, no "Translation error", no English word in a translated text.
"""

from __future__ import annotations

from playwright.async_api import Page
import pytest

from custom_components.thermostat_cloud.issues import COMMANDS_CAUSES
from tests.browser.harness import BrowserHomeAssistant, MakePage
from tests.browser.walkthrough import open_path
from tests.conftest import SERIAL
from tests.test_words import english_left

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SENT_MS = 1_795_806_540_000
"""2026-11-27 19:09 UTC, when the setting was sent."""
PLACEHOLDERS = {
    "name": SERIAL,
    "thermostat": SERIAL,
    "sent": str(SENT_MS),
    "last_seen": str(SENT_MS - 3_600_000),
    "voltage": "3.42",
    "threshold": "3.6",
    "version": "4.3.3",
}
"""What the integration fills in for a thermostat named by its serial."""

RENDER = """
async ({ keys, placeholders }) => {
  const hass = document.querySelector("home-assistant").hass;
  const localize = await hass.loadBackendTranslation("issues", "thermostat_cloud");
  return keys.map(key => localize(key, placeholders));
}
"""

# intl-messageformat's "medium" date and "short" time, as the browser writes them.
BROWSER_DATE_TIME = """
([ms, language]) => [
  new Intl.DateTimeFormat(language, { month: "short", day: "numeric", year: "numeric" }).format(ms),
  new Intl.DateTimeFormat(language, { hour: "numeric", minute: "numeric" }).format(ms),
]
"""


async def rendered(page: Page) -> dict[str, str]:
    """Return every cause's title and description as the frontend renders them."""
    keys = [
        f"component.thermostat_cloud.issues.not_taking_commands_{cause}.{part}"
        for cause in COMMANDS_CAUSES
        for part in ("title", "description")
    ]
    texts: list[str] = await page.evaluate(RENDER, {"keys": keys, "placeholders": PLACEHOLDERS})
    return dict(zip(keys, texts, strict=True))


@pytest.mark.parametrize("language", ["en", "de", "fr"])
async def test_the_repair_writes_times_in_the_readers_language(
    make_page: MakePage, home_assistant: BrowserHomeAssistant, language: str
) -> None:
    """When the setting was sent reads as the reader's date and time, in every cause's text."""
    page = await make_page(language=language)
    await open_path(page, home_assistant.url, "/config/repairs")
    date, time = await page.evaluate(BROWSER_DATE_TIME, [SENT_MS, language])

    texts = await rendered(page)
    for key, text in texts.items():
        assert text, f"{key}: not rendered"
        assert "Translation error" not in text, f"{key}: {text}"
        assert str(SENT_MS) not in text, f"{key}: the raw time shows: {text}"
        if key.endswith("description"):
            assert f"{date}" in text, f"{key}: no {date!r} in {text!r}"
            assert f"{time}" in text, f"{key}: no {time!r} in {text!r}"
        assert text.count(SERIAL) == 1, f"{key}: the serial not once: {text}"
    if language != "en":
        assert english_left(language, texts) == []
