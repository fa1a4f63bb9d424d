"""The data paths as `python -m bench.paths` traces them (docs/development.md).

Each path is traced up to the server's first write onto a socket: what runs before it holds
the bytes up. The ceilings hold the counts issue 36 brought them to.
"""

from __future__ import annotations

from collections.abc import Iterable

from homeassistant.components.climate.const import DOMAIN as CLIMATE_DOMAIN, SERVICE_SET_TEMPERATURE
from homeassistant.const import ATTR_ENTITY_ID, ATTR_TEMPERATURE
from homeassistant.core import HomeAssistant

from bench.paths import entered, trace_paths

from .conftest import PairThermostat

COMMAND_MODULES = 12
"""The most modules a command enters before its push is written."""
REPORT_MODULES = 18
"""The most modules a thermostat's report enters before its answer is written."""
SETPOINT_MODULES = 14
"""The most modules a setpoint from Home Assistant enters, from the climate entity's
`async_set_temperature` to its push on the wire."""
SETPOINT_GLUE = ("climate", "entity")
"""The glue it enters, in this order: the platform, then the entity (who the command comes
from is named once it is written)."""
INTEGRATION = "custom_components.thermostat_cloud."
CLIMATE = f"{INTEGRATION}climate"


def _distinct(modules: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(modules))


async def test_a_command_reaches_the_wire_without_entering_a_surface(socket_enabled: None) -> None:
    """Delivery writes the push itself: the command path enters no surface module."""
    paths = await trace_paths()
    command = paths["command to the wire"]
    assert "core.write.commands" in command
    assert "delivery.ledger" in command  # it did reach the wire
    assert [name for name in command if name.split(".")[0] in {"device", "control", "hosted"}] == []
    # No follower, listener or save runs before the push is written.
    assert not {"core.events", "core.service"} & set(command)
    assert not [name for name in command if name.startswith(("core.watch.", "core.home."))]
    assert len(_distinct(command)) <= COMMAND_MODULES, command
    report = paths["report from the thermostat"]
    assert report[:3] == ["http.helpers", "http.listener", "device.api"]
    assert "core.write.write_path" in report
    assert len(_distinct(report)) <= REPORT_MODULES, report


async def test_a_setpoint_from_home_assistant_goes_from_the_entity_to_the_wire(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """The climate entity's setpoint reaches the wire before any listener runs.

    No coordinator, sensor, repair or pairing sync runs first.
    """
    paired = await pair_thermostat()
    modules: list[str] = []
    with entered(
        modules, prefix=INTEGRATION, start=(CLIMATE, "async_set_temperature"), until_written=True
    ):
        await hass.services.async_call(
            CLIMATE_DOMAIN,
            SERVICE_SET_TEMPERATURE,
            {ATTR_ENTITY_ID: paired.entity_id("climate"), ATTR_TEMPERATURE: 23.5},
            blocking=True,
        )
    path = _distinct(name.removeprefix(INTEGRATION) for name in modules)
    assert path[0] == "climate"
    assert "server.delivery.ledger" in path, path  # it did reach the wire
    assert tuple(name for name in path if not name.startswith("server.")) == SETPOINT_GLUE, path
    assert len(path) <= SETPOINT_MODULES, " -> ".join(path)
    assert (await paired.pushed("shared", target_temperature=23.5))["target_temperature"] == 23.5
