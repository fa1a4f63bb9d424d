"""The schedule card's committed module: built from the committed sources, small, and its logic tested.

HACS installs the integration as committed, with no build step, so the module under
custom_components/ must be what frontend/ builds. frontend/build.mjs writes a SHA-256 of
everything it reads into the module's first line; the first test recomputes it without node,
so a source changed without a rebuild fails everywhere. Where Node.js is installed (CI: scripts/setup
runs npm ci) the build is run again and must give the same bytes, and the card's own tests
(TypeScript check and vitest: validation, units, day order) run.
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path
import re
import shutil
import subprocess

import pytest

from custom_components.thermostat_cloud.schedule_card import CARD_FILE

FRONTEND = Path(__file__).resolve().parent.parent / "frontend"
BUDGET_GZIP_BYTES = 60 * 1024
HEADER = re.compile(
    rb"^/\*! Thermostat Cloud schedule card\. Built by frontend/build\.mjs from sources sha256:([0-9a-f]{64}) "
)


def sources_hash() -> str:
    """Return the hash build.mjs records: each input's relative path and bytes, in path order."""
    inputs = [*(FRONTEND / "src").rglob("*")] + [
        FRONTEND / name
        for name in ("package.json", "package-lock.json", "build.mjs", "tsconfig.json")
    ]
    names = sorted(path.relative_to(FRONTEND).as_posix() for path in inputs if path.is_file())
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0")
        digest.update((FRONTEND / name).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def npm() -> str:
    """Return npm, with the card's packages installed; fail saying what is missing."""
    found = shutil.which("npm")
    if found is None or shutil.which("node") is None:
        pytest.fail("Node.js 20+ with npm is needed for the schedule card's tests")
    if not (FRONTEND / "node_modules").is_dir():
        pytest.fail("The card's npm packages are missing: run scripts/setup (npm ci in frontend/)")
    return found


def test_committed_module_is_built_from_the_committed_sources() -> None:
    """A change in frontend/ without `npm run build` (and its commit) fails here, node or not."""
    header = HEADER.match(CARD_FILE.read_bytes())
    assert header is not None, "the module has no build header: run `npm run build` in frontend/"
    assert header[1].decode() == sources_hash(), (
        "frontend/ changed since the module was built: run `npm run build` in frontend/"
    )


def test_committed_module_stays_small() -> None:
    """Every dashboard loads it: under 60 KB gzipped."""
    assert len(gzip.compress(CARD_FILE.read_bytes(), 9)) < BUDGET_GZIP_BYTES


def test_build_gives_the_committed_module_byte_for_byte(tmp_path: Path) -> None:
    """The build is deterministic and the committed module is exactly its output."""
    built = tmp_path / "card.js"
    subprocess.run(
        [npm(), "run", "--silent", "build", "--", "--outfile", str(built)],
        cwd=FRONTEND,
        check=True,
        timeout=120,
    )
    assert built.read_bytes() == CARD_FILE.read_bytes()


@pytest.mark.slow  # type-checks and runs the card's own tests in Node: several seconds
def test_card_logic() -> None:
    """The card's type check and unit tests (frontend/test/) pass."""
    result = subprocess.run(
        [npm(), "test", "--silent"],
        cwd=FRONTEND,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
