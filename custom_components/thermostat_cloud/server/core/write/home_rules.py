"""The home's away and eco rules: which buckets a change to the home's presence writes.

A rule only decides, returning every write as one `HomeChange`; the write path writes it.
Firmware leaves manual eco only when `structure.away`, the home's `manual_eco_all` and its own
`device.eco` all say so, so the rules write those together.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
import logging
from typing import Any

from ...model.buckets import Bucket, bucket_key
from ..context import CoreContext
from ..read.readings import BucketReadings, home_away, home_manual_eco_since
from .changes import Rule

_LOGGER = logging.getLogger(__name__)

TOUCHED_BY_SERVER = 3
"""`touched_by` firmware records for a change that came from the cloud."""

type Updates = Mapping[str, Mapping[str, Any]]
"""Fields by bucket key, as `WritePath.apply` takes them."""


@dataclass(frozen=True, slots=True)
class HomeChange:
    """Every bucket write a change to the home implies, to be written as one server change."""

    writer: str
    """The thermostat the change is written as (its home's others are told too)."""
    updates: Updates
    """Fields by bucket key, `result_key` first."""
    result_key: str
    rule: Rule | None = None
    """The rule that made the change on its own (the home's return), None for a command's."""


HOME_BACK_FIELDS: Mapping[str, str] = {"structure": "away", "device": "eco"}
"""By bucket type, the field a thermostat's report brings the home back with (`home_back`)."""


class HomeRules:
    """Decide the home's away and eco writes from the buckets as they stand; write nothing."""

    def __init__(self, context: CoreContext) -> None:
        self._context = context

    def in_eco(self, structure_id: str) -> bool:
        """Return whether the home is away (its `away`, or its manual eco)."""
        return home_away(self._context.buckets, structure_id)

    def device_eco(self, serial: str, *, on: bool) -> dict[str, Any]:
        """Return `device.eco` as firmware reports it, and `eco_mode_enabled`.

        `device.eco` holds the mode, who touched it and when in seconds; `eco_mode_enabled` is
        for clients that read that.
        """
        # Buckets merge shallowly: keep the other fields firmware keeps in `eco`.
        kept = BucketReadings(self._context.buckets, serial).eco_fields
        return {
            "eco": {
                **kept,
                "mode": "manual-eco" if on else "schedule",
                "touched_by": TOUCHED_BY_SERVER,
                "mode_update_timestamp": self._context.clock.now_ms() // 1000,
            },
            "eco_mode_enabled": on,
        }

    def home_eco(
        self,
        writer: str,
        structure_id: str,
        *,
        on: bool,
        result_key: str = "structure",
        extra: Updates | None = None,
        every_device: bool = True,
    ) -> HomeChange:
        """Enter or leave the home's manual eco, as one change pushed at once.

        On: `structure.manual_eco_all`, `manual_eco_timestamp` in seconds (firmware drops it when
        more than 600 s off its clock) and `away`. Off: the same three cleared, and `device.eco`
        back to `schedule` on the thermostats still in eco, or a stale `manual-eco` puts it back
        into eco; `every_device`: on every thermostat of the home (one may hold eco the server
        has not heard of yet). `extra`: more buckets in the same change.
        """
        key = bucket_key("structure", structure_id)
        fields = {
            "away": on,
            "manual_eco_all": on,
            "manual_eco_timestamp": self._context.clock.now_ms() // 1000,
        }
        also: dict[str, Mapping[str, Any]] = {}
        if not on:
            every_device = every_device and self.in_eco(structure_id)
            for other in self._context.ownership.serials_in(structure_id):
                if every_device or BucketReadings(self._context.buckets, other).eco:
                    also[bucket_key("device", other)] = self.device_eco(other, on=False)
        also.update(extra or {})
        if result_key == "device":
            device_key = bucket_key("device", writer)
            device_fields = also.pop(device_key)
            return HomeChange(writer, {device_key: device_fields, key: fields, **also}, device_key)
        return HomeChange(writer, {key: fields, **also}, key)

    def home_back(
        self, serial: str, updates: Updates, changed: Mapping[str, Bucket]
    ) -> HomeChange | None:
        """Return the end of the home's manual eco a thermostat's report implies, if any.

        A thermostat brings the home back by leaving eco at its dial (`device.eco` on `schedule`),
        or by reporting `structure.away` false should one ever do so (the protocol notes say
        firmware never PUTs `structure`; only this project's issue 17 saw it). An eco report older
        than the command that entered manual eco does not undo it.
        """
        pairing = self._context.ownership.pairing(serial)
        if pairing is None:
            return None
        entered_at = home_manual_eco_since(self._context.buckets, pairing.structure_id)
        if entered_at is None:
            return None
        structure_key = bucket_key("structure", pairing.structure_id)
        device_key = bucket_key("device", serial)
        home = updates.get(structure_key, {})
        if (
            structure_key in changed
            and home.get("away") is False
            and home.get("manual_eco_all") is not True
        ):
            _LOGGER.debug("%s reports the home back; the home leaves away", serial)
            rule = Rule.AWAY
        elif device_key in changed and "eco" in updates[device_key]:
            readings = BucketReadings(self._context.buckets, serial)
            left_at = readings.eco_changed_at
            if readings.eco_mode != "schedule" or left_at is None or left_at < entered_at:
                return None
            _LOGGER.debug("%s left eco on the thermostat; the home leaves away", serial)
            rule = Rule.ECO
        else:
            return None
        change = self.home_eco(serial, pairing.structure_id, on=False, every_device=False)
        return replace(change, rule=rule)
