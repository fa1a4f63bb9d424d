"""The command line of the benches that print a figure or two: whole numbers with defaults."""

from __future__ import annotations

import argparse


def int_options(
    description: str | None, prog: str | None = None, /, **defaults: int
) -> argparse.Namespace:
    """Parse `--name N` for each default (`per_round` is `--per-round`); return the values."""
    parser = argparse.ArgumentParser(
        prog=prog, description=description.splitlines()[0] if description else None
    )
    for name, default in defaults.items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=default)
    return parser.parse_args()
