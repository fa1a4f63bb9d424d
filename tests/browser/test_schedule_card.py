"""The weekly schedule card on a dashboard, in Chromium against a real Home Assistant."""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
import re
from typing import Any
from zoneinfo import ZoneInfo

from playwright.async_api import Locator, Page, expect
import pytest

from tests.browser.harness import (
    LIVING_ROOM,
    BrowserHomeAssistant,
    Goto,
    MakePage,
    MakeThermostat,
    Pair,
    PairedThermostat,
    Screenshot,
)
from tests.browser.walkthrough import CARD, DASHBOARD, put_card_on_dashboard

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def heat(time: int, temp: float) -> dict[str, Any]:
    """Return a heating setpoint as firmware stores it."""
    return {"time": time, "temp": temp, "type": "HEAT", "entry_type": "setpoint"}


WORKDAY = {
    "0": heat(6 * 3600 + 1800, 21.0),
    "1": heat(8 * 3600, 18.0),
    "2": heat(17 * 3600, 21.0),
    "3": heat(22 * 3600 + 1800, 17.0),
}
WEEKEND = {"0": heat(8 * 3600, 21.0), "1": heat(23 * 3600, 17.0)}
SCHEDULE: dict[str, Any] = {
    "ver": 2,
    "name": "Week",
    "schedule_mode": "HEAT",
    "days": {str(day): WORKDAY if day < 5 else WEEKEND for day in range(7)},
}
"""What the thermostat reports: days 0 (Monday) to 4 workdays, 5 and 6 the weekend."""

BLANK_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
)
"""A 1x1 transparent PNG."""

type ShowCard = Callable[..., Awaitable[tuple[PairedThermostat, Locator]]]


@pytest.fixture
def show_card(
    home_assistant: BrowserHomeAssistant, make_thermostat: MakeThermostat, pair: Pair, goto: Goto
) -> ShowCard:
    """Pair a thermostat that reports its schedule, put the card on the dashboard, open it."""

    async def show(
        page: Page, schedule: dict[str, Any] = SCHEDULE, **device: Any
    ) -> tuple[PairedThermostat, Locator]:
        thermostat = await make_thermostat(
            **{**LIVING_ROOM, "device": {**LIVING_ROOM["device"], **device}}
        )
        paired = await pair(thermostat)
        await thermostat.put(f"schedule.{paired.serial}", schedule)
        path = await put_card_on_dashboard(home_assistant.client, paired.entity_id)
        await goto(page, path)
        card = page.locator(CARD)
        await expect(card.get_by_text("Living room schedule")).to_be_visible()
        await expect(card.get_by_role("button", name="Edit Monday")).to_be_visible()
        return paired, card

    return show


async def save(card: Locator, paired: PairedThermostat) -> dict[str, Any]:
    """Press the card's Save; return the schedule the thermostat is sent."""
    await card.get_by_role("button", name="Save").click()
    return dict((await paired.thermostat.next_object(f"schedule.{paired.serial}"))["value"])


async def edit(card: Locator, day: str) -> Locator:
    """Open a day in the card's editor, as a person does, and return the editor."""
    await card.get_by_role("button", name=f"Edit {day}").click()
    return card.locator(".editor")


async def test_change_a_setpoint_and_save(
    page: Page, show_card: ShowCard, screenshot: Screenshot, readme_picture: Screenshot
) -> None:
    """A person moves Monday's morning setpoint to 22.5 °C and saves: the thermostat gets the week.

    The whole schedule in one push, Monday changed, every other day as it was.
    """
    paired, card = await show_card(page)
    await readme_picture(page, "schedule-card")

    editor = await edit(card, "Monday")
    morning = editor.get_by_role("spinbutton", name="Heat").first
    await expect(morning).to_have_value("21")
    await morning.fill("22.5")
    await morning.press("Tab")
    await screenshot(page, "monday-edited")

    sent = await save(card, paired)
    assert sent["days"]["0"]["0"] == heat(6 * 3600 + 1800, 22.5)
    assert {day: sent["days"][day] for day in "123456"} == {
        day: SCHEDULE["days"][day] for day in "123456"
    }
    await expect(card.get_by_text("Saved")).to_be_visible()
    await screenshot(page, "saved")


