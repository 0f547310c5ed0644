"""Trick play with trumps and the Fool as an excuse, shared by the tarot games: ``TrickRules``
takes the game's deck and its options; the module's functions are Sicilian's rules (R13).

Cards are ints and sets are masks (see ``cards``); a trick is the list of cards played to it
so far, in order. Refusals are the rules text's own words: "follow the suit", "play a trump",
"the Fool cannot lead".

>>> from tarocchi.engine.cards import card, codes, mask_of
>>> hand = mask_of(["9C", "3", "F"])
>>> codes(legal_cards(hand, [card("7C")]))     # cups led: follow the suit, or the Fool
['9C', 'F']
>>> refusal(hand, card("3"), [card("7C")])
'follow the suit'
>>> refusal(hand, card("F"), [])
'the Fool cannot lead'
>>> trick_winner([card("7C"), card("9C"), card("3")])   # index of the winning card
2
"""

from __future__ import annotations

from typing import Final

from .cards import DECK as SICILIAN_DECK
from .deck import Deck

FOLLOW_SUIT: Final = "follow the suit"
PLAY_TRUMP: Final = "play a trump"
FOOL_CANNOT_LEAD: Final = "the Fool cannot lead"
NOT_IN_HAND: Final = "that card is not in your hand"


class TrickRules:
    """Follow the suit led, else play a trump, else anything; nobody has to beat; the Fool
    may replace the legal card and never wins (Sicilian R13, Renaissance A10-A12, Ottocento
    B19-B20). What differs between games is an option:

    - ``fool_leads``: the Fool may lead any trick (A10), or only as the last card of the
      hand (R13); when it leads, the second card fixes what the third must follow (A11).
    - ``equal_trumps``: a mask of trumps that rank equal (Ottocento's Moors, B2): when the
      highest trumps of a trick are of them, the last one played wins.
    """

    def __init__(self, deck: Deck, fool_leads: bool, equal_trumps: int = 0):
        self.pack = deck
        self.trumps: int = deck.trumps
        self.fool: int = deck.fool
        self.fool_bit: int = deck.fool_bit
        self.suit_mask_of: list[int] = deck.suit_mask_of
        self.fool_leads = fool_leads
        self.equal_trumps = equal_trumps

    def legal(self, hand: int, trick: list[int]) -> int:
        """The cards of ``hand`` that may be played to ``trick``. The engine's hot path, so
        it is written flat."""
        fool_bit = self.fool_bit
        if not trick:
            return hand if self.fool_leads or hand == fool_bit else hand & ~fool_bit
        lead = trick[0]
        if lead == self.fool:
            if len(trick) == 1:  # a Fool led: the second card fixes the suit
                return hand
            lead = trick[1]
        same = hand & self.suit_mask_of[lead]
        if same:  # the Fool may always be played instead, and never counts as holding a suit
            return same | (hand & fool_bit)
        trumps = hand & self.trumps
        if trumps:
            return trumps | (hand & fool_bit)
        return hand

    def led_suit(self, trick: list[int]) -> int:
        """The card whose suit the trick follows: the lead, or after a led Fool the second."""
        return trick[1] if trick[0] == self.fool else trick[0]

    def refusal(self, hand: int, c: int, trick: list[int]) -> str | None:
        """Why card ``c`` may not be played to ``trick`` now, or None when it may."""
        if not hand >> c & 1:
            return NOT_IN_HAND
        if self.legal(hand, trick) >> c & 1:
            return None
        if not trick:
            return FOOL_CANNOT_LEAD
        return FOLLOW_SUIT if hand & self.suit_mask_of[self.led_suit(trick)] else PLAY_TRUMP

    def winning_card(self, trick: list[int], mask: int) -> int:
        """The card that wins a complete trick (its cards in order, and as a mask): the
        highest trump, else the highest card of the suit followed; the Fool never wins."""
        best = mask & self.trumps
        if best:
            top = best.bit_length() - 1
            if self.equal_trumps >> top & 1:  # equal trumps on top: the last of them played wins
                return next(c for c in reversed(trick) if self.equal_trumps >> c & 1)
            return top
        return (mask & self.suit_mask_of[self.led_suit(trick)]).bit_length() - 1

    def winner(self, trick: list[int]) -> int:
        """Index in a complete ``trick`` of the winning card."""
        m = 0
        for x in trick:
            m |= 1 << x
        return trick.index(self.winning_card(trick, m))


# Sicilian's rules (R13), and the functions its engine and tests call them by.
SICILIAN: Final = TrickRules(SICILIAN_DECK, fool_leads=False)


def legal_cards(hand: int, trick: list[int]) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (R13)."""
    return SICILIAN.legal(hand, trick)


def refusal(hand: int, c: int, trick: list[int]) -> str | None:
    """Why card ``c`` may not be played to ``trick`` now, or None when it may (R13)."""
    return SICILIAN.refusal(hand, c, trick)


def winning_card(trick: list[int], mask: int) -> int:
    return SICILIAN.winning_card(trick, mask)


def trick_winner(trick: list[int]) -> int:
    """Index in a complete ``trick`` of the winning card (R13)."""
    return SICILIAN.winner(trick)
