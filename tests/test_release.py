"""scripts/release.py: what a version tag publishes, and the tags it refuses.

The zip is what HACS installs (hacs.json `zip_release`), so it must hold the integration's
committed files at its root and nothing else; a tag must name manifest.json's version and
CHANGELOG.md must say what the version changes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import subprocess
import sys
import zipfile

import pytest

from .scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "release.py"


release = load_script("release")
VERSION = release.manifest_version()


def run(*args: str, github_output: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the script as the release workflow does (its outputs file, when given)."""
    env = {key: value for key, value in os.environ.items() if key != "GITHUB_OUTPUT"}
    if github_output is not None:
        env["GITHUB_OUTPUT"] = str(github_output)
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def test_the_tag_of_the_manifest_version_makes_the_zip_hacs_installs(tmp_path: Path) -> None:
    """The zip holds the committed integration at its root, as HACS unpacks it."""
    outputs = tmp_path / "github_output"
    result = run(f"v{VERSION}", str(tmp_path), github_output=outputs)
    assert result.returncode == 0, result.stderr

    hacs = json.loads((ROOT / "hacs.json").read_text())
    assert hacs["zip_release"] is True
    with zipfile.ZipFile(tmp_path / hacs["filename"]) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("manifest.json"))
    committed = subprocess.run(
        ["git", "ls-files", "custom_components/thermostat_cloud"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert names == {name.removeprefix("custom_components/thermostat_cloud/") for name in committed}
    assert {"__init__.py", "manifest.json", "brand/icon.png", "translations/en.json"} <= names
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in names)
    assert manifest["version"] == VERSION
    assert (tmp_path / "notes.md").read_text() == release.changelog_section(
        (ROOT / "CHANGELOG.md").read_text(), VERSION
    )
    assert outputs.read_text() == f"version={VERSION}\nprerelease=false\n"


@pytest.mark.parametrize("tag", ["v0.0.1", VERSION, f"v{VERSION}.1", "latest"])
def test_a_tag_that_is_not_the_manifest_version_is_refused(tmp_path: Path, tag: str) -> None:
    """Nothing is written for a tag that does not name manifest.json's version."""
    result = run(tag, str(tmp_path))
    assert result.returncode == 1
    assert f"does not match manifest.json's version {VERSION}" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_version_the_changelog_does_not_describe_is_refused() -> None:
    """Release notes come from CHANGELOG.md; a version missing there cannot be released."""
    changelog = "# Changelog\n\n## [0.2.0] - 2026-12-01\n\n- Fan timer.\n\n## [0.1.0]\n\n- First.\n"
    assert release.changelog_section(changelog, "0.2.0") == "- Fan timer.\n"
    assert release.changelog_section(changelog, "0.1.0") == "- First.\n"
    with pytest.raises(release.ReleaseError, match=r"no section for 0\.3\.0"):
        release.changelog_section(changelog, "0.3.0")
    with pytest.raises(release.ReleaseError, match=r"section for 0\.1\.1 is empty"):
        release.changelog_section("## [0.1.1]\n\n## [0.1.0]\n- First.\n", "0.1.1")


def test_every_changelog_version_is_one_the_loader_accepts() -> None:
    """Each `## [version]` of CHANGELOG.md, newest first, the first being manifest.json's."""
    from awesomeversion import AwesomeVersion

    changelog = (ROOT / "CHANGELOG.md").read_text()
    versions = [
        line.removeprefix("## [").partition("]")[0]
        for line in changelog.splitlines()
        if line.startswith("## [")
    ]
    assert versions[0] == VERSION
    assert versions == sorted(versions, key=AwesomeVersion, reverse=True)