async def test_copy_a_day_and_a_change_on_the_thermostat_shows(
    page: Page, show_card: ShowCard, screenshot: Screenshot
) -> None:
    """Monday copied onto the weekend is what the thermostat gets; its own later edit shows."""
    paired, card = await show_card(page)
    editor = await edit(card, "Monday")
    for day in ("Sat", "Sun"):
        await editor.get_by_role("checkbox", name=day).check()
    await editor.get_by_role("button", name="Copy", exact=True).click()
    sent = await save(card, paired)
    assert sent["days"]["5"] == sent["days"]["6"] == WORKDAY

    # Learning (or the dial) moves Sunday's first setpoint on the thermostat: the card follows.
    sunday = {**WORKDAY, "0": heat(6 * 3600 + 1800, 19.5)}
    await paired.thermostat.put(
        f"schedule.{paired.serial}", {"days": {**sent["days"], "6": sunday}}
    )
    await expect(card.locator(".segment", has_text="19.5")).to_be_visible()
    await screenshot(page, "changed-on-thermostat")


async def test_bad_input_is_refused_before_anything_is_sent(
    page: Page, show_card: ShowCard, screenshot: Screenshot
) -> None:
    """Two setpoints at one time and a temperature out of range: said in the card, Save off."""
    _, card = await show_card(page)
    editor = await edit(card, "Tuesday")
    await editor.get_by_label("Time").nth(1).fill("06:30")
    await editor.get_by_label("Time").nth(1).press("Tab")
    await editor.get_by_role("spinbutton", name="Heat").nth(2).fill("35")
    await editor.get_by_role("spinbutton", name="Heat").nth(2).press("Tab")

    alert = card.get_by_role("alert")
    await expect(alert).to_contain_text("Tuesday 6:30 AM: two setpoints at the same time.")
    await expect(alert).to_contain_text("temperatures must be 4.5 °C to 32 °C")
    await expect(card.get_by_role("button", name="Save")).to_be_disabled()
    await screenshot(page, "refused")


async def test_learning_on_is_explained_and_turned_off_on_save(
    page: Page, show_card: ShowCard, screenshot: Screenshot
) -> None:
    """With learning on the card says what it does, and saving turns it off in the same push."""
    paired, card = await show_card(page, learning_mode=True)
    await expect(card.get_by_text(re.compile("Learning is on"))).to_be_visible()
    await expect(card.get_by_role("checkbox", name="Turn learning off when saving")).to_be_checked()
    await screenshot(page, "learning")

    editor = await edit(card, "Friday")
    await editor.get_by_role("button", name="Remove setpoint").first.click()
    await card.get_by_role("button", name="Save").click()

    thermostat = paired.thermostat
    while (chunk := await thermostat.next_chunk()) and not any(
        obj["object_key"] == f"schedule.{paired.serial}" for obj in chunk.objects
    ):
        pass
    values = {obj["object_key"]: obj["value"] for obj in chunk.objects}
    assert len(values[f"schedule.{paired.serial}"]["days"]["4"]) == 3
    assert values[f"device.{paired.serial}"]["learning_mode"] is False
    await expect(card.get_by_text(re.compile("Learning is on"))).to_be_hidden()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
async def test_the_card_on_a_phone(
    make_page: MakePage, show_card: ShowCard, screenshot: Screenshot, dark: bool
) -> None:
    """At 390 x 844 the week and a day's editor fit the screen, in the light and dark theme."""
    page = await make_page(width=390, height=844, dark=dark)
    _, card = await show_card(page)
    editor = await edit(card, "Wednesday")
    await expect(editor).to_be_visible()
    await editor.scroll_into_view_if_needed()
    box = await card.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 390
    overflowing = await card.evaluate(
        "card => [...card.shadowRoot.querySelectorAll('*')]"
        ".filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5)"
        ".map(el => el.className || el.tagName)"
    )
    assert overflowing == []
    background = await card.evaluate(
        "card => getComputedStyle(card.shadowRoot.querySelector('ha-card')).backgroundColor"
    )
    channels = [int(c) for c in re.findall(r"\d+", background)[:3]]
    # The theme's card background: dark in the dark theme, light in the light one.
    assert (sum(channels) / 3 < 100) is dark, background
    await screenshot(page, "phone")


