"""The legal/refusal contract at benchmark size (issue 19): for every game, random deals and
deals built from skewed hands (tarocchi.engine.contract: the scenarios, the checks), every step
checked: each listed action accepted by refusal() and apply(), the actions near them that are
not listed refused. The suite (tests/engine/test_contract.py) runs a share of the same code.

Prints per game the deals, steps and checks, the short discards reached (seats, phase, cards
to discard, other cards held), the first problems; exits 1 on any problem.

Run:  .venv/bin/python bench/contract.py [--random 2000] [--skewed 500] [--seed 1] [--games sicilian,...]
      [--applies N]   (default: every listed action applied, on a copy, at every step)
"""

from __future__ import annotations

import argparse
import sys
import time

from tarocchi.engine.contract import Checker, run
from tarocchi.engine.game import game_names


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=2000, help="random deals per game")
    parser.add_argument("--skewed", type=int, default=500, help="skewed deals per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(game_names()))
    parser.add_argument("--applies", type=int, default=10**6,
                        help="listed actions applied on copies per step (all if no more, else a sample)")
    args = parser.parse_args()
    failed = False
    for name in args.games.split(","):
        start = time.process_time()
        t = run(name, args.random, args.skewed, args.seed, Checker(name, applies=args.applies))
        took = time.process_time() - start
        print(f"{name}: {args.random} random + {args.skewed} skewed deals, {t.steps} steps; "
              f"listed accepted by refusal {t.listed}, applied {t.applied}; "
              f"not listed refused {t.unlisted} (by apply too {t.unlisted_applied}); "
              f"{len(t.problems)} problem(s); {took:.0f} s CPU")
        for (seats, phase, size, others), n in sorted(t.short.items()):
            print(f"  short {phase} of {size} at {seats} seats, {others} other card(s) held: {n}")
        for p in t.problems[:5]:
            print("  - " + p)
        failed |= bool(t.problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
