"""Run one simulated thermostat against a running server (for example `scripts/develop`).

    python -m thermostat_sim --url http://127.0.0.1:8000

It registers (`/svc/entry`), shows its pairing code, holds its subscribe connection and prints
every bucket the server pushes (a setpoint changed in Home Assistant shows up here at once).
With `--put-every SECONDS` it also behaves a little like a room: the temperature drifts towards
the setpoint while it heats or cools, and it PUTs its current temperature and relay states, which
Home Assistant shows at once. Stop it with Ctrl+C.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import sys
from typing import Any

import aiohttp

from .thermostat import (
    FIRMWARE_IDLE_STATE,
    FIRMWARE_SETTINGS,
    HEAT_PUMP_DUAL_FUEL,
    HEAT_PUMP_SHARED,
    ROOM_IDS,
    SimulatedThermostat,
)

DEFAULT_SERIAL = "02AA01AC3314SIM1"
ROOM_STEP_C = 0.1
"""How far the room temperature moves per PUT interval."""


def say(text: str) -> None:
    """One line to stdout (this is a command-line tool)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def initial_buckets(serial: str, args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """Return what the thermostat reports on its first subscribe (inline updates)."""
    return {
        f"shared.{serial}": {
            # Firmware reports no name unless one was given on the thermostat: its room names it.
            "name": "",
            "can_heat": True,
            "can_cool": args.can_cool,
            "target_temperature_type": "heat",
            "target_temperature": 20.0,
            "target_temperature_low": 19.0,
            "target_temperature_high": 24.0,
            "current_temperature": args.temperature,
            "hvac_heater_state": False,
            "hvac_ac_state": False,
            "hvac_fan_state": False,
            **(HEAT_PUMP_SHARED if args.heat_pump else {}),
        },
        f"device.{serial}": {
            "has_fan": args.has_fan,
            "has_emer_heat": False,
            "has_humidifier": False,
            "current_humidity": 45,
            "fan_mode": "auto",
            "temperature_scale": "C",
            "eco": {"mode": "schedule"},
            # Where firmware reports them (see docs/device-protocol.md).
            "leaf": False,
            "temperature_lock": False,
            "where_id": ROOM_IDS[args.room],
            **FIRMWARE_SETTINGS,
            **FIRMWARE_IDLE_STATE,
            **(HEAT_PUMP_DUAL_FUEL if args.heat_pump else {}),
        },
        # Followed with no data yet, so a schedule written in Home Assistant is pushed here.
        f"schedule.{serial}": {},
    }


async def print_pushes(thermostat: SimulatedThermostat) -> None:
    """Every pushed bucket, as it arrives."""
    while True:
        chunk = await thermostat.received.get()
        for obj in chunk.objects:
            say(
                f"<- pushed {obj['object_key']} rev {obj['object_revision']}: {json.dumps(obj['value'])}"
            )


async def room(thermostat: SimulatedThermostat, every: float) -> None:
    """Drift towards the setpoint while heating or cooling; PUT what changed."""
    key = f"shared.{thermostat.serial}"
    while True:
        await asyncio.sleep(every)
        shared = thermostat.local[key].value
        current = float(shared.get("current_temperature", 20.0))
        mode = shared.get("target_temperature_type")
        low = float(shared.get("target_temperature_low", 19.0))
        high = float(shared.get("target_temperature_high", 24.0))
        target = float(shared.get("target_temperature", 20.0))
        heat_below = low if mode == "range" else target if mode in ("heat", "emergency") else None
        cool_above = high if mode == "range" else target if mode == "cool" else None
        heating = heat_below is not None and current < heat_below
        cooling = cool_above is not None and current > cool_above
        if heating:
            current += ROOM_STEP_C
        elif cooling:
            current -= ROOM_STEP_C
        fields = {
            "current_temperature": round(current, 1),
            "hvac_heater_state": heating,
            "hvac_ac_state": cooling,
        }
        await thermostat.put(key, fields)
        say(f"-> put {key}: {json.dumps(fields)}")
        # As firmware: the Unix time it expects to reach the target, 0 when it is idle.
        goal = heat_below if heating else cool_above if cooling else None
        steps = abs(goal - current) / ROOM_STEP_C if goal is not None else 0
        reached_at = thermostat.now_ms() // 1000 + math.ceil(steps * every)
        estimate = {"time_to_target": reached_at if steps else 0}
        device_key = f"device.{thermostat.serial}"
        if thermostat.local[device_key].value.get("time_to_target") != estimate["time_to_target"]:
            await thermostat.put(device_key, estimate)
            say(f"-> put {device_key}: {json.dumps(estimate)}")


async def run(args: argparse.Namespace) -> None:
    """Entry, code, subscribe loop, optional room simulation, until interrupted."""
    async with aiohttp.ClientSession() as http:
        thermostat = SimulatedThermostat(
            args.url, args.serial, http, buckets=initial_buckets(args.serial, args)
        )
        entry = await thermostat.entry()
        say(f"{args.serial}: transport {entry['transport_url']}")
        code = (await thermostat.passphrase())["value"]
        say(f"Pairing code: {code[:3]}-{code[3:]}  (Thermostat Cloud > Add thermostat)")
        thermostat.start()
        tasks = [asyncio.create_task(print_pushes(thermostat))]
        if args.put_every:
            tasks.append(asyncio.create_task(room(thermostat, args.put_every)))
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await thermostat.stop()


def main(argv: list[str] | None = None) -> None:
    """Command line."""
    parser = argparse.ArgumentParser(prog="python -m thermostat_sim", description=__doc__)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the device URL")
    parser.add_argument("--serial", default=DEFAULT_SERIAL, help="the thermostat's serial")
    parser.add_argument("--temperature", type=float, default=21.0, help="room temperature, °C")
    parser.add_argument(
        "--put-every", type=float, default=0, metavar="SECONDS", help="simulate the room"
    )
    parser.add_argument("--no-cool", dest="can_cool", action="store_false", help="heat only")
    parser.add_argument("--no-fan", dest="has_fan", action="store_false", help="no fan")
    parser.add_argument(
        "--heat-pump",
        action="store_true",
        help="a heat pump with three heating stages, aux heat and dual fuel",
    )
    parser.add_argument(
        "--room", choices=sorted(ROOM_IDS), default="Living Room", help="the room it names"
    )
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
