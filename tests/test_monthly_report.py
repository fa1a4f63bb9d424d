"""The home's monthly report in Home Assistant, with a simulated thermostat over real TCP.

The home is in US/Pacific (the test harness's time zone). The thermostat heats half an hour
every morning; the clock is moved with the freezer and Home Assistant's timers fire as they fall due
(`move_to`), so the report is made by the same daily timer as in a running home.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import persistent_notification
from homeassistant.components.persistent_notification import UpdateType
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.data_entry_flow import FlowResultType
from pytest_homeassistant_custom_component.common import async_capture_events

from custom_components.thermostat_cloud.const import (
    CONF_REPORT_NOTIFY,
    DOMAIN,
    EVENT_MONTHLY_REPORT,
)
from custom_components.thermostat_cloud.server import MIN_DAYS_WITH_DATA

from .conftest import SERIAL, PairedThermostat, PairThermostat
from .test_holds import at, move_to
from .test_vacations import down_until

SHARED = f"shared.{SERIAL}"
FIRST_OF_NOVEMBER = "2026-11-01 00:00:30-07:00"
"""Just after midnight on the 1st (the daily look is at 00:00:30)."""


async def heat_mornings(
    hass: HomeAssistant,
    paired: PairedThermostat,
    freezer: FrozenDateTimeFactory,
    first: date,
    last: date,
) -> None:
    """Each day from `first` to `last`: heat from 08:00 to 08:30, in touch every five minutes."""
    day = first
    while day <= last:
        start = at(f"{day.isoformat()} 08:00:00-07:00")
        await move_to(hass, freezer, start)
        await paired.thermostat.put(SHARED, {"hvac_heater_state": True})
        for step in range(1, 7):
            await move_to(hass, freezer, start + timedelta(minutes=5 * step))
            await paired.thermostat.put(f"device.{SERIAL}", {"current_humidity": 40 + step % 3})
        await paired.thermostat.put(SHARED, {"hvac_heater_state": False})
        await hass.async_block_till_done()
        day += timedelta(days=1)


async def paired_heating_from(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
    first: date,
) -> PairedThermostat:
    """Pair on `first` at 07:00 and heat half an hour every morning up to 31 October."""
    freezer.move_to(at(f"{first.isoformat()} 07:00:00-07:00"))
    paired = await pair_thermostat()
    await heat_mornings(hass, paired, freezer, first, date(2026, 10, 31))
    return paired


def follow_notifications(hass: HomeAssistant) -> dict[str, Any]:
    """Return the persistent notifications shown, by id, as the frontend is told of them."""
    shown: dict[str, Any] = {}

    def updated(update_type: UpdateType, notifications: dict[str, Any]) -> None:
        if update_type is UpdateType.ADDED:
            shown.update({key: n for key, n in notifications.items() if key.startswith(DOMAIN)})

    persistent_notification.async_register_callback(hass, updated)
    return shown


async def choose_notify_action(hass: HomeAssistant, paired: PairedThermostat, name: str) -> None:
    """Choose the notify action in the hub's options, as a user does; it must be offered."""
    result = await hass.config_entries.options.async_init(paired.entry.entry_id)
    schema = result["data_schema"]
    assert schema is not None
    (field,) = (key for key in schema.schema if str(key) == CONF_REPORT_NOTIFY)
    assert field.default() == "none"
    offered = [o["value"] for o in schema.schema[field].config["options"]]
    assert offered == ["none", name]
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        {"entry_key_minutes": 60, "compat_api": False, CONF_REPORT_NOTIFY: name},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert paired.entry.options[CONF_REPORT_NOTIFY] == name


async def test_the_first_of_the_month_brings_one_report_to_the_chosen_notify_action(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Twelve half hours of heating in October: one report on 1 November, and one only."""
    sent: list[ServiceCall] = []

    async def phone(call: ServiceCall) -> None:
        sent.append(call)

    hass.services.async_register("notify", "phone", phone)
    reports = async_capture_events(hass, EVENT_MONTHLY_REPORT)
    notifications = follow_notifications(hass)
    paired = await paired_heating_from(hass, pair_thermostat, freezer, date(2026, 10, 20))
    await choose_notify_action(hass, paired, "phone")
    assert reports == []

    await move_to(hass, freezer, at(FIRST_OF_NOVEMBER))
    (report,) = reports
    assert report.data["month"] == "2026-10"
    assert report.data["days_with_data"] == 12
    assert report.data["runtime_hours"] == {"heating_stage_1": 6.0}
    assert report.data["against_last_month"] is None  # paired in October: nothing before
    (shown,) = notifications.values()
    assert shown["title"] == "Your home's monthly report: 2026-10"
    assert "- Heating ran 6.0 h, cooling 0.0 h." in shown["message"]
    assert "- No filter needs replacing." in shown["message"]
    (message,) = sent
    assert message.data == {"title": shown["title"], "message": shown["message"]}

    # The next day's look, and a restart: the month was reported.
    await move_to(hass, freezer, at("2026-11-02 00:00:30-08:00"))
    await down_until(hass, freezer, paired, "2026-11-02 08:00:00-08:00")
    assert len(reports) == 1
    assert len(sent) == 1


async def test_a_restart_across_the_first_makes_the_report_once(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """Home Assistant down over midnight: the report comes at start, and not again after."""
    reports = async_capture_events(hass, EVENT_MONTHLY_REPORT)
    paired = await paired_heating_from(hass, pair_thermostat, freezer, date(2026, 10, 18))
    await move_to(hass, freezer, at("2026-10-31 23:50:00-07:00"))
    await down_until(hass, freezer, paired, "2026-11-01 00:10:00-07:00")
    assert [r.data["month"] for r in reports] == ["2026-10"]
    await down_until(hass, freezer, paired, "2026-11-01 00:20:00-07:00")
    assert len(reports) == 1


async def test_a_month_with_too_few_days_brings_no_report(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
) -> None:
    """Paired on 28 October: four days with data, fewer than the rule's."""
    assert MIN_DAYS_WITH_DATA > 4
    reports = async_capture_events(hass, EVENT_MONTHLY_REPORT)
    notifications = follow_notifications(hass)
    await paired_heating_from(hass, pair_thermostat, freezer, date(2026, 10, 28))
    await move_to(hass, freezer, at(FIRST_OF_NOVEMBER))
    assert reports == []
    assert notifications == {}
