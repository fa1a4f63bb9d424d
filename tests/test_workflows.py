"""The repository's GitHub workflows and issue templates, as files GitHub will read.

The workflows cannot run here (they run where the repository is published): these tests make
sure GitHub can parse them, that they run what the README and the release process promise,
and that every script they call exists. The issue templates ask for what a maintainer needs.
"""

from __future__ import annotations

import os
from pathlib import Path
import re
from typing import Any

from homeassistant.util.yaml import load_yaml_dict
import pytest

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
TEMPLATES = ROOT / ".github" / "ISSUE_TEMPLATE"


def load(path: Path) -> dict[str, Any]:
    """Return a workflow or template as GitHub reads it (YAML 1.1 reads the key `on` as True)."""
    data: dict[Any, Any] = dict(load_yaml_dict(path))
    if True in data:
        data["on"] = data.pop(True)
    return data


def steps(workflow: dict[str, Any]) -> list[dict[str, Any]]:
    """Return every step of every job."""
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def runs(workflow: dict[str, Any]) -> str:
    """Return the shell commands of every step, as one text."""
    return "\n".join(step.get("run", "") for step in steps(workflow))


def uses(workflow: dict[str, Any]) -> set[str]:
    """Return the actions and reusable workflows used, without their refs."""
    used = {step["uses"].partition("@")[0] for step in steps(workflow) if "uses" in step}
    return used | {job["uses"] for job in workflow["jobs"].values() if "uses" in job}


@pytest.fixture(scope="module")
def workflows() -> dict[str, dict[str, Any]]:
    """Return every workflow by file name."""
    return {path.name: load(path) for path in sorted(WORKFLOWS.glob("*.yml"))}


def test_every_workflow_is_one_github_can_run(workflows: dict[str, dict[str, Any]]) -> None:
    """Each has a name, triggers and jobs; each step runs or uses something, pinned to a ref."""
    assert set(workflows) == {"validate.yml", "tests.yml", "release.yml", "newest-ha.yml"}
    for name, workflow in workflows.items():
        assert workflow.keys() >= {"name", "on", "jobs"}, name
        assert workflow["permissions"] == {"contents": "read"}, f"{name}: least privilege"
        for job_id, job in workflow["jobs"].items():
            assert ("steps" in job) != ("uses" in job), f"{name}: {job_id}"
            if "steps" in job:
                assert job["runs-on"] == "ubuntu-latest", f"{name}: {job_id}"
        for step in steps(workflow):
            assert ("run" in step) != ("uses" in step), f"{name}: {step}"
            if "uses" in step:
                assert re.fullmatch(r"[\w.-]+/[\w./-]+@[\w.-]+", step["uses"]), step["uses"]


def test_every_script_a_workflow_runs_exists(workflows: dict[str, dict[str, Any]]) -> None:
    """A renamed script breaks the workflow that runs it: caught here, not on GitHub."""
    called = set()
    for workflow in workflows.values():
        called |= set(re.findall(r"\bscripts/[\w.-]+", runs(workflow)))
        for job in workflow["jobs"].values():
            if job.get("uses", "").startswith("./"):
                assert (ROOT / job["uses"]).is_file(), job["uses"]
    assert called >= {"scripts/test", "scripts/check-newest-ha", "scripts/release.py"}
    for script in called:
        path = ROOT / script
        assert path.is_file(), script
        if path.suffix != ".py":
            assert os.access(path, os.X_OK), f"{script} is not executable"


def test_validation_runs_hassfest_and_hacs_on_every_change_and_nightly(
    workflows: dict[str, dict[str, Any]],
) -> None:
    """Hassfest and the HACS action, on pushes, pull requests and a nightly schedule."""
    validate = workflows["validate.yml"]
    assert validate["on"].keys() >= {"push", "pull_request", "schedule", "workflow_call"}
    assert uses(validate) >= {"home-assistant/actions/hassfest", "hacs/action"}
    (hacs,) = (s for s in steps(validate) if s.get("uses", "").startswith("hacs/action@"))
    assert hacs["with"] == {"category": "integration"}, "no HACS check may be ignored"


def test_the_readme_test_command_runs_on_every_change(
    workflows: dict[str, dict[str, Any]],
) -> None:
    """scripts/test in its two layers with coverage on the minimum; the newest test helper.

    The fast layer (lint, types, the tests not marked slow or browser) is a job of its own,
    so a change gets its first answer from it; the slow and browser tests follow once it
    passed, add their coverage to the fast layer's and check the whole.
    """
    tests = workflows["tests.yml"]
    assert tests["on"].keys() >= {"push", "pull_request", "workflow_call"}
    jobs = tests["jobs"]
    assert set(jobs) == {"fast", "slow", "newest"}
    fast, slow = runs({"jobs": {"fast": jobs["fast"]}}), runs({"jobs": {"slow": jobs["slow"]}})
    assert "scripts/test -m 'not slow and not browser' --cov" in fast
    assert "upload-artifact" in "\n".join(step.get("uses", "") for step in jobs["fast"]["steps"])
    assert jobs["slow"]["needs"] == "fast"
    assert "pytest -m 'slow or browser' --cov --cov-append" in slow
    assert "scripts/check_coverage.py" in slow
    assert "scripts/test-newest-helper" in runs({"jobs": {"newest": jobs["newest"]}})
    assert "`scripts/test`" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_a_release_needs_the_tag_checked_and_everything_green(
    workflows: dict[str, dict[str, Any]],
) -> None:
    """Only a version tag releases, and only after validation and tests passed on it."""
    release = workflows["release.yml"]
    assert release["on"] == {"push": {"tags": ["v*"]}}
    jobs = release["jobs"]
    assert 'scripts/release.py "$GITHUB_REF_NAME"' in runs(release)
    assert jobs["validate"]["uses"] == "./.github/workflows/validate.yml"
    assert jobs["tests"]["uses"] == "./.github/workflows/tests.yml"
    assert set(jobs["publish"]["needs"]) == {"package", "validate", "tests"}
    assert jobs["publish"]["permissions"] == {"contents": "write"}
    assert "dist/thermostat_cloud.zip" in runs(release)


def test_newest_home_assistant_is_checked_every_night(
    workflows: dict[str, dict[str, Any]],
) -> None:
    """The early warning runs on a schedule, without a push."""
    newest = workflows["newest-ha.yml"]
    assert "schedule" in newest["on"]
    assert "scripts/check-newest-ha" in runs(newest)
    assert "scripts/test-newest-helper" in runs(newest)


def test_the_bug_report_asks_for_what_a_maintainer_needs() -> None:
    """Diagnostics, firmware and Home Assistant versions, and debug log lines with the how-to."""
    assert load(TEMPLATES / "config.yml")["blank_issues_enabled"] is False
    bug = load(TEMPLATES / "bug_report.yml")
    fields = {item["id"]: item for item in bug["body"] if "id" in item}
    for wanted in ("problem", "version", "homeassistant", "firmware", "diagnostics", "logs"):
        assert fields[wanted]["validations"]["required"] is True, wanted
    assert "Download diagnostics" in fields["diagnostics"]["attributes"]["description"]
    how_to = fields["logs"]["attributes"]["description"]
    assert "Enable debug logging" in how_to
    assert "custom_components.thermostat_cloud: debug" in how_to
    for path in TEMPLATES.glob("*.yml"):
        if path.name != "config.yml":
            template = load(path)
            assert template.keys() >= {"name", "description", "body"}, path.name
