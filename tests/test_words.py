"""What native readers found (issue 39): English left in other languages, names cut short.

A German reader saw "kein Kontakt seit never": an English word the code filled into a German
text. So the check reads the texts as they are shown, placeholders filled by the code that
fills them, as well as the files themselves: no word of the English texts may appear in
another language's, except names, units, Home Assistant's own English terms and the words the
two languages share ("Thermostat", "Port", "in"). Each exception is listed here, by language,
so a new one is a decision someone made, not an accident.

And the device page cuts an entity's name at about 40 characters: no name is longer, in any
language. A repair issue Home Assistant opens straight into its fix flow shows no description:
none is written for it, so no text is translated that nobody reads.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
import errno
import json
import os
from pathlib import Path
import re
from typing import Any

from homeassistant.components.climate.const import (
    ATTR_HVAC_MODE,
    DOMAIN as CLIMATE_DOMAIN,
    SERVICE_SET_TEMPERATURE,
    HVACMode,
)
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import ATTR_ENTITY_ID, ATTR_TEMPERATURE
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers.translation import async_get_translations
import pytest

from custom_components.thermostat_cloud.const import DOMAIN
from custom_components.thermostat_cloud.entity import command_error
from custom_components.thermostat_cloud.issues import (
    COMMANDS_CAUSES,
    PORT_CAUSES,
    UnpairedIssues,
    async_open_control_api_listening,
    commands_placeholders,
    port_cause,
)
from custom_components.thermostat_cloud.server import Cause, CommandError, Trouble
from tests.conftest import SERIAL, PairedThermostat, PairThermostat, hub_config_entry
from tests.test_services import RANGE_ENTRY, SCHEDULE
from tests.test_translations import flatten

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {
    "integration": ROOT / "custom_components" / "thermostat_cloud" / "translations",
    "card": ROOT / "frontend" / "src" / "translations",
}
LANGUAGES = ("de", "es", "fr", "it", "nl")
MAX_NAME = 40
"""Characters of an entity name the device page shows whole."""

NAMES_AND_UNITS = frozenset(
    {
        # Names: the product, Home Assistant, the thermostat's own menu entries and features
        # (in English on the thermostat), models, projects.
        *("thermostat", "cloud", "home", "assistant", "away", "assist", "airwave"),
        *("get", "entry", "key", "display", "nolongerevil-thermostat", "eco"),
        # Units, symbols and technical names read the same in every language.
        *("c", "h", "v", "x", "kw", "m³", "ft³", "celsius", "fahrenheit", "abc"),
        *("api", "http", "https", "ip", "ipv", "tcp", "url", "usb", "pin", "id", "ids"),
        *("wi-fi", "internet", "firmware", "online", "router", "host", "hash", "app", "apps"),
        *("server", "servers", "client", "clients", "min", "max"),
    }
)
"""Words every language may share with English."""

SHARED_WORDS: dict[str, frozenset[str]] = {
    "de": frozenset(
        {
            *("also", "an", "in", "so", "was", "hand", "rest", "ring", "start", "status"),
            *("form", "minute", "name", "person", "sensor", "port", "code", "gas", "modus"),
            *("mode", "optional", "integration", "alternative", "thermostats"),
            *("filter", "frost", "median", "problem", "start", "starts", "still", "system"),
            # Home Assistant's own German terms.
            *("automation", "issue"),
            "filter",
            "warm",
        }
    ),
    "es": frozenset(
        {
            *("a", "no", "real", "radio", "error", "control", "manual", "individual", "dual"),
            *("gas", "sensor", "mode", "name", "temp", "ver", "factor"),
            # Home Assistant's own Spanish terms.
            *("hvac", "token", "script"),
            # "(s)" marks a plural that may be one.
            "s",
        }
    ),
    "fr": frozenset(
        {
            *("a", "action", "change", "conditions", "contact", "correction", "cycles"),
            *("diagnostics", "guide", "machine", "menu", "message", "minute", "minutes"),
            *("options", "page", "point", "protection", "radio", "services", "signal"),
            *("version", "versions", "watts", "mode", "port", "code", "name", "thermostats"),
            *("temp", "script", "main", "active", "notification", "date", "s", "air"),
            *("description", "long", "source"),
        }
    ),
    "it": frozenset(
        {
            *("a", "i", "in", "per", "far", "state", "temperature", "compare", "menu"),
            *("radio", "gas", "mode", "name", "timer", "online", "temp", "due", "comfort"),
            *("come",),
            # Home Assistant's own Italian terms, and the trade's loanwords it uses.
            *("dashboard", "hvac", "token", "setpoint", "community", "script", "comfort"),
            "no",
        }
    ),
    "nl": frozenset(
        {
            *("in", "is", "of", "was", "over", "open", "later", "stop", "warmer", "hand"),
            *("rest", "ring", "letters", "account", "download", "filter", "info", "status"),
            *("compressor", "contact", "code", "gas", "machine", "mode", "name", "per"),
            *("radio", "sensor", "thermostats", "temp", "ver", "script", "comfort", "week"),
            *("door", "factor", "start", "starts"),
            *("warm", "plan"),
        }
    ),
}
"""Words of a language that are also English words, or English terms Home Assistant uses."""

LITERALS = {
    # The schedule's own field names and values, as the thermostat stores them.
    "services.get_schedule.description": {"range", "temp-min", "temp-max"},
    "services.set_schedule.fields.schedule.description": {
        *("ver", "name", "heat", "cool", "range", "time", "temp", "type"),
    },
}
"""Words a text quotes literally, by key: not words of the language but of the data."""

WORD = re.compile(r"[^\W\d_]+(?:['\N{RIGHT SINGLE QUOTATION MARK}-][^\W\d_]+)*")
IDENTIFIER = re.compile(r"\S*[_/]\S*")
ICU_ARGUMENT = re.compile(r"\{(\w+)(?:, *(\w+)(?:, *\w+)?)?\}")


def load(source: str, language: str) -> dict[str, Any]:
    """Return a translation file."""
    value = json.loads((SOURCES[source] / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(value, dict)
    return value


def words(text: str) -> set[str]:
    """Return a text's words, lower case: not its placeholders, paths or identifiers."""
    text = IDENTIFIER.sub(" ", ICU_ARGUMENT.sub(" ", text))
    return {word.lower() for word in WORD.findall(text)}


