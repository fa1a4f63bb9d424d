"""The schedule card and the pairing dialog in German and in French, as people there see them.

Each page is a browser of a person of that language (its locale, and the language picked in
their profile): no English left where a translation exists, nothing cut off or out of the
window, and the card's week starts on the locale's first day (Monday in Germany and France).
The pictures are in tests/browser/screenshots/ after a run.
"""

from __future__ import annotations

from playwright.async_api import expect
import pytest

from tests.browser.harness import (
    LIVING_ROOM,
    OWNER,
    BrowserHomeAssistant,
    MakePage,
    MakeThermostat,
    PairedThermostat,
    Screenshot,
    wait_until_shown,
)
from tests.browser.walkthrough import (
    LANGUAGES,
    card_strings,
    english_left,
    enter_code,
    first_weekday,
    frontend_strings,
    integration_strings,
    open_add_thermostat,
    open_card,
    overflowing,
    put_card_on_dashboard,
    shown_text,
    submit_and_finish,
)

from .test_schedule_card import SCHEDULE

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

TRANSLATED = ["de", "fr"]
FLOW = "config_subentries.thermostat."
FRONTEND_FLOW_KEYS = ("ui.panel.config.integrations.config_flow.submit",)


def pairing_texts(language: str) -> dict[str, str]:
    """Return the pairing dialog's texts in a language: ours, and the frontend's button."""
    frontend = frontend_strings(language)
    return {
        **{
            key: text for key, text in integration_strings(language).items() if key.startswith(FLOW)
        },
        **{key: frontend[key] for key in FRONTEND_FLOW_KEYS},
    }


@pytest.mark.parametrize("language", TRANSLATED)
async def test_the_schedule_card_speaks_the_users_language(
    language: str,
    *,
    make_page: MakePage,
    home_assistant: BrowserHomeAssistant,
    living_room: PairedThermostat,
    screenshot: Screenshot,
    readme_picture: Screenshot,
) -> None:
    """The week starts on Monday, every text is translated, and it fits a desktop and a phone.

    A day's editor is open, so its texts (time, setpoints, copy to, save) are read too.
    """
    paired = living_room
    await paired.thermostat.put(f"schedule.{paired.serial}", SCHEDULE)
    path = await put_card_on_dashboard(home_assistant.client, paired.entity_id)
    room = LIVING_ROOM["shared"]["name"]

    for width, height in ((1280, 800), (390, 844)):
        page = await make_page(width=width, height=height, language=language)
        card = await open_card(page, home_assistant.url, path, room, language)
        assert await first_weekday(card) == LANGUAGES[language].first_weekday
        await card.locator(".day-line").first.click()
        await expect(card.locator(".editor")).to_be_visible()
        await card.locator(".editor").scroll_into_view_if_needed()
        picture = readme_picture if (language, width) == ("de", 1280) else screenshot
        await picture(
            page, f"schedule-card-{language}" if picture is readme_picture else f"{width}px"
        )

        shown = await shown_text(card)
        assert english_left(shown, card_strings("en"), card_strings(language)) == [], shown
        assert await overflowing(card) == []


@pytest.mark.parametrize("language", TRANSLATED)
async def test_pairing_speaks_the_users_language(
    make_page: MakePage,
    home_assistant: BrowserHomeAssistant,
    make_thermostat: MakeThermostat,
    screenshot: Screenshot,
    language: str,
) -> None:
    """Add thermostat's menu and code form are in the language, and pair the thermostat.

    The integration's page then lists it by its room, as its device is named.
    """
    page = await make_page(language=language)
    thermostat = await make_thermostat(**LIVING_ROOM)
    code = (await thermostat.passphrase())["value"]
    english, translated = pairing_texts("en"), pairing_texts(language)

    dialog = await open_add_thermostat(page, home_assistant.url, language)
    await screenshot(page.get_by_role("dialog"), "menu")
    assert english_left(await shown_text(dialog), english, translated) == []
    assert await overflowing(dialog) == []

    await enter_code(dialog, code, language)
    await screenshot(page.get_by_role("dialog"), "code")
    # The owner picker lists the people of this home: their names are not texts to translate.
    shown = (await shown_text(dialog)).replace(OWNER.name, "")
    assert english_left(shown, english, translated) == [], shown
    assert await overflowing(dialog) == []

    await submit_and_finish(dialog, thermostat.serial, language)
    await wait_until_shown(home_assistant.client, thermostat)
    # The integration's page lists the thermostat as its device is named, not by its serial.
    await expect(page.get_by_text(f"Thermostat {thermostat.serial}")).to_have_count(0)
    await expect(page.get_by_text(LIVING_ROOM["shared"]["name"]).first).to_be_visible()
    await screenshot(page, "paired")
