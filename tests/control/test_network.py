"""Finding thermostats on the network and pointing them at Home Assistant.

`POST /api/scan-network` and `POST /api/configure-device` against fake thermostat settings
servers bound on loopback addresses (127.0.0.x): no test touches any other address.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
import socket
from typing import Any

import aiohttp
from homeassistant.core import HomeAssistant
from homeassistant.helpers.aiohttp_client import SERVER_SOFTWARE
import pytest

from custom_components.thermostat_cloud.const import DATA_CONTROL_API
from custom_components.thermostat_cloud.server import LocalNetwork, ThermostatService
from tests.conftest import SERIAL
from tests.settings_pages import DEFAULT_CLOUD_HOST, FakeThermostatSettings

from .conftest import URL, Client


@pytest.fixture
def network(client: Client, local_network: LocalNetwork) -> LocalNetwork:
    """Point the control API's settings client at the fake thermostats' port."""
    return local_network


@pytest.fixture
def start_thermostat(
    network: LocalNetwork, start_settings_page: Callable[..., Any]
) -> Callable[..., Any]:
    """Serve fake settings APIs on loopback addresses."""
    return start_settings_page


# -- scan-network --------------------------------------------------------------------------------


async def test_scan_finds_thermostats_on_the_subnet_of_api_origin(
    client: Client, service: ThermostatService, start_thermostat: Callable[..., Any]
) -> None:
    origin = service.config.api_origin
    hallway = await start_thermostat("127.0.0.2", FakeThermostatSettings("Hallway", origin))
    await start_thermostat(
        "127.0.0.3", FakeThermostatSettings("Bedroom", "https://frontdoor.example:443")
    )

    resp = await client.post(f"{URL}/api/scan-network")
    assert resp.status == 200
    # Home Assistant's shared HTTP client asked (the integration opens no client of its own).
    assert hallway.user_agents == [SERVER_SOFTWARE]
    assert await resp.json() == {
        "devices": [
            {
                "ip": "127.0.0.2",
                # The settings CGI answers its server only: no name.
                "device_name": "",
                "cloudregisterurl": origin,
                "configured": True,
            },
            {
                "ip": "127.0.0.3",
                "device_name": "",
                "cloudregisterurl": "https://frontdoor.example:443",
                "configured": False,
            },
        ],
        "subnet": "127.0.0.0/24",
    }


async def test_scan_uses_the_session_it_is_given(
    client: Client,
    service: ThermostatService,
    network: LocalNetwork,
    start_thermostat: Callable[..., Any],
) -> None:
    """The server core asks through its caller's session (the open listener run standalone)."""
    hallway = await start_thermostat(
        "127.0.0.2", FakeThermostatSettings("Hallway", service.config.api_origin)
    )

    async with aiohttp.ClientSession() as own:
        network.session = own
        resp = await client.post(f"{URL}/api/scan-network")
        assert resp.status == 200
        assert [device["ip"] for device in (await resp.json())["devices"]] == ["127.0.0.2"]
    assert hallway.user_agents == [aiohttp.http.SERVER_SOFTWARE]  # aiohttp's default


async def test_scan_counts_a_trailing_slash_as_configured(
    client: Client, service: ThermostatService, start_thermostat: Callable[..., Any]
) -> None:
    await start_thermostat(
        "127.0.0.2", FakeThermostatSettings("Hallway", f"{service.config.api_origin}/")
    )
    devices = (await (await client.post(f"{URL}/api/scan-network")).json())["devices"]
    assert [d["configured"] for d in devices] == [True]


async def test_scan_skips_answers_that_are_no_settings_and_drops_odd_fields(
    client: Client, service: ThermostatService, start_thermostat: Callable[..., Any]
) -> None:
    """A scan lists thermostats only, and only the settings fields it understands.

    A host that answers with something other than a JSON object is not a thermostat; a
    settings object's fields that are not strings are reported empty, not as they came.
    """
    await start_thermostat("127.0.0.2", FakeThermostatSettings("", "", answer="<html>admin</html>"))
    await start_thermostat("127.0.0.3", FakeThermostatSettings("", "", answer='["Hallway"]'))
    await start_thermostat(
        "127.0.0.4",
        FakeThermostatSettings("", "", answer='{"device_name": 7, "cloudregisterurl": {"a": 1}}'),
    )
    await start_thermostat(
        "127.0.0.5",
        FakeThermostatSettings("", "", answer='{"device_name": NaN, "cloudregisterurl": NaN}'),
    )
    await start_thermostat("127.0.0.6", FakeThermostatSettings("Den", service.config.api_origin))

    resp = await client.post(f"{URL}/api/scan-network")

    assert resp.status == 200
    assert (await resp.json())["devices"] == [
        {"ip": "127.0.0.4", "device_name": "", "cloudregisterurl": None, "configured": False},
        {"ip": "127.0.0.5", "device_name": "", "cloudregisterurl": None, "configured": False},
        {
            "ip": "127.0.0.6",
            "device_name": "",
            "cloudregisterurl": service.config.api_origin,
            "configured": True,
        },
    ]


