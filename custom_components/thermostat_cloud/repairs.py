"""Repair flows: turning the open control API off from its warning."""

from __future__ import annotations

from homeassistant.components.repairs import ConfirmRepairFlow, RepairsFlow, RepairsFlowResult
from homeassistant.core import HomeAssistant

from .const import CONF_COMPAT_API


class CloseCompatApiFlow(ConfirmRepairFlow):
    """Confirm, then switch the `compat_api` option off (the hub reloads without the port)."""

    def __init__(self, entry_id: str) -> None:
        """Initialize the fix flow for the hub entry."""
        self._entry_id = entry_id

    async def async_step_confirm(
        self, user_input: dict[str, str] | None = None
    ) -> RepairsFlowResult:
        """Ask, then close the port."""
        if user_input is not None and (
            entry := self.hass.config_entries.async_get_entry(self._entry_id)
        ):
            self.hass.config_entries.async_update_entry(
                entry, options={**entry.options, CONF_COMPAT_API: False}
            )
        return await super().async_step_confirm(user_input)


async def async_create_fix_flow(
    hass: HomeAssistant, issue_id: str, data: dict[str, str | int | float | None] | None
) -> RepairsFlow:
    """Return the fix flow of an issue this integration raised.

    The open control API's warning is the only issue raised as fixable.
    """
    return CloseCompatApiFlow(str((data or {}).get("entry_id", "")))
