"""The climate entity of each paired thermostat: its actions and what it restores.

What it shows is one pure projection, `climate_view.project_climate`. How the thermostat's
state maps onto Home Assistant's climate model:

- HVAC modes come from its capabilities: `off` always, `heat` when it can heat, `cool` when it
  can cool, `heat_cool` (the thermostat's `range`) when it can do both.
- Emergency heat is a way of heating, not a separate target: while the thermostat is in its
  `emergency` mode the entity shows HVAC mode `heat` with the preset `emergency_heat` (offered
  only when the thermostat has emergency heat). Choosing another preset or HVAC mode leaves it.
- Presets `eco` and `away` are two different things. `eco` is the thermostat's own eco mode
  (`device.eco`); `away` is the home's away state (`structure.away`), shared by every thermostat
  of the home. When both are on the entity shows `away`. Choosing `none` turns both off,
  choosing `eco` turns eco on and the home back to home, choosing `away` sets the home away.
- `turn_on` returns to the mode the thermostat had before it was turned off (remembered across
  restarts as restore data), else to the mode its schedule drives, else heat.
- Fan modes `auto` and `on` only when the thermostat has a fan; a running fan timer shows `on`
  (the timer itself is the `set_fan_timer` action).
- `hvac_action` is read from the relays the thermostat reports: any heat stage (including aux
  and emergency heat) is `heating`, any cool stage `cooling`, then a dehumidifier (or the air
  conditioning's "cool to dry") `drying`, the fan alone or Airwave (the fan cooling on after the
  compressor) `fan`, nothing `idle` (or `off` in mode off).
- A single target temperature is offered in every mode but `heat_cool`, where only low and
  high are (supported features follow the mode).
- While eco is on (and the thermostat not off) it holds its eco temperatures
  (`device.away_temperature_low/high`), so those are the targets shown, as low and high in
  every mode, and a `set_temperature` with low and high (no HVAC mode) changes them, within the
  eco limits 4.5 to 35 °C.
- `set_temperature` takes the setpoints of the mode the thermostat ends up in: low and high
  for `heat_cool`, a single temperature otherwise (also while off, kept for later). Any other
  combination, and `hvac_mode: off` with a temperature, is refused before anything is written.
  The command layer's `set_setpoints` decides this and the eco rule above; the entity passes
  what the user asked.
- Temperatures are Celsius natively, 4.5 to 32 °C in 0.5 °C steps (the protocol notes'
  recommended range, 40 to 90 °F); Home Assistant converts them for a Fahrenheit
  installation, where the step is 1 °F and the limits are 40 to 90 °F, whole degrees the
  thermostat takes after its rounding to 0.5 °C, so both ends of the slider are accepted.
"""

from __future__ import annotations

from datetime import timedelta
import logging
from typing import Any, override

from homeassistant.components.climate import ClimateEntity
from homeassistant.components.climate.const import (
    ATTR_HVAC_MODE,
    ATTR_TARGET_TEMP_HIGH,
    ATTR_TARGET_TEMP_LOW,
    HVACMode,
)
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import ATTR_TEMPERATURE, UnitOfTemperature
from homeassistant.core import ServiceResponse
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers.restore_state import (
    ExtraStoredData,
    RestoredExtraData,
    RestoreEntity,
)
from homeassistant.util.unit_conversion import TemperatureConverter

from .climate_view import CLIMATE_READS, ClimateView, project_climate
from .const import DOMAIN
from .entity import (
    HVAC_MODE_OF_MODE,
    MODE_OF_HVAC_MODE,
    ThermostatEntity,
    limit_in_unit,
    mode_label,
    platform_setup,
)
from .hub import Hub
from .server import (
    ECO_TEMPERATURE_MAX_C,
    ECO_TEMPERATURE_MIN_C,
    TARGET_HUMIDITY_MAX,
    TARGET_HUMIDITY_MIN,
    TEMPERATURE_MAX_C,
    TEMPERATURE_MIN_C,
)

_LOGGER = logging.getLogger(__name__)

PARALLEL_UPDATES = 0

ATTR_LAST_ON_MODE = "last_on_mode"
"""Restore data of the climate entity: the thermostat's mode before it was turned off."""

TEMPERATURE_STEP_C = 0.5
TEMPERATURE_STEP_F = 1.0

NATIVE_TEMPERATURE_API = hasattr(ClimateEntity, "native_current_temperature")
"""Whether Home Assistant reads the climate temperatures from `native_temperature_unit`,
`native_current_temperature` and `native_target_temperature(_low/_high)` (2026.11 on, which
reports the old names as deprecated, to stop working in 2027.11), or from the old names only
(2026.10)."""


