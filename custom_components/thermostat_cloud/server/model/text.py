"""Text from outside (thermostats, clients), made safe to log and to show.

A newline would forge a log line, an unpaired surrogate would fail the log handler, and the
host refuses states over 255 characters: every outside text goes through one of these.
"""

from __future__ import annotations

LOG_TEXT_MAX = 200
"""Characters of one outside value in a log line; the rest is cut."""
STATE_TEXT_MAX = 255
"""The host's limit of a state (and what its device registry shows)."""


def _escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def printable(text: str) -> str:
    """Return the text with every unprintable character (newlines, surrogates) escaped."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else _escape(char) for char in text)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


class ForLog:
    """An outside value in a log line: formatted (escaped, cut) only when the line is."""

    __slots__ = ("_limit", "_value")

    def __init__(self, value: object, limit: int) -> None:
        self._value = value
        self._limit = limit

    def __str__(self) -> str:
        value = self._value
        text = value if isinstance(value, str) else repr(value)
        # Cut before escaping: a megabyte of control characters is not escaped in full.
        return _cut(printable(_cut(text, self._limit)), self._limit)

    __repr__ = __str__


def for_log(value: object, limit: int = LOG_TEXT_MAX) -> ForLog:
    """`value` for a `%s` of a log call: one line, encodable, at most `limit` characters."""
    return ForLog(value, limit)


def for_state(value: object) -> str | None:
    """Return a reported text as the host may show it (printable, at most 255), None if none."""
    if not isinstance(value, str) or not value:
        return None
    return _cut(printable(_cut(value, STATE_TEXT_MAX)), STATE_TEXT_MAX)
