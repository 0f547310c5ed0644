"""The search bot for Calabresella: determinized Monte Carlo (the generic loop, ``pimc``) from
the seat's view, for the cards in play; the auction, the called card, the give-back, the lays
and the scegliete takes are the rule bot's.

Each world places the cards the seat has not seen (``rule_bot.Knowledge``) into the
other two hands and the hidden part of the monte (``worlds.assign``): a seat that did not
follow a suit holds none of it, nor trumps if it did not trump (R13); the called card and the
turned-up monte went to the challenger (in his hand or laid back, C10, C11); the card given
back is the giver's; a scegliete take is its taker's (C12); a laid card is never a trump, the
Fool or a King (C13), except in plain solissimo, whose monte is the one dealt (C11). The world
is rebuilt as a real deal: the hands each seat was dealt (undoing the call, the give-back, the
takes and the lays), a deck order that deals them (C7) with the monte in its order (C11's
dividete cards 1-2 and 3), and the seat's action log applied to it, the hidden lays as the
world placed them, so the engine checks the world. A world is built in the view's own phase:
in play for this bot, and for the expert at the give-back, the lays and the takes too (the
cards taken from the monte and not yet laid back are in a hand, so the monte's room is smaller
then: ``Knowledge.monte_room``). Each legal card is played in every world
and the deal finished with the rule bot's card sense for every seat in full view of the world;
the card with the best mean value is played: the payment, and a small share of the side's card
points to tell apart cards that win or lose alike (``Scored``).
"""

from __future__ import annotations

import random

from tarocchi.engine.cards import cards_in
from tarocchi.engine.game import IllegalAction
from tarocchi.games.calabresella import DECK, LAY, MONTE, PACKET, PLAY, SEATS, STAKE, TRICKS, Deal, parse_action

from .rule_bot import MONTE_PLACE, CalabresellaRuleBot, Knowledge
from ..pimc import PIMC
from ..sicilian.policy import choose_card
from ..worlds import Slot, assign

WORLDS = 24  # worlds per card decision, at most (docs/history/benchmarks.md "Calabresella": p95 under 1 s)
TIME_LIMIT = 0.5  # seconds: a safety net under load


def _pick(rng: random.Random, mask: int, n: int) -> int:
    cs = list(cards_in(mask))
    rng.shuffle(cs)
    return sum(1 << c for c in cs[:n])


