"""Request quotas of the hosted API: fixed one-minute windows per principal.

Unlike a sliding log, a window opened by a principal's first request gives clients an exact
`X-RateLimit-Reset`, when the whole quota is back; refused (429) requests are not counted, so a
client that waits for the reset gets its full quota.
"""

from __future__ import annotations

from dataclasses import dataclass

WINDOW_MS = 60_000
# Forget finished windows once this many principals are tracked (bounded memory).
PRUNE_THRESHOLD = 1024


@dataclass(slots=True)
class _Window:
    start: int
    count: int


@dataclass(frozen=True, slots=True)
class Quota:
    """What is left of one principal's quota at a moment."""

    limit: int
    remaining: int
    reset_ms: int
    """When the current window ends (or would end, if one opened now)."""

    @property
    def exhausted(self) -> bool:
        return self.remaining <= 0


class RateLimiter:
    """At most `limit` requests per principal per fixed window."""

    def __init__(self, limit: int, window_ms: int = WINDOW_MS) -> None:
        self.limit = limit
        self.window_ms = window_ms
        self._windows: dict[str, _Window] = {}

    def _current(self, principal: str, now: int) -> _Window | None:
        window = self._windows.get(principal)
        if window is not None and now >= window.start + self.window_ms:
            del self._windows[principal]
            return None
        return window

    def quota(self, principal: str, now: int) -> Quota:
        window = self._current(principal, now)
        if window is None:
            return Quota(self.limit, self.limit, now + self.window_ms)
        return Quota(self.limit, self.limit - window.count, window.start + self.window_ms)

    def hit(self, principal: str, now: int) -> Quota:
        """Count one accepted request; returns the quota left after it."""
        window = self._current(principal, now)
        if window is None:
            if len(self._windows) >= PRUNE_THRESHOLD:
                self._prune(now)
            window = self._windows[principal] = _Window(now, 0)
        window.count += 1
        return Quota(self.limit, self.limit - window.count, window.start + self.window_ms)

    def _prune(self, now: int) -> None:
        for principal in [p for p, w in self._windows.items() if now >= w.start + self.window_ms]:
            del self._windows[principal]
