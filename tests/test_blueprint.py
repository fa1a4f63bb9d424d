"""The blueprints, the way a user gets and uses them.

Each is imported from the README's My Home Assistant link through Home Assistant's blueprint
integration (the download answered from the file in this repository: nothing leaves the
machine), saved, turned into an automation through the automation editor's API, and run.
"Away when everyone has left": people and the home zone move, the delay passes on a frozen
clock, and the hub's Away switch (and the thermostat behind it) follows. "Notify me of
thermostat alerts": a room freezes behind a simulated thermostat (the `clock` moves time), a
phone registered as the Home Assistant app does gets the repair's text through its push
service, and the notification is taken back when the room is warm again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from http import HTTPStatus
from pathlib import Path
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import STATE_OFF, STATE_ON, Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import (
    device_registry as dr,
    entity_registry as er,
    issue_registry as ir,
)
from homeassistant.setup import async_setup_component
import pytest
from pytest_homeassistant_custom_component.common import async_fire_time_changed
from pytest_homeassistant_custom_component.test_util.aiohttp import AiohttpClientMocker
from pytest_homeassistant_custom_component.typing import (
    ClientSessionGenerator,
    WebSocketGenerator,
)

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server.core.testing import harness

from .conftest import OTHER_SERIAL, SERIAL, LoopClock, PairedThermostat, PairThermostat, shown

REPOSITORY = Path(__file__).parent.parent
BLUEPRINTS = REPOSITORY / "blueprints/automation/thermostat_cloud"
BLUEPRINT = BLUEPRINTS / "away_when_everyone_left.yaml"
IMPORT_LINK = re.compile(r"https://my\.home-assistant\.io/redirect/blueprint_import/\?[^)\s\"]+")
RAW_FILES = "https://raw.githubusercontent.com/thermostat-cloud/thermostat-cloud/main/"


def readme_blueprint_urls() -> list[str]:
    """Return the blueprint URLs the README's import buttons hand to Home Assistant."""
    links: list[str] = IMPORT_LINK.findall((REPOSITORY / "README.md").read_text(encoding="utf-8"))
    return [parse_qs(urlsplit(link).query)["blueprint_url"][0] for link in links]


def readme_blueprint_url(blueprint: Path = BLUEPRINT) -> str:
    """Return the URL of the README's import button of one blueprint (there is exactly one)."""
    urls = [url for url in readme_blueprint_urls() if url.endswith(f"/{blueprint.name}")]
    assert len(urls) == 1, readme_blueprint_urls()
    return urls[0]


def test_the_readme_links_each_blueprint_in_the_repository() -> None:
    """One button per blueprint, importing its file from the repository the manifest documents."""
    assert sorted(readme_blueprint_urls()) == sorted(
        f"{RAW_FILES}{path.relative_to(REPOSITORY).as_posix()}"
        for path in BLUEPRINTS.glob("*.yaml")
    )


async def import_blueprint(
    hass: HomeAssistant,
    blueprint: Path,
    name: str,
    ws_client: WebSocketGenerator,
    aioclient_mock: AiohttpClientMocker,
) -> str:
    """Import a blueprint by the README's link and save it, as the UI does; return its path."""
    url = readme_blueprint_url(blueprint)
    text = await hass.async_add_executor_job(blueprint.read_text, "utf-8")
    # The download, answered from the file (the mocker is untyped).
    aioclient_mock.get(url, text=text)  # type: ignore[no-untyped-call]
    ws = await ws_client(hass)
    await ws.send_json_auto_id({"type": "blueprint/import", "url": url})
    imported = await ws.receive_json()
    assert imported["success"], imported
    assert imported["result"]["validation_errors"] is None
    assert imported["result"]["blueprint"]["metadata"]["name"] == name
    await ws.send_json_auto_id(
        {
            "type": "blueprint/save",
            "domain": "automation",
            "path": imported["result"]["suggested_filename"],
            "yaml": imported["result"]["raw_data"],
            "source_url": url,
        }
    )
    saved = await ws.receive_json()
    assert saved["success"], saved
    return f"{imported['result']['suggested_filename']}.yaml"


async def setup_automations(hass: HomeAssistant, config_dir: Path) -> None:
    """Set up automations kept in `automations.yaml`, and the editor's API, in `config_dir`."""
    hass.config.config_dir = str(config_dir)
    (config_dir / "configuration.yaml").write_text(
        "automation: !include automations.yaml\n", encoding="utf-8"
    )
    (config_dir / "automations.yaml").write_text("[]\n", encoding="utf-8")
    assert await async_setup_component(hass, "automation", {})
    assert await async_setup_component(hass, "config", {})
    await hass.async_block_till_done()


