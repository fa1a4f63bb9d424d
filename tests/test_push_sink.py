"""A push delivery writes through the subscribe's answer reaches the thermostat over real TCP."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from custom_components.thermostat_cloud.server import ThermostatService
from thermostat_sim import SimulatedThermostat

from .conftest import SERIAL


async def test_a_command_reaches_the_held_subscribe_and_the_window_then_ends_it(
    make_thermostat: Callable[..., SimulatedThermostat], service: ThermostatService
) -> None:
    """The setpoint arrives on the open long-poll; the batch window after it closes the answer.

    Firmware reads one answer per subscribe, so the connection must end soon after its push
    (0.3 s here) with that push as its only chunk, and the thermostat comes back at once.
    """
    thermostat = make_thermostat(shared={"current_temperature": 19.5})
    thermostat.start()
    await thermostat.next_chunk()  # its own reading sent back with the server's revision
    assert await thermostat.closes.get() == 1
    await asyncio.wait_for(thermostat.waiting.wait(), 5)  # the next subscribe is held

    service.commands.set_temperature(SERIAL, 23)

    chunk = await thermostat.next_chunk(timeout=5)
    assert [(o["object_key"], o["value"]["target_temperature"]) for o in chunk.objects] == [
        (f"shared.{SERIAL}", 23.0)
    ]
    assert await asyncio.wait_for(thermostat.closes.get(), 5) == 1
    assert thermostat.local[f"shared.{SERIAL}"].value["target_temperature"] == 23.0
