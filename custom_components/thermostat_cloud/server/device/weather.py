"""`/svc/weather/v1`: the query token firmware sends, read and checked.

Firmware asks `weather_url` + a token, `"<postal code>,<country code>"` (`07719,US`) or `ipv4`,
and reads the answer under that token.
"""

from __future__ import annotations

from multidict import MultiMapping

MAX_QUERY_LENGTH = 64
"""A postal code and a country code fit many times over; more is not a thermostat."""


class WeatherQueryError(ValueError):
    """A `/svc/weather/v1` query firmware would never send."""


def weather_token(query: MultiMapping[str]) -> str:
    """Return the `query` token: echoed back as the answer's key, so one short printable line."""
    values = query.getall("query", [])
    if not values:
        raise WeatherQueryError("query parameter required")
    if len(values) > 1:
        raise WeatherQueryError("query parameter given more than once")
    token = values[0]
    if not token.strip():
        raise WeatherQueryError("query parameter is empty")
    if len(token) > MAX_QUERY_LENGTH:
        raise WeatherQueryError(f"query parameter longer than {MAX_QUERY_LENGTH} characters")
    if any(not char.isprintable() for char in token):
        raise WeatherQueryError("query parameter contains control characters")
    return token


def postal_location(token: str) -> tuple[str, str] | None:
    """Return the postal code and country code a `"<postal code>,<country code>"` token names."""
    postal, comma, country = token.rpartition(",")
    if not (comma and postal.strip() and country.strip()):
        return None
    return postal.strip(), country.strip()


def token_kind(token: str) -> str:
    """Return what kind of location a token names, without the location itself (for diagnostics)."""
    if token == "ipv4":
        return "ipv4"
    return "postal_code" if postal_location(token) is not None else "other"
