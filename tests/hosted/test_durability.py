"""The hosted API's unpairing and the API key actions survive a crash right after they answer.

Each test takes the service's file at the moment of the answer (what a SIGKILL then leaves;
Home Assistant's own subentries as it last saved them), sets the hub up again from it and
checks what a client or the user then sees. `tests/test_crash.py` kills a real Home
Assistant.
"""

from __future__ import annotations

import copy
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
import pytest
from pytest_homeassistant_custom_component.common import MockUser

from custom_components.thermostat_cloud.const import DOMAIN, STORAGE_KEY
from custom_components.thermostat_cloud.entry_data import ThermostatCloudConfigEntry
from custom_components.thermostat_cloud.pairing_sync import thermostat_subentries
from custom_components.thermostat_cloud.server.model.api_keys import hash_key
from tests.conftest import SERIAL
from tests.test_durability import restart_after_crash

from .conftest import HostedClient, Paired, create_api_key, device_id


def stored_key_hashes(hass_storage: dict[str, Any]) -> set[str]:
    """Return the API key hashes in the service's file."""
    extra = hass_storage[STORAGE_KEY]["data"]["extra"]
    return {key["key_hash"] for key in extra.get("api_keys", [])}


async def test_a_thermostat_deleted_through_the_api_just_before_a_crash_stays_deleted(
    hass: HomeAssistant,
    hass_storage: dict[str, Any],
    hub_entry: ThermostatCloudConfigEntry,
    paired: Paired,
) -> None:
    """A thermostat deleted through the hosted API stays deleted across a crash.

    `DELETE /thermostat/{id}` answered; Home Assistant did not save the subentry's removal
    before it was killed: after the restart the thermostat is still deleted, not paired
    again (before, its subentry came back, unpaired, with unavailable entities).
    """
    (subentry,) = hub_entry.subentries.values()
    response, _ = await paired.api.request(
        "DELETE", f"/thermostat/{device_id(paired.service)}", paired.key
    )
    assert response.status == 200
    service_file = copy.deepcopy(hass_storage[STORAGE_KEY])
    await paired.thermostat.stop()

    await restart_after_crash(hass, hub_entry, hass_storage, service_file, [subentry])

    assert not thermostat_subentries(hub_entry)
    assert not hub_entry.runtime_data.service.pairing.is_paired(SERIAL)
    assert er.async_get(hass).async_get_entity_id("climate", DOMAIN, SERIAL) is None
    _, listed = await paired.api.get("/devices", paired.key)
    assert listed["devices"] == []


async def test_an_api_key_is_saved_before_it_is_shown(
    hass: HomeAssistant,
    hass_storage: dict[str, Any],
    hass_admin_user: MockUser,
    hub_entry: ThermostatCloudConfigEntry,
    api: HostedClient,
) -> None:
    """An API key the user was shown works after a crash; a revoked one stays revoked.

    The key is shown once: when `create_api_key` answers it is already in the service's
    file, so a crash right after cannot leave the user holding a key that does not work.
    Revoking likewise: a revoked key must not come back.
    """
    created = await create_api_key(hass, hass_admin_user, ["read"])
    assert hash_key(created["key"]) in stored_key_hashes(hass_storage)
    service_file = copy.deepcopy(hass_storage[STORAGE_KEY])

    await restart_after_crash(hass, hub_entry, hass_storage, service_file, [])
    response, _ = await api.get("/devices", created["key"])
    assert response.status == 200

    await hass.services.async_call(
        DOMAIN, "revoke_api_key", {"key_id": created["id"]}, blocking=True
    )
    assert hash_key(created["key"]) not in stored_key_hashes(hass_storage)
    service_file = copy.deepcopy(hass_storage[STORAGE_KEY])

    await restart_after_crash(hass, hub_entry, hass_storage, service_file, [])
    response, _ = await api.get("/devices", created["key"])
    assert response.status == 401


async def test_a_stored_api_key_that_does_not_parse_leaves_the_others_working(
    hass: HomeAssistant,
    *,
    hass_storage: dict[str, Any],
    hass_admin_user: MockUser,
    hub_entry: ThermostatCloudConfigEntry,
    api: HostedClient,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A damaged key record in the file is skipped with a warning; the hub and keys load."""
    created = await create_api_key(hass, hass_admin_user, ["read"])
    service_file = copy.deepcopy(hass_storage[STORAGE_KEY])
    service_file["data"]["extra"]["api_keys"].append({"key_id": "0bad", "scopes": ["fly"]})

    await restart_after_crash(hass, hub_entry, hass_storage, service_file, [])

    response, _ = await api.get("/devices", created["key"])
    assert response.status == 200
    assert "Ignoring a stored API key that does not parse" in caplog.text