class ThermostatClimate(ThermostatEntity[ClimateView], ClimateEntity, RestoreEntity):
    """The thermostat: modes, setpoints, fan, presets and what its relays are doing."""

    _attr_name = None
    _attr_translation_key = "thermostat"
    _attr_min_humidity = TARGET_HUMIDITY_MIN
    _attr_max_humidity = TARGET_HUMIDITY_MAX
    _attr_target_humidity_step = 1
    # The temperatures are Celsius, under the names of Home Assistant's version (see
    # NATIVE_TEMPERATURE_API and `_update_attrs`).
    if NATIVE_TEMPERATURE_API:
        _attr_native_temperature_unit = UnitOfTemperature.CELSIUS
    else:
        _attr_temperature_unit = UnitOfTemperature.CELSIUS

    def __init__(self, hub: Hub, subentry: ConfigSubentry) -> None:
        """Initialize the climate entity from the hub and the thermostat's subentry."""
        self._last_on_mode: str | None = None
        """The mode before the thermostat was turned off, for turn_on."""
        super().__init__(hub, subentry, None, CLIMATE_READS)

    @override
    def _project(self) -> ClimateView:
        view = project_climate(
            self.thermostat,
            self.service.commands.last_change(self.serial),
            self.service.rooms.view(self.serial),
        )
        if view.mode is not None and view.mode != "off":
            self._last_on_mode = view.mode
        return view

    @override
    def _update_attrs(self, view: ClimateView) -> None:
        self._attr_supported_features = view.supported_features
        self._attr_hvac_modes = list(view.hvac_modes)
        self._attr_hvac_mode = view.hvac_mode
        self._attr_hvac_action = view.hvac_action
        self._attr_fan_modes = None if view.fan_modes is None else list(view.fan_modes)
        self._attr_fan_mode = view.fan_mode
        self._attr_preset_modes = list(view.preset_modes)
        self._attr_preset_mode = view.preset_mode
        self._attr_current_humidity = view.current_humidity
        self._attr_target_humidity = view.target_humidity
        setpoints = view.setpoints
        if NATIVE_TEMPERATURE_API:
            self._attr_native_current_temperature = view.current_temperature
            self._attr_native_target_temperature = setpoints.target
            self._attr_native_target_temperature_low = setpoints.low
            self._attr_native_target_temperature_high = setpoints.high
        else:  # Home Assistant 2026.10 reads only the old names.
            self._attr_current_temperature = view.current_temperature
            self._attr_target_temperature = setpoints.target
            self._attr_target_temperature_low = setpoints.low
            self._attr_target_temperature_high = setpoints.high
        # Who made the last change of the setpoint, mode or preset.
        self._attr_extra_state_attributes = view.attributes

    # Limits and step follow Home Assistant's unit, read when its state is written.

    @property
    @override
    def target_temperature_step(self) -> float:
        """0.5 °C as on the thermostat; whole degrees for a Fahrenheit Home Assistant."""
        if self.hass.config.units.temperature_unit == UnitOfTemperature.CELSIUS:
            return TEMPERATURE_STEP_C
        return TEMPERATURE_STEP_F

    @property
    @override
    def min_temp(self) -> float:
        """Return the lowest setpoint: 4.5 °C (also for eco temperatures).

        On a Fahrenheit Home Assistant 40 °F (see `limit_in_unit`).
        """
        low = ECO_TEMPERATURE_MIN_C if self.view.holds_eco else TEMPERATURE_MIN_C
        return self._limit(low, lowest=True)

    @property
    @override
    def max_temp(self) -> float:
        """Return the highest setpoint: 32 °C (35 °C for eco temperatures).

        On a Fahrenheit Home Assistant 90 °F (95 °F).
        """
        high = ECO_TEMPERATURE_MAX_C if self.view.holds_eco else TEMPERATURE_MAX_C
        return self._limit(high, lowest=False)

    def _limit(self, celsius: float, *, lowest: bool) -> float:
        """Return a setpoint limit in Celsius (the entity's unit), as refusals state it."""
        unit = self.hass.config.units.temperature_unit
        shown = limit_in_unit(celsius, unit, lowest=lowest)
        return TemperatureConverter.convert(shown, unit, UnitOfTemperature.CELSIUS)

    # -- climate actions ---------------------------------------------------------------------

    @override
    async def async_set_hvac_mode(self, hvac_mode: HVACMode) -> None:
        """Switch the thermostat's mode (leaves emergency heat)."""
        commands = self.service.commands
        self.run_command(commands.set_mode, MODE_OF_HVAC_MODE[hvac_mode])

    @override
    async def async_turn_on(self) -> None:
        """Turn the thermostat back on.

        Back to the mode it had before it was turned off, else the mode its schedule drives,
        else heat (cool for a thermostat that cannot heat).
        """
        schedule_mode = self.thermostat.schedule_mode
        candidates = (
            self._last_on_mode,
            schedule_mode.lower() if schedule_mode is not None else None,  # HEAT, COOL, RANGE
            "heat",
            "cool",
        )
        hvac_modes = self.hvac_modes or ()
        mode = next(
            (mode for mode in candidates if mode and HVAC_MODE_OF_MODE[mode] in hvac_modes),
            "heat",  # refused as unsupported, with a translated error
        )
        self.run_command(self.service.commands.set_mode, mode)

    @override
    async def async_added_to_hass(self) -> None:
        """Remember the mode before off across reloads and restarts, for turn_on."""
        await super().async_added_to_hass()
        if self._last_on_mode is None and (extra := await self.async_get_last_extra_data()):
            mode = extra.as_dict().get(ATTR_LAST_ON_MODE)
            if mode in HVAC_MODE_OF_MODE and mode != "off":
                self._last_on_mode = mode

    @property
    @override
    def extra_restore_state_data(self) -> ExtraStoredData:
        """Return the mode turn_on returns to, beside what Home Assistant's classes store.

        They store none on 2026.10 and 2026.11, climate data only with its `RestoreClimate`:
        the mode is added, never replacing it.
        """
        stored = super().extra_restore_state_data
        return RestoredExtraData(
            {
                **(stored.as_dict() if stored is not None else {}),
                ATTR_LAST_ON_MODE: self._last_on_mode,
            }
        )

    @override
    async def async_set_temperature(self, **kwargs: Any) -> None:
        """Single setpoint or range, optionally switching mode in the same call.

        The command layer decides by the mode rules what the setpoints are (eco's, the
        range's or the target) and refuses a combination the thermostat cannot take before
        anything is written.
        """
        hvac_mode: HVACMode | None = kwargs.get(ATTR_HVAC_MODE)
        if hvac_mode is not None and hvac_mode not in self.hvac_modes:
            raise ServiceValidationError(
                translation_domain=DOMAIN,
                translation_key="hvac_mode_unsupported",
                translation_placeholders={"hvac_mode": mode_label(self.hass, hvac_mode)},
            )
        self.run_command(
            self.service.commands.set_setpoints,
            kwargs.get(ATTR_TEMPERATURE),
            kwargs.get(ATTR_TARGET_TEMP_LOW),
            kwargs.get(ATTR_TARGET_TEMP_HIGH),
            mode=None if hvac_mode is None else MODE_OF_HVAC_MODE[hvac_mode],
        )

    @override
    async def async_set_fan_mode(self, fan_mode: str) -> None:
        """Fan `auto` or `on` (ends a running fan timer)."""
        self.run_command(self.service.commands.set_fan, fan_mode)

    @override
    async def async_set_preset_mode(self, preset_mode: str) -> None:
        """Eco (the thermostat's), away (the home's) or emergency heat; see the module doc.

        One command: the mode, the home and eco change together (one push, one state write).
        """
        self.run_command(self.service.commands.set_preset, preset_mode)

    @override
    async def async_set_humidity(self, humidity: int) -> None:
        """Target humidity for the humidifier or dehumidifier (enables it)."""
        self.run_command(self.service.commands.set_target_humidity, humidity)

    # -- the integration's own actions (services.py) ----------------------------------------

    async def async_set_fan_timer(self, duration: timedelta) -> None:
        """Run the fan for a while, then back to `auto`."""
        self.run_command(self.service.commands.set_fan, duration=duration.total_seconds())

    async def async_set_temperature_lock(
        self,
        enabled: bool,
        pin: str | None = None,
        min_temperature: float | None = None,
        max_temperature: float | None = None,
    ) -> None:
        """Lock the dial to a range behind a 4-digit PIN (only its hash is stored), or unlock."""
        commands = self.service.commands
        if not enabled:
            self.run_command(commands.set_temperature_lock, False)
            return
        self.run_command(
            commands.set_temperature_lock,
            True,
            temp_min=self._celsius(min_temperature),
            temp_max=self._celsius(max_temperature),
            pin=pin or "",  # enabling without a PIN is a bad PIN, not a bad hash
        )

    async def async_set_eco_temperatures(self, low: float, high: float) -> None:
        """Set the temperatures the thermostat keeps in eco mode."""
        self.run_command(
            self.service.commands.set_eco_temperatures, self._celsius(low), self._celsius(high)
        )

    async def async_get_schedule(self) -> ServiceResponse:
        """Return the schedule as the thermostat stores it (Celsius).

        None before the thermostat reported one.
        """
        schedule = self.thermostat.schedule
        return {"schedule": dict(schedule) if schedule is not None else None}

    async def async_set_schedule(
        self, schedule: dict[str, Any], turn_off_learning: bool | None = None
    ) -> None:
        """Replace the whole schedule (validated; Celsius, as the thermostat stores it).

        While learning is on the thermostat may modify a schedule it is given, so the caller
        must say what to do about it (`turn_off_learning`): the command layer's one rule,
        the same for the control and hosted APIs.
        """
        self.run_command(
            self.service.commands.set_schedule, schedule, turn_off_learning=turn_off_learning
        )

    def _celsius(self, value: float | None) -> float | None:
        """Convert an action's temperature, given in Home Assistant's unit, to Celsius."""
        if value is None:
            return None
        return TemperatureConverter.convert(
            value, self.hass.config.units.temperature_unit, UnitOfTemperature.CELSIUS
        )


async_setup_entry = platform_setup(lambda hub, subentry: [ThermostatClimate(hub, subentry)])
