"""Benchmark access: the Home Assistant side of `scripts/bench --home-assistant`.

Not part of the product. `bench/ha_server.py` copies this folder into the throwaway
configuration of the Home Assistant it starts, as the custom integration `bench_access`. Once
Home Assistant has set it up, it has created an administrator and a long-lived access token for
the load generator and written the token to `token_file` (mode 0600, inside that throwaway
configuration). It also ties Home Assistant's life to the load generator's: Home Assistant stops
when its standard input closes (the load generator went away) or after `max_seconds`.

It records when Home Assistant accepts each `climate.set_temperature` call (the moment it
fires `call_service`, after validating the call and before running it), in
`time.monotonic_ns()`, which is the same clock in every process of the machine; the load
generator reads and clears them with `GET /api/bench_access/accepted`.

With `max_unpaired_devices`, once Home Assistant has started (before the load generator
connects a thermostat) it sets the running hub's limit of remembered unpaired thermostats
(`ServiceConfig.max_unpaired_devices`, 50 in every real install and not an option a user has):
the benchmark's fleet is mostly unpaired, and its scenarios address thousands of thermostats
that a real home would have paired, which are never forgotten. Only this throwaway
configuration has the setting; the integration itself has no knob for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
import logging
import os
from pathlib import Path
import sys
import time
from typing import Any

from aiohttp import web
from homeassistant.auth.const import GROUP_ID_ADMIN
from homeassistant.auth.models import TOKEN_TYPE_LONG_LIVED_ACCESS_TOKEN
from homeassistant.const import ATTR_DOMAIN, ATTR_SERVICE, EVENT_CALL_SERVICE
from homeassistant.core import Event, HassJob, HomeAssistant, callback
import homeassistant.helpers.config_validation as cv
from homeassistant.helpers.event import async_call_later
from homeassistant.helpers.http import HomeAssistantView
from homeassistant.helpers.start import async_at_started
from homeassistant.helpers.typing import ConfigType
import voluptuous as vol

DOMAIN = "bench_access"
CONF_TOKEN_FILE = "token_file"
CONF_MAX_SECONDS = "max_seconds"
CONF_WATCH_STDIN = "watch_stdin"
CONF_MAX_UNPAIRED_DEVICES = "max_unpaired_devices"
HUB_DOMAIN = "thermostat_cloud"
USER_NAME = "Benchmark"
TOKEN_LIFETIME = timedelta(days=1)

CONFIG_SCHEMA = vol.Schema(
    {
        DOMAIN: vol.Schema(
            {
                vol.Required(CONF_TOKEN_FILE): cv.string,
                vol.Required(CONF_MAX_SECONDS): vol.Coerce(float),
                vol.Optional(CONF_WATCH_STDIN, default=True): cv.boolean,
                vol.Optional(CONF_MAX_UNPAIRED_DEVICES): cv.positive_int,
            }
        )
    },
    extra=vol.ALLOW_EXTRA,
)

_LOGGER = logging.getLogger(__name__)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Create the benchmark's administrator and token; arrange the stop conditions."""
    conf = config[DOMAIN]
    user = await hass.auth.async_create_user(USER_NAME, group_ids=[GROUP_ID_ADMIN])
    refresh_token = await hass.auth.async_create_refresh_token(
        user,
        client_name="scripts/bench",
        token_type=TOKEN_TYPE_LONG_LIVED_ACCESS_TOKEN,
        access_token_expiration=TOKEN_LIFETIME,
    )
    token = hass.auth.async_create_access_token(refresh_token)
    await hass.async_add_executor_job(_write_secret, Path(conf[CONF_TOKEN_FILE]), token)

    @callback
    def _stop(reason: str) -> None:
        _LOGGER.warning("Stopping Home Assistant: %s", reason)
        hass.async_create_task(hass.async_stop())

    @callback
    def _time_up(_: datetime) -> None:
        _stop("time limit reached")

    async_call_later(
        hass, conf[CONF_MAX_SECONDS], HassJob(_time_up, "bench time limit", cancel_on_shutdown=True)
    )
    if conf[CONF_WATCH_STDIN]:
        stdin = sys.stdin.fileno()

        @callback
        def _stdin_readable() -> None:
            if not os.read(stdin, 4096):
                hass.loop.remove_reader(stdin)
                _stop("the load generator went away")

        hass.loop.add_reader(stdin, _stdin_readable)
    _record_accepted_commands(hass)
    if CONF_MAX_UNPAIRED_DEVICES in conf:
        _raise_unpaired_limit(hass, conf[CONF_MAX_UNPAIRED_DEVICES])
    return True


def _raise_unpaired_limit(hass: HomeAssistant, limit: int) -> None:
    """Let the running hub remember `limit` unpaired thermostats (the benchmark's fleet).

    Applied when Home Assistant has started: the hub entry is loaded by then, and
    `GET /api/config` says RUNNING (which the load generator waits for) only after this ran.
    """

    @callback
    def _apply(hass: HomeAssistant) -> None:
        hubs = hass.config_entries.async_loaded_entries(HUB_DOMAIN)
        if not hubs:
            _LOGGER.error("No loaded %s entry: the unpaired limit stays as it is", HUB_DOMAIN)
        for entry in hubs:
            entry.runtime_data.service.config.max_unpaired_devices = limit

    async_at_started(hass, _apply)


def _record_accepted_commands(hass: HomeAssistant) -> None:
    """Note the acceptance time of every climate.set_temperature call, for the load generator."""
    accepted: list[int] = []

    @callback
    def _is_set_temperature(data: Mapping[str, Any]) -> bool:
        return bool(data[ATTR_DOMAIN] == "climate" and data[ATTR_SERVICE] == "set_temperature")

    @callback
    def _accepted(_: Event[Any]) -> None:
        accepted.append(time.monotonic_ns())

    hass.bus.async_listen(EVENT_CALL_SERVICE, _accepted, event_filter=_is_set_temperature)
    hass.http.register_view(AcceptedCommandsView(accepted))


class AcceptedCommandsView(HomeAssistantView):
    """`GET /api/bench_access/accepted`: acceptance times since the last read, oldest first."""

    url = "/api/bench_access/accepted"
    name = "api:bench_access:accepted"

    def __init__(self, accepted: list[int]) -> None:
        """Initialize the view with the list the acceptance times are kept in."""
        self.accepted = accepted

    async def get(self, request: web.Request) -> web.Response:
        """Hand the recorded times over and forget them."""
        times = list(self.accepted)
        self.accepted.clear()
        return self.json({"accepted_ns": times})


def _write_secret(path: Path, secret: str) -> None:
    """Write where only this user can read, and atomically (the reader polls for the file)."""
    partial = path.with_suffix(".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(secret)
    partial.replace(path)
