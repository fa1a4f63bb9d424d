"""Make a release's zip and notes from a version tag: `python scripts/release.py TAG [OUT_DIR]`.

The release workflow (.github/workflows/release.yml) runs it on a pushed tag `vX.Y.Z`, after
the tests passed on that commit. It refuses a tag that is not manifest.json's version, or a
version CHANGELOG.md says nothing about; otherwise it writes to OUT_DIR (default dist/):

- `thermostat_cloud.zip`: the integration's files as committed, at the root of the archive
  (hacs.json's `zip_release`: HACS unpacks it into custom_components/thermostat_cloud/, so
  users get exactly the files that were tested);
- `notes.md`: the version's section of CHANGELOG.md, the release's description.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
import re
import subprocess
import sys
import zipfile

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = "thermostat_cloud"
INTEGRATION = Path("custom_components") / DOMAIN
ZIP_NAME = f"{DOMAIN}.zip"
"""hacs.json's `filename`."""
PRERELEASE = re.compile(r"(a|b|rc|dev)\d*$")
"""A PEP 440 pre-release suffix: such a tag makes a GitHub pre-release (HACS hides it)."""


class ReleaseError(Exception):
    """The tag cannot be released as it is."""


def manifest_version(root: Path = ROOT) -> str:
    """Return the version in the integration's manifest.json."""
    manifest = json.loads((root / INTEGRATION / "manifest.json").read_text(encoding="utf-8"))
    return str(manifest["version"])


def version_of_tag(tag: str, version: str) -> str:
    """Return the version a tag releases; ReleaseError unless it is `v<version>`."""
    if tag != f"v{version}":
        raise ReleaseError(
            f"tag {tag} does not match manifest.json's version {version}: tag v{version}, "
            "or bump the version (manifest.json and pyproject.toml) and tag that"
        )
    return version


def changelog_section(changelog: str, version: str) -> str:
    """Return the notes of a version in CHANGELOG.md (its `## [version]` section)."""
    heading = re.compile(rf"^## \[{re.escape(version)}\].*$", re.MULTILINE)
    if (match := heading.search(changelog)) is None:
        raise ReleaseError(f"CHANGELOG.md has no section for {version}: write one first")
    following = re.compile(r"^## ", re.MULTILINE).search(changelog, match.end())
    notes = changelog[match.end() : following.start() if following else None].strip()
    if not notes:
        raise ReleaseError(f"CHANGELOG.md's section for {version} is empty")
    return notes + "\n"


def integration_files(root: Path = ROOT) -> list[str]:
    """Return the integration's committed files, relative to the repository root."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", str(INTEGRATION)],
        cwd=root,
        check=True,
        capture_output=True,
    ).stdout.decode()
    return sorted(name for name in listed.split("\0") if name)


def build_zip(out: Path, root: Path = ROOT) -> list[str]:
    """Write the release zip (the integration's committed files at its root); its names."""
    names = []
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in integration_files(root):
            arcname = Path(name).relative_to(INTEGRATION).as_posix()
            archive.write(root / name, arcname)
            names.append(arcname)
    return names


def main(argv: list[str]) -> int:
    """Check the tag, then write the zip and the notes."""
    if not 1 <= len(argv) <= 2:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = Path(argv[1]) if len(argv) == 2 else ROOT / "dist"
    try:
        version = version_of_tag(argv[0], manifest_version())
        notes = changelog_section((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), version)
    except ReleaseError as err:
        print(f"release: {err}", file=sys.stderr)
        return 1
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "notes.md").write_text(notes, encoding="utf-8")
    names = build_zip(out_dir / ZIP_NAME)
    prerelease = PRERELEASE.search(version) is not None
    if github_output := os.environ.get("GITHUB_OUTPUT"):  # the workflow's next step reads it
        with Path(github_output).open("a", encoding="utf-8") as outputs:
            outputs.write(f"version={version}\nprerelease={str(prerelease).lower()}\n")
    kind = "pre-release" if prerelease else "release"
    print(f"release: {kind} {version}: {out_dir / ZIP_NAME} ({len(names)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
