#!/usr/bin/env bash
# Sets everything up and runs the whole test suite, browser tests included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ ! -x /usr/bin/chromium ]; then
  # The browser tests drive Debian's Chromium through Playwright.
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi
# axe-core, pinned, checked against its published integrity: the browser tests inject it.
.venv/bin/python scripts/fetch_axe.py
exec .venv/bin/python -m pytest -n 2 --dist loadfile "$@"
