"""Vacations: the `set_vacation` action and the vacations calendar.

A simulated thermostat over real TCP; the clock is moved with the freezer and
`async_fire_time_changed`. Away is the home's: the structure bucket's `away`, pushed.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.calendar.const import DOMAIN as CALENDAR_DOMAIN
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import ATTR_ENTITY_ID, STATE_OFF, STATE_ON
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import device_registry as dr, entity_registry as er
from homeassistant.util import dt as dt_util
import probatio
import pytest
from pytest_homeassistant_custom_component.typing import MockHAClientWebSocket, WebSocketGenerator

from custom_components.thermostat_cloud.const import DOMAIN

from .conftest import SERIAL, PairedThermostat, PairThermostat, shown
from .test_holds import TUESDAY_EVENING, at, move_to, pair_with_schedule

OWN_ECO = {"away_temperature_low": 12.5, "away_temperature_high": 30.0}


async def pair_at_home(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory | None = None,
) -> PairedThermostat:
    """Pair a heating thermostat with its own eco temperatures and the week schedule.

    With the `freezer`, on Tuesday evening.
    """
    if freezer is not None:
        freezer.move_to(at(TUESDAY_EVENING))
    return await pair_with_schedule(hass, pair_thermostat, device=OWN_ECO)


async def create_event(hass: HomeAssistant, calendar: str, **fields: Any) -> None:
    """Create an event in the calendar, as its dialog does (`calendar.create_event`)."""
    await hass.services.async_call(
        CALENDAR_DOMAIN, "create_event", {ATTR_ENTITY_ID: calendar, **fields}, blocking=True
    )


async def in_calendar(
    client: MockHAClientWebSocket, action: str, calendar: str, uid: str, **fields: Any
) -> dict[str, Any]:
    """Update or delete an event as the calendar's dialog does (over the websocket); the answer."""
    await client.send_json_auto_id(
        {"type": f"calendar/event/{action}", "entity_id": calendar, "uid": uid, **fields}
    )
    return cast("dict[str, Any]", await client.receive_json())


@pytest.fixture
def tuesday_evening(freezer: FrozenDateTimeFactory) -> None:
    """Move the clock to Tuesday evening; with `usefixtures`, before the thermostat pairs."""
    freezer.move_to(at(TUESDAY_EVENING))


@pytest.fixture
async def paired(hass: HomeAssistant, pair_thermostat: PairThermostat) -> PairedThermostat:
    """Return a heating thermostat with its eco temperatures and week schedule, at home."""
    return await pair_at_home(hass, pair_thermostat)


def structure_key(paired: PairedThermostat) -> str:
    """Return the key of the home's structure bucket."""
    return f"structure.{paired.service.home().structure_id}"


def calendar_id(hass: HomeAssistant, paired: PairedThermostat) -> str:
    """Return the vacations calendar's entity id (on the hub's device)."""
    entity_id = er.async_get(hass).async_get_entity_id(
        CALENDAR_DOMAIN, DOMAIN, f"{paired.entry.entry_id}_vacations"
    )
    assert entity_id is not None
    return entity_id


async def set_vacation(hass: HomeAssistant, **data: Any) -> dict[str, Any]:
    """Call `set_vacation` and return its answer."""
    response = await hass.services.async_call(
        DOMAIN, "set_vacation", data, blocking=True, return_response=True
    )
    assert response is not None
    return dict(response)


async def listed(hass: HomeAssistant, paired: PairedThermostat) -> list[dict[str, Any]]:
    """Return the calendar's events of the next month, as `calendar.get_events` lists them."""
    entity_id = calendar_id(hass, paired)
    response = await hass.services.async_call(
        CALENDAR_DOMAIN,
        "get_events",
        {ATTR_ENTITY_ID: entity_id, "duration": {"days": 30}},
        blocking=True,
        return_response=True,
    )
    assert response is not None
    listing = cast("dict[str, Any]", response[entity_id])
    return list(listing["events"])


