"""Sampled worlds: full deals consistent with everything one seat has seen.

A world gives every card a place the seat cannot rule out: the other hands (respecting the
voids shown, R13, and the called trump's rule, R9), another bidder's hidden discard (never a
trump, the Fool or a King, R11), the cards still to be dealt and the monte. It is built as a
deck order that deals those hands in R3's packet order, then the seat's action log is
re-applied to a fresh ``Deal``: the engine itself checks the world is consistent.
"""

from __future__ import annotations

import random

from tarocchi.games.sicilian import DISCARD, parse_action
from tarocchi.engine.cards import NEVER_DISCARD, cards_in
from tarocchi.games.sicilian import Deal, IllegalAction

from .knowledge import FULL_HAND, Seen
from ..worlds import Slot, assign

PACKET = 5
MONTE_SIZE = 3


def sample_world(seen: Seen, rng: random.Random, actions: list[int | None], tries: int = 30) -> Deal | None:
    """A Deal in the same position as ``seen``, with the unseen cards placed at random
    consistently with what the seat knows; None if no consistent world was found.

    ``actions`` is the parsed action log, None where another seat's discard is hidden."""
    for attempt in range(tries):
        relax = attempt >= tries // 2  # a last resort: forget the voids, keep the rules
        deal = _try_world(seen, rng, actions, relax)
        if deal is not None:
            return deal
    return None


def _try_world(seen: Seen, rng: random.Random, actions: list[int | None], relax: bool) -> Deal | None:
    n, me, b = seen.seats, seen.me, seen.bidder
    full = FULL_HAND[n]
    played_by = seen.played_by
    slots: list[Slot] = []
    hand_slot: dict[int, int] = {}
    future_slot: dict[int, int] = {}
    fixed = [seen.must[s] if s != me else 0 for s in range(n)]
    pre_contract = b is None
    for s in range(n):
        if s != me:
            hand_slot[s] = len(slots)
            slots.append(Slot(("hand", s), seen.hand_counts[s] - fixed[s].bit_count()))
    if pre_contract:
        for s in range(n):
            rest = full - seen.cards_dealt
            if rest:
                future_slot[s] = len(slots)
                slots.append(Slot(("future", s), rest))
    monte_slot = discard_slot = None
    if pre_contract and seen.monte is None:
        monte_slot = len(slots)
        slots.append(Slot(("monte",), MONTE_SIZE))
    if seen.discarded_by_other:
        discard_slot = len(slots)
        slots.append(Slot(("discard",), MONTE_SIZE))
    pool = seen.unknown()
    for s in range(n):
        pool &= ~fixed[s]
    allowed: dict[int, int] = {}
    everything = (1 << len(slots)) - 1
    for c in cards_in(pool):
        a = 0
        for s, i in hand_slot.items():
            if relax or not seen.cannot[s] >> c & 1:
                a |= 1 << i
        for i in future_slot.values():
            a |= 1 << i
        if monte_slot is not None:
            a |= 1 << monte_slot
        if discard_slot is not None and not NEVER_DISCARD >> c & 1:
            a |= 1 << discard_slot
        if seen.monte is not None and not pre_contract and seen.monte >> c & 1 and b != me:
            a &= (1 << hand_slot[b]) | ((1 << discard_slot) if discard_slot is not None else 0)
        allowed[c] = a & everything
    if not assign(list(cards_in(pool)), slots, allowed, rng):
        return None
    hands = [0] * n
    hands[me] = seen.hand
    for s, i in hand_slot.items():
        hands[s] = slots[i].cards | fixed[s]
    hidden_discard = slots[discard_slot].cards if discard_slot is not None else 0
    # What each seat was dealt (R3), and the monte.
    if pre_contract:
        monte = seen.monte if seen.monte is not None else slots[monte_slot].cards
        dealt = [[*cards_in(hands[s]), *(cards_in(slots[future_slot[s]].cards) if s in future_slot else ())]
                 for s in range(n)]
    else:
        own = [hands[s] | played_by[s] for s in range(n)]
        discard = seen.my_discard if b == me else hidden_discard
        own[b] |= discard
        if seen.monte is not None:
            monte = seen.monte
        else:  # picked up unseen by the dealer (R11): any three of its cards will do
            pick = list(cards_in(own[b]))
            rng.shuffle(pick)
            monte = sum(1 << c for c in pick[:MONTE_SIZE])
        own[b] &= ~monte
        dealt = [list(cards_in(own[s])) for s in range(n)]
    deck: list[int] = []
    for r in range(full // PACKET):
        for i in range(n):
            s = (seen.dealer + 1 + i) % n
            deck.extend(dealt[s][r * PACKET:(r + 1) * PACKET])
    deck.extend(cards_in(monte))
    try:
        deal = Deal(n, seen.dealer, deck, log=False)
        for (seat, _), a in zip(seen.actions, actions):
            deal.apply(DISCARD | hidden_discard if a is None else a, seat)
    except (IllegalAction, ValueError):
        return None
    if deal.bidder != seen.bidder or deal.called != seen.called or deal.to_act != me:
        return None
    return deal


def parse_log(seen: Seen) -> list[int | None]:
    """The action log as ints; another seat's hidden discard is None."""
    return [None if text == "discard" else parse_action(text) for _, text in seen.actions]

