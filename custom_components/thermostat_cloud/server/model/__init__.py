"""The model and its stores: buckets, device records, pairings, API keys, saved records."""

from .api_keys import ApiKey, Scope
from .buckets import bucket_key
from .clock import Clock, SystemClock
from .devices import SERIAL_RE, DeviceRecord
from .pairing import RegisterOutcome
from .records import UnstorableError, ensure_storable
from .text import for_log

__all__ = [
    "SERIAL_RE",
    "ApiKey",
    "Clock",
    "DeviceRecord",
    "RegisterOutcome",
    "Scope",
    "SystemClock",
    "UnstorableError",
    "bucket_key",
    "ensure_storable",
    "for_log",
]
