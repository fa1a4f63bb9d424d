"""Settings the thermostat keeps, as switches.

Every write goes through a service call and is asserted where the thermostat sees it: in the
push it receives over TCP.
"""

from __future__ import annotations

from homeassistant.components.climate.const import ATTR_PRESET_MODE, SERVICE_SET_PRESET_MODE
from homeassistant.const import (
    ATTR_ENTITY_ID,
    EVENT_STATE_CHANGED,
    SERVICE_TURN_OFF,
    SERVICE_TURN_ON,
    STATE_OFF,
    STATE_ON,
    STATE_UNAVAILABLE,
    STATE_UNKNOWN,
    Platform,
)
from homeassistant.core import HomeAssistant
from homeassistant.helpers import device_registry as dr, entity_registry as er
import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server.core.testing import harness

from .conftest import (
    SERIAL,
    PairedThermostat,
    PairThermostat,
    record_state_writes,
    shown,
)
from .platform_snapshots import platform_snapshot_test


@pytest.mark.parametrize(
    ("key", "field", "initially"),
    [
        pytest.param("learning", "learning_mode", False, marks=pytest.mark.smoke("switch")),
        ("home_away_assist", "auto_away_enable", False),
        ("sunlight_correction", "sunlight_correction_enabled", True),
        ("filter_reminder", "filter_reminder_enabled", True),
        ("freeze_protection", "lower_safety_temp_enabled", True),
        ("heat_protection", "upper_safety_temp_enabled", False),
    ],
)
async def test_a_setting_switch_writes_the_field_firmware_keeps(
    hass: HomeAssistant, key: str, field: str, initially: bool, paired: PairedThermostat
) -> None:
    """The switch shows the thermostat's field, flips it at the thermostat, and follows it."""
    switch = paired.entity_id("switch", key)
    assert shown(hass, switch) == (STATE_ON if initially else STATE_OFF)

    service = SERVICE_TURN_OFF if initially else SERVICE_TURN_ON
    await hass.services.async_call(
        Platform.SWITCH, service, {ATTR_ENTITY_ID: switch}, blocking=True
    )
    await paired.pushed("device", **{field: not initially})
    assert shown(hass, switch) == (STATE_OFF if initially else STATE_ON)

    # Changed back in the thermostat's own menu.
    await paired.reported(**{field: initially})
    assert shown(hass, switch) == (STATE_ON if initially else STATE_OFF)


