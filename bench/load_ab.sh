#!/usr/bin/env bash
# Two servers measured at the same moment: bench/load.py from two worktrees at once, half the
# tables each, one client process each. This VM's speed drifts by 15-30 % from run to run, so
# a change of a few percent only shows against a baseline that runs at the same time: compare
# the two "server ... us CPU per action" lines (their latencies mean little, the machine is
# shared). Each tree needs its own .venv (bash scripts/setup.sh in it).
#
#   bash bench/load_ab.sh <baseline worktree> <changed worktree> [tables, default 125] [seconds, default 20]
set -euo pipefail
a=$(cd "$1" && pwd); b=$(cd "$2" && pwd); tables=${3:-125}; seconds=${4:-20}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for side in a b; do
    dir=${!side}
    (cd "$dir" && .venv/bin/python bench/load.py --tables "$tables" --seats 4 --seconds "$seconds" --procs 1 \
        > "$out/$side.txt" 2>&1) &
done
wait
for side in a b; do
    echo "$side ${!side} ($(git -C "${!side}" rev-parse --short HEAD)): $(grep -o 'server [0-9]* us CPU per action' "$out/$side.txt"); $(grep -o 'actions/s [0-9,]*' "$out/$side.txt")"
done
