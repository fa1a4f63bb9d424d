"""What real firmware does: its habits the server relies on beyond the spec.

Each habit names the row of `docs/device-protocol.md` ("What real firmware does", quoted by its
first words) that gives its source; that document's "Where each habit lives" lists them the
other way round. Nothing here knows HTTP: a form that does not parse raises ValueError, which
the device surface answers 400.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
import re
from typing import Any

from ...model.buckets import Bucket, bucket_key, split_key
from ...model.devices import SERIAL_RE
from ...model.records import compact_json

# -- versions ----------------------------------------------------------------------------------

_VERSION_RE = re.compile(r"^\d{1,3}\.\d{1,3}(?:\.\d{1,3})?(?:-\d{1,3})?$")

MIN_CONTROL_FIRMWARE = 5
"""Firmware major version from which a thermostat speaks the spec's transport.

Firmware 4.x speaks its own (`SKV_TRANSPORT`) and is controlled once it subscribes there; a
4.x thermostat seen only PUTting empty heartbeats (NoLongerEvil-Thermostat issue #213) cannot
be. Rows "Firmware 4.2.5 (2014) PUTs", "Firmware 4.x speaks its own transport"."""


def is_firmware_version(text: str) -> bool:
    """Whether a text is shaped like a firmware version (`5.9.4-5`, `4.2.5`).

    Row "Firmware reports its version in `X-nl-device-swversion`".
    """
    return _VERSION_RE.fullmatch(text) is not None


def firmware_major(version: str | None) -> int | None:
    """Return the major number of a firmware version (`4` of `4.2.5`), else None."""
    if version is None or not is_firmware_version(version):
        return None
    return int(version.partition(".")[0])


def too_old_to_control(version: str | None) -> bool:
    """Whether a firmware version is older than `MIN_CONTROL_FIRMWARE` (4.x and before).

    Such a thermostat is controlled only once it subscribes over `SKV_TRANSPORT`.
    """
    major = firmware_major(version)
    return major is not None and major < MIN_CONTROL_FIRMWARE


# -- revisions ---------------------------------------------------------------------------------

# Revisions are signed 32-bit integers in firmware: a thermostat that carries bucket history
# from its old cloud or another server lists negative ones. Row "Revisions are signed 32-bit".
REVISION_MIN = -(2**31)
REVISION_MAX = 2**31 - 1


def is_revision(value: object) -> bool:
    """Whether a JSON value is a revision firmware can hold (a signed 32-bit integer)."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and REVISION_MIN <= value <= REVISION_MAX
    )


def next_revision(revision: int) -> int:
    """Return the revision after `revision`.

    It wraps within the signed 32-bit range firmware keeps.
    """
    return REVISION_MIN if revision >= REVISION_MAX else revision + 1


# -- identity: serial and MAC ------------------------------------------------------------------

MAC_RE = re.compile(r"[0-9A-Fa-f]{12}")
"""A MAC address as firmware writes it in `mac` and in bucket keys (`11b2334455d6`).

Row "Some thermostats (Display-2.12 on 5.9.4-5) identify by MAC address"."""


def serial_from_user_id(user_id: str) -> str | None:
    """Return SERIAL of `d.{SERIAL}.{suffix}`, `nest.{SERIAL}` or a bare `{SERIAL}`.

    All three are seen from firmware: the serial is the second dot-separated part, else the
    whole id (docs/device-protocol.md, "Endpoints": the Basic credentials' user id).
    """
    parts = user_id.split(".")
    serial = parts[1] if len(parts) > 1 else parts[0]
    return serial if SERIAL_RE.fullmatch(serial) else None


def serial_from_session(session: str, mac: str) -> str | None:
    """Return the serial in a session id `<mac><serial>` (Display-2.12 / 5.9.4-5), else None.

    Row "Some thermostats (Display-2.12 on 5.9.4-5) identify by MAC address".
    """
    if not session.lower().startswith(mac.lower()):
        return None
    serial = session[len(mac) :]
    return serial if SERIAL_RE.fullmatch(serial) and not MAC_RE.fullmatch(serial) else None


@dataclass(frozen=True, slots=True)
class Identity:
    """Who sent a request: the serial its state is kept under, and the MAC if it goes by one.

    Such a thermostat's keys are translated to its serial on the way in and back on the way out:
    its state is kept under its serial while it is answered under the keys it follows. Row "Some
    thermostats (Display-2.12 on 5.9.4-5) identify by MAC address".
    """

    serial: str
    mac: str | None = None

    def inbound(self, key: str) -> str:
        if self.mac is not None and (parts := split_key(key)) and parts[1].lower() == self.mac:
            return bucket_key(parts[0], self.serial)
        return key

    def outbound(self, key: str) -> str:
        if self.mac is not None and (parts := split_key(key)) and parts[1] == self.serial:
            return bucket_key(parts[0], self.mac)
        return key

    def wire_json(self, bucket: Bucket) -> bytes:
        if self.mac is None:
            return bucket.wire_json()
        return compact_json({**bucket.wire(), "object_key": self.outbound(bucket.key)})

    def descriptor(self, bucket: Bucket) -> dict[str, Any]:
        return {**bucket.descriptor(), "object_key": self.outbound(bucket.key)}


