"""The logbook's entries for who changed a thermostat's setpoint, mode or preset.

Each `thermostat_cloud_change` event (change_authors.py) becomes one entry on the thermostat's
climate entity: what changed and who changed it, in Home Assistant's language (the `logbook_`
texts of the translations' `common` section). The event carries the context of the command
that made the change, so the logbook also links it to the action, automation or script, as for
its own entries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from homeassistant.components.logbook.const import (
    LOGBOOK_ENTRY_ENTITY_ID,
    LOGBOOK_ENTRY_MESSAGE,
    LOGBOOK_ENTRY_NAME,
)
from homeassistant.core import Event, HomeAssistant, callback
from homeassistant.helpers.translation import async_get_cached_translations

from .change_authors import ATTR_BY, ATTR_BY_NAME, ATTR_CHANGES, ATTR_SERIAL
from .const import DOMAIN, EVENT_CHANGE

PREFIX = f"component.{DOMAIN}.common.logbook_"
NAMED_AUTHORS = frozenset({"person", "automation", "script", "api"})
"""Author kinds whose text names them (`{name}`); without a name, their `_unnamed` text."""


def author_key(by: str, name: str) -> str:
    """Return the text key of an author: `thermostat_dial`, `rule_hold`, `person`..."""
    if by in ("thermostat", "rule"):
        return f"{by}_{name}"
    if by in NAMED_AUTHORS and not name:
        return f"{by}_unnamed"
    return by


def describe_change(texts: Mapping[str, str], data: Mapping[str, Any]) -> str:
    """Return the logbook message of a change event: what changed, then who changed it."""
    by, name = str(data.get(ATTR_BY, "")), str(data.get(ATTR_BY_NAME, ""))
    changes = ", ".join(
        texts.get(f"{PREFIX}change_{kind}", kind) for kind in data.get(ATTR_CHANGES, ())
    )
    # A rule added later and not yet translated still reads as one of ours.
    fallback = texts.get(f"{PREFIX}by_rule") if by == "rule" else None
    author = texts.get(f"{PREFIX}by_{author_key(by, name)}", fallback or by)
    return (
        texts.get(f"{PREFIX}entry", "{changes} {by}")
        .replace("{by}", author.replace("{name}", name))
        .replace("{changes}", changes)
    )


@callback
def async_describe_events(
    hass: HomeAssistant,
    async_describe_event: Callable[[str, str, Callable[[Event], dict[str, str]]], None],
) -> None:
    """Describe the change events."""

    @callback
    def describe(event: Event) -> dict[str, str]:
        data = event.data
        texts = async_get_cached_translations(hass, hass.config.language, "common", DOMAIN)
        entity_id = data.get("entity_id")
        state = hass.states.get(entity_id) if entity_id else None
        entry = {
            LOGBOOK_ENTRY_NAME: state.name if state is not None else str(data.get(ATTR_SERIAL)),
            LOGBOOK_ENTRY_MESSAGE: describe_change(texts, data),
        }
        if entity_id:
            entry[LOGBOOK_ENTRY_ENTITY_ID] = entity_id
        return entry

    async_describe_event(DOMAIN, EVENT_CHANGE, describe)
