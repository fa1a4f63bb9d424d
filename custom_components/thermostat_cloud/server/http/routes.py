"""Routes as data: each surface declares a table of `Route`s, served by `build_app`.

The host serves the same tables as its views (the control API) or through one dispatcher
(the hosted API, `Route.match`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from aiohttp import web

from .helpers import Handler, json_errors

ANY_METHOD = "*"


@dataclass(frozen=True, slots=True)
class Route[H = Handler]:
    """One endpoint: a method, a path template (`{name}`: one segment) and its handler."""

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
    """Return an aiohttp application serving `routes` under each of `prefixes`."""
    app = web.Application(middlewares=[json_errors(*refused)], client_max_size=client_max_size)
    table = tuple(routes)
    for prefix in prefixes:
        for route in table:
            app.router.add_route(route.method, prefix + route.path, route.handler)
    return app
