# Sourced by scripts/test, scripts/lint and scripts/develop (not run on its own).
# Goes to the repository root, makes sure .venv is installed and puts it first on PATH.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup
export PATH="$PWD/.venv/bin:$PATH"
export VIRTUAL_ENV="$PWD/.venv"
# Home Assistant installs missing integration requirements with uv at run time (scripts/develop):
# let it trust the machine's certificate store, as scripts/setup does.
export UV_SYSTEM_CERTS="${UV_SYSTEM_CERTS:-1}" UV_NATIVE_TLS="${UV_NATIVE_TLS:-1}"

# The `files` of [tool.mypy] that hold Python code yet (mypy refuses a missing path or a folder
# without .py files, and bench/ may not exist in every checkout).
mypy_targets() {
  python - <<'PY'
import pathlib, tomllib
for name in tomllib.loads(pathlib.Path("pyproject.toml").read_text())["tool"]["mypy"]["files"]:
    path = pathlib.Path(name)
    if path.is_file() or next(path.rglob("*.py"), None):
        print(name)
PY
}

# Run mypy on those (nothing to check when there are none).
run_mypy() {
  local targets
  mapfile -t targets < <(mypy_targets)
  if [ ${#targets[@]} -eq 0 ]; then
    echo "mypy: no Python files to check" >&2
    return 0
  fi
  mypy "${targets[@]}"
}