async def later(hass: HomeAssistant, freezer: FrozenDateTimeFactory, **delta: float) -> None:
    """Let time pass on the frozen clock; what fell due runs and settles."""
    freezer.tick(timedelta(**delta))
    async_fire_time_changed(hass)
    await hass.async_block_till_done()


class Household:
    """A home whose Away switch an automation from the blueprint drives."""

    def __init__(self, hass: HomeAssistant, paired: PairedThermostat, client: Any) -> None:
        """Initialize from Home Assistant, the paired thermostat and an HTTP client."""
        self.hass = hass
        self.paired = paired
        self.client = client
        unique_id = f"{paired.entry.entry_id}_away"
        away = er.async_get(hass).async_get_entity_id(Platform.SWITCH, DOMAIN, unique_id)
        assert away is not None
        self.away_switch = away

    async def automation(self, key: str, inputs: dict[str, Any]) -> tuple[int, Any]:
        """Create an automation from the blueprint in the automation editor; its answer."""
        response = await self.client.post(
            f"/api/config/automation/config/{key}",
            json={
                "alias": key,
                "use_blueprint": {"path": self.path, "input": inputs},
            },
        )
        await self.hass.async_block_till_done()
        return response.status, await response.json()

    async def created(self, key: str, inputs: dict[str, Any]) -> None:
        """Create an automation from the blueprint driving the Away switch; it must be taken."""
        status, body = await self.automation(key, {"away_switch": self.away_switch, **inputs})
        assert status == HTTPStatus.OK, body

    path = ""

    @property
    def away(self) -> str:
        """The Away switch as Home Assistant shows it."""
        return shown(self.hass, self.away_switch)

    def set(self, entity_id: str, state: str, **attributes: Any) -> None:
        """Move a person, the home zone or a proximity sensor."""
        self.hass.states.async_set(entity_id, state, attributes)

    async def moved(self, entity_id: str, state: str, **attributes: Any) -> None:
        """Move one, and let the automations follow."""
        self.set(entity_id, state, **attributes)
        await self.hass.async_block_till_done()


@pytest.fixture
async def home(
    hass: HomeAssistant,
    tmp_path: Path,
    *,
    pair_thermostat: PairThermostat,
    hass_ws_client: WebSocketGenerator,
    hass_client: ClientSessionGenerator,
    aioclient_mock: AiohttpClientMocker,
) -> Household:
    """Pair a thermostat; import the blueprint by the README's link and save it. Anna is home."""
    paired = await pair_thermostat()
    await setup_automations(hass, tmp_path)
    home = Household(hass, paired, await hass_client())
    home.path = await import_blueprint(
        hass, BLUEPRINT, "Away when everyone has left", hass_ws_client, aioclient_mock
    )
    home.set("person.anna", "home")
    return home


async def test_away_when_everyone_left_and_back_when_the_first_comes_home(
    hass: HomeAssistant, home: Household, freezer: FrozenDateTimeFactory
) -> None:
    home.set("person.ben", "home")
    await home.created(
        "away_people", {"presence": ["person.anna", "person.ben"], "delay": {"minutes": 10}}
    )
    assert shown(hass, "automation.away_people") == STATE_ON

    home.set("person.anna", "not_home")
    await home.moved("person.ben", "work")
    await later(hass, freezer, minutes=9)
    assert home.away == STATE_OFF  # not yet: the delay has not passed

    await later(hass, freezer, minutes=1, seconds=1)
    assert home.away == STATE_ON
    structure_key = harness(home.paired.service).home_keys(SERIAL)[1]
    await home.paired.pushed(structure_key, away=True, manual_eco_all=True)

    await home.moved("person.ben", "home")
    assert home.away == STATE_OFF
    await home.paired.pushed(structure_key, away=False, manual_eco_all=False)


async def test_a_short_absence_leaves_the_home_alone(
    hass: HomeAssistant, home: Household, freezer: FrozenDateTimeFactory
) -> None:
    """Back before the delay: the home never goes away."""
    home.set("zone.home", "1")
    await home.created("away_zone", {"presence": ["zone.home"], "delay": {"minutes": 5}})

    await home.moved("zone.home", "0")
    freezer.tick(timedelta(minutes=4))
    async_fire_time_changed(hass)
    await home.moved("zone.home", "1")
    await later(hass, freezer, minutes=10)
    assert home.away == STATE_OFF

    # Gone for good: away after the delay, back when the zone counts someone.
    await home.moved("zone.home", "0")
    await later(hass, freezer, minutes=5, seconds=1)
    assert home.away == STATE_ON
    await home.moved("zone.home", "2")
    assert home.away == STATE_OFF


