"""The platforms' projections of a thermostat's state, and what each says it reads.

Socket-free: a service on memory storage, buckets written through the command layer as a
thermostat's own reports, projections called directly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

from homeassistant.components.climate.const import ClimateEntityFeature, HVACAction, HVACMode
import pytest

from custom_components.thermostat_cloud.binary_sensor import BINARY_SENSORS
from custom_components.thermostat_cloud.climate_view import CLIMATE_READS, project_climate
from custom_components.thermostat_cloud.entity import ThermostatEntityDescription
from custom_components.thermostat_cloud.number import NUMBERS
from custom_components.thermostat_cloud.schedule_card import SCHEDULE_READS, schedule_message
from custom_components.thermostat_cloud.sensor import SENSORS
from custom_components.thermostat_cloud.server import (
    ChangeSource,
    ServiceConfig,
    Setpoints,
    ThermostatService,
    ThermostatState,
)
from custom_components.thermostat_cloud.server.core.read.state_source import StateSource
from custom_components.thermostat_cloud.server.core.testing import harness
from custom_components.thermostat_cloud.server.model.buckets import Bucket, BucketStore
from custom_components.thermostat_cloud.switch import SWITCHES
from thermostat_sim import WEEK_SCHEDULE

from .conftest import (
    ECO_MANUAL,
    SERIAL,
    THERMOSTAT_DEVICE,
    THERMOSTAT_SHARED,
    FakeClock,
    MemoryStorage,
)

NOW_S = FakeClock().now_ms() // 1000

# States that take the projections down their different branches: (shared, device, schedule).
STATES: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {
    "nothing reported": ({}, {}, {}),
    "heating": (
        {**THERMOSTAT_SHARED, "hvac_heater_state": True},
        {**THERMOSTAT_DEVICE, "time_to_target": NOW_S + 600},
        {},
    ),
    "range, cooling": (
        {**THERMOSTAT_SHARED, "target_temperature_type": "range", "hvac_ac_state": True},
        THERMOSTAT_DEVICE,
        dict(WEEK_SCHEDULE),
    ),
    "eco, fan timer": (
        THERMOSTAT_SHARED,
        {
            **THERMOSTAT_DEVICE,
            **ECO_MANUAL,
            "fan_timer_timeout": NOW_S + 900,
            "dehumidifier_state": True,
            "leaf": True,
        },
        {},
    ),
    "emergency heat, fan on in shared": (
        {**THERMOSTAT_SHARED, "target_temperature_type": "emergency", "fan_mode": "on"},
        # The fan mode only in `shared`, as a thermostat reports its dial.
        {
            **{k: v for k, v in THERMOSTAT_DEVICE.items() if k != "fan_mode"},
            "eco_mode_enabled": True,
            "eco": None,
        },
        {},
    ),
    "off in eco": (
        {"target_temperature_type": "off", "hvac_fan_state": True},
        {"eco": {"mode": "auto-eco"}, "temperature_lock_enabled": True},
        {},
    ),
}


async def thermostat(name: str) -> ThermostatState:
    """Return the state of a thermostat that reported the buckets of `STATES[name]`."""
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:1", save_delay=0), MemoryStorage(), FakeClock()
    )
    await service.async_load()
    shared, device, schedule = STATES[name]
    updates = {f"shared.{SERIAL}": shared, f"device.{SERIAL}": device}
    if schedule:
        updates[f"schedule.{SERIAL}"] = schedule
    harness(service).report(SERIAL, {k: v for k, v in updates.items() if v}, ChangeSource.DEVICE)
    return service.thermostat(SERIAL)


# -- the climate projection -------------------------------------------------------------------


async def test_heat_mode_shows_one_setpoint() -> None:
    """In heat a single target is shown and offered; the relays say it is heating."""
    view = project_climate(await thermostat("heating"))

    assert view.hvac_mode is HVACMode.HEAT
    assert view.hvac_action is HVACAction.HEATING
    assert view.setpoints == Setpoints(target=20.0)
    assert view.supported_features & ClimateEntityFeature.TARGET_TEMPERATURE
    assert view.hvac_modes == (HVACMode.OFF, HVACMode.HEAT, HVACMode.COOL, HVACMode.HEAT_COOL)
    assert (view.preset_mode, view.fan_mode, view.holds_eco) == ("none", "auto", False)


async def test_range_mode_shows_low_and_high() -> None:
    """In range mode low and high are shown, and no single target is offered."""
    view = project_climate(await thermostat("range, cooling"))

    assert view.hvac_mode is HVACMode.HEAT_COOL
    assert view.hvac_action is HVACAction.COOLING
    assert view.setpoints == Setpoints(low=19.0, high=24.0)
    assert not view.supported_features & ClimateEntityFeature.TARGET_TEMPERATURE


async def test_eco_holds_its_temperatures() -> None:
    """In eco the eco temperatures are the low and high shown, whatever the mode."""
    view = project_climate(await thermostat("eco, fan timer"))

    assert view.holds_eco
    assert view.preset_mode == "eco"
    assert view.setpoints == Setpoints(low=12.0, high=28.0)
    assert view.supported_features & ClimateEntityFeature.TARGET_TEMPERATURE_RANGE
    assert not view.supported_features & ClimateEntityFeature.TARGET_TEMPERATURE
    # A running fan timer shows the fan on; the dehumidifier running is drying.
    assert view.fan_mode == "on"
    assert view.hvac_action is HVACAction.DRYING


async def test_eco_does_not_hold_while_off() -> None:
    """Off, eco is shown as the preset but its temperatures are not held."""
    view = project_climate(await thermostat("off in eco"))

    assert view.hvac_mode is HVACMode.OFF
    assert (view.preset_mode, view.holds_eco) == ("eco", False)
    assert view.setpoints == Setpoints()
    assert view.hvac_action is HVACAction.FAN
    # It has not said what it can do: heating only, no fan.
    assert view.hvac_modes == (HVACMode.OFF, HVACMode.HEAT)
    assert (view.fan_modes, view.fan_mode) == (None, None)


async def test_emergency_heat_is_heat_with_its_preset() -> None:
    """Emergency heat shows as heat with the emergency heat preset, offered as one."""
    view = project_climate(await thermostat("emergency heat, fan on in shared"))

    assert (view.hvac_mode, view.preset_mode) == (HVACMode.HEAT, "emergency_heat")
    assert "emergency_heat" in view.preset_modes
    assert view.fan_mode == "on"


async def test_nothing_reported_shows_nothing() -> None:
    """Before the thermostat reported anything, every value is unknown (None)."""
    view = project_climate(await thermostat("nothing reported"))

    assert (view.hvac_mode, view.hvac_action, view.current_temperature) == (None, None, None)
    assert view.setpoints == Setpoints()


async def test_equal_states_project_equal_views() -> None:
    """Projections are compared by equality: the same state gives an equal view."""
    state = await thermostat("eco, fan timer")

    assert project_climate(state) == project_climate(state)
    assert project_climate(state) != project_climate(await thermostat("heating"))


# -- what each projection says it reads --------------------------------------------------------


class RecordingMapping(Mapping[str, Any]):
    """A bucket's value that notes which fields are read (the whole bucket when iterated)."""

    def __init__(self, bucket_type: str, value: Mapping[str, Any], read: set[str]) -> None:
        """Initialize around the value; reads go to `read`."""
        self._type, self._value, self._read = bucket_type, value, read

    def __getitem__(self, field: str) -> Any:
        """Return a field (`get` and `in` come here too)."""
        self._read.add(f"{self._type}.{field}")
        return self._value[field]

    def __iter__(self) -> Iterator[str]:
        """Iterate the field names: a read of the whole bucket."""
        self._read.add(self._type)
        return iter(self._value)

    def __len__(self) -> int:
        """Return the number of fields (`not bucket` too): a read of the whole bucket."""
        self._read.add(self._type)
        return len(self._value)


