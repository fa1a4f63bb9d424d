"""The thermostat's dialog (more info): what a user changes there reaches the thermostat."""

from __future__ import annotations

from playwright.async_api import expect
import pytest

from tests.browser.harness import Goto, MakePage, PairedThermostat, Screenshot

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_raising_the_setpoint_in_the_dialog_reaches_the_thermostat(
    make_page: MakePage,
    goto: Goto,
    living_room: PairedThermostat,
    readme_picture: Screenshot,
) -> None:
    """A press on + in the dialog sets 21.5 °C on the thermostat, over its held connection.

    The dialog shows what the thermostat reports (room temperature and humidity, heating,
    its setpoint); the new setpoint arrives on the thermostat as a pushed `shared` bucket.
    """
    paired = living_room
    thermostat = paired.thermostat
    page = await make_page(height=720)
    await goto(page, f"/config/devices/device/{paired.device_id}")
    await page.get_by_text("Heating (Heat)").click()
    dialog = page.locator("ha-more-info-dialog")
    await expect(dialog.get_by_text("19.6 °C")).to_be_visible()
    await expect(dialog.get_by_text("44%")).to_be_visible()
    await readme_picture(page.get_by_role("dialog"), "thermostat-dialog")

    # The setpoint's + button (the frontend gives its - and + buttons no names).
    await dialog.locator(
        "ha-state-control-climate-temperature ha-outlined-icon-button"
    ).last.click()

    shared = f"shared.{thermostat.serial}"
    while thermostat.local[shared].value.get("target_temperature") != 21.5:
        await thermostat.next_chunk()
    await expect(dialog.locator("ha-big-number")).to_contain_text("21")
    await expect(dialog.locator("ha-big-number")).to_contain_text(".5")
