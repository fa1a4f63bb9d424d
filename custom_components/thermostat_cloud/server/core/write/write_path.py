"""The one write primitive under every command and report: merge, deliver, then announce.

Announcing comes last, one event per affected device (followers first, then the outbound
listeners): no follower or listener runs before the push is written; after a thermostat's
report, once its answer is written (`AnswerFirst`). A rule never writes itself: after a
thermostat's report the home's rules say what it implies, written here as one server change.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import copy_context
from functools import partial
import logging
from typing import Any

from ...delivery.ledger import Delivery
from ...model.buckets import HOME_SCOPED_TYPES, Bucket, field_name, home_bucket_keys, split_key
from ...model.records import UnstorableError, ensure_storable
from ...model.text import for_log
from ..context import CoreContext
from ..events import ChangeSource, EventKind, ServiceEvent
from ..read.command_errors import CommandError, CommandResult, ErrorCode
from .changes import ATTRIBUTED_BY_TYPE, Author, Authoring, ChangeLog
from .confirmations import Confirmations
from .home_rules import HOME_BACK_FIELDS, HomeRules, Updates

_LOGGER = logging.getLogger(__name__)


def _refuse_unstorable(keys: list[str]) -> None:
    """Refuse these buckets' changes, as the store refused them; the others' changes stand."""
    if keys:
        raise CommandError(
            ErrorCode.INVALID_VALUE,
            "A value cannot be stored: it holds text that is not valid Unicode",
        )


def _merged_fields(key: str, bucket: Bucket, fields: Mapping[str, Any]) -> frozenset[str]:
    """Return the fields the merge just changed, as events name them (`shared.leaf`)."""
    stamps = bucket.field_changes
    latest = max(stamps.get(name, 0) for name in fields)
    bucket_type = key.partition(".")[0]
    return frozenset(field_name(bucket_type, name) for name in fields if stamps.get(name) == latest)


def _first_reported(
    known: Mapping[str, Any], key: str, fields: Mapping[str, Any]
) -> frozenset[str]:
    """Return the attributed fields a report brings the server for the first time.

    Asked before the report is merged. A thermostat's first report of its setpoint (at
    pairing, or a bucket the server never had) is no one's change.
    """
    bucket_type = key.partition(".")[0]
    names = ATTRIBUTED_BY_TYPE.get(bucket_type)
    if names is None or names.isdisjoint(fields):
        return frozenset()
    return frozenset(
        field_name(bucket_type, name) for name in names.intersection(fields) if name not in known
    )


def _may_bring_home_back(updates: Updates) -> bool:
    """Whether a report writes a field the home's return follows (`HOME_BACK_FIELDS`)."""
    return any(
        HOME_BACK_FIELDS.get(key.partition(".")[0]) in fields for key, fields in updates.items()
    )


class AnswerFirst:
    """What a thermostat's report does once its answer is written.

    The thermostat waits for the answer; what it does not need (the report's save and
    announcements, the commands it confirms, an unpaired thermostat's announcement) is held
    while the report is taken (`holding`) and run after, in the order it was asked for. The
    contact listeners are not held: they hear the thermostat as it was before its report.
    Outside a report, `later` runs an action at once.
    """

    def __init__(self) -> None:
        """Start holding nothing."""
        self._held: list[Callable[[], None]] | None = None

    def later(self, action: Callable[[], None]) -> None:
        """Run `action` after the report's answer, or now outside a report."""
        if self._held is None:
            action()
        else:  # run as asked: inside the same `acting_as`
            self._held.append(partial(copy_context().run, action))

    def run_held(self) -> None:
        """Run what is held so far now: what comes next must follow it."""
        held = self._held
        if not held:
            return
        now = held[:]
        held.clear()
        self._held = None  # what they write in turn is announced at once, as outside a report
        try:
            run_all(now)
        finally:
            self._held = held

    @contextmanager
    def holding(self, held: list[Callable[[], None]]) -> Iterator[None]:
        """Hold what is asked for inside in `held`, for the caller to run (`run_all`)."""
        self._held = held
        try:
            yield
        finally:
            self._held = None


