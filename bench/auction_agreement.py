"""How often Sicilian's search bot says the word its rule bot would say (issue 21): deals whose
auction is spoken by the search bot at every seat, each word set beside the rule bot's word
for the same view. The expert once weighed its worlds by the rule bot's words (docs/history/benchmarks.md,
expert); this is what showed they do not model the search bot's.

    .venv/bin/python bench/auction_agreement.py --seats 3 --deals 150

Prints one row per (cards in hand, search's word, the rule bot's word) with its count.
"""

from __future__ import annotations

import argparse
import collections

from tarocchi.bots import make_player
from tarocchi.bots.duel import deck_for
from tarocchi.bots.sicilian.rule_bot import RuleBot
from tarocchi.engine.game import get_game


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seats", type=int, default=3, choices=(3, 4))
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=99)
    args = ap.parse_args()
    game = get_game("sicilian")
    players = [make_player("search", seed=s, game="sicilian") for s in range(args.seats)]
    for p in players:
        p.time_limit = None  # fixed work, as in a duel
    rule = RuleBot(0)
    tally: collections.Counter = collections.Counter()
    for i in range(args.deals):
        deal = game.new_deal(args.seats, i % args.seats, deck_for(args.seed, i, game.deck.size), log=False)
        while not deal.done and deal.view(deal.to_act)["phase"] == "speak":
            s = deal.to_act
            view = deal.view(s)
            word = players[s](view)
            tally[(len(view["hand"]), word, rule(view))] += 1
            deal.apply(word, s)
    print("| cards | search says | rule bot says | times |")
    print("|---|---|---|---|")
    for (k, word, theirs), n in sorted(tally.items()):
        print(f"| {k} | {word} | {theirs} | {n} |")


if __name__ == "__main__":
    main()
