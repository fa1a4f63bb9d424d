"""Normal heating days of many thermostats find nothing: `python -m bench.health_soak`.

Each thermostat's house (thermostat_sim.room.House: its own heating rate, insulation, start
temperature) follows the thermostat's own control through ordinary days: a morning warm-up, a
night setback, eco for the working hours on some days, dial turns, an outdoor temperature that
swings with the day, and a restart of the service in the middle of the morning's heating runs.
Each report goes through the device session's PUT (what the HTTP handler calls), a contact at
least every few minutes, as held subscribes give. The health monitor must find nothing.

The tests run a small soak (tests/unit/test_health_soak.py); this runs the full one and prints
what was found and how long it took.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
import math
import random
import time
from typing import Any

import orjson

from custom_components.thermostat_cloud.server import Finding, ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry
from custom_components.thermostat_cloud.server.core.testing import harness
from thermostat_sim import House, Room

from .fleet import bench_serial
from .options import int_options

START_MS = 1_800_000_000_000 - 1_800_000_000_000 % 86_400_000
"""Midnight UTC: the days of the soak begin at the home's midnight."""
CONTACT_EVERY_MIN = 4
"""A thermostat holding its subscribe is heard at least this often."""


class _Clock:
    """The soak's wall clock, moved by the soak."""

    def __init__(self) -> None:
        self.now = START_MS

    def now_ms(self) -> int:
        return self.now


class _KeptStorage:
    """Keeps the last document saved (the service saves it when it stops)."""

    def __init__(self) -> None:
        self.data: dict[str, Any] | None = None

    async def async_load(self) -> dict[str, Any] | None:
        return self.data

    def embed_json(self, data: bytes) -> Any:
        return orjson.loads(data)

    def schedule_save(self, snapshot: Callable[[], dict[str, Any]], delay: float) -> None:
        """Save nothing on the way: the document is taken when the service stops."""

    async def async_save(self, data: dict[str, Any]) -> None:
        self.data = orjson.loads(orjson.dumps(data))


@dataclass
class _Home:
    """One thermostat, its house and its habits."""

    serial: str
    claim: IdentityClaim
    house: House
    shared: dict[str, Any]
    device: dict[str, Any]
    wake_min: int
    sleep_min: int
    eco_days: frozenset[int]
    dial_turns: dict[int, float] = field(default_factory=dict)
    """Minute of the soak -> setpoint the user turns the dial to."""


@dataclass(frozen=True, slots=True)
class SoakResult:
    """What a soak found, and what it took."""

    thermostats: int
    days: int
    findings: list[Finding]
    reports: int
    seconds: float


def _outdoor(minute: int, coldest: float) -> float:
    """Return the outdoor temperature: coldest before dawn, 8 °C warmer in the afternoon."""
    return coldest + 4.0 - 4.0 * math.cos((minute % 1440 - 240) / 1440 * 2 * math.pi)


def _home(index: int, rng: random.Random, days: int, coldest: float) -> _Home:
    serial = bench_serial(index)
    loss = rng.uniform(0.03, 0.1)
    # Sized to heat the house on the coldest day, as an installer sizes it (with margin).
    heating = loss * (21.0 - coldest) * rng.uniform(1.8, 3.0)
    room = Room(
        temperature_c=rng.uniform(19.5, 21.0),
        outdoor_c=_outdoor(0, coldest),
        heating_rate_c_per_h=heating,
        loss_per_h=loss,
    )
    home = _Home(
        serial=serial,
        claim=IdentityClaim(user_id=f"d.{serial}.soak", password="soak", address="127.0.0.9"),
        house=House(room=room, differential_c=rng.choice((0.3, 0.5, 0.7))),
        shared={
            "can_heat": True,
            "target_temperature_type": "heat",
            "target_temperature": 17.0,
            "hvac_heater_state": False,
            "hvac_ac_state": False,
            "current_temperature": round(room.temperature_c, 1),
        },
        device={
            "lower_safety_temp": 7.2222,
            "lower_safety_temp_enabled": True,
            "eco": {"mode": "schedule"},
            "away_temperature_low": rng.uniform(12.0, 16.0),
            "away_temperature_high": 26.0,
        },
        wake_min=rng.randrange(360, 480),
        sleep_min=rng.randrange(1290, 1410),
        eco_days=frozenset(day for day in range(days) if rng.random() < 0.3),
    )
    for _ in range(2 * days):
        home.dial_turns[rng.randrange(days * 1440)] = rng.choice((19.0, 20.5, 22.0, 23.0))
    return home


