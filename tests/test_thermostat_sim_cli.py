"""`python -m thermostat_sim`: the simulated thermostat run by hand against a server."""

from __future__ import annotations

import argparse
import asyncio

import pytest

from custom_components.thermostat_cloud.server import (
    ChangeSource,
    EventKind,
    ServiceEvent,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim.__main__ import main, run

SERIAL = "02AA01AC3314CLI1"


async def test_cli_shows_its_code_prints_pushes_and_puts_room_temperature(
    service: ThermostatService, device_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    put_seen = asyncio.Event()

    # Pair it like a user would once it shows a code and holds its connection (its first
    # room PUT), then wait for a room PUT of the paired thermostat.
    def on_event(event: ServiceEvent) -> None:
        if event.kind is EventKind.STATE and event.source is ChangeSource.DEVICE:
            if harness(service).held(SERIAL) and not service.pairing.is_paired(SERIAL):
                code = harness(service).pairing_codes()[0]
                assert service.pairing.register(code).success
            elif service.pairing.is_paired(SERIAL) and event.keys == (f"device.{SERIAL}",):
                put_seen.set()  # its estimate of when the room is warm follows a room PUT

    service.events.listen(on_event)
    args = argparse.Namespace(
        url=device_url,
        serial=SERIAL,
        temperature=18.0,
        put_every=0.05,
        can_cool=True,
        has_fan=True,
        heat_pump=False,
        room="Bedroom",
    )
    task = asyncio.create_task(run(args))
    try:
        async with asyncio.timeout(10):
            await put_seen.wait()
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    out = capsys.readouterr().out
    assert "Pairing code: " in out
    assert f"<- pushed structure.{service.home().structure_id}" in out
    assert f"-> put shared.{SERIAL}" in out
    # Heating towards 20 °C from 18 °C: the room warms and the heater relay is on.
    shared = harness(service).value(f"shared.{SERIAL}")
    assert shared["hvac_heater_state"] is True
    assert shared["current_temperature"] > 18.0
    # As firmware: no name of its own, so its room names it; a Unix time it will be warm at.
    thermostat = service.thermostat(SERIAL)
    assert shared["name"] == ""
    assert thermostat.name == "Bedroom"
    reached_at = thermostat.target_reached_at
    assert reached_at is not None
    # Two degrees at 0.1 °C per 0.05 s: a second or so from now.
    now = service.clock.now_ms() / 1000
    assert now - 5 < reached_at < now + 60


def test_cli_help(capsys: pytest.CaptureFixture[str]) -> None:
    """The simulator's command line explains itself."""
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    assert "--put-every" in capsys.readouterr().out
