"""The climate entity: what the user sets through Home Assistant's climate actions.

Each change is asserted where the simulated thermostat sees it, over real TCP.
"""

from __future__ import annotations

from typing import Any

from homeassistant.components.climate.const import (
    ATTR_CURRENT_HUMIDITY,
    ATTR_CURRENT_TEMPERATURE,
    ATTR_FAN_MODE,
    ATTR_FAN_MODES,
    ATTR_HUMIDITY,
    ATTR_HVAC_ACTION,
    ATTR_HVAC_MODE,
    ATTR_HVAC_MODES,
    ATTR_MAX_TEMP,
    ATTR_MIN_TEMP,
    ATTR_PRESET_MODE,
    ATTR_PRESET_MODES,
    ATTR_TARGET_TEMP_HIGH,
    ATTR_TARGET_TEMP_LOW,
    ATTR_TARGET_TEMP_STEP,
    DOMAIN as CLIMATE_DOMAIN,
    INTENT_SET_TEMPERATURE,
    SERVICE_SET_FAN_MODE,
    SERVICE_SET_HUMIDITY,
    SERVICE_SET_HVAC_MODE,
    SERVICE_SET_PRESET_MODE,
    SERVICE_SET_TEMPERATURE,
    ClimateEntityFeature,
    HVACAction,
    HVACMode,
)
from homeassistant.components.climate.intent import async_setup_intents
from homeassistant.const import (
    ATTR_SUPPORTED_FEATURES,
    ATTR_TEMPERATURE,
    EVENT_STATE_CHANGED,
    SERVICE_TURN_OFF,
    SERVICE_TURN_ON,
    Platform,
)
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import device_registry as dr, entity_registry as er, intent
import pytest

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server import EventKind, ServiceEvent
from custom_components.thermostat_cloud.server.core.testing import harness

from .conftest import (
    ECO_MANUAL,
    SERIAL,
    PairedThermostat,
    PairThermostat,
    record_state_writes,
    shown,
)
from .platform_snapshots import platform_snapshot_test


def attrs(hass: HomeAssistant, paired: PairedThermostat) -> dict[str, Any]:
    """Return the attributes of the thermostat's climate entity."""
    state = hass.states.get(paired.entity_id("climate"))
    assert state is not None
    return dict(state.attributes)


def hvac_mode(hass: HomeAssistant, paired: PairedThermostat) -> str:
    """Return the HVAC mode the climate entity shows."""
    state = hass.states.get(paired.entity_id("climate"))
    assert state is not None
    return state.state


async def choose_fan_mode(paired: PairedThermostat, fan_mode: str) -> None:
    """Choose a fan mode in Home Assistant: the entity shows it at once."""
    await paired.climate(SERVICE_SET_FAN_MODE, fan_mode=fan_mode)
    assert attrs(paired.hass, paired)[ATTR_FAN_MODE] == fan_mode


async def choose_preset(paired: PairedThermostat, preset_mode: str) -> None:
    """Choose a preset in Home Assistant: the entity shows it at once."""
    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode=preset_mode)
    assert attrs(paired.hass, paired)[ATTR_PRESET_MODE] == preset_mode


# -- what the entity shows ------------------------------------------------------------------------


