"""Routes as data: each surface declares a table of `Route`s, and one function serves it.

The device protocol and the control API's own port are applications built by `build_app`
(with the `{"error": ...}` middleware); the host serves the control API's table as its views
and the hosted API's table through one dispatcher (`Route.match`), so every surface declares
its endpoints the same way, as (method, path, handler).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from aiohttp import web

from .helpers import Handler, json_errors

ANY_METHOD = "*"


@dataclass(frozen=True, slots=True)
class Route[H = Handler]:
    """One endpoint: a method, a path template and its handler.

    `path` takes `{name}` for one path segment (and, in an application `build_app` makes,
    aiohttp's `{name:regex}`). A surface adds what it needs to know of a route by subclassing
    (the control API: administrators only; the hosted API: the key's scope).
    """

    method: str
    """An HTTP method, or `*` for any."""
    path: str
    handler: H
    name: str = ""
    """A stable name (the host names its views by it)."""

    def match(self, path: str) -> dict[str, str] | None:
        """Return the path's parameters when it fits the template (any method), else None."""
        template = self.path.strip("/").split("/")
        segments = path.strip("/").split("/")
        if len(template) != len(segments):
            return None
        params: dict[str, str] = {}
        for part, segment in zip(template, segments, strict=True):
            if part.startswith("{") and part.endswith("}"):
                if not segment:
                    return None
                params[part[1:-1]] = segment
            elif part != segment:
                return None
        return params


def build_app(
    routes: Iterable[Route],
    *,
    refused: tuple[type[Exception], ...] = (),
    prefixes: Iterable[str] = ("",),
    client_max_size: int = 1024**2,
) -> web.Application:
    """Return an aiohttp application serving `routes` under each of `prefixes`.

    Every error is `{"error": ...}`: a malformed request, and any of the `refused` exceptions
    (input the surface's domain turned away), is a 400 with a debug line, never a 500.
    """
    app = web.Application(middlewares=[json_errors(*refused)], client_max_size=client_max_size)
    table = tuple(routes)
    for prefix in prefixes:
        for route in table:
            app.router.add_route(route.method, prefix + route.path, route.handler)
    return app
