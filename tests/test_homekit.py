"""What Home Assistant's HomeKit Bridge makes of a thermostat's entities.

The real HomeKit Bridge types (Home Assistant's `homekit` integration and HAP-python) build the
accessories from the entities' real states, as the bridge does, and a HomeKit controller's
writes go through them to the simulated thermostat. The HomeKit driver is built on 127.0.0.1
and never started: no HAP server, no mDNS, no socket of its own. docs/homekit.md
says what these tests show.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

from homeassistant.components.homekit.accessories import (
    HomeAccessory,
    HomeBridge,
    HomeDriver,
    async_resolve_accessory_type,
    get_accessory,
)
from homeassistant.components.homekit.aidmanager import AccessoryAidStorage
from homeassistant.components.homekit.const import (
    CHAR_COOLING_THRESHOLD_TEMPERATURE,
    CHAR_CURRENT_HUMIDITY,
    CHAR_CURRENT_TEMPERATURE,
    CHAR_HEATING_THRESHOLD_TEMPERATURE,
    CHAR_OCCUPANCY_DETECTED,
    CHAR_ON,
    CHAR_TARGET_FAN_STATE,
    CHAR_TARGET_HEATING_COOLING,
    CHAR_TARGET_TEMPERATURE,
    SERV_FANV2,
    SERV_OCCUPANCY_SENSOR,
    SERV_SWITCH,
    SERV_THERMOSTAT,
    SIGNAL_RELOAD_ENTITIES,
)
from homeassistant.components.homekit.iidmanager import AccessoryIIDStorage
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, State
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.dispatcher import async_dispatcher_connect
from pyhap.characteristic import Characteristic
from pyhap.const import HAP_REPR_AID, HAP_REPR_CHARS, HAP_REPR_IID, HAP_REPR_VALUE
from pyhap.loader import get_loader
import pytest

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.server.core.testing import harness

from .conftest import ECO_MANUAL, SERIAL, PairedThermostat, PairThermostat

# HomeKit's TargetHeatingCoolingState values.
HK_OFF, HK_HEAT, HK_COOL, HK_AUTO = 0, 1, 2, 3


class Bridge:
    """A HomeKit Bridge of Home Assistant's, with the entities it was given as accessories.

    Like the bridge, it builds each accessory from the entity's state with the type the bridge
    resolves, runs it, and builds it anew (same accessory id) when the accessory asks for a
    reload (its entity's supported features or limits changed).
    """

    def __init__(self, hass: HomeAssistant, driver: HomeDriver) -> None:
        """Initialize the bridge accessory of a driver."""
        self.hass = hass
        self.driver = driver
        self.bridge = HomeBridge(hass, driver, "Thermostat Cloud test bridge")
        self.aids = AccessoryAidStorage(hass, driver.entry_id)
        self.accessories: dict[str, HomeAccessory] = {}
        self.reloads: list[str] = []

    def start(self) -> Callable[[], None]:
        """Follow the accessories' reload requests; returns the function that stops it."""
        return async_dispatcher_connect(
            self.hass, SIGNAL_RELOAD_ENTITIES.format(self.driver.entry_id), self._reload
        )

    def expose(self, entity_id: str) -> str:
        """Add an entity as the bridge does: resolve its accessory type, build and run it."""
        self._build(entity_id, len(self.accessories) + 2)
        return entity_id

    def _build(self, entity_id: str, aid: int) -> None:
        state = self.hass.states.get(entity_id)
        assert state is not None, entity_id
        config: dict[str, Any] = {}
        async_resolve_accessory_type(self.aids, state, config, allow_auto=True)
        accessory = get_accessory(self.hass, self.driver, state, aid, config)
        assert accessory is not None, entity_id
        self.bridge.add_accessory(accessory)
        accessory.run()
        self.accessories[entity_id] = accessory

    def _reload(self, entity_ids: Iterable[str]) -> None:
        for entity_id in entity_ids:
            old = self.accessories[entity_id]
            old.async_stop()
            del self.bridge.accessories[old.aid]
            self._build(entity_id, old.aid)
            self.reloads.append(entity_id)

    def __getitem__(self, entity_id: str) -> HomeAccessory:
        """Return the entity's accessory as the bridge has it now."""
        return self.accessories[entity_id]

    def value(self, entity_id: str, service: str, char: str) -> Any:
        """Return a characteristic's value as HomeKit reads it."""
        return characteristic(self[entity_id], service, char).get_value()

    async def write(self, entity_id: str, service: str, **values: Any) -> None:
        """Write characteristics as a HomeKit controller (the Home app) does."""
        accessory = self[entity_id]
        chars = [
            {
                HAP_REPR_AID: accessory.aid,
                HAP_REPR_IID: characteristic(accessory, service, name).to_HAP()[HAP_REPR_IID],
                HAP_REPR_VALUE: value,
            }
            for name, value in values.items()
        ]
        self.driver.set_characteristics({HAP_REPR_CHARS: chars}, ("127.0.0.1", 51826))
        await self.hass.async_block_till_done()


def characteristic(accessory: HomeAccessory, service: str, char: str) -> Characteristic:
    """Return a characteristic of the accessory's service by its HomeKit name.

    By its type: Home Assistant names some for display (the fan's state is "Fan Auto").
    """
    type_id = get_loader().get_char(char).type_id
    for found in accessory.get_service(service).characteristics:
        if found.type_id == type_id:
            return found
    raise AssertionError(f"{accessory.display_name}: no {char} in {service}")


def has_char(accessory: HomeAccessory, service: str, char: str) -> bool:
    """Return whether the accessory's service has a characteristic (by its type)."""
    type_id = get_loader().get_char(char).type_id
    return any(c.type_id == type_id for c in accessory.get_service(service).characteristics)


@pytest.fixture
async def bridge(hass: HomeAssistant, tmp_path: Path) -> AsyncIterator[Bridge]:
    """Build a HomeKit Bridge's driver on loopback, never started (no server, no mDNS)."""
    iids = AccessoryIIDStorage(hass, "thermostat_cloud_test")
    await iids.async_initialize()
    driver = HomeDriver(
        hass,
        entry_id="thermostat_cloud_test",
        bridge_name="Thermostat Cloud test bridge",
        entry_title="Thermostat Cloud test bridge",
        iid_storage=iids,
        address="127.0.0.1",
        port=51826,
        pincode=b"123-45-678",
        persist_file=str(tmp_path / "homekit.state"),
        loop=hass.loop,
    )
    home = Bridge(hass, driver)
    await home.aids.async_initialize()
    driver.add_accessory(home.bridge)
    stop = home.start()
    yield home
    stop()
    # Never started: nothing listens, nothing was announced.
    assert driver.http_server.server is None
    assert driver.advertiser is None


def climate_state(hass: HomeAssistant, paired: PairedThermostat) -> State:
    """Return the climate entity's state."""
    state = hass.states.get(paired.entity_id(Platform.CLIMATE))
    assert state is not None
    return state


async def test_the_thermostat_is_a_homekit_thermostat(
    hass: HomeAssistant, bridge: Bridge, paired: PairedThermostat
) -> None:
    """Heat, cool and auto (heat_cool), its target, and the thresholds in auto, both ways."""
    thermostat = bridge.expose(paired.entity_id(Platform.CLIMATE))

    assert type(bridge[thermostat]).__name__ == "Thermostat"  # not a HeaterCooler: no fan speeds
    modes = (
        bridge[thermostat]
        .get_service(SERV_THERMOSTAT)
        .get_characteristic(CHAR_TARGET_HEATING_COOLING)
    )
    assert sorted(modes.properties["ValidValues"].values()) == [HK_OFF, HK_HEAT, HK_COOL, HK_AUTO]
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_TARGET_HEATING_COOLING) == HK_HEAT
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_TARGET_TEMPERATURE) == 20.0
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_CURRENT_TEMPERATURE) == 21.3
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_CURRENT_HUMIDITY) == 41
    # The fan's auto and on: a fan whose state is Auto (1) or Manual (0).
    assert bridge.value(thermostat, SERV_FANV2, CHAR_TARGET_FAN_STATE) == 1

    # The Home app's slider: the thermostat gets the setpoint.
    await bridge.write(thermostat, SERV_THERMOSTAT, **{CHAR_TARGET_TEMPERATURE: 21.5})
    await paired.pushed("shared", target_temperature=21.5)
    assert climate_state(hass, paired).attributes["temperature"] == 21.5

    # Auto is heat_cool: the thermostat's range, low and high as the two thresholds.
    await bridge.write(thermostat, SERV_THERMOSTAT, **{CHAR_TARGET_HEATING_COOLING: HK_AUTO})
    await paired.pushed("shared", target_temperature_type="range")
    assert climate_state(hass, paired).state == "heat_cool"
    # The entity supports low and high now, not a single target: the bridge builds the
    # accessory anew (the Home app shows it again a moment later).
    assert bridge.reloads == [thermostat]
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_TARGET_HEATING_COOLING) == HK_AUTO
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_HEATING_THRESHOLD_TEMPERATURE) == 19.0
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_COOLING_THRESHOLD_TEMPERATURE) == 24.0
    await bridge.write(
        thermostat,
        SERV_THERMOSTAT,
        **{CHAR_HEATING_THRESHOLD_TEMPERATURE: 18.0, CHAR_COOLING_THRESHOLD_TEMPERATURE: 25.0},
    )
    await paired.pushed("shared", target_temperature_low=18.0, target_temperature_high=25.0)

    # Cool.
    await bridge.write(thermostat, SERV_THERMOSTAT, **{CHAR_TARGET_HEATING_COOLING: HK_COOL})
    await paired.pushed("shared", target_temperature_type="cool")
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_TARGET_HEATING_COOLING) == HK_COOL


