"""The device protocol's rules in the core, without HTTP: identification, access, conflicts.

Each test drives `DeviceSessions` with the plain values the HTTP handler reads from a request
and checks what the thermostat would be answered or pushed.
"""

from __future__ import annotations

import pytest

from custom_components.thermostat_cloud.server import ThermostatService
from custom_components.thermostat_cloud.server.core import (
    BucketAccess,
    CommandError,
    DeviceSessions,
    Identity,
    IdentityClaim,
    MacNotResolvedError,
    NotWritableError,
    ObjectDescriptor,
    PutEntry,
    UnidentifiedDeviceError,
    next_revision,
)
from custom_components.thermostat_cloud.server.core.testing import harness
from tests.conftest import OTHER_SERIAL, SERIAL

from .conftest import pair

MAC = "18b4300aabbc"
MAC_SERIAL = "02AA01AC33140099"
SHARED = f"shared.{SERIAL}"


@pytest.fixture
def sessions(service: ThermostatService) -> DeviceSessions:
    """Return the service's device sessions."""
    return service.sessions


def claim(user_id: str) -> IdentityClaim:
    """Return what a request with this Basic user id says about its sender."""
    return IdentityClaim(user_id=user_id, password="secret", address="127.0.0.5")


# -- identification -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("request_claim", "serial"),
    [
        (IdentityClaim(user_id=f"d.{SERIAL}.abc"), SERIAL),
        (IdentityClaim(user_id=f"nest.{SERIAL}"), SERIAL),
        (IdentityClaim(user_id=SERIAL), SERIAL),
        (IdentityClaim(user_id="", client_id=f"d.{SERIAL}.x"), SERIAL),
        (IdentityClaim(user_id="not a serial!", device_id=SERIAL), SERIAL),
        (IdentityClaim(device_id="bad id"), None),
        (IdentityClaim(), None),
    ],
)
async def test_the_serial_comes_from_basic_user_then_client_then_device_id(
    sessions: DeviceSessions, request_claim: IdentityClaim, serial: str | None
) -> None:
    """Each identity firmware sends names the thermostat's state; none at all is no device."""
    identity = sessions.identify(request_claim)
    assert (identity.serial if identity else None) == serial


async def test_a_request_without_identity_is_refused(sessions: DeviceSessions) -> None:
    """A request naming no device is refused, not made a thermostat."""
    with pytest.raises(UnidentifiedDeviceError):
        sessions.contact(IdentityClaim(user_id="???"))