async def test_someone_on_the_way_home_ends_away_early(
    hass: HomeAssistant, home: Household, freezer: FrozenDateTimeFactory
) -> None:
    """Proximity: within the distance and coming towards home, the home comes back."""
    home.set("sensor.home_nearest_distance", "0", unit_of_measurement="m")
    home.set("sensor.home_nearest_direction_of_travel", "arrived")
    await home.created(
        "away_proximity",
        {
            "presence": ["person.anna"],
            "delay": {"minutes": 1},
            "proximity": "sensor.home_nearest_distance",
            "direction": "sensor.home_nearest_direction_of_travel",
            "return_distance": 2,
        },
    )
    home.set("person.anna", "not_home")
    home.set("sensor.home_nearest_distance", "9000", unit_of_measurement="m")
    await home.moved("sensor.home_nearest_direction_of_travel", "away_from")
    await later(hass, freezer, minutes=1, seconds=1)
    assert home.away == STATE_ON

    # Close, but leaving: still away. Closer and coming home: back.
    await home.moved("sensor.home_nearest_distance", "1500", unit_of_measurement="m")
    assert home.away == STATE_ON
    await home.moved("sensor.home_nearest_direction_of_travel", "towards")
    assert home.away == STATE_OFF


async def test_a_travel_time_while_away_plans_the_arrival(
    hass: HomeAssistant, home: Household, freezer: FrozenDateTimeFactory
) -> None:
    """Waze says 45 minutes: the arrival is in 45 minutes; nonsense and being home are ignored."""
    travel = "sensor.travel_time_home"
    home.set(travel, "unknown", unit_of_measurement="min")
    await home.created(
        "away_travel",
        {"presence": ["person.anna"], "delay": {"minutes": 1}, "travel_time": travel},
    )
    arrivals = home.paired.service.arrivals
    await home.moved(travel, "30", unit_of_measurement="min")
    assert arrivals.arrival() is None  # Anna is home: nothing to plan

    await home.moved("person.anna", "not_home")
    await later(hass, freezer, minutes=1, seconds=1)
    assert home.away == STATE_ON
    for nonsense in ("unavailable", "-5", "2000"):
        await home.moved(travel, nonsense, unit_of_measurement="min")
        assert arrivals.arrival() is None
    now_ms = int(freezer().timestamp() * 1000)
    await home.moved(travel, "45", unit_of_measurement="min")
    arrival = arrivals.arrival()
    assert arrival is not None
    assert arrival.arrival_ms == now_ms + 45 * 60_000
    await home.moved(travel, "1.5", unit_of_measurement="h")
    arrival = arrivals.arrival()
    assert arrival is not None
    assert arrival.arrival_ms == now_ms + 90 * 60_000


async def test_people_not_located_yet_do_not_count_as_gone(
    hass: HomeAssistant, home: Household, freezer: FrozenDateTimeFactory
) -> None:
    """Just after a restart a person is unknown: that is no reason to set the home away."""
    await home.created("away_unknown", {"presence": ["person.anna"], "delay": {"minutes": 1}})
    await home.moved("person.anna", "unknown")
    await later(hass, freezer, minutes=5)
    assert home.away == STATE_OFF


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"presence": ["person.anna"], "delay": {"minutes": 1}}, "Missing input away_switch"),
        (
            {"presence": ["person.anna"], "away_switch": "switch.x", "delay": "whenever"},
            "offset whenever should be format",
        ),
    ],
)
async def test_an_automation_with_a_bad_input_is_refused(
    hass: HomeAssistant, home: Household, inputs: dict[str, Any], message: str
) -> None:
    """The automation editor refuses it, saying what is wrong; nothing is created."""
    status, body = await home.automation("bad", inputs)
    assert status == HTTPStatus.BAD_REQUEST
    assert message in body["message"]
    assert hass.states.get("automation.bad") is None


# -- "Notify me of thermostat alerts" ---------------------------------------------------------------

ALERTS_BLUEPRINT = BLUEPRINTS / "notify_thermostat_alerts.yaml"
PUSH_URL = "https://push.example.invalid/push"
"""Where the phone's app said to send its notifications (answered by the mocker)."""


async def register_phone(hass: HomeAssistant, client: Any) -> str:
    """Register a phone as the Home Assistant app does; return its device id.

    The Mobile App integration must be set up before the HTTP client starts the server.
    """
    response = await client.post(
        "/api/mobile_app/registrations",
        json={
            "app_id": "io.robbie.HomeAssistant",
            "app_name": "Home Assistant",
            "app_version": "2026.11",
            "device_name": "Anna's phone",
            "manufacturer": "Apple",
            "model": "iPhone",
            "os_name": "iOS",
            "os_version": "19.1",
            "supports_encryption": False,
            "app_data": {"push_token": "token", "push_url": PUSH_URL},
        },
    )
    assert response.status == HTTPStatus.CREATED, await response.text()
    await hass.async_block_till_done()
    entry = hass.config_entries.async_entries("mobile_app")[0]
    devices = dr.async_entries_for_config_entry(dr.async_get(hass), entry.entry_id)
    assert len(devices) == 1
    return devices[0].id