async def test_a_heat_only_thermostat_offers_heat_and_off(
    hass: HomeAssistant, pair_thermostat: PairThermostat, bridge: Bridge
) -> None:
    """Only what the thermostat can do; no thresholds without a range."""
    paired = await pair_thermostat(shared={"can_cool": False})
    thermostat = bridge.expose(paired.entity_id(Platform.CLIMATE))
    modes = (
        bridge[thermostat]
        .get_service(SERV_THERMOSTAT)
        .get_characteristic(CHAR_TARGET_HEATING_COOLING)
    )
    assert sorted(modes.properties["ValidValues"].values()) == [HK_OFF, HK_HEAT]
    assert has_char(bridge[thermostat], SERV_THERMOSTAT, CHAR_TARGET_TEMPERATURE)
    assert not has_char(bridge[thermostat], SERV_THERMOSTAT, CHAR_HEATING_THRESHOLD_TEMPERATURE)


@pytest.mark.parametrize(("mode", "target"), [("heat", 12.0), ("cool", 28.0)])
async def test_in_eco_homekit_shows_the_eco_temperatures(
    hass: HomeAssistant, pair_thermostat: PairThermostat, bridge: Bridge, mode: str, target: float
) -> None:
    """Eco holds the eco temperatures: the target is the low one heating, the high one cooling."""
    paired = await pair_thermostat(
        shared={"target_temperature_type": mode},
        device=ECO_MANUAL,
    )
    thermostat = bridge.expose(paired.entity_id(Platform.CLIMATE))
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_TARGET_TEMPERATURE) == target
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_HEATING_THRESHOLD_TEMPERATURE) == 12.0
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_COOLING_THRESHOLD_TEMPERATURE) == 28.0

    # The Home app's slider moves that eco temperature; the schedule's setpoint is untouched.
    moved = target - 2 if mode == "heat" else target + 2
    await bridge.write(thermostat, SERV_THERMOSTAT, **{CHAR_TARGET_TEMPERATURE: moved})
    eco = {"away_temperature_low": 12.0, "away_temperature_high": 28.0}
    eco["away_temperature_low" if mode == "heat" else "away_temperature_high"] = moved
    await paired.pushed("device", **eco)
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_TARGET_TEMPERATURE) == moved
    assert harness(paired.service).value(f"shared.{SERIAL}")["target_temperature"] == 20.0


