"""Health alerts in Home Assistant: the repair, the problem sensor and the event of a finding.

A simulated thermostat over real TCP reports what failing equipment makes it report (a call
for heat while the room does not warm, a silence in the frost); the `clock` fixture moves time,
in steps a thermostat's requests keep up with. What is checked is what a user sees: the
repair in the issue registry with its figures in the user's units, the *Heating and cooling
problem* sensor's state and attributes, the `thermostat_cloud_alert` event on the bus, and
all of it clearing by itself.
"""

from __future__ import annotations

from typing import Any

from homeassistant.const import STATE_OFF, STATE_ON, Platform
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import device_registry as dr, entity_registry as er, issue_registry as ir
from homeassistant.helpers.translation import async_get_translations
from homeassistant.util.unit_system import US_CUSTOMARY_SYSTEM
import probatio
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.thermostat_cloud.const import (
    CONF_ALERTS,
    DOMAIN,
    EVENT_ALERT,
    STORAGE_KEY,
)
from custom_components.thermostat_cloud.server import HealthThresholds

from .conftest import SERIAL, LoopClock, PairedThermostat, PairThermostat, entity_ids, shown

NOT_HEATING_ISSUE = f"health_not_heating_{SERIAL}"
SILENT_ISSUE = f"health_silent_in_frost_{SERIAL}"
STEP = 20.0
"""Seconds per clock step: less than the server waits for a thermostat to subscribe again
after a held subscribe closes (`resubscribe_grace`), so a thermostat that keeps in touch stays
available, as a real one does, though its requests are not awaited."""


def record_alerts(hass: HomeAssistant) -> list[dict[str, Any]]:
    """Every `thermostat_cloud_alert` fired from now on, its data."""
    fired: list[dict[str, Any]] = []

    @callback
    def on_alert(event: Event[dict[str, Any]]) -> None:
        fired.append(dict(event.data))

    hass.bus.async_listen(EVENT_ALERT, on_alert)
    return fired


def issue(hass: HomeAssistant, issue_id: str) -> ir.IssueEntry | None:
    """Return one of the integration's repair issues, if raised."""
    return ir.async_get(hass).async_get_issue(DOMAIN, issue_id)


async def heating(paired: PairedThermostat, room: float) -> None:
    """Let the thermostat report its heater on and the room's temperature."""
    await paired.thermostat.put(
        f"shared.{paired.serial}", {"hvac_heater_state": True, "current_temperature": room}
    )
    await paired.hass.async_block_till_done()


async def furnace_not_heating(paired: PairedThermostat, clock: LoopClock) -> None:
    """Heat called for 31 minutes while the room falls from 18.4 to 18.1 °C, not warming."""
    for room in (18.4, 18.3, 18.2):
        await heating(paired, room)
        await advance(clock, 9 * 60, paired)
    await advance(clock, 2 * 60, paired)
    await heating(paired, 18.1)
    await advance(clock, 2 * 60, paired)
    await heating(paired, 18.1)  # its next request, past the limit


async def advance(clock: LoopClock, seconds: float, paired: PairedThermostat | None) -> None:
    """Move time in steps, each once the thermostat (if any still talks) holds its subscribe."""
    while seconds > 0:
        await clock.advance(min(STEP, seconds))
        seconds -= STEP
        if paired is not None:
            await paired.thermostat.subscribed.wait()


@pytest.fixture
async def heated(
    hass: HomeAssistant, clock: LoopClock, pair_thermostat: PairThermostat
) -> PairedThermostat:
    """Return a thermostat set to 21 °C in an 18.5 °C room, 2 °C outside."""
    hass.states.async_set("weather.home", "cloudy", {"temperature": 2, "temperature_unit": "°C"})
    return await pair_thermostat(shared={"target_temperature": 21.0, "current_temperature": 18.5})


@pytest.fixture
async def not_heating(
    hass: HomeAssistant, clock: LoopClock, heated: PairedThermostat
) -> PairedThermostat:
    """Return the heated thermostat once its furnace stopped heating and the repair is raised."""
    await furnace_not_heating(heated, clock)
    assert issue(hass, NOT_HEATING_ISSUE) is not None
    return heated


