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

Then the same for the Renaissance game (78 cards, three seats, 25 tricks; no speaking: the
dealer's random discard, then every card): shuffle+Deal, apply(int), apply(str), rollout,
replay. And for Ottocento (62 cards, four seats, 15 tricks; `otto`): a random a monte answer
(one deal in 16 is thrown in), the dealer's random discard, random declarations (the full
best, one combination, or none), random cards and signals, the count with its combinations
(ottocento_combos, Python) and the Matto's exchange (B21).

Times are the process's CPU time (time.process_time), so that other work on the machine
inflates them less than wall-clock time would.

The installed engine is compiled with mypyc (setup.py); ``--sources`` also measures the same
deals with the engine's Python sources, in the same run, as the baseline (``--sources only``:
just them).

Run:  .venv/bin/python bench/engine_bench.py [--deals 3000] [--seed 1] [--sources [only]]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

from types import SimpleNamespace

from tarocchi import pure_engine
from tarocchi.engine import actions, playout, records, sicilian
from tarocchi.engine.sicilian import PASSO, VADO_SOLO, Deal
from tarocchi.games import ottocento, renaissance

# The engine measured: the installed one, or its sources (engines()).
engine = SimpleNamespace(Deal=Deal, random_action=playout.random_action, replay=records.replay,
                         action_text=actions.action_text, Renaissance=renaissance.Deal,
                         renaissance_text=renaissance.action_text, Ottocento=ottocento.Deal,
                         ottocento_text=ottocento.action_text)


def engines(sources: str | None):
    """(name, modules) for each engine to measure."""
    installed = ("compiled" if pure_engine.is_compiled(sicilian) else "sources", engine)
    if sources is None:
        return [installed]
    source = ("sources", SimpleNamespace(
        Deal=pure_engine.pure("sicilian").Deal, random_action=pure_engine.pure("playout").random_action,
        replay=pure_engine.pure("records").replay, action_text=pure_engine.pure("actions").action_text,
        Renaissance=pure_engine.pure_game("renaissance").Deal,
        renaissance_text=pure_engine.pure_game("renaissance").action_text,
        Ottocento=pure_engine.pure_game("ottocento").Deal,
        ottocento_text=pure_engine.pure_game("ottocento").action_text))
    return [source] if sources == "only" else [installed, source]


def new_deal(seats: int, rng: random.Random) -> Deal:
    return engine.Deal.shuffled(seats, rng.randrange(seats), rng, log=False)


def stata(deal: Deal) -> None:
    """The seat after the dealer goes solo on five cards and the others pass (R5, R7)."""
    deal.apply(VADO_SOLO)
    while deal.phase == "speak":
        deal.apply(PASSO)


def to_the_end(deal: Deal, rng: random.Random) -> None:
    while deal.phase != "done":
        deal.apply(engine.random_action(deal, rng))


def to_the_end_in_text(deal: Deal, rng: random.Random) -> None:
    while deal.phase != "done":
        deal.apply(engine.action_text(engine.random_action(deal, rng)))


def to_the_end_by_rollout(deal: Deal, rng: random.Random) -> None:
    while deal.phase != "play":
        deal.apply(engine.random_action(deal, rng))
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
            deal.apply(engine.random_action(deal, rng))
        actions += len(deal.history)
    return time.process_time() - start, actions


