"""Fix flows of the repair issues: pairing a waiting thermostat, turning the open control API off.

The issues themselves, their ids and when they are raised, are in `issues.py`.
"""

from __future__ import annotations

from typing import Any

from homeassistant.components.repairs import ConfirmRepairFlow, RepairsFlow, RepairsFlowResult
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

from .const import CONF_COMPAT_API, DOMAIN
from .entry_data import loaded_entry
from .issues import ISSUE_COMPAT_API
from .pairing_form import PairingCodeForm


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


class PairThermostatFlow(RepairsFlow):
    """Pair a waiting thermostat from its repair notice, with the form of "Add thermostat"."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Show the code form (the flow starts with the issue's data, not the user's input)."""
        return await self.async_step_pair()

    async def async_step_pair(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """Ask for the code and the owner; pair the thermostat under the hub."""
        hub = loaded_entry(self.hass)
        if hub is None:
            return self.async_abort(reason="hub_not_loaded")

        def paired(serial: str) -> RepairsFlowResult:
            # The pairing removes the notice; the subentry is added here as "Add thermostat"
            # would (a pairing from a flow is not mirrored on its own).
            hub.runtime_data.pairing.ensure_subentry(serial)
            return self.async_create_entry(data={})

        # Home Assistant opens a fixable issue's flow directly and never shows the issue's
        # description: the step says it all, with the issue's values (as ConfirmRepairFlow).
        issue = ir.async_get(self.hass).async_get_issue(DOMAIN, self.issue_id)
        return await PairingCodeForm(self.hass, hub).async_step(
            self,
            "pair",
            user_input,
            paired,
            dict(issue.translation_placeholders or {}) if issue is not None else None,
        )


async def async_create_fix_flow(
    hass: HomeAssistant, issue_id: str, data: dict[str, str | int | float | None] | None
) -> RepairsFlow:
    """Return the fix flow of an issue this integration raised.

    Two kinds are raised as fixable: the open control API's warning, and the notices of
    thermostats waiting to be paired (one per thermostat, or one for many).
    """
    if issue_id == ISSUE_COMPAT_API:
        return CloseCompatApiFlow(str((data or {}).get("entry_id", "")))
    return PairThermostatFlow()
