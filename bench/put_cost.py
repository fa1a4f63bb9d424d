"""The device PUT path, without sockets: `python -m bench.put_cost`.

The service core in this process and a fleet of thermostats, each reporting a change of its
`shared` bucket as a 5.x PUT does (bucket-keyed, guarded by `if_object_revision`), through
the device sessions as the device surface calls them. The figure is the CPU time
(`time.thread_time`, so a loaded machine's waiting is left out) per PUT, median of the
rounds: what the session rules, the merge and the confirmations cost per report, without
HTTP. It is the path firmware 4.x's transport branches off (issue 35), so a change there
shows here first.
"""

from __future__ import annotations

import asyncio

from custom_components.thermostat_cloud.server.core import IdentityClaim, PutEntry
from custom_components.thermostat_cloud.server.core.testing import harness

from .fleet import cpu_us_each, print_cpu_figures, seeded_service


async def measure(rounds: int, fleet_size: int) -> list[float]:
    """Return the CPU time per PUT (µs) of each round, one PUT per thermostat a round."""
    service, fleet = await seeded_service(fleet_size)
    claims = {serial: IdentityClaim(user_id=f"d.{serial}.bench") for serial in fleet}
    sessions = service.sessions
    per_put: list[float] = []
    temperature = 18.0
    for _ in range(rounds):
        temperature = 18.0 if temperature >= 25.0 else temperature + 0.25
        reports = []
        for serial in fleet:
            key = f"shared.{serial}"
            bucket = harness(service).bucket(key)
            revision = bucket.revision if bucket is not None else 0
            fields = {"current_temperature": temperature}
            reports.append((claims[serial], [PutEntry(key, fields, revision, revision)]))
        per_put.append(cpu_us_each(reports, lambda report: sessions.put(*report)))
        await asyncio.sleep(0)  # what the PUTs set off (events, saves) runs between rounds
    await service.async_stop()
    return per_put


if __name__ == "__main__":
    print_cpu_figures(
        __doc__, "fleet", measure, lambda size: f"CPU per device PUT, {size:,} thermostats"
    )