async def test_a_furnace_that_stops_heating_raises_an_alert_that_clears_when_the_room_warms(
    hass: HomeAssistant, clock: LoopClock, heated: PairedThermostat
) -> None:
    """Heat called for 30 minutes, the room falls: repair, sensor on, event; then all clear."""
    alerts = record_alerts(hass)
    problem = heated.entity_id(Platform.BINARY_SENSOR, "hvac_problem")
    assert shown(hass, problem) == STATE_OFF

    for room in (18.4, 18.3, 18.2):
        await heating(heated, room)
        await advance(clock, 9 * 60, heated)
    await advance(clock, 2 * 60, heated)
    await heating(heated, 18.1)
    assert issue(hass, NOT_HEATING_ISSUE) is None  # 29 minutes: not yet
    assert shown(hass, problem) == STATE_OFF
    assert alerts == []
    await advance(clock, 2 * 60, heated)
    await heating(heated, 18.1)  # its next request, past the limit

    raised = issue(hass, NOT_HEATING_ISSUE)
    assert raised is not None
    assert raised.severity is ir.IssueSeverity.ERROR
    assert raised.translation_key == "health_not_heating"
    placeholders = raised.translation_placeholders or {}
    assert placeholders["room_start"] == "18.4 °C"
    assert placeholders["room_now"] == "18.1 °C"
    assert placeholders["outdoor"] == "2 °C"
    assert int(placeholders["minutes"]) >= 30
    name = placeholders["name"]
    assert name == heated.service.thermostat(SERIAL).name

    assert shown(hass, problem) == STATE_ON
    finding = hass.states.get(problem).attributes["findings"]  # type: ignore[union-attr]
    assert [f["kind"] for f in finding] == ["not_heating"]
    assert finding[0]["room_now"] == 18.1
    assert finding[0]["unit"] == "°C"

    device = dr.async_get(hass).async_get_device_by_identifier(
        (DOMAIN, SERIAL), heated.entry.entry_id
    )
    assert device is not None
    assert len(alerts) == 1
    opened = alerts[0]
    assert opened["status"] == "opened"
    assert opened["kind"] == "not_heating"
    assert opened["device_id"] == device.id
    assert opened["entity_id"] == heated.entity_id(Platform.CLIMATE)
    assert opened["figures"]["room_start"] == 18.4
    assert opened["title"] == f"{name}: the heating is not warming the room"
    assert "18.4 °C → 18.1 °C, 2 °C outside" in opened["message"]

    # The furnace is fixed: the room warms, and everything clears by itself.
    await heating(heated, 18.6)
    assert issue(hass, NOT_HEATING_ISSUE) is None
    assert shown(hass, problem) == STATE_OFF
    assert hass.states.get(problem).attributes["findings"] == []  # type: ignore[union-attr]
    assert [alert["status"] for alert in alerts] == ["opened", "cleared"]
    assert alerts[1]["kind"] == "not_heating"
    assert alerts[1]["device_id"] == device.id


async def test_the_figures_are_in_the_users_units(
    hass: HomeAssistant, clock: LoopClock, heated: PairedThermostat
) -> None:
    """A home in Fahrenheit reads °F in the repair, the event and the sensor."""
    hass.config.units = US_CUSTOMARY_SYSTEM
    alerts = record_alerts(hass)
    await furnace_not_heating(heated, clock)

    raised = issue(hass, NOT_HEATING_ISSUE)
    assert raised is not None
    placeholders = raised.translation_placeholders or {}
    assert (placeholders["room_start"], placeholders["room_now"]) == ("65.1 °F", "64.6 °F")
    assert placeholders["outdoor"] == "35.6 °F"
    assert alerts[0]["figures"]["unit"] == "°F"
    assert "65.1 °F → 64.6 °F, 35.6 °F outside" in alerts[0]["message"]


async def test_a_finding_open_at_a_restart_is_raised_again_without_a_second_event(
    hass: HomeAssistant, not_heating: PairedThermostat
) -> None:
    """The finding survives a reload of the hub: its repair comes back, the phone is not told twice."""
    alerts = record_alerts(hass)
    assert await hass.config_entries.async_reload(not_heating.entry.entry_id)
    await hass.async_block_till_done()
    assert issue(hass, NOT_HEATING_ISSUE) is not None
    assert shown(hass, not_heating.entity_id(Platform.BINARY_SENSOR, "hvac_problem")) == STATE_ON
    assert alerts == []


