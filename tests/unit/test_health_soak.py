"""Normal heating days find nothing: a small soak (the full one is `python -m bench.health_soak`).

Setbacks, eco, dial turns, the day's outdoor swing and a restart in the morning's heating runs,
with and without weather; docs/performance.md records the full soak of 300 thermostats.
"""

from __future__ import annotations

import pytest

from bench.health_soak import soak


@pytest.mark.parametrize("weather", [True, False])
async def test_normal_heating_days_raise_no_finding(weather: bool) -> None:
    """Six thermostats, a day each, heating as usual: not one finding."""
    result = await soak(6, 1, weather=weather)
    assert result.reports > 6 * 100  # they did report: heat ran, rooms moved
    assert result.findings == []
