"""The small HTTP kit the three surfaces share: routes, a port listener, bodies, errors, a wakeup."""

from .helpers import (
    BadRequestError,
    Handler,
    error_response,
    form_fields,
    json_errors,
    read_body,
    read_json_object,
    refuse,
)
from .listener import PortListener
from .routes import ANY_METHOD, Route, build_app
from .wakeup import Wakeup

__all__ = [
    "ANY_METHOD",
    "BadRequestError",
    "Handler",
    "PortListener",
    "Route",
    "Wakeup",
    "build_app",
    "error_response",
    "form_fields",
    "json_errors",
    "read_body",
    "read_json_object",
    "refuse",
]
