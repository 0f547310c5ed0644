"""Actions as small ints, and their text notation.

An action is an int: a card 0..62 is "play that card"; the spoken words and the yes/no
answers are small constants; a discard is ``DISCARD | mask`` of its three cards. The text
notation is what records, logs and the wire use:

>>> from tarocchi.engine.actions import parse_action, action_text, DISCARD
>>> action_text(parse_action("vado solo"))
'vado solo'
>>> action_text(parse_action("discard MB 5c 6C"))
'discard 6C 5C MB'
>>> action_text(parse_action("17"))
'17'
"""

from __future__ import annotations

from typing import Final

from .cards import CODES, DECK_SIZE, CardError, card, codes, mask_of, shown

PASSO: Final = 100
ALTRE_CINQUE: Final = 101
VADO_SOLO: Final = 102
PAGO: Final = 103
PRENDO: Final = 104
CHIAMO: Final = 105
SCOMMESSA: Final = 110
RIVANTO: Final = 111
NO: Final = 112  # the "no" answer to the Scommessa or Rivanto question
DISCARD: Final = 1 << 64  # flag bit; the low 63 bits hold the three discarded cards

WORDS: Final = {
    PASSO: "passo",
    ALTRE_CINQUE: "altre cinque",
    VADO_SOLO: "vado solo",
    PAGO: "pago",
    PRENDO: "prendo",
    CHIAMO: "chiamo",
    SCOMMESSA: "scommessa",
    RIVANTO: "rivanto",
    NO: "no",
}
ACTION_OF_WORD: Final = {w: a for a, w in WORDS.items()}
BIDS: Final = (PASSO, ALTRE_CINQUE, VADO_SOLO, PAGO, PRENDO, CHIAMO)


class ActionError(ValueError):
    """A text that is not an action in the notation."""


def action_text(action: int) -> str:
    if 0 <= action < DECK_SIZE:
        return CODES[action]  # the code itself: views spell out every action, so keep it cheap
    if action >= DISCARD:
        return "discard " + " ".join(codes(action & ~DISCARD))
    try:
        return WORDS[action]
    except KeyError:
        raise ActionError(f"{action!r} is not an action") from None


def parse_action(text: object) -> int:
    """An action from its text: a card code, one of the words, or ``discard C1 C2 C3``."""
    if not isinstance(text, str):
        raise ActionError(f"an action is a text, not {type(text).__name__}")
    t = " ".join(text.strip().split())
    low = t.lower()
    if low in ACTION_OF_WORD:
        return ACTION_OF_WORD[low]
    if low.startswith("discard"):
        parts = t.split()[1:]
        try:
            m = mask_of(parts)
        except CardError as e:
            raise ActionError(str(e)) from None
        if len(parts) != 3 or m.bit_count() != 3:
            raise ActionError("a discard names three different cards, e.g. 'discard 5C 6O MB'")
        return DISCARD | m
    try:
        return card(t)
    except CardError:
        raise ActionError(
            f"{shown(text)} is not an action: say a card code, one of "
            f"{', '.join(WORDS.values())}, or 'discard' and three cards") from None
