"""A site of several processes against one, at the same offered load (issue 20).

Starts a PostgreSQL cluster of its own (the server's defaults: every commit flushed; tests/postgres.py)
and a Redis (tests/redis_server.py), then runs bench/load.py against, in turn: one process on
SQLite, one process on PostgreSQL, and ``--workers 2`` on PostgreSQL (one site over the bus). It
prints each run's actions/s, latency and server CPU per action (all the site's processes).

    .venv/bin/python bench/site_bench.py [--tables 250] [--seconds 20]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.postgres import Cluster  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402


def client_cost(out: str) -> str:
    """The load's own CPU per action (its client processes, on the same cores as the site):
    what a second worker cannot have, and why 1.7x needs the clients on another machine."""
    rate = re.search(r"actions/s ([0-9,]+)", out)
    clients = re.search(r"clients ([0-9+ ]+);", out)
    if not rate or not clients:
        return "clients ?"
    share = sum(int(x) for x in clients.group(1).split("+")) / 100  # cores
    per_second = int(rate.group(1).replace(",", ""))
    return f"clients {share:.2f} cores, {1e6 * share / max(1, per_second):.0f} us CPU per action"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=250)
    p.add_argument("--seconds", type=float, default=20)
    args = p.parse_args()
    load = [sys.executable, str(ROOT / "bench" / "load.py"), "--tables", str(args.tables), "--seats", "4",
            "--seconds", str(args.seconds)]
    with Cluster(durable=True) as cluster, RedisServer() as redis:
        runs = [("SQLite, 1 process", []),
                ("SQLite, 2 workers", ["--workers", "2", "--bus", redis.url]),
                ("PostgreSQL, 1 process", ["--db", cluster.new_database()]),
                ("PostgreSQL, 2 workers", ["--db", cluster.new_database(), "--workers", "2", "--bus", redis.url])]
        for name, extra in runs:
            out = subprocess.run(load + extra, capture_output=True, text=True).stdout
            pick = lambda pattern: (m.group(0) if (m := re.search(pattern, out)) else "?")  # noqa: E731
            print(f"{name:24} {pick(r'actions/s [0-9,]+')}; {pick(r'p50 [0-9.]+ p90 [0-9.]+ p99 [0-9.]+')} ms; "
                  f"{pick(r'server [0-9]+ us CPU per action')}; {client_cost(out)}; "
                  f"{pick(r'load average [0-9.]+')}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
