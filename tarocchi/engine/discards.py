"""A discard laid face down from a hand: so many cards, never certain ones, unless the hand is
short of the others (Sicilian R11, Renaissance A7, Calabresella C13, Ottocento B8).

>>> from tarocchi.engine.cards import DECK
>>> rule = DiscardRule(3, never=DECK.mask_of(["20", "1", "2", "3", "F"]), fallback=DECK.mask_of(["2", "3"]),
...                    never_words="no trump and not the Fool", fallback_words="only the 2 and the 3")
>>> hand = DECK.mask_of(["20", "1", "F", "2", "3", "KC"])
>>> DECK.codes_of(rule.allowed(hand))         # one other card: the rest from the fallback
['3', '2', 'KC']
>>> rule.refusal(hand, DECK.mask_of(["KC", "20", "2"]))
'only the 2 and the 3'
"""

from __future__ import annotations

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

    def refusal(self, hand: int, cards: int) -> str | None:
        """Why ``cards`` (a mask) may not be the discard from ``hand``, or None."""
        if cards & ~hand:
            return self.not_in_hand
        if cards.bit_count() != self.size:
            return self.size_words
        must, pool, _ = self.choice(hand)
        if not must and pool.bit_count() >= self.size:
            return None if not cards & self.never else self.never_words
        # Short of other cards: all of them, and the rest from the fallback.
        if cards & must != must or cards & ~must & ~pool:
            return self.fallback_words if cards & self.fallback else self.never_words
        return None
