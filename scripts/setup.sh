#!/usr/bin/env bash
# Sets up .venv with the project and its pinned dependencies. Idempotent and quiet when done.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/pip install --quiet --upgrade pip
  .venv/bin/pip install --quiet -e ".[test]"
  touch "$stamp"
fi
