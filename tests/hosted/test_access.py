"""Who may do what: API keys, scopes, serial restrictions, ownership and revocation."""

from __future__ import annotations

from collections.abc import Callable

from homeassistant.auth.const import GROUP_ID_ADMIN
from homeassistant.core import Context, HomeAssistant
import pytest
from pytest_homeassistant_custom_component.common import MockUser

from custom_components.thermostat_cloud.const import (
    CONF_OWNER,
    DOMAIN,
)
from custom_components.thermostat_cloud.entry_data import ThermostatCloudConfigEntry
from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import OTHER_SERIAL, SERIAL, add_thermostat
from thermostat_sim import SimulatedThermostat

from .conftest import CreateKey, HostedClient, Paired, PairThermostat, create_api_key, device_id

UNAUTHORIZED = {"error": "Unauthorized"}


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "Bearer",
        "Bearer ",
        "Basic c3ZjXzEyMzQ6",
        "Bearer svc_" + "0" * 64,  # well-formed, never issued
        "Bearer 0123456789abcdef",
    ],
)
async def test_requests_without_a_valid_key_are_401(
    paired: Paired, authorization: str | None
) -> None:
    api, service, _, _ = paired
    headers = {} if authorization is None else {"Authorization": authorization}

    for method, path in (
        ("GET", "/devices"),
        ("GET", f"/thermostat/{device_id(service)}/status"),
        ("DELETE", f"/thermostat/{device_id(service)}"),
        ("GET", "/no/such/path"),
    ):
        response, body = await api.request(method, path, headers=headers)
        assert (response.status, body) == (401, UNAUTHORIZED), (method, path)
    assert service.pairing.is_paired(SERIAL)


async def test_home_assistant_tokens_are_not_api_keys(
    paired: Paired, hass_access_token: str
) -> None:
    """An admin access token must not open the hosted API: it takes svc_ keys only."""
    api, _, _, _ = paired

    response, body = await api.get("/devices", hass_access_token)

    assert (response.status, body) == (401, UNAUTHORIZED)


async def test_key_is_accepted_with_any_case_of_bearer(paired: Paired) -> None:
    api, _, _, key = paired

    response, _ = await api.get("/devices", headers={"Authorization": f"bearer {key}"})

    assert response.status == 200


def reads(base: str) -> tuple[str, ...]:
    """Return the paths that read: the device list, and the thermostat's status and schedule."""
    return ("/devices", f"{base}/status", f"{base}/schedule")


def lacking(scope: str) -> tuple[int, dict[str, str]]:
    """Return the answer to a key without `scope`: its status and body."""
    return 403, {"error": "Insufficient scope", "requiredScope": scope}


async def test_read_scope_reads_but_does_not_write(paired: Paired, make_key: CreateKey) -> None:
    api, service, _, _ = paired
    key, base = await make_key(["read"]), f"/thermostat/{device_id(service)}"

    for path in reads(base):
        response, _ = await api.get(path, key)
        assert response.status == 200, path
    for method, path, body in (
        ("POST", f"{base}/temperature", {"value": 21, "mode": "heat"}),
        ("POST", f"{base}/temperature/range", {"low": 19, "high": 24}),
        ("POST", f"{base}/fan", {"mode": "on"}),
        ("POST", f"{base}/lock", {"enabled": False}),
        ("PUT", f"{base}/schedule", {"schedule": {}}),
        ("DELETE", base, None),
    ):
        response, answer = await api.request(method, path, key, body)
        assert (response.status, answer) == lacking("write"), path
    assert service.pairing.is_paired(SERIAL)
    assert "fan_mode" not in harness(service).value(f"device.{SERIAL}")


async def test_write_scope_writes_but_does_not_read(paired: Paired, make_key: CreateKey) -> None:
    api, service, _, _ = paired
    key, base = await make_key(["write"]), f"/thermostat/{device_id(service)}"

    for path in reads(base):
        response, answer = await api.get(path, key)
        assert (response.status, answer) == lacking("read"), path
    response, _ = await api.post(f"{base}/fan", key, {"mode": "on"})
    assert response.status == 200


async def test_serial_restriction_limits_list_and_access(
    service: ThermostatService, api: HostedClient, pair: PairThermostat, make_key: CreateKey
) -> None:
    await pair(SERIAL)
    await pair(OTHER_SERIAL)
    key = await make_key(serials=[OTHER_SERIAL])

    _, body = await api.get("/devices", key)
    assert [d["serial"] for d in body["devices"]] == [OTHER_SERIAL]

    denied = {"error": "Access denied to this device"}
    base = f"/thermostat/{device_id(service, SERIAL)}"
    for method, path, payload in (
        ("GET", f"{base}/status", None),
        ("GET", f"{base}/schedule", None),
        ("POST", f"{base}/temperature", {"value": 21, "mode": "heat"}),
        ("DELETE", base, None),
    ):
        response, answer = await api.request(method, path, key, payload)
        assert (response.status, answer) == (403, denied), path
    assert service.pairing.is_paired(SERIAL)

    response, _ = await api.get(f"/thermostat/{device_id(service, OTHER_SERIAL)}/status", key)
    assert response.status == 200


