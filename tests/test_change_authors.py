"""Who changed it: every setpoint, mode and preset change names its author.

A simulated thermostat over real TCP turns its dial and runs its schedule; a named user sets
the temperature from Home Assistant; an automation sets the mode; a hold, a vacation and the
APIs write too. What a user would see is checked: the climate entity's `changed_by`
attributes, the `thermostat_cloud_change` event with the very context of the call, and the
logbook's translated line for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.climate.const import (
    ATTR_HVAC_MODE,
    DOMAIN as CLIMATE_DOMAIN,
    SERVICE_SET_HVAC_MODE,
    SERVICE_SET_PRESET_MODE,
    SERVICE_SET_TEMPERATURE,
)
from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import Context, Event, HomeAssistant
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import MockUser, async_capture_events

from custom_components.thermostat_cloud import logbook
from custom_components.thermostat_cloud.const import DOMAIN, EVENT_CHANGE

from .conftest import SERIAL, PairedThermostat, PairThermostat
from .test_holds import TUESDAY_EVENING, at, move_to, pair_with_schedule
from .test_vacations import set_vacation


def changed_by(hass: HomeAssistant, paired: PairedThermostat) -> tuple[str, str]:
    """Return the climate entity's `changed_by` and `changed_by_name` attributes."""
    state = hass.states.get(paired.entity_id(CLIMATE_DOMAIN))
    assert state is not None
    return state.attributes.get("changed_by", ""), state.attributes.get("changed_by_name", "")


def logbook_line(hass: HomeAssistant, event: Event[Any]) -> dict[str, str]:
    """Return the logbook's entry for a change event, as Home Assistant's logbook describes it."""
    described: dict[str, Callable[[Event[Any]], dict[str, str]]] = {}

    def register(
        domain: str, event_type: str, describe: Callable[[Event[Any]], dict[str, str]]
    ) -> None:
        assert domain == DOMAIN
        described[event_type] = describe

    logbook.async_describe_events(hass, register)
    return described[str(event.event_type)](event)


async def set_temperature(hass: HomeAssistant, paired: PairedThermostat, **call: Any) -> None:
    """Set the climate entity's temperature with a context (`context=`)."""
    context = call.pop("context", None)
    await hass.services.async_call(
        CLIMATE_DOMAIN,
        SERVICE_SET_TEMPERATURE,
        {ATTR_ENTITY_ID: paired.entity_id(CLIMATE_DOMAIN), **call},
        blocking=True,
        context=context,
    )


async def test_the_dial_a_named_person_and_an_automation_are_told_apart(
    hass: HomeAssistant, hass_admin_user: MockUser, pair_thermostat: PairThermostat
) -> None:
    """Three changes, three authors, each on the entity, in its event and in the logbook."""
    paired = await pair_thermostat()
    events = async_capture_events(hass, EVENT_CHANGE)
    assert changed_by(hass, paired) == ("", "")  # the thermostat's first report is no one's

    await paired.thermostat.turn_dial(22.5)
    await hass.async_block_till_done()
    assert changed_by(hass, paired) == ("thermostat", "dial")
    assert logbook_line(hass, events[-1])["message"] == (
        "target temperature changed at the thermostat's ring"
    )

    context = Context(user_id=hass_admin_user.id)
    await set_temperature(hass, paired, temperature=19.5, context=context)
    await paired.pushed("shared", target_temperature=19.5)
    assert changed_by(hass, paired) == ("person", "Mock User")
    assert events[-1].context is context  # Home Assistant's own context, not a copy
    assert events[-1].data["changes"] == ["setpoint"]
    climate = hass.states.get(paired.entity_id(CLIMATE_DOMAIN))
    assert climate is not None
    assert logbook_line(hass, events[-1]) == {
        "name": climate.name,
        "message": "target temperature changed by Mock User",
        "entity_id": paired.entity_id(CLIMATE_DOMAIN),
    }

    assert await async_setup_component(
        hass,
        "automation",
        {
            "automation": {
                "alias": "Cool down at night",
                "trigger": {"platform": "event", "event_type": "night_fell"},
                "action": {
                    "action": "climate.set_hvac_mode",
                    "target": {"entity_id": paired.entity_id(CLIMATE_DOMAIN)},
                    "data": {ATTR_HVAC_MODE: "cool"},
                },
            }
        },
    )
    hass.bus.async_fire("night_fell")
    await hass.async_block_till_done()
    await paired.pushed("shared", target_temperature_type="cool")
    assert changed_by(hass, paired) == ("automation", "Cool down at night")
    automation = hass.states.get("automation.cool_down_at_night")
    assert automation is not None
    assert events[-1].context.id == automation.context.id
    assert events[-1].data["changes"] == ["mode"]
    assert logbook_line(hass, events[-1])["message"] == (
        "mode changed by the automation Cool down at night"
    )


