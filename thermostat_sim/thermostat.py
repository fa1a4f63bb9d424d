"""Firmware behaviour of the simulated thermostat.

Firmware behaviour: entry, passphrase, a subscribe loop that reads chunks as they arrive
and resubscribes on close, and PUTs of local changes.

By default the simulator keeps the habits of the firmware flashed thermostats run (see "What
real firmware does" in docs/device-protocol.md): it calls `<endpoint>/entry`, subscribes and
PUTs under `<transport_url>/v7/`, PUTs bucket-keyed bodies with `if_object_revision` on `shared`
and keeps its change when the server answers a conflict, acknowledges a pushed
`target_change_pending`, reports eco leaving on the dial, and speaks the brand's header names
(`X-nl-...`): it sends `X-nl-protocol-version`, its firmware version (`X-nl-device-swversion`,
and a User-Agent as a 5.9.4-5 capture shows), and follows `X-nl-suspend-time-max` and the
server's clock in `X-nl-service-timestamp`, dropping manual eco whose timestamp is more than
600 s off its clock. `spec_literal=True` uses the spec's paths and header names (`X-svc-...`)
and nothing more.

Firmware variants: `identify_by_mac=True` identifies by its MAC address as a Display-2.12
on 5.9.4-5 does (Basic user id and bucket keys `<mac>`, session id `<mac><serial>`);
`firmware="4.2.5"` is a 4.x thermostat, whose `heartbeat` PUTs `{"objects": []}` to
`<transport_url>/v3/put` and which never subscribes; `subscribe_format` lists buckets in the
other forms 4.x subscribes with. A 4.x thermostat that speaks 4.x's whole transport is
`thermostat_sim.skv.SkvThermostat`.

Habits of a thermostat that does not obey: `obey_pushes=False` reads pushes and applies none;
`sleep()` leaves pushes unread until `wake()` (a thermostat asleep with its connection held);
`report_battery(volts)` below `LOW_BATTERY_V` turns its radio off as firmware does to save
the cell (its connection drops and it stays away until `charge()`).
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Mapping
import contextlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
import json
import logging
import time
from typing import Any, Final

import aiohttp

from .room import House

_LOGGER = logging.getLogger(__name__)


def basic_auth(serial: str, suffix: str = "sim") -> str:
    """Return the Authorization header firmware sends: Basic `d.{SERIAL}.{suffix}:password`.

    Without a suffix the user id is the bare identifier (a MAC-identified thermostat's MAC).
    """
    user_id = f"d.{serial}.{suffix}" if suffix else serial
    token = base64.b64encode(f"{user_id}:secret".encode()).decode()
    return f"Basic {token}"


@dataclass(slots=True)
class Chunk:
    """One pushed chunk of a subscribe response."""

    objects: list[dict[str, Any]]
    raw: bytes
    received_ns: int = 0
    """`time.monotonic_ns()` when the chunk's first bytes were read (benchmarks compare it
    with the server's clock: CLOCK_MONOTONIC is the same in every process of the machine)."""


@dataclass(slots=True)
class LocalBucket:
    """The thermostat's own copy of a bucket."""

    revision: int = 0
    timestamp: int = 0
    value: dict[str, Any] = field(default_factory=dict)


FIRMWARE_SETTINGS: dict[str, Any] = {
    "learning_mode": False,
    "auto_away_enable": False,
    "sunlight_correction_enabled": True,
    "filter_reminder_enabled": True,
    "filter_replacement_needed": False,
    "lower_safety_temp": 7.2222,
    "lower_safety_temp_enabled": True,
    "upper_safety_temp": 35,
    "upper_safety_temp_enabled": False,
    "safety_state": "none",
    "battery_level": 3.777,
}
"""Settings and readings firmware reports in `device` with its full state, as in a capture of a
5.9.4-5 thermostat (solbirn/Nest.Thermostat `docs/nest-api-schemas.md`): learning and Home/Away
Assist off, 45 °F freeze protection and no safety temperature crossed (`safety_state` `none`),
the cell at 3.777 V. Heat protection off, Google's
default (the capture has it on)."""

FIRMWARE_IDLE_STATE: dict[str, Any] = {
    "time_to_target": 0,
    "time_to_target_training": "ready",
    "humidifier_state": False,
    "dehumidifier_state": False,
    "auto_dehum_state": False,
    "auto_dehum_enabled": False,
    "fan_cooling_state": False,
    "fan_cooling_enabled": True,
    "has_dehumidifier": False,
    "has_air_filter": True,
    "away_temperature_low": 18.52637,
    "away_temperature_high": 24.65883,
    "backplate_temperature": 21.14,
    "fan_timer_timeout": 0,
    "rssi": 72,
    "hvac_pins": "W1,Y1,Rh,G",
    "hvac_wires": "Heat,Cool,Fan,Rh",
    "error_code": "",
    "wiring_error": "",
}
"""What an idle thermostat reports in `device` with its full state, as in the same capture:
no estimate of when it reaches its target (`time_to_target` 0), humidifier, dehumidifier, "cool
to dry" and Airwave (`fan_cooling_*`, on as the capture has it) not running, its eco
temperatures, no fan timer, its Wi-Fi signal (`rssi`), the wires it detected (by terminal in
`hvac_pins`, by use in `hvac_wires`) and no error."""

HEAT_PUMP_DUAL_FUEL: dict[str, Any] = {
    "has_heat_pump": True,
    "has_dual_fuel": True,
    "has_x2_heat": True,
    "has_x3_heat": True,
    "has_aux_heat": True,
    "has_alt_heat": True,
    "has_emer_heat": True,
    "has_x2_cool": True,
    "has_x3_cool": False,
    "heat_pump_aux_threshold": 10,
    "heat_pump_aux_threshold_enabled": True,
    "heat_pump_comp_threshold": -31.5,
    "heat_pump_comp_threshold_enabled": False,
    "dual_fuel_breakpoint": -1,
    "aux_lockout_leaf": 10,
    "compressor_lockout_leaf": -17.79999,
}
"""The equipment and settings a heat pump with three heating stages, auxiliary heat and dual fuel
(a furnace as alternative heat) reports in `device` with its full state: the field names and
the settings' values as a 5.9.4-5 capture has them (solbirn/Nest.Thermostat
`docs/nest-api-schemas.md`: `heat_pump_aux_threshold` 10 on, `heat_pump_comp_threshold` -31.5
off, `dual_fuel_breakpoint` -1), the equipment switched on. Cooling has two stages. Its wiring
is not given: no capture shows what `hvac_pins` and `hvac_wires` a heat pump reports."""

HEAT_PUMP_SHARED: dict[str, Any] = {
    "compressor_lockout_enabled": False,
    "compressor_lockout_timeout": 0,
    "hvac_heat_x2_state": False,
    "hvac_heat_x3_state": False,
    "hvac_aux_heater_state": False,
    "hvac_alt_heat_state": False,
    "hvac_emer_heat_state": False,
    "hvac_cool_x2_state": False,
    "hvac_cool_x3_state": False,
}
"""What the same thermostat reports in `shared`: the compressor lockout (where the capture has
it) and every stage's relay, off."""

WEEK_SCHEDULE: dict[str, Any] = {
    "ver": 2,
    "name": "Week",
    "schedule_mode": "HEAT",
    "days": {
        "1": {
            "0": {"time": 25200, "temp": 21.0, "type": "HEAT", "entry_type": "setpoint"},
            "1": {"time": 79200, "temp": 17.5, "type": "HEAT", "entry_type": "setpoint"},
        }
    },
}
"""A schedule as firmware keeps it: Tuesday (day 1; day 0 is Monday) heated to 21 °C from
07:00 and to 17.5 °C from 22:00."""

ROOM_IDS: dict[str, str] = {
    "Downstairs": "00000000-0000-0000-0000-000100000006",
    "Living Room": "00000000-0000-0000-0000-00010000000c",
    "Bedroom": "00000000-0000-0000-0000-00010000000d",
}
"""`device.where_id` of rooms offered on the thermostat (the capture's is Downstairs)."""

MAX_PUT_RETRIES = 3
"""How often a PUT answered with a conflict is retried against the server's revision."""
MANUAL_ECO_MAX_SKEW_MS: Final = 600_000
"""Firmware drops manual eco whose `manual_eco_timestamp` is further than this off its clock."""
BRAND_HEADER_PREFIX: Final = "X-nl-"
SPEC_HEADER_PREFIX: Final = "X-svc-"
DEFAULT_FIRMWARE: Final = "5.9.3-5"
LOW_BATTERY_V: Final = 3.6
"""Below this cell voltage firmware turns Wi-Fi off to save power (Nest support, "A low battery
level will cause the Nest Learning Thermostat to disconnect from the Internet")."""
ECHOED_TYPES: Final = ("shared", "device", "schedule", "structure")
"""Buckets whose pushed changes firmware applies and reports back (what it applied)."""


class SimulatedThermostat:
    """One thermostat talking to `{device_url}` over real TCP."""

    def __init__(
        self,
        base_url: str,
        serial: str,
        session: aiohttp.ClientSession,
        *,
        buckets: Mapping[str, Mapping[str, Any]] | None = None,
        spec_literal: bool = False,
        identify_by_mac: bool = False,
        firmware: str = DEFAULT_FIRMWARE,
        clock_offset_ms: int = 0,
        obey_pushes: bool | None = None,
        subscribe_format: str = "objects",
    ) -> None:
        """Initialize a thermostat that has not made contact yet."""
        self.base_url = base_url.rstrip("/")
        self.serial = serial
        self.http = session
        self.spec_literal = spec_literal
        self.firmware = firmware
        self.mac = "18b430" + serial[-6:].lower().rjust(6, "0")
        self.key_id = self.mac if identify_by_mac else serial
        """The identifier in its own bucket keys: its serial, or its MAC address."""
        self.session_id = f"{self.mac}{serial}" if identify_by_mac else f"sim-{serial}"
        self.header_prefix = SPEC_HEADER_PREFIX if spec_literal else BRAND_HEADER_PREFIX
        """The protocol header names it sends and reads."""
        self.headers = {
            "Authorization": basic_auth(self.mac, "") if identify_by_mac else basic_auth(serial),
            f"{self.header_prefix}protocol-version": "1",
        }
        if not spec_literal:
            self.headers["User-Agent"] = f"Nest/{firmware} (Display-2.0; wireless_reg_domain=US)"
            if not firmware.startswith("4."):
                self.headers[f"{self.header_prefix}device-swversion"] = firmware
        self.clock_offset_ms = clock_offset_ms
        """Its clock minus the true time; set to the server's by the service timestamp."""
        self.suspend_time_max: int | None = None
        """Seconds the server lets it sleep (its suspend-time-max header), once told."""
        self.dropped_eco = 0
        """Manual eco pushes dropped because their timestamp was too far off its clock."""
        self.local: dict[str, LocalBucket] = {}
        """Buckets as the thermostat has them; initial values are sent as inline updates."""
        for key, value in (buckets or {}).items():
            self.local[key] = LocalBucket(value=dict(value))
        self.transport_url = f"{self.base_url}/svc/transport"
        self.passphrase_url = f"{self.base_url}/svc/passphrase"
        self.acknowledge_pushes = not spec_literal
        """Acknowledge a pushed `target_change_pending: true` with a PUT of `false`, as firmware
        does once the display has shown the new setpoint, and report what a push changed."""
        self.obey_pushes = not firmware.startswith("4.") if obey_pushes is None else obey_pushes
        """Apply pushes; False reads and drops them (a thermostat that does not obey)."""
        self.subscribe_format = subscribe_format
        """How a subscribe lists buckets: `objects` (5.x), `named` (a field per bucket type) or
        `keys` (`{"keys": [{"key": ...}]}`), the two forms 4.3.x subscribes with."""
        self.awake = asyncio.Event()
        """Clear while asleep: pushes wait unread until it wakes."""
        self.awake.set()
        self.radio_on = True
        """False after a low battery turned Wi-Fi off."""
        self.received: asyncio.Queue[Chunk] = asyncio.Queue()
        self.closes: asyncio.Queue[int] = asyncio.Queue()
        """Number of chunks each finished subscribe carried (0: closed with no body)."""
        self.subscribed = asyncio.Event()
        """Set whenever a subscribe's response headers have arrived (the hold began)."""
        self.waiting = asyncio.Event()
        """Set while a subscribe is held with nothing pushed on it yet: a server change now is
        pushed on this connection at once, not queued for the next subscribe."""
        self.last_headers: Mapping[str, str] = {}
        self._loop_task: asyncio.Task[None] | None = None
        self._reactions: set[asyncio.Task[Any]] = set()
        self._fan_timer: asyncio.TimerHandle | None = None
        self.fan_timer_ended = asyncio.Event()
        """Set when the thermostat ended a fan timer itself (at `fan_timer_timeout`)."""

    # -- one-shot requests ---------------------------------------------------------------------

    async def entry(self) -> dict[str, Any]:
        """POST /svc/entry with production firmware's form fields; remembers transport_url."""
        form = {
            "reset": "FALSE",
            "mac": self.mac,
            "model": "Display-2.0",
            "request_id": "1",
            "software_version": self.firmware,
            "wireless_reg_domain": "US",
            "backplate_model": "Backplate-2.8",
        }
        # The settings CGI stores `<endpoint>/entry` and firmware calls it as it is.
        path = "/svc/entry" if self.spec_literal else "/entry"
        async with self.http.post(
            f"{self.base_url}{path}", data=form, headers=self.headers
        ) as resp:
            resp.raise_for_status()
            data: dict[str, Any] = await resp.json()
        self.transport_url = data["transport_url"]
        self.passphrase_url = data["passphrase_url"]
        return data

    async def passphrase(self) -> dict[str, Any]:
        """GET passphrase_url: the code to show on screen."""
        async with self.http.get(self.passphrase_url, headers=self.headers) as resp:
            resp.raise_for_status()
            return dict(await resp.json())

    async def passphrase_status(self) -> dict[str, Any]:
        """GET /svc/passphrase/status."""
        async with self.http.get(f"{self.passphrase_url}/status", headers=self.headers) as resp:
            resp.raise_for_status()
            return dict(await resp.json())

    def _descriptors(self) -> list[dict[str, Any]]:
        """Return what a subscribe lists: its buckets, and always its own three.

        It follows its own `device`, `shared` and `schedule` whether or not it has them yet,
        so a command to any of them (a first schedule too) is pushed to it.
        """
        objects = []
        own = {f"{kind}.{self.key_id}": LocalBucket() for kind in ("device", "shared", "schedule")}
        for key, bucket in {**own, **self.local}.items():
            obj: dict[str, Any] = {
                "object_key": key,
                "object_revision": bucket.revision,
                "object_timestamp": bucket.timestamp,
            }
            if bucket.revision == 0 and bucket.timestamp == 0 and bucket.value:
                obj["value"] = bucket.value
            objects.append(obj)
        return objects

    def _subscribe_body(self) -> dict[str, Any]:
        """Return the subscribe's body in the thermostat's form."""
        if self.subscribe_format == "keys":
            return {"session": self.session_id, "keys": [{"key": key} for key in self.local]}
        if self.subscribe_format == "named":
            body: dict[str, Any] = {"chunked": True, "session": self.session_id}
            for obj in self._descriptors():
                body[obj["object_key"].partition(".")[0]] = obj
            return body
        return {"chunked": True, "session": self.session_id, "objects": self._descriptors()}

    @property
    def subscribe_url(self) -> str:
        """Firmware subscribes at `<transport_url>/v7/subscribe`; the spec at the URL itself."""
        if self.spec_literal:
            return self.transport_url
        version = "v3" if self.firmware.startswith("4.") else "v7"
        return f"{self.transport_url}/{version}/subscribe"

    @property
    def put_url(self) -> str:
        """Firmware PUTs at `<transport_url>/v7/put`; the spec at `<transport_url>/put`."""
        return f"{self.transport_url}/{'put' if self.spec_literal else 'v7/put'}"

    async def put(self, key: str, fields: Mapping[str, Any], *, guard: bool | None = None) -> Any:
        """Make a local change (dial turned): update the local copy and PUT it, bucket-keyed."""
        return await self.put_many({key: fields}, guard=guard)

    async def put_many(
        self, changes: Mapping[str, Mapping[str, Any]], *, guard: bool | None = None
    ) -> Any:
        """Several local changes in one bucket-keyed PUT, as firmware batches them.

        Firmware guards `shared` with `if_object_revision` (`guard=None`: as firmware does).
        A guarded bucket the server did not apply (its answer is not the next revision after
        the guard, or not newer than what the thermostat already has) keeps its change and is
        PUT again against the server's revision.
        """
        pending = {key: dict(fields) for key, fields in changes.items()}
        for key, fields in pending.items():
            self.local.setdefault(key, LocalBucket()).value.update(fields)
        data: Any = None
        for _ in range(MAX_PUT_RETRIES + 1):
            body: dict[str, Any] = {"session": self.session_id}
            guards: dict[str, int] = {}
            for key, fields in pending.items():
                bucket = self.local[key]
                obj: dict[str, Any] = {"object_key": key, "base_object_revision": bucket.revision}
                if guard or (guard is None and not self.spec_literal and key.startswith("shared.")):
                    obj["if_object_revision"] = guards[key] = bucket.revision
                obj.update(fields)
                body[key] = obj
            async with self.http.post(self.put_url, json=body, headers=self.headers) as resp:
                resp.raise_for_status()
                self._follow_protocol_headers(resp.headers)
                data = await resp.json()
            retry: dict[str, dict[str, Any]] = {}
            for descriptor in data["objects"]:
                key = descriptor["object_key"]
                local = self.local.setdefault(key, LocalBucket())
                revision = descriptor["object_revision"]
                if (
                    key in guards
                    and key in pending
                    and (revision != guards[key] + 1 or revision <= local.revision)
                ):
                    retry[key] = pending[key]  # a conflict: keep the change, try again
                local.revision = revision
                local.timestamp = descriptor["object_timestamp"]
            if not retry:
                break
            pending = retry
        return data

    async def turn_dial(self, celsius: float) -> Any:
        """Turn the dial as the user does: a new setpoint, which also ends eco, as on the thermostat."""
        changes: dict[str, dict[str, Any]] = {
            f"shared.{self.key_id}": {"target_temperature": celsius}
        }
        device = self.local.get(f"device.{self.key_id}")
        eco = device.value.get("eco") if device is not None else None
        if isinstance(eco, dict) and eco.get("mode") in ("manual-eco", "auto-eco"):
            changes[f"device.{self.key_id}"] = {
                "eco": {**eco, "mode": "schedule", "mode_update_timestamp": int(time.time())}
            }
        return await self.put_many(changes)

    async def reach_schedule_entry(self, local_now: datetime) -> Any:
        """Apply the schedule entry in force at `local_now` (its wall clock), as firmware does.

        Gen 1/2 firmware keeps a manual setpoint only until its next schedule entry: at the
        entry it takes the entry's setpoint (a range entry's `temp-min`/`temp-max`) and
        reports it like a dial turn. Days count from Monday ("0"); a week back at most.
        """
        days = self.local.get(f"schedule.{self.key_id}", LocalBucket()).value.get("days", {})
        for days_back in range(8):
            day = local_now.date() - timedelta(days=days_back)
            entries = sorted(
                days.get(str(day.weekday()), {}).values(), key=lambda entry: entry["time"]
            )
            passed = [
                entry
                for entry in entries
                if datetime.combine(day, datetime.min.time()) + timedelta(seconds=entry["time"])
                <= local_now
            ]
            if passed:
                entry = passed[-1]
                fields = (
                    {
                        "target_temperature_low": entry["temp-min"],
                        "target_temperature_high": entry["temp-max"],
                    }
                    if entry["type"] == "RANGE"
                    else {"target_temperature": entry["temp"]}
                )
                return await self.put(f"shared.{self.key_id}", fields)
        raise LookupError("No schedule entry to reach")

    async def report_rooms(self, rooms: Mapping[str, str]) -> Any:
        """PUT the home's `where` bucket (where_id -> name), as firmware keeps the rooms named on it.

        The bucket is the home's: `where.<structure id>` of the structure pushed at pairing.
        """
        structure = next(key for key in self.local if key.startswith("structure."))
        wheres = [{"where_id": where_id, "name": name} for where_id, name in rooms.items()]
        return await self.put(f"where.{structure.partition('.')[2]}", {"wheres": wheres})

    async def live(self, house: House, seconds: float) -> Any:
        """Let `seconds` pass in the thermostat's house; PUT what changed (relays, room).

        The house reads the setpoints, mode, eco and safety temperatures the thermostat has
        (what the server pushed and it applied); returns the PUT's answer, None with nothing
        to report.
        """
        changes = house.step(
            seconds,
            self.local.get(f"shared.{self.key_id}", LocalBucket()).value,
            self.local.get(f"device.{self.key_id}", LocalBucket()).value,
        )
        if not changes:
            return None
        return await self.put(f"shared.{self.key_id}", changes)

    async def heartbeat(self) -> Any:
        """PUT `{"objects": []}` to `<transport_url>/v3/put`, all firmware 4.x ever PUTs."""
        async with self.http.post(
            f"{self.transport_url}/v3/put", json={"objects": []}, headers=self.headers
        ) as resp:
            resp.raise_for_status()
            self._follow_protocol_headers(resp.headers)
            return await resp.json()

    def sleep(self) -> None:
        """Doze with the connection held: a push now stays unread until `wake`."""
        self.awake.clear()

    def wake(self) -> None:
        """Wake up: read what was pushed meanwhile and act on it."""
        self.awake.set()

    async def report_battery(self, volts: float) -> Any:
        """Report the cell's voltage; below `LOW_BATTERY_V` turn Wi-Fi off, as firmware does."""
        data = await self.put(f"device.{self.key_id}", {"battery_level": volts})
        if volts < LOW_BATTERY_V and self.radio_on:
            self.radio_on = False
            await self.stop()
        return data

    async def charge(self) -> None:
        """Charge the cell: Wi-Fi back on, subscribing again."""
        self.radio_on = True
        self.start()

    def now_ms(self) -> int:
        """Return the thermostat's clock (ms)."""
        return int(time.time() * 1000) + self.clock_offset_ms

    def _header(self, headers: Mapping[str, str], suffix: str) -> str | None:
        return headers.get(f"{self.header_prefix}{suffix}")

    def _follow_protocol_headers(self, headers: Mapping[str, str]) -> None:
        """Sleep as long as the server says and set its clock to the server's, as firmware does."""
        if (suspend := self._header(headers, "suspend-time-max")) is not None:
            self.suspend_time_max = int(suspend)
        if (server_ms := self._header(headers, "service-timestamp")) is not None:
            self.clock_offset_ms += int(server_ms) - self.now_ms()

    def _accepted(self, value: dict[str, Any]) -> dict[str, Any]:
        """Return a pushed value as firmware keeps it (manual eco far off its clock dropped)."""
        stamp = value.get("manual_eco_timestamp")
        if (
            value.get("manual_eco_all") is True
            and isinstance(stamp, int)
            and abs(stamp * 1000 - self.now_ms()) > MANUAL_ECO_MAX_SKEW_MS
        ):
            self.dropped_eco += 1
            return {**value, "manual_eco_all": False}
        return value

    # -- the subscribe loop ----------------------------------------------------------------------

    async def subscribe_once(self) -> int:
        """Run one subscribe; return the number of chunks read.

        One subscribe: read chunks as they arrive until the server closes; returns their
        number. Pushed buckets replace the local copies, as firmware does.
        """
        count = 0
        try:
            async with self.http.post(
                self.subscribe_url,
                json=self._subscribe_body(),
                headers=self.headers,
                timeout=aiohttp.ClientTimeout(total=None, sock_read=None),
            ) as resp:
                resp.raise_for_status()
                self.last_headers = resp.headers
                self._follow_protocol_headers(resp.headers)
                self.subscribed.set()
                self.waiting.set()
                buffer = b""
                started_ns = 0
                async for data, end_of_chunk in resp.content.iter_chunks():
                    if not buffer:
                        started_ns = time.monotonic_ns()
                    buffer += data
                    if not end_of_chunk:
                        continue
                    chunk, buffer = buffer, b""
                    if not chunk:
                        continue
                    self.waiting.clear()
                    payload = json.loads(chunk)
                    await self.awake.wait()  # asleep, a push waits unread
                    applied: dict[str, dict[str, Any]] = {}
                    for obj in payload["objects"]:
                        if self.obey_pushes:
                            applied[obj["object_key"]] = self._apply(obj)
                    count += 1
                    self.received.put_nowait(Chunk(payload["objects"], chunk, started_ns))
                    if self.obey_pushes:
                        self._react(payload["objects"], applied)
        finally:
            self.subscribed.clear()
            self.waiting.clear()
        self.closes.put_nowait(count)
        return count

    def _apply(self, obj: dict[str, Any]) -> dict[str, Any]:
        """Keep a pushed bucket; return the fields it changed that firmware kept as pushed."""
        key = obj["object_key"]
        before = self.local.get(key)
        old = before.value if before is not None else {}
        value = self._accepted(dict(obj["value"]))
        self.local[key] = LocalBucket(obj["object_revision"], obj["object_timestamp"], value)
        pushed = obj["value"]
        return {
            name: v
            for name, v in value.items()
            if name != "target_change_pending" and old.get(name) != v and pushed.get(name) == v
        }

    def _react(self, objects: list[dict[str, Any]], applied: dict[str, dict[str, Any]]) -> None:
        """React to a push as firmware does beyond storing it.

        What firmware does with a push beyond storing it: report what it applied (the fields
        the push changed), acknowledge a setpoint change that woke the display, and run the
        fan until a pushed `fan_timer_timeout`.
        """
        key = f"shared.{self.key_id}"
        if self.acknowledge_pushes:
            report: dict[str, dict[str, Any]] = {}
            for obj_key, fields in applied.items():
                if fields and obj_key.partition(".")[0] in ECHOED_TYPES:
                    report[obj_key] = dict(fields)
            if any(
                obj["object_key"] == key and obj["value"].get("target_change_pending") is True
                for obj in objects
            ):
                report.setdefault(key, {})["target_change_pending"] = False
            if report:
                revisions = {k: self.local[k].revision for k in report if k in self.local}
                self._spawn(self._report_applied(report, revisions))
        device_key = f"device.{self.serial}"
        for obj in objects:
            if obj["object_key"] == device_key and "fan_timer_timeout" in obj["value"]:
                self._follow_fan_timer(obj["value"]["fan_timer_timeout"])

    def _follow_fan_timer(self, timeout: object) -> None:
        """Run the fan relay until the timer's end (Unix seconds), then end it on our own.

        Firmware keeps the timer itself: the fan stops on time with the server gone.
        """
        if self._fan_timer is not None:
            self._fan_timer.cancel()
            self._fan_timer = None
        running = isinstance(timeout, int | float) and timeout > time.time()
        shared = self.local.setdefault(f"shared.{self.serial}", LocalBucket()).value
        if running != (shared.get("hvac_fan_state") is True):
            self._put_soon({f"shared.{self.serial}": {"hvac_fan_state": running}})
        if running:
            assert isinstance(timeout, int | float)
            self._fan_timer = asyncio.get_running_loop().call_later(
                timeout - time.time(), self._end_fan_timer
            )

    def _end_fan_timer(self) -> None:
        self._fan_timer = None
        self._put_soon(
            {
                f"shared.{self.serial}": {"hvac_fan_state": False},
                f"device.{self.serial}": {"fan_timer_timeout": 0},
            }
        )
        self.fan_timer_ended.set()

    def _put_soon(self, changes: dict[str, dict[str, Any]]) -> None:
        """Make local changes now and PUT them in the background (the server may be gone)."""
        for key, fields in changes.items():
            self.local.setdefault(key, LocalBucket()).value.update(fields)
        task = asyncio.get_running_loop().create_task(self._put_reaction(changes))
        self._reactions.add(task)
        task.add_done_callback(self._reactions.discard)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._reactions.add(task)
        task.add_done_callback(self._reactions.discard)

    async def _report_applied(
        self, report: dict[str, dict[str, Any]], revisions: dict[str, int]
    ) -> None:
        """PUT what a push changed, each bucket guarded by the revision it was pushed at.

        A bucket the server changed again since is not applied (a conflict) and not retried:
        the newer push is reported in turn.
        """
        body: dict[str, Any] = {"session": self.session_id}
        for key, fields in report.items():
            revision = revisions.get(key, 0)
            body[key] = {
                "object_key": key,
                "base_object_revision": revision,
                "if_object_revision": revision,
                **fields,
            }
        try:
            async with self.http.post(self.put_url, json=body, headers=self.headers) as resp:
                resp.raise_for_status()
                self._follow_protocol_headers(resp.headers)
                data = await resp.json()
        except (aiohttp.ClientError, TimeoutError) as err:
            # The server went away or did not answer in time: firmware tries later.
            _LOGGER.debug("%s: report not sent (%r)", self.serial, err)
            return
        for descriptor in data["objects"]:
            key = descriptor["object_key"]
            local = self.local.get(key)
            if local is not None and descriptor["object_revision"] == revisions.get(key, 0) + 1:
                local.revision = descriptor["object_revision"]
                local.timestamp = descriptor["object_timestamp"]

    async def _put_reaction(self, changes: dict[str, dict[str, Any]]) -> None:
        try:
            await self.put_many(changes)
        except (aiohttp.ClientError, TimeoutError) as err:
            # The server went away or did not answer in time: firmware tries later.
            _LOGGER.debug("%s: change not sent (%r)", self.serial, err)

    async def _run(self) -> None:
        while True:
            try:
                await self.subscribe_once()
            except aiohttp.ClientError as err:
                _LOGGER.debug("%s: subscribe failed (%s); retrying", self.serial, err)
                await asyncio.sleep(1)

    def start(self) -> None:
        """Run the subscribe loop in the background: resubscribe on every close."""
        self._loop_task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """End the subscribe loop (and any PUT a push set off, and the fan timer)."""
        if self._fan_timer is not None:
            self._fan_timer.cancel()
            self._fan_timer = None
        for task in list(self._reactions):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, aiohttp.ClientError):
                await task
        if self._loop_task is not None:
            self._loop_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
            self._loop_task = None

    async def settled(self) -> None:
        """Return once what pushes set off (its reports of what they changed) has been sent.

        Firmware reports within the batch window; a test that moves time past the window
        waits for this first, instead of for the window itself to pass.
        """
        while self._reactions:
            await asyncio.wait(self._reactions)

    async def next_chunk(self, timeout: float = 10) -> Chunk:
        """Return the next pushed chunk."""
        async with asyncio.timeout(timeout):
            return await self.received.get()

    async def next_object(self, key: str, timeout: float = 10) -> dict[str, Any]:
        """Wait for a pushed bucket object with this key."""
        async with asyncio.timeout(timeout):
            while True:
                chunk = await self.received.get()
                for obj in chunk.objects:
                    if obj["object_key"] == key:
                        return obj
