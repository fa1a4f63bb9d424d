"""Commands of the hosted API are followed until the thermostat confirms them, like any other."""

from __future__ import annotations

import asyncio

from custom_components.thermostat_cloud.server import EventKind, ServiceEvent
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import SERIAL

from .conftest import Paired, device_id, wait_for_field


async def test_a_hosted_api_command_is_pending_until_the_thermostat_reports_it(
    paired: Paired,
) -> None:
    api, service, thermostat, key = paired
    thermostat.obey_pushes = False
    response, _ = await api.post(f"/thermostat/{device_id(service)}/fan", key, {"mode": "on"})
    assert response.status == 200
    pending = {(p.key, p.field): p.value for p in service.delivery.pending(SERIAL)}
    assert pending[(f"device.{SERIAL}", "fan_mode")] == "on"

    # A thermostat that applies pushes reports the fan mode it took: confirmed.
    thermostat.obey_pushes = True
    confirmed = asyncio.Event()

    def on_event(event: ServiceEvent) -> None:
        if event.kind is EventKind.COMMANDS and not harness(service).is_pending(SERIAL):
            confirmed.set()

    remove = service.events.listen(on_event)
    try:
        response, _ = await api.post(f"/thermostat/{device_id(service)}/fan", key, {"mode": "off"})
        assert response.status == 200
        await wait_for_field(thermostat, f"device.{SERIAL}", "fan_mode", "off")
        async with asyncio.timeout(10):
            await confirmed.wait()
    finally:
        remove()