class RecordingBuckets:
    """The service's bucket store, noting the fields read through it."""

    def __init__(self, store: BucketStore) -> None:
        """Initialize around the store."""
        self.store = store
        self.read: set[str] = set()

    def value(self, key: str) -> Mapping[str, Any]:
        """Return the bucket's value, recording."""
        return RecordingMapping(key.partition(".")[0], self.store.value(key), self.read)

    def get(self, key: str) -> Bucket | None:
        """Return a copy of the bucket whose value records."""
        bucket = self.store.get(key)
        if bucket is None:
            return None
        copy = Bucket(bucket.key)
        copy.value = cast("dict[str, Any]", self.value(key))
        copy.field_changes = bucket.field_changes
        return copy

    def __getattr__(self, name: str) -> Any:
        """Everything else as the store has it."""
        return getattr(self.store, name)


class RecordingSource:
    """What the read model reads of the service, with bucket reads recorded."""

    def __init__(self, source: StateSource) -> None:
        """Initialize around the service's read source."""
        self.source = source
        self.buckets = RecordingBuckets(source.buckets)

    def __getattr__(self, name: str) -> Any:
        """Everything else as the service has it."""
        return getattr(self.source, name)


def projections() -> Iterator[tuple[str, Callable[[ThermostatState], object], frozenset[str]]]:
    """Every projection of every platform: its name, the function, what it says it reads."""
    yield "climate", project_climate, CLIMATE_READS
    # The hold is the service's, not a bucket's: its `HOLD` events are in SCHEDULE_READS.
    yield "schedule card", lambda state: schedule_message(state, None), SCHEDULE_READS
    descriptions: list[ThermostatEntityDescription[Any]] = [
        *SENSORS,
        *BINARY_SENSORS,
        *NUMBERS,
        *SWITCHES,
    ]
    for description in descriptions:
        if description.reads is None:  # reads everything
            continue
        applies = getattr(description, "applies_fn", None)
        value_fn = description.value_fn

        def project(
            state: ThermostatState,
            value_fn: Callable[[ThermostatState], object] = value_fn,
            applies: Callable[[ThermostatState], bool] | None = applies,
        ) -> object:
            return (applies is None or applies(state), value_fn(state))

        yield description.key, project, description.reads


@pytest.mark.parametrize("name", STATES)
async def test_projections_read_only_what_they_declare(name: str) -> None:
    """Every bucket field a projection reads is in what it declares it reads.

    The coordinator calls an entity only for changes of what it declares: a field read but not
    declared would leave the entity showing a stale value.
    """
    state = await thermostat(name)
    recording = RecordingSource(state.source)
    recorded = ThermostatState(cast("StateSource", recording), SERIAL)
    undeclared: dict[str, set[str]] = {}
    for key, project, reads in projections():
        recording.buckets.read.clear()
        project(recorded)
        missing = {
            field
            for field in recording.buckets.read
            if field not in reads and field.partition(".")[0] not in reads
        }
        if missing:
            undeclared[key] = missing
    assert undeclared == {}