async def thermostat_has(paired: PairedThermostat, key: str, **fields: Any) -> None:
    """Wait until the thermostat's copy of a bucket has these values (pushed in any order)."""
    thermostat = paired.thermostat
    while not all(thermostat.local[key].value.get(name) == value for name, value in fields.items()):
        await thermostat.next_chunk()


def home_is_away(paired: PairedThermostat) -> bool:
    """Return whether the thermostat holds the home as away."""
    return paired.thermostat.local[structure_key(paired)].value.get("away") is True


async def away_on_vacation(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
    until: str,
) -> PairedThermostat:
    """Pair a thermostat at home on Tuesday evening; away from 20:30 on a vacation `until`."""
    paired = await pair_at_home(hass, pair_thermostat, freezer)
    await set_vacation(hass, start="2026-11-24 20:30:00", end=until)
    await move_to(hass, freezer, at("2026-11-24 20:30:01-08:00"))
    await thermostat_has(paired, structure_key(paired), away=True)
    return paired


async def down_until(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat, when: str
) -> None:
    """Stop the hub, start it again at `when`; the thermostat resubscribes a second later."""
    assert await hass.config_entries.async_unload(paired.entry.entry_id)
    await move_to(hass, freezer, at(when))
    assert await hass.config_entries.async_setup(paired.entry.entry_id)
    assert paired.entry.state is ConfigEntryState.LOADED
    await move_to(hass, freezer, at(when) + timedelta(seconds=2))


