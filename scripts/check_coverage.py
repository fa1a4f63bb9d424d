"""The quality scale's coverage rules, per module: `python scripts/check_coverage.py`.

Run after `scripts/test --cov` (CI does): it reads the `.coverage` file pytest-cov wrote and
fails when a module of the integration is at 95 % or below (rule test-coverage: above 95 % for
every module) or config_flow.py is below 100 % (rule config-flow-test-coverage).
`fail_under` in pyproject.toml only checks the total.
"""

from __future__ import annotations

from pathlib import Path
import sys

MODULE_MINIMUM = 95.0
"""A module's coverage must be above this, in percent."""
FULL = {"config_flow.py"}
"""Modules that must be covered completely."""


def shortfalls(statements_missed: dict[str, tuple[int, int]]) -> list[str]:
    """Return a line per module below its target, from path -> (statements, missed)."""
    short = []
    for path, (statements, missed) in sorted(statements_missed.items()):
        percent = 100.0 * (statements - missed) / statements if statements else 100.0
        if Path(path).name in FULL and missed:
            short.append(f"{path}: {percent:.2f} %, config flows need 100 %")
        elif percent <= MODULE_MINIMUM:
            short.append(f"{path}: {percent:.2f} %, needs above {MODULE_MINIMUM:g} %")
    return short


def main() -> int:
    """Check the modules measured in `.coverage`."""
    import coverage  # noqa: PLC0415 (only this command needs it, not the tests of shortfalls)

    cov = coverage.Coverage()
    cov.load()
    measured: dict[str, tuple[int, int]] = {}
    for path in cov.get_data().measured_files():
        _, statements, _, missing, _ = cov.analysis2(path)
        measured[str(Path(path).relative_to(Path.cwd()))] = (len(statements), len(missing))
    if not measured:
        print("check_coverage: no coverage data: run scripts/test --cov first", file=sys.stderr)
        return 1
    short = shortfalls(measured)
    for line in short:
        print(f"check_coverage: {line}", file=sys.stderr)
    print(f"check_coverage: {len(measured)} modules, {len(short)} below target")
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