async def test_paired_thermostat_becomes_a_climate_device(
    hass: HomeAssistant,
    device_registry: dr.DeviceRegistry,
    entity_registry: er.EntityRegistry,
    paired: PairedThermostat,
) -> None:
    """Pairing from "Add thermostat" creates the device and its entities at once."""

    assert hvac_mode(hass, paired) == HVACMode.HEAT
    attributes = attrs(hass, paired)
    assert attributes[ATTR_HVAC_MODES] == [
        HVACMode.OFF,
        HVACMode.HEAT,
        HVACMode.COOL,
        HVACMode.HEAT_COOL,
    ]
    assert attributes[ATTR_CURRENT_TEMPERATURE] == 21.3
    assert attributes[ATTR_TEMPERATURE] == 20.0
    assert attributes[ATTR_TARGET_TEMP_LOW] is None
    assert attributes[ATTR_TARGET_TEMP_HIGH] is None
    assert attributes[ATTR_CURRENT_HUMIDITY] == 41
    assert attributes[ATTR_HUMIDITY] == 35
    assert attributes[ATTR_MIN_TEMP] == 4.5
    assert attributes[ATTR_MAX_TEMP] == 32
    assert attributes[ATTR_TARGET_TEMP_STEP] == 0.5
    assert attributes[ATTR_FAN_MODES] == ["auto", "on"]
    assert attributes[ATTR_FAN_MODE] == "auto"
    assert attributes[ATTR_PRESET_MODES] == ["none", "eco", "away", "emergency_heat"]
    assert attributes[ATTR_PRESET_MODE] == "none"
    assert attributes[ATTR_HVAC_ACTION] == HVACAction.IDLE
    assert attributes[ATTR_SUPPORTED_FEATURES] == (
        ClimateEntityFeature.TARGET_TEMPERATURE
        | ClimateEntityFeature.TARGET_TEMPERATURE_RANGE
        | ClimateEntityFeature.TARGET_HUMIDITY
        | ClimateEntityFeature.FAN_MODE
        | ClimateEntityFeature.PRESET_MODE
        | ClimateEntityFeature.TURN_OFF
        | ClimateEntityFeature.TURN_ON
    )

    device = device_registry.async_get_device_by_identifier((DOMAIN, SERIAL), paired.entry.entry_id)
    assert device is not None
    assert device.serial_number == SERIAL
    assert device.model == "Display-2.0"
    assert device.sw_version == "5.9.3-5"
    # The simulated thermostat reports mac 18b430 + the serial's last 6 characters.
    assert device.connections == {(dr.CONNECTION_NETWORK_MAC, "18:b4:30:14:00:ab")}
    hub_device = device_registry.async_get_device_by_identifier(
        (DOMAIN, paired.entry.entry_id), paired.entry.entry_id
    )
    assert hub_device is not None
    assert device.via_device_id == hub_device.id
    (subentry_id,) = paired.entry.subentries
    assert device.config_entry_id == paired.entry.entry_id
    assert device.config_subentry_id == subentry_id
    entity = entity_registry.async_get(paired.entity_id("climate"))
    assert entity is not None
    assert entity.config_subentry_id == subentry_id
    assert entity.device_id == device.id


