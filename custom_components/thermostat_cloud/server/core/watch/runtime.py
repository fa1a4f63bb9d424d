"""How long each piece of equipment ran, how often heating and cooling started, what it used.

Counted from the relay states as reports are applied, timed when each report arrives: firmware's
PUT carries no time of its own (docs/device-protocol.md). A relay counts only while the
thermostat is heard from:

- after a start nothing runs until the thermostat makes contact; a relay the stored state has
  on counts from that contact, not from the stop;
- a thermostat that stops being available stops counting at its last contact;
- time between two contacts counts up to `max_step_s`: a clock that jumps forward, or a
  stalled loop, adds at most that, with a warning; a clock that jumps back adds nothing.

Figures only grow (long-term statistics). They are kept across unpairing, so a thermostat
paired again continues them, and counted only for paired thermostats, so strangers cannot grow
the record. A new energy rate never rewrites what was used before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
import logging
import math
from typing import Any

from ...model.buckets import bucket_key, field_name
from ..context import CoreContext
from ..events import ChangeSource, EventKind, Follows, ServiceEvent
from ..read.readings import COOL_RELAYS, DEVICE_RELAYS, HEAT_RELAYS, HVAC_RELAYS, relay_states
from ..read.validation import saved_record

_LOGGER = logging.getLogger(__name__)

# Equipment -> the relays (status-record names, see readings.HVAC_RELAYS) that show it running.
EQUIPMENT_RELAYS: Mapping[str, tuple[str, ...]] = {
    "heating_stage_1": ("heater",),
    "heating_stage_2": ("heat_x2",),
    "heating_stage_3": ("heat_x3",),
    "aux_heat": ("aux_heat",),
    "emergency_heat": ("emer_heat",),
    # Alternate heat (a furnace beside a heat pump) in either of its stages.
    "alt_heat": ("alt_heat", "alt_heat_x2"),
    "cooling_stage_1": ("ac",),
    "cooling_stage_2": ("cool_x2",),
    "cooling_stage_3": ("cool_x3",),
    "fan": ("fan",),
    "humidifier": ("humidifier",),
    # A dehumidifier, or the air conditioning dehumidifying ("cool to dry"), as its binary
    # sensor shows it.
    "dehumidifier": ("dehumidifier", "auto_dehum"),
    "airwave": ("fan_cooling",),
}
EQUIPMENT = tuple(EQUIPMENT_RELAYS)
HEATING, COOLING = "heating", "cooling"
CYCLES = (HEATING, COOLING)
ELECTRICITY, GAS = "electricity", "gas"
ENERGY_KINDS = (ELECTRICITY, GAS)
"""Electricity in kWh (rates in kW), gas in m³ (rates in m³/h)."""

RELAY_FIELDS = frozenset(
    {field_name("shared", f) for f in HVAC_RELAYS.values()}
    | {field_name("device", f) for f in DEVICE_RELAYS.values()}
)
"""The fields whose change can start or stop equipment (as STATE events name them)."""

PUBLISH_INTERVAL_MS = 60_000
"""While equipment runs, a RUNTIME event (and a save) at most this often; start and stop at once."""
CLOCK_BACK_TOLERANCE_MS = 1_000
MAX_RATE = 1_000.0
"""Plausible power (kW) or gas rate (m³/h) of one stage: a home's equipment is well under."""


_EQUIPMENT_OF_RELAY = {
    relay: equipment for equipment, relays in EQUIPMENT_RELAYS.items() for relay in relays
}
_CYCLE_OF_RELAY = {
    **dict.fromkeys(HEAT_RELAYS, HEATING),
    **dict.fromkeys(COOL_RELAYS, COOLING),
}