@pytest.mark.usefixtures("tuesday_evening")
async def test_a_vacation_puts_the_home_away_and_back_with_its_eco_temperatures(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """Away from the start with the vacation's eco temperatures; home and own eco at the end."""
    start, end = at("2026-11-24 21:00:00-08:00"), at("2026-11-27 18:00:00-08:00")
    answer = await set_vacation(
        hass, start="2026-11-24 21:00:00", end="2026-11-27 18:00:00", eco_low=10, eco_high=28
    )
    # No time-to-target seen yet: home at the end itself.
    assert dt_util.parse_datetime(answer["home_from"]) == end
    calendar = calendar_id(hass, paired)
    assert shown(hass, calendar) == STATE_OFF
    # On the hub's device, not a thermostat's: vacations are the home's.
    registered = er.async_get(hass).async_get(calendar)
    hub_device = dr.async_get(hass).async_get_device_by_identifier(
        (DOMAIN, paired.entry.entry_id), paired.entry.entry_id
    )
    assert registered is not None
    assert hub_device is not None
    assert registered.device_id == hub_device.id
    events = await listed(hass, paired)
    assert [
        (dt_util.parse_datetime(e["start"]), dt_util.parse_datetime(e["end"])) for e in events
    ] == [(start, end)]
    assert events[0]["summary"] == "Vacation"

    await move_to(hass, freezer, at("2026-11-24 21:00:01-08:00"))
    await thermostat_has(paired, structure_key(paired), away=True, manual_eco_all=True)
    await thermostat_has(
        paired, f"device.{SERIAL}", away_temperature_low=10, away_temperature_high=28
    )
    assert shown(hass, calendar) == STATE_ON

    await move_to(hass, freezer, at("2026-11-27 18:00:01-08:00"))
    await thermostat_has(paired, structure_key(paired), away=False)
    await thermostat_has(paired, f"device.{SERIAL}", **OWN_ECO)
    assert shown(hass, calendar) == STATE_OFF
    assert await listed(hass, paired) == []


async def heats_at_six_degrees_an_hour(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """Have the thermostat say it heats 3 °C in 30 minutes."""
    thermostat = paired.thermostat
    await thermostat.put(
        f"shared.{SERIAL}",
        {"current_temperature": 18.0, "target_temperature": 21.0, "hvac_heater_state": True},
    )
    now = dt_util.utcnow().timestamp()
    await thermostat.put(f"device.{SERIAL}", {"time_to_target": int(now + 1800)})
    await hass.async_block_till_done()


@pytest.mark.usefixtures("tuesday_evening")
async def test_the_home_is_back_in_time_to_reach_the_schedule(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """The thermostat said it heats 3 °C in 30 min (6 °C/h): from 15 to 21 °C is one hour.

    The vacation ends on a Tuesday at noon, when the schedule has 21 °C: home at 11:00.
    """
    await heats_at_six_degrees_an_hour(hass, paired)

    answer = await set_vacation(
        hass, start="2026-11-25 08:00:00", end="2026-12-01 12:00:00", eco_low=15, eco_high=28
    )
    home_from = at("2026-12-01 11:00:00-08:00")
    assert dt_util.parse_datetime(answer["home_from"]) == home_from

    await move_to(hass, freezer, at("2026-11-25 08:00:01-08:00"))
    await thermostat_has(paired, structure_key(paired), away=True)
    await move_to(hass, freezer, at("2026-12-01 10:59:00-08:00"))
    assert home_is_away(paired)
    await move_to(hass, freezer, at("2026-12-01 11:00:01-08:00"))
    await thermostat_has(paired, structure_key(paired), away=False)
    # The calendar lists the vacation until its end, not longer.
    assert len(await listed(hass, paired)) == 1
    await move_to(hass, freezer, at("2026-12-01 12:00:01-08:00"))
    assert await listed(hass, paired) == []
    assert not home_is_away(paired)


async def test_a_vacation_survives_a_restart(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """Home Assistant restarts during a vacation: it goes on, and the home is back on time."""
    paired = await away_on_vacation(hass, pair_thermostat, freezer, until="2026-11-26 09:00:00")

    assert await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()
    assert shown(hass, calendar_id(hass, paired)) == STATE_ON
    assert len(await listed(hass, paired)) == 1
    assert home_is_away(paired)

    await move_to(hass, freezer, at("2026-11-26 09:00:01-08:00"))
    await thermostat_has(paired, structure_key(paired), away=False)
    assert await listed(hass, paired) == []


async def test_a_vacation_that_ended_while_home_assistant_was_down_ends_at_start(
    hass: HomeAssistant, pair_thermostat: PairThermostat, freezer: FrozenDateTimeFactory
) -> None:
    """The end passed while the hub was stopped: the home is back as soon as it starts."""
    paired = await away_on_vacation(hass, pair_thermostat, freezer, until="2026-11-25 09:00:00")

    await down_until(hass, freezer, paired, "2026-11-25 12:00:00-08:00")
    await thermostat_has(paired, structure_key(paired), away=False)
    assert await listed(hass, paired) == []


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"start": "2026-11-26 10:00:00", "end": "2026-11-26 09:00:00"}, "end_not_after_start"),
        ({"start": "2026-11-20 10:00:00", "end": "2026-11-22 10:00:00"}, "end_in_past"),
        ({"start": "2026-12-02 10:00:00", "end": "2026-12-06 10:00:00"}, "vacations_overlap"),
        (
            {"start": "2026-12-20 10:00:00", "end": "2026-12-22 10:00:00", "eco_low": 3},
            "low_not_below_high",
        ),
        (
            {
                "start": "2026-12-20 10:00:00",
                "end": "2026-12-22 10:00:00",
                "eco_low": 3,
                "eco_high": 28,
            },
            "temperature_out_of_range",
        ),
        (
            {
                "start": "2026-12-20 10:00:00",
                "end": "2026-12-22 10:00:00",
                "eco_low": 20,
                "eco_high": 18,
            },
            "low_not_below_high",
        ),
    ],
)
@pytest.mark.usefixtures("tuesday_evening")
async def test_a_wrong_vacation_is_refused_and_changes_nothing(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    data: dict[str, Any],
    key: str,
    paired: PairedThermostat,
) -> None:
    """Each wrong vacation: a translated refusal; the calendar is as it was."""
    await set_vacation(hass, start="2026-12-01 10:00:00", end="2026-12-04 10:00:00")
    before = await listed(hass, paired)
    with pytest.raises(ServiceValidationError) as err:
        await set_vacation(hass, **data)
    assert err.value.translation_domain == DOMAIN
    assert err.value.translation_key == key
    if key == "vacations_overlap":
        # The other vacation, by the home's clock.
        assert err.value.translation_placeholders == {
            "start": "2026-12-01 10:00",
            "end": "2026-12-04 10:00",
        }
    assert await listed(hass, paired) == before