async def test_hvac_modes_follow_capabilities(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A heat-only thermostat without fan or humidifier offers only what it can do."""
    paired = await pair_thermostat(
        shared={"can_cool": False},
        device={"has_fan": False, "has_emer_heat": False, "has_humidifier": False},
    )
    attributes = attrs(hass, paired)
    assert attributes[ATTR_HVAC_MODES] == [HVACMode.OFF, HVACMode.HEAT]
    assert ATTR_FAN_MODES not in attributes
    assert ATTR_HUMIDITY not in attributes
    assert attributes[ATTR_PRESET_MODES] == ["none", "eco", "away"]
    assert attributes[ATTR_SUPPORTED_FEATURES] == (
        ClimateEntityFeature.TARGET_TEMPERATURE
        | ClimateEntityFeature.PRESET_MODE
        | ClimateEntityFeature.TURN_OFF
        | ClimateEntityFeature.TURN_ON
    )

    # The thermostat reports a new capability: the entity follows at once.
    await paired.thermostat.put(f"shared.{SERIAL}", {"can_cool": True})
    assert attrs(hass, paired)[ATTR_HVAC_MODES] == [
        HVACMode.OFF,
        HVACMode.HEAT,
        HVACMode.COOL,
        HVACMode.HEAT_COOL,
    ]


@pytest.mark.parametrize(
    ("relays", "mode", "action"),
    [
        ({"hvac_heater_state": True}, "heat", HVACAction.HEATING),
        ({"hvac_heat_x2_state": True}, "heat", HVACAction.HEATING),
        ({"hvac_aux_heater_state": True}, "heat", HVACAction.HEATING),
        ({"hvac_emer_heat_state": True}, "emergency", HVACAction.HEATING),
        ({"hvac_ac_state": True, "hvac_fan_state": True}, "cool", HVACAction.COOLING),
        ({"hvac_cool_x2_state": True}, "range", HVACAction.COOLING),
        ({"hvac_fan_state": True}, "heat", HVACAction.FAN),
        ({}, "cool", HVACAction.IDLE),
        ({}, "off", HVACAction.OFF),
    ],
)
async def test_hvac_action_comes_from_the_relays(
    hass: HomeAssistant,
    relays: dict[str, bool],
    mode: str,
    action: HVACAction,
    paired: PairedThermostat,
) -> None:
    await paired.thermostat.put(f"shared.{SERIAL}", {"target_temperature_type": mode, **relays})
    assert attrs(hass, paired)[ATTR_HVAC_ACTION] == action


# -- device changes reach the entity in the same loop turn ----------------------------------------


async def test_thermostat_put_updates_the_entity(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """The dial turned on the thermostat: its PUT is on the entity when the PUT returns."""
    await paired.thermostat.put(
        f"shared.{SERIAL}",
        {"target_temperature": 23.5, "current_temperature": 19.8, "hvac_heater_state": True},
    )
    # No async_block_till_done: the entity was written in the PUT handler's loop turn.
    attributes = attrs(hass, paired)
    assert attributes[ATTR_TEMPERATURE] == 23.5
    assert attributes[ATTR_CURRENT_TEMPERATURE] == 19.8
    assert attributes[ATTR_HVAC_ACTION] == HVACAction.HEATING


# -- climate actions reach the thermostat -----------------------------------------------------------


@pytest.mark.smoke("climate")
async def test_set_temperature_is_pushed_to_the_thermostat(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    await paired.climate(SERVICE_SET_TEMPERATURE, temperature=22.5)

    assert attrs(hass, paired)[ATTR_TEMPERATURE] == 22.5
    await paired.pushed("shared", target_temperature=22.5, target_temperature_type="heat")


async def test_set_temperature_with_a_mode_switches_mode_in_one_call(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    await paired.climate(SERVICE_SET_TEMPERATURE, temperature=24.0, hvac_mode=HVACMode.COOL)
    assert hvac_mode(hass, paired) == HVACMode.COOL
    await paired.pushed("shared", target_temperature_type="cool", target_temperature=24.0)


async def test_range_setpoints(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """heat_cool is the thermostat's range mode, with a low and a high setpoint."""
    await paired.climate(
        SERVICE_SET_TEMPERATURE,
        hvac_mode=HVACMode.HEAT_COOL,
        target_temp_low=18.5,
        target_temp_high=25.0,
    )
    assert hvac_mode(hass, paired) == HVACMode.HEAT_COOL
    attributes = attrs(hass, paired)
    assert attributes[ATTR_TARGET_TEMP_LOW] == 18.5
    assert attributes[ATTR_TARGET_TEMP_HIGH] == 25.0
    assert ATTR_TEMPERATURE not in attributes
    await paired.pushed(
        "shared",
        target_temperature_type="range",
        target_temperature_low=18.5,
        target_temperature_high=25.0,
    )

    # A single setpoint makes no sense in range mode: the entity does not offer one, so Home
    # Assistant refuses it; nothing changes.
    assert not attrs(hass, paired)[ATTR_SUPPORTED_FEATURES] & (
        ClimateEntityFeature.TARGET_TEMPERATURE
    )
    with pytest.raises(ServiceValidationError) as err:
        await paired.climate(SERVICE_SET_TEMPERATURE, temperature=21.0)
    assert err.value.translation_key == "missing_target_temperature_entity_feature"

    assert harness(paired.service).value(f"shared.{SERIAL}")["target_temperature"] == 20.0


@pytest.mark.parametrize(
    ("mode", "data", "error"),
    [
        # Switching to heat_cool with a single setpoint would switch and then fail.
        (
            "heat",
            {ATTR_HVAC_MODE: HVACMode.HEAT_COOL, ATTR_TEMPERATURE: 22.0},
            "range_needs_low_high",
        ),
        (
            "heat",
            {
                ATTR_HVAC_MODE: HVACMode.HEAT_COOL,
                ATTR_TEMPERATURE: 22.0,
                ATTR_TARGET_TEMP_LOW: 18.0,
                ATTR_TARGET_TEMP_HIGH: 25.0,
            },
            "range_needs_low_high",
        ),
        (
            "range",
            {ATTR_TEMPERATURE: 22.0, ATTR_TARGET_TEMP_LOW: 18.0, ATTR_TARGET_TEMP_HIGH: 25.0},
            "missing_target_temperature_entity_feature",  # Home Assistant's own check
        ),
        # Low and high belong to heat_cool: not in heat mode, not with hvac_mode heat.
        ("heat", {ATTR_TARGET_TEMP_LOW: 18.0, ATTR_TARGET_TEMP_HIGH: 25.0}, "low_high_need_range"),
        (
            "range",
            {
                ATTR_HVAC_MODE: HVACMode.HEAT,
                ATTR_TARGET_TEMP_LOW: 18.0,
                ATTR_TARGET_TEMP_HIGH: 25.0,
            },
            "low_high_need_range",
        ),
        ("heat", {ATTR_HVAC_MODE: HVACMode.OFF, ATTR_TEMPERATURE: 22.0}, "temperature_when_off"),
        ("heat", {ATTR_HVAC_MODE: HVACMode.DRY, ATTR_TEMPERATURE: 22.0}, "hvac_mode_unsupported"),
    ],
)
async def test_set_temperature_refuses_a_combination_before_writing_anything(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    mode: str,
    data: dict[str, Any],
    error: str,
) -> None:
    """A refused set_temperature leaves the thermostat as it was: no write, no push."""
    paired = await pair_thermostat(shared={"target_temperature_type": mode})
    service = paired.service
    key = f"shared.{SERIAL}"
    before = harness(service).bucket(key)
    assert before is not None
    revision, value = before.revision, dict(before.value)
    events: list[ServiceEvent] = []
    remove = service.events.listen(events.append)

    with pytest.raises(ServiceValidationError) as err:
        await paired.climate(SERVICE_SET_TEMPERATURE, **data)
    remove()

    assert err.value.translation_domain == (
        CLIMATE_DOMAIN if error.startswith("missing_") else DOMAIN
    )
    assert err.value.translation_key == error
    assert [event for event in events if event.kind is EventKind.STATE] == []
    after = harness(service).bucket(key)
    assert after is not None
    assert (after.revision, after.value) == (revision, value)


async def test_single_temperature_is_offered_except_in_heat_cool(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Voice intents that set one temperature reach the thermostat unless it holds a range.

    Home Assistant's "set the thermostat to 21" intent targets only entities offering a
    single temperature: a thermostat in heat_cool does not, and says so with the mode.
    """
    await async_setup_intents(hass)
    paired = await pair_thermostat(shared={"target_temperature_type": "range"})
    features = attrs(hass, paired)[ATTR_SUPPORTED_FEATURES]
    assert not features & ClimateEntityFeature.TARGET_TEMPERATURE
    assert features & ClimateEntityFeature.TARGET_TEMPERATURE_RANGE
    assert ATTR_TEMPERATURE not in attrs(hass, paired)
    with pytest.raises(intent.MatchFailedError):
        await intent.async_handle(
            hass, "test", INTENT_SET_TEMPERATURE, {"temperature": {"value": 21}}
        )

    await paired.climate(SERVICE_SET_HVAC_MODE, hvac_mode=HVACMode.HEAT)
    assert attrs(hass, paired)[ATTR_SUPPORTED_FEATURES] & ClimateEntityFeature.TARGET_TEMPERATURE
    await intent.async_handle(hass, "test", INTENT_SET_TEMPERATURE, {"temperature": {"value": 21}})
    await paired.pushed("shared", target_temperature=21.0, target_temperature_type="heat")


async def test_hvac_mode_turn_off_and_on(hass: HomeAssistant, paired: PairedThermostat) -> None:
    await paired.climate(SERVICE_SET_HVAC_MODE, hvac_mode=HVACMode.COOL)
    assert hvac_mode(hass, paired) == HVACMode.COOL
    await paired.pushed("shared", target_temperature_type="cool")

    await paired.climate(SERVICE_TURN_OFF)
    assert hvac_mode(hass, paired) == HVACMode.OFF
    await paired.pushed("shared", target_temperature_type="off")

    # Turning it on again restores the mode it had.
    await paired.climate(SERVICE_TURN_ON)
    assert hvac_mode(hass, paired) == HVACMode.COOL
    await paired.pushed("shared", target_temperature_type="cool")


async def test_turn_on_remembers_the_mode_across_a_reload(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A cooling thermostat turned off comes back in cool after Home Assistant reloaded it."""
    paired = await pair_thermostat(shared={"target_temperature_type": "cool"})
    await paired.climate(SERVICE_TURN_OFF)
    assert hvac_mode(hass, paired) == HVACMode.OFF

    assert await hass.config_entries.async_reload(paired.entry.entry_id)
    await hass.async_block_till_done()
    await paired.climate(SERVICE_TURN_ON)

    assert hvac_mode(hass, paired) == HVACMode.COOL


async def test_turn_on_remembers_the_mode_across_a_restart(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Turning a thermostat back on after a restart restores the mode it had before off.

    The mode before off goes through Home Assistant's restore-state storage: written when
    it stops, read back when it starts.
    """
    from homeassistant.helpers import restore_state

    paired = await pair_thermostat(shared={"target_temperature_type": "cool"})
    await paired.climate(SERVICE_TURN_OFF)
    assert await hass.config_entries.async_unload(paired.entry.entry_id)
    stored_states = restore_state.async_get(hass)
    await stored_states.async_dump_states()
    await stored_states.async_load()

    assert await hass.config_entries.async_setup(paired.entry.entry_id)
    await hass.async_block_till_done()
    assert hvac_mode(hass, paired) == HVACMode.OFF
    await paired.climate(SERVICE_TURN_ON)
    assert hvac_mode(hass, paired) == HVACMode.COOL


@pytest.mark.parametrize(
    ("schedule_mode", "expected"),
    [("COOL", HVACMode.COOL), ("RANGE", HVACMode.HEAT_COOL), (None, HVACMode.HEAT)],
)
async def test_turn_on_without_a_known_mode_follows_the_schedule(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    schedule_mode: str | None,
    expected: HVACMode,
) -> None:
    """Off since before Home Assistant knew it: the mode its schedule drives, else heat."""
    paired = await pair_thermostat(shared={"target_temperature_type": "off"})
    if schedule_mode is not None:
        await paired.thermostat.put(f"schedule.{SERIAL}", {"schedule_mode": schedule_mode})
    await paired.climate(SERVICE_TURN_ON)
    assert hvac_mode(hass, paired) == expected


async def test_fan_mode(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """A fan mode set in Home Assistant shows at once and reaches the thermostat."""
    await choose_fan_mode(paired, "on")
    await paired.pushed("device", fan_mode="on")


async def test_fan_mode_follows_whoever_changed_it_last(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Commands write `device.fan_mode`; the thermostat reports its dial in `shared.fan_mode`."""
    shared = f"shared.{SERIAL}"
    await choose_fan_mode(paired, "on")

    # Turned back to auto on the thermostat, after the command.
    await paired.thermostat.put(shared, {"fan_mode": "auto"})
    assert harness(paired.service).value(f"device.{SERIAL}")["fan_mode"] == "on"
    assert attrs(hass, paired)[ATTR_FAN_MODE] == "auto"

    # Commands again; then the thermostat reports something else in `shared`: the fan mode
    # it reported there earlier is older than the last command and does not count.
    await paired.climate(SERVICE_SET_FAN_MODE, fan_mode="auto")
    await choose_fan_mode(paired, "on")
    await paired.thermostat.put(shared, {"current_temperature": 21.8})
    assert attrs(hass, paired)[ATTR_CURRENT_TEMPERATURE] == 21.8
    assert attrs(hass, paired)[ATTR_FAN_MODE] == "on"


async def test_fan_on_after_the_dial_turned_it_to_auto_reaches_the_thermostat(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """The device bucket still says `on`; the command must not be a no-op."""
    shared = f"shared.{SERIAL}"
    await paired.climate(SERVICE_SET_FAN_MODE, fan_mode="on")
    await paired.thermostat.put(shared, {"fan_mode": "auto"})
    assert attrs(hass, paired)[ATTR_FAN_MODE] == "auto"

    await choose_fan_mode(paired, "on")
    await paired.pushed("shared", fan_mode="on")


async def test_target_humidity(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """A humidity target set in Home Assistant reaches the thermostat with the humidifier turned on."""
    await paired.climate(SERVICE_SET_HUMIDITY, humidity=45)
    assert attrs(hass, paired)[ATTR_HUMIDITY] == 45
    await paired.pushed("device", target_humidity=45, target_humidity_enabled=True)

    with pytest.raises(ServiceValidationError):
        await paired.climate(SERVICE_SET_HUMIDITY, humidity=80)


async def test_target_humidity_reaches_the_thermostat_in_one_push(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """The target and the switch that enables it arrive together, in one push.

    Firmware never sees a target that is not enabled yet.
    """
    await paired.climate(SERVICE_SET_HUMIDITY, humidity=45)
    chunk = await paired.thermostat.next_chunk()
    device = {obj["object_key"]: obj["value"] for obj in chunk.objects}[f"device.{SERIAL}"]
    assert (device["target_humidity"], device["target_humidity_enabled"]) == (45, True)


# -- presets: eco (the thermostat's) and away (the home's) are different things ---------------


async def test_eco_preset_is_the_thermostats_own_eco_mode(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    await choose_preset(paired, "eco")
    assert (await paired.pushed("device", eco_mode_enabled=True))["eco"]["mode"] == "manual-eco"
    structure_key = harness(paired.service).home_keys(SERIAL)[1]
    assert harness(paired.service).value(structure_key).get("away") is None

    await choose_preset(paired, "none")
    assert (await paired.pushed("device", eco_mode_enabled=False))["eco"]["mode"] == "schedule"


async def test_eco_preset_keeps_the_other_eco_fields(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Choosing eco changes only the eco mode and who changed it, nothing else firmware keeps there.

    `device.eco` is replaced whole by a merge: only its mode and who changed it when (as
    firmware records it: `touched_by` 3 for the cloud, seconds) may change.
    """
    eco = {"mode": "schedule", "leafTemp": 17.5, "touched_by": 1, "mode_update_timestamp": 5}
    paired = await pair_thermostat(device={"eco": eco})
    now_s = paired.service.clock.now_ms() // 1000
    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="eco")
    device = harness(paired.service).value(f"device.{SERIAL}")
    changed = {"mode": "manual-eco", "touched_by": 3}
    assert device["eco"] == {
        **eco,
        **changed,
        "mode_update_timestamp": device["eco"]["mode_update_timestamp"],
    }
    assert device["eco"]["mode_update_timestamp"] >= now_s
    pushed = await paired.pushed("device", eco=device["eco"])
    assert pushed["eco_mode_enabled"] is True

    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="none")
    pushed = await paired.pushed("device", eco_mode_enabled=False)
    assert pushed["eco"]["mode"] == "schedule"
    assert pushed["eco"]["leafTemp"] == 17.5


async def test_eco_shows_and_sets_the_eco_temperatures(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """In eco the entity shows and sets the temperatures the thermostat actually holds.

    In eco the thermostat holds its eco temperatures, not its setpoint: the entity shows
    them as low and high in any mode, and low and high set them.
    """
    paired = await pair_thermostat(
        shared={"can_cool": False},
        device=ECO_MANUAL,
    )
    attributes = attrs(hass, paired)
    assert hvac_mode(hass, paired) == HVACMode.HEAT
    assert attributes[ATTR_PRESET_MODE] == "eco"
    assert (attributes[ATTR_TARGET_TEMP_LOW], attributes[ATTR_TARGET_TEMP_HIGH]) == (12, 28)
    assert ATTR_TEMPERATURE not in attributes
    features = attributes[ATTR_SUPPORTED_FEATURES]
    assert features & ClimateEntityFeature.TARGET_TEMPERATURE_RANGE
    assert not features & ClimateEntityFeature.TARGET_TEMPERATURE
    assert (attributes[ATTR_MIN_TEMP], attributes[ATTR_MAX_TEMP]) == (4.5, 35)

    await paired.climate(SERVICE_SET_TEMPERATURE, target_temp_low=7.0, target_temp_high=30.0)
    await paired.pushed("device", away_temperature_low=7.0, away_temperature_high=30.0)
    assert (
        attrs(hass, paired)[ATTR_TARGET_TEMP_LOW],
        attrs(hass, paired)[ATTR_TARGET_TEMP_HIGH],
    ) == (7, 30)
    assert harness(paired.service).value(f"shared.{SERIAL}")["target_temperature"] == 20.0

    # Eco off: the setpoint again.
    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="none")
    attributes = attrs(hass, paired)
    assert attributes[ATTR_TEMPERATURE] == 20.0
    assert ATTR_TARGET_TEMP_LOW not in attributes
    assert (attributes[ATTR_MIN_TEMP], attributes[ATTR_MAX_TEMP]) == (4.5, 32)


async def test_away_preset_is_the_homes_away_state(
    hass: HomeAssistant, paired: PairedThermostat, other: PairedThermostat
) -> None:
    """Away is set on the home: every thermostat of the home shows it."""
    structure_key = harness(paired.service).home_keys(SERIAL)[1]

    await choose_preset(paired, "away")
    assert attrs(hass, other)[ATTR_PRESET_MODE] == "away"
    await paired.pushed(structure_key, away=True)
    await other.pushed(structure_key, away=True)
    assert (
        shown(hass, paired.entity_id("sensor", "eco_mode")) == "schedule"
    )  # the thermostat's own eco stays off

    # Choosing eco on one thermostat brings the home back and turns that thermostat's eco on.
    await choose_preset(paired, "eco")
    assert attrs(hass, other)[ATTR_PRESET_MODE] == "none"


async def test_emergency_heat_is_a_preset_of_heat(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="emergency_heat")
    assert hvac_mode(hass, paired) == HVACMode.HEAT
    assert attrs(hass, paired)[ATTR_PRESET_MODE] == "emergency_heat"
    await paired.pushed("shared", target_temperature_type="emergency")

    await choose_preset(paired, "none")
    await paired.pushed("shared", target_temperature_type="heat")


async def test_choosing_the_preset_in_effect_sends_nothing(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """No preset chosen again: nothing is written, and the next push is the next change's."""
    assert attrs(hass, paired)[ATTR_PRESET_MODE] == "none"
    before = harness(paired.service).revisions()

    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="none")

    assert harness(paired.service).revisions() == before
    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="eco")
    chunk = await paired.thermostat.next_chunk()
    assert [obj["object_key"] for obj in chunk.objects] == [f"device.{SERIAL}"]


@pytest.mark.parametrize(("preset", "eco_mode"), [("none", "schedule"), ("eco", "manual-eco")])
async def test_a_preset_change_is_one_state_write_and_one_push(
    hass: HomeAssistant, pair_thermostat: PairThermostat, preset: str, eco_mode: str
) -> None:
    """A preset change reaches the user as one state change and the thermostat as one push.

    From emergency heat with the home away to none or eco, the mode, the home and eco change at
    once: the entity's state changes once, and the thermostat gets all three buckets in one push
    (the next push is the next change's).
    """
    paired = await pair_thermostat(shared={"target_temperature_type": "emergency"})
    structure_key = harness(paired.service).home_keys(SERIAL)[1]
    paired.service.commands.set_away(SERIAL, True)
    await paired.pushed(structure_key, away=True)
    assert attrs(hass, paired)[ATTR_PRESET_MODE] == "emergency_heat"
    writes = record_state_writes(hass, {paired.entity_id("climate")})

    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode=preset)
    # (Eco changes the supported features: Home Assistant then records the entity's one
    # write as a change and a report.)
    changes = [write for write in writes if write.event_type == EVENT_STATE_CHANGED]
    assert len(changes) == 1
    assert hvac_mode(hass, paired) == HVACMode.HEAT
    assert attrs(hass, paired)[ATTR_PRESET_MODE] == preset
    chunk = await paired.thermostat.next_chunk()
    pushed = {obj["object_key"]: obj["value"] for obj in chunk.objects}
    assert pushed[f"shared.{SERIAL}"]["target_temperature_type"] == "heat"
    assert pushed[f"device.{SERIAL}"]["eco"]["mode"] == eco_mode
    assert (pushed[structure_key]["away"], pushed[structure_key]["manual_eco_all"]) == (
        False,
        False,
    )

    await paired.climate(SERVICE_SET_FAN_MODE, fan_mode="on")
    chunk = await paired.thermostat.next_chunk()
    pushed = {obj["object_key"]: obj["value"] for obj in chunk.objects}
    assert pushed[f"device.{SERIAL}"]["fan_mode"] == "on"


async def test_away_from_emergency_heat_is_one_push(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Away leaves emergency heat for heat in the same push that sets the home away."""
    paired = await pair_thermostat(shared={"target_temperature_type": "emergency"})
    structure_key = harness(paired.service).home_keys(SERIAL)[1]
    writes = record_state_writes(hass, {paired.entity_id("climate")})

    await paired.climate(SERVICE_SET_PRESET_MODE, preset_mode="away")
    # One write. (Away holds the eco range: the supported features change, and Home Assistant
    # then records the write as a change and a report.)
    assert [w.event_type for w in writes if w.event_type == EVENT_STATE_CHANGED] == [
        EVENT_STATE_CHANGED
    ]
    assert attrs(hass, paired)[ATTR_PRESET_MODE] == "away"
    chunk = await paired.thermostat.next_chunk()
    pushed = {obj["object_key"]: obj["value"] for obj in chunk.objects}
    assert pushed[f"shared.{SERIAL}"]["target_temperature_type"] == "heat"
    assert pushed[structure_key]["away"] is True


# -- Fahrenheit ------------------------------------------------------------------------------------


@pytest.mark.usefixtures("fahrenheit")
async def test_fahrenheit_home_assistant(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """Celsius natively; a Fahrenheit installation sees and sets Fahrenheit."""
    attributes = attrs(hass, paired)
    assert attributes[ATTR_CURRENT_TEMPERATURE] == 70  # 21.3 °C
    assert attributes[ATTR_TEMPERATURE] == 68  # 20 °C
    assert attributes[ATTR_MIN_TEMP] == 40  # 4.5 °C is 40.1 °F; 40 °F rounds to 4.5 °C
    assert attributes[ATTR_MAX_TEMP] == 90  # 32 °C is 89.6 °F; 90 °F rounds to 32 °C
    assert attributes[ATTR_TARGET_TEMP_STEP] == 1

    await paired.climate(SERVICE_SET_TEMPERATURE, temperature=72)
    await paired.pushed("shared", target_temperature=22.0)  # 72 °F = 22.2 °C, in 0.5 steps
    assert attrs(hass, paired)[ATTR_TEMPERATURE] == 72

    with pytest.raises(ServiceValidationError):
        await paired.climate(SERVICE_SET_TEMPERATURE, temperature=95)


@pytest.mark.usefixtures("fahrenheit")
async def test_a_garage_can_be_kept_at_45_fahrenheit(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Below Google's 9 °C, as community firmware allows (45 °F = 7.2 °C); 39 °F is not."""
    await paired.climate(SERVICE_SET_TEMPERATURE, temperature=45)
    await paired.pushed("shared", target_temperature=7.0)  # 45 °F = 7.2 °C, in 0.5 steps
    assert attrs(hass, paired)[ATTR_TEMPERATURE] == 45
    with pytest.raises(ServiceValidationError):
        await paired.climate(SERVICE_SET_TEMPERATURE, temperature=39)
    assert harness(paired.service).value(f"shared.{SERIAL}")["target_temperature"] == 7.0


@pytest.mark.usefixtures("fahrenheit")
async def test_fahrenheit_slider_ends_are_accepted(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """The limits Home Assistant shows in °F are values it accepts, single and range."""
    attributes = attrs(hass, paired)
    low, high = attributes[ATTR_MIN_TEMP], attributes[ATTR_MAX_TEMP]

    await paired.climate(SERVICE_SET_TEMPERATURE, temperature=low)
    await paired.pushed("shared", target_temperature=4.5)  # 40 °F = 4.4 °C
    await paired.climate(SERVICE_SET_TEMPERATURE, temperature=high)
    await paired.pushed("shared", target_temperature=32.0)  # 90 °F = 32.2 °C
    # One degree beyond either end is refused by Home Assistant's own range check.
    for outside in (low - 1, high + 1):
        with pytest.raises(ServiceValidationError) as err:
            await paired.climate(SERVICE_SET_TEMPERATURE, temperature=outside)
        assert err.value.translation_key == "temp_out_of_range"

    await paired.climate(
        SERVICE_SET_TEMPERATURE,
        hvac_mode=HVACMode.HEAT_COOL,
        target_temp_low=low,
        target_temp_high=high,
    )
    await paired.pushed("shared", target_temperature_low=4.5, target_temperature_high=32.0)


async def test_a_change_the_climate_entity_does_not_show_does_not_rewrite_it(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """The climate entity is written only when something it shows changes.

    The leaf lighting up changes the leaf sensor only; the climate state is not rewritten
    (no state_changed or state_reported for it), and a setpoint change still is.
    """
    from homeassistant.const import EVENT_STATE_CHANGED

    climate = paired.entity_id("climate")
    writes = record_state_writes(hass, {climate})
    await paired.thermostat.put(f"shared.{SERIAL}", {"leaf": True})
    await hass.async_block_till_done()
    assert hass.states.is_state(paired.entity_id("binary_sensor", "leaf"), "on")
    assert [write.event_type for write in writes] == []

    await paired.climate(SERVICE_SET_TEMPERATURE, **{ATTR_TEMPERATURE: 22.5})
    assert [write.event_type for write in writes] == [EVENT_STATE_CHANGED]
    state = hass.states.get(climate)
    assert state is not None
    assert state.attributes[ATTR_TEMPERATURE] == 22.5


test_entities = platform_snapshot_test(Platform.CLIMATE)