async def test_a_setting_the_thermostat_never_reported_is_unknown(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A thermostat that sent no full state yet: settings unknown, not guessed off."""
    paired = await pair_thermostat(full_state=False)
    assert shown(hass, paired.entity_id("switch", "learning")) == STATE_UNKNOWN


# -- Away (the home's) and Eco (each thermostat's): the presets, for bridges ------------------------


def away_switch(hass: HomeAssistant, paired: PairedThermostat) -> str:
    """Return the entity id of the home's Away switch, on the hub's device."""
    unique_id = f"{paired.entry.entry_id}_away"
    entity_id = er.async_get(hass).async_get_entity_id(Platform.SWITCH, DOMAIN, unique_id)
    assert entity_id is not None
    return entity_id


def preset(hass: HomeAssistant, paired: PairedThermostat) -> str:
    """Return the preset the thermostat's climate entity shows."""
    state = hass.states.get(paired.entity_id(Platform.CLIMATE))
    assert state is not None
    return str(state.attributes[ATTR_PRESET_MODE])


async def switch(hass: HomeAssistant, entity_id: str, *, on: bool) -> None:
    """Turn a switch on or off as a user (or a bridge) does."""
    await hass.services.async_call(
        Platform.SWITCH,
        SERVICE_TURN_ON if on else SERVICE_TURN_OFF,
        {ATTR_ENTITY_ID: entity_id},
        blocking=True,
    )


def revisions(paired: PairedThermostat) -> dict[str, int]:
    """Return the revision of every bucket the service keeps."""
    return harness(paired.service).revisions()


async def test_away_and_eco_are_switches_a_bridge_exposes(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Away sits on the hub's device, Eco on the thermostat's, both in the default category."""
    entities = er.async_get(hass)
    devices = dr.async_get(hass)
    away = entities.async_get(away_switch(hass, paired))
    eco = entities.async_get(paired.entity_id(Platform.SWITCH, "eco"))
    assert away is not None
    assert eco is not None
    assert (away.entity_category, eco.entity_category) == (None, None)
    entry_id = paired.entry.entry_id
    hub_device = devices.async_get_device_by_identifier((DOMAIN, entry_id), entry_id)
    thermostat_device = devices.async_get_device_by_identifier((DOMAIN, paired.serial), entry_id)
    assert hub_device is not None
    assert thermostat_device is not None
    assert (away.device_id, eco.device_id) == (hub_device.id, thermostat_device.id)
    assert shown(hass, away.entity_id) == STATE_OFF
    assert shown(hass, eco.entity_id) == STATE_OFF


async def test_away_switch_sets_the_whole_home_away(
    hass: HomeAssistant, paired: PairedThermostat, other: PairedThermostat
) -> None:
    """On: one state change, every thermostat's preset is away, each gets the home's manual eco."""
    structure_key = harness(paired.service).home_keys(SERIAL)[1]
    away = away_switch(hass, paired)
    writes = record_state_writes(hass, {away})
    before = revisions(paired)

    await switch(hass, away, on=True)

    assert shown(hass, away) == STATE_ON
    assert [write.event_type for write in writes] == [EVENT_STATE_CHANGED]
    # One write: the home's bucket, once (the thermostats' own buckets untouched).
    after = revisions(paired)
    assert {key for key in after if after[key] != before.get(key)} == {structure_key}
    assert after[structure_key] == before[structure_key] + 1
    assert (preset(hass, paired), preset(hass, other)) == ("away", "away")
    for thermostat in (paired, other):
        await thermostat.pushed(structure_key, away=True, manual_eco_all=True)

    # Back from the climate entity's preset: the switch follows.
    await hass.services.async_call(
        Platform.CLIMATE,
        SERVICE_SET_PRESET_MODE,
        {ATTR_ENTITY_ID: other.entity_id(Platform.CLIMATE), ATTR_PRESET_MODE: "none"},
        blocking=True,
    )
    assert shown(hass, away) == STATE_OFF
    await paired.pushed(structure_key, away=False, manual_eco_all=False)


async def test_away_switch_follows_a_thermostat_bringing_the_home_back(
    hass: HomeAssistant, paired: PairedThermostat
) -> None:
    """Someone turns the dial (the thermostat reports the home back): Away turns off."""
    structure_key = harness(paired.service).home_keys(SERIAL)[1]
    away = away_switch(hass, paired)
    await switch(hass, away, on=True)
    await paired.pushed(structure_key, away=True)

    await paired.thermostat.put(structure_key, {"away": False, "manual_eco_all": False})
    await hass.async_block_till_done()

    assert shown(hass, away) == STATE_OFF
    assert preset(hass, paired) == "none"


async def test_away_switch_off_when_home_leaves_each_thermostats_eco_alone(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """Off while the home is not away writes nothing: a thermostat's own eco stays on."""
    paired = await pair_thermostat(device={"eco": {"mode": "manual-eco"}})
    assert preset(hass, paired) == "eco"
    before = revisions(paired)

    await switch(hass, away_switch(hass, paired), on=False)

    assert revisions(paired) == before
    assert preset(hass, paired) == "eco"
    assert shown(hass, paired.entity_id(Platform.SWITCH, "eco")) == STATE_ON


async def test_away_switch_is_unavailable_without_a_thermostat(
    hass: HomeAssistant, hub: MockConfigEntry, pair_thermostat: PairThermostat
) -> None:
    """A home with no thermostat has no away state to show or set."""
    unique_id = f"{hub.entry_id}_away"
    entity_id = er.async_get(hass).async_get_entity_id(Platform.SWITCH, DOMAIN, unique_id)
    assert entity_id is not None
    assert shown(hass, entity_id) == STATE_UNAVAILABLE

    paired = await pair_thermostat(entry=hub)
    assert shown(hass, entity_id) == STATE_OFF
    # Unpaired elsewhere (the hosted API's DELETE): the home is empty again.
    assert paired.service.pairing.unpair(SERIAL)
    await hass.async_block_till_done()
    assert shown(hass, entity_id) == STATE_UNAVAILABLE


async def test_eco_switch_is_the_eco_preset(hass: HomeAssistant, paired: PairedThermostat) -> None:
    """On and off choose the eco and none presets: one push each; the dial turns it off."""
    eco = paired.entity_id(Platform.SWITCH, "eco")

    await switch(hass, eco, on=True)
    assert (shown(hass, eco), preset(hass, paired)) == (STATE_ON, "eco")
    chunk = await paired.thermostat.next_chunk()
    pushed = {obj["object_key"]: obj["value"] for obj in chunk.objects}
    assert list(pushed) == [f"device.{SERIAL}"]
    assert pushed[f"device.{SERIAL}"]["eco"]["mode"] == "manual-eco"

    await switch(hass, eco, on=False)
    assert (shown(hass, eco), preset(hass, paired)) == (STATE_OFF, "none")
    await paired.pushed("device", eco_mode_enabled=False)

    # Eco entered and left on the thermostat itself.
    await paired.reported(eco={"mode": "manual-eco", "touched_by": 1})
    assert shown(hass, eco) == STATE_ON
    await paired.reported(eco={"mode": "schedule", "touched_by": 1})
    assert shown(hass, eco) == STATE_OFF


async def test_eco_switch_while_the_home_is_away(
    hass: HomeAssistant, paired: PairedThermostat, other: PairedThermostat
) -> None:
    """Away shows as away, not eco: Eco is off; off keeps the home away, on brings it back."""
    away = away_switch(hass, paired)
    eco = paired.entity_id(Platform.SWITCH, "eco")
    await switch(hass, away, on=True)
    assert shown(hass, eco) == STATE_OFF
    before = revisions(paired)

    await switch(hass, eco, on=False)
    assert revisions(paired) == before
    assert shown(hass, away) == STATE_ON

    # As the eco preset: the home comes back, this thermostat stays in eco.
    await switch(hass, eco, on=True)
    assert (shown(hass, eco), shown(hass, away)) == (STATE_ON, STATE_OFF)
    assert (preset(hass, paired), preset(hass, other)) == ("eco", "none")


test_entities = platform_snapshot_test(Platform.SWITCH)
