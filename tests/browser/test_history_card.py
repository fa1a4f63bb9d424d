"""The history card on a dashboard, in Chromium against a real Home Assistant.

A thermostat's days cannot pass in a test's minutes in a real Home Assistant, so the days
before today are written into the integration's store while the hub entry is disabled, as an
earlier run would have saved them (`days` in `.storage/thermostat_cloud.state`); enabling the
entry loads them. The card reads them through `get_energy_report`, as the test does to check
what the bars show.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
import json
from typing import Any
from zoneinfo import ZoneInfo

from playwright.async_api import Locator, expect
import pytest
import pytest_asyncio

from custom_components.thermostat_cloud.const import DOMAIN, STORAGE_KEY
from tests.browser.harness import (
    LIVING_ROOM,
    BrowserHomeAssistant,
    Goto,
    MakePage,
    MakeThermostat,
    Pair,
    PairedThermostat,
    Screenshot,
    wait_until_shown,
)
from tests.browser.walkthrough import (
    card_strings,
    english_left,
    ensure_dashboard,
    overflowing,
    shown_text,
)

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

CARD = "thermostat-cloud-history-card"
DASHBOARD = "dashboard-history"
IDLE = {
    **LIVING_ROOM,
    "shared": {
        **LIVING_ROOM["shared"],
        "hvac_heater_state": False,
        "hvac_fan_state": False,
    },
}
"""The living room with nothing running: today's bar stays empty while the test looks."""

# The 14 days before today, oldest first: (heating h, cooling h, heating degree-days, away h,
# changes by source, schedule edits). The last nine show, with today; the ones before are the
# recent average the reasons are measured against.
USUAL = (3.0, 0.0, 8.0, 0.0, {"schedule": 2}, 0)
SEEDED_DAYS: tuple[tuple[float, float, float, float, dict[str, int], int], ...] = (
    USUAL,
    (3.25, 0.0, 8.5, 0.0, {"schedule": 2}, 0),
    (2.75, 0.0, 7.5, 0.0, {"schedule": 2}, 0),
    USUAL,
    (3.5, 0.0, 8.5, 0.0, {"schedule": 2}, 0),
    (2.5, 0.75, 7.5, 0.0, {"schedule": 2}, 0),
    USUAL,
    (3.0, 0.0, 8.0, 0.0, {"schedule": 2}, 1),  # the schedule was edited
    (2.75, 0.5, 7.5, 0.0, {"schedule": 2}, 0),
    (6.5, 0.0, 14.0, 0.0, {"schedule": 2}, 0),  # colder
    (1.25, 0.0, 3.0, 0.0, {"schedule": 2}, 0),  # warmer
    (3.5, 0.0, 8.0, 0.0, {"schedule": 2, "person": 3, "dial": 2}, 0),  # adjusted
    (2.0, 0.0, 8.5, 8.0, {"schedule": 1, "rule": 1}, 0),  # away more
    (3.25, 0.0, 8.0, 0.0, {"schedule": 2}, 0),
)


async def home_today(home_assistant: BrowserHomeAssistant) -> date:
    """Return today in Home Assistant's time zone."""
    config = await home_assistant.client.call("GET", "/api/config")
    return datetime.now(ZoneInfo(config["time_zone"])).date()