def run_all(actions: list[Callable[[], None]]) -> None:
    """Run held actions in the order they were asked for."""
    for action in actions:
        action()


class WritePath:
    """Merge, persist, deliver and publish: every write to bucket state goes through here."""

    def __init__(
        self,
        context: CoreContext,
        *,
        delivery: Delivery,
        confirmations: Confirmations,
        home_rules: HomeRules,
        changes: ChangeLog,
        answer_first: AnswerFirst,
    ) -> None:
        """Take the change log (who made each change) beside the parts every write goes through.

        `answer_first` holds a report's announcements until its answer is written.
        """
        self._context = context
        self._delivery = delivery
        self._confirmations = confirmations
        self._home_rules = home_rules
        self._changes = changes
        self._answer_first = answer_first

    def apply(
        self,
        serial: str,
        updates: Updates,
        source: ChangeSource,
        *,
        followed: bool = True,
    ) -> dict[str, Bucket]:
        """Merge fields into buckets, persist and notify; returns the buckets that changed.

        A change to a home-scoped bucket (user, structure) is announced for every device of the
        home. `followed=False`: the home's bookkeeping pairing writes, which no thermostat reports
        back, is not waited for.
        """
        changed, unstorable = self._write(serial, updates, source, followed=followed)
        if changed and source is ChangeSource.DEVICE and _may_bring_home_back(updates):
            back = self._home_rules.home_back(serial, updates, changed)
            if back is not None:
                assert back.rule is not None  # the home's return is always a rule's
                # The report's followers hear it before the home's return, as they always did.
                self._answer_first.run_held()
                with self.acting_as(Author.rule(back.rule)):
                    unstorable += self._write(back.writer, back.updates, ChangeSource.SERVER)[1]
        _refuse_unstorable(unstorable)
        return changed

    @contextmanager
    def acting_as(self, author: Authoring) -> Iterator[None]:
        """Attribute the changes written inside to `author` (the innermost one counts)."""
        token = self._changes.acting.set(author)
        try:
            yield
        finally:
            self._changes.acting.reset(token)

    def command(self, serial: str, updates: Updates, result_key: str) -> CommandResult:
        """Write a command's buckets as one server change; the result names `result_key`."""
        changed = self.apply(serial, updates, ChangeSource.SERVER)
        bucket = self._context.buckets.get(result_key)
        assert bucket is not None  # merge created it, or it already existed
        return CommandResult(
            serial, result_key, bucket.revision, bucket.timestamp, result_key in changed
        )

    def write(
        self, serial: str, key: str, fields: Mapping[str, Any], also: Updates | None = None
    ) -> CommandResult:
        """Write `fields` to `key` (and `also`, as one change); the result names `key`."""
        return self.command(serial, {key: fields, **(also or {})}, key)

    def unchanged(self, serial: str, key: str) -> CommandResult:
        bucket = self._context.buckets.get(key)
        if bucket is None:
            return CommandResult(serial, key, 0, 0, changed=False)
        return CommandResult(serial, key, bucket.revision, bucket.timestamp, changed=False)

    def store(self, key: str, fields: Mapping[str, Any]) -> None:
        """Store a change no thermostat follows (a home left without any): saved, not announced."""
        if self._context.buckets.merge(key, fields) is not None:
            self._context.request_save()

    def _write(
        self, serial: str, updates: Updates, source: ChangeSource, *, followed: bool = True
    ) -> tuple[dict[str, Bucket], list[str]]:
        """Merge, deliver and announce one change; return what changed and the keys refused."""
        if source is ChangeSource.SERVER:
            # A command writes all of its buckets or none of them.
            try:
                ensure_storable(updates)
            except UnstorableError as err:
                _LOGGER.debug("%s: command refused: %s", serial, err)
                _refuse_unstorable(list(updates))
        changed: dict[str, Bucket] = {}
        changed_fields: dict[str, frozenset[str]] = {}
        unstorable: list[str] = []
        first_reported: frozenset[str] = frozenset()
        for key, fields in updates.items():
            if source is ChangeSource.DEVICE:
                first_reported |= _first_reported(self._context.buckets.value(key), key, fields)
            try:
                bucket = self._context.buckets.merge(key, fields)
            except UnstorableError as err:
                _LOGGER.debug("%s: change to %s refused: %s", serial, for_log(key), err)
                unstorable.append(key)
                continue
            if bucket is not None:
                changed[key] = bucket
                changed_fields[key] = _merged_fields(key, bucket, fields)
        if not changed:
            return changed, unstorable
        affected = self._affected(serial, changed)
        asked = self._deliver(
            serial,
            updates,
            source,
            affected,
            changed=changed,
            changed_fields=changed_fields,
            followed=followed,
        )

        def announce() -> None:
            self._context.request_save()
            self._announce(
                serial,
                source,
                affected,
                changed_fields=changed_fields,
                asked=asked,
                unattributed=first_reported,
            )

        self._answer_first.later(announce)
        return changed, unstorable

    def _affected(self, serial: str, changed: Mapping[str, Bucket]) -> dict[str, dict[str, None]]:
        """Return the devices a change is for, each with its changed keys.

        Insertion-ordered: the writing device first, each key once per device; a home-scoped
        bucket (user, structure) is for every device of the home.
        """
        affected: dict[str, dict[str, None]] = {serial: dict.fromkeys(changed)}
        for key in changed:
            parts = split_key(key)
            if parts is not None and parts[0] in HOME_SCOPED_TYPES:
                for other in self._followers(key):
                    affected.setdefault(other, {})[key] = None
        return affected

    def _deliver(
        self,
        serial: str,
        updates: Updates,
        source: ChangeSource,
        affected: Mapping[str, Mapping[str, None]],
        *,
        changed: Mapping[str, Bucket],
        changed_fields: Mapping[str, frozenset[str]],
        followed: bool,
    ) -> set[str]:
        """Record and push what each device is owed; return those with a command now pending.

        A device's own writes are not echoed. What the server writes is recorded as pending before
        its push, so the write is noted against it.
        """
        asked: set[str] = set()
        for target, keys in affected.items():
            if target == serial and source is ChangeSource.DEVICE:
                continue
            if followed and self._confirmations.asked(
                target, [changed[key] for key in keys], updates, changed_fields
            ):
                asked.add(target)
            self._delivery.server_changed(target, keys)
        return asked

    def _announce(
        self,
        serial: str,
        source: ChangeSource,
        affected: Mapping[str, Mapping[str, None]],
        *,
        changed_fields: Mapping[str, frozenset[str]],
        asked: set[str],
        unattributed: frozenset[str],
    ) -> None:
        """Announce a delivered change to each device's followers and listeners.

        `unattributed`: changed fields that are no one's change (a thermostat's first report).
        """
        # Who made it: asked once, for the writer; the home's others hear the same author.
        author = self._changes.author_of(
            serial,
            by_device=source is ChangeSource.DEVICE,
            fields=frozenset().union(*changed_fields.values()) - unattributed,
        )
        for target, keys in affected.items():
            if target in asked:
                self._context.events.publish(ServiceEvent(EventKind.COMMANDS, target))
            fields_of_target = frozenset().union(*(changed_fields[key] for key in keys))
            target_author = (
                None
                if author is None
                else self._changes.note(target, fields_of_target - unattributed, author)
            )
            self._context.events.publish(
                ServiceEvent(
                    EventKind.STATE,
                    target,
                    tuple(keys),
                    source if target == serial else ChangeSource.SERVER,
                    fields=fields_of_target,
                    author=target_author,
                )
            )

    def _followers(self, key: str) -> list[str]:
        return [
            p.serial
            for p in self._context.ownership.pairings()
            if key in home_bucket_keys(p.user_id, p.structure_id)
        ]
