"""The server core stays a library: no Home Assistant in it, surfaces on the core's public API."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).parent.parent / "custom_components" / "thermostat_cloud" / "server"
SURFACES = ("control", "hosted", "provisioning")
"""Parts that reach the others only through their packages' exports."""
PACKAGES = ("core", "model", "http", "provisioning")


def _imports(path: Path) -> list[tuple[int, str]]:
    """Return (relative level, module) of every import in a file, however deeply nested."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.extend((0, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


def _server_files() -> list[Path]:
    files = sorted(SERVER.rglob("*.py"))
    assert SERVER / "__init__.py" in files
    return files


@pytest.mark.parametrize("path", _server_files(), ids=lambda p: str(p.relative_to(SERVER)))
def test_server_imports_nothing_of_home_assistant(path: Path) -> None:
    """The core runs without Home Assistant: no import of it, nor of the glue above `server/`."""
    depth = len(path.relative_to(SERVER).parts)  # `server/x.py` may go up to level 1
    for level, module in _imports(path):
        assert module.split(".")[0] != "homeassistant", f"imports {module}"
        assert level <= depth, f"imports {'.' * level}{module} from outside server/"


@pytest.mark.parametrize(
    "path",
    [path for part in SURFACES for path in sorted((SERVER / part).glob("*.py"))],
    ids=lambda p: str(p.relative_to(SERVER)),
)
def test_surfaces_use_only_the_packages_public_names(path: Path) -> None:
    """A surface imports `..core`, `..model`, `..http`, `..provisioning`, never their modules."""
    for level, module in _imports(path):
        if level == 2:  # from ..<part>[.<module>] import ...
            assert module in PACKAGES, f"imports ..{module}"
