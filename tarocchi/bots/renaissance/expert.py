"""Renaissance's expert: the shared expert search (``bots.expert``) with this game's
knowledge (``search_bot.Knowledge``) and the rule bot's play to finish a world, its tests
made on the world's hands (``play_seeing``; the search bot's playout guesses where the cards
lie, as the rule bot must at the table, though a world says it: docs/history/benchmarks.md,
"Renaissance's playout on the world's hands"); the last ``EXACT_CARDS`` cards solved exactly,
each seat for itself (the other two seats play against the seat searched: A15 scores each hand
alone). The dealer's discard (A7) is searched too: the rule bot's three and the sets drawn
from them and the next cards it would bank, each laid in every world (the other two hands
dealt from the cards the dealer has not seen) and the deal played out.
"""

from __future__ import annotations

import random

from tarocchi.engine.game import IllegalAction
from tarocchi.games.renaissance import DECK, DISCARD_RULE, ONE_POINT, PACKET, Deal

from ..expert import TIME_LIMIT, Expert, discard_candidates
from ..worlds import Slot, assign
from .rule_bot import RenaissanceRuleBot, cards
from .search_bot import Knowledge


class DiscardKnowledge:
    """The dealer before its discard (A7): its 28 cards known, the other two hands not."""

    def __init__(self, view: dict):
        self.me: int = view["seat"]
        self.hand = DECK.mask_of(view["hand"])
        self.counts: list[int] = view["hand_counts"]
        self.extra = DECK.mask_of(view.get("extra") or [])  # A6: the three cards dealt last

    def world(self, rng: random.Random, relax: bool = False) -> Deal | None:
        others = [s for s in range(3) if s != self.me]
        slots = [Slot(("hand", s), self.counts[s]) for s in others]
        hidden = cards(DECK.full & ~self.hand)
        if not assign(hidden, slots, dict.fromkeys(hidden, 3), rng):
            return None
        dealt = {self.me: cards(self.hand & ~self.extra) + cards(self.extra)}
        for s, slot in zip(others, slots):
            dealt[s] = cards(slot.cards)
        order: list[int] = []
        for packet in range(5):  # A6: packets of five from the dealer's left, then three more
            for i in range(3):
                order += dealt[(self.me + 1 + i) % 3][PACKET * packet:PACKET * packet + PACKET]
        order += dealt[self.me][5 * PACKET:]
        try:
            return Deal(3, self.me, order, log=False)
        except (IllegalAction, ValueError):
            return None


def play_seeing(rule: RenaissanceRuleBot, deal: Deal) -> int:
    """The rule bot's card (A10-A12) for the seat to act in a world, its tests made on the
    hands of the seats still to play to the trick: a card is sure to win when none of them
    holds a card that beats it, a King, then another court card, is led when none can take it."""
    seat = deal.to_act
    later = [deal.hands[(seat + i) % 3] for i in range(1, 3 - len(deal.trick))]
    return rule.play(deal.hands[seat], deal.legal_cards(), deal.trick, sum(deal.played), later)


def finish_seeing(deal: Deal, rule: RenaissanceRuleBot) -> Deal:
    """A world played out by ``play_seeing`` for every seat."""
    while deal.phase == "play":
        deal.apply(play_seeing(rule, deal))
    return deal


EXACT_CARDS = 15  # cards left in the three hands: solve exactly (docs/history/benchmarks.md, expert)


class RenaissanceExpert(Expert):
    game = "renaissance"
    exact_cards = EXACT_CARDS
    plain = DECK.full & ~DECK.fool_bit  # A4: a card counts by its points alone
    searched_phases = frozenset({"play", "discard"})

    def __init__(self, seed: int | None = None, time_limit: float | None = TIME_LIMIT, worlds: int | None = None):
        super().__init__(seed, time_limit, worlds)
        self.rule = RenaissanceRuleBot(seed)

    def knowledge(self, view: dict) -> Knowledge | DiscardKnowledge:
        return DiscardKnowledge(view) if view["phase"] == "discard" else Knowledge(view)

    def candidates(self, view: dict, ok: list[str]) -> list[str]:
        if view["phase"] != "discard":
            return super().candidates(view, ok)
        hand = DECK.mask_of(view["hand"])
        first = self.rule.discard(hand)
        allowed = DISCARD_RULE.allowed(hand)
        ranked = sorted(cards(allowed & ~first), key=lambda c: -self.rule._discard_worth(c, hand))
        return ["discard " + " ".join(DECK.codes_of(m)) for m in discard_candidates(first, ranked, allowed)]

    def finish(self, deal: Deal) -> Deal:
        return finish_seeing(deal, self.rule)

    def score(self, deal: Deal, me: int) -> float:
        return deal.returns()[me]

    def maximising(self, deal: Deal, seat: int, me: int) -> bool:
        return seat == me

    def key_extra(self, deal: Deal) -> tuple:
        # A13: the Fool pays the first 1-point card of its player's pile, in the order won
        # (the dealer's pile starts with the discard, the same in every position of a solve)
        first = [-1, -1, -1]
        found = 0
        for winner, trick in deal.wins:
            if first[winner] < 0:
                for c in trick:
                    if ONE_POINT >> c & 1:
                        first[winner] = c
                        found += 1
                        break
                if found == 3:
                    break
        return tuple(first)
