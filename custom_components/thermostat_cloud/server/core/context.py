"""What most parts of the core share, handed to each as one object.

A part takes separately only what few others need (delivery, another part).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..model.buckets import BucketStore
from ..model.clock import Clock
from ..model.devices import DeviceRegistry
from ..model.pairing import PairingRegistry
from .config import ServiceConfig
from .events import Announcements


@dataclass(frozen=True, slots=True, kw_only=True)
class CoreContext:
    """The config, the clock, the stores, the event path and the two ways to save."""

    config: ServiceConfig
    clock: Clock
    buckets: BucketStore
    devices: DeviceRegistry
    ownership: PairingRegistry
    events: Announcements
    request_save: Callable[[], None]
    """State changed: save within the config's `save_delay` (see `ThermostatService`)."""
    save_now_later: Callable[[], None]
    """Ownership or keys changed: save without the coalescing delay."""
