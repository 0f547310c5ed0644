"""What a hint and a review cost (issue 21): the strongest level's ``evaluate`` on one seat's
decisions, as the server's bot executor runs it (``tarocchi.bots.advice``), one process.

    .venv/bin/python bench/advice_bench.py --deals 10

For each game at its largest table, ``--deals`` deals of random legal play (``play_out``), and seat 0's
whole review of each (``advice.decisions``, then ``advice.review`` on each decision that had a
choice: the view rebuilt from the record and evaluated, which is a hint's work plus the
replay). Prints one decision's median, p95 and max seconds (what a hint costs), and a whole
review's seconds per deal (median, max) with its decisions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tarocchi.bots import advice
from tarocchi.bots.duel import percentile
from tarocchi.engine.game import game_names, get_game
from tarocchi.engine.playout import play_out


def played_deal(game: str, seed: int) -> dict:
    g = get_game(game)
    rng = random.Random(seed)
    return play_out(g.shuffled(g.seats[-1], rng.randrange(g.seats[-1]), rng), rng).record()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':13} {'level':7} {'hints':>5} {'median':>7} {'p95':>6} {'max':>6}   {'reviews':>7} "
          f"{'decisions':>9} {'median':>7} {'max':>6}")
    for game in game_names():
        hints, reviews, decisions = [], [], []
        for i in range(args.deals):
            record = played_deal(game, args.seed * 1000 + i)
            began = time.perf_counter()
            indices = advice.decisions(record, 0)
            for index in indices:
                start = time.perf_counter()
                advice.review(game, record, index)
                hints.append(time.perf_counter() - start)  # (the review of one decision is one hint's work)
            reviews.append(time.perf_counter() - began)
            decisions.append(len(indices))
        print(f"{game:13} {advice.strongest_level(game):7} {len(hints):5} {statistics.median(hints):7.3f} "
              f"{percentile(hints, 0.95):6.3f} {max(hints):6.3f}   {len(reviews):7} {statistics.mean(decisions):9.1f} "
              f"{statistics.median(reviews):7.2f} {max(reviews):6.2f}", flush=True)


if __name__ == "__main__":
    main()
