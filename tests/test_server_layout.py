"""The server core stays a library: no Home Assistant in it, surfaces on the core's public API."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).parent.parent / "custom_components" / "thermostat_cloud" / "server"
SURFACES = ("control", "device", "hosted", "provisioning")
"""Parts that reach the others only through their packages' exports."""
PACKAGES = ("core", "delivery", "model", "http", "provisioning")
CORE = ("core", "delivery", "model")
"""The library under the surfaces: it imports none of them."""
SURFACE_PARTS = ("control", "device", "hosted", "http", "provisioning")


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
    """A surface imports `..core`, `..delivery`, `..model`, `..http`, `..provisioning`: no modules."""
    for level, module in _imports(path):
        if level == 2:  # from ..<part>[.<module>] import ...
            assert module in PACKAGES, f"imports ..{module}"


def _part_imported(path: Path, level: int, module: str) -> str | None:
    """Return the part of `server/` an import names (`core` of `..core.state`), else None."""
    inside = path.relative_to(SERVER).parent.parts  # ("core",) for server/core/x.py
    if level == 0 or level > len(inside) + 1:
        return None
    here = inside[: len(inside) - (level - 1)]
    target = (*here, *module.split(".")) if module else here
    return target[0] if target else None


@pytest.mark.parametrize(
    "path",
    [path for part in CORE for path in sorted((SERVER / part).glob("*.py"))],
    ids=lambda p: str(p.relative_to(SERVER)),
)
def test_the_core_imports_no_surface(path: Path) -> None:
    """`core/`, `delivery/` and `model/` ship without the HTTP surfaces and their kit."""
    for level, module in _imports(path):
        part = _part_imported(path, level, module)
        assert part not in SURFACE_PARTS, f"imports {'.' * level}{module} (the {part} surface)"


def test_an_import_of_a_surface_is_seen() -> None:
    """The check above resolves relative imports: it would catch the ones it is there for."""
    availability = SERVER / "core" / "availability.py"
    assert _part_imported(availability, 2, "device.headers") == "device"
    assert _part_imported(availability, 2, "http") == "http"
    assert _part_imported(availability, 1, "roster") == "core"
    assert _part_imported(SERVER / "__init__.py", 1, "hosted") == "hosted"
