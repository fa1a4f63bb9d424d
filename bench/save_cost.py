"""What a save of the service's state costs: `python -m bench.save_cost`.

Bucket writes reach the disk at most `ServiceConfig.save_delay` after they are acknowledged,
so that delay is the loss window of a crash, and each save is paid for once per delay while
thermostats report. This fills the service core with N benchmark thermostats, changes one
bucket before each save (as a report does), and times the two parts of a save as Home
Assistant's Store does them: building and serializing the document in the event loop, and
writing the file atomically (with fsync) in the executor.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
import statistics
import tempfile
import time

from homeassistant.helpers.json import prepare_save_json
from homeassistant.util.file import write_utf8_file_atomic

from custom_components.thermostat_cloud.server import ServiceConfig, ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness

from .fleet import bench_serial, seed
from .unsaved import UnsavedStorage


async def measure(thermostats: int, saves: int, directory: Path) -> str:
    """One line: file size, event-loop and executor time per save (median and max)."""
    service = ThermostatService(ServiceConfig(api_origin="http://127.0.0.1:1"), UnsavedStorage())
    await service.async_load()
    seed(service, map(bench_serial, range(thermostats)))
    prepare_save_json({"data": harness(service).snapshot()})  # the first save serializes everything
    in_loop: list[float] = []
    in_executor: list[float] = []
    data: str | bytes = ""
    mode = ""
    path = directory / f"state-{thermostats}"
    for save in range(saves):
        serial = bench_serial(save % thermostats)
        harness(service).merge(f"shared.{serial}", {"current_temperature": 20 + save / 100})
        started = time.perf_counter()
        mode, data = prepare_save_json({"version": 1, "data": harness(service).snapshot()})
        in_loop.append(time.perf_counter() - started)
        started = time.perf_counter()
        write_utf8_file_atomic(str(path), data, True, mode=mode)
        in_executor.append(time.perf_counter() - started)
    return (
        f"{thermostats:>6} thermostats, file {len(data) / 1e6:5.2f} MB: event loop "
        f"{statistics.median(in_loop) * 1000:6.2f} ms (max {max(in_loop) * 1000:6.2f}), "
        f"executor write {statistics.median(in_executor) * 1000:6.1f} ms "
        f"(max {max(in_executor) * 1000:6.1f}) per save"
    )


def main() -> None:
    """Print one line per fleet size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 1000, 5000])
    parser.add_argument("--saves", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        for size in args.sizes:
            print(asyncio.run(measure(size, args.saves, Path(directory))))


if __name__ == "__main__":
    main()