async def test_add_the_card_from_the_card_picker(
    page: Page, show_card: ShowCard, home_assistant: BrowserHomeAssistant, screenshot: Screenshot
) -> None:
    """The picker offers "Thermostat schedule"; its editor comes with a thermostat chosen."""
    # The picker previews some of Home Assistant's cards with pictures from its demo site: a
    # blank picture each, so nothing leaves the machine.
    await page.route(
        "https://demo.home-assistant.io/stub_config/**",
        lambda route: route.fulfill(body=BLANK_PNG, content_type="image/png"),
    )
    paired, _ = await show_card(page)
    await page.get_by_role("button", name="Edit dashboard").click()
    await page.get_by_role("button", name="Add card").click()
    dialog = page.locator("hui-dialog-create-card")
    await dialog.get_by_role("tab", name="By card").click()
    await dialog.locator("hui-card-picker").get_by_role("textbox").first.fill("Thermostat schedule")
    await screenshot(page, "picker")
    await dialog.locator(".card", has_text="Thermostat schedule").click()
    editor = page.locator("thermostat-cloud-schedule-card-editor")
    await expect(editor.locator("ha-form")).to_be_visible()
    await screenshot(page, "editor")
    await (
        page.locator("hui-dialog-edit-card ha-dialog-footer")
        .get_by_role("button", name="Save")
        .click()
    )
    await expect(page.locator("hui-dialog-edit-card")).to_be_hidden()

    config = await home_assistant.client.websocket(
        {"type": "lovelace/config", "url_path": DASHBOARD}
    )
    cards = config["views"][0]["cards"]
    assert len(cards) == 2
    added = cards[1]
    assert added["type"] == f"custom:{CARD}"
    # The first of the integration's thermostats (earlier tests of the session paired others).
    entities = await home_assistant.client.websocket({"type": "config/entity_registry/list"})
    ours = {e["entity_id"] for e in entities if e["platform"] == "thermostat_cloud"}
    assert added["entity"] in ours
    assert added["entity"].startswith("climate.")
    assert paired.entity_id in ours


async def test_a_fahrenheit_home_edits_in_fahrenheit(
    page: Page, show_card: ShowCard, home_assistant: BrowserHomeAssistant, screenshot: Screenshot
) -> None:
    """In a Fahrenheit home the card shows and takes °F; the thermostat still gets °C."""
    client = home_assistant.client
    await client.websocket({"type": "config/core/update", "unit_system": "us_customary"})
    try:
        paired, card = await show_card(page)
        morning = (await edit(card, "Monday")).get_by_role("spinbutton", name="Heat").first
        await expect(morning).to_have_value("70")  # 21 °C
        await morning.fill("72")
        await morning.press("Tab")
        await screenshot(page, "fahrenheit")
        sent = await save(card, paired)
        # 72 °F is 22.2 °C, which the thermostat takes in its 0.5 °C steps.
        assert sent["days"]["0"]["0"] == heat(6 * 3600 + 1800, 22.0)
        assert sent["days"]["0"]["1"] == WORKDAY["1"]  # untouched: exactly as it was
    finally:
        await client.websocket({"type": "config/core/update", "unit_system": "metric"})


async def test_a_change_on_the_thermostat_over_unsaved_edits(
    page: Page, show_card: ShowCard, screenshot: Screenshot
) -> None:
    """Unsaved edits are kept and the card says the thermostat changed; the user may load it."""
    paired, card = await show_card(page)
    editor = await edit(card, "Monday")
    await editor.get_by_role("button", name="Remove setpoint").first.click()

    sunday = {**WEEKEND, "0": heat(9 * 3600, 20.0)}
    await paired.thermostat.put(
        f"schedule.{paired.serial}", {"days": {**SCHEDULE["days"], "6": sunday}}
    )
    notice = card.get_by_text(re.compile("The thermostat changed its schedule while you were"))
    await expect(notice).to_be_visible()
    # The edit is still there: Monday has three setpoints left.
    await expect(card.locator(".editor .entry")).to_have_count(3)
    await screenshot(page, "changed-under-edits")

    await card.get_by_role("button", name="Show the thermostat's schedule").click()
    await expect(notice).to_be_hidden()
    await expect(card.locator(".editor .entry")).to_have_count(4)
    await expect(card.locator(".segment", has_text=re.compile(r"^20$"))).to_be_visible()
    await expect(card.get_by_role("button", name="Save")).to_be_disabled()