def running(relays: Mapping[str, bool]) -> tuple[frozenset[str], frozenset[str]]:
    """Return the running equipment and the cycles under way, by the relay states.

    Relays by their status-record names (`state.relay_states`); a cycle is `heating` while a
    heat relay is on, `cooling` while a cool relay is.
    """
    on = [name for name, state in relays.items() if state]
    return (
        frozenset(_EQUIPMENT_OF_RELAY[name] for name in on if name in _EQUIPMENT_OF_RELAY),
        frozenset(_CYCLE_OF_RELAY[name] for name in on if name in _CYCLE_OF_RELAY),
    )


def _figure(value: object) -> float | None:
    """Return a stored figure when it is a finite number of at least 0, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


@dataclass(slots=True)
class Tally:
    """One thermostat's figures, and what is running now (not saved)."""

    seconds: dict[str, float] = field(default_factory=dict)
    cycles: dict[str, int] = field(default_factory=dict)
    energy: dict[str, float] = field(default_factory=dict)
    relays: dict[str, bool] | None = None
    """The relay states last applied, None while the thermostat is not heard from."""
    running: frozenset[str] = frozenset()
    """The equipment counting now (none while the thermostat is not heard from)."""
    cycling: frozenset[str] = frozenset()
    """The cycles under way (`heating`, `cooling`)."""
    mark_ms: int = 0
    """Running equipment is counted up to here."""
    published_ms: int = 0

    def follow(self, relays: dict[str, bool] | None) -> None:
        """Count from these relay states on (None: the thermostat is not heard from)."""
        self.relays = relays
        self.running, self.cycling = running(relays or {})

    def dump(self) -> dict[str, Any]:
        return {"seconds": self.seconds, "cycles": self.cycles, "energy": self.energy}

    @classmethod
    def load(cls, serial: str, data: object) -> Tally:
        """Read the saved form, dropping (with a warning) what cannot be a figure."""
        tally = cls()
        if not isinstance(data, Mapping):
            _LOGGER.warning("Ignoring stored runtime of %s: it is no record", serial)
            return tally
        for name, names, target in (
            ("seconds", EQUIPMENT, tally.seconds),
            ("energy", ENERGY_KINDS, tally.energy),
        ):
            stored = data.get(name)
            for key, value in stored.items() if isinstance(stored, Mapping) else ():
                if key in names and (figure := _figure(value)) is not None:
                    target[key] = figure
                else:
                    _LOGGER.warning("Ignoring stored %s %s of %s", name, key, serial)
        cycles = data.get("cycles")
        for key, value in cycles.items() if isinstance(cycles, Mapping) else ():
            if key in CYCLES and (figure := _figure(value)) is not None:
                tally.cycles[key] = int(figure)
            else:
                _LOGGER.warning("Ignoring stored cycles %s of %s", key, serial)
        return tally


@dataclass(frozen=True, slots=True)
class RuntimeFigures:
    """What a thermostat's runtime sensors show (a copy)."""

    seconds: Mapping[str, float]
    cycles: Mapping[str, int]
    energy: Mapping[str, float]


NO_FIGURES = RuntimeFigures({}, {}, {})

type Rates = Mapping[str, Mapping[str, float]]
"""Equipment -> energy kind -> kW (electricity) or m³/h (gas)."""


