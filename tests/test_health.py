"""Health findings from a simulated thermostat over real TCP, its room following the equipment.

The thermostat runs its own control (thermostat_sim.room.House): it calls for heat or cooling,
its room warms or cools as the equipment works or fails, and it PUTs its relays and room
temperature to the device server as firmware does. Time passes on the `clock` fixture.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from custom_components.thermostat_cloud.server import FindingKind, ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import SERIAL, THERMOSTAT_DEVICE, THERMOSTAT_SHARED, LoopClock
from thermostat_sim import Equipment, House, Room, SimulatedThermostat

type MakeThermostat = Callable[..., SimulatedThermostat]


async def paired(
    make_thermostat: MakeThermostat, service: ThermostatService, **shared: Any
) -> SimulatedThermostat:
    """Return a thermostat paired at the server, holding its subscribe."""
    thermostat = make_thermostat(
        shared={**THERMOSTAT_SHARED, **shared}, device={**THERMOSTAT_DEVICE}
    )
    await thermostat.entry()
    thermostat.start()
    await thermostat.subscribed.wait()
    assert service.pairing.register((await thermostat.passphrase())["value"]).success
    await thermostat.next_object(harness(service).home_keys(SERIAL)[1])
    return thermostat


async def live(
    clock: LoopClock, thermostat: SimulatedThermostat, house: House, minutes: int
) -> None:
    """Let minutes pass in the house; the thermostat reports what changed each minute.

    It holds its subscribe throughout, as firmware does: a closed one is opened again.
    """
    for _ in range(minutes):
        # In steps shorter than the resubscribe grace: one that closes is reopened in time.
        for _ in range(3):
            await clock.advance(20)
            await thermostat.subscribed.wait()
        await thermostat.live(house, 60)


def found(service: ThermostatService) -> set[FindingKind]:
    """Return the kinds of the thermostat's findings."""
    return {finding.kind for finding in service.health.findings(SERIAL)}


async def test_a_furnace_that_stops_heating_is_found_and_clears_once_it_heats(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """Heat called, the furnace gives nothing: not_heating after 30 min; repaired, it clears."""
    thermostat = await paired(make_thermostat, service, current_temperature=19.4)
    house = House(room=Room(temperature_c=19.4, outdoor_c=0.0), equipment=Equipment(heats=False))
    service.health.note_outdoor(0.0)
    await live(clock, thermostat, house, 25)
    assert house.heating
    assert found(service) == set()
    await live(clock, thermostat, house, 10)
    assert found(service) == {FindingKind.NOT_HEATING}
    (finding,) = service.health.findings(SERIAL)
    assert finding.figures["stage"] == "heating_stage_1"
    assert finding.figures["outdoor"] == 0.0
    assert finding.figures["room_now"] < finding.figures["room_start"]  # type: ignore[operator]
    house.equipment.heats = True
    await live(clock, thermostat, house, 10)
    assert found(service) == set()


async def test_a_short_cycling_compressor_is_found_and_clears_once_it_calms_down(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """A compressor tripping every 2 minutes: short_cycling; repaired, an hour later clear."""
    thermostat = await paired(
        make_thermostat,
        service,
        target_temperature_type="cool",
        target_temperature=24.0,
        current_temperature=27.0,
    )
    house = House(
        room=Room(temperature_c=27.0, outdoor_c=32.0, cooling_rate_c_per_h=2.0),
        equipment=Equipment(trip_after_s=120, rest_s=120),
    )
    await live(clock, thermostat, house, 60)
    assert found(service) == {FindingKind.SHORT_CYCLING}
    (finding,) = service.health.findings(SERIAL)
    assert finding.figures["cycle"] == "cooling"
    assert finding.figures["starts_per_hour"] > finding.figures["limit"]  # type: ignore[operator]
    house.equipment.trip_after_s = None
    await live(clock, thermostat, house, 65)
    assert found(service) == set()


async def test_a_house_that_freezes_while_its_thermostat_is_silent(
    clock: LoopClock, make_thermostat: MakeThermostat, service: ThermostatService
) -> None:
    """-8 °C outside, the power out: silent_in_frost; back, too_cold; heated, all clear."""
    thermostat = await paired(make_thermostat, service, current_temperature=20.0)
    house = House(
        room=Room(temperature_c=20.0, outdoor_c=-8.0, loss_per_h=0.2, heating_rate_c_per_h=8.0)
    )
    service.health.note_outdoor(-8.0)
    await live(clock, thermostat, house, 5)
    await thermostat.stop()
    house.equipment.heats = False
    for _ in range(6 * 60):
        await clock.advance(60)
        house.step(60, {}, {})
    assert found(service) == {FindingKind.SILENT_IN_FROST}
    assert house.room.temperature_c < 7.0
    house.equipment.heats = True
    thermostat.start()
    await thermostat.subscribed.wait()
    assert FindingKind.SILENT_IN_FROST not in found(service)
    await live(clock, thermostat, house, 6)
    assert found(service) == {FindingKind.TOO_COLD}
    await live(clock, thermostat, house, 4 * 60)
    assert found(service) == set()
