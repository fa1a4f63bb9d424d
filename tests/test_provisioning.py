"""Unit tests of LAN provisioning's pure parts: no socket is opened, no settings page asked.

What the scan reports of a settings answer, which keys configuring offers a settings page,
and the input configuring refuses before it reaches the network.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import aiohttp
import pytest

from custom_components.thermostat_cloud.server.model import DeviceRecord
from custom_components.thermostat_cloud.server.provisioning import (
    ConfigureOutcome,
    FoundThermostat,
    LocalNetwork,
    configure_thermostat,
    is_this_server,
)
from custom_components.thermostat_cloud.server.provisioning.configure import (
    keys_to_try,
    serial_hint,
)

ORIGIN = "http://192.168.1.20:8000"
SERIAL = "02AA01AC25160ABC"


@pytest.fixture
async def network() -> AsyncGenerator[LocalNetwork]:
    """Return a settings-page client; no test here lets it connect."""
    async with aiohttp.ClientSession() as session:
        yield LocalNetwork(session)


@pytest.mark.parametrize(
    ("url", "configured"),
    [
        (ORIGIN, True),
        (f"{ORIGIN}/", True),
        (f"  {ORIGIN}  ", True),
        ("HTTP://192.168.1.20:8000", True),
        ("http://192.168.1.20:8001", False),
        ("https://192.168.1.20:8000", False),
        ("http://192.168.1.21:8000", False),
        ("", False),
        ("frontdoor.example", False),
        (None, False),
        (8000, False),
    ],
)
def test_a_thermostat_counts_as_configured_only_when_it_calls_this_origin(
    url: object, configured: bool
) -> None:
    """The scan's `configured` flag ignores a trailing slash, spaces and the scheme's case."""
    assert is_this_server(ORIGIN, url) is configured


def test_default_ports_match_whether_written_or_not() -> None:
    """A page that stores `http://host` points at an origin written `http://host:80`."""
    assert is_this_server("http://ha.home.arpa:80", "http://ha.home.arpa")
    assert not is_this_server("http://ha.home.arpa:8000", "http://ha.home.arpa")


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (
            {"device_name": "Hallway", "cloudregisterurl": ORIGIN},
            FoundThermostat("192.168.1.30", "Hallway", ORIGIN, configured=True),
        ),
        (
            {"device_name": "Den", "cloudregisterurl": "https://frontdoor.example:443"},
            FoundThermostat(
                "192.168.1.30", "Den", "https://frontdoor.example:443", configured=False
            ),
        ),
        (
            {"device_name": 7, "cloudregisterurl": {"a": 1}},
            FoundThermostat("192.168.1.30", "", None, configured=False),
        ),
        ({}, FoundThermostat("192.168.1.30", "", None, configured=False)),
    ],
    ids=["points here", "points elsewhere", "fields that are no strings", "empty"],
)
def test_the_scan_reports_only_string_fields_of_a_settings_answer(
    answer: dict[str, Any], expected: FoundThermostat
) -> None:
    """A name or URL that is not a string is listed empty, never as it came."""
    found = FoundThermostat.from_settings("192.168.1.30", answer, ORIGIN)
    assert found == expected
    assert found.as_json() == {
        "ip": expected.ip,
        "device_name": expected.device_name,
        "cloudregisterurl": expected.cloudregisterurl,
        "configured": expected.configured,
    }


def test_the_settings_url_brackets_an_ipv6_address(network: LocalNetwork) -> None:
    """The settings page of an IPv6 thermostat is still a valid URL, on the page's port."""
    assert network.settings_url("192.168.1.30") == ("http://192.168.1.30:8080/cgi-bin/api/settings")
    assert network.settings_url("fe80::1") == "http://[fe80::1]:8080/cgi-bin/api/settings"


async def test_the_scan_takes_an_ipv4_address_as_it_is_and_refuses_ipv6() -> None:
    """An IPv4 origin needs no name lookup; an IPv6 one has no /24 to scan."""
    assert await LocalNetwork.resolve_ipv4("192.168.1.20") == "192.168.1.20"
    with pytest.raises(OSError, match="not an IPv4 address"):
        await LocalNetwork.resolve_ipv4("fe80::1")


def test_a_key_the_user_gives_is_the_only_one_tried() -> None:
    """The typed key wins over what a thermostat sent here, trimmed of spaces."""
    seen = DeviceRecord(SERIAL, credential="firmware-secret")
    assert keys_to_try(f" {SERIAL} ", seen) == [SERIAL]


def test_a_thermostat_seen_here_is_offered_its_own_keys() -> None:
    """Its Basic password first (the page's key), then its serial (the page's fallback)."""
    assert keys_to_try(None, DeviceRecord(SERIAL, credential="firmware-secret")) == [
        "firmware-secret",
        SERIAL,
    ]
    assert keys_to_try(None, DeviceRecord(SERIAL)) == [SERIAL]


def test_a_thermostat_never_seen_is_offered_no_key() -> None:
    """Its page may not ask for one: the first attempt carries no key."""
    assert keys_to_try(None, None) == [None]


@pytest.mark.parametrize(
    ("api_key", "hint"),
    [
        (SERIAL.lower(), SERIAL),
        (f" {SERIAL} ", SERIAL),
        ("firmware-secret", None),
        (None, None),
    ],
)
def test_a_key_that_looks_like_a_serial_asks_the_page_for_its_real_key(
    api_key: str | None, hint: str | None
) -> None:
    """A serial typed in any case names the page's hostname, which is upper case."""
    assert serial_hint(api_key) == hint


@pytest.mark.parametrize(
    ("api_origin", "ip", "api_key", "error"),
    [
        (ORIGIN, "not an address", None, "ip must be the thermostat's IP address"),
        (ORIGIN, None, None, "ip must be the thermostat's IP address"),
        (ORIGIN, "192.168.1.30", 1234, "api_key must be a string (the thermostat's serial)"),
        ("https://ha.home.arpa:8443", "192.168.1.30", None, "api_origin is https"),
    ],
    ids=["not an address", "no address", "key not a string", "https origin"],
)
async def test_configuring_refuses_input_before_asking_the_thermostat(
    network: LocalNetwork, api_origin: str, ip: object, api_key: object, error: str
) -> None:
    """Wrong input is a clear error and no device lookup (nothing is sent anywhere)."""
    looked_up: list[str] = []

    def device_at(address: str) -> DeviceRecord | None:
        looked_up.append(address)
        return None

    result = await configure_thermostat(network, api_origin, ip, api_key, device_at=device_at)

    assert result.outcome is ConfigureOutcome.INVALID_INPUT
    assert not result.success
    assert result.error.startswith(error)
    assert looked_up == []
