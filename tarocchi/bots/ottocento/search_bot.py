"""The search bot for Ottocento: determinized Monte Carlo (the generic loop, ``pimc``) from the
seat's view.

For each card decision it samples worlds consistent with what the seat has seen
(``Knowledge.world``): the three other hands and, when it is not the dealer, the dealer's
hidden discard (two cards, never a 5-point card, B8), every hidden card where the seat cannot
rule it out: a declared card stays with its declarer until played (B9: shown face up, then kept
in hand); a seat that did not follow a suit holds none of it, one that did not trump either
holds no trump (B19); a Volo says its seat is void in that suit (B22). Each world is rebuilt as
a real deal, a deck order that deals those hands (B6) with the seat's action log replayed on
it, so the engine checks the world. Each card allowed is then played in every world and the
deal finished by the rule bot's play for all four seats with the world in full view, and
counted as B24/B25 count it (card points, the last trick, the combinations in each side's pile
with the discard and the Matto as B8/B21 settle them, the declarations). The card with the
best mean difference between the seat's side's hand score and the other side's is played: a
side's score is not zero-sum (B24) and the match is a race to 800 (B26), so the margin is what
counts. On a lead the cards are searched without signals and the card chosen carries the
rule bot's signal (B22). The a monte answer, the discard and the declaration are the rule
bot's.
"""

from __future__ import annotations

import random

from tarocchi.engine.deck import cards_in
from tarocchi.engine.game import IllegalAction
from tarocchi.games.ottocento import (
    DECK, DISCARD, FIVES, FOOL, FOOL_BIT, LAST_TRICK, PACKET, RULES, Deal, Options, parse_action,
)

from .common import FULL, PlayState, Seen, combo_points, matto_paid
from .rule_bot import OttocentoRuleBot
from ..pimc import PIMC, TIME_LIMIT
from ..worlds import Slot, assign

WORLDS = 16  # worlds sampled per decision, at most (docs/history/benchmarks.md, Ottocento: the time it takes)


class Knowledge(Seen):
    """What one seat knows (``Seen``), and worlds that agree with it."""

    def world(self, rng: random.Random, relax: bool = False) -> Deal | None:
        """A deal in the same position with the hidden cards placed at random; None if this
        try found no consistent one. ``relax`` drops the voids (never the declared cards)."""
        others = [s for s in range(4) if s != self.me]
        slots = [Slot(("hand", s), self.counts[s]) for s in others]
        may = [FULL & ~(0 if relax else self.void[s]) for s in others]
        hidden_discard = self.me != self.dealer and self.phase in ("declare", "play")
        if hidden_discard:  # B8: two cards, never a 5-point card, not a declared one
            slots.append(Slot(("discard",), 2))
            may.append(FULL & ~FIVES)
        pinned = {}
        for i, s in enumerate(others):
            for c in cards_in(self.held[s] & self.unseen):
                pinned[c] = 1 << i  # B9: declared, so in that hand until played
        allowed = {c: pinned.get(c) or sum(1 << i for i, ok in enumerate(may) if ok >> c & 1)
                   for c in cards_in(self.unseen)}
        if not assign(list(allowed), slots, allowed, rng):
            return None
        hands = [0, 0, 0, 0]
        hands[self.me] = self.hand
        for s, slot in zip(others, slots):
            hands[s] = slot.cards
        discard = slots[-1].cards if hidden_discard else self.discard
        return self.rebuild(hands, discard)

    def rebuild(self, hands: list[int], discard: int) -> Deal | None:
        """The deal that dealt these hands (with the cards played) and this discard, with this
        seat's log replayed on it (B6: packets of five from dealer + 1, two more to the dealer)."""
        dealt = [list(cards_in(hands[s] | self.played[s])) for s in range(4)]
        dealt[self.dealer] += list(cards_in(discard))
        order: list[int] = []
        for packet in range(3):
            for i in range(4):
                s = (self.dealer + 1 + i) % 4
                order += dealt[s][PACKET * packet:PACKET * packet + PACKET]
        order += dealt[self.dealer][15:]
        return self.replayed(order, discard)

    def replayed(self, order: list[int], discard: int = 0) -> Deal | None:
        """The deal of this deck order, at this view's totals and options, with this seat's log
        replayed on it (the dealer's discard as ``discard``); None if the log does not fit."""
        t = self.view["totals_before"]
        try:
            deal = Deal(4, self.dealer, order, Options.from_json(self.view["options"]), log=False,
                        totals=[t[0], t[1], t[0], t[1]])
            for seat, text in self.actions:
                deal.apply(DISCARD | discard if text == "discard" else parse_action(text), seat)
        except (IllegalAction, ValueError):
            return None
        return deal


