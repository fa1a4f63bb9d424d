"""`structure.devices` as firmware reads it: object keys (`device.<serial>`), as in a capture.

Over real TCP with the simulated thermostat; a home stored by an earlier version (bare serials)
still loads and is written again as firmware reads it.
"""

from __future__ import annotations

from collections.abc import Callable
import copy

import aiohttp

from custom_components.thermostat_cloud.server import (
    ServiceConfig,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from custom_components.thermostat_cloud.server.model.buckets import home_device_serials
from thermostat_sim import SimulatedThermostat

from .conftest import OTHER_SERIAL, SERIAL, MemoryStorage
from .serving import start_serving, stop_serving


async def _pair(service: ThermostatService, thermostat: SimulatedThermostat) -> None:
    code = (await thermostat.passphrase())["value"]
    thermostat.start()
    await thermostat.subscribed.wait()
    assert service.pairing.register(code).success


async def test_the_home_lists_its_thermostats_by_object_key(
    service: ThermostatService, make_thermostat: Callable[..., SimulatedThermostat]
) -> None:
    first = make_thermostat(SERIAL, shared={"can_heat": True})
    second = make_thermostat(OTHER_SERIAL, shared={"can_heat": True})
    await _pair(service, first)
    structure_key = f"structure.{service.home().structure_id}"
    pushed = await first.next_object(structure_key)
    assert pushed["value"]["devices"] == [f"device.{SERIAL}"]

    await _pair(service, second)
    pushed = await first.next_object(structure_key)
    assert pushed["value"]["devices"] == [f"device.{SERIAL}", f"device.{OTHER_SERIAL}"]

    service.pairing.unpair(OTHER_SERIAL)
    pushed = await first.next_object(structure_key)
    assert pushed["value"]["devices"] == [f"device.{SERIAL}"]


def test_both_forms_read_as_serials() -> None:
    assert home_device_serials([f"device.{SERIAL}", OTHER_SERIAL]) == [SERIAL, OTHER_SERIAL]
    assert home_device_serials("not a list") == []
    assert home_device_serials([None, 7, "", f"device.{SERIAL}"]) == [SERIAL]


async def test_a_home_stored_with_bare_serials_is_written_as_firmware_reads_it(
    service: ThermostatService,
    storage: MemoryStorage,
    make_thermostat: Callable[..., SimulatedThermostat],
    service_config: ServiceConfig,
) -> None:
    """What an earlier version stored (bare serials) loads, and the restarted server fixes it."""
    thermostat = make_thermostat(SERIAL, shared={"can_heat": True})
    await _pair(service, thermostat)
    await service.async_flush()
    await thermostat.stop()
    stored = copy.deepcopy(storage.data)
    assert stored is not None
    structure_key = f"structure.{service.home().structure_id}"
    # The shape on main before this change: the same document, the home's serials bare.
    stored["buckets"][structure_key]["value"]["devices"] = [SERIAL]

    restarted = ThermostatService(service_config, MemoryStorage(stored))
    await restarted.async_load()
    assert restarted.pairing.is_paired(SERIAL)
    server = await start_serving(restarted)
    try:
        assert harness(restarted).value(structure_key)["devices"] == [f"device.{SERIAL}"]
        async with aiohttp.ClientSession() as http:
            again = SimulatedThermostat(
                f"http://127.0.0.1:{server.bound_port}",
                SERIAL,
                http,
                buckets={f"shared.{SERIAL}": {"can_heat": True}},
            )
            again.start()
            try:
                pushed = await again.next_object(structure_key)
                assert pushed["value"]["devices"] == [f"device.{SERIAL}"]
            finally:
                await again.stop()
    finally:
        await stop_serving(server)
