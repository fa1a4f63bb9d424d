"""The admin-only actions that create, list and revoke hosted API keys, and how keys are kept."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError, Unauthorized
from homeassistant.helpers.json import json_bytes
import probatio
import pytest
from pytest_homeassistant_custom_component.common import MockUser

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.entry_data import ThermostatCloudConfigEntry
from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import OTHER_SERIAL, SERIAL

from .conftest import HostedClient, PairThermostat, create_api_key

KEY_RE = re.compile(r"^svc_[0-9a-f]{64}$")
VALID_DATA: dict[str, dict[str, Any]] = {
    "create_api_key": {"name": "x", "scopes": ["read"]},
    "list_api_keys": {},
    "revoke_api_key": {"key_id": "abc"},
}


async def call(hass: HomeAssistant, action: str, user: MockUser | None, **data: Any) -> Any:
    """Call one of the key actions as `user` (None: no user, like an automation)."""
    return await hass.services.async_call(
        DOMAIN,
        action,
        data,
        blocking=True,
        return_response=action != "revoke_api_key",
        context=Context(user_id=user.id if user else None),
    )


async def test_create_returns_the_key_once_and_stores_only_its_hash(
    hass: HomeAssistant,
    service: ThermostatService,
    pair: PairThermostat,
    hass_admin_user: MockUser,
) -> None:
    await pair()

    created = await create_api_key(
        hass, hass_admin_user, ["write", "read"], [SERIAL.lower()], name="Phone widget"
    )

    secret = created.pop("key")
    assert KEY_RE.fullmatch(secret)
    assert created == {
        "id": created["id"],
        "name": "Phone widget",
        "owner_id": hass_admin_user.id,
        "owner_name": hass_admin_user.name,
        "scopes": ["read", "write"],
        "serials": [SERIAL],  # as the server knows it, whatever case was typed
        "created": created["created"],
        "last_used": None,
    }
    stored = json_bytes(harness(service).snapshot()).decode()
    assert secret not in stored
    assert secret[4:] not in stored
    assert hashlib.sha256(secret.encode()).hexdigest() in stored

    listed = await call(hass, "list_api_keys", hass_admin_user)
    assert listed == {"api_keys": [created]}
    assert secret not in json.dumps(listed)
    assert "key_hash" not in json.dumps(listed)


async def test_keys_are_unique(
    hass: HomeAssistant, service: ThermostatService, hass_admin_user: MockUser
) -> None:
    first = await create_api_key(hass, hass_admin_user)
    second = await create_api_key(hass, hass_admin_user)

    assert first["key"] != second["key"]
    assert first["id"] != second["id"]


async def test_keys_survive_a_restart(
    hass: HomeAssistant,
    hub_entry: ThermostatCloudConfigEntry,
    api: HostedClient,
    pair: PairThermostat,
    hass_admin_user: MockUser,
) -> None:
    await pair()
    secret = (await create_api_key(hass, hass_admin_user, ["read"], [SERIAL]))["key"]

    assert await hass.config_entries.async_reload(hub_entry.entry_id)
    await hass.async_block_till_done()

    response, body = await api.get("/devices", secret)
    assert response.status == 200
    assert [d["serial"] for d in body["devices"]] == [SERIAL]
    record = hub_entry.runtime_data.service.api_keys.authenticate(secret)
    assert record is not None
    assert record.scopes == ["read"]


async def test_revoke_deletes_the_key(
    hass: HomeAssistant, service: ThermostatService, hass_admin_user: MockUser
) -> None:
    created = await create_api_key(hass, hass_admin_user)

    await call(hass, "revoke_api_key", hass_admin_user, key_id=created["id"])

    assert service.api_keys.authenticate(created["key"]) is None
    assert await call(hass, "list_api_keys", hass_admin_user) == {"api_keys": []}
    assert created["id"] not in json_bytes(harness(service).snapshot()).decode()


@pytest.mark.parametrize("action", ["create_api_key", "list_api_keys", "revoke_api_key"])
async def test_actions_are_for_administrators_only(
    hass: HomeAssistant,
    service: ThermostatService,
    hass_read_only_user: MockUser,
    action: str,
) -> None:
    data = VALID_DATA[action]

    with pytest.raises(Unauthorized):
        await call(hass, action, hass_read_only_user, **data)
    assert service.api_keys.records() == []


async def test_a_key_needs_a_user_to_belong_to(
    hass: HomeAssistant, service: ThermostatService
) -> None:
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "create_api_key", None, name="Automation", scopes=["read"])

    assert err.value.translation_key == "api_key_owner_required"
    assert service.api_keys.records() == []


async def test_unknown_serials_are_refused(
    hass: HomeAssistant, service: ThermostatService, pair: PairThermostat, hass_admin_user: MockUser
) -> None:
    await pair()

    with pytest.raises(ServiceValidationError) as err:
        await create_api_key(hass, hass_admin_user, serials=[SERIAL, OTHER_SERIAL])

    assert err.value.translation_key == "unknown_serial"
    assert err.value.translation_placeholders == {"serial": OTHER_SERIAL}
    assert service.api_keys.records() == []


async def test_revoking_an_unknown_key_is_refused(
    hass: HomeAssistant, service: ThermostatService, hass_admin_user: MockUser
) -> None:
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "revoke_api_key", hass_admin_user, key_id="0123456789ab")

    assert err.value.translation_key == "unknown_api_key"


@pytest.mark.parametrize(
    "data",
    [
        {"name": "x", "scopes": []},
        {"name": "x", "scopes": ["admin"]},
        {"name": "  ", "scopes": ["read"]},
        {"scopes": ["read"]},
    ],
)
async def test_create_validates_its_fields(
    hass: HomeAssistant, service: ThermostatService, hass_admin_user: MockUser, data: dict[str, Any]
) -> None:
    with pytest.raises(probatio.Invalid):
        await call(hass, "create_api_key", hass_admin_user, **data)

    assert service.api_keys.records() == []


@pytest.mark.parametrize("action", ["create_api_key", "list_api_keys", "revoke_api_key"])
async def test_actions_need_the_integration_running(
    hass: HomeAssistant,
    hub_entry: ThermostatCloudConfigEntry,
    hass_admin_user: MockUser,
    action: str,
) -> None:
    assert await hass.config_entries.async_unload(hub_entry.entry_id)
    data = VALID_DATA[action]

    with pytest.raises(ServiceValidationError) as err:
        await call(hass, action, hass_admin_user, **data)

    assert err.value.translation_key == "not_loaded"
