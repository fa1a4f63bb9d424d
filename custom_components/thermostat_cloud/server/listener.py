"""An aiohttp application on its own TCP port, inside the caller's event loop."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web
from aiohttp.typedefs import Handler

_LOGGER = logging.getLogger(__name__)


class Listener:
    """Starts and stops one application on one port.

    aiohttp waits up to `shutdown_timeout` for open requests when it stops; held long-polls
    and event streams are told to close before `async_stop`, so one second is plenty and
    Home Assistant stops promptly with the port released.

    A client that opens a connection and never finishes its request would otherwise hold it
    (a socket and a handler) forever: the request head must arrive within `request_timeout`
    of the connection opening (or of the previous response, on a kept-alive connection), and
    then its body within `request_timeout` of the head. A complete request is never timed
    out: a subscribe's hold is the handler's own business.
    """

    def __init__(self, request_timeout: float) -> None:
        self._runner: web.AppRunner | None = None
        self.request_timeout = request_timeout

    async def async_start(self, app: web.Application, host: str | None, port: int) -> None:
        """Listen; raises OSError when the port cannot be bound."""
        app.middlewares.append(self._body_deadline)
        runner = web.AppRunner(
            app,
            access_log=None,
            shutdown_timeout=1.0,
            # A device that drops its connection ends its handler at once.
            handler_cancellation=True,
            # aiohttp closes a connection that has no complete request head this long after
            # it opened or after its last response (an idle keep-alive connection too).
            keepalive_timeout=self.request_timeout,
            # A request whose body did not arrive is answered and closed at once, not drained.
            lingering_time=0,
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port, reuse_address=True).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner

    @web.middleware
    async def _body_deadline(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Close the connection when the request body is not complete in time."""
        if request.content.is_eof():
            return await handler(request)
        transport = request.transport

        def expire() -> None:
            if not request.content.is_eof() and transport is not None:
                _LOGGER.info(
                    "Closed a connection whose request body did not arrive within %g s",
                    self.request_timeout,
                )
                # The handler waiting for the body is cancelled (handler_cancellation).
                transport.close()

        deadline = asyncio.get_running_loop().call_later(self.request_timeout, expire)
        try:
            return await handler(request)
        finally:
            deadline.cancel()

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
