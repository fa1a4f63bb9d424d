"""An aiohttp application on its own TCP port, inside the caller's event loop."""

from __future__ import annotations

from aiohttp import web


class Listener:
    """Starts and stops one application on one port.

    aiohttp waits up to `shutdown_timeout` for open requests when it stops; held long-polls
    and event streams are told to close before `async_stop`, so one second is plenty and
    Home Assistant stops promptly with the port released.
    """

    def __init__(self) -> None:
        self._runner: web.AppRunner | None = None

    async def async_start(self, app: web.Application, host: str | None, port: int) -> None:
        """Listen; raises OSError when the port cannot be bound."""
        # handler_cancellation: a device that drops its connection ends its handler at once.
        runner = web.AppRunner(
            app, access_log=None, shutdown_timeout=1.0, handler_cancellation=True
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port, reuse_address=True).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner

    @property
    def bound_port(self) -> int | None:
        """The port it listens on (useful with port 0), None when stopped."""
        if self._runner is None:
            return None
        for address in self._runner.addresses:
            if isinstance(address, tuple):
                return int(address[1])
        return None

    async def async_stop(self) -> None:
        """Close the port; safe to call twice."""
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
