"""Uniformly random legal play: the floor every bot is measured against, and the driver of
simulations, property tests and the benchmark. It looks only at the acting seat's legal
actions, which that seat knows anyway.

>>> import random
>>> from tarocchi.engine.sicilian import Deal
>>> from tarocchi.engine.playout import play_out
>>> d = play_out(Deal.from_seed(3, 0, 11), random.Random(11))
>>> d.done, sum(d.count.payments)
(True, 0)
"""

from __future__ import annotations

import random

from mypy_extensions import i64

from .actions import DISCARD
from .cards import NEVER_DISCARD
from .sicilian import BIT_INDEX, DISCARD_PHASE, PLAY, Deal


def nth_bit(mask: int, k: int) -> int:
    """The card of the k-th lowest set bit of ``mask``."""
    m: i64 = mask  # i64: compiled, a machine word
    while k:
        m &= m - 1
        k -= 1
    return BIT_INDEX[(m & -m) % 67]


def random_card(mask: int, rng: random.Random) -> int:
    # rng.random() is several times cheaper than randrange on this hot path.
    return nth_bit(mask, int(rng.random() * mask.bit_count()))


def random_discard(deal: Deal, rng: random.Random) -> int:
    """A uniformly random allowed discard (R11)."""
    seat = deal.to_act
    assert seat is not None, "the deal is over"
    hand = deal.hands[seat]
    free = hand & ~NEVER_DISCARD
    if free.bit_count() >= 3:
        pool, chosen, need = free, 0, 3
    else:  # all the free cards, and low trumps for the rest
        pool, chosen, need = deal.discardable() & ~free, free, 3 - free.bit_count()
    for _ in range(need):
        c = random_card(pool, rng)
        pool &= ~(1 << c)
        chosen |= 1 << c
    return DISCARD | chosen


def random_action(deal: Deal, rng: random.Random) -> int:
    phase = deal.phase
    if phase == PLAY:
        return random_card(deal.legal_cards(), rng)
    if phase == DISCARD_PHASE:
        return random_discard(deal, rng)
    return rng.choice(deal.legal_actions())


def play_out(deal: Deal, rng: random.Random) -> Deal:
    """Play random legal actions until the deal is done (the tricks by ``Deal.rollout``)."""
    while deal.phase != "done":
        if deal.phase == PLAY:
            deal.rollout(rng)
        else:
            deal.apply(random_action(deal, rng))
    return deal
