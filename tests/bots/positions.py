"""Building chosen positions: a deck order that deals the hands we want (R3's packets), and
the record (deck + actions) that reaches the position."""

from __future__ import annotations

import random

from tarocchi.engine.cards import CODES, SUIT_LETTERS, card
from tarocchi.engine.records import replay

FULL = {3: 20, 4: 15}


def suit_cards(letter: str) -> set[str]:
    return {c for c in CODES if c.endswith(letter) and not c.isdigit()}


def deck_for(seats: int, dealer: int, fixed: dict[int, list[str]], monte: list[str] | None = None,
             voids: dict[int, str] | None = None, seed: int = 0) -> list[str]:
    """A deck order giving each seat its ``fixed`` cards (the rest filled at random from a
    seeded shuffle, never a suit in that seat's ``voids``: letters, "T" for trumps), and the
    monte ``monte``."""
    voids = voids or {}
    rng = random.Random(seed)
    used = {c for cs in fixed.values() for c in cs} | set(monte or [])
    assert len(used) == sum(len(cs) for cs in fixed.values()) + len(monte or []), "a card placed twice"
    rest = [c for c in CODES if c not in used]
    rng.shuffle(rest)
    hands = {s: list(fixed.get(s, [])) for s in range(seats)}

    def banned(seat: int, c: str) -> bool:
        for letter in voids.get(seat, ""):
            if letter == "T" and c.isdigit():
                return True
            if letter in SUIT_LETTERS and c in suit_cards(letter):
                return True
        return False

    # fill the seats with voids first, so the cards they may not hold go elsewhere
    for s in sorted(range(seats), key=lambda x: -len(voids.get(x, ""))):
        need = FULL[seats] - len(hands[s])
        take = [c for c in rest if not banned(s, c)][:need]
        assert len(take) == need, f"seat {s} cannot be filled"
        hands[s] += take
        rest = [c for c in rest if c not in take]
    monte = list(monte) if monte else rest[:3]
    rest = [c for c in rest if c not in monte]
    assert not rest
    deck: list[str] = []
    for r in range(FULL[seats] // 5):
        for i in range(seats):
            s = (dealer + 1 + i) % seats
            deck += hands[s][r * 5:(r + 1) * 5]
    deck += monte
    assert sorted(map(card, deck)) == list(range(63))
    return deck


def record(seats: int, dealer: int, deck: list[str], actions: list[tuple[int, str]]) -> dict:
    return {"game": "sicilian", "seats": seats, "dealer": dealer, "deck": deck, "options": {},
            "actions": [{"seat": s, "action": a} for s, a in actions]}


def reach(seats: int, dealer: int, deck: list[str], actions: list[tuple[int, str]]):
    """The deal after the actions (every action re-checked by the engine)."""
    return replay(record(seats, dealer, deck, actions))
