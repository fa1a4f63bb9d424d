"""Energy history on a dashboard: daily heating and cooling hours in a statistics graph.

The example card of docs/energy-history.md, in Chromium against a real Home Assistant.
Long-term statistics are hourly, so a week of them cannot come from a simulated thermostat in a test's minutes: the
six days before today are imported into the runtime sensors' statistics (as the recorder
would have kept them), today's hours come from the sensors themselves.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from playwright.async_api import Page, expect
import pytest

from custom_components.thermostat_cloud.const import DOMAIN
from tests.browser.harness import BrowserHomeAssistant, Goto, PairedThermostat, Screenshot
from tests.browser.walkthrough import ensure_dashboard

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

DASHBOARD = "dashboard-energy-history"
# Hours of heating and cooling on each of the six days before today (a spring week).
HEATING_HOURS = (5.5, 4.0, 4.75, 3.25, 2.5, 3.0)
COOLING_HOURS = (0.0, 0.0, 0.5, 1.25, 2.0, 1.5)


def hourly_statistics(daily_hours: tuple[float, ...], today: datetime) -> list[dict[str, Any]]:
    """Return hourly sums spreading each day's hours over its afternoon, ending before today."""
    stats: list[dict[str, Any]] = []
    total = 0.0
    for back, hours in zip(range(len(daily_hours), 0, -1), daily_hours, strict=True):
        day = today - timedelta(days=back)
        for hour in range(24):
            total += hours / 6 if 12 <= hour < 18 else 0.0
            start = day + timedelta(hours=hour)
            stats.append({"start": start.isoformat(), "state": total, "sum": total})
    return stats


async def runtime_entity(home_assistant: BrowserHomeAssistant, serial: str, key: str) -> str:
    """Return the entity id of a runtime sensor, by its unique id."""
    entries = await home_assistant.client.websocket({"type": "config/entity_registry/list"})
    unique_id = f"{serial}_{key}_runtime"
    (entity_id,) = (
        e["entity_id"] for e in entries if e["platform"] == DOMAIN and e["unique_id"] == unique_id
    )
    return str(entity_id)


async def test_daily_heating_and_cooling_hours_in_a_statistics_graph(
    *,
    page: Page,
    goto: Goto,
    home_assistant: BrowserHomeAssistant,
    living_room: PairedThermostat,
    readme_picture: Screenshot,
) -> None:
    """The docs' card: a bar per day of heating and cooling hours, from the runtime sensors."""
    paired = living_room  # heating, with the fan
    heating = await runtime_entity(home_assistant, paired.serial, "heating_stage_1")
    cooling = await runtime_entity(home_assistant, paired.serial, "cooling_stage_1")
    client = home_assistant.client
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    for entity_id, name, hours in (
        (heating, "Living room Heating stage 1 runtime", HEATING_HOURS),
        (cooling, "Living room Cooling stage 1 runtime", COOLING_HOURS),
    ):
        await client.websocket(
            {
                "type": "recorder/import_statistics",
                "metadata": {
                    "has_sum": True,
                    "mean_type": 0,
                    "name": name,
                    "source": "recorder",
                    "statistic_id": entity_id,
                    "unit_class": "duration",
                    "unit_of_measurement": "h",
                },
                "stats": hourly_statistics(hours, today),
            }
        )
    card = {
        "type": "statistics-graph",
        "title": "Heating and cooling, hours per day",
        "entities": [
            {"entity": heating, "name": "Heating"},
            {"entity": cooling, "name": "Cooling"},
        ],
        "stat_types": ["change"],
        "period": "day",
        "days_to_show": 7,
        "chart_type": "bar",
    }
    # Off the sidebar: the other tests' pictures of the UI show it.
    await ensure_dashboard(client, DASHBOARD, "Energy history", in_sidebar=False)
    await client.websocket(
        {
            "type": "lovelace/config/save",
            "url_path": DASHBOARD,
            "config": {"views": [{"title": "Energy", "path": "energy", "cards": [card]}]},
        }
    )
    await page.set_viewport_size({"width": 800, "height": 600})
    await goto(page, f"/{DASHBOARD}/energy")
    graph = page.locator("hui-statistics-graph-card")
    await expect(graph.get_by_text("Heating and cooling, hours per day")).to_be_visible()
    await expect(graph.locator("ha-chart-base")).to_be_visible()
    await expect(graph.get_by_text("Heating", exact=True)).to_be_visible()
    await expect(graph.get_by_text("Cooling", exact=True)).to_be_visible()
    await page.wait_for_timeout(1000)  # the chart's entry animation (no event marks its end)
    await readme_picture(graph, "energy-history")
