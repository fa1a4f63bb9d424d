"""The home's away state set by the home itself, and the occupancy reading.

`set_home_away` is the hub's Away switch; the service core runs on a clock the test holds.
"""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.thermostat_cloud.server import (
    ChangeSource,
    CommandError,
    ErrorCode,
    HomeState,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import FakeClock

from .conftest import pair

SERIALS = ("02AA01AC331400AB", "02AA01AC331400CD")


def home_of(service: ThermostatService) -> HomeState:
    """Return the home Home Assistant's thermostats are paired into."""
    return service.home()


def revisions(service: ThermostatService) -> dict[str, int]:
    """Return every bucket's revision."""
    return harness(service).revisions()


def report(service: ThermostatService, serial: str, bucket: str, **fields: Any) -> None:
    """Let a thermostat report fields, as a PUT does."""
    harness(service).report(serial, {f"{bucket}.{serial}": fields}, ChangeSource.DEVICE)


async def test_a_home_without_thermostats_has_no_away(service: ThermostatService) -> None:
    home = home_of(service)
    assert (home.serials, home.away) == ([], False)
    with pytest.raises(CommandError) as refused:
        service.commands.set_home_away(home.structure_id, True)
    assert refused.value.code is ErrorCode.NOT_PAIRED
    assert list(harness(service).buckets()) == []


async def test_away_is_the_homes_manual_eco_on_the_services_clock(
    service: ThermostatService,
) -> None:
    for serial in SERIALS:
        pair(service, serial)
    home = home_of(service)
    assert home.serials == list(SERIALS)
    with pytest.raises(CommandError) as refused:
        service.commands.set_home_away(home.structure_id, "yes")
    assert refused.value.code is ErrorCode.INVALID_VALUE

    assert service.commands.set_home_away(home.structure_id, True).changed
    structure = harness(service).value(f"structure.{home.structure_id}")
    assert (structure["away"], structure["manual_eco_all"]) == (True, True)
    # Firmware drops manual eco more than 600 s off its clock, which it takes from ours.
    assert structure["manual_eco_timestamp"] == service.clock.now_ms() // 1000
    assert home.away
    assert all(service.thermostat(serial).away for serial in SERIALS)

    # Asked again: nothing to write.
    before = revisions(service)
    assert not service.commands.set_home_away(home.structure_id, True).changed
    assert revisions(service) == before


async def test_leaving_away_when_not_away_keeps_each_thermostats_eco(
    service: ThermostatService,
) -> None:
    for serial in SERIALS:
        pair(service, serial)
    report(service, SERIALS[1], "device", eco={"mode": "manual-eco"})
    home = home_of(service)
    before = revisions(service)

    assert not service.commands.set_home_away(home.structure_id, False).changed

    assert revisions(service) == before
    assert service.thermostat(SERIALS[1]).eco


async def test_leaving_away_brings_every_thermostat_back(service: ThermostatService) -> None:
    for serial in SERIALS:
        pair(service, serial)
    home = home_of(service)
    service.commands.set_home_away(home.structure_id, True)
    # Firmware reports the manual eco it entered.
    for serial in SERIALS:
        report(service, serial, "device", eco={"mode": "manual-eco"})

    clock = service.clock
    assert isinstance(clock, FakeClock)
    clock.advance(3600)
    assert service.commands.set_home_away(home.structure_id, False).changed

    assert not home.away
    for serial in SERIALS:
        assert not service.thermostat(serial).eco
    structure = harness(service).value(f"structure.{home.structure_id}")
    assert structure["manual_eco_timestamp"] == service.clock.now_ms() // 1000


@pytest.mark.parametrize(
    ("shared", "device", "occupied"),
    [
        ({"auto_away": 0}, {"auto_away_enable": True}, True),
        ({"auto_away": 1}, {"auto_away_enable": True}, False),
        ({}, {"auto_away_enable": True, "auto_away": 1}, False),
        # `shared` first, where a 5.9.4-5 thermostat sends it.
        ({"auto_away": 0}, {"auto_away_enable": True, "auto_away": 1}, True),
        ({"auto_away": 0}, {"auto_away_enable": False}, None),
        ({"auto_away": 0}, {}, None),
        ({"auto_away": 2}, {"auto_away_enable": True}, None),
        ({"auto_away": True}, {"auto_away_enable": True}, None),
        ({"auto_away": "0"}, {"auto_away_enable": True}, None),
        ({}, {"auto_away_enable": True}, None),
    ],
)
async def test_occupancy_reads_auto_away_while_the_sensor_is_on(
    service: ThermostatService,
    shared: dict[str, Any],
    device: dict[str, Any],
    occupied: bool | None,
) -> None:
    serial = SERIALS[0]
    report(service, serial, "shared", **shared, current_temperature=20.0)
    report(service, serial, "device", **device, current_humidity=40)
    assert service.thermostat(serial).occupied is occupied
