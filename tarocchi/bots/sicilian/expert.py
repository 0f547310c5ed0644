"""Sicilian's expert: the shared expert search (``bots.expert``) with this game's knowledge.

Worlds come from the search bot's sampler (every phase: the cards still to be dealt and the
monte before a contract, the hidden discard after, R3, R11); a world is played out by the
rule bot's sense for every seat in every phase (``search_bot.rollout``) and solved exactly for
the last ``EXACT_CARDS`` cards. The bids (R5-R10, never a pago: it can only cost, R6), the
bidder's discard (R11) and the Scommessa and Rivanto (R12) are searched the same way. At four
seats the hidden partner (R9) is inferred from play: while the called trump is out, every card
another seat plays weighs the world (a seat that plays as the rule bot would play as the
partner, or as an opponent, tells which it is). At three seats the other seats' words weigh a
world by the learned auction's chance of them (issue 43: ``learned_words``, ``word_weight``),
and the card the search must beat with confidence is the learned player's, not the rule bot's
(``anchored_phases``); ``expert-1``, the duel's, is the expert before both.
"""

from __future__ import annotations

import random

from tarocchi.engine.cards import ARIE, CODES, FOOL_BIT, KINGS, PIGLIATA_TRUMPS, VALUES, cards_in, codes, mask_of
from tarocchi.games.sicilian import PAGO, WORDS, Deal, discardable

from ..expert import TIME_LIMIT, Expert, discard_candidates
from .knowledge import read_view
from .policy import choose_discard
from .rule_bot import RuleBot
from .sampler import parse_log, sample_world
from .search_bot import rollout

EXACT_CARDS = {3: 15, 4: 16}  # cards left in all hands: solve exactly (docs/history/benchmarks.md, expert)
# Cards the count names one by one (R15: the kings, the arie and the 20, the pigliata trumps)
# are never merged with a neighbour by the solver; the rest count by their points alone.
NAMED = KINGS | ARIE | PIGLIATA_TRUMPS | (1 << 20) | FOOL_BIT
PLAIN = ((1 << len(CODES)) - 1) & ~NAMED
WORD_SMOOTHING = 0.1  # of the learned chances of a word, spread evenly over the words
WORD_TEMPER = 0.5  # the power of a word's chance in a world's weight


def word_weight(chance: float, words: int) -> float:
    """A world's weight for a word said that the learned auction gave ``chance`` among
    ``words``: smoothed (a model that errs never rules a world out) and tempered (a few worlds
    that explain every word must not outweigh all the others: the mean over them is noisy)."""
    return ((1 - WORD_SMOOTHING) * chance + WORD_SMOOTHING / words) ** WORD_TEMPER


class Knowledge:
    """The sampler's worlds behind the shared interface."""

    def __init__(self, view: dict):
        self.seen = read_view(view)
        self.me = self.seen.me
        self.log = parse_log(self.seen)

    def world(self, rng: random.Random, relax: bool = False) -> Deal | None:
        return sample_world(self.seen, rng, self.log, tries=4 if not relax else 8)


class SicilianExpert(Expert):
    game = "sicilian"
    # Worlds a decision, at most: the weights leave about two thirds of them effective (Kish's
    # n, bench/expert_bench.py), and 24 worlds used a fifth of the CPU budget (docs/history/benchmarks.md).
    worlds = 48
    plain = PLAIN
    quiet_words = frozenset({"passo", "altre cinque"})  # R6-R8: a contract only on a confident gain

    # Issue 43, part 3: at these seats the learned auction (``learned.policy``, taught by the
    # expert's own words at three seats) is the model of the other seats' words: a world is
    # weighed by the chance it gives each word said (``word_weight``), not the rule bot's all or
    # ``surprise``. Four seats: not measured (its auction model is search's words). None:
    # ``expert-1``, the expert before it.
    learned_words: frozenset[int] = frozenset({3})
    # And at these seats the cards are anchored to the learned player's (``Expert.default``):
    # its model there is the expert's own cards; at four seats it learned search's, not measured.
    anchored_phases = frozenset({"play"})
    anchored_seats: frozenset[int] = frozenset({3})

    def __init__(self, seed: int | None = None, time_limit: float | None = TIME_LIMIT, worlds: int | None = None):
        super().__init__(seed, time_limit, worlds)
        self.rule = RuleBot(seed)

    def knowledge(self, view: dict) -> Knowledge:
        k = Knowledge(view)
        self.exact_cards = EXACT_CARDS[k.seen.seats]
        return k

    def finish(self, deal: Deal) -> Deal:
        return rollout(deal)

    def complete(self, deal: Deal) -> Deal:
        return rollout(deal)

    def anchored(self, view: dict) -> bool:
        return view["seats"] in self.anchored_seats and super().anchored(view)

    def likelihood(self, deal: Deal, seat: int, action: int) -> float:
        if self.learned is not None and deal.phase == "speak" and deal.seats in self.learned_words:
            view = deal.view(seat)
            chances = self.learned.word_chances(view, self.learned.rule(view))
            if chances and WORDS[action] in chances:
                return word_weight(chances[WORDS[action]], len(chances))
        return super().likelihood(deal, seat, action)

    def score(self, deal: Deal, me: int) -> float:
        return deal.count.payments[me]

    def maximising(self, deal: Deal, seat: int, me: int) -> bool:
        return deal.side_of(seat) == deal.side_of(me)

    def informative(self, deal: Deal, seat: int, action: int) -> bool:
        if deal.phase == "play":  # R9: the partner unknown, a card says which side its player is on
            return deal.seats == 4 and deal.partner is not None and not deal.partner_known
        return deal.phase != "discard"

    def candidates(self, view: dict, ok: list[str]) -> list[str]:
        if view["phase"] == "speak":
            words = [w for w in ok if w != WORDS[PAGO]]  # a pago can only cost (R6)
            return words or ok
        if view["phase"] == "discard":
            return sicilian_discards(view)
        return ok


class SicilianExpert1(SicilianExpert):
    """The expert before issue 43's part 3 (the rule bot models the other seats' words, and its
    card is the one the search must beat), kept for the duel (``expert-1``)."""

    learned_words = frozenset()
    anchored_phases = frozenset()


class SicilianExpert2(SicilianExpert):
    """The expert with the learned words alone, its card the rule bot's (the eighth session's),
    kept for the duel (``expert-2``): the anchor's own step is measured against it."""

    anchored_phases = frozenset()


def sicilian_discards(view: dict) -> list[str]:
    """R11: the rule bot's discard, then others from its three and the cheapest other cards
    it may discard."""
    hand = mask_of(view["hand"])
    ok = discardable(hand)
    first = choose_discard(hand, ok)
    ranked = sorted(cards_in(ok & ~first), key=lambda c: (VALUES[c], c))
    return ["discard " + " ".join(codes(m)) for m in discard_candidates(first, ranked, ok)]
