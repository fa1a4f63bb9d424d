"""Repair issues the integration raises about thermostats."""

from __future__ import annotations

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir

from .const import DOMAIN


@callback
def async_warn(
    hass: HomeAssistant, issue_id: str, translation_key: str, **placeholders: str
) -> None:
    """Raise (or refresh) a warning the user can act on but that has no fix flow."""
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue_id,
        is_fixable=False,
        is_persistent=False,
        severity=ir.IssueSeverity.WARNING,
        translation_key=translation_key,
        translation_placeholders=placeholders,
    )