def pushed(aioclient_mock: AiohttpClientMocker) -> list[dict[str, Any]]:
    """Return the notifications sent to the phone's push service, in order."""
    return [dict(call[2]) for call in aioclient_mock.mock_calls if str(call[1]) == PUSH_URL]


async def too_cold_for(paired: PairedThermostat, clock: LoopClock, room: float) -> None:
    """Let the thermostat report the room at `room` for six minutes (it keeps in touch)."""
    await paired.thermostat.put(f"shared.{paired.serial}", {"current_temperature": room})
    for _ in range(18):
        await clock.advance(20)
        await paired.thermostat.subscribed.wait()
    await paired.thermostat.put(f"shared.{paired.serial}", {"current_temperature": room})
    await paired.hass.async_block_till_done()


AlertsAutomation = Callable[..., Awaitable[None]]


@pytest.fixture
def alerts_automation(
    hass: HomeAssistant,
    tmp_path: Path,
    *,
    hass_ws_client: WebSocketGenerator,
    hass_client: ClientSessionGenerator,
    aioclient_mock: AiohttpClientMocker,
) -> AlertsAutomation:
    """Return how to create the automation `alerts` from the alerts blueprint, for a phone.

    It registers a phone as the Home Assistant app does, imports the blueprint by the README's
    link and creates the automation with the inputs given, notifying the phone. Called once the
    thermostats are paired: the HTTP client starts Home Assistant's server, after which no
    integration can add its views.
    """

    async def create(**inputs: Any) -> None:
        await setup_automations(hass, tmp_path)
        assert await async_setup_component(hass, "mobile_app", {})
        client = await hass_client()
        phone = await register_phone(hass, client)
        aioclient_mock.post(PUSH_URL, json={})  # type: ignore[no-untyped-call]
        path = await import_blueprint(
            hass, ALERTS_BLUEPRINT, "Notify me of thermostat alerts", hass_ws_client, aioclient_mock
        )
        response = await client.post(
            "/api/config/automation/config/alerts",
            json={
                "alias": "alerts",
                "use_blueprint": {"path": path, "input": {"notify_device": phone, **inputs}},
            },
        )
        assert response.status == HTTPStatus.OK, await response.text()
        await hass.async_block_till_done()

    return create


@pytest.mark.parametrize("remove_when_cleared", [True, False])
async def test_a_phone_is_told_of_an_alert_and_the_notification_goes_when_it_clears(
    hass: HomeAssistant,
    *,
    clock: LoopClock,
    pair_thermostat: PairThermostat,
    alerts_automation: AlertsAutomation,
    aioclient_mock: AiohttpClientMocker,
    remove_when_cleared: bool,
) -> None:
    """The room freezes: the phone gets the repair's text; warm again, it is taken back."""
    paired = await pair_thermostat(device={"lower_safety_temp": 7.0})
    await alerts_automation(remove_when_cleared=remove_when_cleared)
    assert shown(hass, "automation.alerts") == STATE_ON

    await too_cold_for(paired, clock, 5.0)
    sent = pushed(aioclient_mock)
    assert len(sent) == 1
    name = paired.service.thermostat(SERIAL).name
    assert sent[0]["title"] == f"{name}: the room is too cold (5 °C)"
    assert sent[0]["message"].startswith("The room is at 5 °C, below 7 °C")
    tag = sent[0]["data"]["tag"]
    assert tag.endswith("_too_cold")

    await too_cold_for(paired, clock, 8.0)
    sent = pushed(aioclient_mock)
    if remove_when_cleared:
        assert [(n["message"], n["data"]["tag"]) for n in sent[1:]] == [("clear_notification", tag)]
    else:
        assert len(sent) == 1


async def test_alerts_of_other_thermostats_are_left_out(
    hass: HomeAssistant,
    *,
    clock: LoopClock,
    pair_thermostat: PairThermostat,
    alerts_automation: AlertsAutomation,
    aioclient_mock: AiohttpClientMocker,
) -> None:
    """Chosen thermostats only: an alert of another one sends nothing."""
    paired = await pair_thermostat(device={"lower_safety_temp": 7.0})
    other = await pair_thermostat(OTHER_SERIAL, entry=paired.entry)
    other_device = dr.async_get(hass).async_get_device_by_identifier(
        (DOMAIN, OTHER_SERIAL), paired.entry.entry_id
    )
    assert other_device is not None
    await alerts_automation(thermostats=[other_device.id])

    await too_cold_for(paired, clock, 5.0)
    assert ir.async_get(hass).async_get_issue(DOMAIN, f"health_too_cold_{SERIAL}") is not None
    assert pushed(aioclient_mock) == []
    assert other.serial == OTHER_SERIAL