async def test_the_card_shows_a_hold_and_resumes_the_schedule(
    page: Page,
    show_card: ShowCard,
    home_assistant: BrowserHomeAssistant,
    readme_picture: Screenshot,
) -> None:
    """A hold shows above the week with its end; Resume schedule ends it on the thermostat."""
    paired, card = await show_card(page)
    await home_assistant.client.websocket(
        {
            "type": "call_service",
            "domain": "thermostat_cloud",
            "service": "hold",
            "service_data": {"temperature": 23.5, "duration": "02:00:00"},
            "target": {"entity_id": paired.entity_id},
        }
    )
    hold = card.get_by_role("status").filter(has_text="Held at 23.5 °C until")
    await expect(hold).to_be_visible()
    await expect(hold).to_contain_text("then back to the schedule")
    await readme_picture(card, "schedule-card-hold")

    await hold.get_by_role("button", name="Resume schedule").click()
    await expect(hold).to_be_hidden()
    shared = f"shared.{paired.serial}"
    while paired.thermostat.local[shared].value.get("target_temperature") == 23.5:
        await paired.thermostat.next_chunk()


async def test_the_card_says_when_the_home_is_warm_for_an_arrival(
    page: Page,
    show_card: ShowCard,
    home_assistant: BrowserHomeAssistant,
    *,
    make_page: MakePage,
    goto: Goto,
    readme_picture: Screenshot,
) -> None:
    """Someone comes home tomorrow at 18:00: the card says by when and from when it heats.

    The thermostat said how fast it heats (its time-to-target) and keeps 15 °C in eco, so
    the home leaves eco that much ahead of 18:00. On a phone the line fits the screen.
    """
    _, card = await show_card(page, away_temperature_low=15.0, away_temperature_high=28.0)
    client = home_assistant.client
    config = await client.call("GET", "/api/config")
    tomorrow = (datetime.now(ZoneInfo(config["time_zone"])) + timedelta(days=1)).date()
    answer = await client.websocket(
        {
            "type": "call_service",
            "domain": "thermostat_cloud",
            "service": "set_arrival",
            "service_data": {"arrival": f"{tomorrow} 18:00:00"},
            "return_response": True,
        }
    )
    try:
        start = datetime.fromisoformat(answer["response"]["start"])
        assert start < datetime.fromisoformat(answer["response"]["arrival"])
        line = card.get_by_role("status").filter(has_text="Warm by")
        # English on a 12-hour clock: "Warm by 6:00 PM, heating from 4:47 PM".
        await expect(line).to_have_text(
            re.compile(
                rf"Warm by 6:00\s?PM, heating from {clock_12(start)}: someone is coming home\."
            )
        )
        await readme_picture(card, "schedule-card-arrival")

        phone = await make_page(width=390, height=844)
        await goto(phone, page.url.removeprefix(home_assistant.url))
        phone_line = phone.locator(CARD).get_by_role("status").filter(has_text="Warm by")
        await expect(phone_line).to_be_visible()
        box = await phone_line.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390

        await client.websocket(
            {"type": "call_service", "domain": "thermostat_cloud", "service": "cancel_arrival"}
        )
        await expect(line).to_be_hidden()
    finally:
        # The home is shared by the session's tests.
        await client.websocket(
            {"type": "call_service", "domain": "thermostat_cloud", "service": "cancel_arrival"}
        )


def clock_12(when: datetime) -> str:
    """Return a time as English writes it on a 12-hour clock, as a pattern (4:47 PM)."""
    hour = when.hour % 12 or 12
    return rf"{hour}:{when.minute:02d}\s?{'AM' if when.hour < 12 else 'PM'}"


