"""The project's scripts (scripts/ is not a package), loaded as modules for their tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path
import sys
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load_script(name: str) -> ModuleType:
    """Return `scripts/<name>.py` as the module `name`.

    Registered in `sys.modules` before it runs: dataclasses look their module up.
    """
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
