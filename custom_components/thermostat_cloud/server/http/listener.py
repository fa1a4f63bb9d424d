"""An aiohttp application on its own TCP port, inside the caller's event loop."""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler
from aiohttp.web_protocol import ERROR, RequestHandler

_LOGGER = logging.getLogger(__name__)


class _MalformedRequestFilter(logging.Filter):
    """Turn aiohttp's error for a request it could not parse into one debug line.

    aiohttp logs those with a traceback at ERROR, so any device on the LAN could fill the
    host's log; the fault is the sender's. Our own handlers' exceptions stay errors.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, HttpProcessingError):
            return True
        # aiohttp's message is "Error handling request from %s" with the peer's address.
        peer = record.args[0] if isinstance(record.args, tuple) and record.args else None
        # The error's kind only: its message quotes the request, headers and all.
        _LOGGER.debug(
            "Answered 400 to a malformed request from %s (%s)",
            peer or "an unknown peer",
            type(error).__name__,
        )
        return False


# Our own logger (the runner's `logger=`), so the host's server and other integrations keep
# aiohttp's logger unfiltered.
_SERVER_LOGGER = logging.getLogger(f"{__name__}.http")
_SERVER_LOGGER.addFilter(_MalformedRequestFilter())


class _BodylessParseErrors(RequestHandler):
    """aiohttp's connection handler, whose answer to a request it could not parse has no body.

    Unparsed, it may have been a HEAD, whose answer must have no body: a client would read
    aiohttp's plain-text reason as the start of the next answer.
    """

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        answer = super().handle_error(request, status, exc, message)
        if request.method != ERROR.method:
            return answer
        bare = web.Response(status=answer.status)
        bare.force_close()
        return bare


class _Server(web.Server):
    """aiohttp's low-level server, serving each connection with `_BodylessParseErrors`."""

    def __call__(self) -> RequestHandler:
        return _BodylessParseErrors(self, loop=self._loop, **self._kwargs)


class _Runner(web.AppRunner):
    """aiohttp's application runner, whose server is a `_Server`."""

    async def _make_server(self) -> web.Server:
        server = await super()._make_server()
        return _Server(
            server.request_handler,
            request_factory=server.request_factory,
            handler_cancellation=server.handler_cancellation,
            loop=asyncio.get_running_loop(),
            **server._kwargs,
        )


class PortListener:
    """Starts and stops one application on one port.

    So that a client that never finishes its request cannot hold a socket and a handler for
    good, a request head must arrive within `request_timeout` of the connection (checked every
    half of it) and its body within `request_timeout` of the head; a complete request is never
    timed out (a subscribe's hold is its handler's). An idle kept-alive connection lasts
    `keepalive_timeout`: firmware may reuse it after sleeping `suspend_time_max`
    (codykociemba/NoLongerEvil-SelfHosted, src/nolongerevil/main.py). Held requests are closed
    before `async_stop`, so a one-second shutdown timeout is plenty.
    """

    def __init__(self, request_timeout: float, keepalive_timeout: float) -> None:
        self._runner: web.AppRunner | None = None
        self.request_timeout = request_timeout
        self.keepalive_timeout = keepalive_timeout
        self._waiting: dict[RequestHandler, float] = {}
        """Connections without a complete request head yet -> when they were first seen."""
        self._served: set[RequestHandler] = set()
        self._sweep: asyncio.TimerHandle | None = None

    async def async_start(self, app: web.Application, host: str | None, port: int) -> None:
        """Listen; raises OSError when the port cannot be bound."""
        app.middlewares.append(self._body_deadline)
        runner = _Runner(
            app,
            access_log=None,
            logger=_SERVER_LOGGER,
            shutdown_timeout=1.0,
            # A device that drops its connection ends its handler at once.
            handler_cancellation=True,
            keepalive_timeout=self.keepalive_timeout,
            # A request whose body did not arrive is closed at once, not drained.
            lingering_time=0,
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port, reuse_address=True).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self._schedule_sweep()

    def _schedule_sweep(self) -> None:
        self._sweep = asyncio.get_running_loop().call_later(
            self.request_timeout / 2, self._close_silent_connections
        )

    def _close_silent_connections(self) -> None:
        if self._runner is None or (server := self._runner.server) is None:
            return
        now = asyncio.get_running_loop().time()
        connections = set(server.connections)
        self._served &= connections
        waiting = {
            connection: self._waiting.get(connection, now)
            for connection in connections - self._served
        }
        for connection, since in list(waiting.items()):
            if now - since >= self.request_timeout:
                _LOGGER.debug(
                    "Closed a connection that sent no complete request within %g s",
                    self.request_timeout,
                )
                connection.force_close()
                del waiting[connection]
        self._waiting = waiting
        self._schedule_sweep()

    @web.middleware
    async def _body_deadline(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Close the connection when the body is not complete in time (the head is, here)."""
        self._served.add(request.protocol)
        self._waiting.pop(request.protocol, None)
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
        if self._sweep is not None:
            self._sweep.cancel()
            self._sweep = None
        self._waiting.clear()
        self._served.clear()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