async def test_the_logbook_speaks_home_assistants_language(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A change by the dial reads in German on a German Home Assistant."""
    await hass.config.async_update(language="de")
    paired = await pair_thermostat()
    events = async_capture_events(hass, EVENT_CHANGE)
    await paired.thermostat.turn_dial(22.5)
    await hass.async_block_till_done()
    assert logbook_line(hass, events[-1])["message"] == (
        "Solltemperatur am Drehring des Thermostats geändert"
    )


async def test_the_thermostats_schedule_is_not_the_dial(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """The entry that just began moved the setpoint: the schedule's; a turn after: the dial's."""
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_with_schedule(hass, pair_thermostat)
    # WEEK_SCHEDULE: 17.5 °C from 22:00 on Tuesdays.
    night = at("2026-11-24 22:01:00-08:00")
    await move_to(hass, freezer, night)
    await paired.thermostat.reach_schedule_entry(night.replace(tzinfo=None))
    await hass.async_block_till_done()
    assert changed_by(hass, paired) == ("thermostat", "schedule")

    await paired.thermostat.turn_dial(20)
    await hass.async_block_till_done()
    assert changed_by(hass, paired) == ("thermostat", "dial")


async def test_a_hold_a_preset_and_the_hubs_away_switch_name_their_author(
    hass: HomeAssistant,
    hass_admin_user: MockUser,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
) -> None:
    """A hold's end is the hold's; the away switch and a preset are the person's who used them."""
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_with_schedule(hass, pair_thermostat)
    context = Context(user_id=hass_admin_user.id)
    await hass.services.async_call(
        DOMAIN,
        "hold",
        {ATTR_ENTITY_ID: paired.entity_id(CLIMATE_DOMAIN), "temperature": 23, "duration": "01:00"},
        blocking=True,
        context=context,
    )
    await paired.pushed("shared", target_temperature=23)
    assert changed_by(hass, paired) == ("person", "Mock User")

    await move_to(hass, freezer, at("2026-11-24 21:00:30-08:00"))
    await paired.pushed("shared", target_temperature=21)
    assert changed_by(hass, paired) == ("rule", "hold")

    await hass.services.async_call(
        CLIMATE_DOMAIN,
        SERVICE_SET_PRESET_MODE,
        {ATTR_ENTITY_ID: paired.entity_id(CLIMATE_DOMAIN), "preset_mode": "eco"},
        blocking=True,
        context=context,
    )
    await paired.pushed("device")
    assert changed_by(hass, paired) == ("person", "Mock User")


async def test_an_action_without_a_user_is_home_assistants(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A call with no user, automation or script behind it (an integration's) is Home Assistant's."""
    paired = await pair_thermostat()
    await hass.services.async_call(
        CLIMATE_DOMAIN,
        SERVICE_SET_HVAC_MODE,
        {ATTR_ENTITY_ID: paired.entity_id(CLIMATE_DOMAIN), ATTR_HVAC_MODE: "cool"},
        blocking=True,
    )
    await paired.pushed("shared", target_temperature_type="cool")
    assert changed_by(hass, paired) == ("host", "")


async def test_the_vacation_rule_names_itself(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """A vacation that begins now sets the home away as the vacation's change."""
    freezer.move_to(at(TUESDAY_EVENING))
    paired = await pair_thermostat()
    await set_vacation(hass, start="2026-11-24 20:30:00", end="2026-11-28 18:00:00")
    await move_to(hass, freezer, at("2026-11-24 20:30:30-08:00"))
    assert changed_by(hass, paired) == ("rule", "vacation")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"changes": ["setpoint", "mode"], "by": "api", "by_name": ""}, "by the control API"),
        ({"changes": ["preset"], "by": "api", "by_name": "Phone"}, "by the API key Phone"),
        (
            {"changes": ["preset"], "by": "rule", "by_name": "not_yet_a_rule"},
            "by a Thermostat Cloud rule",
        ),
        ({"changes": ["preset"], "by": "person", "by_name": ""}, "by a person in Home Assistant"),
    ],
)
async def test_every_author_reads_as_a_sentence(
    hass: HomeAssistant, data: dict[str, Any], message: str
) -> None:
    """The control API, a key, a rule not translated yet, a person without a name."""
    described = logbook_line(
        hass, Event(EVENT_CHANGE, {"entity_id": None, "serial": SERIAL, **data})
    )
    assert described["message"].endswith(message)
    assert described["name"] == SERIAL
