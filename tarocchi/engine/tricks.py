"""Trick play with trumps and the Fool as an excuse (R13), shared by the tarot games.

Cards are ints and sets are masks (see ``cards``). Refusals are plain words a player
understands, exactly the rules text's: "follow the suit", "play a trump", "the Fool cannot lead".

>>> from tarocchi.engine.cards import card, mask_of
>>> hand = mask_of(["9C", "3", "F"])
>>> legal = legal_cards(hand, lead=card("7C"))   # cups led: follow the suit, or the Fool
>>> sorted(legal_codes(legal))
['9C', 'F']
>>> refusal(hand, card("3"), lead=card("7C"))
'follow the suit'
>>> trick_winner([card("7C"), card("9C"), card("3")])   # index of the winning card
2
"""

from __future__ import annotations

from .cards import CODES, FOOL, FOOL_BIT, SUIT_MASK_OF, TRUMPS, cards_in

FOLLOW_SUIT = "follow the suit"
PLAY_TRUMP = "play a trump"
FOOL_CANNOT_LEAD = "the Fool cannot lead"
NOT_IN_HAND = "that card is not in your hand"


def legal_codes(mask: int) -> list[str]:
    return [CODES[c] for c in cards_in(mask)]


def suit_to_follow(trick: list[int]) -> int:
    """The mask of the suit a trick must follow: the first card that is not the Fool fixes
    it (R13: a Fool led in the last trick lets the second card fix the suit). 0 = not fixed."""
    for c in trick:
        if c != FOOL:
            return SUIT_MASK_OF[c]
    return 0


def legal_cards(hand: int, lead: int | None = None, follow: int | None = None) -> int:
    """The cards of ``hand`` that may be played (R13).

    ``lead`` is the first card of the trick (None when this seat leads); or pass ``follow``,
    the mask from ``suit_to_follow`` (0 when the suit is not fixed yet)."""
    if follow is None:
        if lead is None:
            # The Fool cannot lead, except as the last card of the hand (the last trick).
            return hand if hand == FOOL_BIT else hand & ~FOOL_BIT
        follow = SUIT_MASK_OF[lead] if lead != FOOL else 0
    if not follow:
        return hand
    same = hand & follow
    if same:
        return same | (hand & FOOL_BIT)
    trumps = hand & TRUMPS
    if trumps:
        return trumps | (hand & FOOL_BIT)
    return hand


def refusal(hand: int, c: int, lead: int | None = None, follow: int | None = None) -> str | None:
    """Why card ``c`` may not be played now, or None when it may."""
    if not hand >> c & 1:
        return NOT_IN_HAND
    legal = legal_cards(hand, lead, follow)
    if legal >> c & 1:
        return None
    if follow is None and lead is None:
        return FOOL_CANNOT_LEAD
    if follow is None:
        follow = SUIT_MASK_OF[lead] if lead != FOOL else 0
    return FOLLOW_SUIT if hand & follow else PLAY_TRUMP


def trick_winner(trick: list[int]) -> int:
    """Index in ``trick`` of the winning card: the highest trump, else the highest card of
    the suit led; the Fool never wins (R13)."""
    trumps = 0
    for c in trick:
        if c < FOOL:
            trumps |= 1 << c
    if trumps:
        return trick.index(trumps.bit_length() - 1)
    follow = suit_to_follow(trick)
    best = (sum(1 << c for c in trick) & follow).bit_length() - 1
    return trick.index(best)