def english_words() -> set[str]:
    """Return every word of the English texts of the integration and the card."""
    return {
        word
        for source in SOURCES
        for text in flatten(load(source, "en")).values()
        for word in words(text)
    }


ENGLISH = english_words()


def english_left(language: str, texts: dict[str, str]) -> list[str]:
    """Return the English words in a language's texts that no exception allows, by key."""
    allowed = NAMES_AND_UNITS | SHARED_WORDS[language]
    found = []
    for key, text in sorted(texts.items()):
        left = sorted((words(text) & ENGLISH) - allowed - LITERALS.get(key, set()))
        if left:
            found.append(f"{language} {key}: {', '.join(left)} in {text!r}")
    return found


def render(text: str, placeholders: dict[str, str]) -> str:
    """Return a text as the frontend shows it, its placeholders filled.

    A date or time argument (`{sent, date, medium}`) is written as a number date; a value that
    is no time is left as it is, so that a word filled in shows.
    """

    def fill(match: re.Match[str]) -> str:
        value = placeholders[match[1]]
        if match[2] in ("date", "time") and value.isdigit():
            when = datetime.fromtimestamp(int(value) / 1000, UTC)
            return when.strftime("%d.%m.%Y" if match[2] == "date" else "%H:%M")
        return value

    return ICU_ARGUMENT.sub(fill, text)


@pytest.mark.parametrize(
    ("source", "language"), [(source, language) for source in SOURCES for language in LANGUAGES]
)
def test_no_english_left_in_a_translation(source: str, language: str) -> None:
    """Every text of another language is in that language, but for the listed exceptions."""
    assert english_left(language, flatten(load(source, language))) == []


def test_the_check_finds_english_left() -> None:
    """An English word in a German text is found; the German words around it are not."""
    texts = {"issues.x.title": "Kein Kontakt seit never", "issues.y.title": "Thermostat im Ring"}
    assert english_left("de", texts) == ["de issues.x.title: never in 'Kein Kontakt seit never'"]


def test_the_check_passes_what_a_language_shares_with_english() -> None:
    """A schedule's literal field names and the shared words are no English left."""
    key = "services.set_schedule.fields.schedule.description"
    assert english_left("de", {key: "Tage mit time, temp und type; in Home Assistant"}) == []


