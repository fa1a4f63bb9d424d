"""Settings the thermostat keeps, as switches.

Every write goes through a service call and is asserted where the thermostat sees it: in the
push it receives over TCP.
"""

from __future__ import annotations

from homeassistant.const import (
    ATTR_ENTITY_ID,
    SERVICE_TURN_OFF,
    SERVICE_TURN_ON,
    STATE_OFF,
    STATE_ON,
    STATE_UNKNOWN,
    Platform,
)
from homeassistant.core import HomeAssistant
import pytest

from .conftest import PairThermostat, shown


@pytest.mark.parametrize(
    ("key", "field", "initially"),
    [
        ("learning", "learning_mode", False),
        ("home_away_assist", "auto_away_enable", False),
        ("sunlight_correction", "sunlight_correction_enabled", True),
        ("filter_reminder", "filter_reminder_enabled", True),
        ("freeze_protection", "lower_safety_temp_enabled", True),
        ("heat_protection", "upper_safety_temp_enabled", False),
    ],
)
async def test_a_setting_switch_writes_the_field_firmware_keeps(
    hass: HomeAssistant,
    pair_thermostat: PairThermostat,
    key: str,
    field: str,
    initially: bool,
) -> None:
    """The switch shows the thermostat's field, flips it at the thermostat, and follows it."""
    paired = await pair_thermostat()
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