async def test_away_and_eco_are_homekit_switches(
    hass: HomeAssistant, pair_thermostat: PairThermostat, bridge: Bridge
) -> None:
    """The presets HomeKit has no place for, as switches the Home app turns on and off."""
    paired = await pair_thermostat(
        device={"away_temperature_low": 12.0, "away_temperature_high": 28.0}
    )
    away_id = er.async_get(hass).async_get_entity_id(
        Platform.SWITCH, DOMAIN, f"{paired.entry.entry_id}_away"
    )
    assert away_id is not None
    away = bridge.expose(away_id)
    eco = bridge.expose(paired.entity_id(Platform.SWITCH, "eco"))
    thermostat = bridge.expose(paired.entity_id(Platform.CLIMATE))
    assert type(bridge[away]).__name__ == type(bridge[eco]).__name__ == "Switch"
    assert bridge.value(away, SERV_SWITCH, CHAR_ON) is False

    await bridge.write(away, SERV_SWITCH, **{CHAR_ON: True})
    structure_key = harness(paired.service).home_keys(SERIAL)[1]
    await paired.pushed(structure_key, away=True, manual_eco_all=True)
    assert bridge.value(away, SERV_SWITCH, CHAR_ON) is True
    assert climate_state(hass, paired).attributes["preset_mode"] == "away"

    # Eco on one thermostat brings the home back, as the eco preset does.
    await bridge.write(eco, SERV_SWITCH, **{CHAR_ON: True})
    await paired.pushed("device", eco_mode_enabled=True)
    assert (bridge.value(eco, SERV_SWITCH, CHAR_ON), bridge.value(away, SERV_SWITCH, CHAR_ON)) == (
        True,
        False,
    )
    # The thermostat accessory shows the eco temperatures the thermostat now holds (built anew:
    # eco offers a range instead of a single target).
    assert bridge.reloads == [thermostat]
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_TARGET_TEMPERATURE) == 12.0
    assert bridge.value(thermostat, SERV_THERMOSTAT, CHAR_HEATING_THRESHOLD_TEMPERATURE) == 12.0

    await bridge.write(eco, SERV_SWITCH, **{CHAR_ON: False})
    await paired.pushed("device", eco_mode_enabled=False)
    assert bridge.value(eco, SERV_SWITCH, CHAR_ON) is False


async def test_occupancy_is_a_homekit_occupancy_sensor(
    hass: HomeAssistant, pair_thermostat: PairThermostat, bridge: Bridge
) -> None:
    paired = await pair_thermostat(shared={"auto_away": 0}, device={"auto_away_enable": True})
    occupancy = bridge.expose(paired.entity_id(Platform.BINARY_SENSOR, "occupancy"))
    assert bridge.value(occupancy, SERV_OCCUPANCY_SENSOR, CHAR_OCCUPANCY_DETECTED) == 1
    await paired.thermostat.put(f"shared.{SERIAL}", {"auto_away": 1})
    await hass.async_block_till_done()
    assert bridge.value(occupancy, SERV_OCCUPANCY_SENSOR, CHAR_OCCUPANCY_DETECTED) == 0