def trouble_of_a_thermostat_never_seen(cause: Cause) -> Trouble:
    """Return the trouble of a thermostat never seen, with no battery or firmware known."""
    return Trouble(
        serial=SERIAL,
        since_ms=1_795_806_540_000,
        causes=(cause,),
        last_seen_ms=None,
        battery_voltage=None,
        firmware=None,
        read_only=False,
    )


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_repair_shows_no_english_word_when_nothing_is_known(
    hass: HomeAssistant, language: str, paired: PairedThermostat
) -> None:
    """Each "not taking commands" repair, filled as the code fills it, reads in the language.

    Nothing is known of the thermostat (never seen, no battery or firmware reported): the
    texts still show no English word, and every time in them is one the frontend can write.
    """
    issues = await async_get_translations(hass, language, "issues", ["thermostat_cloud"])
    prefix = "component.thermostat_cloud.issues.not_taking_commands_"
    for cause in COMMANDS_CAUSES:
        placeholders = commands_placeholders(
            paired.service, trouble_of_a_thermostat_never_seen(Cause(cause))
        )
        shown = {
            key: render(issues[f"{prefix}{cause}.{key}"], placeholders)
            for key in ("title", "description")
        }
        assert english_left(language, shown) == [], cause
        for argument in ICU_ARGUMENT.finditer(issues[f"{prefix}{cause}.description"]):
            if argument[2] in ("date", "time"):
                assert placeholders[argument[1]].isdigit(), f"{argument[1]} is not a time"


async def test_a_refused_mode_is_named_as_home_assistant_names_it(
    hass: HomeAssistant, pair_thermostat: PairThermostat
) -> None:
    """A German user asking for a mode the thermostat lacks reads its German name."""
    hass.config.language = "de"
    paired = await pair_thermostat()
    with pytest.raises(ServiceValidationError) as refused:
        await hass.services.async_call(
            CLIMATE_DOMAIN,
            SERVICE_SET_TEMPERATURE,
            {
                ATTR_ENTITY_ID: paired.entity_id("climate"),
                ATTR_HVAC_MODE: HVACMode.DRY,
                ATTR_TEMPERATURE: 22.0,
            },
            blocking=True,
        )
    assert refused.value.translation_key == "hvac_mode_unsupported"
    assert refused.value.translation_placeholders == {"hvac_mode": "Entfeuchtung"}


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_no_entity_name_is_longer_than_the_device_page_shows(language: str) -> None:
    """Names of sensors, switches and the rest: at most 40 characters in every language."""
    entity = load("integration", language)["entity"]
    too_long = [
        f"{platform}.{key}: {len(texts['name'])} characters, {texts['name']!r}"
        for platform, descriptions in entity.items()
        for key, texts in descriptions.items()
        if len(texts.get("name", "")) > MAX_NAME
    ]
    assert too_long == []


# Schedules a person could send (the card, an action in YAML), each refused: one of each
# refusal the schedule check gives.
BAD_SCHEDULES = {
    "malformed": {**SCHEDULE, "days": {"1": {"0": {"time": 90000, "temp": 21.0}}}},
    "empty day": {**SCHEDULE, "days": {"1": {}}},
    "same time": {**SCHEDULE, "days": {"1": {"0": RANGE_ENTRY, "1": RANGE_ENTRY}}},
    "too warm": {**SCHEDULE, "days": {"6": {"0": {**RANGE_ENTRY, "type": "HEAT", "temp": 40}}}},
    "range order": {
        **SCHEDULE,
        "schedule_mode": "RANGE",
        "days": {"2": {"0": {**RANGE_ENTRY, "temp-min": 24.0, "temp-max": 24.0}}},
    },
}


