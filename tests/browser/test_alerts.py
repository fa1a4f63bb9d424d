"""A heating alert as the user finds it: a repair on Settings > Repairs, and its dialog.

The finding is one the hub kept across a restart (the way a finding open when Home Assistant
stops comes back): the hub is disabled, which saves its state, the finding is written into
the saved document in the form the service saves it, and the hub is enabled again. Raising
one for real takes at least ten minutes of a thermostat heating, which this real Home
Assistant's clock cannot skip. The dialog is the README's picture.
"""

from __future__ import annotations

import json
import time

from playwright.async_api import Page, expect
import pytest

from custom_components.thermostat_cloud.const import DOMAIN, STORAGE_KEY
from tests.browser.harness import BrowserHomeAssistant, Goto, PairedThermostat, Screenshot

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

TITLE = "Living room: the heating is not warming the room"


async def set_hub_enabled(home_assistant: BrowserHomeAssistant, enabled: bool) -> None:
    """Enable or disable the hub entry, as its menu does (disabling unloads and saves it)."""
    await home_assistant.client.websocket(
        {
            "type": "config_entries/disable",
            "entry_id": home_assistant.hub_entry_id,
            "disabled_by": None if enabled else "user",
        }
    )


@pytest.mark.timeout(300)  # run alone, it starts Home Assistant (about a minute, two when busy)
async def test_a_heating_alert_on_the_repairs_page(
    *,
    page: Page,
    goto: Goto,
    home_assistant: BrowserHomeAssistant,
    living_room: PairedThermostat,
    readme_picture: Screenshot,
) -> None:
    """The repair names the thermostat, gives the figures and what to check first."""
    paired = living_room
    await set_hub_enabled(home_assistant, False)
    state_file = home_assistant.config_dir / ".storage" / STORAGE_KEY
    saved = json.loads(state_file.read_text(encoding="utf-8"))
    saved["data"]["health"]["thermostats"][paired.serial] = {
        "findings": [
            {
                "kind": "not_heating",
                "since_ms": int((time.time() - 60) * 1000),
                "figures": {
                    "minutes": 31,
                    "room_start": 18.4,
                    "room_now": 18.1,
                    "stage": "heating_stage_1",
                    "outdoor": 2.0,
                },
            }
        ],
        "starts": {"heating": [], "cooling": []},
        "days": [],
    }
    state_file.write_text(json.dumps(saved), encoding="utf-8")
    await set_hub_enabled(home_assistant, True)

    try:
        await goto(page, "/config/repairs")
        await page.get_by_text(TITLE).click()
        await expect(page.get_by_text("has not warmed up: 18.4 °C → 18.1")).to_be_visible()
        await expect(page.get_by_text("Check first that the furnace")).to_be_visible()
        await readme_picture(page, "heating-alert")
    finally:
        # Unpaired, the thermostat's findings go, and with them the repair.
        subentries = await home_assistant.client.websocket(
            {"type": "config_entries/subentries/list", "entry_id": home_assistant.hub_entry_id}
        )
        for subentry in subentries:
            if subentry.get("unique_id") == paired.serial:
                await home_assistant.client.websocket(
                    {
                        "type": "config_entries/subentries/delete",
                        "entry_id": home_assistant.hub_entry_id,
                        "subentry_id": subentry["subentry_id"],
                    }
                )
    issues = await home_assistant.client.websocket({"type": "repairs/list_issues"})
    assert not [
        i for i in issues["issues"] if i["domain"] == DOMAIN and i["issue_id"].startswith("health_")
    ]
