"""Pairing: claiming a code, unpairing, and the home a paired thermostat joins.

The one pairing implementation, for the host's flow and the control API alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
import logging
import secrets
from typing import Any

from ...delivery.ledger import Delivery
from ...model.api_keys import ApiKeyStore
from ...model.buckets import BucketStore, bucket_key, home_device_keys, home_device_serials
from ...model.pairing import Pairing, RegisterOutcome, normalize_code
from ..context import CoreContext
from ..events import ChangeSource, EventKind, PairingOrigin, ServiceEvent
from ..write.commands import Commands
from .roster import Roster

_LOGGER = logging.getLogger(__name__)

HOME_STRUCTURE_NAME = "Home"


@dataclass(frozen=True, slots=True)
class RegisterResult:
    """Outcome of claiming a pairing code."""

    outcome: RegisterOutcome
    serial: str | None = None

    @property
    def success(self) -> bool:
        return self.outcome is RegisterOutcome.PAIRED


class HomePairing:
    """Pairing and unpairing, and the identity of the home (its user and structure ids)."""

    def __init__(
        self,
        context: CoreContext,
        *,
        commands: Commands,
        delivery: Delivery,
        roster: Roster,
        api_keys: ApiKeyStore,
    ) -> None:
        self._context = context
        self._commands = commands
        self._delivery = delivery
        self._roster = roster
        self._api_keys = api_keys
        self.home_user_id = ""
        self.home_structure_id = ""

    def load(self, data: Mapping[str, Any]) -> None:
        """Restore the home's ids; a fresh install gets new ones."""
        self.home_user_id = data.get("home_user_id") or f"user{secrets.token_hex(6)}"
        self.home_structure_id = data.get("home_structure_id") or secrets.token_hex(8)

    # -- home identity ---------------------------------------------------------------------

    def is_home_id(self, identifier: str) -> bool:
        if identifier in (self.home_user_id, self.home_structure_id):
            return True
        return any(
            identifier in (p.user_id, p.structure_id) for p in self._context.ownership.pairings()
        )

    def is_home_key(self, key: str) -> bool:
        """Whether a `user.`/`structure.`/`where.` key belongs to a home on this server."""
        return self.is_home_id(key.partition(".")[2])

    # -- pairing ---------------------------------------------------------------------------

    def register(
        self, code: str, user_id: str | None = None, *, origin: PairingOrigin = PairingOrigin.API
    ) -> RegisterResult:
        """Claim a pairing code as typed: any case, with or without the `XXX-XXXX` dash.

        Ownership is recorded first, then the home's user and structure buckets are written through
        the command layer. `origin` goes on the PAIRING event (Home Assistant's flow adds the
        subentry itself).
        """
        value = normalize_code(code)
        if value is None:
            return RegisterResult(RegisterOutcome.MALFORMED)
        outcome, key = self._context.ownership.check(value)
        if outcome is not RegisterOutcome.PAIRED or key is None:
            if outcome is RegisterOutcome.EXPIRED:
                self._context.save_now_later()
            return RegisterResult(outcome, key.serial if key else None)
        owner = user_id or self.home_user_id
        pairing = self._context.ownership.claim(key, owner, self.home_structure_id)
        self._context.save_now_later()
        _LOGGER.info("Thermostat %s paired", key.serial)
        self._write_home_buckets(pairing)
        self._delivery.wake(key.serial)
        self._context.events.publish(ServiceEvent(EventKind.PAIRING, key.serial, origin=origin))
        return RegisterResult(RegisterOutcome.PAIRED, key.serial)

    def _write_home_buckets(self, pairing: Pairing) -> None:
        devices = self._context.ownership.serials_in(pairing.structure_id)
        self._commands.write_path.apply(
            pairing.serial,
            {
                bucket_key("user", pairing.user_id): {"name": pairing.user_id},
                bucket_key("structure", pairing.structure_id): {
                    "name": HOME_STRUCTURE_NAME,
                    "devices": home_device_keys(devices),
                },
            },
            ChangeSource.SERVER,
            followed=False,
        )

    def write_home_devices(self, buckets: BucketStore) -> None:
        """Write each home's `structure.devices` as firmware reads it, where it is not.

        Bare serials an earlier version stored are read (`home_device_serials`) and written again as
        object keys.
        """
        for structure_id in dict.fromkeys(
            p.structure_id for p in self._context.ownership.pairings()
        ):
            serials = self._context.ownership.serials_in(structure_id)
            stored = buckets.value(bucket_key("structure", structure_id)).get("devices")
            if stored != home_device_keys(serials):
                _LOGGER.debug(
                    "Home %s lists %s; written as firmware reads it",
                    structure_id,
                    home_device_serials(stored),
                )
                self._commands.set_home_devices(structure_id, serials)

    def unpair(self, serial: str) -> bool:
        """Drop ownership; the device keeps its buckets and can pair again with a new code."""
        pairing = self._context.ownership.unpair(serial)
        if pairing is None:
            return False
        self._api_keys.forget_serial(serial)
        self._context.save_now_later()
        self._roster.note_unpaired(serial)
        _LOGGER.info("Thermostat %s unpaired", serial)
        self._commands.set_home_devices(
            pairing.structure_id, self._context.ownership.serials_in(pairing.structure_id)
        )
        self._delivery.wake(serial)
        self._context.events.publish(ServiceEvent(EventKind.PAIRING, serial))
        return True
