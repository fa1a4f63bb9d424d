"""What the climate entity shows of a thermostat: one pure projection of its state.

`project_climate` maps the thermostat's state onto Home Assistant's climate model (the rules
are in `climate.py`'s module doc); `CLIMATE_READS` is what it reads, the climate entity's
change filter. The Eco switch reads the presets here too (`climate_preset`).
"""

from __future__ import annotations

from dataclasses import dataclass

from homeassistant.components.climate.const import (
    FAN_AUTO,
    FAN_ON,
    PRESET_AWAY,
    PRESET_ECO,
    PRESET_NONE,
    ClimateEntityFeature,
    HVACAction,
    HVACMode,
)

from .entity import EMERGENCY, HVAC_MODE_OF_MODE, PRESET_EMERGENCY_HEAT, RELAYS
from .server import (
    EQUIPMENT_FIELDS,
    Change,
    EventKind,
    RoomView,
    Setpoints,
    ThermostatState,
    held_setpoints,
    holds_eco,
    takes_range,
)

ATTR_CHANGED_BY = "changed_by"
"""Who made the last change: `thermostat`, `person`, `automation`, `script`, `rule`, `api`..."""
ATTR_CHANGED_BY_NAME = "changed_by_name"
"""Their name: the person's, the automation's, the key's; `dial` or `schedule`; the rule."""
ATTR_FOLLOWED_SENSORS = "followed_sensors"
"""The room sensors in control now (empty when fallen back); only when some are chosen."""


CLIMATE_READS = RELAYS | frozenset(
    {
        # The whole `shared` bucket: mode, setpoints, capabilities, and whether it was
        # reported at all (no action before it was).
        "shared",
        # Every equipment field: `capabilities` reads them all.
        *(f"device.{field}" for field in EQUIPMENT_FIELDS),
        "device.eco",
        "device.eco_mode_enabled",
        "device.away_temperature_low",
        "device.away_temperature_high",
        "device.away_temperature_low_enabled",
        "device.away_temperature_high_enabled",
        "device.current_humidity",
        "device.target_humidity",
        "device.fan_mode",
        "device.fan_timer_timeout",
        "structure.away",
        "structure.manual_eco_all",
        EventKind.PAIRING,  # the home whose away it shows
        EventKind.ROOM,  # the room's reading and the shift of the setpoints
    }
)
"""What `project_climate` reads."""


@dataclass(frozen=True, slots=True)
class ClimateView:
    """What the climate entity shows of its thermostat (temperatures in Celsius)."""

    mode: str | None
    """The thermostat's own mode (`shared.target_temperature_type`), for turn_on."""
    supported_features: ClimateEntityFeature
    hvac_modes: tuple[HVACMode, ...]
    hvac_mode: HVACMode | None
    hvac_action: HVACAction | None
    fan_modes: tuple[str, ...] | None
    fan_mode: str | None
    preset_modes: tuple[str, ...]
    preset_mode: str
    current_humidity: float | None
    target_humidity: float | None
    current_temperature: float | None
    setpoints: Setpoints
    holds_eco: bool
    """Eco's temperatures and limits apply (see `holds_eco`)."""
    changed_by: Change | None = None
    """Who last changed the setpoint, mode or preset (shown as attributes)."""
    followed_sensors: tuple[str, ...] | None = None
    """The room sensors in control; None when none are chosen."""

    @property
    def attributes(self) -> dict[str, str | list[str]]:
        """Return who made the last change (kind, then name) and the room sensors in control."""
        attributes: dict[str, str | list[str]] = {}
        if self.changed_by is not None:
            author = self.changed_by.author
            attributes = {ATTR_CHANGED_BY: author.kind.value, ATTR_CHANGED_BY_NAME: author.name}
        if self.followed_sensors is not None:
            attributes[ATTR_FOLLOWED_SENSORS] = list(self.followed_sensors)
        return attributes


