"""Every language the integration and the schedule card ship is whole.

Home Assistant shows a translation's text in place of the English one, key by key, and falls
back to English only for a key a language lacks: a missing key is an English sentence in the
middle of a French dialog, a placeholder lost or misspelt shows the user "{serial}" or drops the
value, a broken Markdown link leads nowhere. So each language must have exactly the keys of
English, each string the placeholders of its English one, and the same links, bold text and
paragraphs. The card's strings are JSON files too (frontend/src/translations/), checked the same
way, and each must be one the card loads.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
import re
from typing import Any

from homeassistant.core import HomeAssistant
from homeassistant.helpers.translation import async_get_translations
import pytest

ROOT = Path(__file__).resolve().parent.parent
INTEGRATION_TRANSLATIONS = ROOT / "custom_components" / "thermostat_cloud" / "translations"
CARD_TRANSLATIONS = ROOT / "frontend" / "src" / "translations"
CARD_LOCALIZE = ROOT / "frontend" / "src" / "localize.ts"
DOMAIN = "thermostat_cloud"

# The languages of the countries these thermostats were sold in, besides English.
LANGUAGES = ("de", "es", "fr", "it", "nl")

PLACEHOLDER = re.compile(r"\{(\w+(?:, *\w+(?:, *\w+)?)?)\}")
"""A placeholder, with the ICU type and style the frontend formats it with (`{sent, date, medium}`)."""
MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def load(path: Path) -> dict[str, Any]:
    """Return a JSON object file."""
    value = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(value, dict), f"{path.name}: not a JSON object"
    return value


def markup(text: str) -> dict[str, object]:
    """Return what a translation must keep of a string besides its words."""
    return {
        "placeholders": sorted(set(PLACEHOLDER.findall(text))),
        "link targets": sorted(MARKDOWN_LINK.findall(text)),
        "bold markers (**)": text.count("**"),
        "paragraph breaks": text.count("\n\n"),
    }


def translation_faults(
    english: dict[str, Any], translation: dict[str, Any], prefix: str = ""
) -> list[str]:
    """Where a translation departs from English, one line each, naming the key and the fault."""
    faults: list[str] = []
    for key in sorted(english.keys() | translation.keys()):
        path = prefix + key
        if key not in translation:
            faults.append(f"{path}: missing")
            continue
        if key not in english:
            faults.append(f"{path}: not in English (a key English lacks is never shown)")
            continue
        source, value = english[key], translation[key]
        if isinstance(source, dict) and isinstance(value, dict):
            faults += translation_faults(source, value, f"{path}.")
        elif isinstance(source, dict) or isinstance(value, dict):
            faults.append(f"{path}: not the shape English has (a section and a text)")
        elif not isinstance(value, str) or not value.strip():
            faults.append(f"{path}: empty")
        else:
            wanted, found = markup(source), markup(value)
            faults += [
                f"{path}: {what} {found[what]}, English has {wanted[what]}"
                for what in wanted
                if found[what] != wanted[what]
            ]
    return faults


def card_languages(localize_source: str) -> set[str]:
    """Return the languages localize.ts imports and puts in its table."""
    imported = dict(
        re.findall(r'import (\w+) from "\./translations/([\w-]+)\.json";', localize_source)
    )
    table = re.search(r"const TRANSLATIONS\b[^=]*=\s*\{([^}]*)\}", localize_source)
    assert table is not None, "localize.ts has no TRANSLATIONS table"
    return {imported[name.strip()] for name in table[1].split(",") if name.strip() in imported}


SOURCES = {
    "integration": INTEGRATION_TRANSLATIONS,
    "card": CARD_TRANSLATIONS,
}


def shipped(source: str) -> list[str]:
    """Return the languages a source ships, English among them."""
    return sorted(path.stem for path in SOURCES[source].glob("*.json"))


@pytest.mark.parametrize("source", SOURCES)
def test_every_language_is_shipped(source: str) -> None:
    """English, German, French, Dutch, Spanish and Italian: a deleted file fails here."""
    assert {"en", *LANGUAGES} <= set(shipped(source))


def test_the_card_loads_every_language_file() -> None:
    """A card translation file that localize.ts does not load would never be seen."""
    assert card_languages(CARD_LOCALIZE.read_text(encoding="utf-8")) == set(shipped("card"))


@pytest.mark.parametrize(
    ("source", "language"),
    [(source, language) for source in SOURCES for language in shipped(source) if language != "en"],
)
def test_translation_is_whole(source: str, language: str) -> None:
    """Every key of English, no other, each string with its English placeholders and Markdown."""
    folder = SOURCES[source]
    faults = translation_faults(load(folder / "en.json"), load(folder / f"{language}.json"))
    assert not faults, f"{source} translation {language}.json:\n" + "\n".join(faults)


def test_the_check_catches_a_broken_translation() -> None:
    """The check above can fail, and says where: each kind of damage, by key."""
    english = load(INTEGRATION_TRANSLATIONS / "en.json")
    french = load(INTEGRATION_TRANSLATIONS / "fr.json")
    assert translation_faults(english, french) == []
    english = copy.deepcopy(english)
    english["issues"]["read_more"] = {"title": "See [the docs](https://example.org/docs) now"}
    broken = copy.deepcopy(french)
    broken["issues"]["read_more"] = {"title": "Voir [la doc](https://example.org/doc)"}
    del broken["config"]["abort"]["paired"]
    broken["config"]["abort"]["no_such_reason"] = "Parti."
    broken["config"]["abort"]["already_paired"] = "Le thermostat {serie} est déjà appairé."
    broken["config"]["step"]["discovered"]["title"] = ""
    broken["issues"]["compat_port_unavailable"]["description"] = (
        english["issues"]["compat_port_unavailable"]["description"]
        .replace("**", "")
        .replace("\n\n", " ")
    )
    broken["selector"] = "Sélecteur"

    assert translation_faults(english, broken) == [
        "config.abort.already_paired: placeholders ['serie'], English has ['serial']",
        "config.abort.no_such_reason: not in English (a key English lacks is never shown)",
        "config.abort.paired: missing",
        "config.step.discovered.title: empty",
        "issues.compat_port_unavailable.description: bold markers (**) 0, English has 4",
        "issues.compat_port_unavailable.description: paragraph breaks 0, English has 1",
        "issues.read_more.title: link targets ['https://example.org/doc'], "
        "English has ['https://example.org/docs']",
        "selector: not the shape English has (a section and a text)",
    ]


def test_the_card_check_catches_a_file_it_does_not_load() -> None:
    """A language file imported but left out of localize.ts's table is found."""
    source = CARD_LOCALIZE.read_text(encoding="utf-8")
    without_dutch = re.sub(r"(const TRANSLATIONS\b[^{]*\{[^}]*?), nl \}", r"\1 }", source)
    assert without_dutch != source
    assert "nl" in card_languages(source)
    assert "nl" not in card_languages(without_dutch)


def flatten(value: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """Return a translation's strings by their dotted key (after `prefix`, as Home Assistant's)."""
    flat: dict[str, str] = {}
    for key, sub in value.items():
        name = f"{prefix}.{key}" if prefix else key
        if isinstance(sub, dict):
            flat |= flatten(sub, name)
        else:
            flat[name] = sub
    return flat


@pytest.mark.parametrize("language", LANGUAGES)
async def test_home_assistant_serves_the_language(hass: HomeAssistant, language: str) -> None:
    """Home Assistant's own loader gives a user of the language its text, never the English."""
    translation = load(INTEGRATION_TRANSLATIONS / f"{language}.json")
    for category, section in translation.items():
        served = await async_get_translations(hass, language, category, [DOMAIN])
        expected = (
            flatten(section, f"component.{DOMAIN}.{category}")
            if isinstance(section, dict)
            else {f"component.{DOMAIN}.{category}": section}
        )
        assert served == expected, f"{language}: {category}"
