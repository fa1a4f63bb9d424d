"""The code-and-owner form every way of pairing a thermostat shows, and what it does.

"Add thermostat", the fix flow of a waiting thermostat's repair notice and a discovered
thermostat's flow all show this form as one step (`PairingCodeForm.async_step`) and pair
through `PairingSync.async_pair_from_flow`; each ends its own way once paired.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
import logging
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowHandler, FlowResult
from homeassistant.helpers import selector
import probatio

from .const import CONF_CODE, CONF_OWNER
from .entry_data import ThermostatCloudConfigEntry
from .server import RegisterOutcome

_LOGGER = logging.getLogger(__name__)

CODE_ERRORS = {
    RegisterOutcome.MALFORMED: "invalid_format",
    RegisterOutcome.INVALID: "invalid_code",
    RegisterOutcome.EXPIRED: "expired_code",
    RegisterOutcome.CLAIMED: "claimed_code",
}
CODE_LOG = {
    RegisterOutcome.MALFORMED: "it is not 7 letters or digits",
    RegisterOutcome.INVALID: "no thermostat shows it; check the code on the thermostat's screen",
    RegisterOutcome.EXPIRED: "it has expired; ask the thermostat for a new one (Get entry key)",
    RegisterOutcome.CLAIMED: "it was already used; ask the thermostat for a new one",
}


@dataclass(slots=True)
class PairingCodeForm:
    """Ask for the code a thermostat shows and who owns it; claim the code.

    The owner is a Home Assistant user: the thermostat is theirs (their hosted API keys may
    delete it); other users can still read and control it. Left empty, it belongs to the home.
    Flows have no user id to go by, so the form asks, suggesting the instance owner.
    """

    hass: HomeAssistant
    entry: ThermostatCloudConfigEntry
    users: dict[str, str] = field(default_factory=dict)
    """Active people who log in: user id -> name, as last read."""

    async def async_load_users(self) -> None:
        """Read the users the owner field offers."""
        self.users = {
            user.id: user.name or user.id
            for user in await self.hass.auth.async_get_users()
            if user.is_active and not user.system_generated
        }

    async def async_step[ResultT: FlowResult[Any, Any]](
        self,
        flow: FlowHandler[Any, ResultT, Any],
        step_id: str,
        user_input: dict[str, Any] | None,
        paired: Callable[[str], ResultT],
        placeholders: dict[str, str] | None = None,
    ) -> ResultT:
        """Be `flow`'s step `step_id`: show the form, claim the code; once paired, `paired`.

        `paired` gets the thermostat's serial and returns how the flow ends.
        """
        errors: dict[str, str] = {}
        if user_input is not None:
            serial, errors = await self.async_submit(user_input)
            if serial is not None:
                return paired(serial)
        return flow.async_show_form(
            step_id=step_id,
            data_schema=await self.async_schema(flow, user_input),
            errors=errors,
            description_placeholders=placeholders,
        )

    async def async_submit(self, user_input: dict[str, Any]) -> tuple[str | None, dict[str, str]]:
        """Claim the code; return the paired serial, or None and the errors by field."""
        await self.async_load_users()  # a user may have been removed while the form was open
        owner_id: str | None = user_input.get(CONF_OWNER) or None
        if owner_id is not None and owner_id not in self.users:
            _LOGGER.warning(
                "The owner chosen for the thermostat no longer exists or is deactivated; "
                "choose another one"
            )
            return None, {CONF_OWNER: "owner_unavailable"}
        result = await self.entry.runtime_data.pairing.async_pair_from_flow(
            user_input[CONF_CODE], owner_id
        )
        if result.success and result.serial is not None:
            return result.serial, {}
        _LOGGER.warning(
            "The pairing code typed in Home Assistant was refused: %s",
            CODE_LOG.get(result.outcome, "it is not valid"),
        )
        return None, {CONF_CODE: CODE_ERRORS.get(result.outcome, "invalid_code")}

    async def async_schema(
        self, flow: FlowHandler[Any, Any, Any], user_input: dict[str, Any] | None
    ) -> probatio.Schema:
        """Return the form: the code, and the owner when there are users to choose from."""
        await self.async_load_users()
        schema: dict[Any, Any] = {probatio.Required(CONF_CODE): selector.TextSelector()}
        if self.users:
            schema[probatio.Optional(CONF_OWNER)] = selector.SelectSelector(
                selector.SelectSelectorConfig(
                    options=[
                        selector.SelectOptionDict(value=user_id, label=name)
                        for user_id, name in self.users.items()
                    ],
                    mode=selector.SelectSelectorMode.DROPDOWN,
                )
            )
        owner = await self.hass.auth.async_get_owner()
        suggested = {CONF_OWNER: owner.id} if owner is not None and owner.id in self.users else {}
        return flow.add_suggested_values_to_schema(
            probatio.Schema(schema), user_input if user_input is not None else suggested
        )

    def needs_restart(self, serial: str) -> bool:
        """Whether the thermostat still has to restart to report its equipment.

        Firmware sends its complete state only after it restarts; against a new server it
        sends changes (see docs/device-protocol.md, "What real firmware does").
        """
        return not self.entry.runtime_data.service.thermostat(serial).equipment_reported