class CalabresellaKnowledge(Knowledge):
    """``Knowledge`` that can also deal worlds consistent with the view."""

    def world(self, rng: random.Random, relax: bool = False) -> Deal | None:
        me, ch, bid = self.me, self.ch, self.bid
        if ch is None or self.tricks_left <= 0:
            return None
        places = [s for s in range(SEATS) if s != me]
        slots = [Slot(("hand", s), self.counts[s]) for s in places]
        index = {s: i for i, s in enumerate(places)}
        if self.monte_room:
            index[MONTE_PLACE] = len(slots)
            slots.append(Slot(("monte",), self.monte_room))
        where = self.soft if relax else self.where
        allowed = {}
        for c, w in where.items():
            a = 0
            for place, i in index.items():
                if w >> place & 1:
                    a |= 1 << i
            allowed[c] = a
        if sum(s.capacity for s in slots) != len(allowed) or not assign(list(allowed), slots, allowed, rng):
            return None
        hands = [0, 0, 0]
        hands[me] = self.hand
        for s in places:
            hands[s] = slots[index[s]].cards
        hidden = slots[index[MONTE_PLACE]].cards if self.monte_room else 0
        laid = [self.laid[s] or 0 for s in range(SEATS)]
        first, second = (ch + 1) % SEATS, (ch + 2) % SEATS
        taken = [self.taken[s] or 0 for s in range(SEATS)]
        if bid in ("chiamo", "vado solo"):
            if me != ch:
                laid[ch] = hidden
        elif bid in ("vado solissimo dividete", "vado solissimo scegliete"):
            sizes = {first: 2, second: 1} if bid.endswith("dividete") else \
                {first: taken[first].bit_count(), second: taken[second].bit_count()}
            if me == ch:  # split the hidden lays between the two opponents
                left = hidden
                for s in (first, second):  # a card taken face up and laid back is its taker's
                    own = hidden & taken[s] if bid.endswith("scegliete") else 0
                    if own.bit_count() > sizes[s]:
                        return None
                    laid[s] = own
                    left &= ~own
                for s in (first, second):
                    more = _pick(rng, left, sizes[s] - laid[s].bit_count())
                    laid[s] |= more
                    left &= ~more
                if left:
                    return None
            else:
                other = first if me == second else second
                laid[other] = hidden
            if bid.endswith("dividete"):  # which monte cards the other opponents took is unseen
                for s in (first, second):
                    if self.taken[s] is None:
                        taken[s] = _pick(rng, hands[s] | self.played[s] | laid[s], sizes[s])
        now = [hands[s] | self.played[s] | laid[s] for s in range(SEATS)]  # every card each seat had
        dealt = now[:]
        monte_order: list[int]
        if bid == "vado solissimo":
            monte_order = list(cards_in(hidden))
        elif bid in ("chiamo", "vado solo"):
            dealt[ch] &= ~self.turned_up
            if bid == "chiamo" and self.giver is not None:
                called = 1 << self.called
                back = 0 if self.given_back is None else 1 << self.given_back  # none yet at the give-back
                dealt[ch] = dealt[ch] & ~called | (back & ~self.turned_up)  # a monte card given back was not dealt
                dealt[self.giver] = dealt[self.giver] & ~back | called
            monte_order = list(cards_in(self.turned_up))
        else:
            for s in (first, second):
                dealt[s] &= ~taken[s]
            monte_order = list(cards_in(taken[first])) + list(cards_in(taken[second])) \
                if bid.endswith("dividete") else list(cards_in(self.turned_up))
        deck: list[int] = []
        lists = [list(cards_in(h)) for h in dealt]
        for r in range(4):
            for i in range(SEATS):
                s = (self.dealer + 1 + i) % SEATS
                deck.extend(lists[s][PACKET * r:PACKET * (r + 1)])
        deck.extend(monte_order)
        if len(deck) != DECK.size or len(monte_order) != MONTE:
            return None
        try:
            deal = Deal(SEATS, self.dealer, deck, log=False)
            for a in self.actions:
                seat, text = a["seat"], a["action"]
                deal.apply(LAY | laid[seat] if text == "scarto" else parse_action(text), seat)
        except (IllegalAction, ValueError):
            return None
        if deal.phase != self.phase or deal.to_act != me:
            return None
        return deal

    def __init__(self, view: dict):
        super().__init__(view)
        self.actions = view["actions"]
        self.phase = view["phase"]  # play, or the challenger's give-back and lays, an opponent's take


POINT_WEIGHT = 0.01  # per card point, times the stake: the count's margin as a tie-break


class Scored:
    """A finished world's value for each seat: its payment (C18-C20) and, to tell apart the
    cards that win or lose the deal alike, a small share of its side's card points (C17): a
    point weighs 0.01 of the stake, so the whole margin is less than the payment's step."""

    def __init__(self, deal: Deal):
        self.deal = deal

    def returns(self) -> list[float]:
        d = self.deal
        count = d.count
        assert count is not None
        pay = count.payments
        if count.thrown_in:
            return [0.0] * SEATS
        w = POINT_WEIGHT * STAKE[count.contract]
        return [pay[s] + w * count.points[d.side_of(s)] for s in range(SEATS)]


def finish(deal: Deal) -> Scored:
    """The deal played out to the count with the rule bot's card sense for every seat, each
    seeing the world's hands."""
    ch = deal.challenger
    while deal.phase == PLAY:
        x = deal.to_act
        assert x is not None
        legal = deal.legal_cards()
        if legal & (legal - 1) == 0:
            deal.apply(legal.bit_length() - 1)
            continue
        friends = [s != x and s != ch and x != ch for s in range(SEATS)]
        foes = [s != x and (s == ch or x == ch) for s in range(SEATS)]
        seats = [(deal.leader + i) % SEATS for i in range(len(deal.trick))]
        deal.apply(choose_card(deal.hands[x], legal, deal.trick, seats, x, SEATS, friends, foes, deal.hands,
                               TRICKS - sum(deal.tricks_won)))
    return Scored(deal)


class CalabresellaSearchBot(PIMC):
    """PIMC for the cards; the rule bot for everything else."""

    def __init__(self, seed: int | None = None, worlds: int = WORLDS, time_limit: float | None = TIME_LIMIT):
        self.rule = CalabresellaRuleBot(seed)
        super().__init__("calabresella", CalabresellaKnowledge, finish, self.rule, seed, worlds, time_limit)
