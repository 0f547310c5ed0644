"""Commit latency of the two stores: ``append_many`` with group commits of 1, 10 and 100
events (an ``act`` event as the hub writes them, spread over 50 tables), SQLite and PostgreSQL
in the same run. Prints each commit's p50/p99 latency and the events stored per second, one
commit after another (as the hub's event loop does them).

    .venv/bin/python bench/store_bench.py                         # a throwaway local cluster
    .venv/bin/python bench/store_bench.py --postgres postgresql://tarocchi@db.example/tarocchi

Without ``--postgres`` it starts its own cluster (tests/postgres.py, Debian's programs) with
the server's default durability: every COMMIT waits for its WAL flush to disk
(synchronous_commit on, fsync on), over a Unix socket. The SQLite file is in WAL mode with
synchronous=NORMAL (the store's settings: no fsync at commit, only at checkpoints). The line
``postgresql-async`` is the same database with ``synchronous_commit = off`` for the session (a
crash of PostgreSQL may lose the last commits, docs/operations.md): what the flush costs.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/postgres.py

from tarocchi.server.core.store import Store, open_store  # noqa: E402

TABLES = 50
CREATED = {"game": "sicilian", "kind": "computer", "seats": 3, "names": ["you", "bot", "bot"],
           "bots": [None, "rule", "rule"], "options": {}}


def measure(store: Store, group: int, commits: int, prefix: str) -> tuple[float, float, float]:
    """(p50 ms, p99 ms, events/s) of ``commits`` group commits of ``group`` events each."""
    tables = [f"{prefix}-{group}-{i}" for i in range(TABLES)]
    for t in tables:
        store.create_table(t, "computer", [t, None, None], CREATED)
    versions = dict.fromkeys(tables, 1)
    latencies = []
    n = 0
    for _ in range(commits):
        events = []
        for _ in range(group):
            t = tables[n % TABLES]
            n += 1
            versions[t] += 1
            events.append((t, versions[t], "act", {"seat": n % 3, "action": "QB", "id": f"v{versions[t]}"}))
        start = time.perf_counter()
        store.append_many(events)
        latencies.append(time.perf_counter() - start)
    q = statistics.quantiles(latencies, n=100)
    return q[49] * 1000, q[98] * 1000, group * commits / sum(latencies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="a database to use (its tables are added to); default: a throwaway cluster")
    parser.add_argument("--commits", type=int, default=1000, help="commits per group size (default 1000)")
    args = parser.parse_args()
    cluster = None
    if args.postgres:
        url = args.postgres
    else:
        from tests.postgres import Cluster

        cluster = Cluster(durable=True)
        url = cluster.new_database()
    load = os.getloadavg()[0]
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, load average "
          f"{load:.1f}; {args.commits} commits per line, one after another")
    print(f"{'store':<16} {'events/commit':>13} {'p50 ms':>8} {'p99 ms':>8} {'events/s':>10}")
    prefix = f"bench{int(time.time())}"
    try:
        with tempfile.TemporaryDirectory(prefix="tarocchi-bench-") as tmp:
            unflushed = url + ("&" if "?" in url else "?") + "options=-c%20synchronous_commit%3Doff"
            for name, db in (("sqlite", os.path.join(tmp, "bench.sqlite3")), ("postgresql", url),
                             ("postgresql-async", unflushed)):
                store = open_store(db)
                try:
                    for group in (1, 10, 100):
                        p50, p99, rate = measure(store, group, args.commits, f"{prefix}-{name}")
                        print(f"{name:<16} {group:>13} {p50:>8.3f} {p99:>8.3f} {rate:>10,.0f}", flush=True)
                finally:
                    store.close()
    finally:
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    main()
