"""The server core stays a library: no Home Assistant in it, the rest on its public API."""

from __future__ import annotations

import ast
from functools import cache
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


def _files(parts: tuple[str, ...], pattern: str) -> list[Path]:
    """Return the files of each part of `server/` that match `pattern`, part by part."""
    return [path for part in parts for path in sorted((SERVER / part).glob(pattern))]


def each_file(paths: list[Path]) -> pytest.MarkDecorator:
    """Run the test once per file, named by its place in `server/`."""
    return pytest.mark.parametrize("path", paths, ids=lambda p: str(p.relative_to(SERVER)))


@each_file(_server_files())
def test_server_imports_nothing_of_home_assistant(path: Path) -> None:
    """The core runs without Home Assistant: no import of it, nor of the glue above `server/`."""
    depth = len(path.relative_to(SERVER).parts)  # `server/x.py` may go up to level 1
    for level, module in _imports(path):
        assert module.split(".")[0] != "homeassistant", f"imports {module}"
        assert level <= depth, f"imports {'.' * level}{module} from outside server/"


@each_file(_files(SURFACES, "*.py"))
def test_surfaces_use_only_the_packages_public_names(path: Path) -> None:
    """A surface imports `..core`, `..delivery`, `..model`, `..http`, `..provisioning`: no modules."""
    for level, module in _imports(path):
        if level == 2:  # from ..<part>[.<module>] import ...
            assert module in PACKAGES, f"imports ..{module}"


def _part_imported(path: Path, level: int, module: str) -> str | None:
    """Return the part of `server/` an import names (`core` of `..core.read.state`), else None."""
    inside = path.relative_to(SERVER).parent.parts  # ("core",) for server/core/x.py
    if level == 0 or level > len(inside) + 1:
        return None
    here = inside[: len(inside) - (level - 1)]
    target = (*here, *module.split(".")) if module else here
    return target[0] if target else None


@each_file(_files(CORE, "**/*.py"))
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


# -- the glue and the surfaces on the service's facade ---------------------------------------------

GLUE = SERVER.parent
"""The Home Assistant integration around `server/`: it imports `server/__init__.py` only."""
FACADE_USERS = (
    *sorted(GLUE.glob("*.py")),
    *(path for part in SURFACE_PARTS for path in sorted((SERVER / part).glob("*.py"))),
    SERVER / "__init__.py",
)
"""Everything outside the core that holds a `ThermostatService`."""


@cache
def _service_parts() -> frozenset[str]:
    """Return the private attributes `ThermostatService` keeps: its parts and its state."""
    tree = ast.parse((SERVER / "core" / "service.py").read_text(encoding="utf-8"))
    [service] = [
        node
        for node in tree.body
        if isinstance(node, ast.ClassDef) and node.name == "ThermostatService"
    ]
    return frozenset(
        node.attr
        for node in ast.walk(service)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    )


def _reaches_into_the_service(source: str, parts: frozenset[str]) -> list[str]:
    """Return the uses of a service's private attribute on anything but `self`.

    `hub.service._buckets` or `self._service._home`: any object's attribute named like one
    of the service's parts, unless it is the object's own (`self._clock` of a surface).
    """
    return [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute)
        and node.attr in parts
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    ]


def _server_imports_beyond_its_api(path: Path) -> list[str]:
    """Return a glue module's imports of `server/` other than its package (`.server`)."""
    return [
        f"{'.' * level}{module}"
        for level, module in _imports(path)
        if (level == 1 and module.startswith("server."))
        or module.startswith("custom_components.thermostat_cloud.server.")
    ]


def test_the_service_has_private_parts() -> None:
    """The check below knows the parts: the facade keeps them under underscore names."""
    parts = _service_parts()
    assert {"_buckets", "_ownership", "_home", "_delivery", "_confirmations"} <= parts


@pytest.mark.parametrize("path", FACADE_USERS, ids=lambda p: str(p.relative_to(GLUE)))
def test_the_glue_and_the_surfaces_reach_no_part_of_the_service(path: Path) -> None:
    """Outside the core, the service is its public API (`ThermostatService`'s facade).

    A part reached from outside is a second way in: writes that skip the command layer,
    state read around the read model, a lifecycle the hub does not own.
    """
    found = _reaches_into_the_service(path.read_text(encoding="utf-8"), _service_parts())
    assert not found, f"reaches a private part of the service: {found}"


@pytest.mark.parametrize("path", sorted(GLUE.glob("*.py")), ids=lambda p: p.name)
def test_the_glue_imports_only_the_servers_public_api(path: Path) -> None:
    """The glue imports `from .server import ...`, never a module inside `server/`."""
    assert not _server_imports_beyond_its_api(path)


