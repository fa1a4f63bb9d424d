"""How the browser tests tell English left over in a translated page (tests/browser/walkthrough).

The language tests and scripts/check-newest-ha trust `english_left` to fail on an untranslated
text and to pass a translated page: both ways are checked here, on the card's real strings.
"""

from __future__ import annotations

from tests.browser.walkthrough import english_left, frontend_strings, integration_strings

ENGLISH = {
    "title": "{name} schedule",
    "add_setpoint": "Add setpoint",
    "copy_to": "Copy {day} to",
    "editor_entity": "Thermostat",
    "low": "Low",
}
GERMAN = {
    "title": "Zeitplan {name}",
    "add_setpoint": "Schaltpunkt hinzufügen",
    "copy_to": "{day} kopieren nach",
    "editor_entity": "Thermostat",
    "low": "Min.",
}


def test_a_translated_page_has_no_english_left() -> None:
    """The German texts with their placeholders filled, and words both languages share."""
    shown = "Zeitplan Living room\nSchaltpunkt hinzufügen\nMontag kopieren nach\nThermostat"
    assert english_left(shown, ENGLISH, GERMAN) == []


def test_an_english_text_shows_as_left_over() -> None:
    """A text still in English is named, also cut at its placeholders."""
    shown = "Living room schedule\nAdd setpoint\nCopy Monday to"
    assert english_left(shown, ENGLISH, GERMAN) == [
        "title: 'schedule'",
        "add_setpoint: 'Add setpoint'",
        "copy_to: 'Copy'",
    ]


def test_words_inside_other_words_and_short_pieces_are_not_english() -> None:
    """A word inside another ("Low" in "Lowlands") is no left over, nor a piece under 3 letters."""
    assert english_left("Lowlands\nto", ENGLISH, GERMAN) == []


def test_a_key_without_translation_is_not_checked() -> None:
    """English is what Home Assistant shows for a key a language lacks: not this check's."""
    assert english_left("Add setpoint", ENGLISH, {}) == []


def test_the_texts_come_from_the_translations() -> None:
    """The integration's and Home Assistant's frontend texts load, flat, by language."""
    assert integration_strings("en")["config_subentries.thermostat.initiate_flow.user"] == (
        "Add thermostat"
    )
    assert frontend_strings("en")["ui.panel.config.integrations.config_flow.submit"] == "Submit"
    assert frontend_strings("de")["ui.panel.config.integrations.config_flow.submit"] == "OK"
