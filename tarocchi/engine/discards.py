"""A discard laid face down from a hand: so many cards, never certain ones, unless the hand is
short of the others (Sicilian R11, Renaissance A7, Calabresella C13, Ottocento B8).

>>> from tarocchi.engine.cards import DECK
>>> rule = DiscardRule(3, never=DECK.mask_of(["20", "1", "2", "3", "F"]), fallback=DECK.mask_of(["1", "2", "3"]),
...                    never_words="no trump and not the Fool", fallback_words="only the 1, the 2 and the 3")
>>> hand = DECK.mask_of(["20", "1", "F", "2", "3", "KC"])
>>> DECK.codes_of(rule.allowed(hand))         # one other card: the rest from the fallback
['3', '2', '1', 'KC']
>>> rule.refusal(hand, DECK.mask_of(["KC", "20", "2"]))
'only the 1, the 2 and the 3'
>>> [DECK.codes_of(m) for m in rule.discards(hand)]   # the one other card and two of the fallback
[['2', '1', 'KC'], ['3', '1', 'KC'], ['3', '2', 'KC']]
>>> hand = DECK.mask_of(["20", "1", "F", "2", "3"])   # no other card at all: the fallback fills it
>>> rule.refusal(hand, DECK.mask_of(["1", "2", "3"])), rule.refusal(hand, DECK.mask_of(["2", "3", "20"]))
(None, 'only the 1, the 2 and the 3')
"""

from __future__ import annotations

from .choices import Combinations

SIZE_WORDS = {2: "two", 3: "three", 4: "four"}


class DiscardRule:
    def __init__(self, size: int, never: int, fallback: int, never_words: str, fallback_words: str,
                 not_in_hand: str = "that card is not in your hand", size_words: str | None = None):
        self.size = size
        self.never = never  # never discarded while the hand holds enough other cards
        self.fallback = fallback  # of those, what may fill a discard that is short
        self.never_words = never_words
        self.fallback_words = fallback_words
        self.not_in_hand = not_in_hand
        self.size_words = size_words or f"discard {SIZE_WORDS.get(size, str(size))} cards"

    def allowed(self, hand: int) -> int:
        """The cards of ``hand`` that may go in a discard: all but the ``never`` ones; with
        fewer than ``size`` of those, the fallback cards too."""
        free = hand & ~self.never
        return free if free.bit_count() >= self.size else free | (hand & self.fallback)

    def choice(self, hand: int) -> tuple[int, int, int]:
        """(the cards that must go, the cards the rest come from, how many more): every
        allowed discard is the first and that many of the second."""
        free = hand & ~self.never
        if free.bit_count() >= self.size:
            return 0, free, self.size
        return free, hand & self.fallback, self.size - free.bit_count()

    def discards(self, hand: int) -> Combinations:
        """Every allowed discard from ``hand`` (masks), lowest cards first: what a game's
        ``legal_actions()`` lists (with its flag), from the same ``choice`` that ``refusal``
        checks against; a Sequence listed lazily (``choices.Combinations``)."""
        must, pool, need = self.choice(hand)
        return Combinations(0, must, pool, need)

    def refusal(self, hand: int, cards: int) -> str | None:
        """Why ``cards`` (a mask) may not be the discard from ``hand``, or None."""
        if cards & ~hand:
            return self.not_in_hand
        if cards.bit_count() != self.size:
            return self.size_words
        # Exactly the discards ``choice`` describes: all that must go, the rest from the pool.
        # (A hand with no other card at all has nothing that must go, and the fallback for a
        # pool: whether it is short is the count of other cards, never whether ``must`` is empty.)
        must, pool, _ = self.choice(hand)
        if cards & must == must and not cards & ~must & ~pool:
            return None
        short = (hand & ~self.never).bit_count() < self.size
        return self.fallback_words if short and cards & self.fallback else self.never_words
