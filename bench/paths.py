"""Which of the service's modules each data path enters: `python -m bench.paths`.

The service core in this process with its device server on 127.0.0.1 and one simulated
thermostat, paired and holding a subscribe. Two paths are traced with `sys.setprofile`, and
every module of `server/` that runs a function on the way is listed in the order first entered,
up to the moment the server's bytes go onto the socket (what runs after them no longer holds
them up):
- a command: from `service.commands.set_temperature` until its push is written;
- a report: from the thermostat's PUT until the server writes its answer.
A module entered again after another one counts as a return. docs/development.md quotes the
counts ("The two data paths"). For a before and after, copy this file and `unsaved.py`
into another checkout's `bench/` and run it there: it traces that tree's code.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
import sys
from types import FrameType

import aiohttp

from custom_components.thermostat_cloud.server import (
    DeviceServer,
    ServiceConfig,
    ThermostatService,
)
from thermostat_sim import SimulatedThermostat

from .unsaved import UnsavedStorage

SERVER = "custom_components.thermostat_cloud.server."
SERIAL = "02AA01AC000001"
WRITES = frozenset({"write", "writelines"})
TRANSPORTS = frozenset({"asyncio.selector_events", "asyncio.proactor_events"})
"""Where asyncio's socket transports write (a C event loop's write is a `c_call`)."""


def _is_transport_write(frame: FrameType, event: str, arg: object) -> bool:
    """Whether this call writes bytes onto a socket's transport (asyncio's, or a C loop's)."""
    if event == "call":
        return frame.f_code.co_name in WRITES and frame.f_globals.get("__name__") in TRANSPORTS
    if event == "c_call":
        owner = getattr(arg, "__self__", None)
        return getattr(arg, "__name__", "") in WRITES and isinstance(owner, asyncio.Transport)
    return False


@contextmanager
def entered(
    modules: list[str],
    *,
    prefix: str = SERVER,
    start: tuple[str, str] | None = None,
    until_written: bool = False,
) -> Iterator[None]:
    """Append to `modules` the module under `prefix` of every Python call, as it happens.

    With `start` (a module and a function in it), only from that function's first call on.
    With `until_written`, only until the first write onto a socket once a module under
    `prefix` ran: what runs after the bytes left is not counted.
    """
    started = start is None

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal started
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            if not started and (name, frame.f_code.co_name) == start:
                started = True
            if started and name.startswith(prefix) and (not modules or modules[-1] != name):
                modules.append(name)
        if until_written and modules and _is_transport_write(frame, event, arg):
            sys.setprofile(None)

    sys.setprofile(profile)
    try:
        yield
    finally:
        sys.setprofile(None)


async def _trace(step: Callable[[], Awaitable[object]]) -> list[str]:
    modules: list[str] = []
    with entered(modules, until_written=True):
        await step()
    return [name.removeprefix(SERVER) for name in modules]


def _report(title: str, modules: list[str]) -> None:
    distinct = list(dict.fromkeys(modules))
    print(f"{title}: {len(distinct)} modules, {len(modules) - len(distinct)} returns")
    print("  " + " -> ".join(distinct))


async def _settled(thermostat: SimulatedThermostat) -> None:
    """Let the thermostat's report of its push, and the server's answer, pass untraced."""
    settled = getattr(thermostat, "settled", None)  # an older simulator has none
    if settled is not None:
        await settled()
    await asyncio.sleep(0.2)  # the server's side of that report: nothing to wait on here


async def trace_paths() -> dict[str, list[str]]:
    """Trace both paths; return each one's modules in the order entered, returns included."""
    config = ServiceConfig(api_origin="http://127.0.0.1:1", batch_window=0.05, save_delay=0)
    service = ThermostatService(config, UnsavedStorage())
    await service.async_load()
    server = DeviceServer(service)
    await server.async_start("127.0.0.1", 0)
    service.config.api_origin = f"http://127.0.0.1:{server.bound_port}"
    if hasattr(service, "_loaded"):  # since issue 29 the host starts the service
        service.start()
    async with aiohttp.ClientSession() as http:
        thermostat = SimulatedThermostat(
            f"http://127.0.0.1:{server.bound_port}",
            SERIAL,
            http,
            buckets={f"shared.{SERIAL}": {"target_temperature": 20.0}, f"device.{SERIAL}": {}},
        )
        await thermostat.entry()
        code = (await thermostat.passphrase())["value"]
        # An older checkout's service registers on its facade.
        register = getattr(service, "register", None) or service.pairing.register
        assert register(code).success
        thermostat.start()
        await thermostat.subscribed.wait()
        await _settled(thermostat)

        async def command() -> None:
            service.commands.set_temperature(SERIAL, 22.5)
            await thermostat.next_object(f"shared.{SERIAL}")

        async def report() -> None:
            await thermostat.put(f"shared.{SERIAL}", {"current_temperature": 19.5})

        paths = {"command to the wire": await _trace(command)}
        await _settled(thermostat)
        paths["report from the thermostat"] = await _trace(report)
        await thermostat.stop()
    if hasattr(service, "_loaded"):
        service.close_connections()
    await server.async_stop()
    if hasattr(service, "_loaded"):
        await service.async_stop()
    return paths


async def main() -> None:
    """Trace both paths and print them."""
    for title, modules in (await trace_paths()).items():
        _report(title, modules)


if __name__ == "__main__":
    asyncio.run(main())
