"""A tarot pack as a value: codes, suits, ranks in order, points, how a pile is counted, and
the order a hand is shown in. Each game builds its deck once (``tarocchi.games``); the shared
pieces (tricks, records, views, playouts) take it as an argument.

A card is an int, and that int is also its bit in a card set: a hand, a trick or a pile is one
Python int (78 cards need more than 64 bits, which a plain int holds). The trumps take the low
bits, lowest first; then the Fool; then each suit, lowest card first. So inside every suit and
among the trumps a higher bit is a higher card, and "the best card of a set" is one
``bit_length``.

>>> from tarocchi.engine.deck import Deck, Suit
>>> tiny = Deck("tiny", trumps=["1", "2"], fool="F", suits=[Suit("C", "Cups", "Coppe", ("2", "1", "K"))],
...             values={"F": 5}, rank_values={"K": 5}, batch=3)
>>> tiny.codes, tiny.size
(['1', '2', 'F', '2C', '1C', 'KC'], 6)
>>> tiny.codes_of(tiny.mask_of(["2C", "F", "KC", "2"]))      # display order: trumps, suits, the Fool
['2', 'KC', '2C', 'F']
>>> tiny.points(tiny.mask_of(["KC", "2C", "1"]))           # one three: 5 + 1 + 1 - 2
5
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass


RANK_NAMES = {  # (English, Italian) of the court ranks; a game may name them its own way
    "K": ("King", "Re"), "Q": ("Queen", "Regina"), "H": ("Knight", "Cavallo"), "M": ("Page", "Fante"),
}
NUMBER_NAMES = {"1": ("Ace", "Asso")}


@dataclass(frozen=True)
class Suit:
    letter: str  # the code's last letter: "C" in "KC"
    english: str
    italian: str
    ranks: tuple[str, ...]  # the code's rank part, lowest card first


class Deck:
    """One game's pack. ``values`` maps a code to its points, ``rank_values`` a suit rank
    (``"K"``) to the points of its four cards; every other card is worth 1. A pile is counted in batches of ``batch`` cards (3, or 2): each batch's values less
    ``batch - 1``, and a leftover part-batch less 1."""

    def __init__(self, name: str, trumps: Sequence[str], fool: str | None, suits: Sequence[Suit],
                 values: Mapping[str, int], rank_values: Mapping[str, int], batch: int,
                 trump_names: Mapping[str, tuple[str, str]] | None = None,
                 rank_names: Mapping[str, tuple[str, str]] | None = None,
                 code_hint: str = ""):
        self.name = name
        self.batch = batch
        self.code_hint = code_hint  # what a code looks like, for a refusal: "0-20, F, or KC"
        self.suits = tuple(suits)
        self.codes: list[str] = list(trumps) + ([fool] if fool else [])
        self.trump_suit = len(self.suits)  # suit_of: 0.. the suits, then the trumps, then the Fool
        self.fool_suit = self.trump_suit + 1
        self.suit_of: list[int] = [self.trump_suit] * len(trumps) + ([self.fool_suit] if fool else [])
        for s, suit in enumerate(self.suits):
            for rank in suit.ranks:
                self.codes.append(rank + suit.letter)
                self.suit_of.append(s)
        self.size = len(self.codes)
        self.card_of = {c: i for i, c in enumerate(self.codes)}
        if len(self.card_of) != self.size:
            raise ValueError(f"{name}: a code names two cards")
        self.full = (1 << self.size) - 1
        self.trumps = (1 << len(trumps)) - 1
        self.fool = len(trumps) if fool else -1
        self.fool_bit = 1 << self.fool if fool else 0
        self.suit_masks: list[int] = [0] * (len(self.suits) + 2)
        for c, s in enumerate(self.suit_of):
            self.suit_masks[s] |= 1 << c
        self.suit_mask_of: list[int] = [self.suit_masks[s] for s in self.suit_of]
        self.values: list[int] = [values.get(code, rank_values.get(code[:-1], 1) if s < self.trump_suit else 1)
                                  for code, s in zip(self.codes, self.suit_of)]
        self.kings = self.mask_of(["K" + s.letter for s in self.suits if "K" in s.ranks])
        # The display groups: trumps high to low, each suit high to low, the Fool set apart.
        self.groups: list[tuple[str, int]] = [("trumps", self.trumps)]
        self.groups += [(s.english.lower(), self.suit_masks[i]) for i, s in enumerate(self.suits)]
        if fool:
            self.groups.append(("fool", self.fool_bit))
        self._trump_names = dict(trump_names or {})
        self._rank_names = {**RANK_NAMES, **NUMBER_NAMES, **(rank_names or {})}
        self._description: dict | None = None

    # --- codes and sets -----------------------------------------------------------------

    def card(self, text: object) -> int:
        """The card whose code is ``text``; CardError for anything else."""
        if isinstance(text, str):
            c = self.card_of.get(text.strip().upper())
            if c is not None:
                return c
        raise CardError(f"{shown(text)} is not a card code ({self.code_hint or self.name})")

    def mask_of(self, items: Iterable[int | str]) -> int:
        m = 0
        for it in items:
            m |= 1 << (self.card(it) if isinstance(it, str) else it)
        return m

    def display_order(self, mask: int) -> list[int]:
        out = []
        for _, group in self.groups:
            m = mask & group
            while m:
                c = m.bit_length() - 1
                out.append(c)
                m ^= 1 << c
        return out

    def codes_of(self, mask: int) -> list[str]:
        """The codes of a set, in display order."""
        return [self.codes[c] for c in self.display_order(mask)]

    def parse_order(self, items: Iterable[object]) -> list[int]:
        """A deck order (every code once, top first) as cards."""
        order = [self.card(x) if isinstance(x, str) else self._bad_code(x) for x in items]
        if len(order) != self.size or len(set(order)) != self.size:
            raise CardError(deck_problem(order, self.codes))
        return order

    def _bad_code(self, x: object) -> int:
        raise CardError(f"{shown(x)} is not a card code ({self.code_hint or self.name})")

    def shuffled(self, rng: random.Random) -> list[int]:
        """A uniform deck order: the cards sorted by independent random keys (as Sicilian's)."""
        rand = rng.random
        keys = [rand() for _ in range(self.size)]
        return sorted(range(self.size), key=keys.__getitem__)

    # --- points -------------------------------------------------------------------------

    def value(self, mask: int) -> int:
        """The sum of the cards' values, before counting in batches."""
        return sum(self.values[c] for c in cards_in(mask))

    def points(self, mask: int) -> int:
        """A pile's points, counted in batches (Sicilian R2, Renaissance A4, Ottocento B4)."""
        n = mask.bit_count()
        return self.value(mask) - (self.batch - 1) * (n // self.batch) - (1 if n % self.batch else 0)

    # --- names and the description a client draws from ------------------------------------

    def names(self, code: str) -> tuple[str, str]:
        """(English, Italian) name of a card."""
        if code in self._trump_names:
            return self._trump_names[code]
        s = self.suit_of[self.card(code)]
        if s == self.trump_suit:
            return f"Trump {code}", f"Trionfo {code}"
        if s == self.fool_suit:
            return "the Fool", "il Matto"
        suit = self.suits[s]
        rank = code[:-1]
        en, it = self._rank_names.get(rank, (rank, rank))
        return f"{en} of {suit.english}", f"{it} di {suit.italian}"

    def describe(self) -> dict:
        """What a client needs to draw any card of this deck: codes, the groups in hand order,
        points, names (English and Italian). JSON-ready; built once."""
        if self._description is None:
            self._description = {
                "name": self.name,
                "codes": list(self.codes),
                "groups": [{"name": g, "cards": self.codes_of(m)} for g, m in self.groups],
                "suits": [{"letter": s.letter, "en": s.english, "it": s.italian} for s in self.suits],
                "points": {code: self.values[c] for c, code in enumerate(self.codes)},
                "counting": self.batch,
                "names": {code: dict(zip(("en", "it"), self.names(code))) for code in self.codes},
            }
        return self._description

    def __repr__(self) -> str:
        return f"<Deck {self.name}: {self.size} cards>"


class CardError(ValueError):
    """A text that is not one of a deck's card codes."""


class ActionError(ValueError):
    """A text that is not an action in a game's notation."""


def cut(text: str, limit: int = 40) -> str:
    """``text`` for a message, cut after ``limit`` characters: a message quotes what it
    refuses, and a megabyte of it helps nobody."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text):,} characters)"


def shown(x: object) -> str:
    """``repr(x)``, cut for a message."""
    return cut(repr(x))


def deck_problem(order: list[int], codes: list[str]) -> str:
    """What is wrong with a deck order that does not hold each card once: the cards it holds
    more than once and the cards it lacks, by their codes."""
    seen: set[int] = set()
    twice: list[str] = []
    for c in order:
        if c in seen and codes[c] not in twice:
            twice.append(codes[c])
        seen.add(c)
    missing = [codes[c] for c in range(len(codes)) if c not in seen]
    return (f"a deck order holds each of the {len(codes)} cards once; got {len(order)} codes"
            + (f", {' '.join(twice)} more than once" if twice else "")
            + (f", missing {' '.join(missing)}" if missing else ""))


def words(text: object, error: type[ValueError]) -> list[str]:
    """The words of an action's text; ``error`` for what is not a text."""
    if not isinstance(text, str):
        raise error(f"an action is a text, not {type(text).__name__}")
    return text.split()


def cards_in(mask: int) -> Iterator[int]:
    """The cards of a set of any size, lowest bit first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


__all__ = ["Deck", "Suit", "CardError", "ActionError", "words", "cards_in", "cut", "shown", "deck_problem"]
