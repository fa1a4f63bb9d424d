"""What native readers found (issue 39): English left in other languages, names cut short.

A German reader saw "kein Kontakt seit never": an English word the code filled into a German
text. So the check reads the texts as they are shown, placeholders filled by the code that
fills them, as well as the files themselves: no word of the English texts may appear in
another language's, except names, units, Home Assistant's own English terms and the words the
two languages share ("Thermostat", "Port", "in"). Each exception is listed here, by language,
so a new one is a decision someone made, not an accident.

And the device page cuts an entity's name at about 40 characters: no name is longer, in any
language.
"""

from __future__ import annotations

from datetime import UTC, datetime
import json
from pathlib import Path
import re
from typing import Any

from homeassistant.components.climate.const import (
    ATTR_HVAC_MODE,
    DOMAIN as CLIMATE_DOMAIN,
    SERVICE_SET_TEMPERATURE,
    HVACMode,
)
from homeassistant.const import ATTR_ENTITY_ID, ATTR_TEMPERATURE
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers.translation import async_get_translations
import pytest

from custom_components.thermostat_cloud.issues import COMMANDS_CAUSES, commands_placeholders
from custom_components.thermostat_cloud.server import Cause, Trouble
from tests.conftest import SERIAL, PairedThermostat, PairThermostat
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
            *("filter", "frost", "median", "problem", "start", "starts", "still"),
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
            # "dial" is Spanish too; "(s)" marks a plural that may be one.
            *("dial", "s"),
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