# -- what the day lines draw ------------------------------------------------------------------------

HOUR = 3600
NARROW_DAYS: dict[str, Any] = {
    # A 16.5 °C half hour: too narrow for its number anywhere.
    "0": {"0": heat(6 * HOUR, 21.0), "1": heat(7 * HOUR, 16.5), "2": heat(7 * HOUR + 1800, 21.0)},
    # Two hours and a quarter of 16.5 °C: room for its number on a desktop, not on a phone.
    "1": {"0": heat(9 * HOUR, 16.5), "1": heat(11 * HOUR + 900, 20.0), "2": heat(23 * HOUR, 17.0)},
    # Nothing before the afternoon: the night and morning are Tuesday's 17 °C carried over.
    "2": {"0": heat(14 * HOUR, 19.5)},
}
NARROW: dict[str, Any] = {
    "ver": 2,
    "name": "Week",
    "schedule_mode": "HEAT",
    "days": {str(day): NARROW_DAYS.get(str(day), WEEKEND) for day in range(7)},
}
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def expected_segments(schedule: dict[str, Any], day: int) -> list[tuple[int, int, float, bool]]:
    """Return a day as the thermostat runs it: (start, end, °C, carried over), from midnight.

    Before the day's first setpoint the last one of the days before is in force.
    """
    days = [
        sorted(schedule["days"][str(d)].values(), key=lambda entry: entry["time"]) for d in range(7)
    ]
    entries = days[day]
    segments = []
    if not entries or entries[0]["time"] > 0:
        before = next(days[(day - back) % 7][-1] for back in range(1, 8) if days[(day - back) % 7])
        segments.append((0, entries[0]["time"] if entries else 86400, before["temp"], True))
    for index, entry in enumerate(entries):
        end = entries[index + 1]["time"] if index + 1 < len(entries) else 86400
        segments.append((entry["time"], end, entry["temp"], False))
    return segments


def css_rgb(value: str) -> tuple[float, float, float]:
    """Return a computed CSS colour (`rgb(...)` or `color(srgb ...)`) as sRGB channels 0 to 1."""
    numbers = [float(n) for n in re.findall(r"-?[\d.]+(?:e-?\d+)?", value)]
    assert len(numbers) >= 3, value
    if value.startswith("color("):
        return numbers[0], numbers[1], numbers[2]
    return numbers[0] / 255, numbers[1] / 255, numbers[2] / 255


