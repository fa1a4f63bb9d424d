"""A push delivery writes through the subscribe's answer reaches the thermostat over real TCP."""

from __future__ import annotations

from collections.abc import Callable

from custom_components.thermostat_cloud.server import ThermostatService
from thermostat_sim import SimulatedThermostat

from .conftest import SERIAL, LoopClock


async def test_a_command_reaches_the_held_subscribe_and_the_window_then_ends_it(
    clock: LoopClock,
    make_thermostat: Callable[..., SimulatedThermostat],
    service: ThermostatService,
) -> None:
    """The setpoint arrives on the open long-poll; the batch window after it closes the answer.

    Firmware reads one answer per subscribe, so the connection must end once the window after
    its push has passed (not at the hold timeout, minutes later) with that push as its only
    chunk, and the thermostat comes back at once.
    """
    thermostat = make_thermostat(shared={"current_temperature": 19.5})
    thermostat.start()
    await thermostat.next_chunk()  # its own reading sent back with the server's revision
    await clock.advance(service.config.batch_window)
    assert await thermostat.closes.get() == 1
    await thermostat.waiting.wait()  # the next subscribe is held

    service.commands.set_temperature(SERIAL, 23)

    chunk = await thermostat.next_chunk()
    assert [(o["object_key"], o["value"]["target_temperature"]) for o in chunk.objects] == [
        (f"shared.{SERIAL}", 23.0)
    ]
    await thermostat.settled()
    assert thermostat.closes.empty()  # open for the rest of the window
    await clock.advance(service.config.batch_window)
    assert await thermostat.closes.get() == 1
    assert thermostat.local[f"shared.{SERIAL}"].value["target_temperature"] == 23.0
