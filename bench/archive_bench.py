"""The queries of a player's games (issue 58, store/people.py games_of, figures_of) on SQLite: an
account with many matches among many, its figures and a page of its archive. docs/benchmarks.md
quotes it: ``python bench/archive_bench.py``."""

import os
import random
import tempfile
import time

from tarocchi.server.core.store import open_store
from tarocchi.server.core.store.people import Ended, Player

db = os.path.join(tempfile.mkdtemp(), "b.sqlite3")
store = open_store(db)
people = [store.people.create_account(f"p{i}", None, []) for i in range(30)]
rng = random.Random(1)
t0 = time.perf_counter()
N = 2000
for m in range(N):
    seats = [people[0], *rng.sample(people[1:], 2)]  # (one account at every match: the worst case)
    players = [Player(s, None, s, rng.randint(-20, 20), False, a) for s, a in enumerate(seats)]
    deals = [[{"points": rng.randint(-6, 6), "thrown": False, "contract": "stata", "role": "declarer" if s == 0 else "opponent",
               "made": rng.random() < .5, "announce": None, "announce_made": None, "declared": None} for s in range(3)] for _ in range(6)]
    e = Ended(f"t{m}", 1, "sicilian", 3, time.time() - (N - m), players, deals=deals)
    with store.people.write() as tx:
        store.people.record_ended(tx, e)
print("wrote", N, "matches in", round(time.perf_counter() - t0, 1), "s")
me = people[0]
n = len(store.people.games_of(me, limit=100_000)[0])
for label, work in [("figures_of", lambda: store.people.figures_of(me)),
                    ("games_of page", lambda: store.people.games_of(me, limit=50)),
                    ("games_of opponent", lambda: store.people.games_of(me, opponent=people[1], limit=50))]:
    times, cpu = [], []
    for _ in range(5):
        t, c = time.perf_counter(), time.process_time()
        work()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    # (the CPU time too: on a shared machine the wall time is mostly waiting for a core)
    print(f"{label}: {min(times) * 1000:.1f} ms, {min(cpu) * 1000:.1f} ms of CPU "
          f"(an account of {n} matches, {N} in the store)")
