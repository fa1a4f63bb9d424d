"""The home's monthly report: made on the 1st, delivered in Home Assistant's language.

The service builds the figures of the month before from the days it keeps (server/core/
monthly.py) and notes the month reported in its store, so a report is never made twice, across
restarts too. This module only schedules it (just after local midnight every day, and at start
for a month whose 1st passed while Home Assistant was down), and delivers it: a persistent
notification, the `thermostat_cloud_monthly_report` event with the figures, and a message to the
notify action chosen in the options.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date, timedelta
import logging
from typing import Any

from homeassistant.components import persistent_notification
from homeassistant.components.notify.const import DOMAIN as NOTIFY_DOMAIN
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers.event import async_track_time_change
from homeassistant.helpers.translation import async_get_translations
from homeassistant.util import dt as dt_util

from .const import CONF_REPORT_NOTIFY, DOMAIN, EVENT_MONTHLY_REPORT, REPORT_NOTIFY_NONE
from .energy import subentry_rates
from .server import ThermostatService, month_before, month_key, month_range

_LOGGER = logging.getLogger(__name__)


ENERGY_UNITS = {"electricity": "kWh", "gas": "m³"}


def month_health_findings(
    service: ThermostatService, serials: list[str], month: date
) -> dict[str, int]:
    """Return the health findings raised in the month (local time), counted per kind."""
    first, last = month_range(month)
    start = dt_util.start_of_local_day(first)
    end = dt_util.start_of_local_day(last + timedelta(days=1))
    counts: dict[str, int] = {}
    for serial in serials:
        for kind, count in service.health.raised_between(serial, start, end).items():
            counts[kind] = counts.get(kind, 0) + count
    return counts


async def _async_prices(hass: HomeAssistant) -> dict[str, float]:
    """Return the price of a kWh and of a m³ of gas from the energy dashboard's price entities."""
    if "energy" not in hass.config.components:
        return {}
    from homeassistant.components.energy.data import async_get_manager  # noqa: PLC0415

    manager = await async_get_manager(hass)
    data: Mapping[str, Any] = manager.data or {}
    prices: dict[str, float] = {}
    for source in data.get("energy_sources", []):
        kind = {"grid": "electricity", "gas": "gas"}.get(str(source.get("type")))
        # A grid source names its price itself (or, as saved before, on each flow from it).
        flows: list[Mapping[str, Any]] = [source, *source.get("flow_from", [])]
        for flow in flows:
            state = hass.states.get(str(flow.get("entity_energy_price")))
            try:
                price = float(state.state) if state is not None else None
            except ValueError:
                price = None
            if kind is not None and price is not None and kind not in prices:
                prices[kind] = price
    return prices


def _message(
    texts: Mapping[str, str], report: Mapping[str, Any], names: Mapping[str, str], currency: str
) -> str:
    """Return the report in words, one line a figure."""

    def text(key: str, **values: object) -> str:
        found = texts.get(f"component.{DOMAIN}.common.monthly_{key}", key)
        return found.format(**values) if values else found

    lines = [
        text("runtime", heating=report["heating_hours"], cooling=report["cooling_hours"]),
        *(
            text(f"energy_{kind}", amount=amount, unit=ENERGY_UNITS[kind])
            for kind, amount in report["energy"].items()
            if kind in ENERGY_UNITS
        ),
    ]
    if report["cost"]:
        lines.append(text("cost", cost=round(sum(report["cost"].values()), 2), currency=currency))
    for name in ("last_month", "last_year"):
        if (against := report[f"against_{name}"]) is not None:
            how = "normalised" if against["normalised"] else "plain"
            lines.append(text(f"against_{name}_{how}", change=f"{against['change_percent']:+}"))
    if report["top_reasons"]:
        reasons = ", ".join(
            text("reason", reason=text(f"reason_{r['reason']}"), days=r["days"])
            for r in report["top_reasons"]
        )
        lines.append(text("reasons", reasons=reasons))
    lines.append(
        text("hours", eco=report["eco_hours"], away=report["away_hours"], leaf=report["leaf_hours"])
    )
    lines.append(text("health", count=sum(report["health_findings"].values())))
    due = [
        names.get(serial, serial)
        for serial, f in report["filters"].items()
        if f.get("replacement_needed")
    ]
    lines.append(text("filters_due", names=", ".join(due)) if due else text("filters_fine"))
    return "\n".join(f"- {line}" for line in lines)


async def async_make_monthly_report(
    hass: HomeAssistant, entry: ConfigEntry, service: ThermostatService
) -> None:
    """Make the report of the month before today, unless it was made (or had too little data)."""
    month = month_before(dt_util.now().date())
    key = month_key(month)

    def reported() -> bool:
        return service.days.reported_month is not None and service.days.reported_month >= key

    if reported():
        return
    prices = await _async_prices(hass)
    # No await from this look to the month noted: a start and the timer never both report it.
    if reported():
        return
    names = {s.unique_id: s.title for s in entry.subentries.values() if s.unique_id is not None}
    serials = sorted(names)
    report = service.monthly_report(
        month,
        serials,
        rates={
            s.unique_id: subentry_rates(s.data) for s in entry.subentries.values() if s.unique_id
        },
        prices=prices,
        health_findings=month_health_findings(service, serials, month),
    )
    # Noted before delivering: a delivery that fails is not retried into a second report.
    service.days.mark_reported(key)
    if report is None:
        _LOGGER.info("No monthly report for %s: fewer than the days with data it needs", key)
        return
    texts = await async_get_translations(hass, hass.config.language, "common", [DOMAIN])
    title = texts.get(f"component.{DOMAIN}.common.monthly_title", "{month}").format(month=key)
    message = _message(texts, report, names, hass.config.currency)
    persistent_notification.async_create(hass, message, title, f"{DOMAIN}_monthly_report_{key}")
    hass.bus.async_fire(EVENT_MONTHLY_REPORT, report)
    target = str(entry.options.get(CONF_REPORT_NOTIFY, REPORT_NOTIFY_NONE))
    if target == REPORT_NOTIFY_NONE:
        return
    try:
        await hass.services.async_call(
            NOTIFY_DOMAIN, target, {"title": title, "message": message}, blocking=True
        )
    except HomeAssistantError as err:
        _LOGGER.warning("The monthly report could not be sent to notify.%s: %s", target, err)


@callback
def async_follow_monthly_report(
    hass: HomeAssistant, entry: ConfigEntry, service: ThermostatService
) -> Callable[[], None]:
    """Make the month's report now if it is due, then look again every day after midnight."""

    async def check(*_: Any) -> None:
        await async_make_monthly_report(hass, entry, service)

    entry.async_create_background_task(hass, check(), f"{DOMAIN} monthly report")
    return async_track_time_change(hass, check, hour=0, minute=0, second=30)
