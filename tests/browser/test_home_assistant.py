"""The Home Assistant the UI runs on: everything the UI loads is installed, nothing fails."""

from __future__ import annotations

import pytest

from bench.ha_server import CONSOLE_LOG
from tests.browser.harness import SETUP_LOGGERS, BrowserHomeAssistant, log_records, logged_errors

pytestmark = pytest.mark.browser


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
    Nothing logs a setup error (the integration's own errors are checked after all the browser
    tests, by the `home_assistant` fixture).
    """
    config = await home_assistant.client.call("GET", "/api/config")
    assert {"frontend", "assist_pipeline", "conversation", "recorder", "thermostat_cloud"} <= set(
        config["components"]
    )
    log = (home_assistant.config_dir / CONSOLE_LOG).read_text(errors="replace")
    # The log is read (its format is the one expected): the warning every custom integration
    # gets is there.
    assert any(
        logger == "homeassistant.loader" and "custom integration thermostat_cloud" in message
        for _, logger, message in log_records(log)
    )
    errors = logged_errors(log)
    assert [(logger, message) for logger, message in errors if logger in SETUP_LOGGERS] == []