@pytest.mark.parametrize(("weather", "alerted"), [(True, True), (False, False)])
async def test_a_thermostat_silent_in_the_frost(
    hass: HomeAssistant,
    clock: LoopClock,
    pair_thermostat: PairThermostat,
    caplog: pytest.LogCaptureFixture,
    *,
    weather: bool,
    alerted: bool,
) -> None:
    """Silent for 30 minutes at -5 °C: an alert, cleared when it is back.

    Without a weather entity there is no outdoor temperature: no alert, said once in the log.
    """
    if weather:
        hass.states.async_set(
            "weather.home", "snowy", {"temperature": -5, "temperature_unit": "°C"}
        )
    paired = await pair_thermostat()
    alerts = record_alerts(hass)
    problem = paired.entity_id(Platform.BINARY_SENSOR, "hvac_problem")
    await paired.thermostat.put(f"shared.{paired.serial}", {"current_temperature": 20.5})

    await paired.thermostat.stop()
    await advance(clock, 45 * 60, None)
    assert shown(hass, paired.entity_id(Platform.CLIMATE)) == "unavailable"
    assert (issue(hass, SILENT_ISSUE) is not None) is alerted
    # The problem sensor stays available: being silent is what it reports.
    assert shown(hass, problem) == (STATE_ON if alerted else STATE_OFF)
    assert [alert["kind"] for alert in alerts] == (["silent_in_frost"] if alerted else [])
    if alerted:
        assert "-5 °C outside" in alerts[0]["message"]
    said = [r for r in caplog.records if r.getMessage().startswith("No outdoor temperature")]
    assert len(said) == (0 if weather else 1)

    paired.thermostat.start()
    await paired.thermostat.subscribed.wait()
    await hass.async_block_till_done()
    assert issue(hass, SILENT_ISSUE) is None
    assert shown(hass, problem) == STATE_OFF
    assert [alert["status"] for alert in alerts] == (["opened", "cleared"] if alerted else [])


# -- the thresholds, in the hub's options ----------------------------------------------------------


async def open_options(hass: HomeAssistant, entry_id: str) -> Any:
    """Open the hub's options; return the form."""
    result = await hass.config_entries.options.async_init(entry_id)
    assert result["type"] is FlowResultType.FORM
    return result


def alerts_defaults(form: Any) -> dict[str, Any]:
    """Return what the alerts section of the options form shows (defaults, suggestions)."""
    alerts = next(key for key in form["data_schema"].schema if str(key) == CONF_ALERTS)
    shown_values: dict[str, Any] = {}
    for key in form["data_schema"].schema[alerts].schema.schema:
        if (suggested := (key.description or {}).get("suggested_value")) is not None:
            shown_values[str(key)] = suggested
        elif not isinstance(key.default, type(probatio.UNDEFINED)):
            shown_values[str(key)] = key.default()
    return shown_values


OTHER_OPTIONS = {"entry_key_minutes": 60, "compat_api": False}


