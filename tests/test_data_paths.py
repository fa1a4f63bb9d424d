"""The two data paths as `python -m bench.paths` traces them (docs/development.md)."""

from __future__ import annotations

from bench.paths import trace_paths


async def test_a_command_reaches_the_wire_without_entering_a_surface(socket_enabled: None) -> None:
    """Delivery writes the push itself: the command path enters no surface module."""
    paths = await trace_paths()
    command = paths["command to the wire"]
    assert "core.write.commands" in command
    assert "delivery.ledger" in command  # it did reach the wire
    assert [name for name in command if name.split(".")[0] in {"device", "control", "hosted"}] == []
    report = paths["report from the thermostat"]
    assert report[:3] == ["http.helpers", "http.listener", "device.api"]
    assert "core.write.write_path" in report
