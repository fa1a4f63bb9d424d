"""What API clients may see, decided in the core: reach, ownership, withheld fields, summaries.

The control and hosted APIs only word these answers; each test reads the service's `clients`
part as a client's request would and checks what that client would be shown.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from custom_components.thermostat_cloud.server import ApiKey, Scope, ThermostatService
from custom_components.thermostat_cloud.server.core import (
    WITHHELD_FIELDS,
    Access,
    Clients,
    IdentityClaim,
    too_old_to_control,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import OTHER_SERIAL, SERIAL

from .conftest import pair

ANN, BOB = "user-ann", "user-bob"


@pytest.fixture
def clients(service: ThermostatService) -> Clients:
    """Return the service's read side for clients."""
    return service.clients


def contact(service: ThermostatService, serial: str) -> str:
    """Let a thermostat make contact (it gets a device record); return its device id."""
    service.sessions.contact(IdentityClaim(user_id=serial, address="127.0.0.5"))
    record = service.devices.record(serial)
    assert record is not None
    return record.device_id


def key_of(
    service: ThermostatService, user_id: str, serials: Iterable[str] | None = None
) -> ApiKey:
    """Return a new read key of a user, optionally restricted to some thermostats."""
    return service.api_keys.create("test", user_id, [Scope.READ], serials).key


def serials_of(clients: Clients, key: ApiKey) -> dict[str, Access]:
    return {device.serial: access for device, access in clients.devices_of(key)}


# -- reach and ownership ----------------------------------------------------------------------


async def test_the_user_who_paired_owns_and_other_users_share(
    service: ThermostatService, clients: Clients
) -> None:
    """Only Ann, who paired it, may remove the thermostat; Bob sees and controls it shared."""
    contact(service, SERIAL)
    pair(service, SERIAL, ANN)

    assert clients.access(ANN, SERIAL) is Access.OWNER
    assert clients.access(BOB, SERIAL) is Access.SHARED
    assert serials_of(clients, key_of(service, ANN)) == {SERIAL: Access.OWNER}
    assert serials_of(clients, key_of(service, BOB)) == {SERIAL: Access.SHARED}


async def test_a_thermostat_of_the_home_is_owned_by_every_user(
    service: ThermostatService, clients: Clients
) -> None:
    """Paired without naming a user (the "Add thermostat" flow), it belongs to the home."""
    contact(service, SERIAL)
    pair(service, SERIAL)

    assert clients.access(ANN, SERIAL) is Access.OWNER
    assert serials_of(clients, key_of(service, BOB)) == {SERIAL: Access.OWNER}


async def test_an_unpaired_thermostat_exists_for_no_user(
    service: ThermostatService, clients: Clients
) -> None:
    """It is in nobody's account: not listed, its id finds nothing, nobody owns it."""
    device_id = contact(service, SERIAL)

    assert clients.paired_device(device_id) is None
    assert clients.devices_of(key_of(service, ANN)) == []
    assert clients.access(ANN, SERIAL) is None


async def test_an_unpaired_thermostat_is_gone_for_its_former_owner(
    service: ThermostatService, clients: Clients
) -> None:
    """After unpairing, the id that found it answers nothing, as after the hosted DELETE."""
    device_id = contact(service, SERIAL)
    pair(service, SERIAL, ANN)
    found = clients.paired_device(device_id)
    assert found is not None
    assert (found.serial, found.device_id) == (SERIAL, device_id)

    assert service.pairing.unpair(SERIAL)

    assert clients.paired_device(device_id) is None
    assert clients.devices_of(key_of(service, ANN)) == []