async def test_strict_thresholds_for_a_vacation_home(
    hass: HomeAssistant, clock: LoopClock, heated: PairedThermostat
) -> None:
    """Set in the options, the thresholds are the service's at once: heating judged at 20 min."""
    form = await open_options(hass, heated.entry.entry_id)
    assert alerts_defaults(form) == {
        "not_warming_minutes": 30,
        "max_starts_per_hour": 6,
        "long_runtime_factor": 2.0,
        "silent_minutes": 30,
        "frost_outdoor": 2.0,
    }
    strict = {
        "not_warming_minutes": 20,
        "max_starts_per_hour": 4,
        "long_runtime_factor": 1.5,
        "silent_minutes": 10,
        "frost_outdoor": 5,
        "too_cold": 10,
    }
    result = await hass.config_entries.options.async_configure(
        form["flow_id"], {**OTHER_OPTIONS, CONF_ALERTS: strict}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    assert heated.service.health.thresholds == HealthThresholds(
        not_warming_minutes=20,
        max_starts_per_hour=4,
        long_runtime_factor=1.5,
        silent_minutes=10,
        frost_outdoor_c=5.0,
        too_cold_c=10.0,
    )
    assert alerts_defaults(await open_options(hass, heated.entry.entry_id)) == {
        **strict,
        "frost_outdoor": 5.0,
        "too_cold": 10.0,
    }

    # The hub restarted with them: the thermostat subscribes again a second later.
    await clock.advance(1)
    await heated.thermostat.subscribed.wait()
    for room in (18.4, 18.3):
        await heating(heated, room)
        await advance(clock, 10 * 60 + 30, heated)
    await heating(heated, 18.3)
    assert issue(hass, NOT_HEATING_ISSUE) is not None


async def test_thresholds_in_fahrenheit(hass: HomeAssistant, hub: MockConfigEntry) -> None:
    """A home in Fahrenheit types °F; the service gets °C."""
    hass.config.units = US_CUSTOMARY_SYSTEM
    form = await open_options(hass, hub.entry_id)
    assert alerts_defaults(form)["frost_outdoor"] == 35.6
    result = await hass.config_entries.options.async_configure(
        form["flow_id"],
        {
            **OTHER_OPTIONS,
            CONF_ALERTS: {**alerts_defaults(form), "too_cold": 41, "too_hot": 95},
        },
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await hass.async_block_till_done()
    thresholds = hub.runtime_data.service.health.thresholds
    assert (thresholds.too_cold_c, thresholds.too_hot_c) == (5.0, 35.0)
    assert thresholds.frost_outdoor_c == 2.0


@pytest.mark.parametrize(
    ("typed", "error"),
    [
        ({"not_warming_minutes": 5}, "not_warming_too_short"),
        ({"silent_minutes": 9}, "silent_too_short"),
        ({"max_starts_per_hour": 1}, "starts_too_few"),
        ({"long_runtime_factor": 1}, "factor_too_small"),
        ({"frost_outdoor": 80}, "temperature_out_of_range"),
        ({"too_cold": 20, "too_hot": 18}, "cold_not_below_hot"),
    ],
)
async def test_thresholds_the_service_would_refuse_are_refused_with_a_reason(
    hass: HomeAssistant, hub: MockConfigEntry, typed: dict[str, Any], error: str
) -> None:
    """The form comes back with a translated error naming the limit; nothing is stored."""
    form = await open_options(hass, hub.entry_id)
    result = await hass.config_entries.options.async_configure(
        form["flow_id"], {**OTHER_OPTIONS, CONF_ALERTS: {**alerts_defaults(form), **typed}}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": error}
    placeholders = result["description_placeholders"] or {}
    assert placeholders["min_not_warming"] == "10"
    assert placeholders["max_temperature"] == "50 °C"
    texts = await async_get_translations(hass, "en", "options", [DOMAIN])
    assert f"component.{DOMAIN}.options.error.{error}" in texts
    assert CONF_ALERTS not in hub.options


async def test_an_upgrade_keeps_every_entity_and_adds_the_problem_sensor(
    hass: HomeAssistant, hass_storage: dict[str, Any], paired: PairedThermostat
) -> None:
    """From the version before the alerts: no alert options, no `health` in the saved document.

    Every entity keeps its id, the problem sensor joins them (off), nothing is raised.
    """
    entry = paired.entry
    registry = er.async_get(hass)
    problem_unique_id = f"{SERIAL}_hvac_problem"
    assert await hass.config_entries.async_unload(entry.entry_id)
    # What the previous version left: its entities, its options, its document.
    registry.async_remove(paired.entity_id(Platform.BINARY_SENSOR, "hvac_problem"))
    before = entity_ids(hass, entry)
    hass.config_entries.async_update_entry(entry, options={"entry_key_ttl": 3600})
    hass_storage[STORAGE_KEY]["data"].pop("health")

    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    after = entity_ids(hass, entry)
    assert {unique_id: after[unique_id] for unique_id in before} == before
    problem = after[problem_unique_id]
    assert problem.endswith("_heating_and_cooling_problem")
    assert shown(hass, problem) == STATE_OFF
    assert entry.runtime_data.service.health.thresholds == HealthThresholds()
    assert not [i for (domain, i) in ir.async_get(hass).issues if i.startswith("health_")]


async def test_unpairing_a_thermostat_clears_its_alerts(
    hass: HomeAssistant, not_heating: PairedThermostat
) -> None:
    """A thermostat removed in the UI takes its repairs with it; the event says cleared."""
    alerts = record_alerts(hass)
    (subentry_id,) = not_heating.entry.subentries
    assert hass.config_entries.async_remove_subentry(not_heating.entry, subentry_id)
    await hass.async_block_till_done()
    assert issue(hass, NOT_HEATING_ISSUE) is None
    assert [(alert["status"], alert["kind"]) for alert in alerts] == [("cleared", "not_heating")]


async def test_thresholds_edited_by_hand_into_nonsense_fall_back_to_the_defaults(
    hass: HomeAssistant, hub: MockConfigEntry, caplog: pytest.LogCaptureFixture
) -> None:
    """A limit below its least in the stored options: the defaults, and a line saying so."""
    hass.config_entries.async_update_entry(
        hub, options={**hub.options, CONF_ALERTS: {"not_warming_minutes": 3}}
    )
    await hass.async_block_till_done()
    assert hub.runtime_data.service.health.thresholds == HealthThresholds()
    assert "The alert thresholds in the options are not usable" in caplog.text
