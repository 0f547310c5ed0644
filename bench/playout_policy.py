"""How strong a playout policy is in a world whose hands are known (issue 21): Renaissance's
rule bot as the expert plays a world out (``renaissance.expert.play_seeing``), at one seat
against another policy at the other two, every seat seeing the world's hands.

    .venv/bin/python bench/playout_policy.py --deals 4000

Each deal (a random deck order and dealer, the discard the rule bot's, A7) is played three
times, the policy measured in each seat in turn (A15: each hand scores alone), and its mean
score per seat and deal is printed with a 95 % interval; the policies' own field scores 0 by
symmetry. A few thousand deals take seconds, so a change to the playout can be weighed here
before the expert's duels (``tarocchi duel --game renaissance expert search``), which take
minutes a seed; a stronger playout is not always a stronger expert (docs/history/benchmarks.md,
"A playout weighed in full view"). With ``--exact 15,18`` it weighs the expert's exact solve
from so many cards left against the world's play instead (docs/history/benchmarks.md, "The solver's
depth weighed in full view"). With ``--rollout`` it weighs one step of policy improvement
over the world's play (each card tried and the world played out by the world's play, the
best taken): how far a playout policy is from what a search of its own could make of the
same world (docs/history/benchmarks.md, "A step of search in the playout").
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from tarocchi.bots.renaissance.expert import RenaissanceExpert, finish_seeing, play_seeing
from tarocchi.bots.renaissance.rule_bot import MAGICIAN, VALUES, RenaissanceRuleBot, beaten, cards
from tarocchi.bots.solver import OutOfNodes
from tarocchi.games.renaissance import DISCARD, FOOL, Deal


class TablePolicy(RenaissanceRuleBot):
    """The rule bot's play as at the table, guessing where the cards lie from the cards
    played (the search bot's playout), though the world's hands are there."""

    def play(self, hand, legal, trick, played, later=None):
        return super().play(hand, legal, trick, played)


class EverySureTrick(RenaissanceRuleBot):
    """The world's play taking every trick it is sure of, however cheap: the table's rule
    bot (and the world's play) keeps a trump or a higher card of the suit for a trick worth 2
    or more unless it plays last; in a world a sure trick is sure, and every trick is worth a
    point at least (A4). Stronger here, level in the expert (docs/history/benchmarks.md)."""

    def play(self, hand, legal, trick, played, later=None):
        if later is None or not trick or legal & (legal - 1) == 0:
            return super().play(hand, legal, trick, played, later)
        sure = [c for c in cards(legal) if c != FOOL and self._wins(trick, c) and not beaten(later, trick + [c])]
        if sure:
            return min(sure, key=lambda c: (VALUES[c] if c != MAGICIAN else 0, c))
        return self.give(legal, trick)


class ExactFrom(RenaissanceRuleBot):
    """The world's play until ``cards`` are left in the three hands, then the expert's exact
    solve (``Solver``: the seat against the other two, A15) for each card: how much a deeper
    solve is worth in full view (``--exact``)."""

    def __init__(self, seed: int | None = None, cards: int = 15):
        super().__init__(seed)
        self.cards = cards
        self.expert = RenaissanceExpert(seed)

    def card(self, deal: Deal) -> int:
        legal = deal.legal_cards()
        if sum(h.bit_count() for h in deal.hands) > self.cards or legal & (legal - 1) == 0:
            return play_seeing(self, deal)
        solver = self.expert.solver(deal.to_act)
        solver.node_limit = EXACT_NODES
        try:
            values = solver.values(deal, cards(legal))
        except OutOfNodes:
            return play_seeing(self, deal)
        mine = play_seeing(self, deal)
        return max(values, key=lambda c: (values[c], c == mine))


class Rollout(RenaissanceRuleBot):
    """One step of policy improvement in full view (``--rollout``): each legal card tried,
    the world played out by the world's play for every seat, the best for this seat taken
    (ties to the world's own card). It knows how the others will answer, the world's play
    being theirs too: a bound on what a search inside the playout could add, not a policy to
    copy (about ten playouts a card)."""

    def card(self, deal: Deal) -> int:
        legal = deal.legal_cards()
        mine = play_seeing(self, deal)
        if legal & (legal - 1) == 0:
            return mine
        me = deal.to_act
        values = {}
        for c in cards(legal):
            d = deal.copy()
            d.apply(c)
            values[c] = finish_seeing(d, self).returns()[me]
        return max(values, key=lambda c: (values[c], c == mine))


EXACT_NODES = 400_000  # a solve that needs more falls back to the world's play
POLICIES = {"world": RenaissanceRuleBot, "table": TablePolicy, "every-sure-trick": EverySureTrick}


def played_out(deal: Deal, bots: list[RenaissanceRuleBot]) -> list[int]:
    while deal.phase == "discard":
        deal.apply(DISCARD | bots[deal.to_act].discard(deal.hands[deal.to_act]))
    while deal.phase == "play":
        bot = bots[deal.to_act]
        deal.apply(bot.card(deal) if isinstance(bot, (ExactFrom, Rollout)) else play_seeing(bot, deal))
    return deal.returns()


def measure(policy: RenaissanceRuleBot, field: RenaissanceRuleBot, deals: int, seed: int) -> tuple[float, float]:
    """The policy's mean score per seat and deal against the field, and its 95 % half-width."""
    rng = random.Random(seed)
    gains = []
    for _ in range(deals):
        order = list(range(78))
        rng.shuffle(order)
        dealer = rng.randrange(3)
        total = 0
        for seat in range(3):
            bots = [field] * 3
            bots[seat] = policy
            total += played_out(Deal(3, dealer, order, log=False), bots)[seat]
        gains.append(total / 3)
    return statistics.mean(gains), 1.96 * statistics.stdev(gains) / math.sqrt(deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--exact", default="", help="cards left (e.g. 15,18): the exact solve from there "
                        "against the world's play, in place of the rule policies (minutes, not seconds)")
    parser.add_argument("--rollout", action="store_true", help="one step of search over the world's play, "
                        "against it (a minute for 200 deals)")
    args = parser.parse_args()
    print(f"renaissance, {args.deals} deals, seed {args.seed}: points per seat and deal, one seat against two")
    if args.rollout:
        mean, half = measure(Rollout(0), RenaissanceRuleBot(0), args.deals, args.seed)
        print(f"  {'rollout':>17} against {'world':<17} {mean:+.3f} ± {half:.3f}")
        return
    if args.exact:
        for n in (int(x) for x in args.exact.split(",")):
            mean, half = measure(ExactFrom(0, n), RenaissanceRuleBot(0), args.deals, args.seed)
            print(f"  {'exact from ' + str(n):>17} against {'world':<17} {mean:+.3f} ± {half:.3f}")
        return
    for policy, field in (("world", "table"), ("every-sure-trick", "world"), ("every-sure-trick", "table")):
        mean, half = measure(POLICIES[policy](0), POLICIES[field](0), args.deals, args.seed)
        print(f"  {policy:>17} against {field:<17} {mean:+.3f} ± {half:.3f}")


if __name__ == "__main__":
    main()