async def test_devices_paired_by_another_user_are_shared_and_not_deletable(
    service: ThermostatService, api: HostedClient, pair: PairThermostat, make_key: CreateKey
) -> None:
    await pair(SERIAL)
    await pair(OTHER_SERIAL, user_id="neighbour")
    key = await make_key()

    _, body = await api.get("/devices", key)
    assert {d["serial"]: d["accessType"] for d in body["devices"]} == {
        SERIAL: "owner",
        OTHER_SERIAL: "shared",
    }

    shared = f"/thermostat/{device_id(service, OTHER_SERIAL)}"
    response, _ = await api.post(f"{shared}/temperature", key, {"value": 20, "mode": "heat"})
    assert response.status == 200  # shared devices can be controlled
    response, body = await api.request("DELETE", shared, key)
    assert (response.status, body) == (403, {"error": "Only device owners can delete devices"})
    assert service.pairing.is_paired(OTHER_SERIAL)


async def test_the_pairing_user_owns_a_device(
    hass: HomeAssistant,
    service: ThermostatService,
    api: HostedClient,
    pair: PairThermostat,
    hass_admin_user: MockUser,
) -> None:
    """A device paired for a Home Assistant user is theirs; another user's key sees it shared."""
    other_admin = MockUser(name="Second admin", groups=[hass_admin_user.groups[0]])
    other_admin.add_to_hass(hass)
    await pair(SERIAL, user_id=other_admin.id)
    own_key = (await create_api_key(hass, other_admin))["key"]
    admin_key = (await create_api_key(hass, hass_admin_user))["key"]

    _, own = await api.get("/devices", own_key)
    _, theirs = await api.get("/devices", admin_key)

    assert own["devices"][0]["accessType"] == "owner"
    assert theirs["devices"][0]["accessType"] == "shared"
    response, _ = await api.request("DELETE", f"/thermostat/{device_id(service)}", own_key)
    assert response.status == 200


async def test_add_thermostat_owner_owns_it_through_the_hosted_api(
    hass: HomeAssistant,
    hub_entry: ThermostatCloudConfigEntry,
    api: HostedClient,
    make_thermostat: Callable[..., SimulatedThermostat],
    hass_owner_user: MockUser,
) -> None:
    """Paired in the UI for a user: that user's keys own it, another user's keys share it."""
    service = hub_entry.runtime_data.service
    admins = await hass.auth.async_get_group(GROUP_ID_ADMIN)
    assert admins is not None
    partner = MockUser(name="Partner", groups=[admins]).add_to_hass(hass)
    thermostat = make_thermostat()
    code = (await thermostat.passphrase())["value"]
    await add_thermostat(hass, hub_entry, code, **{CONF_OWNER: partner.id})
    partner_key = (await create_api_key(hass, partner))["key"]
    owner_key = (await create_api_key(hass, hass_owner_user))["key"]
    path = f"/thermostat/{device_id(service)}"

    _, listed = await api.get("/devices", owner_key)
    assert [d["accessType"] for d in listed["devices"]] == ["shared"]
    response, body = await api.request("DELETE", path, owner_key)
    assert (response.status, body) == (403, {"error": "Only device owners can delete devices"})
    assert service.pairing.is_paired(SERIAL)

    _, listed = await api.get("/devices", partner_key)
    assert [d["accessType"] for d in listed["devices"]] == ["owner"]
    response, _ = await api.request("DELETE", path, partner_key)
    assert response.status == 200
    assert not service.pairing.is_paired(SERIAL)


async def test_revoked_key_stops_working_at_once(hass: HomeAssistant, paired: Paired) -> None:
    api, service, _, key = paired
    response, _ = await api.get("/devices", key)
    assert response.status == 200
    key_id = service.api_keys.authenticate(key)
    assert key_id is not None

    await hass.services.async_call(
        DOMAIN,
        "revoke_api_key",
        {"key_id": key_id.key_id},
        blocking=True,
        context=Context(user_id=key_id.owner_id),
    )

    response, body = await api.get("/devices", key)
    assert (response.status, body) == (401, UNAUTHORIZED)


async def test_key_of_a_deactivated_user_stops_working(
    hass: HomeAssistant, paired: Paired, hass_admin_user: MockUser
) -> None:
    api, _, _, key = paired

    await hass.auth.async_update_user(hass_admin_user, is_active=False)

    response, body = await api.get("/devices", key)
    assert (response.status, body) == (401, UNAUTHORIZED)


async def test_delete_drops_the_device_from_serial_restrictions(
    service: ThermostatService, api: HostedClient, pair: PairThermostat, make_key: CreateKey
) -> None:
    """Unpairing revokes all shares: a key restricted to the device does not get it back."""
    thermostat = await pair(SERIAL)
    owner_key = await make_key()
    restricted = await make_key(["read"], serials=[SERIAL])
    ident = device_id(service)

    response, _ = await api.request("DELETE", f"/thermostat/{ident}", owner_key)
    assert response.status == 200
    code = (await thermostat.passphrase())["value"]
    assert service.pairing.register(code).success

    _, body = await api.get("/devices", restricted)
    assert body == {"devices": []}
    response, body = await api.get(f"/thermostat/{ident}/status", restricted)
    assert (response.status, body) == (403, {"error": "Access denied to this device"})
    _, body = await api.get("/devices", owner_key)
    assert [d["id"] for d in body["devices"]] == [ident]


async def test_use_is_recorded_on_the_key(paired: Paired) -> None:
    api, service, _, key = paired
    record = service.api_keys.authenticate(key)
    assert record is not None
    assert record.last_used is None

    await api.get("/devices", key)

    assert record.last_used is not None


async def test_not_running_is_503(
    hass: HomeAssistant,
    api: HostedClient,
    hub_entry: ThermostatCloudConfigEntry,
    make_key: CreateKey,
) -> None:
    key = await make_key()
    assert await hass.config_entries.async_unload(hub_entry.entry_id)

    response, body = await api.get("/devices", key)

    assert (response.status, body) == (503, {"error": "Thermostat Cloud is not running"})
