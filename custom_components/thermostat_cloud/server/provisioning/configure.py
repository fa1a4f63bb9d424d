"""Point a thermostat's cloud URL at this server through its settings page.

The settings CGI (NoLongerEvil-Thermostat `firmware/builder/deps/settings`) refuses a change
without its key, which it hands out to `{"initialize": <its hostname>}` (the serial) and, once,
to `{"setup": "true"}` in its first-boot window (under 30 minutes after start, still pointing at
the community cloud). Both are tried, so a thermostat just restarted needs no serial typed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from http import HTTPStatus
import ipaddress
import logging
from typing import Any

import aiohttp

from ..core import origin_with_port
from ..model import SERIAL_RE, DeviceRecord
from .network import LocalNetwork, text_field

_LOGGER = logging.getLogger(__name__)

type DeviceLookup = Callable[[str], DeviceRecord | None]
"""The device that last contacted this server from an IP address, if any."""


class ConfigureOutcome(StrEnum):
    """How pointing a thermostat at this server went."""

    CONFIGURED = "configured"
    INVALID_INPUT = "invalid_input"
    """No IP address, a key that is not a string, or an https `api_origin`."""
    KEY_REFUSED = "key_refused"
    """The settings page wants a key (its serial) and refused the one tried."""
    UNREACHABLE = "unreachable"
    FAILED = "failed"
    """The thermostat answered with an error status."""


@dataclass(frozen=True, slots=True)
class ConfigureResult:
    """The outcome of configuring, with the thermostat's name or what went wrong."""

    outcome: ConfigureOutcome
    error: str = ""
    device_name: str = ""

    @property
    def success(self) -> bool:
        return self.outcome is ConfigureOutcome.CONFIGURED


def keys_to_try(api_key: str | None, record: DeviceRecord | None) -> list[str | None]:
    """Return the keys to offer the settings page, in order.

    The user's key alone; else a known thermostat's Basic password (the page's key), then its
    serial (the page's fallback key); else none (the page may not ask).
    """
    if api_key:
        return [api_key.strip()]
    if record is None:
        return [None]
    return [key for key in (record.credential, record.serial) if key]


def serial_hint(api_key: str | None) -> str | None:
    """Return a given key that looks like a serial, uppercased as the page's hostname is."""
    if api_key is not None and SERIAL_RE.fullmatch(key := api_key.strip()):
        return key.upper()
    return None


async def configure_thermostat(
    network: LocalNetwork,
    api_origin: str,
    ip: object,
    api_key: object = None,
    *,
    device_at: DeviceLookup,
) -> ConfigureResult:
    """Point the thermostat at `ip` at `api_origin`, trying the keys `keys_to_try` gives."""

    def failure(outcome: ConfigureOutcome, error: str) -> ConfigureResult:
        _LOGGER.debug("Configure device: %s", error)
        return ConfigureResult(outcome, error)

    try:
        address = str(ipaddress.ip_address(ip.strip() if isinstance(ip, str) else ""))
    except ValueError:
        return failure(ConfigureOutcome.INVALID_INPUT, "ip must be the thermostat's IP address")
    if api_key is not None and not isinstance(api_key, str):
        return failure(
            ConfigureOutcome.INVALID_INPUT, "api_key must be a string (the thermostat's serial)"
        )
    origin = origin_with_port(api_origin)
    if origin.startswith("https:"):
        return failure(
            ConfigureOutcome.INVALID_INPUT,
            "api_origin is https, but the device server speaks plain HTTP: set an http "
            "origin in the Thermostat Cloud settings first",
        )
    record = device_at(address)
    keys = keys_to_try(api_key, record)
    serial = serial_hint(api_key) or (record.serial if record is not None else None)
    try:
        status, answer = await _configure(network, address, origin, keys)
        if status == HTTPStatus.UNAUTHORIZED and serial is not None:
            # The settings CGI hands its key to whoever names the thermostat's hostname,
            # which is its serial: ask, then retry with that key.
            key = await _key_from_serial(network, address, serial)
            if key is not None and key not in keys:
                keys.append(key)
                status, answer = await _configure(network, address, origin, [key])
        if status == HTTPStatus.UNAUTHORIZED:
            # Its first-boot window gives the key to anyone, once.
            key = await _key_from_setup_window(network, address)
            if key is not None and key not in keys:
                status, answer = await _configure(network, address, origin, [key])
    except (aiohttp.ClientError, TimeoutError, OSError) as err:
        return failure(
            ConfigureOutcome.UNREACHABLE,
            f"Thermostat at {address} is not reachable ({type(err).__name__})",
        )
    if status == HTTPStatus.UNAUTHORIZED:
        return failure(
            ConfigureOutcome.KEY_REFUSED,
            "The thermostat refused the key: restart it and retry within 30 minutes, or retry "
            "with api_key set to its serial",
        )
    if not 200 <= status < 300:
        return failure(ConfigureOutcome.FAILED, f"Thermostat at {address} answered HTTP {status}")
    name = text_field(answer, "device_name")
    if name is None:
        _LOGGER.debug(
            "Thermostat at %s took the new URL but did not answer with its device_name", address
        )
    _LOGGER.info("Thermostat at %s now points at %s", address, origin)
    return ConfigureResult(ConfigureOutcome.CONFIGURED, device_name=name or "")


async def _configure(
    network: LocalNetwork, address: str, origin: str, keys: list[str | None]
) -> tuple[int, dict[str, Any] | None]:
    """POST the origin with each key in turn until one is not refused; the last status, answer."""
    status: int = HTTPStatus.UNAUTHORIZED
    answer: dict[str, Any] | None = None
    for key in keys:
        # The CGI stores `<endpoint>/entry`: the origin alone, no path.
        payload = {"endpoint": origin} if key is None else {"api_key": key, "endpoint": origin}
        status, answer = await network.post_settings(address, payload)
        if status != HTTPStatus.UNAUTHORIZED:
            break
    return status, answer


async def _key_from_serial(network: LocalNetwork, address: str, serial: str) -> str | None:
    """Return the settings CGI's key, which it gives for `{"initialize": <its hostname>}`."""
    status, answer = await network.post_settings(address, {"initialize": serial})
    return text_field(answer, "api_key") if status == HTTPStatus.OK else None


async def _key_from_setup_window(network: LocalNetwork, address: str) -> str | None:
    """Return the key the settings CGI gives to `{"setup": "true"}` in its first-boot window."""
    status, answer = await network.post_settings(address, {"setup": "true"})
    key = text_field(answer, "api_key") if status == HTTPStatus.OK else None
    if key is not None:
        _LOGGER.debug("Thermostat at %s gave its key in its first-boot window", address)
    return key or None
