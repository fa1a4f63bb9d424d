"""Wall-clock milliseconds, injectable so tests can move time."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Source of the service's wall-clock time."""

    def now_ms(self) -> int:
        """Milliseconds since the Unix epoch."""


class SystemClock:
    """The real clock."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000