# -- the forms 4.x firmware sends --------------------------------------------------------------


def is_heartbeat(body: Mapping[str, Any]) -> bool:
    """Whether a PUT body is firmware 4.x's heartbeat, `{"objects": []}`.

    4.2.5 PUTs it to `/nest/transport/v3/put` and never subscribes. Row "Firmware 4.2.5
    (2014) PUTs".
    """
    return body.get("objects") == []


def nested_put_buckets(name: str, by_id: Mapping[str, Any]) -> list[tuple[str, Any]] | None:
    """Return `(key, object)` per bucket of firmware 4.3.x's PUT form, else None.

    4.3.x PUTs `{"<type>": {"<serial>": {fields}}}` (a top-level name without a dot, no
    `object_key`) to `/nest/transport/v3/put`. Row "A Display-2.14 on 4.3.3 that refuses
    updates" (NoLongerEvil-Thermostat issue #111).
    """
    if "." in name:
        return None
    return [(f"{name}.{identifier}", obj) for identifier, obj in by_id.items()]


def subscribe_listing(body: Mapping[str, Any]) -> Any:
    """Return the `objects` a subscribe lists, from any of the three forms firmware sends.

    5.x lists `objects`; 4.3.x its buckets by name (`"device": {"object_key": ...}`) or only their
    keys (no revision: it has none); 4.0.6 keys with the version and timestamp it has. Rows "A
    Display-2.14 on 4.3.3 that refuses updates", "Firmware 4.x speaks its own transport".
    """
    objects = body.get("objects")
    if objects is None and isinstance(keys := body.get("keys"), list):
        objects = [_listed_key(index, entry) for index, entry in enumerate(keys)]
    elif objects is None:
        objects = [
            value
            for name, value in body.items()
            if name not in ("session", "chunked")
            and isinstance(value, dict)
            and "object_key" in value
        ]
        if not objects:
            raise ValueError("objects must be an array (or buckets by name, or keys)")
    return objects


def _listed_key(index: int, entry: object) -> dict[str, Any]:
    """Return one entry of a `keys` listing as an `objects` entry (its version, when given)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("key"), str):
        raise ValueError(f"keys[{index}] must be an object with a key string")
    listed: dict[str, Any] = {"object_key": entry["key"]}
    if "version" in entry:
        if not is_revision(entry["version"]):
            raise ValueError(f"keys[{index}]: version must be a signed 32-bit integer")
        listed["object_revision"] = entry["version"]
    if "timestamp" in entry:
        stamp = entry["timestamp"]
        if isinstance(stamp, bool) or not isinstance(stamp, int) or stamp < 0:
            raise ValueError(f"keys[{index}]: timestamp must be a non-negative integer (ms)")
        listed["object_timestamp"] = stamp
    return listed


# -- firmware 4.x's transport ------------------------------------------------------------------

SKV_TRANSPORT = "v3"
"""The transport version in firmware 4.x's paths (`<transport_url>/v3/subscribe`, `/v3/put`,
`/v3/device/...`): it, not the version a thermostat reports, selects 4.x's answers. Row
"Firmware 4.x speaks its own transport"."""


def is_skv_transport(version: str | None) -> bool:
    """Whether a request's transport version (`v3` of `/transport/v3/put`) is firmware 4.x's."""
    return version == SKV_TRANSPORT


def skv_value(bucket: Bucket) -> bytes:
    """Return the body of a 4.x subscribe's answer: the bucket's value alone, compact.

    Its key, version and timestamp go in the answer's headers. Row "Firmware 4.x speaks its
    own transport".
    """
    return compact_json(bucket.value)


def skv_nested(objects: Iterable[Mapping[str, Any]]) -> bytes:
    """Return bucket objects in 4.x's nested form, compact: `{"<type>":{"<id>":{..}}}`.

    Each descriptor becomes `{"$version", "$timestamp"}` and its fields (a PUT answer carries the
    metadata only). Firmware's scanner does not skip whitespace, hence compact JSON. Row
    "Firmware 4.x speaks its own transport".
    """
    nested: dict[str, dict[str, dict[str, Any]]] = {}
    for obj in objects:
        bucket_type, _, identifier = str(obj["object_key"]).partition(".")
        entry: dict[str, Any] = {
            "$version": obj["object_revision"],
            "$timestamp": obj["object_timestamp"],
        }
        entry.update(obj.get("value") or {})
        nested.setdefault(bucket_type, {})[identifier] = entry
    return compact_json(nested)


# -- which bucket holds which setting ----------------------------------------------------------

SETPOINT_FIELDS = frozenset(
    {
        "target_temperature",
        "target_temperature_low",
        "target_temperature_high",
        "target_temperature_type",
    }
)
"""The setpoints and the mode: the spec's `shared` fields.

A push of them goes with `X-nl-disable-defer-window` (row "`X-nl-disable-defer-window` (60 s)
goes with a push of setpoints or the mode")."""


def carries_setpoints(bucket: Bucket) -> bool:
    """Whether a push of this bucket carries setpoints or the mode (a `shared` bucket)."""
    return bucket.key.startswith("shared.") and not SETPOINT_FIELDS.isdisjoint(bucket.value)
