"""A simulated thermostat on firmware 4.x, speaking only 4.x's transport ("v3").

As the public forks that serve such thermostats document it (sources in
docs/device-protocol.md, "Firmware 4.x speaks its own transport"): it calls `/entry` and keeps
the home buckets its answer carries inline, fetches its buckets with `GET
<transport_url>/v3/device/device.<serial>` (nested `{"<type>": {"<id>": {"$version",
"$timestamp", ...}}}`), PUTs changed fields nested the same way to `/v3/put` without a
revision and reads each bucket's `$version`/`$timestamp` from the answer, and subscribes at
`/v3/subscribe` listing `{"keys": [{"key": ...}]}` (with each key's `version` and `timestamp`
when `versioned_keys`, as 4.0.6 does; without, as 4.3.3 does). A subscribe's answer is one
bucket's value, named by the `X-nl-skv-key`, `X-nl-skv-version` and `X-nl-skv-timestamp`
headers; an empty answer is a tickle. An answer without those headers (a 5.x `{"objects":
[...]}` push) is rejected, as firmware rejects it ("bad header data"), and kept in `rejected`.

Pushes it applies are acknowledged and reported as on 5.x (`SimulatedThermostat`): a pushed
`target_change_pending: true` is cleared in a delta PUT, and the fields a push changed are
PUT back, here in 4.x's form.
"""

from __future__ import annotations

from collections.abc import Mapping
import json
import logging
import time
from typing import Any

import aiohttp

from .thermostat import Chunk, LocalBucket, SimulatedThermostat

_LOGGER = logging.getLogger(__name__)

SKV_HEADERS = ("skv-key", "skv-version", "skv-timestamp")
"""The answer's headers naming its bucket, after the brand's prefix (`X-nl-`)."""


def _compact(data: Any) -> bytes:
    """JSON without whitespace: 4.x's scanner does not skip it."""
    return json.dumps(data, separators=(",", ":")).encode()


