"""What the learned policy would cost as the expert's playout (issue 43, part 3): a world from
its first card played out to the count by the expert's playout today (``Expert.finish``: the
rule bot's card sense with every hand in view, on the deal's own bitmasks) and by the learned
level (each card chosen from that seat's view, as at a table), per game:

    .venv/bin/python bench/learned_playout.py --deals 30 --seed 5

Prints the median CPU of a playout each way and their ratio. The expert plays out some 48-64
worlds times the options of a decision within 0.6 s, so a playout many times dearer leaves
it a few worlds a decision.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tarocchi.bots import levels_for
from tarocchi.engine.game import game_names, get_game


def to_the_cards(game, expert, rng: random.Random, seats: int):
    """A random deal with the rule bot's words until its first card (None: no cards played)."""
    order = list(range(game.deck.size))
    rng.shuffle(order)
    deal = game.new_deal(seats, rng.randrange(seats), order)
    while not deal.done and deal.phase != "play":
        deal.apply(game.parse_action(expert.rule(deal.view(deal.to_act))), deal.to_act)
    return None if deal.done else deal


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    for name in game_names():
        game = get_game(name)
        seats = game.seats[0]  # each game's smallest table
        levels = levels_for(name)
        expert, learned = levels["expert"](seed=args.seed), levels["learned"](seed=args.seed)
        rng = random.Random(args.seed)
        today, by_views = [], []
        for _ in range(args.deals):
            deal = to_the_cards(game, expert, rng, seats)
            if deal is None:
                continue
            world = deal.copy()
            t = time.thread_time()
            expert.finish(world)
            today.append(time.thread_time() - t)
            world = deal.copy()
            t = time.thread_time()
            while not world.done:
                world.apply(game.parse_action(learned(world.view(world.to_act))), world.to_act)
            by_views.append(time.thread_time() - t)
        a, b = statistics.median(today), statistics.median(by_views)
        print(f"{name} ({seats} seats, {len(today)} worlds): expert's playout {a * 1e3:.2f} ms, "
              f"learned from the views {b * 1e3:.1f} ms (x{b / a:.0f})")


if __name__ == "__main__":
    main()
