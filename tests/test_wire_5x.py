"""A 5.x thermostat's wire traffic, byte for byte, against a capture made before 4.x was spoken.

Serving firmware 4.x's transport must not change a byte of what a 5.x thermostat is sent:
`tests/snapshots/wire_5x_exchanges.json` holds the exchanges of one scripted session (entry,
pairing code, a pairing, a report, a subscribe with its pushes, a command's push, a listing and
the errors a 5.x thermostat can get) as the server answered them before the 4.x transport was
added. The session runs on the frozen clock, so every timestamp is the same on every run; the
port, the pairing code and the home's random ids are the only parts replaced by names.
Set `WIRE_5X_RECORD=1` to record the capture again (only when a change to 5.x is intended).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import basic_auth

from .conftest import SERIAL, LoopClock

CAPTURE = Path(__file__).parent / "snapshots" / "wire_5x_exchanges.json"
HEADERS = {
    "Authorization": basic_auth(SERIAL),
    "X-nl-protocol-version": "1",
    "X-nl-device-swversion": "5.9.4-5",
    "User-Agent": "Nest/5.9.4-5 (Display-2.12; wireless_reg_domain=US)",
}
UNCHECKED_HEADERS = frozenset({"Date", "Server"})
"""aiohttp's own: the date moves with the real clock, the server names aiohttp's version."""


class Recorder:
    """Makes the session's requests and keeps each answer as text with dynamic parts named."""

    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        """Initialize against the device server at `base`."""
        self.http = http
        self.base = base
        self.names: dict[str, str] = {base.rsplit(":", 1)[1]: "PORT"}
        self.exchanges: list[dict[str, Any]] = []

    def name(self, value: str, placeholder: str) -> None:
        """Replace `value` by `placeholder` in everything recorded."""
        self.names[value] = placeholder

    def _normal(self, text: str) -> str:
        for value, placeholder in self.names.items():
            text = text.replace(value, placeholder)
        return text

    async def record(self, resp: aiohttp.ClientResponse, request: str, start: bytes = b"") -> bytes:
        """Keep one answer: status, headers in order, body (`start`: its part already read)."""
        body = start + await resp.read()
        self.exchanges.append(
            {
                "request": request,
                "status": resp.status,
                "headers": [
                    [name, self._normal(value)]
                    for name, value in resp.headers.items()
                    if name not in UNCHECKED_HEADERS
                ],
                "body": body.decode(),
            }
        )
        return body

    async def send(self, method: str, path: str, **kwargs: Any) -> bytes:
        """Make one request and record its answer."""
        headers = {**HEADERS, **kwargs.pop("headers", {})}
        async with self.http.request(
            method, f"{self.base}{path}", headers=headers, **kwargs
        ) as resp:
            return await self.record(resp, f"{method} {path}")

    def normalized(self) -> list[dict[str, Any]]:
        """Return the exchanges with every dynamic part named."""
        return [{**e, "body": self._normal(e["body"])} for e in self.exchanges]


@pytest.mark.freeze_time("2026-11-27 20:00:00")
async def test_a_5x_thermostat_is_sent_exactly_what_it_was_before(
    clock: LoopClock, service: ThermostatService, device_url: str, http: aiohttp.ClientSession
) -> None:
    wire = Recorder(http, device_url)
    shared, device = f"shared.{SERIAL}", f"device.{SERIAL}"
    form = {"mac": "18b430234567", "model": "Display-2.12", "software_version": "5.9.4-5"}
    await wire.send("POST", "/entry", data=form)
    code = json.loads(await wire.send("GET", "/svc/passphrase"))["value"]
    wire.name(code, "CODE")
    await wire.send("GET", "/svc/passphrase/status")
    assert service.pairing.register(code).serial == SERIAL
    for key in harness(service).home_keys(SERIAL):
        wire.name(key.partition(".")[2], key.partition(".")[0].upper() + "_ID")
    await wire.send("POST", "/svc/ping")
    report = {
        "session": "s",
        shared: {"object_key": shared, "if_object_revision": 0, "current_temperature": 20.5},
        device: {"object_key": device, "current_humidity": 40},
    }
    await wire.send("POST", "/svc/transport/v7/put", json=report)
    listing = [
        {"object_key": key, "object_revision": 0, "object_timestamp": 0}
        for key in (
            shared,
            device,
            f"schedule.{SERIAL}",
        )
    ]
    subscribe = {"chunked": True, "session": "s", "objects": listing}

    # The first subscribe is sent the home (pairing) at once, then closes after its window.
    async with http.post(
        f"{device_url}/svc/transport/v7/subscribe", json=subscribe, headers=HEADERS
    ) as resp:
        first = await resp.content.readany()
        await clock.advance(service.config.batch_window)
        await wire.record(resp, "POST /svc/transport/v7/subscribe (pairing)", first)
    assert first

    # A held subscribe that is up to date gets a command's push, with setpoints.
    current = [
        {"object_key": key, "object_revision": b.revision, "object_timestamp": b.timestamp}
        for key in (shared, device)
        if (b := harness(service).bucket(key)) is not None
    ]
    async with http.post(
        f"{device_url}/nest/transport/v7/subscribe",
        json={"chunked": True, "session": "s", "objects": current},
        headers=HEADERS,
    ) as resp:
        service.commands.set_temperature(SERIAL, 22)
        pushed = await resp.content.readany()
        await clock.advance(service.config.batch_window)
        await wire.record(resp, "POST /nest/transport/v7/subscribe (command)", pushed)

    # The thermostat acknowledges; then an inline update on a subscribe that times out.
    revision = harness(service).bucket(shared).revision  # type: ignore[union-attr]
    ack = {
        shared: {
            "object_key": shared,
            "base_object_revision": revision,
            "if_object_revision": revision,
            "target_change_pending": False,
            "target_temperature": 22.0,
        }
    }
    await wire.send("POST", "/nest/transport/v7/put", json=ack)
    await wire.send(
        "POST",
        "/svc/transport/put",
        json={
            "objects": [
                {"object_key": device, "base_object_revision": 1, "value": {"current_humidity": 42}}
            ]
        },
    )
    await wire.send("GET", f"/svc/transport/v7/device/{SERIAL}")
    await wire.send("GET", f"/svc/transport/device/device.{SERIAL}")
    # The errors a 5.x thermostat can get.
    await wire.send("POST", "/svc/transport/v7/put", data=b"{not json")
    await wire.send("POST", "/svc/transport/v7/put", json={shared: {"object_key": "x"}})
    await wire.send(
        "POST",
        "/svc/transport/v7/subscribe",
        json={"objects": [{"object_key": shared, "object_revision": "1"}]},
    )
    await wire.send("POST", "/svc/transport/v7/put", json={}, headers={"Authorization": ""})

    exchanges = wire.normalized()
    if os.environ.get("WIRE_5X_RECORD"):
        CAPTURE.write_text(json.dumps(exchanges, indent=1, ensure_ascii=False) + "\n")
    assert exchanges == json.loads(CAPTURE.read_text())
