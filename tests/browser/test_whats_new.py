"""What is new, as a person finds it: a repair, and the vacation calendar.

The repair of a thermostat not taking commands, and the vacation calendar with its eco range.
Each test leaves the README's picture of it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from playwright.async_api import Page, expect
import pytest

from tests.browser.harness import BrowserHomeAssistant, Goto, PairedThermostat, Screenshot

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

CONFIRMATION_WAIT_MS = 200_000
"""How long the service waits for a thermostat to confirm a setting before it raises the
repair (`WRITTEN_DEADLINE_S`, two minutes of Home Assistant's own clock), with room to spare."""


@pytest.mark.timeout(CONFIRMATION_WAIT_MS / 1000 + 120)  # the two minutes, then the page
async def test_the_repair_of_a_thermostat_that_takes_no_commands(
    page: Page,
    *,
    home_assistant: BrowserHomeAssistant,
    living_room: PairedThermostat,
    goto: Goto,
    readme_picture: Screenshot,
) -> None:
    """A thermostat that ignores a setting: Repairs lists it, and its dialog names the cause.

    Two minutes after the setting was sent, as the service decides (its clock runs in Home
    Assistant's process: the page waits for the repair to appear, not for a time).
    """
    paired = living_room
    paired.thermostat.obey_pushes = False
    await home_assistant.client.websocket(
        {
            "type": "call_service",
            "domain": "climate",
            "service": "set_hvac_mode",
            "service_data": {"hvac_mode": "off"},
            "target": {"entity_id": paired.entity_id},
        }
    )
    await goto(page, "/config/repairs")
    heading = "Living room is not taking commands"
    listed = page.get_by_text(heading).first
    await expect(listed).to_be_visible(timeout=CONFIRMATION_WAIT_MS)
    await listed.click()
    # The dialog, with Home Assistant's own Ignore button.
    await expect(page.get_by_role("button", name="Ignore")).to_be_visible()
    await readme_picture(page.get_by_role("dialog"), "repair-not-taking-commands")


@pytest.mark.usefixtures("living_room")  # a home to send on vacation
async def test_the_vacation_calendar_shows_a_vacation_and_its_eco_range(
    page: Page, *, home_assistant: BrowserHomeAssistant, goto: Goto, readme_picture: Screenshot
) -> None:
    """A vacation set by the action is an event of the Vacation calendar, with its eco range."""
    start = datetime.now(UTC).replace(hour=8, minute=0, second=0, microsecond=0) + timedelta(days=2)
    await home_assistant.client.websocket(
        {
            "type": "call_service",
            "domain": "thermostat_cloud",
            "service": "set_vacation",
            "service_data": {
                "start": start.isoformat(),
                "end": (start + timedelta(days=4)).isoformat(),
                "eco_low": 12,
                "eco_high": 28,
            },
            "return_response": True,
        }
    )
    await goto(page, "/calendar")
    event = page.locator(".fc-event", has_text="Vacation").first
    await expect(event).to_be_visible()
    await event.click()
    await expect(page.get_by_text("Eco temperatures: 12\u201328 °C")).to_be_visible()
    await readme_picture(page, "vacation-calendar")
