"""Diagnostics of the hub entry: useful, and free of secrets and personal data."""

from __future__ import annotations

from datetime import timedelta
import json
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator
from syrupy.assertion import SnapshotAssertion
from syrupy.matchers import path_type

from custom_components.thermostat_cloud.server.core.read.validation import pin_hash
from custom_components.thermostat_cloud.server.core.testing import harness
from custom_components.thermostat_cloud.server.model.api_keys import Scope

from .conftest import SERIAL, PairedThermostat, PairThermostat, setup_hub
from .platform_snapshots import FROZEN_AT
from .test_weather import BACKYARD, setup_weather, weather_of

# The origin thermostats are told to use: Home Assistant's LAN address. Only in the entry's
# data; nothing connects to it.
LAN_ORIGIN = "http://192.168.1.10:8000"
# Drawn anew on every run: the free port the device server binds, and random ids (the home's
# structure id, the simulated thermostat's device id). Snapshotted as their type.
VOLATILE = path_type(
    {
        "entry.data.device_port": (int,),
        "service.bound_port": (int,),
        "service.device_port": (int,),
        f"thermostats.{SERIAL}.structure_id": (str,),
        f"thermostats.{SERIAL}.record.device_id": (str,),
    }
)


@pytest.fixture
def frozen_clock(freezer: FrozenDateTimeFactory) -> FrozenDateTimeFactory:
    """Freeze the wall clock before Home Assistant starts.

    Requested ahead of `hass`, so Home Assistant and the access token of `hass_client` are
    created at the frozen time too (a token issued later than "now" is refused).
    """
    freezer.move_to(FROZEN_AT)
    return freezer


@pytest.mark.usefixtures("frozen_clock")
async def test_diagnostics_snapshot(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    snapshot: SnapshotAssertion,
    paired: PairedThermostat,
) -> None:
    """Diagnostics keep what a maintainer needs and leave out secrets."""
    diagnostics: dict[str, Any] = await get_diagnostics_for_config_entry(
        hass, hass_client, paired.entry
    )

    # The home's structure bucket is keyed by its random id: the one the thermostat is in.
    structure_key = f"structure.{diagnostics['thermostats'][SERIAL]['structure_id']}"
    assert list(diagnostics["home"]) == [structure_key]
    diagnostics["home"] = {"structure.<id>": diagnostics["home"][structure_key]}
    assert diagnostics == snapshot(matcher=VOLATILE)


async def test_diagnostics_redact_secrets(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, pair_thermostat: PairThermostat
) -> None:
    paired = await pair_thermostat(entry=await setup_hub(hass, origin=LAN_ORIGIN))
    service = paired.service
    service.commands.set_temperature_lock(SERIAL, True, pin_hash("1234", SERIAL), 18, 24)
    created = service.api_keys.create("Phone", "owner-user-id", [Scope.READ])
    await paired.thermostat.put(f"device.{SERIAL}", {"local_ip": "192.168.1.50"})

    diagnostics: dict[str, Any] = await get_diagnostics_for_config_entry(
        hass, hass_client, paired.entry
    )

    thermostat = diagnostics["thermostats"][SERIAL]
    assert thermostat["paired"] is True
    assert thermostat["available"] is True
    assert thermostat["subscriptions"] == 1
    assert thermostat["record"]["model"] == "Display-2.0"
    assert thermostat["buckets"][f"shared.{SERIAL}"]["value"]["target_temperature"] == 20.0
    assert diagnostics["entry"]["subentries"] == [
        {"type": "thermostat", "title": f"Thermostat {SERIAL}", "unique_id": SERIAL}
    ]
    assert diagnostics["service"]["extra_state"] == ["api_keys"]

    dumped = json.dumps(diagnostics)
    assert pin_hash("1234", SERIAL) not in dumped
    assert "18b4301400ab" not in dumped
    assert "192.168.1.50" not in dumped
    assert created.secret not in dumped
    assert created.key.key_hash not in dumped
    assert "192.168.1.10" not in dumped
    assert "owner-user-id" not in dumped
    assert harness(service).home_user_id not in dumped
    codes = harness(service).pairing_codes()
    assert codes
    assert not [code for code in codes if code in dumped]


async def test_diagnostics_show_the_weather_served_last(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, hub: MockConfigEntry
) -> None:
    diagnostics: dict[str, Any] = await get_diagnostics_for_config_entry(hass, hass_client, hub)
    assert diagnostics["weather"] == {
        "option": "auto",
        "entity_id": None,
        "forecasts_fetched_at": None,
        "last_served": None,
    }
    await setup_weather(hass, "Backyard")
    served = await weather_of(hub, "07719,US")

    after: dict[str, Any] = await get_diagnostics_for_config_entry(hass, hass_client, hub)

    weather = after["weather"]
    assert (weather["option"], weather["entity_id"]) == ("auto", BACKYARD)
    last = weather["last_served"]
    assert (last["entity_id"], last["query_kind"]) == (BACKYARD, "postal_code")
    assert dt_util.parse_datetime(last["at"]) is not None
    assert dt_util.parse_datetime(weather["forecasts_fetched_at"]) is not None
    assert last["answer"]["current"] == served["current"]
    assert last["answer"]["forecast"] == served["forecast"]
    location = last["answer"]["location"]
    for name in ("zip", "city", "lat", "lon", "short_name", "full_name"):
        assert location[name] == "**REDACTED**", name
    dumped = json.dumps(after)
    assert "07719" not in dumped  # the query: the home's postal code
    assert str(hass.config.latitude) not in dumped


async def test_diagnostics_show_holds_and_vacations_without_their_names(
    hass: HomeAssistant, hass_client: ClientSessionGenerator, paired: PairedThermostat
) -> None:
    """A thermostat's hold and the home's vacations are there; what a vacation is called is not."""
    await hass.services.async_call(
        "thermostat_cloud",
        "hold",
        {"entity_id": paired.entity_id("climate"), "temperature": 22, "duration": {"hours": 1}},
        blocking=True,
    )
    start = dt_util.now() + timedelta(days=1)
    paired.service.vacations.add(start, start + timedelta(days=3), summary="Skiing at the Müllers'")
    diagnostics: dict[str, Any] = await get_diagnostics_for_config_entry(
        hass, hass_client, paired.entry
    )
    assert diagnostics["thermostats"][SERIAL]["hold"]["target"] == 22
    (vacation,) = diagnostics["vacations"]["list"]
    assert vacation["summary"] == "**REDACTED**"
    assert "Skiing" not in json.dumps(diagnostics)
