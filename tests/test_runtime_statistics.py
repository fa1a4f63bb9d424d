"""Long-term statistics of the runtime sensors, as Home Assistant's recorder makes them.

A module of its own: the recorder must start before Home Assistant, which every other test
module's autouse fixture starts first.
"""

from __future__ import annotations

from datetime import timedelta

from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.recorder.core import Recorder
from homeassistant.core import HomeAssistant
from homeassistant.util import dt as dt_util
import pytest
from pytest_homeassistant_custom_component.components.recorder.common import (
    async_wait_recording_done,
    do_adhoc_statistics,
    statistics_during_period,
)

from .conftest import PairThermostat
from .test_runtime_sensors import SHARED, run_for


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(
    recorder_mock: Recorder, enable_custom_integrations: None
) -> None:
    """Start the recorder, then Home Assistant with the integration under test."""


async def test_long_term_statistics_of_the_runtime_only_grow(
    recorder_mock: Recorder,
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
) -> None:
    """The recorder's hourly sums: half an hour of heating each hour, a reload between them."""
    start = dt_util.utcnow().replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    freezer.move_to(start)
    paired = await pair_thermostat()
    heating = paired.entity_id("sensor", "heating_stage_1_runtime")
    for hour in range(2):
        await paired.thermostat.put(SHARED, {"hvac_heater_state": True})
        await run_for(paired, freezer, 30)
        await paired.thermostat.put(SHARED, {"hvac_heater_state": False})
        if hour == 0:
            assert await hass.config_entries.async_reload(paired.entry.entry_id)
            await hass.async_block_till_done()
            await paired.thermostat.heartbeat()
        await run_for(paired, freezer, 29)
        freezer.move_to(start + timedelta(hours=hour + 1, minutes=1))
        # The five minutes that end the hour: their compile makes the hour's statistics too.
        do_adhoc_statistics(hass, start=start + timedelta(hours=hour, minutes=55))
        await async_wait_recording_done(hass)

    stats = await hass.async_add_executor_job(
        lambda: statistics_during_period(
            hass, start, statistic_ids={heating}, period="hour", types={"sum", "state"}
        )
    )
    # The sum counts from the first hour compiled: the second hour adds its half hour, and the
    # reload between them is no reset (which would add the whole total again).
    assert [(row["state"], row["sum"]) for row in stats[heating]] == [(0.5, 0.0), (1.0, 0.5)]
