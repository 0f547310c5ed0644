"""Ottocento deals built from chosen deck orders (B6), so that the rulings' cases are real deals
played through the engine, not hand-made states.

``deck_order`` lays out the 62 codes from the hands each seat should get: three rounds of
packets of five from dealer + 1, then the dealer's two extra cards (B6); a dealer's hand may
name 17 cards, the last two of them the extra ones. ``to_play`` says gioco, discards and
declares as given; ``finish`` plays the rest at random (the engine checks every card).
"""

from __future__ import annotations

import random

from tarocchi.engine.playout import play_out
from tarocchi.games.ottocento import DECK, Deal, Options

CODES = DECK.codes


def deck_order(dealer: int, hands: dict[int, list[str]]) -> list[str]:
    """62 codes, top first, that deal ``hands[seat]`` (15 each, the dealer 17); what is not
    given is filled in code order, the seats from 0 first."""
    given = [c for h in hands.values() for c in h]
    assert len(given) == len(set(given)) and set(given) <= set(CODES), given
    rest = iter([c for c in CODES if c not in set(given)])
    full = {s: list(hands.get(s, [])) for s in range(4)}
    for s in range(4):
        full[s] += [next(rest) for _ in range((17 if s == dealer else 15) - len(full[s]))]
    packets = [full[(dealer + 1 + i) % 4][5 * p:5 * p + 5] for p in range(3) for i in range(4)]  # B6
    return [c for packet in packets for c in packet] + full[dealer][15:]


def dealt(dealer: int, hands: dict[int, list[str]], options: Options | None = None,
          totals: list[int] | None = None) -> Deal:
    return Deal(4, dealer, [DECK.card(c) for c in deck_order(dealer, hands)], options, totals=totals)


def to_play(d: Deal, discard: str, declarations: dict[int, str] | None = None) -> Deal:
    """gioco by the first seat (B7), the dealer's discard (B8), each seat's declaration from
    dealer + 1 (``declare`` alone where none is given, B9)."""
    d.apply("gioco")
    d.apply("discard " + discard)
    for i in range(4):
        seat = (d.dealer + 1 + i) % 4
        if not d.done:
            d.apply((declarations or {}).get(seat, "declare"), seat)
    return d


def finish(d: Deal, seed: int = 0) -> Deal:
    return play_out(d, random.Random(seed))
