"""The server side of the benchmark: the service core alone, in its own process.

`python -m bench.server` starts `ThermostatService` on 127.0.0.1 (a free port) exactly as Home
Assistant does, plus a small bench-control listener on another loopback port through which the
load generator issues commands to the core's command layer and reads the process's CPU time
and RSS. It prints one JSON line with both ports when ready and stops by itself when its
standard input closes (the load generator went away), on SIGTERM, on `POST /bench/stop`, or
after `--max-seconds`.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
import contextlib
import cProfile
import json
import logging
import os
from pathlib import Path
import signal
import sys
import time
from types import ModuleType
from typing import Any

import aiohttp
from aiohttp import web
import orjson

from custom_components.thermostat_cloud.server.core.testing import harness

from .system import own_cpu_seconds, process_rss_bytes, raise_fd_limit


def _without_home_assistant() -> None:
    """Import the service core without the integration's `__init__`.

    Let `custom_components.thermostat_cloud.server` import without the integration's
    `__init__`, which loads Home Assistant (over a second of start-up, and memory that is not
    the service's). The server package itself never imports Home Assistant.
    """
    if "custom_components.thermostat_cloud" in sys.modules:
        return
    package = ModuleType("custom_components.thermostat_cloud")
    package.__path__ = [
        str(Path(__file__).resolve().parent.parent / "custom_components" / "thermostat_cloud")
    ]
    sys.modules[package.__name__] = package


_without_home_assistant()

from custom_components.thermostat_cloud.server import (  # noqa: E402
    ControlListener,
    DeviceServer,
    LocalNetwork,
    ServiceConfig,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.read.validation import (  # noqa: E402
    TEMPERATURE_MAX_C,
    TEMPERATURE_MIN_C,
)
from custom_components.thermostat_cloud.server.model.buckets import bucket_key  # noqa: E402

SERVICE: web.AppKey[ThermostatService] = web.AppKey("service", ThermostatService)
STOP: web.AppKey[asyncio.Event] = web.AppKey("stop", asyncio.Event)
PROFILER: web.AppKey[cProfile.Profile | None] = web.AppKey("profiler")


class DiscardingStorage:
    """Storage that serializes and discards what it saves.

    Coalesced saves like Home Assistant's Store: the snapshot is taken and serialized with
    orjson after the delay (so its CPU cost is counted), then thrown away.
    """

    def __init__(self) -> None:
        """Initialize with no save pending."""
        self._timer: asyncio.TimerHandle | None = None
        self.writes = 0

    async def async_load(self) -> dict[str, Any] | None:
        """Load nothing: the benchmark starts empty."""
        return None

    def embed_json(self, data: bytes) -> Any:
        """Embed already serialized JSON in the data to save."""
        return orjson.Fragment(data)

    def schedule_save(self, snapshot: Callable[[], dict[str, Any]], delay: float) -> None:
        """Serialize a snapshot after the delay, at once when the delay is 0."""
        if self._timer is not None:
            if delay > 0:
                return
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(delay, self._write, snapshot)

    def _write(self, snapshot: Callable[[], dict[str, Any]]) -> None:
        self._timer = None
        orjson.dumps(snapshot(), option=orjson.OPT_INDENT_2)
        self.writes += 1

    async def async_save(self, data: dict[str, Any]) -> None:
        """Serialize the data now."""
        orjson.dumps(data, option=orjson.OPT_INDENT_2)
        self.writes += 1

    def cancel(self) -> None:
        """Drop a pending save (the process is stopping)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def next_setpoint(service: ThermostatService, serial: str) -> float:
    """Return a setpoint different from the current one, so every command really changes state."""
    current = harness(service).value(bucket_key("shared", serial)).get("target_temperature")
    if not isinstance(current, int | float) or current + 0.5 > TEMPERATURE_MAX_C:
        return TEMPERATURE_MIN_C + 6
    return float(current) + 0.5


async def command(request: web.Request) -> web.Response:
    """One set_temperature through the command layer; returns when it was accepted."""
    service = request.app[SERVICE]
    serial = (await request.json())["serial"]
    value = next_setpoint(service, serial)
    accepted_ns = time.monotonic_ns()
    result = service.commands.set_temperature(serial, value)
    done_ns = time.monotonic_ns()
    return web.json_response(
        {"accepted_ns": accepted_ns, "done_ns": done_ns, "changed": result.changed}
    )


async def fanout(request: web.Request) -> web.Response:
    """One set_temperature per listed device, all in one turn of the event loop."""
    service = request.app[SERVICE]
    serials = (await request.json())["serials"]
    values = [next_setpoint(service, serial) for serial in serials]
    accepted_ns = time.monotonic_ns()
    for serial, value in zip(serials, values, strict=True):
        service.commands.set_temperature(serial, value)
    done_ns = time.monotonic_ns()
    # A callback queued now runs after everything the commands queued (pushes not yet handed
    # to the kernel), and before the socket events of the next turn: the thermostats' replies
    # to their pushes, which this handler, resumed only after them, would count too.
    loop = asyncio.get_running_loop()
    written: asyncio.Future[int] = loop.create_future()
    loop.call_soon(lambda: written.set_result(time.monotonic_ns()))
    return web.json_response(
        {"accepted_ns": accepted_ns, "done_ns": done_ns, "written_ns": await written}
    )


async def stats(request: web.Request) -> web.Response:
    """CPU time, RSS and held connections of this process."""
    service = request.app[SERVICE]
    return web.json_response(
        {
            "cpu_s": own_cpu_seconds(),
            "rss_bytes": process_rss_bytes(),
            "held": harness(service).held_total(),
        }
    )


async def profile(request: web.Request) -> web.Response:
    """Turn the profiler on or off.

    Profile what the server does between `{"enable": true}` and `{"enable": false}`
    (a no-op unless the server was started with --profile).
    """
    profiler = request.app[PROFILER]
    if profiler is not None:
        if (await request.json())["enable"]:
            profiler.enable()
        else:
            profiler.disable()
    return web.json_response({})


async def stop(request: web.Request) -> web.Response:
    """Stop the server process."""
    request.app[STOP].set()
    return web.json_response({})


def create_control_app(
    service: ThermostatService, stop_event: asyncio.Event, profiler: cProfile.Profile | None
) -> web.Application:
    """Return the bench-control listener (loopback only; not part of the product)."""
    app = web.Application()
    app[SERVICE] = service
    app[STOP] = stop_event
    app[PROFILER] = profiler
    app.router.add_post("/bench/profile", profile)
    app.router.add_post("/bench/command", command)
    app.router.add_post("/bench/fanout", fanout)
    app.router.add_get("/bench/stats", stats)
    app.router.add_post("/bench/stop", stop)
    return app


def _stdin_closed(stop_event: asyncio.Event) -> None:
    if not os.read(sys.stdin.fileno(), 4096):
        stop_event.set()


async def serve(
    batch_window: float,
    max_seconds: float,
    watch_stdin: bool,
    profiler: cProfile.Profile | None = None,
) -> None:
    """Run the service and the bench-control listener until told to stop."""
    raise_fd_limit(1 << 20)
    storage = DiscardingStorage()
    service = ThermostatService(
        ServiceConfig(
            api_origin="http://127.0.0.1:1",
            batch_window=batch_window,
            # The fleet is unpaired: all of it is remembered, as paired thermostats would be.
            max_unpaired_devices=1 << 20,
        ),
        storage,
    )
    await service.async_load()
    # Started and stopped as the hub does (`hub.Hub`): the port listens, then the service runs.
    device_server = DeviceServer(service)
    await device_server.async_start("127.0.0.1", 0)
    service.start()
    service.config.api_origin = f"http://127.0.0.1:{device_server.bound_port}"
    # The control API with the handlers Home Assistant serves, at the spec's bare paths.
    # The session of its network scans, which the bench never runs; the caller owns it.
    http = aiohttp.ClientSession()
    control_api = ControlListener(service, LocalNetwork(http))
    await control_api.async_start("127.0.0.1", 0)

    loop = asyncio.get_running_loop()
    stop_event = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop_event.set)
    if watch_stdin:
        loop.add_reader(sys.stdin.fileno(), _stdin_closed, stop_event)
    runner = web.AppRunner(create_control_app(service, stop_event, profiler), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    control_port = runner.addresses[0][1]
    print(
        json.dumps(
            {
                "device_url": service.config.api_origin,
                "control_url": f"http://127.0.0.1:{control_port}",
                "api_url": f"http://127.0.0.1:{control_api.bound_port}",
                "pid": os.getpid(),
            }
        ),
        flush=True,
    )
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop_event.wait(), max_seconds)
    if watch_stdin:
        loop.remove_reader(sys.stdin.fileno())
    await runner.cleanup()
    await control_api.async_stop()
    await http.close()
    service.close_connections()
    await device_server.async_stop()
    await service.async_stop()
    storage.cancel()


def main() -> None:
    """`python -m bench.server`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch-window", type=float, default=3.0)
    parser.add_argument("--max-seconds", type=float, default=1800.0)
    parser.add_argument(
        "--no-stdin", action="store_true", help="do not stop when standard input closes"
    )
    parser.add_argument("--profile", type=Path, help="write cProfile statistics here at exit")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    profiler = cProfile.Profile() if args.profile else None
    try:
        asyncio.run(serve(args.batch_window, args.max_seconds, not args.no_stdin, profiler))
    finally:
        if profiler is not None:
            profiler.dump_stats(args.profile)


if __name__ == "__main__":
    main()
