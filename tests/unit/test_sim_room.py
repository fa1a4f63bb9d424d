"""The simulated thermostat's room: it warms and cools with the equipment, drifts outdoors."""

from __future__ import annotations

from typing import Any

import pytest

from thermostat_sim import Equipment, House, Room

HEAT_TO_20: dict[str, Any] = {"target_temperature_type": "heat", "target_temperature": 20.0}
COOL_TO_24: dict[str, Any] = {"target_temperature_type": "cool", "target_temperature": 24.0}


def test_a_room_with_nothing_running_drifts_toward_the_outdoors() -> None:
    """Ten hours without heat at 0 °C outside: colder, never colder than outside."""
    room = Room(temperature_c=20.0, outdoor_c=0.0, loss_per_h=0.1)
    room.step(10 * 3600)
    assert 0.0 < room.temperature_c < 20.0 * 0.4


def test_heating_warms_at_its_rate_and_cooling_cools() -> None:
    """One hour of one heating stage with no loss: its rate; cooling the other way."""
    assert Room(temperature_c=15.0, loss_per_h=0).step(3600, heating_stages=1) == pytest.approx(
        19.0
    )
    assert Room(temperature_c=26.0, loss_per_h=0).step(3600, cooling_stages=1) == pytest.approx(
        23.0
    )


def test_the_house_heats_to_its_setpoint_and_stops_there() -> None:
    """From 18 °C heat starts (relay on, reported), runs until 20 °C, then stops."""
    house = House(room=Room(temperature_c=18.0, outdoor_c=5.0))
    first = house.step(60, HEAT_TO_20, {})
    assert first["hvac_heater_state"] is True
    reports = [house.step(60, HEAT_TO_20, {}) for _ in range(60)]
    assert any(report.get("hvac_heater_state") is False for report in reports)
    assert 19.4 <= house.room.temperature_c <= 20.2


def test_a_furnace_that_stops_heating_is_called_and_the_room_falls() -> None:
    """Heat called for an hour, no heat: the room falls."""
    house = House(room=Room(temperature_c=19.0, outdoor_c=0.0), equipment=Equipment(heats=False))
    house.step(60, HEAT_TO_20, {})
    for _ in range(60):
        house.step(60, HEAT_TO_20, {})
    assert house.heating
    assert house.room.temperature_c < 19.0


def test_a_tripping_compressor_starts_many_times_an_hour() -> None:
    """A compressor that trips after two minutes and rests two: about 15 starts an hour."""
    house = House(
        room=Room(temperature_c=28.0, outdoor_c=32.0),
        equipment=Equipment(trip_after_s=120, rest_s=120),
    )
    starts = sum(house.step(60, COOL_TO_24, {}).get("hvac_ac_state") is True for _ in range(60))
    assert starts >= 12


def test_eco_and_safety_temperatures_are_followed() -> None:
    """Eco heats to the eco low; with the heat off the safety temperature still heats."""
    eco = {"eco": {"mode": "manual-eco"}, "away_temperature_low": 12.0}
    house = House(room=Room(temperature_c=14.0))
    assert house.step(60, HEAT_TO_20, eco) == {"hvac_heater_state": False,
                                                "hvac_ac_state": False,
                                                "current_temperature": 14.0}  # fmt: skip
    safety = {"lower_safety_temp": 7.0, "lower_safety_temp_enabled": True}
    cold = House(room=Room(temperature_c=6.0))
    assert cold.step(60, {"target_temperature_type": "off"}, safety)["hvac_heater_state"] is True