class SkvThermostat(SimulatedThermostat):
    """One 4.x thermostat talking to `{device_url}` over real TCP, in 4.x's transport only."""

    def __init__(
        self,
        base_url: str,
        serial: str,
        session: aiohttp.ClientSession,
        *,
        buckets: Mapping[str, Mapping[str, Any]] | None = None,
        firmware: str = "4.3.3",
        versioned_keys: bool = False,
        obey_pushes: bool = True,
    ) -> None:
        """Initialize a 4.x thermostat that has not made contact yet."""
        super().__init__(
            base_url, serial, session, buckets=buckets, firmware=firmware, obey_pushes=obey_pushes
        )
        self.versioned_keys = versioned_keys
        """List each key's version and timestamp when subscribing (4.0.6), or keys only."""
        self.rejected: list[bytes] = []
        """Answers it could not apply: without SKV headers, or with malformed ones."""
        self.tickles = 0
        """Empty answers: the server had nothing for it before its hold ran out."""

    async def entry(self) -> dict[str, Any]:
        """Register, keeping the home buckets the answer carries inline (once paired)."""
        data = await super().entry()
        for name, obj in data.items():
            if "." in name and isinstance(obj, dict) and isinstance(obj.get("value"), dict):
                self.local[name] = LocalBucket(
                    obj["object_revision"], obj["object_timestamp"], dict(obj["value"])
                )
        return data

    async def bootstrap(self) -> dict[str, Any]:
        """GET its buckets, nested with their values, and keep them."""
        url = f"{self.transport_url}/v3/device/device.{self.key_id}"
        async with self.http.get(url, headers=self.headers) as resp:
            resp.raise_for_status()
            self._follow_protocol_headers(resp.headers)
            data: dict[str, Any] = json.loads(await resp.read())
        self._keep_nested(data, values=True)
        return data

    def _keep_nested(self, data: Mapping[str, Any], *, values: bool) -> None:
        """Keep each bucket's `$version`/`$timestamp` of a nested answer (and its fields)."""
        for bucket_type, by_id in data.items():
            for identifier, entry in by_id.items():
                local = self.local.setdefault(f"{bucket_type}.{identifier}", LocalBucket())
                local.revision = entry["$version"]
                local.timestamp = entry["$timestamp"]
                if values:
                    local.value = {k: v for k, v in entry.items() if not k.startswith("$")}

    @property
    def put_url(self) -> str:
        """4.x PUTs at `<transport_url>/v3/put`."""
        return f"{self.transport_url}/v3/put"

    async def put_many(
        self, changes: Mapping[str, Mapping[str, Any]], *, guard: bool | None = None
    ) -> Any:
        """PUT local changes nested by bucket type, then identifier, with no revision.

        4.x's PUT carries none (`guard` is not part of its form and is ignored).
        """
        body: dict[str, dict[str, dict[str, Any]]] = {}
        for key, fields in changes.items():
            self.local.setdefault(key, LocalBucket()).value.update(fields)
            bucket_type, _, identifier = key.partition(".")
            body.setdefault(bucket_type, {})[identifier] = dict(fields)
        headers = {**self.headers, "Content-Type": "application/json"}
        async with self.http.post(self.put_url, data=_compact(body), headers=headers) as resp:
            resp.raise_for_status()
            self._follow_protocol_headers(resp.headers)
            data: dict[str, Any] = json.loads(await resp.read())
        self._keep_nested(data, values=False)
        return data

    async def report_state(self) -> Any:
        """PUT every bucket it has (what it reports to a server it just met)."""
        return await self.put_many({k: b.value for k, b in self.local.items() if b.value})

    def _subscribe_body(self) -> dict[str, Any]:
        """`{"keys": [...]}`: its own three buckets and every one it has."""
        own = [f"{kind}.{self.key_id}" for kind in ("device", "shared", "schedule")]
        keys = []
        for key in dict.fromkeys([*own, *self.local]):
            entry: dict[str, Any] = {"key": key}
            if self.versioned_keys:
                bucket = self.local.get(key, LocalBucket())
                entry.update(version=bucket.revision, timestamp=bucket.timestamp)
            keys.append(entry)
        return {"keys": keys}

    def _skv_headers(self, headers: Mapping[str, str]) -> tuple[str, int, int] | None:
        """Return the answer's bucket key, version and timestamp; None when malformed."""
        key, version, timestamp = (self._header(headers, suffix) for suffix in SKV_HEADERS)
        if key is None or version is None or timestamp is None:
            return None
        try:
            return key, int(version), int(timestamp)
        except ValueError:
            return None

    async def subscribe_once(self) -> int:
        """Run one subscribe; return 1 when its answer was a bucket it applied, else 0."""
        try:
            headers = {**self.headers, "Content-Type": "application/json"}
            async with self.http.post(
                self.subscribe_url,
                data=_compact(self._subscribe_body()),
                headers=headers,
                timeout=aiohttp.ClientTimeout(total=None, sock_read=None),
            ) as resp:
                resp.raise_for_status()
                self.last_headers = resp.headers
                self.subscribed.set()
                self._follow_protocol_headers(resp.headers)
                started_ns = time.monotonic_ns()
                raw = await resp.read()
                named = self._skv_headers(resp.headers)
        finally:
            self.subscribed.clear()
        count = 0
        try:
            value = json.loads(raw) if raw else None
        except ValueError:
            value = None
        if not raw:
            self.tickles += 1
        elif named is None or not isinstance(value, dict):
            _LOGGER.debug("%s: bad header data; answer dropped", self.serial)
            self.rejected.append(raw)
        else:
            key, version, timestamp = named
            obj = {
                "object_key": key,
                "object_revision": version,
                "object_timestamp": timestamp,
                "value": value,
            }
            await self.awake.wait()  # asleep, the answer waits unread
            applied = {key: self._apply(obj)} if self.obey_pushes else {}
            count = 1
            self.received.put_nowait(Chunk([obj], raw, started_ns))
            if self.obey_pushes:
                self._react([obj], applied)
        self.closes.put_nowait(count)
        return count

    async def _report_applied(
        self, report: dict[str, dict[str, Any]], revisions: dict[str, int]
    ) -> None:
        """PUT what a push changed (its acknowledgement among it) as a 4.x delta PUT."""
        try:
            await self.put_many(report)
        except (aiohttp.ClientError, TimeoutError) as err:
            # The server went away or did not answer in time: firmware tries later.
            _LOGGER.debug("%s: report not sent (%r)", self.serial, err)
