"""What the home's timed plans (the vacations, the arrival) share.

Each is for the whole home, so it is refused while no thermostat is paired; each writes, when
its time comes, as its rule's author, and a write refused then is logged while the plan goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
import logging
from typing import TYPE_CHECKING

from ..read.command_errors import CommandError, ErrorCode, Reason
from ..write.changes import Author, Rule
from ..write.commands import Commands

if TYPE_CHECKING:
    from .vacations import Vacation

_LOGGER = logging.getLogger(__name__)


def require_paired(home_serials: Callable[[], list[str]], plan: str) -> None:
    """Refuse a plan (`plan` names it: "A vacation") while the home has no paired thermostat."""
    if not home_serials():
        raise CommandError(ErrorCode.NOT_PAIRED, f"{plan} is for the home: pair a thermostat first")


def run_as_rule(commands: Commands, rule: Rule, command: Callable[[], object]) -> None:
    """Run a timed command as the rule's; a refusal is logged, the plan goes on."""
    try:
        with commands.acting_as(Author.rule(rule)):
            command()
    except CommandError as err:
        _LOGGER.warning("A change by the %s rule was not written: %s", rule, err.message)


def iso(ms: int) -> str:
    """Return a moment (Unix ms) as the log lines and errors give it."""
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat()


def in_the_way(vacation: Vacation, message: str, reason: Reason) -> CommandError:
    """Refuse a plan `vacation` is in the way of, telling the vacation's start and end."""
    return CommandError(
        ErrorCode.INVALID_VALUE,
        message,
        reason,
        start=iso(vacation.start_ms),
        end=iso(vacation.end_ms),
    )
