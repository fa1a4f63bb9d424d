"""What the benchmark reads from the operating system: CPU time, RSS and descriptor limits.

Linux only (`/proc`), like the machines the numbers are published for.
"""

from __future__ import annotations

import os
from pathlib import Path
import platform
import resource
import sys

import aiohttp

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def raise_fd_limit(wanted: int) -> int:
    """Raise the soft RLIMIT_NOFILE towards `wanted`, within the hard limit; returns the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if ceiling > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
        return ceiling
    return soft


def own_cpu_seconds() -> float:
    """User plus system CPU time of this process, all threads (microsecond resolution)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def process_cpu_seconds(pid: int) -> float:
    """User plus system CPU time of another process, from /proc (clock-tick resolution)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    # After the command name: state is field 3, utime field 14, stime field 15.
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def process_rss_bytes(pid: int | str = "self") -> int:
    """Resident set size of a process right now."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def describe_machine() -> dict[str, str]:
    """Return what the numbers were measured on."""
    model = "unknown"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.partition(":")[2].strip()
                break
    memory = "unknown"
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        total_kib = int(meminfo.read_text().split()[1])
        memory = f"{total_kib / 1024 / 1024:.1f} GiB"
    return {
        "cpu": f"{model}, {os.cpu_count()} logical cores",
        "memory": memory,
        "kernel": f"{platform.system()} {platform.release()}",
        "python": sys.version.split()[0],
        "aiohttp": aiohttp.__version__,
        "fd_limit": str(resource.getrlimit(resource.RLIMIT_NOFILE)[0]),
    }
