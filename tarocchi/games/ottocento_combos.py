"""Ottocento's combinations (the Bolognese Tarocchino): the pure functions that check a declared
combination and find the best ones in a hand or a final pile. No I/O, no state, no game: the
Ottocento game imports this module and maps its deck to the card codes below.

The rules text is ``shared/seeds/002_a0f86723d69124fb.txt`` (the seed); the rulings
``shared/rules/OTTOCENTO.md`` (cited as B1..B27) settle what it leaves open. Implemented here:
B1's codes as strings, B9-B18, B25 and the combinations of B27 (O4, O5, O6, O12).

Cards are B1 codes: trumps ``"20"`` .. ``"5"``, the Moors ``"1"`` .. ``"4"``, ``"0"`` (Bégato),
``"F"`` (Matto); suit cards rank + suit, ``"KC"``, ``"QO"``, ``"HS"``, ``"MB"``, ``"10C"``, ``"1O"``.

>>> check("grande", ["20", "19", "F"])                      # O4
Combination(kind='grande', cards=('20', '19', 'F'), size=3, points=10)
>>> [(c.kind, c.size, c.points) for c in best_all("20 19 18 F KC KO KS".split())]   # B27, seat 0
[('tarocchi', 3, 18), ('kings', 3, 17), ('grande', 4, 15)]
>>> score(best_all("20 19 18 F KC KO KS".split()))
50
>>> check("cups", ["KC", "QC", "1C"])                       # O5
Traceback (most recent call last):
...
tarocchi.games.ottocento_combos.ComboError: one place after the 20 or King may stay empty, another needs a contatore

How a sequence is read (B11-B16), as places:

* the Grande: the head ``20 19 18 17``, then the extension ``16 15 .. 5``;
* a suit: the head ``K Q H M`` of that suit, then its ace;
* the Moors ``1 2 3 4`` and the aces ``1C 1O 1S 1B``: no order.

A contatore (``0``, ``F``) either fills an empty place or is simply added; it counts one card
either way (B12), so a sequence's size is always its real cards plus its contatori and the best
sequence of a set uses every contatore the set holds. Whether the head's empty place is 17 or
another makes no difference to the extension (O4: ``20 19 18 16 15`` is 5 cards).

Readings where the rulings leave a doubt (the most literal one is taken):

* B13/B14: the head's empty place does not break the extension even when it is 17 and 16 is
  missing too: ``20 19 18 F 15`` is valid (17 empty, F fills 16), 5 cards. O4 only shows 17
  empty with a real 16.
* B14's exception "17 and 16" never decides anything for a set of cards: a head needs a
  contatore only when two of its places are empty, and it can always go to the one that is not
  17. It is kept in the reading, not in the code.
* B12: a contatore "simply added" is always allowed, so the best sequence of a set uses every
  contatore it holds (O4: ``20 19 18 17 14 13 12 F 0`` is 6 cards) and a declared sequence may
  carry them on top of a full head.
* B15: the ace is added whatever the head's empty place (O5 and B27's coins confirm it); the
  suit's pips are no part of the sequence.
* B16: the cap of 6 is never reached by a set of distinct cards (4 + 2 contatori).
* Display order: the real cards in the table's order, the contatori after them, not in the
  places they fill (a placement is not unique: ``20 19 F`` fills 18 or 17).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from ..engine.game import Reason

# --- cards (B1, B2) -------------------------------------------------------------------------

NUMBERED: Final = tuple(str(n) for n in range(20, 4, -1))  # "20" .. "5"
MOORS: Final = ("1", "2", "3", "4")
BEGATO: Final = "0"
MATTO: Final = "F"
CONTATORI: Final = (BEGATO, MATTO)  # B3
SUITS: Final = ("C", "O", "S", "B")  # coppe, denari, spade, bastoni
FACES: Final = ("K", "Q", "H", "M")  # Re, Regina, Cavallo, Fante
PIPS: Final = ("10", "9", "8", "7", "6")
ACE: Final = "1"
# B2: swords and batons K Q H M 10 .. 6 1; cups and coins K Q H M 1 6 .. 10.
SUIT_ORDER: Final = {"C": ("K", "Q", "H", "M", "1", "6", "7", "8", "9", "10"),
                     "O": ("K", "Q", "H", "M", "1", "6", "7", "8", "9", "10"),
                     "S": ("K", "Q", "H", "M", "10", "9", "8", "7", "6", "1"),
                     "B": ("K", "Q", "H", "M", "10", "9", "8", "7", "6", "1")}
TRUMPS: Final = NUMBERED + MOORS + (BEGATO,)  # B2's order, highest first
# Display order: the table's (trumps 20 down to the Moors, then cups, coins, swords, batons in
# B2 order), with the contatori 0 and F last, so that a sequence shows its real cards first.
CARDS: Final = NUMBERED + MOORS + tuple(r + s for s in SUITS for r in SUIT_ORDER[s]) + CONTATORI
ORDER: Final = {c: i for i, c in enumerate(CARDS)}
assert len(CARDS) == 62 == len(ORDER)

# --- kinds (B9-B11) -------------------------------------------------------------------------

KINDS: Final[tuple[str, ...]] = ("tarocchi", "kings", "queens", "cavalli", "fanti",  # cricche (B10)
                                 "grande", "cups", "coins", "swords", "batons", "moors", "aces")  # B11
CRICCHE: Final = frozenset(KINDS[:5])
SEQUENCES: Final = frozenset(KINDS[5:])
assert len(SEQUENCES) == 7  # B11: "sono 7"

# B10: the four cards of each cricca and its points for three / four (0 and F only as tarocchi).
CRICCA_CARDS: Final = {"tarocchi": ("20", "19", BEGATO, MATTO),
                       "kings": tuple("K" + s for s in SUITS), "queens": tuple("Q" + s for s in SUITS),
                       "cavalli": tuple("H" + s for s in SUITS), "fanti": tuple("M" + s for s in SUITS)}
CRICCA_POINTS: Final = {"tarocchi": 18, "kings": 17, "queens": 14, "cavalli": 13, "fanti": 12}
SUIT_OF: Final = {"cups": "C", "coins": "O", "swords": "S", "batons": "B"}
GRANDE_HEAD: Final = ("19", "18", "17")  # B13: after the 20
GRANDE_EXTENSION: Final = NUMBERED[4:]  # B14: "16" .. "5"
ACES: Final = tuple(ACE + s for s in SUITS)
MOORS_ACES_CAP: Final = 6  # B16
# The real cards each sequence may hold (B13-B16).
SEQUENCE_CARDS: Final = {"grande": NUMBERED,
                         **{k: tuple(f + s for f in FACES) + (ACE + s,) for k, s in SUIT_OF.items()},
                         "moors": MOORS, "aces": ACES}


def sequence_points(size: int) -> int:
    """B11: 10 for three cards and 5 for each card beyond."""
    return 10 + 5 * (size - 3)


# --- refusals -------------------------------------------------------------------------------

UNKNOWN_KIND: Final = Reason("combo_unknown_kind", "there is no combination of that name")
UNKNOWN_CARD: Final = Reason("combo_unknown_card", "that is not a card")
REPEATED_CARD: Final = Reason("combo_repeated_card", "a card counts once in a combination")
TWO_CONTATORI: Final = Reason("combo_two_contatori", "at most the two contatori, each once")  # B12
ONE_PER_KIND: Final = Reason("combo_one_per_kind", "at most one combination of each kind")  # B17
CRICCA_SIZE: Final = Reason("cricca_size", "a cricca takes three or four of a kind")  # B10
CRICCA_NO_CONTATORE: Final = Reason(
    "cricca_no_contatore", "a cricca takes no wild cards: 0 and F count only as tarocchi")  # B10
NOT_IN_CRICCA: Final = Reason("not_in_cricca", "that card is not part of this cricca")  # B10
NOT_IN_SEQUENCE: Final = Reason("not_in_sequence", "that card is not part of this sequence")  # B13-B16
SEQUENCE_SHORT: Final = Reason("sequence_short", "a sequence takes at least three cards")  # B11
CONTATORE_HEAD: Final = Reason("contatore_head", "a contatore may not stand for the 20 or a King")  # B12
GRANDE_NEEDS_ANGELO: Final = Reason("grande_needs_angelo", "the Grande needs the Angelo (20)")  # B13
SUIT_NEEDS_KING: Final = Reason("suit_needs_king", "a sequence of suits needs the King")  # B15
GRANDE_REAL_HEAD: Final = Reason(
    "grande_real_head", "the Grande needs a real 19, 18 or 17 after the 20")  # B13
SUIT_REAL_HEAD: Final = Reason(
    "suit_real_head", "a sequence of suits needs a real Queen, Cavallo or Fante after the King")  # B15
HEAD_GAP: Final = Reason(
    "head_gap", "one place after the 20 or King may stay empty, another needs a contatore")  # B13, B15
GAP: Final = Reason(
    "sequence_gap", "the Grande goes on only while consecutive: a missing number needs a contatore")  # B14
NEIGHBOURS: Final = Reason("contatori_neighbours", "two contatori may not fill neighbouring places")  # B14
MOORS_TWO: Final = Reason("moors_two", "the Moors take at least two real Moors")  # B16
ACES_TWO: Final = Reason("aces_two", "the aces take at least two real aces")  # B16

REASONS: Final[tuple[Reason, ...]] = (
    UNKNOWN_KIND, UNKNOWN_CARD, REPEATED_CARD, TWO_CONTATORI, ONE_PER_KIND, CRICCA_SIZE, CRICCA_NO_CONTATORE,
    NOT_IN_CRICCA, NOT_IN_SEQUENCE, SEQUENCE_SHORT, CONTATORE_HEAD, GRANDE_NEEDS_ANGELO, SUIT_NEEDS_KING,
    GRANDE_REAL_HEAD, SUIT_REAL_HEAD, HEAD_GAP, GAP, NEIGHBOURS, MOORS_TWO, ACES_TWO)
assert len({r.id for r in REASONS}) == len(REASONS)


class ComboError(ValueError):
    """A combination the rules refuse: ``reason`` (a Reason, its stable ``id`` and a player's
    words) and ``card``, the given card the refusal is about when there is one (an unknown code,
a repeated card, one of another kind, the first that does not follow), else None."""

    def __init__(self, reason: Reason, card: str | None = None) -> None:
        super().__init__(str(reason))
        self.reason = reason
        self.card = card

    def __str__(self) -> str:
        return str(self.reason) if self.card is None else f"{self.reason}: {self.card}"


# --- combinations ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Combination:
    """One cricca or sequence: its kind, the cards it uses (real cards and the contatori) in
    display order, its card count and its undoubled points."""

    kind: str
    cards: tuple[str, ...]
    size: int
    points: int

    def to_json(self) -> dict:
        return {"kind": self.kind, "cards": list(self.cards), "size": self.size, "points": self.points}


def _make(kind: str, cards: Iterable[str]) -> Combination:
    shown = tuple(sorted(cards, key=ORDER.__getitem__))
    n = len(shown)
    points = CRICCA_POINTS[kind] * (2 if n == 4 else 1) if kind in CRICCHE else sequence_points(n)
    return Combination(kind, shown, n, points)


def _kind(kind: str) -> str:
    if kind not in CRICCA_CARDS and kind not in SEQUENCE_CARDS:
        raise ComboError(UNKNOWN_KIND, str(kind))
    return kind


def _cards(cards: Iterable[str]) -> list[str]:
    """The codes as a list, each a known card and none twice."""
    if isinstance(cards, str):
        raise TypeError("cards are an iterable of codes, not one string")
    out: list[str] = []
    seen: set[str] = set()
    for c in cards:
        if c not in ORDER:
            raise ComboError(UNKNOWN_CARD, str(c))
        if c in seen:
            raise ComboError(TWO_CONTATORI if c in CONTATORI else REPEATED_CARD, c)
        seen.add(c)
        out.append(c)
    return out


def _missing(places: Iterable[str], held: set[str]) -> list[str]:
    return [p for p in places if p not in held]


def _check_sequence(kind: str, cards: list[str]) -> None:
    """Raises the ComboError for a sequence that is not valid exactly as given (B11-B16)."""
    allowed = SEQUENCE_CARDS[kind]
    for c in cards:
        if c not in CONTATORI and c not in allowed:
            raise ComboError(NOT_IN_SEQUENCE, c)
    real = {c for c in cards if c not in CONTATORI}
    contatori = len(cards) - len(real)
    if kind in ("moors", "aces"):  # B16: two real ones; 3 to 6 cards (6 is all there are)
        if len(real) < 2:
            raise ComboError(MOORS_TWO if kind == "moors" else ACES_TWO)
        if len(cards) < 3:
            raise ComboError(SEQUENCE_SHORT)
        assert len(cards) <= MOORS_ACES_CAP
        return
    if kind == "grande":
        capo, head = "20", GRANDE_HEAD
    else:
        s = SUIT_OF[kind]
        capo, head = "K" + s, tuple(f + s for f in FACES[1:])
    if capo not in real:  # B12, B13, B15: the 20 or the King real, never a contatore
        raise ComboError(CONTATORE_HEAD if contatori else GRANDE_NEEDS_ANGELO if kind == "grande"
                         else SUIT_NEEDS_KING)
    if not real.intersection(head):  # B13, B15: one of the next three real
        raise ComboError(GRANDE_REAL_HEAD if kind == "grande" else SUIT_REAL_HEAD)
    if len(cards) < 3:  # B11
        raise ComboError(SEQUENCE_SHORT)
    head_fills = max(0, len(_missing(head, real)) - 1)  # B13, B15: one place may stay empty
    if head_fills > contatori:
        raise ComboError(HEAD_GAP)
    if kind != "grande":
        return  # B15: the suit's ace adds one card if held; contatori are filling or added
    # B14: the extension 16 .. down to its lowest card given, consecutive, each missing number
    # filled by a contatore, two contatori never in neighbouring places. The only neighbours
    # the exception "17 and 16" could allow are a head fill at 17 and a fill at 16, and the
    # head's fill may always go to another empty head place (there are two when one is
    # needed), so in a set of cards the exception never decides anything.
    free = contatori - head_fills
    reached = _extension(real, free)
    beyond = [c for c in GRANDE_EXTENSION if c in real and c not in reached]
    if beyond:
        # Named: the first card that does not follow. With contatori enough for every missing
        # number above the lowest card, only their placing is at fault: two side by side.
        gaps = [c for c in GRANDE_EXTENSION[:GRANDE_EXTENSION.index(beyond[-1])] if c not in real]
        raise ComboError(NEIGHBOURS if len(gaps) <= free else GAP, beyond[0])


def _extension(held: set[str], free: int) -> list[str]:
    """B14: the real cards of the Grande's extension that follow the head, walking down from 16
    while consecutive, ``free`` contatori filling single missing numbers (never two side by
    side: two missing numbers in a row end it)."""
    out: list[str] = []
    filled_last = False
    for c in GRANDE_EXTENSION:
        if c in held:
            out.append(c)
            filled_last = False
        elif free and not filled_last:
            free -= 1
            filled_last = True
        else:
            break
    return out


def _check_cricca(kind: str, cards: list[str]) -> None:
    """B10: three or four of the kind's four cards; 0 and F only as tarocchi."""
    allowed = CRICCA_CARDS[kind]
    for c in cards:
        if c not in allowed:
            raise ComboError(CRICCA_NO_CONTATORE if c in CONTATORI else NOT_IN_CRICCA, c)
    if len(cards) not in (3, 4):
        raise ComboError(CRICCA_SIZE)