async def test_a_mac_identified_thermostat_is_known_by_the_serial_its_session_names(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """Before its subscribe names its serial it is asked to retry; then its keys translate."""
    mac_claim = claim(MAC)
    with pytest.raises(MacNotResolvedError):
        sessions.identify(mac_claim)
    sessions.entry(mac_claim, {"model": "Display-2.12"})
    assert service.devices.record(MAC) is None  # the MAC never becomes a thermostat of its own

    identity = sessions.contact(mac_claim, session=f"{MAC}{MAC_SERIAL}")
    assert identity == Identity(MAC_SERIAL, MAC)
    record = service.devices.record(MAC_SERIAL)
    assert record is not None
    assert (record.mac, record.model) == (MAC, "Display-2.12")  # what it said at entry
    # From now on the MAC alone identifies it, and its keys are its MAC's on the wire.
    assert sessions.identify(mac_claim) == Identity(MAC_SERIAL, MAC)
    assert identity.inbound(f"shared.{MAC.upper()}") == f"shared.{MAC_SERIAL}"
    assert identity.outbound(f"shared.{MAC_SERIAL}") == f"shared.{MAC}"


async def test_contact_notes_the_address_password_and_reported_firmware(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """The settings page finds the thermostat by address; old firmware is noticed.

    4.x that only heartbeats is too old to control; 4.x is not judged by its version alone.
    """
    claim = IdentityClaim(
        user_id=SERIAL, password="pw", address="127.0.0.9", firmware_version="4.2.5"
    )
    sessions.contact(claim)
    record = service.devices.record(SERIAL)
    assert record is not None
    assert record.software_version == "4.2.5"
    assert service.devices.record_at("127.0.0.9") is record
    assert service.devices.firmware_too_old(SERIAL) is None
    assert sessions.put(claim, []) == []  # the heartbeat, all 4.2.5 sends in issue #213
    assert service.devices.firmware_too_old(SERIAL) == "4.2.5"


# -- bucket access --------------------------------------------------------------------------


async def test_what_a_device_may_keep_ignore_or_is_refused(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """Its own and its home's buckets are kept; others known here are refused; the rest ignored."""
    pair(service, SERIAL)
    sessions.contact(claim(OTHER_SERIAL))
    home = harness(service).home_keys(SERIAL)
    access = sessions.bucket_access
    assert access(SERIAL, SHARED) is BucketAccess.KEEP
    assert all(access(SERIAL, key) is BucketAccess.KEEP for key in home)
    assert access(SERIAL, f"occupancy.{SERIAL}") is BucketAccess.IGNORE
    assert access(SERIAL, f"shared.{OTHER_SERIAL}") is BucketAccess.REFUSE
    assert access(OTHER_SERIAL, home[1]) is BucketAccess.REFUSE  # not its home
    assert access(SERIAL, "structure.oldcloudhome") is BucketAccess.IGNORE
    assert access(SERIAL, "user.123456") is BucketAccess.IGNORE
    assert access(SERIAL, "noidentifier") is BucketAccess.REFUSE


# -- PUT ------------------------------------------------------------------------------------


async def test_a_guarded_put_over_a_newer_revision_conflicts(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """The server's copy stands and the device is answered its revision, to retry against."""
    sessions.contact(claim(SERIAL))
    service.commands.set_temperature(SERIAL, 21)
    bucket = harness(service).bucket(SHARED)
    assert bucket is not None
    stale = bucket.revision - 1

    answer = sessions.put(
        claim(SERIAL), [PutEntry(SHARED, {"target_temperature": 18.0}, stale, stale)]
    )

    assert harness(service).value(SHARED)["target_temperature"] == 21.0
    assert answer == [bucket.descriptor()]
    assert "value" not in answer[0]
    # The server's change is still owed to the device.
    assert [b.key for b in harness(service).owed(SERIAL, {SHARED: bucket.timestamp})] == [SHARED]


async def test_a_put_over_the_current_revision_applies_and_is_not_echoed(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """The device's write is kept and answered with the new revision; it is not pushed back."""
    sessions.contact(claim(SERIAL))
    answer = sessions.put(claim(SERIAL), [PutEntry(SHARED, {"target_temperature": 19.5}, None, 0)])
    bucket = harness(service).bucket(SHARED)
    assert bucket is not None
    assert bucket.value["target_temperature"] == 19.5
    assert answer == [bucket.descriptor()]
    assert harness(service).owed(SERIAL, {SHARED: bucket.timestamp}) == []


async def test_a_put_keeps_its_own_buckets_beside_refused_and_ignored_ones(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """One foreign bucket does not throw away the change beside it; ignored ones are acked."""
    sessions.contact(claim(OTHER_SERIAL))
    sessions.contact(claim(SERIAL))
    answer = sessions.put(
        claim(SERIAL),
        [
            PutEntry(SHARED, {"current_temperature": 20.0}, None, 0),
            PutEntry(f"shared.{OTHER_SERIAL}", {"target_temperature": 30.0}, None, 0),
            PutEntry(f"occupancy.{SERIAL}", {"occupied": True}, None, 41),
        ],
    )
    assert [d["object_key"] for d in answer] == [SHARED, f"occupancy.{SERIAL}"]
    assert answer[1]["object_revision"] == 42
    assert harness(service).bucket(f"occupancy.{SERIAL}") is None
    assert harness(service).bucket(f"shared.{OTHER_SERIAL}") is None


async def test_a_put_the_store_could_not_save_is_refused_and_the_bucket_beside_it_kept(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """A field no saved document could hold: that bucket stays as it was, the other is kept.

    The HTTP surface turns such a body away before; the core holds the line by itself too.
    """
    sessions.contact(claim(SERIAL))
    device = f"device.{SERIAL}"
    with pytest.raises(CommandError, match="not valid Unicode"):
        sessions.put(
            claim(SERIAL),
            [
                PutEntry(SHARED, {"current_temperature": 20.5}, None, 0),
                PutEntry(device, {"name": "Hall\ud800"}, None, 0),
            ],
        )
    shared = harness(service).bucket(SHARED)
    assert shared is not None
    assert shared.value["current_temperature"] == 20.5
    assert harness(service).bucket(device) is None


async def test_a_put_of_only_foreign_buckets_is_refused(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """Nothing of another device is ever written or acknowledged."""
    sessions.contact(claim(OTHER_SERIAL))
    sessions.contact(claim(SERIAL))
    with pytest.raises(NotWritableError, match=f"shared.{OTHER_SERIAL}"):
        sessions.put(claim(SERIAL), [PutEntry(f"shared.{OTHER_SERIAL}", {"x": 1}, None, 0)])


@pytest.mark.parametrize(
    ("revision", "after"), [(0, 1), (-5, -4), (2**31 - 1, -(2**31)), (-(2**31), -(2**31) + 1)]
)
def test_revisions_wrap_within_what_firmware_holds(revision: int, after: int) -> None:
    """Firmware keeps signed 32-bit revisions: the one after the largest is the smallest."""
    assert next_revision(revision) == after


# -- subscribe ------------------------------------------------------------------------------


async def test_a_subscribe_applies_fresh_inline_values_and_sends_their_revision_back(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """New local data (revision and timestamp 0) is kept, and the device learns its revision."""
    identity = sessions.contact(claim(SERIAL), session="s1")
    subscription = sessions.subscribe(
        identity,
        "s1",
        [
            ObjectDescriptor(SHARED, 0, 0, {"current_temperature": 20.5}),
            ObjectDescriptor(f"shared.{OTHER_SERIAL}", 0, 0, {"current_temperature": 99.0}),
        ],
    )
    assert harness(service).value(SHARED)["current_temperature"] == 20.5
    assert harness(service).bucket(f"shared.{OTHER_SERIAL}") is None
    assert subscription.known == {SHARED: 0}
    assert [b.key for b in harness(service).owed(SERIAL, subscription.known)] == [SHARED]
    assert not subscription.setpoints_owed


async def test_a_subscribe_owed_a_setpoint_asks_firmware_to_answer_at_once(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """A pending setpoint rides on the first push: the device should not defer its reply."""
    identity = sessions.contact(claim(SERIAL), session="s1")
    sessions.put(claim(SERIAL), [PutEntry(SHARED, {"current_temperature": 20.0}, None, 0)])
    bucket = harness(service).bucket(SHARED)
    assert bucket is not None
    listed = [ObjectDescriptor(SHARED, bucket.revision, bucket.timestamp, None)]
    assert not sessions.subscribe(identity, "s1", listed).setpoints_owed

    service.commands.set_temperature(SERIAL, 22)
    assert sessions.subscribe(identity, "s1", listed).setpoints_owed


async def test_a_put_of_no_buckets_is_contact_only(
    service: ThermostatService, sessions: DeviceSessions
) -> None:
    """Firmware 4.x's heartbeat (`{"objects": []}`) keeps it known and available, nothing more."""
    assert sessions.put(claim(SERIAL), []) == []
    assert service.devices.record(SERIAL) is not None
    assert service.devices.is_available(SERIAL)
    assert harness(service).keys_of(SERIAL) == []
