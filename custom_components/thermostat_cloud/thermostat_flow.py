"""Add thermostat: find it on the network and point it here, or type the code it shows.

A thermostat is a subentry of the hub; its reconfigure step takes its equipment's power and
gas rates (`energy_rates_form.py`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from homeassistant.config_entries import ConfigEntryState, ConfigSubentryFlow, SubentryFlowResult
from homeassistant.helpers import selector
import probatio

from .const import CONF_SERIAL, DATA_CONTROL_API, DOMAIN
from .energy_rates_form import ROOM_SCHEMA, rates_from_input, rates_schema, room_from_input
from .entry_data import ThermostatCloudConfigEntry
from .pairing_form import PairingCodeForm
from .pairing_sync import thermostat_subentries, thermostat_title
from .server import (
    ConfigureOutcome,
    EventKind,
    FoundThermostat,
    ScanError,
    ServiceEvent,
    ThermostatService,
    configure_thermostat,
    scan_thermostats,
)

_LOGGER = logging.getLogger(__name__)


WAIT_FOR_CONTACT_SECONDS = 300.0
"""How long "Add thermostat" waits for a thermostat it pointed here to call in."""
CONF_THERMOSTAT = "thermostat"
CONF_API_KEY = "api_key"


def _minutes(seconds: float) -> str:
    """Return a duration in whole minutes, at least one, as the UI and the log say it."""
    return str(max(1, round(seconds / 60)))


def _found_label(found: FoundThermostat) -> str:
    """Return how a found thermostat is listed: its address and the server it uses now.

    Its settings page says nothing more (no name: the serial comes once it calls in).
    """
    return f"{found.ip}: {found.cloudregisterurl or '-'}"


async def async_wait_for_contact(service: ThermostatService, address: str) -> str:
    """Return the serial of the thermostat that calls in from `address`.

    Waits on the service's events (a thermostat's first contact announces it, its address
    noted); the caller bounds the wait.
    """
    called_in: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def on_event(event: ServiceEvent) -> None:
        if event.kind not in (EventKind.CONNECTION, EventKind.UNPAIRED_CONTACT):
            return
        record = service.devices.record(event.serial)
        if record is not None and record.address == address and not called_in.done():
            called_in.set_result(event.serial)

    stop_listening = service.events.listen(on_event)
    try:
        return await called_in
    finally:
        stop_listening()


class ThermostatSubentryFlow(ConfigSubentryFlow):
    """Add a thermostat: find it on the network and point it here, or type its code."""

    def __init__(self) -> None:
        """Initialize the flow."""
        self._found: dict[str, FoundThermostat] = {}
        self._address = ""
        self._serial = ""
        self._wait: asyncio.Task[str] | None = None

    def _hub(self) -> ThermostatCloudConfigEntry | None:
        entry: ThermostatCloudConfigEntry = self._get_entry()
        return entry if entry.state is ConfigEntryState.LOADED else None

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Ask for the power (kW) or gas rate (m³/h) of each piece of the thermostat's equipment.

        Fields for the equipment the thermostat reports, and any given before; the energy
        sensors of a kind appear once a rate of it is given.
        """
        entry = self._get_entry()
        subentry = self._get_reconfigure_subentry()
        serial = subentry.data[CONF_SERIAL]
        errors: dict[str, str] = {}
        if user_input is not None:
            room, errors = room_from_input(self.hass, user_input)
            if not errors:
                rates = rates_from_input(user_input)
                return self.async_update_and_abort(
                    entry, subentry, data={CONF_SERIAL: serial, **rates, **room}
                )
        hub = self._hub()
        thermostat = hub.runtime_data.service.thermostat(serial) if hub else None
        schema = self.add_suggested_values_to_schema(
            rates_schema(thermostat, subentry.data).extend(ROOM_SCHEMA.schema),
            user_input if user_input is not None else subentry.data,
        )
        return self.async_show_form(
            step_id="reconfigure",
            data_schema=schema,
            errors=errors,
            description_placeholders={"name": subentry.title},
        )

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Offer to find the thermostats on the network or to type the code one shows."""
        if self._hub() is None:
            return self.async_abort(reason="hub_not_loaded")
        return self.async_show_menu(step_id="user", menu_options=["scan", "code"])

    async def async_step_code(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Ask for the code and the owner; claim it; the thermostat leaves its pairing screen."""
        return await self._async_code_step("code", user_input)

    async def async_step_contacted(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Ask for the code the thermostat pointed here shows, now that it called in."""
        return await self._async_code_step("contacted", user_input)

    async def _async_code_step(
        self, step_id: str, user_input: dict[str, Any] | None
    ) -> SubentryFlowResult:
        entry = self._hub()
        if entry is None:
            return self.async_abort(reason="hub_not_loaded")
        form = PairingCodeForm(self.hass, entry)

        def paired(serial: str) -> SubentryFlowResult:
            if serial in thermostat_subentries(entry):
                return self.async_abort(
                    reason="paired_again", description_placeholders={"serial": serial}
                )
            return self.async_create_entry(
                title=thermostat_title(serial),
                data={CONF_SERIAL: serial},
                unique_id=serial,
                description="restart" if form.needs_restart(serial) else "paired",
                description_placeholders={"serial": serial},
            )

        return await form.async_step(
            self,
            step_id,
            user_input,
            paired,
            {"serial": self._serial, "address": self._address},
        )

    # -- finding a thermostat on the network and pointing it here ---------------------------

    async def async_step_scan(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Look for thermostats' settings pages on the network; list them, or say none answered."""
        entry = self._hub()
        if entry is None:
            return self.async_abort(reason="hub_not_loaded")
        service = entry.runtime_data.service
        try:
            result = await scan_thermostats(
                self.hass.data[DATA_CONTROL_API].network, service.config.api_origin
            )
        except ScanError as err:
            _LOGGER.warning(
                "Cannot look for thermostats: %s; set the address thermostats use to Home "
                "Assistant's IPv4 address (Reconfigure)",
                err.message,
            )
            return self.async_abort(
                reason="scan_unavailable",
                description_placeholders={"origin": service.config.api_origin},
            )
        self._found = {found.ip: found for found in result.devices}
        if not self._found:
            _LOGGER.warning(
                "No thermostat answered on %s: check that it is on and on the same network as "
                "Home Assistant, or type the code it shows instead",
                result.subnet,
            )
            return self.async_show_form(
                step_id="scan",
                data_schema=probatio.Schema({}),
                errors={"base": "no_thermostats_found"},
                description_placeholders={"subnet": result.subnet},
            )
        return await self.async_step_pick()

    def _pick_form(self, errors: dict[str, str]) -> SubentryFlowResult:
        entry = self._hub()
        origin = entry.runtime_data.service.config.api_origin if entry is not None else ""
        return self.async_show_form(
            step_id="pick",
            data_schema=probatio.Schema(
                {
                    probatio.Required(CONF_THERMOSTAT): selector.SelectSelector(
                        selector.SelectSelectorConfig(
                            options=[
                                selector.SelectOptionDict(value=ip, label=_found_label(found))
                                for ip, found in self._found.items()
                            ],
                            mode=selector.SelectSelectorMode.LIST,
                        )
                    )
                }
            ),
            errors=errors,
            description_placeholders={"origin": origin},
        )

    async def async_step_pick(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Point the chosen thermostat here (unless it already is), then wait for it."""
        if user_input is None:
            return self._pick_form({})
        # The list's selector refuses anything the search did not find.
        found = self._found[user_input[CONF_THERMOSTAT]]
        self._address = found.ip
        if found.configured:
            return await self.async_step_wait()
        return await self._async_configure(None)

    async def async_step_key_needed(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Offer a restart of the thermostat, or typing its serial, to get its key.

        Restarting opens the settings page's first-boot window, which gives the key: no serial
        to type. Typing the serial stays the way when that does not help.
        """
        return self.async_show_menu(
            step_id="key_needed",
            menu_options=["restarted", "api_key"],
            description_placeholders={"address": self._address},
        )

    async def async_step_restarted(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Try again after the thermostat restarted: its first-boot window gives the key."""
        return await self._async_configure(None)

    async def async_step_api_key(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Ask for the thermostat's key (its serial), which its settings page wants."""
        if user_input is None:
            return self._api_key_form({})
        return await self._async_configure(user_input[CONF_API_KEY])

    def _api_key_form(self, errors: dict[str, str]) -> SubentryFlowResult:
        return self.async_show_form(
            step_id="api_key",
            data_schema=probatio.Schema({probatio.Required(CONF_API_KEY): selector.TextSelector()}),
            errors=errors,
            description_placeholders={"address": self._address},
        )

    async def _async_configure(self, api_key: str | None) -> SubentryFlowResult:
        entry = self._hub()
        if entry is None:
            return self.async_abort(reason="hub_not_loaded")
        service = entry.runtime_data.service
        result = await configure_thermostat(
            self.hass.data[DATA_CONTROL_API].network,
            service.config.api_origin,
            self._address,
            api_key,
            device_at=service.devices.record_at,
        )
        if result.success:
            return await self.async_step_wait()
        if result.outcome is ConfigureOutcome.KEY_REFUSED:
            _LOGGER.warning(
                "The thermostat at %s refused %s; restart it and try again within 30 minutes, "
                "or enter its serial (Settings > Technical info on the thermostat)",
                self._address,
                "the key typed" if api_key else "to change its address without its key",
            )
            if api_key:
                return self._api_key_form({"base": "key_refused"})
            return await self.async_step_key_needed()
        if result.outcome is ConfigureOutcome.INVALID_INPUT:
            _LOGGER.warning("Cannot point the thermostat at Home Assistant: %s", result.error)
            return self.async_abort(reason="origin_https")
        _LOGGER.warning(
            "Could not point the thermostat at %s at Home Assistant: %s; check that it is on and "
            "search again",
            self._address,
            result.error,
        )
        return self._pick_form({"base": "configure_failed"})

    async def async_step_wait(self, user_input: dict[str, Any] | None = None) -> SubentryFlowResult:
        """Wait for the thermostat to call in at its new address."""
        if self._wait is None:
            entry = self._hub()
            if entry is None:
                return self.async_abort(reason="hub_not_loaded")
            service = entry.runtime_data.service
            record = service.devices.record_at(self._address)
            if record is not None and service.devices.is_available(record.serial):
                self._serial = record.serial  # it already talks to this server
                return await self.async_step_heard()
            self._wait = self.hass.async_create_task(
                self._async_wait_for_contact(service),
                f"{DOMAIN} wait for the thermostat at {self._address}",
                eager_start=False,
            )
        if not self._wait.done():
            return self.async_show_progress(
                step_id="wait",
                progress_action="wait_for_thermostat",
                progress_task=self._wait,
                description_placeholders={"address": self._address},
            )
        wait, self._wait = self._wait, None
        if wait.cancelled() or wait.exception() is not None:
            _LOGGER.warning(
                "The thermostat at %s did not call Home Assistant within %s minutes; restart it "
                "(Settings > Reset > Restart) and try again",
                self._address,
                _minutes(WAIT_FOR_CONTACT_SECONDS),
            )
            return self.async_show_progress_done(next_step_id="not_heard")
        self._serial = wait.result()
        return self.async_show_progress_done(next_step_id="heard")

    async def _async_wait_for_contact(self, service: ThermostatService) -> str:
        async with asyncio.timeout(WAIT_FOR_CONTACT_SECONDS):
            return await async_wait_for_contact(service, self._address)

    async def async_step_not_heard(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Say that the thermostat did not call in; submitting waits again."""
        if user_input is not None:
            return await self.async_step_wait()
        return self.async_show_form(
            step_id="not_heard",
            data_schema=probatio.Schema({}),
            errors={"base": "no_contact"},
            description_placeholders={
                "address": self._address,
                "minutes": _minutes(WAIT_FOR_CONTACT_SECONDS),
            },
        )

    async def async_step_heard(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Ask the thermostat that called in for its code, unless it is paired already."""
        entry = self._hub()
        if entry is None:
            return self.async_abort(reason="hub_not_loaded")
        if entry.runtime_data.service.pairing.is_paired(self._serial):
            return self.async_abort(
                reason="already_paired", description_placeholders={"serial": self._serial}
            )
        return await self.async_step_contacted()