@pytest.mark.parametrize(
    "origin",
    ["/no-host", "http://[::1]:8000"],
    ids=["no host", "IPv6 has no /24"],
)
async def test_scan_needs_an_ipv4_origin(
    client: Client, service: ThermostatService, network: LocalNetwork, origin: str
) -> None:
    service.config.api_origin = origin
    resp = await client.post(f"{URL}/api/scan-network")
    assert resp.status == 400
    assert isinstance((await resp.json())["error"], str)


async def test_scan_reports_a_name_that_does_not_resolve(
    hass: HomeAssistant, client: Client, service: ThermostatService
) -> None:

    class Unresolvable(LocalNetwork):
        @staticmethod
        async def resolve_ipv4(host: str) -> str:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    api = hass.data[DATA_CONTROL_API]
    api.network = Unresolvable(api.network.session)
    service.config.api_origin = "http://thermostats.home.arpa:8000"
    resp = await client.post(f"{URL}/api/scan-network")
    assert resp.status == 400
    assert await resp.json() == {"error": "Cannot resolve thermostats.home.arpa to an IPv4 address"}


async def test_scan_resolves_a_host_name_and_skips_hosts_that_answer_an_error(
    client: Client, service: ThermostatService, start_thermostat: Callable[..., Any]
) -> None:
    """An address given by name is scanned by its IPv4 /24; a page answering 404 is no thermostat."""
    port = service.config.api_origin.rsplit(":", 1)[1]
    service.config.api_origin = f"http://localhost:{port}"  # /etc/hosts: 127.0.0.1
    await start_thermostat("127.0.0.2", FakeThermostatSettings("Hallway", "", read_status=404))
    await start_thermostat("127.0.0.3", FakeThermostatSettings("Den", ""))

    resp = await client.post(f"{URL}/api/scan-network")

    assert resp.status == 200
    answer = await resp.json()
    assert answer["subnet"] == "127.0.0.0/24"
    assert [device["ip"] for device in answer["devices"]] == ["127.0.0.3"]


# -- configure-device ----------------------------------------------------------------------------


async def test_configure_points_the_thermostat_at_this_server(
    client: Client, service: ThermostatService, start_thermostat: Callable[..., Any]
) -> None:
    fake = await start_thermostat(
        "127.0.0.2", FakeThermostatSettings("Hallway", "https://frontdoor.example:443")
    )
    resp = await client.post(f"{URL}/api/configure-device", json={"ip": "127.0.0.2"})
    assert resp.status == 200
    assert await resp.json() == {"success": True, "device_name": "Hallway"}
    assert fake.posts == [{"endpoint": service.config.api_origin}]

    devices = (await (await client.post(f"{URL}/api/scan-network")).json())["devices"]
    assert devices[0]["configured"] is True


async def test_configure_asks_for_the_serial_when_the_thermostat_wants_it(
    client: Client, service: ThermostatService, start_thermostat: Callable[..., Any]
) -> None:
    fake = await start_thermostat(
        "127.0.0.2", FakeThermostatSettings("Hallway", "", require_api_key=SERIAL)
    )
    resp = await client.post(f"{URL}/api/configure-device", json={"ip": "127.0.0.2"})
    assert resp.status == 401
    body = await resp.json()
    assert body["success"] is False
    assert body["auth_required"] is True

    resp = await client.post(
        f"{URL}/api/configure-device", json={"ip": "127.0.0.2", "api_key": SERIAL}
    )
    assert resp.status == 200
    assert (await resp.json())["success"] is True
    assert fake.posts[-1] == {"endpoint": service.config.api_origin, "api_key": SERIAL}


async def test_configure_takes_the_key_a_thermostat_just_started_hands_out(
    client: Client, service: ThermostatService, start_thermostat: Callable[..., Any]
) -> None:
    """Within 30 minutes of its start the settings CGI gives its key, once: no serial needed."""
    fake = await start_thermostat(
        "127.0.0.2",
        FakeThermostatSettings(
            "Hallway",
            f"https://{DEFAULT_CLOUD_HOST}/entry",
            require_api_key="Zq7-secret",
            hostname=SERIAL,
        ),
    )
    fake.restart()
    resp = await client.post(f"{URL}/api/configure-device", json={"ip": "127.0.0.2"})
    assert resp.status == 200, await resp.text()
    assert fake.posts == [
        {"endpoint": service.config.api_origin},
        {"setup": "true"},
        {"api_key": "Zq7-secret", "endpoint": service.config.api_origin},
    ]
    assert fake.cloudregisterurl == f"{service.config.api_origin}/entry"

    # Used once: pointed elsewhere again, it wants its key whatever it did before.
    fake.cloudregisterurl = f"https://{DEFAULT_CLOUD_HOST}/entry"
    resp = await client.post(f"{URL}/api/configure-device", json={"ip": "127.0.0.2"})
    assert resp.status == 401


