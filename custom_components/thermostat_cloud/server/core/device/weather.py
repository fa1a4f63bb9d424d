"""The weather seam: what the core asks of whoever knows the weather.

The service core knows no weather; the host sets a `WeatherProvider` on the service, and the
device surface's `/svc/weather/v1` calls it with the token firmware sent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

type WeatherProvider = Callable[[str], Awaitable[dict[str, Any]]]
"""Called with the query token; returns the weather to serve under it, or `{}` for none."""
