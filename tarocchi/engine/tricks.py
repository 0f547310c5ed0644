"""Trick play with trumps and the Fool as an excuse (R13), shared by the tarot games.

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

from .cards import FOOL, FOOL_BIT, SUIT_MASK_OF, TRUMPS

FOLLOW_SUIT: Final = "follow the suit"
PLAY_TRUMP: Final = "play a trump"
FOOL_CANNOT_LEAD: Final = "the Fool cannot lead"
NOT_IN_HAND: Final = "that card is not in your hand"


def legal_cards(hand: int, trick: list[int]) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (R13). This is the engine's
    hot path, so it is written flat."""
    if not trick:  # the Fool cannot lead, except as the last card of the hand
        return hand if hand == FOOL_BIT else hand & ~FOOL_BIT
    lead = trick[0]
    if lead == FOOL:
        if len(trick) == 1:  # a Fool led: the second card fixes the suit
            return hand
        lead = trick[1]
    same = hand & SUIT_MASK_OF[lead]
    if same:  # the Fool may always be played instead, and never counts as holding a suit
        return same | (hand & FOOL_BIT)
    trumps = hand & TRUMPS
    if trumps:
        return trumps | (hand & FOOL_BIT)
    return hand


def refusal(hand: int, c: int, trick: list[int]) -> str | None:
    """Why card ``c`` may not be played to ``trick`` now, or None when it may."""
    if not hand >> c & 1:
        return NOT_IN_HAND
    if legal_cards(hand, trick) >> c & 1:
        return None
    if not trick:
        return FOOL_CANNOT_LEAD
    lead = trick[0] if trick[0] != FOOL else trick[1]
    return FOLLOW_SUIT if hand & SUIT_MASK_OF[lead] else PLAY_TRUMP


def winning_card(trick: list[int], mask: int) -> int:
    """The card that wins a complete trick (its cards in order, and as a mask): the highest
    trump, else the highest card of the suit led; the Fool never wins (R13)."""
    best = mask & TRUMPS
    if not best:
        lead = trick[0] if trick[0] != FOOL else trick[1]
        best = mask & SUIT_MASK_OF[lead]
    return best.bit_length() - 1


def trick_winner(trick: list[int]) -> int:
    """Index in a complete ``trick`` of the winning card (R13)."""
    m = 0
    for x in trick:
        m |= 1 << x
    return trick.index(winning_card(trick, m))