def refused_as_shown(exceptions: dict[str, str], err: HomeAssistantError) -> dict[str, str]:
    """Return a refusal's text as the frontend shows it, filled with the code's placeholders."""
    key = f"component.{DOMAIN}.exceptions.{err.translation_key}.message"
    return {key: render(exceptions[key], err.translation_placeholders or {})}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_refused_command_shows_no_english_word(
    hass: HomeAssistant, language: str, pair_thermostat: PairThermostat
) -> None:
    """Refusals read in the language, filled as the code fills them.

    A schedule's mistakes are named by weekday and clock time; refusals the core words only in
    English (the APIs' messages: a preset or setting that does not exist, an unknown
    thermostat) leave that English in the log.
    """
    hass.config.language = language
    paired = await pair_thermostat()
    exceptions = await async_get_translations(hass, language, "exceptions", [DOMAIN])
    shown: dict[str, str] = {}
    for schedule in BAD_SCHEDULES.values():
        with pytest.raises(ServiceValidationError) as refused:
            await hass.services.async_call(
                DOMAIN,
                "set_schedule",
                {ATTR_ENTITY_ID: paired.entity_id("climate"), "schedule": schedule},
                blocking=True,
            )
        shown |= refused_as_shown(exceptions, refused.value)
    commands = paired.service.commands
    refusing: tuple[Callable[[], object], ...] = (
        lambda: commands.set_preset(SERIAL, "sideways"),
        lambda: commands.set_device_setting(SERIAL, "no_such_setting", 1),
        lambda: commands.set_temperature("0000000000000000", 21.0),
    )
    for command in refusing:
        with pytest.raises(CommandError) as core_refusal:
            command()
        shown |= refused_as_shown(exceptions, command_error(hass, core_refusal.value))
    assert {key.split(".")[-2] for key in shown} == {
        *("schedule_invalid", "schedule_day_empty", "schedule_same_time"),
        *("schedule_temperature_out_of_range", "schedule_low_not_below_high"),
        *("invalid_value", "device_not_found"),
    }
    assert english_left(language, shown) == []


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_port_that_cannot_be_used_is_explained_in_the_language(
    hass: HomeAssistant, language: str, taken_port: int
) -> None:
    """The device port another program holds: the hub's error reads in the language.

    And every cause the open control API's repair may name (the common system errors, and
    any other, whose English text goes to the log only).
    """
    hass.config.language = language
    entry = hub_config_entry(taken_port)
    entry.add_to_hass(hass)
    await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.SETUP_RETRY
    exceptions = await async_get_translations(hass, language, "exceptions", [DOMAIN])
    issues = await async_get_translations(hass, language, "issues", [DOMAIN])
    key = f"component.{DOMAIN}.exceptions.port_unavailable.message"
    shown = {key: render(exceptions[key], entry.error_reason_translation_placeholders or {})}
    repair = f"component.{DOMAIN}.issues.compat_port_unavailable.description"
    for number in (*PORT_CAUSES, errno.ECONNRESET):
        cause = port_cause(hass, OSError(number, os.strerror(number)))
        shown[f"{repair} ({errno.errorcode[number]})"] = render(
            issues[repair], {"port": str(taken_port), "cause": cause}
        )
    assert english_left(language, shown) == []


@pytest.mark.parametrize(
    ("mode", "label"),
    [
        ("cool", "Climatisation"),
        ("range", "Chauffage/Climatisation"),
        ("emergency", "Chauffage de secours"),
    ],
)
async def test_a_mode_the_command_layer_refuses_is_named_as_home_assistant_names_it(
    hass: HomeAssistant, pair_thermostat: PairThermostat, mode: str, label: str
) -> None:
    """A French user asking a heat-only thermostat for a mode reads its French name.

    The command layer refuses it (its equipment lacks the mode) with the thermostat's own
    name for it, "range" or "emergency"; the error names it as Home Assistant's climate
    entity does: its HVAC mode, or the integration's emergency heat preset.
    """
    hass.config.language = "fr"
    paired = await pair_thermostat(shared={"can_cool": False}, device={"has_emer_heat": False})
    with pytest.raises(CommandError) as refused:
        paired.service.commands.set_mode(SERIAL, mode)
    err = command_error(hass, refused.value)
    assert err.translation_key == "mode_unsupported"
    assert err.translation_placeholders == {"mode": label}
    exceptions = await async_get_translations(hass, "fr", "exceptions", [DOMAIN])
    assert english_left("fr", refused_as_shown(exceptions, err)) == []


def test_an_issue_with_a_fix_flow_has_no_description_of_its_own() -> None:
    """Home Assistant opens a fixable issue's flow at once: its texts are the flow's steps."""
    issues = load("integration", "en")["issues"]
    with_flow = {key for key, texts in issues.items() if "fix_flow" in texts}
    assert with_flow
    assert [key for key in sorted(with_flow) if "description" in issues[key]] == []


async def test_every_fixable_issue_the_integration_raises_has_a_fix_flow(
    hass: HomeAssistant,
) -> None:
    """Each issue raised as fixable (waiting thermostats, the open control API) has its flow.

    So it shows the flow's texts, and no description a person would never see.
    """
    issues = load("integration", "en")["issues"]

    def raised_fixable() -> set[str | None]:
        return {
            issue.translation_key
            for issue in ir.async_get(hass).issues.values()
            if issue.domain == DOMAIN and issue.is_fixable
        }

    UnpairedIssues(hass).async_update(["A", "B", "C", "D"], 10)  # many waiting: one issue
    fixable = raised_fixable()
    UnpairedIssues(hass).async_update(["A"], 10)  # one waiting: its own issue
    async_open_control_api_listening(hass, 8080, "entry")
    fixable |= raised_fixable()
    assert fixable == {"unpaired_thermostats", "unpaired_thermostat", "compat_api_open"}
    for key in map(str, fixable):
        assert "fix_flow" in issues[key], key
        assert "description" not in issues[key], key