def project_climate(
    thermostat: ThermostatState,
    last_change: Change | None = None,
    room: RoomView | None = None,
) -> ClimateView:
    """Return what the climate entity shows of the thermostat's state now; see the module doc.

    `last_change`: who last changed its setpoint, mode or preset (the command layer keeps it).
    `room`: the room's frame (room_follow.py): its temperature, and the setpoints plus the
    shift they were sent with, but eco's, which are the thermostat's own.
    """
    caps = thermostat.capabilities
    mode = thermostat.mode
    eco_holds = holds_eco(thermostat)
    features = (
        ClimateEntityFeature.PRESET_MODE
        | ClimateEntityFeature.TURN_OFF
        | ClimateEntityFeature.TURN_ON
    )
    if eco_holds:
        # The eco temperatures are a low and a high, in every mode.
        features |= ClimateEntityFeature.TARGET_TEMPERATURE_RANGE
    elif not takes_range(mode):
        # In range mode a single temperature means nothing: Home Assistant's climate intent
        # and cards then ask for low and high instead.
        features |= ClimateEntityFeature.TARGET_TEMPERATURE
    hvac_modes = [HVACMode.OFF]
    if caps["can_heat"]:
        hvac_modes.append(HVACMode.HEAT)
    if caps["can_cool"]:
        hvac_modes.append(HVACMode.COOL)
    if caps["can_heat"] and caps["can_cool"]:
        hvac_modes.append(HVACMode.HEAT_COOL)
        features |= ClimateEntityFeature.TARGET_TEMPERATURE_RANGE
    if caps["has_fan"]:
        features |= ClimateEntityFeature.FAN_MODE
    if caps["has_humidifier"] or caps["has_dehumidifier"]:
        features |= ClimateEntityFeature.TARGET_HUMIDITY

    fan_on = thermostat.fan_mode == "on" or thermostat.fan_timer_active
    setpoints = held_setpoints(thermostat)
    presets = [PRESET_NONE, PRESET_ECO, PRESET_AWAY]
    if caps["has_emer_heat"]:
        presets.append(PRESET_EMERGENCY_HEAT)
    return ClimateView(
        mode=mode,
        supported_features=features,
        hvac_modes=tuple(hvac_modes),
        hvac_mode=HVAC_MODE_OF_MODE.get(mode) if mode is not None else None,
        hvac_action=_hvac_action(thermostat),
        fan_modes=(FAN_AUTO, FAN_ON) if caps["has_fan"] else None,
        fan_mode=(FAN_ON if fan_on else FAN_AUTO) if caps["has_fan"] else None,
        preset_modes=tuple(presets),
        preset_mode=climate_preset(thermostat),
        current_humidity=thermostat.humidity,
        target_humidity=thermostat.target_humidity,
        current_temperature=(
            thermostat.current_temperature
            if room is None
            else room.current(thermostat.current_temperature)
        ),
        setpoints=setpoints if room is None or eco_holds else room.shown(setpoints),
        holds_eco=eco_holds,
        changed_by=last_change,
        followed_sensors=(
            room.sources if room is not None and (room.following or room.fallen_back) else None
        ),
    )


PRESET_READS = frozenset(
    {
        "shared.target_temperature_type",
        "device.eco",
        "device.eco_mode_enabled",
        "structure.away",
        "structure.manual_eco_all",
        EventKind.PAIRING,  # the home whose away it shows
    }
)
"""What `climate_preset` reads."""


def climate_preset(thermostat: ThermostatState) -> str:
    """Return the preset the thermostat is in: emergency heat, then away, then eco, else none.

    The one reading of the presets: the climate entity shows it, and the Eco switch is on
    exactly when it is `eco`.
    """
    if thermostat.mode == EMERGENCY:
        return PRESET_EMERGENCY_HEAT
    if thermostat.away:
        return PRESET_AWAY
    if thermostat.eco:
        return PRESET_ECO
    return PRESET_NONE


def _hvac_action(thermostat: ThermostatState) -> HVACAction | None:
    if not thermostat.shared:
        return None
    if thermostat.heating:
        return HVACAction.HEATING
    if thermostat.cooling:
        return HVACAction.COOLING
    if thermostat.dehumidifying:
        return HVACAction.DRYING
    if thermostat.fan_running or thermostat.fan_cooling:
        return HVACAction.FAN
    if thermostat.mode == "off":
        return HVACAction.OFF
    return HVACAction.IDLE
