"""The home's vacations as a calendar on the hub's device: listed, created, changed, deleted.

Each event is one vacation of the service (`server.core.home.vacations`); creating, changing or
deleting an event in Home Assistant's calendar calls the service, which checks it as the
`set_vacation` action does (no overlap, not in the past, the end after the start).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, date, datetime
from typing import Any, override

from homeassistant.components.calendar import CalendarEntity, CalendarEvent
from homeassistant.components.calendar.const import (
    EVENT_DESCRIPTION,
    EVENT_END,
    EVENT_LOCATION,
    EVENT_RRULE,
    EVENT_START,
    EVENT_SUMMARY,
    CalendarEntityFeature,
)
from homeassistant.const import UnitOfTemperature
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import translation
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.util import dt as dt_util
from homeassistant.util.unit_conversion import TemperatureConverter

from .const import DOMAIN
from .entity import platform_setup
from .holds import local, run
from .hub import Hub
from .server import EventKind, ServiceEvent, Vacation

PARALLEL_UPDATES = 0

VACATION_READS = frozenset({EventKind.VACATIONS.value})
ECO_TEMPERATURES = (
    "component.thermostat_cloud.entity.calendar.vacations.state_attributes.eco_temperatures"
)
"""Where the description's words are: the label, and the words for the thermostats' own."""
DECIMAL_COMMA = frozenset({"de", "es", "fr", "it", "nl"})
"""The languages of the integration that write 16,5."""


def _when(value: datetime | date) -> datetime:
    """Return an event's start or end as an aware time; a whole day starts at local midnight.

    An all-day event's end is the day after it (exclusive): that day's midnight.
    """
    if isinstance(value, datetime):
        return local(value)
    return dt_util.start_of_local_day(value)


class VacationCalendar(CalendarEntity):
    """The home's vacations; the event is the vacation under way or the next one."""

    _attr_has_entity_name = True
    _attr_should_poll = False
    _attr_translation_key = "vacations"
    _attr_supported_features = (
        CalendarEntityFeature.CREATE_EVENT
        | CalendarEntityFeature.UPDATE_EVENT
        | CalendarEntityFeature.DELETE_EVENT
    )

    def __init__(self, hub: Hub) -> None:
        """Initialize the calendar of the hub's home."""
        self.hub = hub
        entry_id = hub.entry.entry_id
        self._attr_unique_id = f"{entry_id}_vacations"
        self._attr_device_info = DeviceInfo(identifiers={(DOMAIN, entry_id)})

    @override
    async def async_added_to_hass(self) -> None:
        """Follow the home's vacations."""
        await super().async_added_to_hass()
        self.async_on_remove(self.hub.thermostats.listen_home(self._changed, VACATION_READS))

    @callback
    def _changed(self, event: ServiceEvent) -> None:
        self.async_write_ha_state()

    def _event(self, vacation: Vacation) -> CalendarEvent:
        return CalendarEvent(
            start=dt_util.as_local(datetime.fromtimestamp(vacation.start_ms / 1000, UTC)),
            end=dt_util.as_local(datetime.fromtimestamp(vacation.end_ms / 1000, UTC)),
            # Unnamed, it is called as the calendar is ("Vacation", translated).
            summary=vacation.summary or (self.name if isinstance(self.name, str) else ""),
            description=self._eco_description(vacation),
            uid=vacation.id,
        )

    async def _load_words(self) -> None:
        """Load the description's and refusals' words in Home Assistant's language."""
        for category in ("entity", "exceptions"):
            await translation.async_get_translations(
                self.hass, self.hass.config.language, category, {DOMAIN}
            )

    @contextmanager
    def _refused_in_words(self) -> Iterator[None]:
        """Give a refusal its text in Home Assistant's language, its translation key kept.

        The event dialog shows the message of the calendar's websocket error, which core
        makes from `str(err)` alone (`handle_calendar_event_create`, `_update`, `_delete` in
        `homeassistant/components/calendar/__init__.py`): English, were it generated from the
        key. An action's caller still gets the key and its placeholders.
        """
        try:
            yield
        except HomeAssistantError as err:
            key = err.translation_key
            words = translation.async_get_cached_translations(
                self.hass, self.hass.config.language, "exceptions", DOMAIN
            )
            text = words.get(f"component.{DOMAIN}.exceptions.{key}.message")
            if err.translation_domain != DOMAIN or not text:
                raise
            with suppress(KeyError, IndexError, ValueError):
                text = text.format(**(err.translation_placeholders or {}))
            raise type(err)(
                text.rstrip("."),
                translation_domain=DOMAIN,
                translation_key=key,
                translation_placeholders=err.translation_placeholders,
            ) from err

    def _eco_description(self, vacation: Vacation | None) -> str:
        """Return what the home keeps during the vacation, in Home Assistant's language and unit.

        "Eco temperatures: 12-26 °C" (an en dash), or the thermostats' own when the vacation sets none.
        """
        language = self.hass.config.language
        words = translation.async_get_cached_translations(self.hass, language, "entity", DOMAIN)
        label = words.get(f"{ECO_TEMPERATURES}.name", "Eco temperatures")
        if vacation is None or vacation.eco_low is None or vacation.eco_high is None:
            return f"{label}: {words.get(f'{ECO_TEMPERATURES}.state.own', "each thermostat's own")}"
        unit = self.hass.config.units.temperature_unit

        def shown(celsius: float) -> str:
            value = TemperatureConverter.convert(celsius, UnitOfTemperature.CELSIUS, unit)
            text = f"{round(value, 1):g}"
            return text.replace(".", ",") if language.split("-")[0] in DECIMAL_COMMA else text

        return f"{label}: {shown(vacation.eco_low)}\N{EN DASH}{shown(vacation.eco_high)} {unit}"

    @property
    @override
    def event(self) -> CalendarEvent | None:
        """The vacation under way, else the next one."""
        now = dt_util.utcnow().timestamp() * 1000
        for vacation in self.hub.service.vacations.vacations():
            if vacation.end_ms > now:
                return self._event(vacation)
        return None

    @override
    async def async_get_events(
        self, hass: HomeAssistant, start_date: datetime, end_date: datetime
    ) -> list[CalendarEvent]:
        """Return the vacations that overlap the window."""
        await self._load_words()
        start_ms, end_ms = start_date.timestamp() * 1000, end_date.timestamp() * 1000
        return [
            self._event(vacation)
            for vacation in self.hub.service.vacations.vacations()
            if vacation.start_ms < end_ms and start_ms < vacation.end_ms
        ]

    @override
    async def async_create_event(self, **kwargs: Any) -> None:
        """Add a vacation."""
        await self._load_words()
        vacations = self.hub.service.vacations
        with self._refused_in_words():
            self._refuse_what_a_vacation_lacks(kwargs, None)
            run(
                self.hass,
                lambda: vacations.add(
                    _when(kwargs[EVENT_START]),
                    _when(kwargs[EVENT_END]),
                    summary=str(kwargs.get(EVENT_SUMMARY) or ""),
                ),
            )

    @override
    async def async_update_event(
        self,
        uid: str,
        event: dict[str, Any],
        recurrence_id: str | None = None,
        recurrence_range: str | None = None,
    ) -> None:
        """Change a vacation's times or name; its eco temperatures stay."""
        vacations = self.hub.service.vacations
        current = vacations.get(uid)
        await self._load_words()
        with self._refused_in_words():
            self._refuse_what_a_vacation_lacks(event, current)
            run(
                self.hass,
                lambda: vacations.update(
                    uid,
                    _when(event[EVENT_START]),
                    _when(event[EVENT_END]),
                    eco_low=None if current is None else current.eco_low,
                    eco_high=None if current is None else current.eco_high,
                    summary=str(event.get(EVENT_SUMMARY) or ""),
                ),
            )

    @override
    async def async_delete_event(
        self,
        uid: str,
        recurrence_id: str | None = None,
        recurrence_range: str | None = None,
    ) -> None:
        """Delete a vacation; one under way ends now and the home is back."""
        vacations = self.hub.service.vacations
        await self._load_words()
        with self._refused_in_words():
            run(self.hass, lambda: vacations.delete(uid))

    def _refuse_what_a_vacation_lacks(
        self, event: dict[str, Any], current: Vacation | None
    ) -> None:
        """Refuse, saying why, what a vacation cannot keep: it is not dropped unseen.

        A vacation has a name and times. Its description is the eco temperatures it keeps
        (the event dialog sends it back as shown: that is no change); it has no location and
        does not repeat.
        """
        if event.get(EVENT_RRULE):
            raise ServiceValidationError(
                translation_domain=DOMAIN, translation_key="vacation_recurring"
            )
        if str(event.get(EVENT_LOCATION) or "").strip():
            raise ServiceValidationError(
                translation_domain=DOMAIN, translation_key="vacation_location"
            )
        description = str(event.get(EVENT_DESCRIPTION) or "").strip()
        if description and description != self._eco_description(current):
            raise ServiceValidationError(
                translation_domain=DOMAIN, translation_key="vacation_description"
            )


async_setup_entry = platform_setup(home=lambda hub: [VacationCalendar(hub)])
