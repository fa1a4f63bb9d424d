"""The measured scenarios.

The measured scenarios. Each run starts from a fresh fleet (and, against the core, a fresh
server process), measures once and returns its numbers; the CLI repeats runs and summarises.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
import json
import logging
import statistics
import time

import aiohttp

from .fleet import Fleet
from .stats import percentile
from .target import ACCEPTANCE_RECORDED, PUSH_PATHS, CoreServer, HomeAssistant, Target

MIB = 1024 * 1024
_LOGGER = logging.getLogger(__name__)

CHUNK_TIMEOUT = 10.0
"""Longest wait for one pushed chunk before the run is declared broken."""


class ScenarioUnavailableError(Exception):
    """The scenario cannot run against this target (the reason says why)."""


@dataclass(slots=True)
class Options:
    """Sizes of the scenarios (the CLI's flags)."""

    connections: int = 1000
    commands: int = 1000
    hold_steps: list[int] = field(default_factory=lambda: [1000, 5000, 10000])
    fanout: int = 1000
    puts: int = 2000
    put_concurrency: int = 16
    sse_listeners: int = 50
    sse_events: int = 200
    idle_window: float = 2.0
    """Seconds over which the idle CPU of held connections is measured."""
    timeout: float = 120.0
    """Longest any single wait of a run may take."""


type RunResult = dict[str, float]


async def _cpu_delta(target: Target, since: float | None) -> float | None:
    now = await target.cpu_seconds()
    return None if now is None or since is None else now - since


async def push_latency(target: Target, fleet: Fleet, options: Options) -> RunResult:
    """Measure the push latency of single commands.

    Commands one at a time, each to a device holding an idle subscribe; latency from the
    command's acceptance to the first byte of the pushed chunk at that device.
    """
    if isinstance(target, HomeAssistant) and not target.can_command:
        raise ScenarioUnavailableError(
            "push latency needs --control and --token (the control API's /command)"
        )
    await fleet.grow(options.connections)
    result: RunResult = {}
    for prefix in target.push_paths:
        command = target.push_command(prefix)
        reachable = [t for t in fleet if target.reaches(prefix, t.serial)]
        await target.accepted_ns(prefix)  # forget earlier ones
        await target.profiling(True)
        cpu0 = await target.cpu_seconds()
        latencies: list[float] = []
        sent: list[int] = []
        received: list[int] = []
        cursor = 0
        started = time.monotonic()
        async with asyncio.timeout(options.timeout):
            for _ in range(options.commands):
                index, thermostat = await fleet.next_waiting(cursor, reachable)
                cursor = index + 1
                accepted_ns = await command(thermostat.serial)
                chunk = await thermostat.next_chunk(CHUNK_TIMEOUT)
                latencies.append((chunk.received_ns - accepted_ns) / 1e6)
                sent.append(accepted_ns)
                received.append(chunk.received_ns)
        elapsed = time.monotonic() - started
        result |= _from_acceptance(prefix, sent, received, await target.accepted_ns(prefix))
        # Each push ends its subscribe after the batch window and the device resubscribes:
        # that is part of what a command costs, so wait for it before reading the CPU time.
        await fleet.settle()
        cpu = await _cpu_delta(target, cpu0)
        await target.profiling(False)
        result |= {
            f"{prefix}p50": percentile(latencies, 0.50),
            f"{prefix}p99": percentile(latencies, 0.99),
            f"{prefix}max": max(latencies),
            f"{prefix}rate": len(latencies) / elapsed,
        }
        if cpu is not None:
            result[f"{prefix}cpu"] = cpu / len(latencies) * 1000
    return result


def _from_acceptance(
    prefix: str, sent: list[int], received: list[int], accepted: list[int] | None
) -> RunResult:
    """Return the latencies from the server's acceptance of each command.

    Latency from the server's own acceptance of each command, where it records one (Home
    Assistant: after validating a service call, before running it), to the push's arrival.
    """
    if accepted is None:
        return {}
    if len(accepted) != len(received) or not all(
        s <= a <= r for s, a, r in zip(sent, accepted, received, strict=True)
    ):
        # Commands go one at a time, so the n-th accepted is the n-th sent; anything else
        # means something else called the service meanwhile: no figure rather than a wrong one.
        _LOGGER.warning("%s: acceptance times do not match the commands; not reported", prefix)
        return {}
    latencies = [(r - a) / 1e6 for a, r in zip(accepted, received, strict=True)]
    return {
        f"{prefix}accepted_p50": percentile(latencies, 0.50),
        f"{prefix}accepted_p99": percentile(latencies, 0.99),
        f"{prefix}accepted_max": max(latencies),
    }


async def held_connections(target: Target, fleet: Fleet, options: Options) -> RunResult:
    """Grow the fleet in steps; at each, the server's RSS growth over its idle baseline."""
    rss0 = await target.rss_bytes()
    cpu0 = await target.cpu_seconds()
    result: RunResult = {}
    for step in options.hold_steps:
        try:
            await fleet.grow(step)
        except TimeoutError:
            break
        rss = await target.rss_bytes()
        if rss is not None and rss0 is not None:
            result[f"rss_{step}"] = (rss - rss0) / MIB
            result["per_connection"] = (rss - rss0) / step / 1024
    held = await target.held()
    result["held"] = float(held if held is not None else len(fleet))
    cpu = await _cpu_delta(target, cpu0)
    if cpu is not None and len(fleet):
        result["setup_cpu"] = cpu / len(fleet) * 1000
        idle0 = await target.cpu_seconds()
        await asyncio.sleep(options.idle_window)
        idle = await _cpu_delta(target, idle0)
        if idle is not None:
            result["idle_cpu"] = idle / options.idle_window * 100
    return result


async def fan_out(target: Target, fleet: Fleet, options: Options) -> RunResult:
    """One setpoint change for every held connection at once; time until the last has it."""
    if isinstance(target, HomeAssistant) and not target.can_command:
        raise ScenarioUnavailableError(
            "fan-out needs --control and --token (the control API's /command)"
        )
    await fleet.grow(options.fanout)
    await target.profiling(True)
    cpu0 = await target.cpu_seconds()
    accepted_ns, written_ns = await target.fanout([t.serial for t in fleet])
    async with asyncio.timeout(options.timeout):
        chunks = await asyncio.gather(*(t.next_chunk(CHUNK_TIMEOUT) for t in fleet))
    cpu = await _cpu_delta(target, cpu0)
    await target.profiling(False)
    delays = [(chunk.received_ns - accepted_ns) / 1e6 for chunk in chunks]
    result = {"last": max(delays), "p50": percentile(delays, 0.5)}
    if written_ns is not None:
        result["written"] = (written_ns - accepted_ns) / 1e6
    if cpu is not None:
        result["cpu"] = cpu / len(delays) * 1e6
    if isinstance(target, HomeAssistant) and target.climate_entities:
        # Every paired device through one climate.set_temperature service call.
        await fleet.settle()
        paired = [t for t in fleet if t.serial in target.climate_entities]
        sent_ns = await target.climate_fanout([t.serial for t in paired])
        async with asyncio.timeout(options.timeout):
            chunks = await asyncio.gather(*(t.next_chunk(CHUNK_TIMEOUT) for t in paired))
        result["climate_last"] = max(chunk.received_ns - sent_ns for chunk in chunks) / 1e6
    return result


async def device_put(target: Target, fleet: Fleet, options: Options) -> RunResult:
    """Devices PUT local changes as fast as the server answers, `put_concurrency` at a time."""
    await fleet.grow(options.put_concurrency)
    per_worker = max(1, options.puts // len(fleet))
    latencies: list[float] = []

    async def worker(index: int) -> None:
        thermostat = fleet.thermostats[index]
        key = f"shared.{thermostat.serial}"
        for n in range(per_worker):
            sent = time.monotonic_ns()
            await thermostat.put(key, {"current_temperature": 18 + (n % 40) / 10})
            latencies.append((time.monotonic_ns() - sent) / 1e6)

    await target.profiling(True)
    cpu0 = await target.cpu_seconds()
    started = time.monotonic()
    async with asyncio.timeout(options.timeout):
        await asyncio.gather(*(worker(i) for i in range(len(fleet))))
    elapsed = time.monotonic() - started
    cpu = await _cpu_delta(target, cpu0)
    await target.profiling(False)
    result = {
        "p50": percentile(latencies, 0.50),
        "p99": percentile(latencies, 0.99),
        "throughput": len(latencies) / elapsed,
    }
    if cpu is not None:
        result["cpu"] = cpu / len(latencies) * 1000
    return result


async def sse_delivery(target: Target, fleet: Fleet, options: Options) -> RunResult:
    """Measure the latency of the control API's event stream.

    `sse_listeners` clients on the control API's event stream; a device PUT per event;
    latency from sending the PUT to each listener reading the event.
    """
    if isinstance(target, HomeAssistant) and not target.can_command:
        raise ScenarioUnavailableError("SSE needs --control and --token (the control API)")
    await fleet.grow(1)
    thermostat = fleet.thermostats[0]
    url = f"{target.api_url}/api/events"
    headers = target.api_headers
    arrivals: list[asyncio.Queue[int]] = [asyncio.Queue() for _ in range(options.sse_listeners)]
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)

    async def listen(queue: asyncio.Queue[int], ready: asyncio.Event) -> None:
        async with target.http.get(url, headers=headers, timeout=timeout) as resp:
            resp.raise_for_status()
            ready.set()
            async for line in resp.content:
                if (
                    line.startswith(b"data:")
                    and json.loads(line[5:]).get("serial") == thermostat.serial
                ):
                    queue.put_nowait(time.monotonic_ns())

    readies = [asyncio.Event() for _ in arrivals]
    tasks = [asyncio.create_task(listen(q, r)) for q, r in zip(arrivals, readies, strict=True)]
    delays: list[float] = []
    lasts: list[float] = []
    try:
        async with asyncio.timeout(options.timeout):
            await asyncio.gather(*(r.wait() for r in readies))
            for n in range(options.sse_events):
                sent = time.monotonic_ns()
                await thermostat.put(
                    f"shared.{thermostat.serial}", {"current_temperature": 18 + n % 40 / 10}
                )
                got = [(await q.get() - sent) / 1e6 for q in arrivals]
                delays.extend(got)
                lasts.append(max(got))
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "p50": percentile(delays, 0.5),
        "p99": percentile(delays, 0.99),
        "last": statistics.median(lasts),
    }