@pytest.mark.smoke("calendar")
async def test_the_calendar_creates_changes_and_deletes_vacations(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hass_ws_client: WebSocketGenerator,
    paired: PairedThermostat,
) -> None:
    """Home Assistant's calendar: create, move, delete; deleting one under way ends it now."""
    client = await hass_ws_client(hass)
    calendar = calendar_id(hass, paired)
    now = dt_util.now().replace(microsecond=0)
    start, end = now + timedelta(hours=1), now + timedelta(days=5)
    await create_event(
        hass,
        calendar,
        summary="Skiing",
        start_date_time=start.isoformat(),
        end_date_time=end.isoformat(),
    )
    (event,) = await listed(hass, paired)
    assert event["summary"] == "Skiing"
    assert dt_util.parse_datetime(event["start"]) == start

    # A whole-day event overlapping it: refused, translated.
    with pytest.raises(ServiceValidationError) as err:
        await create_event(
            hass,
            calendar,
            summary="Again",
            start_date=(end - timedelta(days=1)).date().isoformat(),
            end_date=(end + timedelta(days=1)).date().isoformat(),
        )
    assert err.value.translation_key == "vacations_overlap"

    uid = paired.service.vacations.vacations()[0].id
    later = end + timedelta(days=1)
    longer = {"summary": "Skiing, longer", "dtstart": start.isoformat(), "dtend": later.isoformat()}
    assert (await in_calendar(client, "update", calendar, uid, event=longer))["success"]
    (event,) = await listed(hass, paired)
    assert event["summary"] == "Skiing, longer"
    assert dt_util.parse_datetime(event["end"]) == later

    # An end before its start, from the calendar: refused, the event as it was.
    backwards = {"summary": "Skiing", "dtstart": later.isoformat(), "dtend": start.isoformat()}
    assert not (await in_calendar(client, "update", calendar, uid, event=backwards))["success"]
    assert (await listed(hass, paired)) == [event]

    await move_to(hass, freezer, start + timedelta(seconds=1))
    await thermostat_has(paired, structure_key(paired), away=True)
    assert (await in_calendar(client, "delete", calendar, uid))["success"]
    await thermostat_has(paired, structure_key(paired), away=False)
    assert await listed(hass, paired) == []


async def test_a_vacation_needs_a_thermostat(hass: HomeAssistant, hub: Any) -> None:
    """With no thermostat paired there is no home to send away: said so."""
    with pytest.raises(ServiceValidationError) as err:
        await set_vacation(
            hass,
            start="2099-01-01 10:00:00",
            end="2099-01-05 10:00:00",
        )
    assert err.value.translation_key == "not_paired"