class RuntimeLedger:
    """The runtime, cycles and energy of every thermostat that was ever paired."""

    def __init__(
        self,
        context: CoreContext,
        *,
        last_contact_ms: Callable[[str], int | None],
        is_available: Callable[[str], bool],
    ) -> None:
        """`last_contact_ms`: when a thermostat last made a request."""
        config = context.config
        self._context = context
        self._last_contact_ms = last_contact_ms
        self._is_available = is_available
        # The longest time counted between two contacts: a thermostat in contact is heard at
        # least once per held subscribe and grace.
        self._max_step_ms = int((config.hold_timeout + config.availability_grace) * 1000)
        self._tallies: dict[str, Tally] = {}
        self._rates: dict[str, Rates] = {}

    # -- saved state ------------------------------------------------------------------------

    def load(self, data: object) -> None:
        """Restore the figures saved under `runtime` (absent before this feature: none)."""
        self._tallies = {}
        data = saved_record(data, _LOGGER, "Ignoring stored runtime: it is no record")
        if data is None:
            return
        for serial, stored in data.items():
            if isinstance(serial, str):
                self._tallies[serial] = Tally.load(serial, stored)

    def dump(self) -> dict[str, Any]:
        return {serial: tally.dump() for serial, tally in self._tallies.items()}

    # -- reading ------------------------------------------------------------------------------

    def figures(self, serial: str) -> RuntimeFigures:
        tally = self._tallies.get(serial)
        if tally is None:
            return NO_FIGURES
        return RuntimeFigures(dict(tally.seconds), dict(tally.cycles), dict(tally.energy))

    # -- what the host tells -------------------------------------------------------------------

    def set_rates(self, serial: str, rates: Rates) -> None:
        """Use these rates from now on (time counted before keeps the energy it had)."""
        checked: dict[str, dict[str, float]] = {}
        for equipment, by_kind in rates.items():
            for kind, rate in by_kind.items():
                value = _figure(rate)
                if equipment not in EQUIPMENT or kind not in ENERGY_KINDS or value is None:
                    _LOGGER.warning("Ignoring rate %s of %s for %s", kind, equipment, serial)
                elif value > MAX_RATE:
                    _LOGGER.warning(
                        "Ignoring %s rate %s of %s for %s: more than %s",
                        kind,
                        value,
                        equipment,
                        serial,
                        MAX_RATE,
                    )
                elif value > 0:
                    checked.setdefault(equipment, {})[kind] = value
        if (tally := self._tallies.get(serial)) is not None and tally.relays is not None:
            self._count(serial, tally, self._context.clock.now_ms())
        self._rates[serial] = checked

    def note_shown(
        self,
        serial: str,
        seconds: Mapping[str, float],
        cycles: Mapping[str, int],
        energy: Mapping[str, float],
    ) -> None:
        """Raise figures to what the host showed before (never lower them).

        A crash after the host recorded a figure and before it was saved would otherwise
        show a lower one, which long-term statistics read as a reset meter.
        """
        tally = self._tallies.setdefault(serial, Tally())
        raised = False
        for shown, kept in ((seconds, tally.seconds), (energy, tally.energy)):
            for key, value in shown.items():
                if (figure := _figure(value)) is not None and figure > kept.get(key, 0.0):
                    kept[key] = figure
                    raised = True
        for key, count in cycles.items():
            if (figure := _figure(count)) is not None and figure > tally.cycles.get(key, 0):
                tally.cycles[key] = int(figure)
                raised = True
        if raised:
            self._context.request_save()

    # -- what the thermostat tells ----------------------------------------------------------

    def note_contact(self, serial: str) -> None:
        """Note a request of the thermostat: it is heard from now; what runs counts until now."""
        tally = self._tallies.get(serial)
        if tally is None or tally.relays is None:
            if self._context.ownership.is_paired(serial):
                self._hear(serial)
            return
        if not tally.running:
            return
        now = self._context.clock.now_ms()
        self._count(serial, tally, now)
        if now - tally.published_ms >= PUBLISH_INTERVAL_MS:
            self._publish(serial, tally, now)

    def _hear(self, serial: str) -> Tally:
        """Start counting what the stored state has running, from now."""
        tally = self._tallies.setdefault(serial, Tally())
        tally.follow(self._relays(serial))
        tally.mark_ms = self._context.clock.now_ms()
        return tally

    def _relays(self, serial: str) -> dict[str, bool]:
        return relay_states(
            self._context.buckets.value(bucket_key("shared", serial)),
            self._context.buckets.value(bucket_key("device", serial)),
        )

    follows = Follows(
        fields=RELAY_FIELDS, kinds=frozenset({EventKind.CONNECTION, EventKind.PAIRING})
    )
    """Its relays, contact and pairing: what starts, stops or ends a count."""

    def follow(self, event: ServiceEvent) -> None:
        if event.kind is EventKind.STATE:
            if event.source is ChangeSource.DEVICE and not RELAY_FIELDS.isdisjoint(event.fields):
                self._relays_changed(event.serial)
        elif event.kind is EventKind.CONNECTION or event.kind is EventKind.PAIRING:
            self._check_heard(event.serial, event.kind)

    def _relays_changed(self, serial: str) -> None:
        if not self._context.ownership.is_paired(serial):
            return
        tally = self._tallies.get(serial)
        now = self._context.clock.now_ms()
        if tally is None or tally.relays is None:
            # A report follows its request's contact, which starts counting: not reached
            # unless a request skipped it. What runs counts from now, as after a contact.
            self._publish(serial, self._hear(serial), now)
            return
        running_before, cycling_before = tally.running, tally.cycling
        if running_before:
            self._count(serial, tally, now)
        else:
            tally.mark_ms = now  # counting starts with this report
        tally.follow(self._relays(serial))
        changed = tally.running != running_before
        for cycle in tally.cycling - cycling_before:
            tally.cycles[cycle] = tally.cycles.get(cycle, 0) + 1
            changed = True
        if changed:
            self._publish(serial, tally, now)

    def _check_heard(self, serial: str, kind: EventKind) -> None:
        """Stop counting a thermostat that is no longer there, or no longer paired."""
        tally = self._tallies.get(serial)
        if tally is None or tally.relays is None:
            return
        if kind is EventKind.PAIRING:
            if self._context.ownership.is_paired(serial):
                return
            until = self._context.clock.now_ms()
        else:
            if self._is_available(serial):
                return
            # Not heard since its last request: what ran after it is not known.
            until = min(
                self._context.clock.now_ms(), self._last_contact_ms(serial) or tally.mark_ms
            )
        was_running = bool(tally.running)
        self._count(serial, tally, until)
        tally.follow(None)
        if was_running:
            self._publish(serial, tally, self._context.clock.now_ms())

    # -- counting -------------------------------------------------------------------------------

    def _count(self, serial: str, tally: Tally, until_ms: int) -> None:
        """Count what runs from the mark until `until_ms`, capped; move the mark there.

        With nothing running there is nothing to count: the mark moves when something starts.
        """
        running = tally.running
        if not running:
            return
        elapsed = until_ms - tally.mark_ms
        if elapsed <= 0:
            if elapsed < -CLOCK_BACK_TOLERANCE_MS and until_ms == self._context.clock.now_ms():
                _LOGGER.warning(
                    "The clock went back %.0f s while thermostat %s ran equipment; that time "
                    "counts as nothing",
                    -elapsed / 1000,
                    serial,
                )
                tally.mark_ms = until_ms
            return
        if elapsed > self._max_step_ms:
            _LOGGER.warning(
                "Thermostat %s: %.0f s passed between two contacts while %s ran, which cannot "
                "be (a clock jump, or a stalled Home Assistant); counting %.0f s",
                serial,
                elapsed / 1000,
                ", ".join(sorted(running)),
                self._max_step_ms / 1000,
            )
            elapsed = self._max_step_ms
        tally.mark_ms = until_ms
        seconds = elapsed / 1000
        rates = self._rates.get(serial, {})
        for equipment in running:
            tally.seconds[equipment] = tally.seconds.get(equipment, 0.0) + seconds
            for kind, rate in rates.get(equipment, {}).items():
                tally.energy[kind] = tally.energy.get(kind, 0.0) + rate * seconds / 3600

    def _publish(self, serial: str, tally: Tally, now_ms: int) -> None:
        tally.published_ms = now_ms
        self._context.request_save()
        self._context.events.publish(ServiceEvent(EventKind.RUNTIME, serial))

    def stop(self) -> None:
        """Count up to now and stop counting (the service stops): nothing counts while down."""
        now = self._context.clock.now_ms()
        for serial, tally in self._tallies.items():
            if tally.relays is not None:
                self._count(serial, tally, now)
                tally.follow(None)
