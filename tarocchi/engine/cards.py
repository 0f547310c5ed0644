"""The 63-card Tarocco Siciliano: card codes (R1), points (R2) and card sets as bitmasks.

A card is an int 0..62, and that int is also its bit in a card set: a set of cards is a
plain int mask, so a hand, a trick or a pile is one integer and set operations are bit
operations. The bit order is chosen so that inside every suit (and among the trumps) a
higher bit is a higher card, which makes "the best card of a set" one ``bit_length``.

>>> from tarocchi.engine.cards import card, code, mask_of, codes, points
>>> code(card("KC"))
'KC'
>>> codes(mask_of(["20", "9", "6"]))
['20', '9', '6']
>>> points(mask_of(["20", "9", "6"]))   # counted in threes: 10 + 1 + 1 - 2
10
>>> points(mask_of(["MC"])), points(mask_of(["MC", "5S"]))
(1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from .deck import CardError, Deck, Suit, cards_in, cut, shown  # noqa: F401 (CardError, cards_in, cut: part of this API)

# Bits 0..20 are the trumps: Miseria (0), then 1..20. Bit 21 is the Fool.
# Then the suits, each low to high: cups 22..31, coins 32..42 (with the 4), swords 43..52,
# batons 53..62.
MISERIA: Final = 0
FOOL: Final = 21
SUIT_LETTERS: Final = "COSB"  # cups, coins, swords, batons: the order hands are shown in
_PIPS: Final = ("5", "6", "7", "8", "9", "10", "M", "H", "Q", "K")
# The pack as a value (tarocchi.engine.deck), the one source of its codes and points; the
# constants below are read from it, as Final, for the compiled hot paths.
DECK: Final = Deck(
    "sicilian", trumps=[str(n) for n in range(21)], fool="F",
    suits=[Suit("C", "Cups", "Coppe", _PIPS), Suit("O", "Coins", "Denari", ("4",) + _PIPS),
           Suit("S", "Swords", "Spade", _PIPS), Suit("B", "Batons", "Bastoni", _PIPS)],
    # R2: 20, 1, F = 10; 16-19 and Kings = 5; Queens 4; Horses 3; Maids 2; every other card 1
    values={"20": 10, "1": 10, "F": 10, **{str(n): 5 for n in range(16, 20)}},
    rank_values={"K": 5, "Q": 4, "H": 3, "M": 2},
    batch=3,
    trump_names={"0": ("Miseria", "Miseria"), "F": ("the Fool", "il Fuggitivo")},
    rank_names={"H": ("Horse", "Cavallo"), "M": ("Maid", "Donna")},
    code_hint="R1: 0-20, F, or rank+suit like KC, 10O, 4O",
)

CODES: Final[list[str]] = list(DECK.codes)
SUIT_OF: Final[list[int]] = list(DECK.suit_of)  # 0-3 suits, 4 trumps, 5 the Fool
DECK_SIZE: Final = len(CODES)
assert DECK_SIZE == 63 and DECK.fool == FOOL

CARD_OF: Final[dict[str, int]] = {c: i for i, c in enumerate(CODES)}

TRUMP_SUIT: Final = 4
FOOL_SUIT: Final = 5
FULL_DECK: Final = (1 << DECK_SIZE) - 1
TRUMPS: Final = (1 << 21) - 1
FOOL_BIT: Final = 1 << FOOL
SUIT_MASKS: Final[list[int]] = [0, 0, 0, 0, TRUMPS, FOOL_BIT]
for _c in range(22, DECK_SIZE):
    SUIT_MASKS[SUIT_OF[_c]] |= 1 << _c
# The mask of the suit each card belongs to, indexed by card: the hot path of follow-suit.
SUIT_MASK_OF: Final[list[int]] = [SUIT_MASKS[s] for s in SUIT_OF]

KINGS: Final = sum(1 << CARD_OF["K" + s] for s in SUIT_LETTERS)
ARIE: Final = sum(1 << n for n in (16, 17, 18, 19))  # 16-19; the 20 scores on top of them (R15)
# Trumps that may be discarded when a hand is short of other cards (R11): Miseria, 2-15.
LOW_TRUMPS: Final = (1 << 0) | sum(1 << n for n in range(2, 16))
# A discard never holds a trump, the Fool or a King unless it must (R11).
NEVER_DISCARD: Final = TRUMPS | FOOL_BIT | KINGS
# Trumps whose capture is a pigliata (R15).
PIGLIATA_TRUMPS: Final = (1 << 1) | ARIE

VALUES: Final[list[int]] = list(DECK.values)
# The masks above are written out so that mypyc folds them into the compiled code; they are
# the deck value's own.
assert (FULL_DECK, TRUMPS, FOOL_BIT, KINGS, SUIT_MASKS) == (DECK.full, DECK.trumps, DECK.fool_bit, DECK.kings, DECK.suit_masks)
LAST_TRICK_BONUS: Final = 5
TOTAL_POINTS: Final = 109


def card(text: object) -> int:
    """The card with code ``text`` (R1); raises CardError for anything else."""
    try:
        if isinstance(text, str):
            return CARD_OF[text.strip().upper()]
    except KeyError:
        pass
    raise CardError(f"{shown(text)} is not a card code (R1: 0-20, F, or rank+suit like KC, 10O, 4O)")


def code(c: int) -> str:
    return CODES[c]


def mask_of(items: Iterable[int | str]) -> int:
    m = 0
    for it in items:
        m |= 1 << (card(it) if isinstance(it, str) else it)
    return m


def display_order(mask: int) -> list[int]:
    """The order a hand is shown in: trumps high to low, then cups, coins, swords, batons
    (each high to low), the Fool last, set apart."""
    return DECK.display_order(mask)


def codes(mask: int) -> list[str]:
    """Codes of a set in display order."""
    return list(_codes(mask))


@lru_cache(maxsize=4096)
def _codes(mask: int) -> tuple[str, ...]:
    # Views ask for the same sets again and again (every seat's view, every moment); the
    # cache makes that a lookup. Bounded, so a long-running server does not grow with it.
    return tuple(CODES[c] for c in display_order(mask))


# Sum of card values for each byte of a mask: eight lookups value a whole pile.
_BYTE_VALUES: Final = [[sum(VALUES[8 * k + b] for b in range(8) if x >> b & 1 and 8 * k + b < DECK_SIZE)
                 for x in range(256)] for k in range(8)]


def raw_value(mask: int) -> int:
    t = _BYTE_VALUES
    return (t[0][mask & 255] + t[1][mask >> 8 & 255] + t[2][mask >> 16 & 255] + t[3][mask >> 24 & 255]
            + t[4][mask >> 32 & 255] + t[5][mask >> 40 & 255] + t[6][mask >> 48 & 255] + t[7][mask >> 56 & 255])


def points(mask: int) -> int:
    """Card points of a pile counted in threes (R2): each batch of three loses 2, a leftover
    one or two loses 1."""
    n = mask.bit_count()
    if not n:
        return 0
    return raw_value(mask) - 2 * (n // 3) - (1 if n % 3 else 0)


def parse_deck(items: Iterable[object]) -> list[int]:
    """A deck order (63 codes, top first) as cards; every card exactly once (R3)."""
    return DECK.parse_order(items)
