"""A paired thermostat's device page, on a desktop and a phone, in light and dark theme."""

from __future__ import annotations

import re

from playwright.async_api import Page, expect
import pytest

from tests.browser.harness import Goto, MakePage, PairedThermostat, Screenshot

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

PHONE = {"width": 390, "height": 844}
"""An iPhone 14's viewport in CSS pixels."""


async def _open_device_page(
    make_page: MakePage,
    goto: Goto,
    living_room: PairedThermostat,
    **page_options: int | bool,
) -> Page:
    page = await make_page(**page_options)
    await goto(page, f"/config/devices/device/{living_room.device_id}")
    # What the thermostat reports, through its climate entity in the Controls card.
    await expect(page.get_by_text("Heating (Heat)")).to_be_visible()
    await expect(page.get_by_text("Currently: 19.6 °C")).to_be_visible()
    return page


async def test_device_page_shows_the_thermostat(
    make_page: MakePage,
    goto: Goto,
    living_room: PairedThermostat,
    readme_picture: Screenshot,
) -> None:
    """The device page names the thermostat, its model and serial, and shows what it reports."""
    # A tall window, so the README's picture shows the sensors whole, down to the last.
    page = await _open_device_page(make_page, goto, living_room, height=1580)
    await expect(page.get_by_text("Living room").first).to_be_visible()
    await expect(page.get_by_text("Display-2.0")).to_be_visible()
    await expect(page.get_by_text("Serial number: 02AA01AC3314B")).to_be_visible()
    await readme_picture(page, "device-page")


async def test_device_page_in_dark_theme(
    make_page: MakePage,
    goto: Goto,
    living_room: PairedThermostat,
    screenshot: Screenshot,
) -> None:
    """With the browser set to dark, the page follows (Home Assistant's default theme)."""
    page = await _open_device_page(make_page, goto, living_room, dark=True)
    # The theme's page background, resolved by the browser to rgb(r, g, b).
    background: str = await page.evaluate(
        """() => {
            const probe = document.createElement("div");
            probe.style.color = "var(--primary-background-color)";
            document.body.append(probe);
            const color = getComputedStyle(probe).color;
            probe.remove();
            return color;
        }"""
    )
    red, green, blue = (int(part) for part in re.findall(r"\d+", background)[:3])
    assert max(red, green, blue) < 0x40, background
    await screenshot(page, "dark")


async def test_device_page_on_a_phone(
    make_page: MakePage,
    goto: Goto,
    living_room: PairedThermostat,
    screenshot: Screenshot,
) -> None:
    """At phone width the page fits the screen: nothing to scroll sideways."""
    page = await _open_device_page(make_page, goto, living_room, **PHONE)
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await screenshot(page, "phone")
