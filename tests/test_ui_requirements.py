"""The dev dependencies hold what Home Assistant's UI loads, at the pinned Home Assistant's pins.

Tests start a real Home Assistant with --skip-pip (tests/test_crash.py, tests/browser/): a
requirement missing from the dev group, or pinned at another version than Home Assistant's,
would leave an integration the UI needs unloaded (the UI hangs at "Loading..." without the
voice packages) or run it on a version Home Assistant was not released with.
"""

from __future__ import annotations

from pathlib import Path
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from scripts.ui_requirements import ui_requirements

PYPROJECT = Path(__file__).parent.parent / "pyproject.toml"


def test_dev_group_pins_what_the_ui_loads_as_home_assistant_does() -> None:
    """Every requirement of the UI's integrations is in the dev group, at Home Assistant's pin."""
    dev = tomllib.loads(PYPROJECT.read_text())["dependency-groups"]["dev"]
    pinned = pins(dev)
    wanted = pins(ui_requirements())
    assert {name: pinned.get(name) for name in wanted} == wanted


def pins(lines: list[str]) -> dict[str, str]:
    """Return package name (canonical) -> version specifier of requirement lines."""
    return {
        canonicalize_name(requirement.name): str(requirement.specifier)
        for requirement in map(Requirement, lines)
    }