async def _started(storage: _KeptStorage, clock: _Clock, weather: bool) -> ThermostatService:
    service = ThermostatService(
        ServiceConfig(api_origin="http://127.0.0.1:8000", max_unpaired_devices=1 << 20),
        storage,
        clock,
    )
    await service.async_load()
    service.start()
    if not weather:
        service.health.note_outdoor(None)
    return service


def _put(service: ThermostatService, home: _Home, key: str, fields: dict[str, Any]) -> None:
    service.sessions.put(home.claim, [PutEntry(f"{key}.{home.serial}", fields, None, 0)])


def _habits(home: _Home, minute: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return what the user and the schedule change at this minute (shared, device)."""
    shared: dict[str, Any] = {}
    device: dict[str, Any] = {}
    of_day, day = minute % 1440, minute // 1440
    if of_day == home.wake_min:
        shared["target_temperature"] = 21.0
    elif of_day == home.sleep_min:
        shared["target_temperature"] = 17.0
    if day in home.eco_days and of_day in (home.wake_min + 90, 16 * 60):
        mode = "manual-eco" if of_day == home.wake_min + 90 else "schedule"
        device["eco"] = {"mode": mode, "mode_update_timestamp": 1_800_000_000 + minute * 60}
    if minute in home.dial_turns:
        shared["target_temperature"] = home.dial_turns[minute]
        if home.device["eco"]["mode"] != "schedule":
            device["eco"] = {"mode": "schedule"}
    return shared, device


async def soak(thermostats: int, days: int, *, seed: int = 34, weather: bool = True) -> SoakResult:
    """Run `thermostats` through `days` of normal heating; return what was found."""
    rng = random.Random(seed)
    clock = _Clock()
    storage = _KeptStorage()
    coldest = rng.uniform(-10.0, 4.0)
    homes = [_home(index, rng, days, coldest) for index in range(thermostats)]
    service = await _started(storage, clock, weather)
    for home in homes:
        _put(service, home, "shared", dict(home.shared))
        _put(service, home, "device", dict(home.device))
        assert service.pairing.register(harness(service).pairing_code(home.serial)).success
    restarts = {day * 1440 + rng.randrange(400, 500) for day in range(days)}
    reports = 0
    started = time.perf_counter()
    for minute in range(days * 1440):
        clock.now += 60_000
        outdoor = _outdoor(minute, coldest)
        if weather and minute % 30 == 0:
            service.health.note_outdoor(outdoor)
        if minute in restarts:
            await service.async_stop()
            service = await _started(storage, clock, weather)
            if weather:
                service.health.note_outdoor(outdoor)
        for home in homes:
            shared, device = _habits(home, minute)
            if device:
                home.device.update(device)
                _put(service, home, "device", device)
                reports += 1
            home.house.room.outdoor_c = outdoor
            shared |= home.house.step(60, home.shared | shared, home.device)
            if shared:
                home.shared.update(shared)
                _put(service, home, "shared", shared)
                reports += 1
            elif minute % CONTACT_EVERY_MIN == home.wake_min % CONTACT_EVERY_MIN:
                service.sessions.put(home.claim, [])
    findings = [
        f
        for serial in service.health.serials_with_findings()
        for f in service.health.findings(serial)
    ]
    seconds = time.perf_counter() - started
    await service.async_stop()
    return SoakResult(thermostats, days, findings, reports, seconds)


def main() -> None:
    """Run the soak and print what it found."""
    args = int_options(__doc__, thermostats=300, days=3, seed=34)
    for weather in (True, False):
        result = asyncio.run(soak(args.thermostats, args.days, seed=args.seed, weather=weather))
        print(
            f"{result.thermostats} thermostats, {result.days} days, weather "
            f"{'on' if weather else 'off'}: {result.reports} reports in {result.seconds:.1f} s, "
            f"{len(result.findings)} findings"
        )
        for finding in result.findings[:20]:
            print(f"  {finding.serial} {finding.kind.value} {dict(finding.figures)}")


if __name__ == "__main__":
    main()
