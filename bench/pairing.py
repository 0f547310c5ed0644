"""How long a tournament's round takes to seat (issue 59, tarocchi/server/core/pairing.py), and
how many repeated meetings it leaves: N players at tables of SIZE, ROUNDS rounds in entry order
(a duplicate's), each round avoiding everyone met before. Prints one line per case.

    .venv/bin/python bench/pairing.py
"""

from __future__ import annotations

import itertools
import time

from tarocchi.server.core.pairing import form_tables, meetings

CASES = [(200, 3, 8), (200, 4, 8), (100, 4, 6), (30, 4, 8), (16, 4, 5)]


def main() -> None:
    for n, size, rounds in CASES:
        people, history, slowest, repeats = list(range(n)), [], 0.0, 0
        for _ in range(rounds):
            met = meetings(history)
            began = time.perf_counter()
            tables = form_tables(people, size, met)
            slowest = max(slowest, time.perf_counter() - began)
            repeats += sum(b in met.get(a, ()) for t in tables
                           for a, b in itertools.combinations([p for p in t if p is not None], 2))
            history.append(tables)
        print(f"{n} players, tables of {size}, {rounds} rounds: slowest round {slowest * 1000:.0f} ms, "
              f"repeated meetings {repeats}")


if __name__ == "__main__":
    main()
