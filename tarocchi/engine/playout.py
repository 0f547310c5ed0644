"""Uniformly random legal play: the floor every bot is measured against, and the driver of
simulations, property tests and the benchmark. It looks only at the acting seat's legal
actions, which that seat knows anyway.

>>> import random
>>> from tarocchi.games.sicilian import Deal
>>> from tarocchi.engine.playout import play_out
>>> d = play_out(Deal.from_seed(3, 0, 11), random.Random(11))
>>> d.done, sum(d.count.payments)
(True, 0)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from mypy_extensions import i64, trait

from .bits import BIT_INDEX, WORD


@trait
class Playable:
    """What a random playout needs of a deal, any game's. The compiled games' deals inherit
    it, so that compiled code calls them natively (a deal typed Any costs ~7 % of Sicilian's
    whole-deal speed, docs/benchmarks.md)."""

    phase: str

    def legal_cards(self) -> int:
        """The cards the seat to act may play (in play)."""
        raise NotImplementedError

    def legal_actions(self) -> Sequence[int]:
        raise NotImplementedError

    def discard_choice(self) -> tuple[int, int, int]:
        """(the cards that must go, the cards the rest come from, how many more)."""
        raise NotImplementedError

    def discard_action(self, cards: int) -> int:
        raise NotImplementedError

    def apply(self, action: object, seat: int | None = None) -> None:
        raise NotImplementedError

    def rollout(self, rng: random.Random) -> None:
        """The rest of the tricks with random legal cards, then the count."""
        raise NotImplementedError


# The phases every trick game here has; the others are the game's own.
PLAY: Final = "play"
DISCARD_PHASE: Final = "discard"
DONE: Final = "done"


def nth_bit(mask: int, k: int) -> int:
    """The card of the k-th lowest set bit of ``mask``."""
    if mask > WORD:  # more cards than a machine word holds (Renaissance's 78): plain ints
        return _nth_bit_of_int(mask, k)
    m: i64 = mask  # i64: compiled, a machine word (Sicilian's 63 cards)
    while k:
        m &= m - 1
        k -= 1
    return BIT_INDEX[(m & -m) % 67]


def _nth_bit_of_int(mask: int, k: int) -> int:
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def random_card(mask: int, rng: random.Random) -> int:
    # rng.random() is several times cheaper than randrange on this hot path.
    return nth_bit(mask, int(rng.random() * mask.bit_count()))


def random_discard(deal: Playable, rng: random.Random) -> int:
    """A uniformly random allowed discard (R11, A7): the game says which cards must go and
    which the rest come from."""
    must, pool, need = deal.discard_choice()
    chosen = must
    for _ in range(need):
        c = random_card(pool, rng)
        pool &= ~(1 << c)
        chosen |= 1 << c
    return deal.discard_action(chosen)


def random_action(deal: Playable, rng: random.Random) -> int:
    """A uniformly random legal action of the seat to act, in any game."""
    phase = deal.phase
    if phase == PLAY:
        return random_card(deal.legal_cards(), rng)
    if phase == DISCARD_PHASE:
        return random_discard(deal, rng)
    return rng.choice(deal.legal_actions())


def play_out(deal: Playable, rng: random.Random) -> Playable:
    """Play random legal actions until the deal is done (the tricks by the deal's ``rollout``)."""
    while deal.phase != DONE:
        if deal.phase == PLAY:
            deal.rollout(rng)
        else:
            deal.apply(random_action(deal, rng))
    return deal
