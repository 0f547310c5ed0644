"""The search bot for the Renaissance game: determinized Monte Carlo (PIMC) from the seat's view.

For each card decision it samples worlds consistent with what the seat has seen: the other two
hands and, when it is not the dealer, the dealer's hidden discard (never a King, a trump or
the Fool, A7), every card where the seat cannot rule it out: a seat that did not follow a suit
holds none of it, and one that did not trump holds no trump either (A10; the Fool shows
nothing). Each world is rebuilt as a real deal: a deck order that deals those hands (A6), and
the seat's action log applied to it, so the engine checks the world. Each legal card is then
played in every world and the deal finished by the rule bot's play for all seats; the card
with the best mean score (A15) is played (the search loop is the generic one, ``pimc``). The
discard is the rule bot's.
"""

from __future__ import annotations

import random

from tarocchi.engine.game import IllegalAction
from tarocchi.games.renaissance import DECK, DISCARD, KINGS, TRUMPS, Deal

from ..pimc import PIMC, TIME_LIMIT, WORLDS
from .rule_bot import RenaissanceRuleBot, cards
from ..worlds import Slot, assign, voids
NEVER_DISCARDED = TRUMPS | DECK.fool_bit | KINGS  # A7


class Knowledge:
    """What one seat knows, read from its view."""

    def __init__(self, view: dict):
        self.me: int = view["seat"]
        self.dealer: int = view["dealer"]
        self.hand = DECK.mask_of(view["hand"])
        self.counts: list[int] = view["hand_counts"]
        self.discard = DECK.mask_of(view["discard"] or [])  # known to the dealer only
        self.plays: list[tuple[int, int]] = []
        for a in view["actions"]:
            if not a["action"].startswith("discard"):
                self.plays.append((a["seat"], DECK.card(a["action"])))
        self.played = [0, 0, 0]
        for seat, c in self.plays:
            self.played[seat] |= 1 << c
        self.void = voids(self.plays, DECK, 3)  # the cards each seat cannot hold (A10, A11)
        self.hidden = DECK.full & ~self.hand & ~sum(self.played) & ~self.discard

    def world(self, rng: random.Random, relax: bool = False) -> Deal | None:
        """A deal in the same position with the hidden cards placed at random; None if this
        try found no consistent one."""
        places = [(s, DECK.full & ~(0 if relax else self.void[s])) for s in range(3) if s != self.me]
        slots = [Slot(("hand", s), self.counts[s]) for s, _ in places]
        if self.me != self.dealer:  # the dealer's discard, hidden (A7)
            places.append((-1, DECK.full & ~NEVER_DISCARDED))
            slots.append(Slot(("discard",), 3))
        hidden = cards(self.hidden)
        allowed = {c: sum(1 << i for i, (_, ok) in enumerate(places) if ok >> c & 1) for c in hidden}
        if not assign(hidden, slots, allowed, rng):
            return None
        placed = {s: slot.cards for (s, _), slot in zip(places, slots)}
        discard = self.discard if self.me == self.dealer else placed.pop(-1)
        hands = {s: placed.get(s, self.hand) | self.played[s] for s in range(3)}
        hands[self.dealer] |= discard
        order: list[int] = []
        dealt = {s: cards(hands[s] & ~(discard if s == self.dealer else 0)) for s in range(3)}
        for packet in range(5):
            for i in range(3):
                order += dealt[(self.dealer + 1 + i) % 3][5 * packet:5 * packet + 5]
        order += cards(discard)  # the dealer's three extra cards: any three of his 28
        try:
            deal = Deal(3, self.dealer, order, log=False)
            deal.apply(DISCARD | discard)
            for seat, c in self.plays:
                deal.apply(c, seat)
        except (IllegalAction, ValueError):
            return None
        return deal


def finish(deal: Deal, policy: RenaissanceRuleBot) -> Deal:
    """Play the deal out with the rule bot's card for every seat, in full view of the world."""
    while deal.phase == "play":
        seat = deal.to_act
        assert seat is not None
        deal.apply(policy.play(deal.hands[seat], deal.legal_cards(), deal.trick, sum(deal.played)))
    return deal


class RenaissanceSearchBot(PIMC):
    """PIMC (``pimc``) with this game's knowledge and the rule bot's play to finish a world;
    the discard is the rule bot's."""

    def __init__(self, seed: int | None = None, worlds: int = WORLDS, time_limit: float | None = TIME_LIMIT):
        self.rule = RenaissanceRuleBot(seed)
        super().__init__("renaissance", Knowledge, self.finish_world, self.rule, seed, worlds, time_limit)

    def finish_world(self, deal: Deal) -> Deal:
        return finish(deal, self.rule)