def baseline(seats: int, n: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(n):
        new_deal(seats, rng)
    return time.process_time() - start


def renaissance_deals(n: int, seed: int, finish, cls=None, seats: int = 3) -> tuple[float, int, list]:
    rng = random.Random(seed)
    acts = 0
    deals = []
    cls = cls or engine.Renaissance
    start = time.process_time()
    for _ in range(n):
        deal = cls.shuffled(seats, rng.randrange(seats), rng, log=False)
        finish(deal, rng)
        acts += len(deal.history)
        if len(deals) < 500 and finish is to_the_end:
            deals.append(deal)
    return time.process_time() - start, acts, deals


def renaissance_in_text(deal, rng: random.Random) -> None:
    while deal.phase != "done":
        deal.apply(engine.renaissance_text(engine.random_action(deal, rng)))


def renaissance_baseline(n: int, seed: int, cls=None, seats: int = 3) -> float:
    rng = random.Random(seed)
    cls = cls or engine.Renaissance
    start = time.process_time()
    for _ in range(n):
        cls.shuffled(seats, rng.randrange(seats), rng, log=False)
    return time.process_time() - start


def ottocento_in_text(deal, rng: random.Random) -> None:
    while deal.phase != "done":
        deal.apply(engine.ottocento_text(engine.random_action(deal, rng)))


def ottocento_by_rollout(deal, rng: random.Random) -> None:
    while deal.phase not in ("play", "done"):  # a deal thrown in (B7) or won at declarations (B26)
        deal.apply(engine.random_action(deal, rng))
    if deal.phase == "play":
        deal.rollout(rng)


def main() -> None:
    global engine
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=3000, help="full deals per measurement")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sources", nargs="?", const="too", choices=["too", "only"],
                   help="also (or only) measure the engine's Python sources, the baseline")
    args = p.parse_args()
    n = args.deals
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; {n} full deals per line, one process")
    print(f"{'engine':<9} {'seats':>5} {'what':<14} {'deals/s':>10} {'us/deal':>9} {'us/action':>10}")
    for name, modules in engines(args.sources):
        engine = modules

        def line(seats: int, what: str, deals: int, t: float, acts: int | None = None) -> None:
            per_action = f"{t / acts * 1e6:>10.2f}" if acts else f"{'':>10}"
            print(f"{name:<9} {seats:>5} {what:<14} {deals / t:>10,.0f} {t / deals * 1e6:>9.1f} {per_action}")

        for seats in (3, 4):
            line(seats, "shuffle+Deal", n, baseline(seats, n, args.seed))
            for what, finish in (("apply(int)", to_the_end), ("apply(str)", to_the_end_in_text),
                                 ("rollout", to_the_end_by_rollout)):
                t, acts, deals = full_deals(seats, n, args.seed, finish, keep=500 if finish is to_the_end else 0)
                line(seats, what, n, t, acts)
                if finish is to_the_end:
                    records = [d.record() for d in deals]
            start = time.process_time()
            acts = sum(len(engine.replay(r).history) for r in records)
            line(seats, "replay", len(records), time.process_time() - start, acts)
            t, acts = random_speaking(seats, n, args.seed)
            line(seats, "random speak", n, t, acts)
        game = "renaissance"
        line(3, f"{game[:4]} shuffle", n, renaissance_baseline(n, args.seed))
        for what, finish in (("apply(int)", to_the_end), ("apply(str)", renaissance_in_text),
                             ("rollout", to_the_end_by_rollout)):
            t, acts, deals = renaissance_deals(n, args.seed, finish)
            line(3, f"{game[:4]} {what}", n, t, acts)
            if deals:
                records = [d.record() for d in deals]
        start = time.process_time()
        acts = sum(len(engine.replay(r).history) for r in records)
        line(3, f"{game[:4]} replay", len(records), time.process_time() - start, acts)
        cls = engine.Ottocento
        line(4, "otto shuffle", n, renaissance_baseline(n, args.seed, cls, 4))
        for what, finish in (("apply(int)", to_the_end), ("apply(str)", ottocento_in_text),
                             ("rollout", ottocento_by_rollout)):
            t, acts, deals = renaissance_deals(n, args.seed, finish, cls, 4)
            line(4, f"otto {what}", n, t, acts)
            if deals:
                records = [d.record() for d in deals]
        start = time.process_time()
        acts = sum(len(engine.replay(r).history) for r in records)
        line(4, "otto replay", len(records), time.process_time() - start, acts)


if __name__ == "__main__":
    main()