# -- a narrow facade, and tests and benchmarks on it and the harness --------------------------------

MAX_FACADE_NAMES = 30
"""What `ThermostatService` offers: beyond this, it is a bag of parts, not a facade."""
REPOSITORY = SERVER.parents[2]
HARNESS_USERS = sorted(
    path for folder in ("tests", "bench") for path in (REPOSITORY / folder).rglob("*.py")
)
"""Tests and benchmarks: they reach inside the service only through `core/testing.py`."""


def _public_names(source: str, class_name: str = "ThermostatService") -> list[str]:
    """Return the public names of a class: methods, properties, attributes set on `self`."""
    [cls] = [
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.ClassDef) and node.name == class_name
    ]
    names = {
        node.name for node in cls.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    names |= {
        target.attr
        for node in ast.walk(cls)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    }
    return sorted(name for name in names if not name.startswith("_"))


@cache
def _parts_private_names() -> frozenset[str]:
    """Return the private attributes of the service's parts (any class of the core's library)."""
    return frozenset(
        node.attr
        for part in CORE
        for path in sorted((SERVER / part).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    )


def _facade_too_wide(source: str) -> str | None:
    """Return why the service's facade is too wide, or None."""
    names = _public_names(source)
    if len(names) <= MAX_FACADE_NAMES:
        return None
    return f"{len(names)} public names (at most {MAX_FACADE_NAMES}): {names}"


def test_the_facade_is_narrow() -> None:
    """The service offers at most `MAX_FACADE_NAMES` names; the rest is in its narrow faces."""
    source = (SERVER / "core" / "service.py").read_text(encoding="utf-8")
    assert {"commands", "events", "thermostat", "async_load", "async_stop"} <= set(
        _public_names(source)
    )
    assert _facade_too_wide(source) is None


def test_a_31st_name_is_counted() -> None:
    """A name planted beside the service's own is counted: the check above would fail on it."""
    source = (SERVER / "core" / "service.py").read_text(encoding="utf-8")
    names = _public_names(source)
    planted = "".join(
        f"\n    def planted_{n}(self) -> None:\n        pass\n"
        for n in range(MAX_FACADE_NAMES + 1 - len(names))
    )
    grown = source.replace("class ThermostatService:", "class ThermostatService:" + planted, 1)
    assert len(_public_names(grown)) == MAX_FACADE_NAMES + 1
    assert _facade_too_wide(grown) is not None
    assert "self.planted = 1" not in source
    attribute = source.replace(
        "        self._loaded = False\n",
        "        self._loaded = False\n        self.planted = 1\n",
        1,
    )
    assert "planted" in _public_names(attribute)


@pytest.mark.parametrize("path", HARNESS_USERS, ids=lambda p: str(p.relative_to(REPOSITORY)))
def test_tests_and_benchmarks_reach_no_part_of_the_service(path: Path) -> None:
    """Tests and benches use the facade, or `core.testing.harness` for what only they need.

    A test that reaches `service._buckets` breaks with every move inside the core and may
    write past the write path without saying so; the harness says what it does, in one place.
    """
    parts = _service_parts() | _parts_private_names()
    found = _reaches_into_the_service(path.read_text(encoding="utf-8"), parts)
    assert not found, f"reaches a private part of the service: {found}"


def test_a_reach_from_a_test_is_seen() -> None:
    """The check above fails on a test that reaches a part, or a part's part."""
    parts = _service_parts() | _parts_private_names()
    planted = "def test_x(service):\n    assert service._buckets.value(key)\n"
    assert _reaches_into_the_service(planted, parts) == ["line 2: service._buckets"]
    deeper = "writes = service.commands._writes\n"
    assert _reaches_into_the_service(deeper, parts) == ["line 1: service.commands._writes"]
    assert not _reaches_into_the_service("harness(service).value(key)\n", parts)


def test_a_reach_into_the_service_is_seen(tmp_path: Path) -> None:
    """The checks above fail on what they are there for (and let a surface's own state be)."""
    parts = _service_parts()
    violation = "def f(hub):\n    return hub.service._buckets.get(key)\n"
    assert _reaches_into_the_service(violation, parts) == ["line 2: hub.service._buckets"]
    assert _reaches_into_the_service("x = self._service._home.unpair(s)\n", parts)
    assert not _reaches_into_the_service("now = self._clock.now_ms()\n", parts)
    assert not _reaches_into_the_service("x = service.thermostat(s).mode\n", parts)

    glue = tmp_path / "glue.py"
    glue.write_text(
        "from .server import ThermostatService\nfrom .server.core.read.state import ThermostatState\n",
        encoding="utf-8",
    )
    assert _server_imports_beyond_its_api(glue) == [".server.core.read.state"]
