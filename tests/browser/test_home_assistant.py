"""The Home Assistant the UI runs on: everything the UI loads is installed, nothing fails."""

from __future__ import annotations

import re

import pytest

from bench.ha_server import CONSOLE_LOG
from tests.browser.harness import BrowserHomeAssistant

pytestmark = pytest.mark.browser

LOG_LINE = re.compile(
    # 2026.10: "2026-11-25 14:37:29.970 ERROR ..."; 2026.11 adds the UTC offset to the time.
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:?\d\d|Z)? "
    r"(?P<level>[A-Z]+) \((?P<thread>[^)]*)\) \[(?P<logger>[^\]]+)\] (?P<message>.*)$"
)
SETUP_LOGGERS = ("homeassistant.setup", "homeassistant.loader", "homeassistant.requirements")
"""Where Home Assistant says an integration could not be loaded (a missing requirement)."""


def logged_errors(text: str) -> list[tuple[str, str]]:
    """Return (logger, message) of every ERROR or CRITICAL line of Home Assistant's log."""
    return [
        (match["logger"], match["message"])
        for line in text.splitlines()
        if (match := LOG_LINE.match(line)) and match["level"] in ("ERROR", "CRITICAL")
    ]


def test_log_line_pattern_reads_both_time_formats() -> None:
    """Lines of 2026.10 and of 2026.11 (which adds the UTC offset) are both read."""
    for stamp in ("2026-11-25 14:37:29.970", "2026-11-25 14:37:29.970+00:00"):
        line = f"{stamp} ERROR (MainThread) [homeassistant.setup] Setup failed for 'x': boom"
        assert logged_errors(line) == [("homeassistant.setup", "Setup failed for 'x': boom")]


@pytest.mark.asyncio(loop_scope="session")
async def test_ui_integrations_load_without_installs(
    home_assistant: BrowserHomeAssistant,
) -> None:
    """Home Assistant, started with --skip-pip, loads what its UI needs (the dev dependencies).

    The voice integrations among them: without their packages the UI hangs at "Loading...".
    Nothing that is loaded logs a setup error, and the integration logs no error at all.
    """
    config = await home_assistant.client.call("GET", "/api/config")
    assert {"frontend", "assist_pipeline", "conversation", "recorder", "thermostat_cloud"} <= set(
        config["components"]
    )
    errors = logged_errors((home_assistant.config_dir / CONSOLE_LOG).read_text(errors="replace"))
    assert [
        (logger, message)
        for logger, message in errors
        if logger in SETUP_LOGGERS or logger.startswith("custom_components.thermostat_cloud")
    ] == []