async def test_a_vacation_of_wrong_types_is_refused_by_the_schema(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """A start that is no time, or eco temperatures that are no numbers, never reach the home."""
    for data in (
        {"start": "tomorrow", "end": "2099-01-05 10:00:00"},
        {"start": "2099-01-01 10:00:00", "end": "2099-01-05 10:00:00", "eco_low": "cold"},
    ):
        with pytest.raises(probatio.Invalid):
            await set_vacation(hass, **data)
    assert paired.service.vacations.vacations() == []


async def down_during_vacation(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    paired: PairedThermostat,
    end: str,
    until: str,
) -> None:
    """Set a vacation from 21:00 on Tuesday to `end`; the hub is down from now `until`."""
    await set_vacation(hass, start="2026-11-24 21:00:00", end=end)
    await down_until(hass, freezer, paired, until)


@pytest.mark.usefixtures("tuesday_evening")
async def test_a_vacation_that_began_while_home_assistant_was_down_begins_at_start(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """The start passed while the hub was stopped: the home goes away as soon as it starts."""
    await down_during_vacation(
        hass, freezer, paired, "2026-11-26 09:00:00", until="2026-11-24 23:00:00-08:00"
    )
    await thermostat_has(paired, structure_key(paired), away=True)
    assert shown(hass, calendar_id(hass, paired)) == STATE_ON


@pytest.mark.usefixtures("tuesday_evening")
async def test_a_vacation_that_passed_while_home_assistant_was_down_is_gone_at_start(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, paired: PairedThermostat
) -> None:
    """Begun and ended while the hub was stopped: at start it is off the calendar, home is home."""
    await down_during_vacation(
        hass, freezer, paired, "2026-11-24 23:00:00", until="2026-11-25 09:00:00-08:00"
    )
    assert await listed(hass, paired) == []
    assert paired.service.vacations.vacations() == []
    assert not home_is_away(paired)
    assert shown(hass, calendar_id(hass, paired)) == STATE_OFF


async def test_the_calendar_moving_a_vacation_under_way_to_later_brings_the_home_back(
    hass: HomeAssistant,
    freezer: FrozenDateTimeFactory,
    hass_ws_client: WebSocketGenerator,
    paired: PairedThermostat,
) -> None:
    """Under way; moved to start tomorrow: the home is back now, and away when it starts."""
    client = await hass_ws_client(hass)
    now = dt_util.now().replace(microsecond=0)
    start, later, end = now + timedelta(hours=1), now + timedelta(days=1), now + timedelta(days=3)
    answer = await set_vacation(hass, start=start.isoformat(), end=end.isoformat())
    await move_to(hass, freezer, start + timedelta(seconds=1))
    await thermostat_has(paired, structure_key(paired), away=True)

    moved = {"summary": "Skiing", "dtstart": later.isoformat(), "dtend": end.isoformat()}
    calendar = calendar_id(hass, paired)
    assert (await in_calendar(client, "update", calendar, answer["id"], event=moved))["success"]
    await thermostat_has(paired, structure_key(paired), away=False)
    assert shown(hass, calendar) == STATE_OFF

    await move_to(hass, freezer, later + timedelta(seconds=1))
    await thermostat_has(paired, structure_key(paired), away=True)


async def test_the_calendar_refuses_a_vacation_it_cannot_keep_or_find(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, paired: PairedThermostat
) -> None:
    """A name the store could not save, an unknown vacation: refused, translated; nothing changes."""
    client = await hass_ws_client(hass)
    calendar = calendar_id(hass, paired)
    now = dt_util.now().replace(microsecond=0)
    await set_vacation(
        hass,
        start=(now + timedelta(days=1)).isoformat(),
        end=(now + timedelta(days=3)).isoformat(),
    )
    before = await listed(hass, paired)

    with pytest.raises(ServiceValidationError) as err:
        await hass.services.async_call(
            CALENDAR_DOMAIN,
            "create_event",
            {
                ATTR_ENTITY_ID: calendar,
                "summary": "Ski\ud800",  # a lone surrogate: no JSON document can hold it
                "start_date_time": (now + timedelta(days=10)).isoformat(),
                "end_date_time": (now + timedelta(days=12)).isoformat(),
            },
            blocking=True,
        )
    assert err.value.translation_domain == DOMAIN
    assert err.value.translation_key == "invalid_value"

    answer = await in_calendar(client, "delete", calendar, "no-such-vacation")
    assert not answer["success"]
    assert answer["error"]["message"] == "There is no such vacation: it has ended or was deleted"
    assert await listed(hass, paired) == before


async def test_a_vacations_event_shows_its_eco_range_and_refuses_what_it_cannot_keep(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, paired: PairedThermostat
) -> None:
    """The event's description is the eco range the home keeps; a location or a note is refused.

    Refused in words, before anything changes: not dropped unseen. The description sent back
    as the dialog showed it is no change. In German the range reads as Germans write it.
    """
    client = await hass_ws_client(hass)
    calendar = calendar_id(hass, paired)
    now = dt_util.now().replace(microsecond=0)
    start, end = now + timedelta(days=1), now + timedelta(days=3)
    await set_vacation(
        hass, start=start.isoformat(), end=end.isoformat(), eco_low=15.5, eco_high=27
    )
    await set_vacation(
        hass,
        start=(now + timedelta(days=10)).isoformat(),
        end=(now + timedelta(days=12)).isoformat(),
    )
    ranged, own = await listed(hass, paired)
    assert ranged["description"] == "Eco temperatures: 15.5\u201327 °C"
    assert own["description"] == "Eco temperatures: each thermostat's own"

    before = await listed(hass, paired)
    for refused, key in (
        ({"location": "Chamonix"}, "vacation_location"),
        ({"description": "Skis in the garage"}, "vacation_description"),
    ):
        with pytest.raises(ServiceValidationError) as err:
            await create_event(
                hass,
                calendar,
                summary="Skiing",
                start_date_time=(now + timedelta(days=20)).isoformat(),
                end_date_time=(now + timedelta(days=22)).isoformat(),
                **refused,
            )
        assert err.value.translation_domain == DOMAIN
        assert err.value.translation_key == key
    assert await listed(hass, paired) == before

    # The dialog sends the description back as it showed it: renaming the vacation is fine.
    uid = paired.service.vacations.vacations()[0].id
    event = {
        "summary": "Skiing",
        "description": ranged["description"],
        "dtstart": start.isoformat(),
        "dtend": end.isoformat(),
    }
    assert (await in_calendar(client, "update", calendar, uid, event=event))["success"]
    assert (await listed(hass, paired))[0]["summary"] == "Skiing"
    described = {**event, "description": "Skis in the garage"}
    answer = await in_calendar(client, "update", calendar, uid, event=described)
    assert not answer["success"]
    assert "cannot be edited" in answer["error"]["message"]

    await hass.config.async_update(language="de")
    await hass.async_block_till_done()
    assert (await listed(hass, paired))[0]["description"] == "Eco-Temperaturen: 15,5\u201327 °C"


async def test_the_event_dialog_reads_a_refusal_in_home_assistants_language(
    hass: HomeAssistant, hass_ws_client: WebSocketGenerator, paired: PairedThermostat
) -> None:
    """The dialog offers Repeat; a repeating vacation is refused in words the user reads.

    No calendar can hide the dialog's Repeat (docs/holds-and-vacations.md), so the refusal
    says what to choose there, and the dialog shows the websocket error's text as it is: in
    Home Assistant's language, not the English core would make of the key.
    """
    client = await hass_ws_client(hass)
    calendar = calendar_id(hass, paired)
    now = dt_util.now().replace(microsecond=0)
    event = {
        "summary": "Skiing",
        "dtstart": (now + timedelta(days=1)).isoformat(),
        "dtend": (now + timedelta(days=3)).isoformat(),
    }
    create = {"type": "calendar/event/create", "entity_id": calendar}

    async def refusal(event: dict[str, Any]) -> str:
        await client.send_json_auto_id({**create, "event": event})
        answer = await client.receive_json()
        assert not answer["success"]
        return cast("str", answer["error"]["message"])

    weekly = {**event, "rrule": "FREQ=WEEKLY"}
    assert await refusal(weekly) == (
        "A vacation cannot repeat: set Repeat to \N{LEFT DOUBLE QUOTATION MARK}No repeat"
        "\N{RIGHT DOUBLE QUOTATION MARK} and create each vacation as its own event"
    )
    assert await listed(hass, paired) == []

    await hass.config.async_update(language="de")
    await hass.async_block_till_done()
    assert await refusal(weekly) == (
        "Ein Urlaub kann sich nicht wiederholen: Wähle bei Wiederholen "
        "\N{DOUBLE LOW-9 QUOTATION MARK}Keine Wiederholung\N{LEFT DOUBLE QUOTATION MARK} "
        "und lege jeden Urlaub als eigenen Termin an"
    )
    # A refusal of the service (an overlap) reads in German too, its times filled in.
    await client.send_json_auto_id({**create, "event": event})
    assert (await client.receive_json())["success"]
    overlap = await refusal(event)
    assert overlap.startswith("Dieser Urlaub überschneidet sich mit einem anderen, von ")
    assert "{start}" not in overlap
    assert len(await listed(hass, paired)) == 1
