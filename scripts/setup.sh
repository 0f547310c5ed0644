#!/usr/bin/env bash
# Sets up .venv with the project and its pinned dependencies, the engine compiled with mypyc
# (TAROCCHI_PURE=1 runs the engine's Python sources instead). Idempotent and quiet when done.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.installed
mode=$([ "${TAROCCHI_PURE:-0}" = 0 ] && echo compiled || echo pure)
# Install again when the pins or the build change, the mode changes, or the engine's sources
# changed since they were compiled (tarocchi.engine refuses to import then; every game is
# imported too: a game that should be compiled and is not cannot inherit the compiled engine).
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ setup.py -nt "$stamp" ] \
    || [ "$(cat "$stamp")" != "$mode" ] \
    || ! .venv/bin/python -c "from tarocchi.engine.game import game_names; game_names()" 2>/dev/null; then
  .venv/bin/pip install --quiet --upgrade pip
  # (setuptools warns at length about every editable install with extensions: keep it out)
  .venv/bin/pip install --quiet -e ".[test]" 2>&1 | { grep -v -e "BuildBackendWarning" -e "^ *!!" \
      -e "^ *\*\*\*" -e "Please be careful" -e "name as your package" -e "with strategy" -e "^ *$" || true; }
  echo "$mode" > "$stamp"
fi
