"""Pairing a thermostat in the UI: Settings > Devices & services > Thermostat Cloud."""

from __future__ import annotations

from playwright.async_api import Page, expect
import pytest

from tests.browser.harness import (
    LIVING_ROOM,
    BrowserHomeAssistant,
    Goto,
    MakeThermostat,
    Screenshot,
    wait_until_shown,
)

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_pair_a_thermostat_by_the_code_on_its_screen(
    page: Page,
    goto: Goto,
    home_assistant: BrowserHomeAssistant,
    make_thermostat: MakeThermostat,
    readme_picture: Screenshot,
) -> None:
    """A user types the code the thermostat shows; the thermostat is paired and shown.

    The whole way a user goes, from the Devices & services page; the thermostat learns of its
    pairing on the connection it holds (its user and structure buckets), and Home Assistant
    shows its climate entity.
    """
    thermostat = await make_thermostat(**LIVING_ROOM)
    code = (await thermostat.passphrase())["value"]

    await goto(page, "/config/integrations/dashboard")
    await page.get_by_text("Thermostat Cloud", exact=True).first.click()
    await page.get_by_role("button", name="Add thermostat").click()
    # Home Assistant's flow dialog (its content is slotted into the dialog's shadow DOM, so the
    # element with the dialog role does not contain it).
    dialog = page.locator("dialog-data-entry-flow")
    code_field = dialog.get_by_role("textbox", name="Pairing code")
    # A flow that first asks how to add the thermostat offers typing its code as one way.
    enter_the_code = dialog.get_by_text("Enter the code")
    await expect(code_field.or_(enter_the_code)).to_be_visible()
    if await enter_the_code.is_visible():
        await enter_the_code.click()
    # As the thermostat shows it: ABC-1234.
    await code_field.fill(f"{code[:3]}-{code[3:]}")
    await readme_picture(page, "pairing-form")
    await dialog.get_by_role("button", name="Submit").click()

    await expect(
        dialog.get_by_text(f"Created configuration for Thermostat {thermostat.serial}")
    ).to_be_visible()
    finish = dialog.get_by_role("button", name="Finish")
    await finish.click()
    await expect(finish).to_be_hidden()
    await expect(page.get_by_text("Living room").first).to_be_visible()

    shown = await wait_until_shown(home_assistant.client, thermostat)
    assert shown.entity_id.startswith("climate.")
    # The thermostat has what pairing pushes to it: the home's structure listing it, and the
    # owner's user bucket; and it no longer offers its code.
    while not any(key.startswith("structure.") for key in thermostat.local):
        await thermostat.next_chunk()
    (structure,) = (v.value for k, v in thermostat.local.items() if k.startswith("structure."))
    assert thermostat.serial in structure["devices"]
    assert any(key.startswith("user.") for key in thermostat.local)
    assert (await thermostat.passphrase_status())["claimed"] is True
