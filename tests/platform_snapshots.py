"""Snapshots of one platform's entities of a paired thermostat, as core tests them.

Each platform's test module holds its snapshot test (`test_entities`, core's
`snapshot_platform`), so that syrupy keeps it in the module's own file,
`snapshots/test_<platform>.ambr`: the platform is loaded alone (core's `PLATFORMS`
patch), every entity enabled, the wall clock frozen and the hub entry's id fixed, so the
entity registry entries and states are the same on every run.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from typing import Any
from unittest.mock import PropertyMock, patch

from freezegun.api import FrozenDateTimeFactory
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.entity import Entity
from pytest_homeassistant_custom_component.common import MockConfigEntry, snapshot_platform
from syrupy.assertion import SnapshotAssertion

from . import conftest
from .conftest import PairThermostat

FROZEN_AT = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)
type PlatformSnapshotTest = Callable[
    [HomeAssistant, er.EntityRegistry, SnapshotAssertion, PairThermostat, FrozenDateTimeFactory],
    Coroutine[Any, Any, None],
]
HUB_ENTRY_ID = "01KHUBENTRY0000000000000000"
"""The hub entry's id, fixed: the hub's own entities (the vacations calendar, the Away switch)
are keyed by it."""


@contextmanager
def fixed_hub_entry_id() -> Iterator[None]:
    """Give the hub entry the same id on every run."""
    made_by = conftest.hub_config_entry

    def hub_config_entry(port: int, origin: str | None = None) -> MockConfigEntry:
        entry = made_by(port, origin)
        return MockConfigEntry(
            domain=entry.domain, title=entry.title, data=dict(entry.data), entry_id=HUB_ENTRY_ID
        )

    with patch.object(conftest, "hub_config_entry", hub_config_entry):
        yield


def platform_snapshot_test(platform: Platform) -> PlatformSnapshotTest:
    """Return a platform's snapshot test, for its test module to hold as `test_entities`."""

    async def test_entities(
        hass: HomeAssistant,
        entity_registry: er.EntityRegistry,
        snapshot: SnapshotAssertion,
        pair_thermostat: PairThermostat,
        freezer: FrozenDateTimeFactory,
    ) -> None:
        """Entity ids, names, classes, units and states of one platform stay as users have them.

        Entities disabled by default are created enabled, as core's fixture does, so that every
        entity is in the snapshot.
        """
        freezer.move_to(FROZEN_AT)
        with ExitStack() as stack:
            stack.enter_context(fixed_hub_entry_id())
            stack.enter_context(
                patch.object(
                    Entity,
                    "entity_registry_enabled_default",
                    new_callable=PropertyMock,
                    return_value=True,
                )
            )
            stack.enter_context(patch("custom_components.thermostat_cloud.PLATFORMS", [platform]))
            paired = await pair_thermostat()

        await snapshot_platform(hass, entity_registry, snapshot, paired.entry.entry_id)

    return test_entities
