"""scripts/check-newest-ha: what in a Home Assistant log fails the check, and its command line.

Lines as Home Assistant writes them before 2026.11 and from 2026.11 on (the UTC offset in the
timestamp); the samples are lines real runs of the check wrote. The browser steps it drives
are the browser tests' (tests/browser/walkthrough.py), tested there.
"""

from __future__ import annotations

import subprocess

import pytest

from .scripts import SCRIPTS, load_script

check = load_script("check_newest_ha")

STAMPS = [
    "2026-11-25 14:18:31.747",
    "2026-11-25 14:18:31.747+00:00",
    "2026-11-25 09:18:31.747-05:00",
]
"""Home Assistant 2026.10 and earlier; 2026.11 and later, in UTC and in New York."""


@pytest.mark.parametrize("stamp", STAMPS)
def test_a_warning_of_the_integrations_logger_fails(stamp: str) -> None:
    """A warning the integration logs itself fails the check, in either timestamp format."""
    log = [
        f"{stamp} INFO (MainThread) [homeassistant.setup] Setting up thermostat_cloud",
        f"{stamp} WARNING (MainThread) [custom_components.thermostat_cloud.hub] Device port busy",
    ]
    (found,) = check.findings(log)
    assert (found.level, found.logger, found.line_number) == (
        "WARNING",
        "custom_components.thermostat_cloud.hub",
        2,
    )


@pytest.mark.parametrize("stamp", STAMPS)
def test_core_naming_the_integration_fails_with_its_traceback(stamp: str) -> None:
    """An error another logger writes about the integration fails, traceback and all."""
    log = [
        f"{stamp} ERROR (MainThread) [homeassistant.config_entries] Error setting up entry "
        "Thermostat Cloud for thermostat_cloud",
        "Traceback (most recent call last):",
        '  File "/config/custom_components/thermostat_cloud/__init__.py", line 40, in setup',
        "KeyError: 'x'",
        f"{stamp} INFO (MainThread) [homeassistant.core] Starting Home Assistant",
    ]
    (found,) = check.findings(log)
    assert found.level == "ERROR"
    assert found.more[-1] == "KeyError: 'x'"


@pytest.mark.parametrize("stamp", STAMPS)
def test_a_deprecation_naming_the_integration_fails_at_any_level(stamp: str) -> None:
    """Core's report of a deprecated call and a Python DeprecationWarning both fail."""
    log = [
        f"{stamp} INFO (MainThread) [homeassistant.helpers.frame] Detected that custom "
        "integration 'thermostat_cloud' calls a deprecated helper at "
        "custom_components/thermostat_cloud/climate.py, line 12",
        f"{stamp} WARNING (MainThread) [py.warnings] /tmp/ha/custom_components/"
        "thermostat_cloud/climate.py:440: DeprecationWarning: old humidity call",
    ]
    assert [found.logger for found in check.findings(log)] == [
        "homeassistant.helpers.frame",
        "py.warnings",
    ]


def test_a_raw_warning_on_the_console_fails() -> None:
    """A warning printed before logging is set up (no timestamp) fails when it names us."""
    log = [
        "/config/custom_components/thermostat_cloud/hub.py:3: DeprecationWarning: old import",
        "  from homeassistant.old import thing",
    ]
    (found,) = check.findings(log)
    assert found.level is None


@pytest.mark.parametrize("stamp", STAMPS)
def test_what_does_not_fail(stamp: str) -> None:
    """Other integrations' warnings, our info lines and core's custom integration notice pass."""
    log = [
        # Said of every custom integration at every start (a real 2026.11 line).
        f"{stamp} WARNING (SyncWorker_0) [homeassistant.loader] We found a custom integration "
        "thermostat_cloud which has not been tested by Home Assistant. This component might "
        "cause stability problems, be sure to disable it if you experience issues with Home "
        "Assistant",
        f"{stamp} WARNING (MainThread) [homeassistant.components.http] Serving on 127.0.0.1",
        f"{stamp} INFO (MainThread) [custom_components.thermostat_cloud] Thermostat paired",
        "/venv/lib/python3.14/site-packages/backoff/_async.py:11: DeprecationWarning: "
        "'asyncio.iscoroutinefunction' is deprecated",
        f"{stamp} WARNING (Thread-3 (_do_shutdown)) [homeassistant.core] Timed out waiting for "
        "thermostat_cloudless to finish",
    ]
    assert check.findings(log) == []


def test_entries_keep_the_thread_names_core_uses() -> None:
    """A thread name with parentheses (Python's own threads) still parses into one entry."""
    (entry,) = check.parse_log(
        [
            "2026-11-25 14:18:31.747+00:00 ERROR (Thread-3 (_do_shutdown)) [custom_components."
            "thermostat_cloud] Stop failed"
        ]
    )
    assert (entry.level, entry.logger, entry.message) == (
        "ERROR",
        "custom_components.thermostat_cloud",
        "Stop failed",
    )


# -- the command line ------------------------------------------------------------------------------

SCRIPT = SCRIPTS / "check-newest-ha"


def run_script(*arguments: str) -> subprocess.CompletedProcess[str]:
    """Run scripts/check-newest-ha with arguments it answers before installing anything."""
    return subprocess.run(
        [str(SCRIPT), *arguments], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_says_what_it_checks_and_how_to_call_it(flag: str) -> None:
    """`--help` is not taken for a version: it prints the usage and what is checked."""
    done = run_script(flag)
    assert done.returncode == 0, done.stderr
    assert "scripts/check-newest-ha 2026.10.4 ..." in done.stdout
    assert "schedule card" in done.stdout
    assert "pairing dialog" in done.stdout
    assert not done.stdout.startswith("#")
    assert "source" not in done.stdout  # the header only, not the code after it


def test_an_unknown_option_is_refused_with_the_usage() -> None:
    """A mistyped option fails at once (status 2), saying which, before installing anything."""
    done = run_script("2026.11.0", "--prerelease")
    assert done.returncode == 2
    assert "unknown option --prerelease" in done.stderr
    assert "scripts/check-newest-ha --help" in done.stderr
    assert done.stdout == ""
