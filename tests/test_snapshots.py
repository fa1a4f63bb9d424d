"""Snapshots of a paired thermostat's entities and of the hub's diagnostics, as core tests them.

Each platform is loaded alone (core's `PLATFORMS` patch) so a snapshot shows one platform's
entity registry entries and states. The wall clock is frozen, so the timestamps the thermostat
and the service write are the same on every run; what still varies between runs (the free port
the device server binds, ids the service draws at random) is matched by type, not value.
"""

from __future__ import annotations

from collections.abc import Generator
from datetime import UTC, datetime
from typing import Any
from unittest.mock import PropertyMock, patch

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.entity import Entity
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry, snapshot_platform
from pytest_homeassistant_custom_component.components.diagnostics import (
    get_diagnostics_for_config_entry,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator
from syrupy.assertion import SnapshotAssertion
from syrupy.matchers import path_type

from custom_components.thermostat_cloud import PLATFORMS

from . import conftest
from .conftest import SERIAL, PairThermostat

FROZEN_AT = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
# Drawn anew on every run: the free port the device server binds, and random ids (the home's
# structure id, the simulated thermostat's device id). Snapshotted as their type.
VOLATILE = path_type(
    {
        "entry.data.device_port": (int,),
        "service.bound_port": (int,),
        "service.device_port": (int,),
        f"thermostats.{SERIAL}.structure_id": (str,),
        f"thermostats.{SERIAL}.record.device_id": (str,),
    }
)


@pytest.fixture
def frozen_clock(freezer: FrozenDateTimeFactory) -> FrozenDateTimeFactory:
    """Freeze the wall clock before Home Assistant starts.

    Requested ahead of `hass`, so Home Assistant and the access token of `hass_client` are
    created at the frozen time too (a token issued later than "now" is refused).
    """
    freezer.move_to(FROZEN_AT)
    return freezer


HUB_ENTRY_ID = "01KHUBENTRY0000000000000000"
"""The hub entry's id, fixed: the hub's own entities (the vacations calendar) are keyed by it."""


@pytest.fixture
def fixed_hub_entry_id() -> Generator[None]:
    """Give the hub entry the same id on every run."""
    made_by = conftest.hub_config_entry

    def hub_config_entry(port: int, origin: str | None = None) -> MockConfigEntry:
        entry = made_by(port, origin)
        return MockConfigEntry(
            domain=entry.domain, title=entry.title, data=dict(entry.data), entry_id=HUB_ENTRY_ID
        )

    with patch.object(conftest, "hub_config_entry", hub_config_entry):
        yield


@pytest.fixture
def entity_registry_enabled_by_default() -> Generator[None]:
    """Create entities enabled that are disabled by default, as core's fixture does."""
    with patch.object(
        Entity, "entity_registry_enabled_default", new_callable=PropertyMock, return_value=True
    ):
        yield


@pytest.mark.usefixtures("frozen_clock", "entity_registry_enabled_by_default", "fixed_hub_entry_id")
@pytest.mark.parametrize("platform", PLATFORMS)
async def test_platform_snapshot(
    hass: HomeAssistant,
    entity_registry: er.EntityRegistry,
    snapshot: SnapshotAssertion,
    pair_thermostat: PairThermostat,
    platform: Platform,
) -> None:
    """Entity ids, names, classes, units and states of one platform stay as users have them."""
    with patch("custom_components.thermostat_cloud.PLATFORMS", [platform]):
        paired = await pair_thermostat()

    await snapshot_platform(hass, entity_registry, snapshot, paired.entry.entry_id)


@pytest.mark.usefixtures("frozen_clock")
async def test_diagnostics_snapshot(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    snapshot: SnapshotAssertion,
    pair_thermostat: PairThermostat,
) -> None:
    """Diagnostics keep what a maintainer needs and leave out secrets."""
    paired = await pair_thermostat()
    diagnostics: dict[str, Any] = await get_diagnostics_for_config_entry(
        hass, hass_client, paired.entry
    )

    # The home's structure bucket is keyed by its random id: the one the thermostat is in.
    structure_key = f"structure.{diagnostics['thermostats'][SERIAL]['structure_id']}"
    assert list(diagnostics["home"]) == [structure_key]
    diagnostics["home"] = {"structure.<id>": diagnostics["home"][structure_key]}
    assert diagnostics == snapshot(matcher=VOLATILE)
