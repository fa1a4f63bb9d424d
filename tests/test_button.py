"""The button platform: its entities of a paired thermostat and of the home."""

from __future__ import annotations

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from syrupy.assertion import SnapshotAssertion

from .conftest import PairThermostat
from .platform_snapshots import assert_platform_snapshot


async def test_entities(
    hass: HomeAssistant,
    entity_registry: er.EntityRegistry,
    snapshot: SnapshotAssertion,
    pair_thermostat: PairThermostat,
    freezer: FrozenDateTimeFactory,
) -> None:
    """The button entities' ids, names, classes, units and states stay as users have them."""
    await assert_platform_snapshot(
        hass, entity_registry, snapshot, pair_thermostat, freezer, platform=Platform.BUTTON
    )
