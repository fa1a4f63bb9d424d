"""A loaded service on its device port, started and stopped in the hub's order (`hub.Hub`).

The device server listens first, then the service starts (its timers; it takes subscribes).
To stop, the service tells its held subscribes to end, the device server releases the port
(it waits for open requests), and then the service stops and saves.
"""

from __future__ import annotations

from custom_components.thermostat_cloud.server import DeviceServer, ThermostatService


async def start_serving(service: ThermostatService, port: int = 0) -> DeviceServer:
    """Serve a loaded service's device protocol on 127.0.0.1 (a free port by default)."""
    server = DeviceServer(service)
    await server.async_start("127.0.0.1", port)
    service.start()
    return server


async def stop_serving(server: DeviceServer) -> None:
    """Stop as the hub does: held subscribes end, the port is released, the state is saved."""
    server.service.close_connections()
    await server.async_stop()
    await server.service.async_stop()