async def test_configure_uses_the_key_a_thermostat_that_called_here_sent(
    client: Client, service: ThermostatService, start_thermostat: Callable[..., Any]
) -> None:
    """A thermostat that has called this server is configured without asking for its key.

    A thermostat's Basic password is its own secret, which its settings CGI takes as its
    key: one that has called this server from that address is configured without asking.
    """
    fake = await start_thermostat(
        "127.0.0.2", FakeThermostatSettings("Hallway", "", require_api_key="Zq7-secret")
    )
    token = base64.b64encode(f"d.{SERIAL}.x:Zq7-secret".encode()).decode()
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    async with (
        aiohttp.ClientSession(connector=connector) as http,
        http.get(
            f"{service.config.api_origin}/entry", headers={"Authorization": f"Basic {token}"}
        ) as resp,
    ):
        assert resp.status == 200
    resp = await client.post(f"{URL}/api/configure-device", json={"ip": "127.0.0.2"})
    assert resp.status == 200, await resp.text()
    assert fake.posts == [{"api_key": "Zq7-secret", "endpoint": service.config.api_origin}]
    assert fake.cloudregisterurl == f"{service.config.api_origin}/entry"


async def test_configure_with_the_serial_gets_the_real_key_from_the_thermostat(
    client: Client, service: ThermostatService, start_thermostat: Callable[..., Any]
) -> None:
    """The spec's retry with the serial as key configures a thermostat whose key is its secret.

    The spec's retry with `api_key` = serial also works when the thermostat's key is its
    own secret: its CGI gives the key to whoever names its hostname (the serial).
    """
    fake = await start_thermostat(
        "127.0.0.2",
        FakeThermostatSettings("Hallway", "", require_api_key="Zq7-secret", hostname=SERIAL),
    )
    resp = await client.post(
        f"{URL}/api/configure-device", json={"ip": "127.0.0.2", "api_key": SERIAL.lower()}
    )
    assert resp.status == 200, await resp.text()
    assert fake.posts[-2] == {"initialize": SERIAL}
    assert fake.posts[-1] == {"api_key": "Zq7-secret", "endpoint": service.config.api_origin}


async def test_configure_refuses_an_https_origin(
    client: Client, service: ThermostatService, start_thermostat: Callable[..., Any]
) -> None:
    fake = await start_thermostat("127.0.0.2", FakeThermostatSettings("Hallway", ""))
    service.config.api_origin = "https://ha.example:8443"
    resp = await client.post(f"{URL}/api/configure-device", json={"ip": "127.0.0.2"})
    assert resp.status == 400
    assert "http" in (await resp.json())["error"]
    assert fake.posts == []


async def test_configure_unreachable_thermostat_is_502(
    client: Client, start_thermostat: Callable[..., Any]
) -> None:
    resp = await client.post(f"{URL}/api/configure-device", json={"ip": "127.0.0.9"})
    assert resp.status == 502
    body = await resp.json()
    assert body["success"] is False
    assert "127.0.0.9" in body["error"]


async def test_configure_thermostat_that_fails_is_502(
    client: Client, start_thermostat: Callable[..., Any]
) -> None:
    await start_thermostat("127.0.0.2", FakeThermostatSettings("Hallway", "", status=500))
    resp = await client.post(f"{URL}/api/configure-device", json={"ip": "127.0.0.2"})
    assert resp.status == 502
    assert await resp.json() == {
        "success": False,
        "error": "Thermostat at 127.0.0.2 answered HTTP 500",
    }


@pytest.mark.parametrize(
    ("reply", "device_name"),
    [
        ((200, "OK"), ""),
        ((200, ""), ""),
        ((200, '["Hallway"]'), ""),
        ((200, '{"device_name": 7}'), ""),
        ((200, '{"device_name": null}'), ""),
        ((201, '{"device_name": "Hallway"}'), "Hallway"),
        ((204, ""), ""),
    ],
)
async def test_configure_succeeds_on_any_2xx_whatever_the_answer(
    client: Client,
    service: ThermostatService,
    start_thermostat: Callable[..., Any],
    reply: tuple[int, str],
    device_name: str,
) -> None:
    """The thermostat took the new URL: success, with its name only when it gave one."""
    status, answer = reply
    fake = await start_thermostat(
        "127.0.0.2", FakeThermostatSettings("Hallway", "", status=status, answer=answer)
    )

    resp = await client.post(f"{URL}/api/configure-device", json={"ip": "127.0.0.2"})

    assert resp.status == 200
    assert await resp.json() == {"success": True, "device_name": device_name}
    assert fake.cloudregisterurl == f"{service.config.api_origin}/entry"


@pytest.mark.parametrize(
    "body",
    [{}, {"ip": "thermostat.local"}, {"ip": 7}, {"ip": "127.0.0.2", "api_key": 5}, []],
)
async def test_configure_needs_an_ip_address(
    client: Client, network: LocalNetwork, body: Any
) -> None:
    resp = await client.post(f"{URL}/api/configure-device", json=body)
    assert resp.status == 400
    data = await resp.json()
    assert data["success"] is False
    assert isinstance(data["error"], str)