class Margins:
    """A finished world's result as PIMC reads it: by seat, its side's hand score less the other's."""

    __slots__ = ("scores",)

    def __init__(self, scores: list[int]):
        self.scores = scores

    def returns(self) -> list[int]:
        a, b = self.scores
        return [a - b, b - a, a - b, b - a]


def finish(deal: Deal, policy: OttocentoRuleBot) -> list[int]:
    """The hand played out from ``deal`` with ``policy``'s card for every seat, each seeing the
    whole world, and counted (B8, B21, B24, B25): the two sides' hand scores. The engine's
    deal is not changed (it is played on masks here: the engine's count finds the Matto's card
    by scoring piles by their codes, which is too slow for thousands of playouts)."""
    if deal.done:
        assert deal.count is not None
        return deal.count.scores
    hands = deal.hands[:]
    won = deal.won[:]
    tricks_won = deal.tricks_won[:]
    trick = deal.trick[:]
    leader = deal.leader
    seat = deal.to_act
    assert seat is not None
    fool_by, fool_to = deal.fool_by, deal.fool_to
    left = deal.tricks_left
    st = PlayState(0, 0, 0, trick, leader, 0, [0, 0, 0, 0], hands, signals=False)
    last = -1
    legal_of = RULES.legal
    while left:
        legal = legal_of(hands[seat], trick)
        if legal & (legal - 1) == 0:
            c = legal.bit_length() - 1
        else:
            st.me, st.hand, st.legal, st.trick, st.leader = seat, hands[seat], legal, trick, leader
            st.unseen = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hands[seat]
            st.void = [FULL & ~h for h in hands]
            c = policy.play(st)[0]
        hands[seat] ^= 1 << c
        trick.append(c)
        if c == FOOL:
            fool_by = seat
        if len(trick) < 4:
            seat = (seat + 1) % 4
            continue
        winner, fool_to = close_trick(trick, leader, won, tricks_won, fool_to)
        leader = seat = last = winner
        trick = []
        left -= 1
    return count(deal, won, tricks_won, fool_by, fool_to, last)


def close_trick(trick: list[int], leader: int, won: list[int], tricks_won: list[int], fool_to: int) -> tuple[int, int]:
    """A full trick on masks: its winner takes it (B19, the Matto kept aside, B20); the winner
    and who now holds the Matto's trick."""
    mask = 0
    for x in trick:
        mask |= 1 << x
    winner = (leader + trick.index(RULES.winning_card(trick, mask))) % 4
    if mask & FOOL_BIT:
        mask ^= FOOL_BIT
        fool_to = winner
    won[winner] |= mask
    tricks_won[winner] += 1
    return winner, fool_to


def count(deal: Deal, won: list[int], tricks_won: list[int], fool_by: int, fool_to: int, last: int) -> list[int]:
    """B8, B21, B24, B25 on masks, as the engine's ``Deal._count``."""
    piles = [won[0] | won[2], won[1] | won[3]]
    by_side = [tricks_won[0] + tricks_won[2], tricks_won[1] + tricks_won[3]]
    dealer_side = deal.dealer % 2
    piles[dealer_side if by_side[dealer_side] else 1 - dealer_side] |= deal.discarded  # B8
    mine, theirs = fool_by % 2, fool_to % 2
    if mine == theirs:
        piles[mine] |= FOOL_BIT
    else:  # B21
        paid = matto_paid(piles[mine], piles[theirs]) if by_side[mine] else -1
        if paid < 0:
            piles[theirs] |= FOOL_BIT
        else:
            piles[mine] = piles[mine] & ~(1 << paid) | FOOL_BIT
            piles[theirs] |= 1 << paid
    out = [deal.declared[0] + deal.declared[2], deal.declared[1] + deal.declared[3]]
    for i in (0, 1):
        out[i] += combo_points(piles[i]) + DECK.points(piles[i]) + (LAST_TRICK if last % 2 == i else 0)
    return out


class OttocentoSearchBot(PIMC):
    """PIMC (``pimc``) with this game's knowledge, the rule bot's play to finish a world and
    the side's margin as the score; the other phases are the rule bot's."""

    def __init__(self, seed: int | None = None, worlds: int = WORLDS, time_limit: float | None = TIME_LIMIT):
        self.rule = OttocentoRuleBot(seed)
        super().__init__("ottocento", Knowledge, self.finish_world, self.rule, seed, worlds, time_limit)

    def finish_world(self, deal: Deal) -> Margins:
        return Margins(finish(deal, self.rule))

    def evaluate(self, view: dict) -> list[tuple[str, float]]:
        if view["phase"] != "play" or view["trick"]:
            return super().evaluate(view)
        # A lead: search the cards alone; each card carries the rule bot's signal (B22).
        plain = dict(view, choices=[c for c in view["choices"] if " " not in c["action"]])
        return [(self.rule.signalled(view, text), score) for text, score in super().evaluate(plain)]
