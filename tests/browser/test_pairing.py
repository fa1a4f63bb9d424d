"""Pairing a thermostat in the UI: Settings > Devices & services > Thermostat Cloud."""

from __future__ import annotations

from playwright.async_api import Page, expect
import pytest

from custom_components.thermostat_cloud.const import DOMAIN
from tests.browser.harness import (
    LIVING_ROOM,
    OWNER,
    BrowserHomeAssistant,
    Goto,
    MakeThermostat,
    Screenshot,
    wait_until_shown,
)
from thermostat_sim import SimulatedThermostat

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_pair_a_thermostat_by_the_code_on_its_screen(
    page: Page,
    goto: Goto,
    home_assistant: BrowserHomeAssistant,
    make_thermostat: MakeThermostat,
    readme_picture: Screenshot,
) -> None:
    """A user types the code the thermostat shows; the thermostat is paired and shown.

    The whole way a user goes, from the Devices & services page through Add thermostat's
    menu, choosing themself as the owner; the thermostat learns of its pairing on the
    connection it holds (the structure listing it and its owner's user bucket), and Home
    Assistant shows its climate entity.
    """
    thermostat = await make_thermostat(**LIVING_ROOM)
    code = (await thermostat.passphrase())["value"]

    await goto(page, "/config/integrations/dashboard")
    # The configured integration's card (a waiting thermostat also shows, as discovered).
    await page.locator("ha-integration-card", has_text="Thermostat Cloud").click()
    await page.get_by_role("button", name="Add thermostat").click()
    # Home Assistant's flow dialog (its content is slotted into the dialog's shadow DOM, so the
    # element with the dialog role does not contain it).
    dialog = page.locator("dialog-data-entry-flow")
    # Two ways to add one: find it on the network, or type the code it shows.
    await expect(dialog.get_by_text("Find thermostats on the network")).to_be_visible()
    await readme_picture(page.get_by_role("dialog"), "add-thermostat")
    await dialog.get_by_text("Enter the code shown on a thermostat").click()
    code_field = dialog.get_by_role("textbox", name="Pairing code")
    # As the thermostat shows it: ABC-1234.
    await code_field.fill(f"{code[:3]}-{code[3:]}")
    # The launcher's administrator is the instance owner, suggested first: the thermostat
    # is the person's who logs in here.
    await dialog.get_by_text("Owner", exact=True).click()
    await dialog.get_by_role("menuitem", name=OWNER.name).click()
    await expect(dialog.get_by_role("menu")).to_be_hidden()
    await readme_picture(page.get_by_role("dialog"), "pairing-form")
    await dialog.get_by_role("button", name="Submit").click()

    await expect(
        dialog.get_by_text(f"Created configuration for Thermostat {thermostat.serial}")
    ).to_be_visible()
    finish = dialog.get_by_role("button", name="Finish")
    await finish.click()
    await expect(finish).to_be_hidden()
    await expect(page.get_by_text("Living room").first).to_be_visible()

    users = await home_assistant.client.websocket({"type": "config/auth/list"})
    (owner_id,) = (user["id"] for user in users if user["name"] == OWNER.name)
    await assert_paired(home_assistant, thermostat, owner_id)


async def test_pair_a_discovered_thermostat(
    page: Page,
    goto: Goto,
    home_assistant: BrowserHomeAssistant,
    make_thermostat: MakeThermostat,
) -> None:
    """A thermostat that talks to Home Assistant unpaired shows as discovered, and pairs there.

    Devices & services lists it under Discovered; Add asks for the code on its screen.
    """
    thermostat = await make_thermostat(**LIVING_ROOM)
    code = (await thermostat.passphrase())["value"]

    await goto(page, "/config/integrations/dashboard")
    await (
        page.locator("ha-config-flow-card", has_text=f"Thermostat {thermostat.serial}")
        .get_by_role("button", name="Add")
        .click()
    )
    dialog = page.locator("dialog-data-entry-flow")
    await expect(dialog.get_by_text(f"Pair thermostat {thermostat.serial}")).to_be_visible()
    await dialog.get_by_role("textbox", name="Pairing code").fill(code.lower())
    await dialog.get_by_role("button", name="Submit").click()
    await expect(dialog.get_by_text(f"Thermostat {thermostat.serial} is paired")).to_be_visible()
    await dialog.get_by_role("button", name="Close").first.click()
    await expect(
        page.locator("ha-config-flow-card", has_text=f"Thermostat {thermostat.serial}")
    ).to_have_count(0)

    await assert_paired(home_assistant, thermostat, owner_id=None)


async def assert_paired(
    home_assistant: BrowserHomeAssistant, thermostat: SimulatedThermostat, owner_id: str | None
) -> None:
    """Home Assistant shows the thermostat, and the thermostat knows it is paired.

    The thermostat has what pairing pushes to it: the home's structure listing it and a user
    bucket (the chosen owner's, when one was chosen); and it no longer offers its code.
    """
    shown = await wait_until_shown(home_assistant.client, thermostat)
    assert shown.entity_id.startswith("climate.")
    while not any(key.startswith("structure.") for key in thermostat.local):
        await thermostat.next_chunk()
    (structure,) = (v.value for k, v in thermostat.local.items() if k.startswith("structure."))
    assert f"device.{thermostat.serial}" in structure["devices"]
    (user_key,) = (key for key in thermostat.local if key.startswith("user."))
    if owner_id is not None:
        assert user_key == f"user.{owner_id}"
    assert (await thermostat.passphrase_status())["claimed"] is True


async def test_a_code_no_thermostat_shows_is_refused_on_the_form(page: Page, goto: Goto) -> None:
    """A mistyped code is refused on the form, in words that say what to check."""
    await goto(page, f"/config/integrations/integration/{DOMAIN}")
    await page.get_by_role("button", name="Add thermostat").click()
    dialog = page.locator("dialog-data-entry-flow")
    await dialog.get_by_text("Enter the code shown on a thermostat").click()
    await dialog.get_by_role("textbox", name="Pairing code").fill("ZZZ-9999")
    await dialog.get_by_role("button", name="Submit").click()
    await expect(dialog.get_by_text("No thermostat is showing this code.")).to_be_visible()
    # Still on the form, to try again.
    await expect(dialog.get_by_role("textbox", name="Pairing code")).to_be_visible()
