"""The quality scale's coverage rules, per module: `python scripts/check_coverage.py`.

Run after `scripts/test --cov` (CI does): it reads the `.coverage` file pytest-cov wrote and
holds the integration to what quality_scale.yaml claims. With test-coverage `done`, a module
at 95 % or below fails (the rule: above 95 % for every module); with
config-flow-test-coverage `done`, config_flow.py below 100 % fails. A rule assessed `todo`
is reported, not enforced. `fail_under` in pyproject.toml only checks the total.
"""

from __future__ import annotations

from pathlib import Path
import sys

MODULE_MINIMUM = 95.0
"""A module's coverage must be above this, in percent."""
FULL = {
    "config_flow.py",
    "options_flow.py",
    "thermostat_flow.py",
    "energy_rates_form.py",
    "ports.py",
}
"""Modules that must be covered completely: the config flows (`config_flow.py` and the flows
and forms split out of it)."""
MODULE_RULE = "test-coverage"
CONFIG_FLOW_RULE = "config-flow-test-coverage"


QUALITY_SCALE = Path(__file__).resolve().parent.parent / (
    "custom_components/thermostat_cloud/quality_scale.yaml"
)


def shortfalls(
    statements_missed: dict[str, tuple[int, int]], claimed: set[str]
) -> tuple[list[str], list[str]]:
    """Return (failures, notes): a line per module below its target.

    From path -> (statements, missed) and the coverage rules quality_scale.yaml claims done;
    a module below the target of a rule not claimed is a note.
    """
    failures: list[str] = []
    notes: list[str] = []
    for path, (statements, missed) in sorted(statements_missed.items()):
        percent = 100.0 * (statements - missed) / statements if statements else 100.0
        if Path(path).name in FULL and missed:
            line, rule = f"{path}: {percent:.2f} %, config flows need 100 %", CONFIG_FLOW_RULE
        elif percent <= MODULE_MINIMUM:
            line, rule = f"{path}: {percent:.2f} %, needs above {MODULE_MINIMUM:g} %", MODULE_RULE
        else:
            continue
        (failures if rule in claimed else notes).append(f"{line} ({rule})")
    return failures, notes


def claimed_rules(quality_scale: Path = QUALITY_SCALE) -> set[str]:
    """Return the coverage rules quality_scale.yaml assesses as done."""
    from homeassistant.util.yaml import load_yaml_dict  # noqa: PLC0415

    rules = load_yaml_dict(quality_scale)["rules"]
    claimed = set()
    for rule in (MODULE_RULE, CONFIG_FLOW_RULE):
        value = rules.get(rule)
        status = value.get("status") if isinstance(value, dict) else value
        if status == "done":
            claimed.add(rule)
    return claimed


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
    failures, notes = shortfalls(measured, claimed_rules())
    for line in failures:
        print(f"check_coverage: {line}: quality_scale.yaml says done", file=sys.stderr)
    for line in notes:
        print(f"check_coverage: {line}: todo in quality_scale.yaml", file=sys.stderr)
    print(
        f"check_coverage: {len(measured)} modules, {len(failures)} below a target claimed, "
        f"{len(notes)} below a target not claimed yet"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
