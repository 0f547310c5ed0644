"""Engine benchmark: random full deals at three and four seats on one core.

Every deal is played to the end, every card played and counted: the seat after the dealer
says vado solo (a stata), the others pass, and from there every action is a random legal one
(playout.random_action): the discard, the announcements, every card. Printed per table size:

  shuffle+Deal     the baseline: shuffling a deck and constructing the Deal, nothing played
  apply(int)       whole deals through Deal.apply with int actions (the search/bot path)
  apply(str)       the same deals through Deal.apply with the text notation (the wire path)
  rollout          the same up to the first card, then the tricks by Deal.rollout
  replay           re-checking the records of the apply(int) deals (tarocchi replay's path)
  random speaking  whole deals with random speaking too: many are abandoned early, and each
                   abandoned deal counts as a deal (a table deals again)

Times are the process's CPU time (time.process_time), so that other work on the machine
inflates them less than wall-clock time would.

Run:  .venv/bin/python bench/engine_bench.py [--deals 3000] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

from tarocchi.engine.actions import action_text
from tarocchi.engine.playout import random_action
from tarocchi.engine.records import replay
from tarocchi.engine.sicilian import PASSO, VADO_SOLO, Deal


def new_deal(seats: int, rng: random.Random) -> Deal:
    return Deal.shuffled(seats, rng.randrange(seats), rng, log=False)


def stata(deal: Deal) -> None:
    """The seat after the dealer goes solo on five cards and the others pass (R5, R7)."""
    deal.apply(VADO_SOLO)
    while deal.phase == "speak":
        deal.apply(PASSO)


def to_the_end(deal: Deal, rng: random.Random) -> None:
    while deal.phase != "done":
        deal.apply(random_action(deal, rng))


def to_the_end_in_text(deal: Deal, rng: random.Random) -> None:
    while deal.phase != "done":
        deal.apply(action_text(random_action(deal, rng)))


def to_the_end_by_rollout(deal: Deal, rng: random.Random) -> None:
    while deal.phase != "play":
        deal.apply(random_action(deal, rng))
    deal.rollout(rng)


def full_deals(seats: int, n: int, seed: int, finish, keep: int = 0) -> tuple[float, int, list[Deal]]:
    """``n`` stata deals played to the count by ``finish``: CPU seconds, actions, and the first
    ``keep`` deals (kept only when asked: holding them all would burden the measurement)."""
    rng = random.Random(seed)
    actions = 0
    deals = []
    start = time.process_time()
    for _ in range(n):
        deal = new_deal(seats, rng)
        stata(deal)
        finish(deal, rng)
        actions += len(deal.history)
        if len(deals) < keep:
            deals.append(deal)
    return time.process_time() - start, actions, deals


def random_speaking(seats: int, n: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for _ in range(n):
        deal = new_deal(seats, rng)
        while deal.phase != "done":
            deal.apply(random_action(deal, rng))
        actions += len(deal.history)
    return time.process_time() - start, actions


def baseline(seats: int, n: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(n):
        new_deal(seats, rng)
    return time.process_time() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=3000, help="full deals per measurement")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    n = args.deals
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; {n} full deals per line, one process")
    print(f"{'seats':>5} {'what':<14} {'deals/s':>10} {'us/deal':>9} {'us/action':>10}")
    for seats in (3, 4):
        t = baseline(seats, n, args.seed)
        print(f"{seats:>5} {'shuffle+Deal':<14} {n / t:>10,.0f} {t / n * 1e6:>9.1f} {'':>10}")
        for what, finish in (("apply(int)", to_the_end), ("apply(str)", to_the_end_in_text),
                             ("rollout", to_the_end_by_rollout)):
            t, acts, deals = full_deals(seats, n, args.seed, finish, keep=500 if finish is to_the_end else 0)
            print(f"{seats:>5} {what:<14} {n / t:>10,.0f} {t / n * 1e6:>9.1f} {t / acts * 1e6:>10.2f}")
            if finish is to_the_end:
                records = [d.record() for d in deals]
        start = time.process_time()
        acts = sum(len(replay(r).history) for r in records)
        t = time.process_time() - start
        k = len(records)
        print(f"{seats:>5} {'replay':<14} {k / t:>10,.0f} {t / k * 1e6:>9.1f} {t / acts * 1e6:>10.2f}")
        t, acts = random_speaking(seats, n, args.seed)
        print(f"{seats:>5} {'random speak':<14} {n / t:>10,.0f} {t / n * 1e6:>9.1f} {t / acts * 1e6:>10.2f}")


if __name__ == "__main__":
    main()