def check(kind: str, cards: Iterable[str]) -> Combination:
    """A declared combination exactly as given (B9): every given card is used. Raises
    ComboError, its reason in a player's words, when it is not a valid combination of that
    kind."""
    kind = _kind(kind)
    given = _cards(cards)
    if kind in CRICCHE:
        _check_cricca(kind, given)
    else:
        _check_sequence(kind, given)
    return _make(kind, given)


def _best_sequence(kind: str, held: set[str]) -> list[str] | None:
    contatori = [c for c in CONTATORI if c in held]
    real = [c for c in SEQUENCE_CARDS[kind] if c in held]
    if kind in ("moors", "aces"):  # B16
        return real + contatori if len(real) >= 2 and len(real) + len(contatori) >= 3 else None
    if kind == "grande":
        capo, head, tail = "20", GRANDE_HEAD, GRANDE_EXTENSION
    else:
        s = SUIT_OF[kind]
        capo, head, tail = "K" + s, tuple(f + s for f in FACES[1:]), (ACE + s,)
    if capo not in held:
        return None
    heads = [c for c in head if c in held]
    head_fills = max(0, len(head) - len(heads) - 1)
    if not heads or head_fills > len(contatori):
        return None
    used = [capo] + heads + contatori
    if kind != "grande":
        return used + [c for c in tail if c in held]  # B15: the ace adds one card
    # B14: walk down from 16 (a contatore filling below the last real card is the same as one
    # simply added)
    return used + _extension(held, len(contatori) - head_fills)


