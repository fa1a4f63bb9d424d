# Sourced by scripts/test, scripts/lint and scripts/develop (not run on its own).
# Goes to the repository root, makes sure .venv is installed and puts it first on PATH.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup
export PATH="$PWD/.venv/bin:$PATH"
export VIRTUAL_ENV="$PWD/.venv"

# The `files` of [tool.mypy] that exist yet (mypy refuses a missing path, and bench/ may not
# exist in every checkout).
mypy_targets() {
  python - <<'PY'
import pathlib, tomllib
for name in tomllib.loads(pathlib.Path("pyproject.toml").read_text())["tool"]["mypy"]["files"]:
    if pathlib.Path(name).exists():
        print(name)
PY
}