type Scenario = Callable[[Target, Fleet, Options], Awaitable[RunResult]]


@dataclass(frozen=True, slots=True)
class Metric:
    """How one key of a run's result is shown."""

    key: str
    label: str
    unit: str
    target: str = ""


def _percentiles(what: str, load: str) -> list[Metric]:
    """Return the median and 99th percentile of a latency, in ms, under the load named."""
    return [Metric(p, f"{what} {p}, {load}", "ms") for p in ("p50", "p99")]


def metrics(
    name: str, options: Options, push_paths: Sequence[str] = CoreServer.push_paths
) -> list[Metric]:
    """Return what each scenario reports, in table order (`push_paths`: the target's)."""
    if name == "push":
        n = options.connections
        rows = []
        for prefix in push_paths:
            path = PUSH_PATHS[prefix]
            rows += [
                Metric(f"{prefix}p50", f"{path} -> push p50, {n:,} held", "ms"),
                Metric(f"{prefix}p99", f"{path} -> push p99, {n:,} held", "ms", "< 5 ms"),
                Metric(f"{prefix}max", f"{path} -> push max", "ms"),
            ]
            if prefix in ACCEPTANCE_RECORDED:
                rows += [
                    Metric(f"{prefix}accepted_p50", f"{path} accepted -> push p50", "ms"),
                    Metric(f"{prefix}accepted_p99", f"{path} accepted -> push p99", "ms", "< 5 ms"),
                    Metric(f"{prefix}accepted_max", f"{path} accepted -> push max", "ms"),
                ]
            rows += [
                Metric(f"{prefix}rate", f"{path}, one at a time", "/s"),
                Metric(f"{prefix}cpu", f"server CPU per {path}", "ms"),
            ]
        return rows
    if name == "hold":
        steps = [
            Metric(f"rss_{s}", f"RSS added at {s:,} held", "MiB", "< 256 MiB" if s == 10000 else "")
            for s in options.hold_steps
        ]
        return [
            Metric("held", "held subscribe connections", ""),
            *steps,
            Metric("per_connection", "RSS per held connection", "KiB"),
            Metric("setup_cpu", "server CPU per connecting device", "ms"),
            Metric("idle_cpu", "server CPU while all are held idle", "% core"),
        ]
    if name == "fanout":
        n = options.fanout
        return [
            Metric("last", f"fan-out to {n:,}: last device", "ms", "< 100 ms"),
            Metric("p50", f"fan-out to {n:,}: median device", "ms"),
            Metric("written", f"fan-out to {n:,}: server wrote the last", "ms"),
            Metric("cpu", "server CPU per pushed device", "µs"),
            *(
                [Metric("climate_last", "one climate.set_temperature to all paired: last", "ms")]
                if "climate" in push_paths
                else []
            ),
        ]
    if name == "put":
        return [
            *_percentiles("PUT latency", f"{options.put_concurrency} concurrent"),
            Metric("throughput", "PUT throughput", "/s"),
            Metric("cpu", "server CPU per PUT", "ms"),
        ]
    if name == "sse":
        return [
            *_percentiles("PUT -> SSE event", f"{options.sse_listeners} listeners"),
            Metric("last", "PUT -> last listener (median)", "ms"),
        ]
    raise KeyError(name)


SCENARIOS: dict[str, Scenario] = {
    "push": push_latency,
    "hold": held_connections,
    "fanout": fan_out,
    "put": device_put,
    "sse": sse_delivery,
}
