"""The vacation calendar in Home Assistant's calendar panel: what its event dialog refuses."""

from __future__ import annotations

from playwright.async_api import expect
import pytest

from tests.browser.harness import BrowserHomeAssistant, Goto, MakePage, PairedThermostat

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_a_repeating_vacation_is_refused_in_the_dialog_saying_what_to_choose(
    make_page: MakePage,
    goto: Goto,
    home_assistant: BrowserHomeAssistant,
    living_room: PairedThermostat,
) -> None:
    """The dialog offers Repeat (no calendar can hide it); saving a weekly vacation is refused.

    The dialog stays open and says, in its own words, to set Repeat to "No repeat"; no
    vacation is created.
    """
    page = await make_page(height=900)
    await goto(page, "/calendar")
    await page.get_by_role("button", name="Add event").click()
    dialog = page.locator("dialog-calendar-event-editor")
    await dialog.locator("ha-input.summary input").fill("Skiing")
    await dialog.locator("ha-select#freq").click()
    await dialog.locator("ha-select#freq ha-dropdown-item", has_text="Weekly").click()
    await dialog.get_by_role("button", name="Add event").click()

    await expect(dialog.locator("ha-alert")).to_contain_text(
        "A vacation cannot repeat: set Repeat to \N{LEFT DOUBLE QUOTATION MARK}No repeat"
        "\N{RIGHT DOUBLE QUOTATION MARK} and create each vacation as its own event"
    )
    client = home_assistant.client
    (calendar,) = [c["entity_id"] for c in await client.call("GET", "/api/calendars")]
    window = "start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z"
    assert await client.call("GET", f"/api/calendars/{calendar}?{window}") == []
