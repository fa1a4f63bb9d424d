"""Unit tests of the service core's pure parts: no Home Assistant, no sockets.

Each test here calls the core (validation, the schedule check, buckets, rooms, the protocol
headers, the readers of bucket fields) directly and runs in milliseconds. Home Assistant's test
plugin keeps sockets blocked for every test that does not ask for `socket_enabled`; the fixtures
below replace the suite's two autouse fixtures that would start Home Assistant, and a test here
that asks for Home Assistant or a socket is refused at collection, so the folder stays what its
name says. Every test here carries the `unit` marker: `scripts/test -m unit`.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

from freezegun.api import FrozenDateTimeFactory
from hypothesis import strategies as st
import pytest

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import SERIAL, FakeClock, LoopClock, MemoryStorage

HERE = Path(__file__).parent
SHARED = f"shared.{SERIAL}"
DEVICE = f"device.{SERIAL}"
CLAIM = IdentityClaim(user_id=f"d.{SERIAL}.abc", password="secret", address="127.0.0.5")
"""The thermostat `SERIAL` as it identifies itself on the device protocol."""
NOT_HERE = frozenset({"hass", "socket_enabled", "hass_client", "enable_custom_integrations"})


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations() -> None:
    """No Home Assistant here, so no integration to enable."""


@pytest.fixture(autouse=True)
def usage_reports() -> None:
    """No Home Assistant here, so no use of its API to report."""


@pytest.fixture
def clock(freezer: FrozenDateTimeFactory) -> LoopClock:
    """Return the test's clock for the event loop's timers: it stands still until advanced."""
    return LoopClock(freezer)


@pytest.fixture
async def service() -> AsyncGenerator[ThermostatService]:
    """Return a loaded service core with a clock the test moves; stopped after the test."""
    svc = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000", save_delay=0),
        MemoryStorage(),
        FakeClock(),
    )
    await svc.async_load()
    yield svc
    await svc.async_stop()


def pair(service: ThermostatService, serial: str, user_id: str | None = None) -> None:
    """Pair a thermostat as the user would, with the code on its screen (as `user_id`)."""
    code = harness(service).pairing_code(serial)
    assert service.pairing.register(code, user_id).success


def report(service: ThermostatService, key: str = SHARED, /, **fields: Any) -> None:
    """PUT fields as the thermostat does (no fields: contact only, as a subscribe is)."""
    service.sessions.put(CLAIM, [PutEntry(key, fields, None, 0)] if fields else [])


def timed_reports(
    latest_s: float, fields: list[str], values: st.SearchStrategy[object]
) -> st.SearchStrategy[list[tuple[float, str, object]]]:
    """Up to 25 reports of one of `fields`, each after the clock moves -2 h to `latest_s` s."""
    return st.lists(
        st.tuples(
            st.floats(min_value=-7200, max_value=latest_s, allow_nan=False),
            st.sampled_from(fields),
            values,
        ),
        max_size=25,
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark this folder's tests `unit`; refuse one that needs Home Assistant or a socket."""
    for item in items:
        if not item.path.is_relative_to(HERE):
            continue
        item.add_marker(pytest.mark.unit)
        needs = NOT_HERE.intersection(getattr(item, "fixturenames", ()))
        if needs:
            raise pytest.UsageError(f"{item.nodeid} is a unit test but uses {sorted(needs)}")


@pytest.fixture(autouse=True)
def enable_event_loop_debug() -> None:
    """Leave the loop's debug mode off: no Home Assistant here to watch for blocking calls.

    Debug mode records a stack trace with every callback the loop schedules; the core's
    timers and events schedule thousands in a simulated day, which doubled the folder's time.
    """
