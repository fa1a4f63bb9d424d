"""The small HTTP kit the three surfaces share: a port listener, bodies, errors, a wakeup."""

from .helpers import (
    BadRequestError,
    error_response,
    form_fields,
    json_errors,
    read_body,
    read_json_object,
    refuse,
)
from .listener import PortListener
from .wakeup import Wakeup

__all__ = [
    "BadRequestError",
    "PortListener",
    "Wakeup",
    "error_response",
    "form_fields",
    "json_errors",
    "read_body",
    "read_json_object",
    "refuse",
]
