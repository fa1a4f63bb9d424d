"""The model and its stores: buckets, device records, pairings, API keys, saved records."""

from .api_keys import ApiKey, ApiKeyStore, Scope
from .buckets import Bucket, BucketStore, bucket_key, is_bucket_key, split_key
from .clock import Clock, SystemClock
from .devices import SERIAL_RE, DeviceRecord, DeviceRegistry
from .pairing import Pairing, PairingRegistry, RegisterOutcome
from .records import UnstorableError, ensure_storable, flat_dict
from .text import for_log

__all__ = [
    "SERIAL_RE",
    "ApiKey",
    "ApiKeyStore",
    "Bucket",
    "BucketStore",
    "Clock",
    "DeviceRecord",
    "DeviceRegistry",
    "Pairing",
    "PairingRegistry",
    "RegisterOutcome",
    "Scope",
    "SystemClock",
    "UnstorableError",
    "bucket_key",
    "ensure_storable",
    "flat_dict",
    "for_log",
    "is_bucket_key",
    "split_key",
]
