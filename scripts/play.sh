#!/usr/bin/env bash
# Sets everything up and starts the table at http://127.0.0.1:8000 (an embedded SQLite file).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/tarocchi serve "$@"
