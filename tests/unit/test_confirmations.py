"""The confirmation bookkeeping's pure parts: what counts as confirming, what is saved and loaded."""

from __future__ import annotations

import logging
from typing import Any

from hypothesis import given, settings, strategies as st
import pytest

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core.write.confirmations import carries
from tests.conftest import FakeClock, MemoryStorage

SERIAL = "02AA01AC331400AB"

PREVIOUS_VERSION = {
    "home_user_id": "user1",
    "home_structure_id": "structure1",
    "buckets": {
        f"shared.{SERIAL}": {
            "revision": 3,
            "timestamp": 1_790_000_000_000,
            "value": {"target_temperature": 20.5},
        }
    },
    "devices": [],
    "pairing": {},
    "extra": {},
}
"""A document as main saved it before pending commands were kept (no `pending_commands`)."""


async def loaded(data: dict[str, Any] | None) -> tuple[ThermostatService, MemoryStorage]:
    storage = MemoryStorage(data)
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000", save_delay=0), storage, FakeClock()
    )
    await service.async_load()
    return service, storage


async def test_a_document_of_the_previous_version_loads_and_keeps_everything() -> None:
    service, storage = await loaded(dict(PREVIOUS_VERSION))
    assert service.delivery.pending(SERIAL) == []
    await service.async_flush()
    assert storage.data is not None
    assert storage.data["pending_commands"] == {}
    assert storage.data["buckets"][f"shared.{SERIAL}"]["value"] == {"target_temperature": 20.5}
    assert storage.data["home_user_id"] == "user1"


async def test_pending_commands_that_do_not_parse_are_dropped_alone(
    caplog: pytest.LogCaptureFixture,
) -> None:
    good = {
        "key": f"shared.{SERIAL}",
        "field": "target_temperature",
        "value": 22.0,
        "revision": 4,
        "timestamp": 1_790_000_000_500,
        "since": 1_790_000_000_500,
    }
    stored = {
        **PREVIOUS_VERSION,
        "pending_commands": {
            SERIAL: [good, {**good, "revision": "four"}, {**good, "key": "no-dot"}, "junk"],
            "other": "not a list",
        },
    }
    with caplog.at_level(logging.WARNING):
        service, storage = await loaded(stored)
    [entry] = service.delivery.pending(SERIAL)
    assert (entry.field, entry.value, entry.revision) == ("target_temperature", 22.0, 4)
    assert any("do not parse" in r.getMessage() for r in caplog.records)
    await service.async_flush()
    assert storage.data is not None
    assert storage.data["pending_commands"] == {SERIAL: [good]}


def test_a_report_carries_what_was_asked() -> None:
    assert carries(21.0, 20.99999)
    assert not carries(21.0, 21.5)
    assert carries(True, True)
    assert not carries(True, 1)  # a flag is not a number
    assert carries("heat", "heat")
    # An object field, without the stamps firmware puts on it.
    asked = {"mode": "manual-eco", "touched_by": 3, "mode_update_timestamp": 100}
    assert carries(asked, {"mode": "manual-eco", "touched_by": 1, "mode_update_timestamp": 7})
    assert not carries(asked, {"mode": "schedule"})


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
        max_leaves=8,
    )
)
def test_every_value_carries_itself(value: object) -> None:
    assert carries(value, value)
