"""Shared fixtures: the service on a real loopback socket, and simulated thermostats."""

from __future__ import annotations

import asyncio
from collections.abc import (
    AsyncGenerator,
    Awaitable,
    Callable,
    Collection,
    Generator,
    Iterator,
)
import contextlib
import dataclasses
from dataclasses import dataclass
from datetime import timedelta
import logging
from pathlib import Path
import socket
import sys
from typing import Any, cast

import aiohttp
from aiohttp import web
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components.climate.const import DOMAIN as CLIMATE_DOMAIN
from homeassistant.config_entries import SOURCE_USER, ConfigEntry, ConfigEntryState
from homeassistant.const import ATTR_ENTITY_ID, EVENT_STATE_CHANGED, EVENT_STATE_REPORTED
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import entity_registry as er, frame
from homeassistant.helpers.json import json_bytes
from homeassistant.util.json import json_loads
from homeassistant.util.unit_system import US_CUSTOMARY_SYSTEM
import orjson
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.syrupy import HomeAssistantSnapshotExtension
import pytest_socket
from syrupy.assertion import SnapshotAssertion

# Import the integration before the `hass` fixture runs, or Home Assistant's loader picks up
# the test harness's own custom_components package.
import custom_components.thermostat_cloud
from custom_components.thermostat_cloud import PLATFORMS
from custom_components.thermostat_cloud.const import (
    CONF_API_ORIGIN,
    CONF_CODE,
    CONF_DEVICE_PORT,
    DATA_CONTROL_API,
    DOMAIN,
    SUBENTRY_THERMOSTAT,
)
from custom_components.thermostat_cloud.server import (
    DeviceServer,
    EventKind,
    LocalNetwork,
    ServiceConfig,
    ServiceEvent,
    ThermostatService,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.serving import start_serving, stop_serving
from tests.settings_pages import FakeThermostatSettings, free_port_on_loopback_hosts
from thermostat_sim import FIRMWARE_SETTINGS, SimulatedThermostat

INTEGRATION_PACKAGE = custom_components.thermostat_cloud.__name__
SERIAL = "02AA01AC331400AB"
OTHER_SERIAL = "02AA01AC331400CD"
NO_EQUIPMENT = {
    "can_heat": False,
    "can_cool": False,
    "has_fan": False,
    "has_emer_heat": False,
    "has_humidifier": False,
    "has_dehumidifier": False,
    "has_x2_heat": False,
    "has_x3_heat": False,
    "has_aux_heat": False,
    "has_alt_heat": False,
    "has_x2_alt_heat": False,
    "has_x2_cool": False,
    "has_x3_cool": False,
    "has_heat_pump": False,
    "has_dual_fuel": False,
}
"""The capabilities of a thermostat without any of the equipment firmware reports."""


class MemoryStorage:
    """Storage kept in memory, saving immediately so tests can inspect it.

    Every save goes through the serialization Home Assistant's Store uses (orjson), so a value
    the real store could not write fails the test that stored it.
    """

    def __init__(self, data: dict[str, Any] | None = None) -> None:
        """Initialize the storage with what it holds at first."""
        self.data = data
        self.saves = 0

    async def async_load(self) -> dict[str, Any] | None:
        """Return what was saved last."""
        return self.data

    def embed_json(self, data: bytes) -> Any:
        """Embed already serialized JSON in the data to save."""
        return orjson.Fragment(data)

    def schedule_save(self, snapshot: Callable[[], dict[str, Any]], delay: float) -> None:
        """Save the snapshot at once, whatever the delay."""
        self._save(snapshot())

    async def async_save(self, data: dict[str, Any]) -> None:
        """Save the data."""
        self._save(data)

    def _save(self, data: dict[str, Any]) -> None:
        self.data = cast("dict[str, Any]", json_loads(json_bytes(data)))
        self.saves += 1


class FakeClock:
    """A wall clock the test moves by hand."""

    def __init__(self, now_ms: int = 1_800_000_000_000) -> None:
        """Initialize the clock at a time in milliseconds."""
        self.now = now_ms

    def now_ms(self) -> int:
        """Return the time in milliseconds."""
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward."""
        self.now += int(seconds * 1000)


@dataclass
class LoopClock:
    """Time that passes only when the test moves it: the wall clock and the event loop's.

    Built on the `freezer` fixture, which freezes `time.time()` (the service's `SystemClock`,
    Home Assistant's `dt_util.utcnow()`) and `time.monotonic()`, the event loop's `loop.time()`
    that every `call_later` and `asyncio.timeout` counts in. So no timer of the service, of
    aiohttp or of the simulated thermostat fires until `advance` moves time past it, while
    sockets still carry every byte at once: a test waits for the event it is about (a close,
    a push, an availability change), never for time to pass. The unit tests' clock has no
    Home Assistant to wait for.
    """

    freezer: FrozenDateTimeFactory
    hass: HomeAssistant | None = None

    async def advance(self, seconds: float) -> None:
        """Move time forward; the timers that fell due run, then what they set off.

        A microsecond more than asked: the loop runs a timer only once its time has passed,
        never at the very instant (`BaseEventLoop._run_once`), so a deadline reached exactly
        would not fire on a clock that stands still.
        """
        self.freezer.tick(timedelta(seconds=seconds, microseconds=1))
        # The loop's next pass queues the due timers behind this task and the one after runs
        # them; Home Assistant then finishes what they started.
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        if self.hass is not None:
            await self.hass.async_block_till_done()


@pytest.fixture
def clock(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> LoopClock:
    """Return the test's clock: from here time stands still until the test advances it.

    Set up before the test's other fixtures (`pytest_collection_modifyitems` sees to it), so
    the servers they start set their timers on the frozen clock: freezing moves the loop's
    time from the machine's uptime to the Unix epoch, and a timer set before would fire at once.
    """
    return LoopClock(freezer, hass)


UNIT_TESTS = Path(__file__).parent / "unit"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the fast layer and run it first, the unit tests first; set up a test's `clock` first.

    The fast layer (`-m fast`) is the unit tests and one `smoke` test per entity platform: a
    broken core or platform fails within a minute, before the Home Assistant suite starts.
    """
    mark_fast_layer(config, items)
    items.sort(
        key=lambda item: (
            not item.path.is_relative_to(UNIT_TESTS),
            item.get_closest_marker("fast") is None,
        )
    )
    for item in items:
        if not isinstance(item, pytest.Function) or "clock" not in item.fixturenames:
            continue
        # After the autouse fixtures (Home Assistant's harness), before those the test asks for.
        names = item.fixturenames
        names.remove("clock")
        asked = [names.index(name) for name in item._fixtureinfo.argnames if name in names]
        names.insert(min(asked, default=len(names)), "clock")


def mark_fast_layer(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the unit tests and the platforms' smoke tests `fast`.

    A run of the whole suite (no paths given) refuses to start when an entity platform of the
    integration has no smoke test, so the fast layer keeps setting up every one of them.
    """
    smoked: set[str] = set()
    for item in items:
        smoke = item.get_closest_marker("smoke")
        if smoke is not None:
            smoked.add(smoke.args[0])
        if smoke is not None or item.path.is_relative_to(UNIT_TESTS):
            item.add_marker(pytest.mark.fast)
    if config.args_source is not pytest.Config.ArgsSource.TESTPATHS:
        return
    missing = {platform.value for platform in PLATFORMS} - smoked
    if missing:
        raise pytest.UsageError(f"no smoke test (`@pytest.mark.smoke`) for {sorted(missing)}")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Say how the fast layer went once it has run, when a run holds more tests after it."""
    fast = {item.nodeid for item in session.items if item.get_closest_marker("fast")}
    if fast and len(fast) < len(session.items):
        session.config.pluginmanager.register(FastLayerAnswer(session.config, fast))


class FastLayerAnswer:
    """A line on the terminal as soon as the last test of the fast layer has finished."""

    def __init__(self, config: pytest.Config, nodeids: set[str]) -> None:
        """Initialize with the run's configuration and the fast layer's tests."""
        self.config = config
        self.left = set(nodeids)
        self.count = len(nodeids)
        self.failed: list[str] = []
        self.seconds = 0.0

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Count the fast layer's tests as they finish; answer after the last."""
        if report.nodeid not in self.left:
            return
        self.seconds += report.duration
        if report.failed:
            self.failed.append(report.nodeid)
        if report.when != "teardown":
            return
        self.left.discard(report.nodeid)
        if self.left:
            return
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None:
            return
        if reporter.currentfspath is None:  # -q: a line of progress dots under way
            reporter.write("\n")
        else:
            reporter.ensure_newline()
        if self.failed:
            reporter.write_line(
                f"==> fast layer FAILED ({len(self.failed)} of {self.count} tests, {self.seconds:.0f} s):"
                f" {', '.join(sorted(set(self.failed)))}; the other tests run all the same",
                red=True,
            )
        else:
            reporter.write_line(
                f"==> fast layer passed ({self.count} tests, {self.seconds:.0f} s); the other tests follow",
                green=True,
            )


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(enable_custom_integrations: None) -> None:
    """Let Home Assistant load the integration under test."""


@pytest.fixture(autouse=True)
def usage_reports(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> Generator[list[str]]:
    """Fail tests in which Home Assistant reports this integration's use of its API.

    Fail every test in which Home Assistant reports that this integration uses its API in a
    deprecated or wrong way; the list is what it reported.

    Two ways in, as Home Assistant reports each case only once per process (so only the test
    that meets it first sees it): calls of `frame.report_usage` naming the integration, caught
    before that de-duplication; and warnings saying "deprecated" that name it (the frame
    helper's own lines, and those logged without it, e.g. 2026.11 on a climate entity class
    that provides a deprecated temperature name when the class is defined: Home Assistant
    imports the platform modules during a test, never at collection).
    """
    reports: list[str] = []
    report_usage = frame.report_usage

    def recording_report_usage(what: str, **kwargs: Any) -> None:
        # What Home Assistant deliberately lets custom integrations do is no report (2026.11:
        # a boolean from async_setup_entry, which 2026.10 still requires).
        behavior = kwargs.get("custom_integration_behavior", frame.ReportBehavior.LOG)
        domain = kwargs.get("integration_domain")
        if domain is None:
            with contextlib.suppress(frame.MissingIntegrationFrame):
                domain = frame.get_integration_frame(
                    exclude_integrations=kwargs.get("exclude_integrations")
                ).integration
        if domain == DOMAIN and behavior is not frame.ReportBehavior.IGNORE:
            reports.append(what)
        report_usage(what, **kwargs)

    # Most of Home Assistant imports the function by name: replace it wherever it was bound.
    for module in list(sys.modules.values()):
        if getattr(module, "__dict__", {}).get("report_usage") is report_usage:
            monkeypatch.setattr(module, "report_usage", recording_report_usage)

    yield reports

    reports.extend(
        record.getMessage()
        for when in ("setup", "call", "teardown")
        for record in caplog.get_records(when)
        if record.levelno >= logging.WARNING
        and (
            (record.name == frame.__name__ and f"integration '{DOMAIN}'" in record.getMessage())
            or (
                "deprecated" in record.getMessage().lower()
                and (record.name.startswith(INTEGRATION_PACKAGE) or DOMAIN in record.getMessage())
            )
        )
    )
    if reports:
        pytest.fail(f"Home Assistant reported this integration's use of its API: {reports}")


@pytest.fixture
def service_config() -> ServiceConfig:
    """Short windows so tests finish quickly; api_origin is set once the port is known."""
    return ServiceConfig(
        api_origin="http://127.0.0.1:1", batch_window=0.3, suspend_time_max=300, save_delay=0
    )


@pytest.fixture
def storage() -> MemoryStorage:
    """Return the service's storage."""
    return MemoryStorage()


@pytest.fixture
async def device_server(
    socket_enabled: None, service_config: ServiceConfig, storage: MemoryStorage
) -> AsyncGenerator[DeviceServer]:
    """Return the device server of a loaded service, listening on 127.0.0.1 on a free port."""
    svc = ThermostatService(service_config, storage)
    await svc.async_load()
    server = await start_serving(svc)
    svc.config.api_origin = f"http://127.0.0.1:{server.bound_port}"
    yield server
    await stop_serving(server)


@pytest.fixture
def service(device_server: DeviceServer) -> ThermostatService:
    """Return the service core behind the running device server."""
    return device_server.service


@pytest.fixture
def device_url(service: ThermostatService) -> str:
    """`{device_url}` of the running service."""
    return service.config.api_origin


@pytest.fixture
async def http(socket_enabled: None) -> AsyncGenerator[aiohttp.ClientSession]:
    """Return a plain HTTP client for raw requests."""
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
async def make_thermostat(
    device_url: str, http: aiohttp.ClientSession
) -> AsyncGenerator[Callable[..., SimulatedThermostat]]:
    """Build simulated thermostats; their subscribe loops are stopped after the test."""
    made: list[SimulatedThermostat] = []

    def make(serial: str = SERIAL, **buckets: dict[str, Any]) -> SimulatedThermostat:
        initial = {f"{name}.{serial}": value for name, value in buckets.items()}
        thermostat = SimulatedThermostat(device_url, serial, http, buckets=initial)
        made.append(thermostat)
        return thermostat

    yield make
    for thermostat in made:
        await thermostat.stop()


# -- a paired thermostat behind a loaded hub entry (entity tests) ----------------------------------

THERMOSTAT_SHARED: dict[str, Any] = {
    "can_heat": True,
    "can_cool": True,
    "target_temperature_type": "heat",
    "target_temperature": 20.0,
    "target_temperature_low": 19.0,
    "target_temperature_high": 24.0,
    "current_temperature": 21.3,
    "hvac_heater_state": False,
    "hvac_ac_state": False,
    "hvac_fan_state": False,
    "leaf": False,
}
THERMOSTAT_DEVICE: dict[str, Any] = {
    "has_fan": True,
    "has_emer_heat": True,
    "has_humidifier": True,
    "current_humidity": 41,
    "target_humidity": 35,
    "fan_mode": "auto",
    "backplate_temperature": 21.6,
    "time_to_target": 0,
    "temperature_scale": "C",
    "eco": {"mode": "schedule"},
    "eco_mode_enabled": False,
    **FIRMWARE_SETTINGS,
}


# Eco on from the thermostat's own menu, between 12 and 28 °C.
ECO_MANUAL = {
    "eco": {"mode": "manual-eco"},
    "away_temperature_low": 12.0,
    "away_temperature_high": 28.0,
}


@dataclass
class PairedThermostat:
    """A hub entry, and a simulated thermostat paired to it and holding its subscribe."""

    hass: HomeAssistant
    entry: MockConfigEntry
    thermostat: SimulatedThermostat

    @property
    def service(self) -> ThermostatService:
        """The running service of the hub entry."""
        return cast("ThermostatService", self.entry.runtime_data.service)

    @property
    def serial(self) -> str:
        """The thermostat's serial."""
        return self.thermostat.serial

    def entity_id(self, platform: str, key: str | None = None) -> str:
        """Return the entity id of one of the thermostat's entities, by its unique-id suffix."""
        unique_id = self.serial if key is None else f"{self.serial}_{key}"
        entity_id = er.async_get(self.hass).async_get_entity_id(platform, DOMAIN, unique_id)
        assert entity_id is not None, f"no {platform} entity {unique_id}"
        return entity_id

    async def pushed(self, bucket: str, **expected: Any) -> dict[str, Any]:
        """Return the value of the next push of a bucket to the thermostat that has these fields.

        `bucket` is a bucket type of the thermostat (`shared`) or a whole key
        (`structure.<id>`). Earlier pushes without the fields are skipped; none within the
        simulator's timeout fails the test.
        """
        key = bucket if "." in bucket else f"{bucket}.{self.serial}"
        while True:
            value = dict((await self.thermostat.next_object(key))["value"])
            if all(value.get(name) == want for name, want in expected.items()):
                return value

    async def climate(self, action: str, **data: Any) -> None:
        """Call a climate action on the thermostat's climate entity, as an automation would."""
        await self.hass.services.async_call(
            CLIMATE_DOMAIN,
            action,
            {ATTR_ENTITY_ID: self.entity_id("climate"), **data},
            blocking=True,
        )

    async def reported(self, **fields: Any) -> None:
        """Let the thermostat report a change of its `device` bucket (its own menu); wait for it."""
        await self.thermostat.put(f"device.{self.serial}", fields)
        await self.hass.async_block_till_done()


type PairThermostat = Callable[..., Awaitable[PairedThermostat]]


@dataclass(frozen=True, slots=True)
class StateWrite:
    """One state write Home Assistant announced: `state_changed` or `state_reported`."""

    event_type: str
    entity_id: str


def record_state_writes(hass: HomeAssistant, entity_ids: Collection[str]) -> list[StateWrite]:
    """Every state write of these entities from now on, changed or not, in order."""
    written: list[StateWrite] = []

    @callback
    def on_write(event: Event[Any]) -> None:
        written.append(StateWrite(str(event.event_type), event.data["entity_id"]))

    @callback
    def is_watched(data: Any) -> bool:
        return data["entity_id"] in entity_ids

    for event_type in (EVENT_STATE_CHANGED, EVENT_STATE_REPORTED):
        hass.bus.async_listen(event_type, on_write, event_filter=is_watched)
    return written


async def until_event(
    service: ThermostatService, kind: EventKind, check: Callable[[], bool]
) -> None:
    """Return once `check` holds, re-checked on every service event of `kind` (10 s at most)."""
    if check():
        return
    done = asyncio.Event()

    def on_event(event: ServiceEvent) -> None:
        if event.kind is kind and check():
            done.set()

    remove = service.events.listen(on_event)
    try:
        async with asyncio.timeout(10):
            await done.wait()
    finally:
        remove()


def shown(hass: HomeAssistant, entity_id: str) -> str:
    """Return the state of an entity, which must exist."""
    current = hass.states.get(entity_id)
    assert current is not None, entity_id
    return current.state


def entity_ids(hass: HomeAssistant, entry: ConfigEntry) -> dict[str, str]:
    """Return the entry's registered entity ids by unique id (what an upgrade must keep)."""
    return {
        e.unique_id: e.entity_id
        for e in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
    }


def aborted(result: Any) -> str:
    """Return the reason a flow's step gave for stopping, which it must have done."""
    assert result["type"] is FlowResultType.ABORT, result
    return str(result["reason"])


def free_port() -> int:
    """Return a TCP port nothing uses right now, on any interface (see `TEST_PORTS`)."""
    return free_port_on_loopback_hosts("", "127.0.0.1")


@pytest.fixture
def taken_port(socket_enabled: None) -> Iterator[int]:
    """Return a port another program listens on, for the whole test."""
    with socket.socket() as blocker:
        blocker.bind(("", 0))
        blocker.listen()
        yield blocker.getsockname()[1]


def hub_config_entry(port: int, origin: str | None = None) -> MockConfigEntry:
    """Return a hub entry (not yet added) whose device server uses `port` on 127.0.0.1.

    `origin` replaces the origin handed to thermostats; tests never connect to it.
    """
    return MockConfigEntry(
        domain=DOMAIN,
        title="Thermostat Cloud",
        data={CONF_API_ORIGIN: origin or f"http://127.0.0.1:{port}", CONF_DEVICE_PORT: port},
    )


async def setup_hub(
    hass: HomeAssistant, port: int | None = None, origin: str | None = None
) -> MockConfigEntry:
    """Return a loaded hub entry whose device server listens on a free port.

    A port found free can be taken by another process before the server binds it (suites
    running side by side): then the hub is set up again on another one.
    """
    attempts = 3
    while True:
        attempts -= 1
        entry = hub_config_entry(port or free_port(), origin)
        entry.add_to_hass(hass)
        loaded = await hass.config_entries.async_setup(entry.entry_id)
        if loaded or port is not None or not attempts:
            break
        await hass.config_entries.async_remove(entry.entry_id)
    assert entry.state is ConfigEntryState.LOADED, entry.reason
    await hass.async_block_till_done()
    return entry


@pytest.fixture
async def hub(hass: HomeAssistant, socket_enabled: None) -> AsyncGenerator[MockConfigEntry]:
    """Return the hub entry, loaded; unloaded after the test if it still is."""
    entry = await setup_hub(hass)
    yield entry
    if entry.state is ConfigEntryState.LOADED:
        assert await hass.config_entries.async_unload(entry.entry_id)


async def add_thermostat(hass: HomeAssistant, entry: ConfigEntry, code: str, **fields: Any) -> None:
    """Run "Add thermostat" with a pairing code (and other `fields`) as the UI does.

    The menu's "Enter the code shown on a thermostat", then the code.

    The flow must create the thermostat's subentry. Nothing more is awaited: a test that
    needs what follows (the subentry's save, the entities) waits for it itself.
    """
    result = await hass.config_entries.subentries.async_init(
        (entry.entry_id, SUBENTRY_THERMOSTAT), context={"source": SOURCE_USER}
    )
    assert result["type"] is FlowResultType.MENU, result
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {"next_step_id": "code"}
    )
    result = await hass.config_entries.subentries.async_configure(
        result["flow_id"], {CONF_CODE: code, **fields}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY, result


async def added(
    hass: HomeAssistant, entry: MockConfigEntry, thermostat: SimulatedThermostat, code: str
) -> PairedThermostat:
    """Add the thermostat by its code; return it once the pairing push reached it.

    The pairing push is the user and structure buckets; the structure's is the last.
    """
    await add_thermostat(hass, entry, code)
    await hass.async_block_till_done()
    paired = PairedThermostat(hass, entry, thermostat)
    await thermostat.next_object(harness(paired.service).home_keys(thermostat.serial)[1])
    return paired


@pytest.fixture
async def pair_thermostat(
    hass: HomeAssistant, socket_enabled: None
) -> AsyncGenerator[PairThermostat]:
    """Pair simulated thermostats the way a user does: entry, code, subscribe, "Add thermostat".

    Keyword arguments replace fields of the thermostat's initial `shared` / `device` buckets
    (sent as inline updates on its first subscribe); `entry` reuses a hub entry.
    """
    made: list[SimulatedThermostat] = []
    async with aiohttp.ClientSession() as http:

        async def pair(
            serial: str = SERIAL,
            *,
            entry: MockConfigEntry | None = None,
            shared: dict[str, Any] | None = None,
            device: dict[str, Any] | None = None,
            full_state: bool = True,
        ) -> PairedThermostat:
            hub_entry = entry or await setup_hub(hass)
            port = hub_entry.data[CONF_DEVICE_PORT]
            thermostat = SimulatedThermostat(
                f"http://127.0.0.1:{port}",
                serial,
                http,
                buckets={
                    # Without `full_state`, what firmware sends a new server: changes only.
                    f"shared.{serial}": {
                        **(THERMOSTAT_SHARED if full_state else {}),
                        **(shared or {}),
                    },
                    f"device.{serial}": {
                        **(THERMOSTAT_DEVICE if full_state else {}),
                        **(device or {}),
                    },
                    # Followed, with no data yet: the server pushes the first schedule written.
                    f"schedule.{serial}": {},
                },
            )
            made.append(thermostat)
            await thermostat.entry()
            # Subscribe on loopback whatever origin the entry hands out (tests stay on 127.0.0.1).
            thermostat.transport_url = f"http://127.0.0.1:{port}/svc/transport"
            thermostat.passphrase_url = f"http://127.0.0.1:{port}/svc/passphrase"
            code = (await thermostat.passphrase())["value"]
            thermostat.start()
            await thermostat.subscribed.wait()
            return await added(hass, hub_entry, thermostat, code)

        yield pair
        for thermostat in made:
            await thermostat.stop()


@pytest.fixture
async def paired(pair_thermostat: PairThermostat) -> PairedThermostat:
    """One thermostat paired with its initial buckets: the first step of most tests."""
    return await pair_thermostat()


@pytest.fixture
async def other(paired: PairedThermostat, pair_thermostat: PairThermostat) -> PairedThermostat:
    """Return a second thermostat, paired to the same hub and so to the same home."""
    return await pair_thermostat(OTHER_SERIAL, entry=paired.entry)


@pytest.fixture
def fahrenheit(hass: HomeAssistant) -> None:
    """Home Assistant in US customary units (°F); with `usefixtures`, set before pairing."""
    hass.config.units = US_CUSTOMARY_SYSTEM


# -- thermostats' settings pages on loopback addresses ---------------------------------------------


@pytest.fixture
def loopback_subnet(socket_enabled: None) -> Iterator[None]:
    """Allow connections to 127.0.0.0/24 only (the harness allows just 127.0.0.1)."""
    pytest_socket.socket_allow_hosts(["127.0.0.0/24"], allow_unix_socket=True)
    yield
    pytest_socket.socket_allow_hosts(["127.0.0.1"], allow_unix_socket=True)


@pytest.fixture
def settings_port() -> int:
    """Return the port the fake thermostats serve their settings API on (8080 on real ones)."""
    return free_port_on_loopback_hosts(*(f"127.0.0.{host}" for host in (2, 3, 4, 5, 6, 9)))


@pytest.fixture
def local_network(hass: HomeAssistant, hub: MockConfigEntry, settings_port: int) -> LocalNetwork:
    """Point the hub's settings-page client (control API and flows) at the fake thermostats.

    The rest stays the integration's: Home Assistant's shared HTTP client.
    """
    api = hass.data[DATA_CONTROL_API]
    api.network = dataclasses.replace(
        api.network, settings_port=settings_port, probe_timeout=2.0, configure_timeout=5.0
    )
    return api.network


type StartSettingsPage = Callable[[str, FakeThermostatSettings], Awaitable[FakeThermostatSettings]]


@pytest.fixture
async def start_settings_page(
    loopback_subnet: None, local_network: LocalNetwork
) -> AsyncGenerator[StartSettingsPage]:
    """Serve fake thermostats' settings pages on loopback addresses."""
    runners: list[web.AppRunner] = []

    async def start(host: str, fake: FakeThermostatSettings) -> FakeThermostatSettings:
        runner = web.AppRunner(fake.app())
        await runner.setup()
        await web.TCPSite(runner, host, local_network.settings_port).start()
        runners.append(runner)
        return fake

    yield start
    for runner in runners:
        await runner.cleanup()


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """Return syrupy's snapshot fixture with Home Assistant's extension, as core's tests use it.

    The extension serializes registry entries and states without their volatile ids and times,
    and keeps snapshots in `snapshots/` beside the test file. The plugin's own fixture of this
    name is shadowed by syrupy's, which registers after it.
    """
    return snapshot.use_extension(HomeAssistantSnapshotExtension)
