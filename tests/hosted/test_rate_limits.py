"""20 requests a minute per key, 100 per user, with headers on every response; time is frozen."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from aiohttp import ClientResponse
from freezegun.api import FrozenDateTimeFactory
import pytest

from custom_components.thermostat_cloud.server.hosted.rate_limits import (
    PRUNE_THRESHOLD,
    WINDOW_MS,
    RateLimiter,
)

from .conftest import CreateKey, HostedClient, Paired

START = datetime(2027, 1, 15, 8, 0, 0, tzinfo=UTC)
RESET = "2027-01-15T08:01:00.000Z"


@pytest.fixture
def frozen(freezer: FrozenDateTimeFactory) -> FrozenDateTimeFactory:
    """Return the clock stopped at START."""
    freezer.move_to(START)
    return freezer


def quota(response: ClientResponse) -> tuple[str, str, str]:
    """Return the rate-limit headers of a response."""
    headers = response.headers
    return (
        headers["X-RateLimit-Limit"],
        headers["X-RateLimit-Remaining"],
        headers["X-RateLimit-Reset"],
    )


async def used_up(api: HostedClient, keys: list[str], requests: int) -> list[str]:
    """Send `requests` requests with each key, every one of them answered; return the keys."""
    for key in keys:
        for _ in range(requests):
            response, _ = await api.get("/devices", key)
            assert response.status == 200
    return keys


async def test_twenty_requests_a_minute_per_key(
    frozen: FrozenDateTimeFactory, paired: Paired
) -> None:
    api, _, _, key = paired

    for remaining in range(19, -1, -1):
        response, _ = await api.get("/devices", key)
        assert response.status == 200
        assert quota(response) == ("20", str(remaining), RESET)

    response, body = await api.get("/devices", key)
    assert (response.status, body) == (429, {"error": "Rate limit exceeded", "retryAfter": RESET})
    assert quota(response) == ("20", "0", RESET)
    assert response.headers["Retry-After"] == "60"

    frozen.tick(timedelta(seconds=59))
    response, body = await api.get("/devices", key)
    assert (response.status, body["retryAfter"]) == (429, RESET)
    assert response.headers["Retry-After"] == "1"

    frozen.tick(timedelta(seconds=1))
    response, _ = await api.get("/devices", key)
    assert response.status == 200
    assert quota(response) == ("20", "19", "2027-01-15T08:02:00.000Z")


async def test_refused_and_failed_requests(frozen: FrozenDateTimeFactory, paired: Paired) -> None:
    """Errors count (the server did the work); 429s do not, so waiting restores the quota."""
    api, _, _, key = paired

    for _ in range(20):
        response, _ = await api.get("/no/such/path", key)
        assert response.status == 404
    for _ in range(5):
        response, _ = await api.get("/devices", key)
        assert response.status == 429

    frozen.tick(timedelta(seconds=60))
    response, _ = await api.get("/devices", key)
    assert quota(response)[1] == "19"


async def test_one_hundred_requests_a_minute_per_user(
    frozen: FrozenDateTimeFactory, paired: Paired, make_key: CreateKey
) -> None:
    """Five keys of one user use up the user's quota; a sixth key is then refused too."""
    api, _, _, first = paired
    await used_up(api, [first, *[await make_key() for _ in range(4)]], 20)

    response, body = await api.get("/devices", await make_key())
    assert (response.status, body) == (429, {"error": "Rate limit exceeded", "retryAfter": RESET})
    assert quota(response) == ("100", "0", RESET)

    frozen.tick(timedelta(seconds=60))
    response, _ = await api.get("/devices", first)
    assert response.status == 200


async def test_headers_follow_the_user_quota_once_it_is_tighter(
    frozen: FrozenDateTimeFactory, paired: Paired, make_key: CreateKey
) -> None:
    api, _, _, first = paired
    keys = await used_up(api, [first, *[await make_key() for _ in range(4)]], 19)
    response, _ = await api.get("/devices", keys[-1])
    # 96 of the user's 100 are used, none of this key's 20 are left: the key's quota shows.
    assert quota(response) == ("20", "0", RESET)

    response, _ = await api.get("/devices", await make_key())

    # A fresh key has 19 left, the user 3: the user's quota shows.
    assert response.status == 200
    assert quota(response) == ("100", "3", RESET)


async def test_requests_without_a_key_are_limited_per_address(
    frozen: FrozenDateTimeFactory, api: HostedClient, paired: Paired
) -> None:
    for remaining in range(19, -1, -1):
        response, body = await api.get("/devices")
        assert (response.status, body) == (401, {"error": "Unauthorized"})
        assert quota(response) == ("20", str(remaining), RESET)

    response, body = await api.get("/devices")
    assert (response.status, body["error"]) == (429, "Rate limit exceeded")
    # A client with a key is not held back by someone guessing from the same address.
    response, _ = await api.get("/devices", paired.key)
    assert response.status == 200


def test_quotas_of_ended_windows_are_forgotten() -> None:
    """Many clients, each once: memory holds only the windows still open, quotas stay exact."""
    limiter = RateLimiter(20)
    for client in range(PRUNE_THRESHOLD):
        limiter.hit(f"client {client}", now=0)
    limiter.hit("late", now=WINDOW_MS - 1)
    assert limiter.quota("client 0", now=WINDOW_MS - 1).remaining == 19

    # The next new client once those windows ended: they are dropped, the open one is kept.
    limiter.hit("next", now=WINDOW_MS)
    assert set(limiter._windows) == {"late", "next"}
    assert limiter.quota("late", now=WINDOW_MS).remaining == 19
    assert limiter.quota("client 0", now=WINDOW_MS).remaining == 20