def contrast(first: str, second: str) -> float:
    """Return WCAG 2's contrast ratio of two computed CSS colours."""

    def luminance(colour: str) -> float:
        linear = [
            c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in css_rgb(colour)
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


DRAWN = """line => [...line.querySelectorAll('.segment')].map(segment => {
    const label = segment.querySelector('.label');
    const room = segment.getBoundingClientRect();
    const drawn = label.getBoundingClientRect();
    return {
        shown: !label.hidden && drawn.width > 0,
        text: label.textContent.trim(),
        whole: drawn.left >= room.left && drawn.right <= room.right,
        title: segment.title,
        colour: getComputedStyle(label).color,
        background: getComputedStyle(segment).backgroundColor,
        width: room.width,
    };
})"""


@pytest.mark.parametrize(
    ("width", "dark"),
    [(1280, False), (1280, True), (390, False), (390, True)],
    ids=["desktop-light", "desktop-dark", "phone-light", "phone-dark"],
)
async def test_every_number_on_the_week_is_the_schedules_and_drawn_whole(
    make_page: MakePage, show_card: ShowCard, screenshot: Screenshot, width: int, dark: bool
) -> None:
    """Each day line shows the schedule's setpoints: every number shown is its segment's, whole.

    A segment too narrow for its number shows none (its value is on hover, and in the day's
    editor a tap opens), rather than a clipped "16" or "1" for 16.5. The night carried over
    from the day before has its number too, and says so on hover. Every number reads at
    4.5:1 or more on its colour, in the light and the dark theme.
    """
    page = await make_page(width=width, height=900, dark=dark)
    _, card = await show_card(page, NARROW)
    await expect(card.locator(".segment", has_text="19.5").first).to_be_visible()
    shown_numbers = 0
    for day, name in enumerate(DAY_NAMES):
        line = card.get_by_role("button", name=f"Edit {name}").locator(".line")
        drawn = await line.evaluate(DRAWN)
        expected = expected_segments(NARROW, day)
        assert len(drawn) == len(expected), (name, drawn)
        for segment, (start, end, celsius, carried) in zip(drawn, expected, strict=True):
            number = f"{celsius:g}"
            assert segment["text"] == number, (name, start, segment)
            assert f"{number} °C" in segment["title"], (name, start, segment)
            assert ("carried over from the day before" in segment["title"]) is carried
            if segment["shown"]:
                shown_numbers += 1
                assert segment["whole"], (name, start, segment)
                ratio = contrast(segment["colour"], segment["background"])
                assert ratio >= 4.5, (name, start, segment, ratio)
            # Four hours leave room for any number, on a phone too; half an hour for none.
            if end - start >= 4 * HOUR:
                assert segment["shown"], (name, start, segment)
            if end - start <= HOUR // 2:
                assert not segment["shown"], (name, start, segment)
    assert shown_numbers >= 14
    # Tuesday's 16.5 °C from 9:00 to 11:15: its number on a desktop, none on a phone.
    tuesday = await card.get_by_role("button", name="Edit Tuesday").locator(".line").evaluate(DRAWN)
    assert tuesday[1]["text"] == "16.5"
    assert tuesday[1]["shown"] is (width > 1000)
    await screenshot(page, "week")


async def set_state(
    home_assistant: BrowserHomeAssistant, entity_id: str, state: str, **attributes: Any
) -> None:
    """Set a sensor's state as an integration would (Home Assistant's REST API)."""
    client = home_assistant.client
    async with client.http.post(
        f"{client.running.control_url}/api/states/{entity_id}",
        json={"state": state, "attributes": attributes},
        headers={"Authorization": f"Bearer {client.running.token}"},
    ) as resp:
        assert resp.status in (200, 201), await resp.text()


async def follow_room(
    home_assistant: BrowserHomeAssistant, serial: str, sensors: list[str]
) -> None:
    """Choose the room sensors in the thermostat's reconfigure step, as its form does."""
    client = home_assistant.client
    subentries = await client.websocket(
        {"type": "config_entries/subentries/list", "entry_id": home_assistant.hub_entry_id}
    )
    (subentry_id,) = [s["subentry_id"] for s in subentries if s["unique_id"] == serial]
    flow = await client.call(
        "POST",
        "/api/config/config_entries/subentries/flow",
        {"handler": [home_assistant.hub_entry_id, "thermostat"], "subentry_id": subentry_id},
    )
    assert flow["step_id"] == "reconfigure", flow
    done = await client.call(
        "POST",
        f"/api/config/config_entries/subentries/flow/{flow['flow_id']}",
        {"followed_sensors": sensors},
    )
    assert done["reason"] == "reconfigure_successful", done


async def test_the_card_says_which_room_sensor_is_in_control(
    page: Page,
    show_card: ShowCard,
    home_assistant: BrowserHomeAssistant,
    readme_picture: Screenshot,
) -> None:
    """The room sensor in control shows over the week; none giving a reading, a warning."""
    paired, card = await show_card(page)
    temperature = {"unit_of_measurement": "°C", "device_class": "temperature"}
    await set_state(
        home_assistant,
        "sensor.living_room_temperature",
        "19.5",
        friendly_name="Living room temperature",
        **temperature,
    )
    await follow_room(home_assistant, paired.serial, ["sensor.living_room_temperature"])
    note = card.get_by_role("status").filter(has_text="The room's temperature is in control")
    await expect(note).to_contain_text("Living room temperature")
    await readme_picture(card, "schedule-card-room")

    await set_state(home_assistant, "sensor.attic_temperature", "unavailable", **temperature)
    await follow_room(home_assistant, paired.serial, ["sensor.attic_temperature"])
    await expect(note).to_be_hidden()
    await expect(
        card.get_by_role("status").filter(has_text="The room sensors give no temperature")
    ).to_be_visible()