async def test_a_restricted_key_reaches_only_its_thermostats(
    service: ThermostatService, clients: Clients
) -> None:
    """A key limited to one serial lists only that one, however many the user owns."""
    for serial in (SERIAL, OTHER_SERIAL):
        contact(service, serial)
        pair(service, serial, ANN)

    assert serials_of(clients, key_of(service, ANN)) == {
        SERIAL: Access.OWNER,
        OTHER_SERIAL: Access.OWNER,
    }
    assert serials_of(clients, key_of(service, ANN, [OTHER_SERIAL])) == {OTHER_SERIAL: Access.OWNER}
    assert serials_of(clients, key_of(service, ANN, [])) == {}


# -- what a client reads ------------------------------------------------------------------------


async def test_the_lock_pin_hash_never_reaches_a_client(
    service: ThermostatService, clients: Clients
) -> None:
    """The lock is shown as on, but its PIN hash (10,000 guesses from the PIN) stays here."""
    contact(service, SERIAL)
    pair(service, SERIAL, ANN)
    service.commands.set_temperature_lock(SERIAL, True, temp_min=18, temp_max=24, pin="1234")
    device_key = f"device.{SERIAL}"
    stored = harness(service).value(device_key)
    assert stored["temperature_lock_pin_hash"]  # the thermostat gets it, clients do not

    read = {bucket.key: bucket for bucket in clients.buckets(SERIAL)}

    assert read[device_key].value["temperature_lock"] is True
    assert "temperature_lock_pin_hash" in WITHHELD_FIELDS
    assert all("temperature_lock_pin_hash" not in bucket.value for bucket in read.values())


async def test_a_client_reads_a_copy_of_the_thermostats_own_buckets(
    service: ThermostatService, clients: Clients
) -> None:
    """Not the home's user and structure buckets; and what a surface adds stays out of them."""
    contact(service, SERIAL)
    pair(service, SERIAL, ANN)
    shared_key = f"shared.{SERIAL}"
    harness(service).merge(shared_key, {"target_temperature": 21.0})
    assert any(key.startswith("structure.") for key in (b.key for b in harness(service).buckets()))

    read = clients.buckets(SERIAL)
    keys = [bucket.key for bucket in read]
    assert keys == sorted(keys)
    assert all(key.partition(".")[2] == SERIAL for key in keys)
    shared = next(bucket for bucket in read if bucket.key == shared_key)
    stored = harness(service).bucket(shared_key)
    assert stored is not None
    assert (shared.revision, shared.timestamp) == (stored.revision, stored.timestamp)

    shared.value["auto_away"] = 2  # the hosted API overlays what its clients read

    assert "auto_away" not in harness(service).value(shared_key)


# -- summaries --------------------------------------------------------------------------------


async def test_the_home_lists_unpaired_and_paired_thermostats_alike(
    service: ThermostatService, clients: Clients
) -> None:
    """The control API's list: every known thermostat, each saying whether it is paired."""
    unpaired_id = contact(service, SERIAL)
    paired_id = contact(service, OTHER_SERIAL)
    pair(service, OTHER_SERIAL)
    harness(service).merge(f"shared.{OTHER_SERIAL}", {"name": "Hallway"})

    summaries = {device.serial: device for device in clients.known_devices()}

    assert list(summaries) == sorted([SERIAL, OTHER_SERIAL])
    unpaired, paired = summaries[SERIAL], summaries[OTHER_SERIAL]
    assert (unpaired.device_id, unpaired.name, unpaired.paired) == (unpaired_id, SERIAL, False)
    assert (paired.device_id, paired.name, paired.paired) == (paired_id, "Hallway", True)
    assert (unpaired.subscriptions, paired.subscriptions) == (0, 0)


# -- firmware -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "too_old"),
    [
        ("4.2.5", True),
        ("4.0", True),
        ("5.9.4-5", False),
        ("6.0", False),
        (None, False),
        ("not a version", False),
        ("45", False),
    ],
)
def test_firmware_before_5_cannot_be_controlled(version: str | None, too_old: bool) -> None:
    """Only a version known to be 4.x or older is too old: an unknown one is not held against it."""
    assert too_old_to_control(version) is too_old
