#!/usr/bin/env bash
# Sets everything up and runs the whole test suite, browser tests included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The browser tests drive Debian's Chromium through Playwright (its headless shell, and the full
# browser where a test needs it); the store tests start their own PostgreSQL cluster with
# Debian's programs (tests/postgres.py), the site tests their own Redis.
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)  # most browser tests (tests/conftest.py)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null || missing+=(postgresql)
[ -x /usr/bin/redis-server ] || missing+=(redis-server)  # the bus of a site of several processes (tests/redis_server.py)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)  # a front proxy (tests/nginx_proxy.py)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=$([ "$(id -u)" = 0 ] || echo sudo)
  $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# axe-core, pinned, checked against its published integrity: the browser tests inject it.
.venv/bin/python scripts/fetch_axe.py
# Three workers on two cores: the browser and server tests wait as well as compute (the cores
# busy 82 % of a 770 s run, 7 December 2026; four workers took 708 s, with less room for the
# tests that wait on a loaded machine). A file's tests run on one worker (loadfile: they share
# its browser), and the files in the order tests/conftest.py gives (the longest first), not
# xdist's (the files with the most tests first, which left a four-minute one last).
exec .venv/bin/python -m pytest -n 3 --dist loadfile --no-loadscope-reorder "$@"