def seeded_days(today: date) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return the saved form of `SEEDED_DAYS` (server/core/watch/days.py): the days and the weather."""
    days: dict[str, Any] = {}
    weather: dict[str, Any] = {}
    running = {"heating_stage_1": 0.0, "cooling_stage_1": 0.0, "fan": 0.0}
    for back, (heating, cooling, degree_days, away, changes, edits) in zip(
        range(len(SEEDED_DAYS), 0, -1), SEEDED_DAYS, strict=True
    ):
        key = (today - timedelta(days=back)).isoformat()
        opened = dict(running)
        running["heating_stage_1"] += heating * 3600
        running["cooling_stage_1"] += cooling * 3600
        running["fan"] += (heating + cooling) * 3600
        days[key] = {
            "opened": opened,
            "closed": dict(running),
            "seconds": {"away": away * 3600} if away else {},
            "changes": changes,
            "schedule_edits": edits,
        }
        # A whole day covered at a steady outdoor temperature: `degree_days` below the base.
        weather[key] = {"heating": degree_days * 86400, "cooling": 0.0, "covered": 86400.0}
    return days, weather


@pytest_asyncio.fixture(loop_scope="session")
async def seasoned(
    home_assistant: BrowserHomeAssistant, make_thermostat: MakeThermostat, pair: Pair
) -> PairedThermostat:
    """Pair an idle thermostat with `SEEDED_DAYS`, saved as an earlier run would have saved them."""
    paired = await pair(await make_thermostat(**IDLE))
    client = home_assistant.client
    entry = home_assistant.hub_entry_id
    await client.websocket(
        {"type": "config_entries/disable", "entry_id": entry, "disabled_by": "user"}
    )
    store = home_assistant.config_dir / ".storage" / STORAGE_KEY
    saved = json.loads(store.read_text())
    days, weather = seeded_days(await home_today(home_assistant))
    kept = saved["data"].setdefault("days", {})
    kept.setdefault("thermostats", {}).setdefault(paired.serial, {}).update(days)
    kept.setdefault("weather", {}).update(weather)
    store.write_text(json.dumps(saved))
    await client.websocket(
        {"type": "config_entries/disable", "entry_id": entry, "disabled_by": None}
    )
    return await wait_until_shown(client, paired.thermostat)


async def report_days(home_assistant: BrowserHomeAssistant, entity_id: str) -> list[dict[str, Any]]:
    """Return the last ten days of `get_energy_report` (this month and the last), oldest first."""
    days: dict[str, dict[str, Any]] = {}
    today = await home_today(home_assistant)
    for asked in (today - timedelta(days=9), today):
        answer = await home_assistant.client.websocket(
            {
                "type": "call_service",
                "domain": DOMAIN,
                "service": "get_energy_report",
                "service_data": {
                    "entity_id": entity_id,
                    "period": "month",
                    "date": asked.isoformat(),
                },
                "return_response": True,
            }
        )
        (thermostat,) = answer["response"]["thermostats"]
        days |= {day["date"]: day for day in thermostat["days"]}
    return [days[key] for key in sorted(days)][-10:]


async def show_cards(home_assistant: BrowserHomeAssistant, *entities: str) -> str:
    """Put a history card of each entity on the History dashboard; return its path."""
    client = home_assistant.client
    await ensure_dashboard(client, DASHBOARD, "History", in_sidebar=False)
    cards = [{"type": f"custom:{CARD}", "entity": entity} for entity in entities]
    await client.websocket(
        {
            "type": "lovelace/config/save",
            "url_path": DASHBOARD,
            "config": {"views": [{"title": "History", "path": "history", "cards": cards}]},
        }
    )
    return f"/{DASHBOARD}/history"


def hours(value: float) -> str:
    """Return hours as the English card writes them."""
    return f"{value:g} h"


async def check_bars(card: Locator, days: list[dict[str, Any]]) -> None:
    """Each bar is its day's heating and cooling, to scale, and carries its main reason."""
    english = card_strings("en")
    bars = card.locator("button.bar")
    await expect(bars).to_have_count(10)
    top = max(1, -(-max(d["heating_hours"] + d["cooling_hours"] for d in days) // 1))
    await expect(card.locator(".top")).to_have_text(hours(top))
    for bar, day in zip(await bars.all(), days, strict=True):
        assert await bar.get_attribute("data-date") == day["date"]
        label = await bar.get_attribute("aria-label") or ""
        assert (
            f"heating {hours(day['heating_hours'])}, cooling {hours(day['cooling_hours'])}" in label
        )
        reason = day["main_reason"]
        if reason:
            assert label.endswith(english[f"reason_{reason}"]), (label, reason)
            await expect(bar.locator(".reason svg")).to_have_count(1)
        else:
            await expect(bar.locator(".reason svg")).to_have_count(0)
        plot = await bar.locator(".plot").bounding_box()
        heating = await bar.locator(".segment.heating").bounding_box()
        assert plot is not None
        assert heating is not None
        assert abs(heating["height"] - plot["height"] * day["heating_hours"] / top) < 1.5


CONTRAST = """
root => {
  const rgba = value => {
    const [r, g, b, a = 1] = value.match(/[\\d.]+/g).map(Number);
    return [r, g, b, a];
  };
  const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
  const luminance = rgb => {
    const [R, G, B] = rgb.map(c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * R + 0.7152 * G + 0.0722 * B;
  };
  const card = root.shadowRoot.querySelector('ha-card');
  const cardColour = rgba(getComputedStyle(card).backgroundColor).slice(0, 3);
  // What a text stands on: the nearest tinted box inside the card, over the card.
  const behind = el => {
    for (let node = el; node && node !== card; node = node.parentElement) {
      const colour = rgba(getComputedStyle(node).backgroundColor);
      if (colour[3] > 0) return over(colour, cardColour);
    }
    return cardColour;
  };
  const found = [];
  for (const el of root.shadowRoot.querySelectorAll('.title, .legend, .top, .weekday, .date, h3, .why, dt, dd, .note, .message')) {
    const text = luminance(over(rgba(getComputedStyle(el).color), behind(el)));
    const background = luminance(behind(el));
    const ratio = (Math.max(text, background) + 0.05) / (Math.min(text, background) + 0.05);
    found.push([el.className || el.tagName, Math.round(ratio * 100) / 100]);
  }
  return found;
}
"""
"""The contrast of each kind of text of the card against the card (WCAG's formula)."""


async def low_contrast(card: Locator) -> list[tuple[str, float]]:
    """Return the texts of the card whose contrast is below 4.5:1."""
    ratios: list[tuple[str, float]] = await card.evaluate(CONTRAST)
    assert ratios
    return [(name, ratio) for name, ratio in ratios if ratio < 4.5]


async def test_ten_days_as_bars_and_a_day_s_details(
    *,
    make_page: MakePage,
    goto: Goto,
    home_assistant: BrowserHomeAssistant,
    seasoned: PairedThermostat,
    screenshot: Screenshot,
    readme_picture: Screenshot,
) -> None:
    """The bars are the report's days, with their reasons; a tap opens the day; desktop and phone."""
    days = await report_days(home_assistant, seasoned.entity_id)
    assert [d["main_reason"] for d in days[2:8]] == [
        "schedule",
        None,
        "colder",
        "warmer",
        "adjusted",
        "away_more",
    ]
    path = await show_cards(home_assistant, seasoned.entity_id)
    english = card_strings("en")

    for width, height, dark in ((1280, 800, False), (390, 844, True)):
        page = await make_page(width=width, height=height, dark=dark)
        await goto(page, path)
        card = page.locator(CARD)
        await expect(card.get_by_text("Living room history")).to_be_visible()
        await check_bars(card, days)

        colder = days[4]
        await card.locator(f'button.bar[data-date="{colder["date"]}"]').click()
        details = card.locator(".details")
        await expect(details.get_by_text(english["reason_colder"])).to_be_visible()
        await expect(details.get_by_text("Heating stage 1: 6.5 h")).to_be_visible()
        await expect(details.get_by_text("Fan: 6.5 h")).to_be_visible()
        await expect(details.get_by_text("heating 14, cooling 0")).to_be_visible()
        await expect(details.get_by_text("eco 0 h, away 0 h")).to_be_visible()
        await expect(details.get_by_text(f"{english['source_schedule']}: 2")).to_be_visible()

        adjusted = days[6]
        await card.locator(f'button.bar[data-date="{adjusted["date"]}"]').click()
        await expect(details.get_by_text(english["reason_adjusted"])).to_be_visible()
        for source, count in (("person", 3), ("dial", 2), ("schedule", 2)):
            await expect(
                details.get_by_text(f"{english[f'source_{source}']}: {count}")
            ).to_be_visible()

        assert await overflowing(card) == []
        assert await low_contrast(card) == []
        if width > 800:
            await readme_picture(card, "history-card")
        else:
            await details.scroll_into_view_if_needed()
            await screenshot(page, "phone-dark")
        await card.get_by_role("button", name=english["close_day"]).click()
        await expect(details).to_have_count(0)


async def test_in_german_with_too_few_days_and_a_refusal(
    *,
    make_page: MakePage,
    goto: Goto,
    home_assistant: BrowserHomeAssistant,
    make_thermostat: MakeThermostat,
    pair: Pair,
    seasoned: PairedThermostat,
    screenshot: Screenshot,
) -> None:
    """In German: the bars and a day's details, a new thermostat's empty state, and an error."""
    new = await pair(await make_thermostat(**IDLE))
    days = await report_days(home_assistant, seasoned.entity_id)
    path = await show_cards(home_assistant, seasoned.entity_id, new.entity_id, "climate.keller")
    german = card_strings("de")

    page = await make_page(language="de")
    await goto(page, path)
    cards = page.locator(CARD)
    await expect(cards).to_have_count(3)
    history, empty, wrong = cards.nth(0), cards.nth(1), cards.nth(2)

    await expect(history.locator("button.bar")).to_have_count(10)
    warmer = days[5]
    label = await history.locator(f'button.bar[data-date="{warmer["date"]}"]').get_attribute(
        "aria-label"
    )
    assert label is not None
    assert label.endswith(german["reason_warmer"]), label
    assert "Heizen 1,25 Std." in label
    await history.locator(f'button.bar[data-date="{warmer["date"]}"]').click()
    details = history.locator(".details")
    await expect(details.get_by_text("Heizstufe 1: 1,25 Std.")).to_be_visible()
    await expect(details.get_by_text("Heizen 3, Kühlen 0")).to_be_visible()

    await expect(empty.get_by_text(german["history_empty"])).to_be_visible()
    # The action's refusal, in the integration's German.
    await expect(wrong.get_by_role("alert")).to_have_text(
        german["history_error"].replace(
            "{message}", "climate.keller ist kein Thermostat von Thermostat Cloud."
        )
    )

    for card in (history, empty, wrong):
        assert await low_contrast(card) == []
        shown = await shown_text(card)
        assert english_left(shown, card_strings("en"), german) == [], shown
        assert await overflowing(card) == []
    await screenshot(page, "german")
