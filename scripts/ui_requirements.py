"""Print the requirements of what Home Assistant's UI loads, at the installed version's pins.

A Home Assistant with `frontend:` in its configuration loads its default integrations, and the
browser tests finish onboarding, which sets up a few more; these are the ones among them with
requirements. pyproject.toml's dev group pins them (Home Assistant would otherwise install them
at its first start, and tests start it with --skip-pip); tests/test_ui_requirements.py keeps the
pins equal to the pinned Home Assistant's, and scripts/test-newest-helper takes a newer Home
Assistant's: `python scripts/ui_requirements.py` prints one requirement per line.
"""

from __future__ import annotations

import json
from pathlib import Path
import sys

import homeassistant

UI_INTEGRATIONS = (
    "frontend",
    # Default integrations with requirements; the UI hangs at "Loading..." without
    # assist_pipeline's (fetching the actions' descriptions imports it).
    "assist_pipeline",
    "assist_satellite",
    "conversation",
    "tts",
    "ffmpeg",
    "camera",
    "infrared",
    "radio_frequency",
    # What onboarding sets up when it finishes.
    "google_translate",
    "met",
    "radio_browser",
)


def ui_requirements() -> list[str]:
    """Return the installed Home Assistant's requirements of UI_INTEGRATIONS, without repeats."""
    components = Path(homeassistant.__file__).parent / "components"
    requirements: dict[str, None] = {}
    for domain in UI_INTEGRATIONS:
        manifest = json.loads((components / domain / "manifest.json").read_text())
        requirements.update(dict.fromkeys(manifest.get("requirements", [])))
    return list(requirements)


if __name__ == "__main__":
    sys.stdout.write("".join(f"{requirement}\n" for requirement in ui_requirements()))
