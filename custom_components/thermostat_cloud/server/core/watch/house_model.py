"""Each house's own heating model: how fast it heats, cools and drifts, by the outdoor temperature.

The relay states of a thermostat's reports split its time into phases: a heating run, a
cooling run, and drift (neither). A finished phase gives one sample: its rate in °C per hour
(drift signed, negative while the house loses heat) at the outdoor temperature the host last
told when it began. The PUT path only compares relay states; a finished phase refits that
kind's few hundred samples (`python -m bench.house_model`).

The fit (`fit`) is one a reader can follow:

1. each sample weighs half as much for every `HALF_LIFE_DAYS` of age;
2. a line a few wild samples cannot pull (Theil's) finds the outliers: samples further from it
   than `OUTLIER_SPREADS` robust spreads (1.4826 times the median distance, at least
   `MIN_SPREAD`) are dropped: a window left open, a door, a sunny afternoon;
3. through the rest, a weighted least-squares line of rate against outdoor temperature when
   they span at least `MIN_OUTDOOR_SPREAD_C` outdoors, else their weighted mean.

A rate is shown once `MIN_RUNS` samples are kept after step 2, read within the outdoor
temperatures learned from (a line is not trusted beyond what it saw). Not learned: a phase
shorter than its minimum (the room sensor lags the equipment) or longer than its maximum, one
with a silence of more than half an hour in its requests, a rate beyond `MAX_RATE`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
import logging
from typing import Any

from ...model.buckets import bucket_key
from ..context import CoreContext
from ..events import ChangeSource, EventKind, Follows, ServiceEvent
from ..read.readings import TEMPERATURE_RANGE_C, plausible_number, relay_states
from ..read.validation import saved_record
from .runtime import COOLING, HEATING, RELAY_FIELDS, running

_LOGGER = logging.getLogger(__name__)

DRIFT = "drift"
KINDS = (HEATING, COOLING, DRIFT)
"""Heating and cooling runs, and drift with the equipment off."""

MIN_RUNS = 5
"""Samples of a kind, kept after outliers, before its rate is shown (the docs' "enough")."""
HALF_LIFE_DAYS = 14.0
WINDOW_DAYS = 60
MAX_SAMPLES = 200
"""Per kind and thermostat: the bound of what is kept and refitted."""
MIN_OUTDOOR_SPREAD_C = 3.0
OUTLIER_SPREADS = 3.0
MIN_SPREAD = 0.1
"""°C/h: the least robust spread, so that near-identical samples do not drop every other one."""
MAX_RATE = 10.0
"""°C/h: faster than any home's equipment (or drift); a rate beyond is a sensor's fault."""
OUTDOOR_RANGE_C = (-60.0, 60.0)
MIN_MINUTES = {HEATING: 10.0, COOLING: 10.0, DRIFT: 15.0}
MAX_MINUTES = {HEATING: 6 * 60.0, COOLING: 6 * 60.0, DRIFT: 12 * 60.0}
MAX_SILENCE_MS = 30 * 60_000
"""A phase with a longer silence between two requests of its thermostat is not learned: a
thermostat in contact is heard at least every held subscribe (at most ten minutes)."""
OUTDOOR_NOTE_STEP_C = 0.5
"""An outdoor change smaller than this moves no shown rate enough to tell the host."""

_DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class Sample:
    """One finished phase: when it ended, the outdoor temperature, its rate (°C/h)."""

    end_ms: int
    outdoor: float | None
    rate: float

    def dump(self) -> list[Any]:
        """Return the saved form, a short list (there are hundreds)."""
        return [self.end_ms, self.outdoor, round(self.rate, 4)]

    @classmethod
    def load(cls, data: object) -> Sample | None:
        if not isinstance(data, list) or len(data) != 3:
            return None
        end_ms, outdoor, rate = data
        if (
            isinstance(end_ms, bool)
            or not isinstance(end_ms, int)
            or (outdoor is not None and _number(outdoor, OUTDOOR_RANGE_C) is None)
            or _number(rate, (-MAX_RATE, MAX_RATE)) is None
        ):
            return None
        return cls(end_ms, None if outdoor is None else float(outdoor), float(rate))


def _number(value: object, limits: tuple[float, float]) -> float | None:
    found = plausible_number(value, limits)
    return None if found is None else float(found)


@dataclass(frozen=True, slots=True)
class Fit:
    """A kind's rate: `mean` at outdoor `center`, changing by `slope` per °C outdoors."""

    mean: float
    slope: float
    center: float
    low: float
    high: float
    """The outdoor temperatures learned from: the line is read within them."""
    runs: int

    def at(self, outdoor: float | None) -> float:
        """Return the rate at this outdoor temperature (unknown: at the center)."""
        if outdoor is None or self.slope == 0:
            return self.mean
        return self.mean + self.slope * (min(max(outdoor, self.low), self.high) - self.center)


def _line(points: Sequence[tuple[float, Sample]]) -> tuple[float, float, float, float, float]:
    """Return mean, slope, center, low and high of the weighted points (weight, sample).

    A line through the points with an outdoor temperature when they span enough of it, else
    the weighted mean of them all.
    """
    known = [(w, s.outdoor, s.rate) for w, s in points if s.outdoor is not None]
    outdoors = [x for _, x, _ in known]
    if len(known) >= MIN_RUNS and max(outdoors) - min(outdoors) >= MIN_OUTDOOR_SPREAD_C:
        total = sum(w for w, _, _ in known)
        center = sum(w * x for w, x, _ in known) / total
        mean = sum(w * y for w, _, y in known) / total
        slope = sum(w * (x - center) * (y - mean) for w, x, y in known) / sum(
            w * (x - center) ** 2 for w, x, _ in known
        )
        return mean, slope, center, min(outdoors), max(outdoors)
    mean = sum(w * s.rate for w, s in points) / sum(w for w, _ in points)
    center = sum(w * x for w, x, _ in known) / sum(w for w, _, _ in known) if known else 0.0
    return mean, 0.0, center, min(outdoors, default=center), max(outdoors, default=center)


def fit(samples: Iterable[Sample], now_ms: int) -> Fit | None:
    """Return the fit of the samples as of `now_ms` (see the module's steps), None without any."""
    points = [(0.5 ** (max(0, now_ms - s.end_ms) / _DAY_MS / HALF_LIFE_DAYS), s) for s in samples]
    if not points:
        return None
    kept = _within(_robust_residuals([s for _, s in points]), points)
    return Fit(*_line(kept), runs=len(kept))


def _robust_residuals(samples: Sequence[Sample]) -> list[float]:
    """Return each sample's distance from a line a few wild samples cannot pull (Theil's).

    Sorted by outdoor temperature, each sample of the colder half is paired with its
    counterpart in the warmer half; the line's slope is the median of those pairs' slopes, its
    level the median of what is left. Without outdoor spread: the median rate.
    """
    known = sorted((s.outdoor, s.rate) for s in samples if s.outdoor is not None)
    outdoors = [x for x, _ in known]
    slope = 0.0
    if len(known) >= MIN_RUNS and outdoors[-1] - outdoors[0] >= MIN_OUTDOOR_SPREAD_C:
        half = len(known) // 2
        slopes = [
            (y2 - y1) / (x2 - x1)
            for (x1, y1), (x2, y2) in zip(known[:half], known[half : 2 * half], strict=True)
            if x2 - x1 >= 1.0
        ]
        slope = _median(slopes) if slopes else 0.0
    middle = _median(outdoors) if outdoors else 0.0
    offsets = [slope * (0.0 if s.outdoor is None else s.outdoor - middle) for s in samples]
    level = _median([s.rate - offset for s, offset in zip(samples, offsets, strict=True)])
    return [s.rate - level - offset for s, offset in zip(samples, offsets, strict=True)]


def _within(
    residuals: Sequence[float], points: Sequence[tuple[float, Sample]]
) -> list[tuple[float, Sample]]:
    """Return the points whose residual is within `OUTLIER_SPREADS` robust spreads."""
    spread = max(1.4826 * _median([abs(r) for r in residuals]), MIN_SPREAD)
    return [p for p, r in zip(points, residuals, strict=True) if abs(r) <= OUTLIER_SPREADS * spread]


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


@dataclass(frozen=True, slots=True)
class Estimate:
    """One rate as shown: None until `MIN_RUNS` samples are kept, and how many are."""

    rate: float | None
    runs: int


NO_ESTIMATE = Estimate(None, 0)


@dataclass(slots=True)
class _Phase:
    kind: str
    start_ms: int
    start_c: float
    start_outdoor: float | None
    heard_ms: int


@dataclass(slots=True)
class _House:
    samples: dict[str, list[Sample]] = field(default_factory=dict)
    fits: dict[str, Fit] = field(default_factory=dict)
    phase: _Phase | None = None
    """The phase under way (not saved: one across a restart is not learned)."""

    def refit(self, kind: str, now_ms: int) -> None:
        kept = self.samples.get(kind, [])
        if (found := fit(kept, now_ms)) is None:
            self.fits.pop(kind, None)
        else:
            self.fits[kind] = found


class HouseModel:
    """The heating model of every thermostat that was ever paired."""

    def __init__(self, context: CoreContext) -> None:
        self._context = context
        self._houses: dict[str, _House] = {}
        self._outdoor: float | None = None
        self._outdoor_shown: float | None = None

    # -- saved state --------------------------------------------------------------------------

    def load(self, data: object) -> None:
        """Restore the samples saved under `house_model` (absent before this feature: none)."""
        self._houses = {}
        data = saved_record(data, _LOGGER, "Ignoring the stored house model: it is no record")
        if data is None:
            return
        now = self._context.clock.now_ms()
        for serial, stored in data.items():
            if not isinstance(serial, str) or not isinstance(stored, Mapping):
                _LOGGER.warning("Ignoring a stored house model: it is no record")
                continue
            house = _House()
            for kind in KINDS:
                rows = stored.get(kind)
                loaded = (
                    [s for row in rows if (s := Sample.load(row))] if isinstance(rows, list) else []
                )
                if isinstance(rows, list) and len(loaded) < len(rows):
                    _LOGGER.warning(
                        "Ignoring %d stored %s samples of %s", len(rows) - len(loaded), kind, serial
                    )
                house.samples[kind] = _bounded(loaded, now)
                house.refit(kind, now)
            self._houses[serial] = house

    def dump(self) -> dict[str, Any]:
        return {
            serial: {kind: [s.dump() for s in samples] for kind, samples in house.samples.items()}
            for serial, house in self._houses.items()
        }

    # -- reading ------------------------------------------------------------------------------

    def estimate(self, serial: str, kind: str, outdoor: float | None = None) -> Estimate:
        house = self._houses.get(serial)
        found = house.fits.get(kind) if house is not None else None
        if found is None:
            return NO_ESTIMATE
        if found.runs < MIN_RUNS:
            return Estimate(None, found.runs)
        return Estimate(found.at(self._outdoor if outdoor is None else outdoor), found.runs)

    def diagnostics(self, serial: str) -> dict[str, Any]:
        """Return what support needs of a thermostat's model: each kind's fit, and the phase."""
        house = self._houses.get(serial)
        if house is None:
            return {}
        return {
            "outdoor": self._outdoor,
            "phase": house.phase.kind if house.phase is not None else None,
            **{
                kind: {
                    "samples": len(house.samples.get(kind, [])),
                    "runs": found.runs,
                    "mean": round(found.mean, 3),
                    "slope": round(found.slope, 4),
                    "outdoor_learned": [found.low, found.high],
                }
                for kind, found in house.fits.items()
            },
        }

    @property
    def outdoor(self) -> float | None:
        return self._outdoor

    # -- what the host tells ------------------------------------------------------------------

    def note_outdoor(self, celsius: float | None) -> None:
        """Learn with this outdoor temperature from now on; shown rates follow it."""
        checked = None if celsius is None else _number(celsius, OUTDOOR_RANGE_C)
        if celsius is not None and checked is None:
            _LOGGER.warning("Ignoring outdoor temperature %s °C: it cannot be", celsius)
            return
        self._outdoor = checked
        shown = self._outdoor_shown
        if (checked is None) != (shown is None) or (
            checked is not None
            and shown is not None
            and abs(checked - shown) >= OUTDOOR_NOTE_STEP_C
        ):
            self._outdoor_shown = checked
            for serial, house in self._houses.items():
                if house.fits:
                    self._context.events.publish(ServiceEvent(EventKind.HOUSE_MODEL, serial))

    # -- what the thermostat tells ------------------------------------------------------------

    def note_contact(self, serial: str) -> None:
        """Note a request of the thermostat: a phase with a gap in its reports learns nothing."""
        house = self._houses.get(serial)
        if house is None or (phase := house.phase) is None:
            return
        now = self._context.clock.now_ms()
        if now - phase.heard_ms > MAX_SILENCE_MS:
            house.phase = None
        else:
            phase.heard_ms = now

    follows = Follows(fields=RELAY_FIELDS, kinds=frozenset({EventKind.PAIRING}))
    """Its relays (a run begins or ends) and pairing (a thermostat unpaired learns nothing)."""

    def follow(self, event: ServiceEvent) -> None:
        if event.kind is EventKind.STATE:
            if event.source is ChangeSource.DEVICE and not RELAY_FIELDS.isdisjoint(event.fields):
                self._relays_changed(event.serial)
        elif (
            event.kind is EventKind.PAIRING
            and not self._context.ownership.is_paired(event.serial)
            and (house := self._houses.get(event.serial)) is not None
        ):
            house.phase = None  # a phase of a thermostat unpaired learns nothing

    def _relays_changed(self, serial: str) -> None:
        if not self._context.ownership.is_paired(serial):
            return
        shared = self._context.buckets.value(bucket_key("shared", serial))
        _, cycling = running(
            relay_states(shared, self._context.buckets.value(bucket_key("device", serial)))
        )
        kind = HEATING if HEATING in cycling else COOLING if COOLING in cycling else DRIFT
        house = self._houses.setdefault(serial, _House())
        phase = house.phase
        if phase is not None and phase.kind == kind:
            return
        now = self._context.clock.now_ms()
        room = _number(shared.get("current_temperature"), TEMPERATURE_RANGE_C)
        if phase is not None and room is not None:
            self._finish(serial, house, phase, now, room)
        house.phase = None if room is None else _Phase(kind, now, room, self._outdoor, now)

    def _finish(self, serial: str, house: _House, phase: _Phase, now_ms: int, room: float) -> None:
        minutes = (now_ms - phase.start_ms) / 60_000
        if not MIN_MINUTES[phase.kind] <= minutes <= MAX_MINUTES[phase.kind]:
            return
        change = room - phase.start_c
        rate = (-change if phase.kind == COOLING else change) * 60 / minutes
        if abs(rate) > MAX_RATE:
            _LOGGER.info(
                "Not learning a %s phase of %s at %.1f °C/h: no house changes that fast",
                phase.kind,
                serial,
                rate,
            )
            return
        samples = house.samples.setdefault(phase.kind, [])
        samples.append(Sample(now_ms, phase.start_outdoor, rate))
        house.samples[phase.kind] = _bounded(samples, now_ms)
        house.refit(phase.kind, now_ms)
        self._context.request_save()
        self._context.events.publish(ServiceEvent(EventKind.HOUSE_MODEL, serial))


def _bounded(samples: list[Sample], now_ms: int) -> list[Sample]:
    """Return the newest `MAX_SAMPLES` samples of the last `WINDOW_DAYS`, oldest first."""
    oldest = now_ms - WINDOW_DAYS * _DAY_MS
    kept = sorted((s for s in samples if s.end_ms >= oldest), key=lambda s: s.end_ms)
    return kept[-MAX_SAMPLES:]
