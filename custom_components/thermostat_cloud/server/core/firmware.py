"""Firmware versions: their shape, and from which version a thermostat can be controlled."""

from __future__ import annotations

import re

_VERSION_RE = re.compile(r"^\d{1,3}\.\d{1,3}(?:\.\d{1,3})?(?:-\d{1,3})?$")

MIN_CONTROL_FIRMWARE = 5
"""Firmware major version from which a thermostat subscribes (earlier: heartbeats only).

Firmware before 5.x only PUTs empty heartbeats and never subscribes (NoLongerEvil-Thermostat
issue #213), so nothing can be pushed to it."""


def is_firmware_version(text: str) -> bool:
    """Whether a text is shaped like a firmware version (`5.9.4-5`, `4.2.5`)."""
    return _VERSION_RE.fullmatch(text) is not None


def firmware_major(version: str | None) -> int | None:
    """Return the major number of a firmware version (`4` of `4.2.5`), else None."""
    if version is None or not is_firmware_version(version):
        return None
    return int(version.partition(".")[0])


def too_old_to_control(version: str | None) -> bool:
    """Whether a firmware version is known to be older than `MIN_CONTROL_FIRMWARE`."""
    major = firmware_major(version)
    return major is not None and major < MIN_CONTROL_FIRMWARE
