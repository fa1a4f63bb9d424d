"""Who changed a thermostat, in Home Assistant's terms: the author of each command, the logbook.

A command from Home Assistant runs inside `service.commands.acting_as` with the author its
`Context` names (`ChangeAuthors.author`, asked once the change is written): the person (the context's user, by the name Home
Assistant knows them by), else the automation or script whose run the context is (its state
carries the run's context), else Home Assistant itself. The context travels with the author
untouched, and comes back on the `thermostat_cloud_change` event this fires for every
attributed change (one per thermostat it reaches): the logbook (`logbook.py`) groups the entry
with the action, the automation or the script that made it, as it does for Home Assistant's own.
"""

from __future__ import annotations

from collections.abc import Callable

from homeassistant.auth import EVENT_USER_ADDED, EVENT_USER_REMOVED, EVENT_USER_UPDATED
from homeassistant.core import Context, Event, HomeAssistant, callback
from homeassistant.helpers import entity_registry as er

from .const import DOMAIN, EVENT_CHANGE
from .coordinator import ThermostatCoordinator
from .server import (
    ATTRIBUTED_FIELDS,
    Author,
    AuthorKind,
    EventKind,
    ServiceEvent,
    ThermostatService,
)

ATTR_CHANGES = "changes"
ATTR_BY = "by"
ATTR_BY_NAME = "by_name"
ATTR_SERIAL = "serial"
AUTHOR_DOMAINS = ("automation", "script")
"""The domains whose entities carry the context of their current run as their state's."""


class ChangeAuthors:
    """The authors of Home Assistant's commands, and the events that tell who changed what."""

    def __init__(self, hass: HomeAssistant, service: ThermostatService) -> None:
        """Initialize for the hub's service; `async_start` loads the users' names."""
        self.hass = hass
        self.service = service
        self._user_names: dict[str, str] = {}

    async def async_start(self, thermostats: ThermostatCoordinator) -> Callable[[], None]:
        """Know the users' names and fire the change events; returns the function that stops."""
        await self._async_load_users()
        stops = [
            self.hass.bus.async_listen(event_type, self._async_users_changed)
            for event_type in (EVENT_USER_ADDED, EVENT_USER_UPDATED, EVENT_USER_REMOVED)
        ]
        stops.append(thermostats.listen_home(self._on_event, frozenset(ATTRIBUTED_FIELDS)))

        @callback
        def stop() -> None:
            for stop_one in stops:
                stop_one()

        return stop

    async def _async_load_users(self) -> None:
        users = await self.hass.auth.async_get_users()
        self._user_names = {user.id: user.name for user in users if user.name}

    async def _async_users_changed(self, _: Event) -> None:
        await self._async_load_users()

    def author(self, context: Context | None) -> Author:
        """Return who a command with this context comes from (the context goes with it)."""
        if context is None:
            return Author(AuthorKind.HOST)
        if context.user_id is not None:
            return Author(
                AuthorKind.PERSON, self._user_names.get(context.user_id, ""), host_context=context
            )
        for domain in AUTHOR_DOMAINS:
            for state in self.hass.states.async_all(domain):
                if state.context.id == context.id:
                    return Author(AuthorKind(domain), state.name, host_context=context)
        return Author(AuthorKind.HOST, host_context=context)

    @callback
    def _on_event(self, event: ServiceEvent) -> None:
        """Fire the change event of an attributed change, with the context that made it."""
        author = event.author
        if event.kind is not EventKind.STATE or author is None:
            return
        last = self.service.commands.last_change(event.serial)
        if last is None:
            return
        entity_id = er.async_get(self.hass).async_get_entity_id("climate", DOMAIN, event.serial)
        context = author.host_context if isinstance(author.host_context, Context) else None
        self.hass.bus.async_fire(
            EVENT_CHANGE,
            {
                "entity_id": entity_id,
                ATTR_SERIAL: event.serial,
                ATTR_CHANGES: sorted(last.kinds),
                ATTR_BY: author.kind.value,
                ATTR_BY_NAME: author.name,
            },
            context=context,
        )