def best(kind: str, cards: Iterable[str]) -> Combination | None:
    """The largest combination of that kind the set holds (B17: at most one per kind), or None.
    It is unique: every held card of the kind that can serve does."""
    kind = _kind(kind)
    held = set(_cards(cards))
    if kind in CRICCHE:
        got = [c for c in CRICCA_CARDS[kind] if c in held]
        return _make(kind, got) if len(got) >= 3 else None
    found = _best_sequence(kind, held)
    return None if found is None else _make(kind, found)


def best_all(cards: Iterable[str]) -> list[Combination]:
    """One combination per kind that exists, in KINDS order: the full best declaration of a hand,
    and the combinations of a final pile (B25). Contatori serve in every sequence at once and in
    the tarocchi cricca (B12, B17)."""
    held = _cards(cards)
    return [c for c in (best(k, held) for k in KINDS) if c is not None]


def score(combos: Iterable[Combination]) -> int:
    """B18: 3 or more cricche double all the cricche points; 3 or more sequences double all the
    sequence points, independently. One combination per kind (B17), else ComboError."""
    combos = list(combos)
    kinds = [c.kind for c in combos]
    if len(set(kinds)) < len(kinds):
        raise ComboError(ONE_PER_KIND, next(k for k in kinds if kinds.count(k) > 1))
    total = 0
    for group in (CRICCHE, SEQUENCES):
        these = [c for c in combos if c.kind in group]
        total += sum(c.points for c in these) * (2 if len(these) >= 3 else 1)
    return total


def pile_score(cards: Iterable[str]) -> tuple[list[Combination], int]:
    """B25: a side's final pile is one set; its best combinations and their score (B18)."""
    combos = best_all(cards)
    return combos, score(combos)


def shrinkable(combo: Combination) -> list[str]:
    """The cards of a declared combination that can be removed leaving a valid combination of
    the same kind (B9: a seat may declare less than it holds), in display order."""
    out = []
    for c in combo.cards:
        try:
            check(combo.kind, [d for d in combo.cards if d != c])
        except ComboError:
            continue
        out.append(c)
    return out
