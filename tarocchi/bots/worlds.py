"""Sampled worlds for any game: the cards a seat has not seen, dealt at random into the places
they may be (other hands, a hidden discard, a monte), each place taking only the cards it may
hold. The samplers of the games (``sicilian/sampler`` for Sicilian, ``renaissance/search_bot``) say which
places there are and what each may hold; the engine then checks the world by replaying the
seat's log on it.
"""

from __future__ import annotations

import random

from tarocchi.engine.deck import Deck, cards_in


class Slot:
    __slots__ = ("name", "capacity", "cards")

    def __init__(self, name: tuple, capacity: int):
        self.name = name
        self.capacity = capacity
        self.cards = 0


def assign(cards: list[int], slots: list[Slot], allowed: dict[int, int], rng: random.Random) -> bool:
    """Deal ``cards`` into ``slots`` (slot i may take card c if bit i of allowed[c]); the most
    constrained cards first, each to a slot picked in proportion to its room left."""
    order = sorted(cards, key=lambda c: (allowed[c].bit_count(), rng.random()))
    room = [s.capacity for s in slots]
    for c in order:
        opts = [i for i in cards_in(allowed[c]) if room[i] > 0]
        if not opts:
            return False
        total = sum(room[i] for i in opts)
        r = rng.randrange(total)
        for i in opts:
            r -= room[i]
            if r < 0:
                break
        slots[i].cards |= 1 << c
        room[i] -= 1
    return True


def voids(plays: list[tuple[int, int]], deck: Deck, seats: int) -> list[int]:
    """The cards each seat has shown it cannot hold, from the cards played so far ((seat,
    card) in order, ``seats`` to a trick), under the follow-else-trump rule every game here
    plays by (Sicilian R13, Renaissance A10, Calabresella C15): a seat that did not follow
    the suit led holds none of it, and one that did not trump either holds no trump. The
    Fool shows nothing; after a led Fool the next card fixes what the trick follows (A11)."""
    out = [0] * seats
    fool, trumps = deck.fool, deck.trumps
    for i, (seat, c) in enumerate(plays):
        first = i - i % seats
        if i == first or c == fool:
            continue
        lead = plays[first][1]
        if lead == fool:
            if i == first + 1:
                continue  # this card fixes the suit: it shows nothing
            lead = plays[first + 1][1]
        if c == lead:
            continue
        led_suit = deck.suit_mask_of[lead]
        if not led_suit >> c & 1:
            out[seat] |= led_suit
            if not trumps >> c & 1:
                out[seat] |= trumps
    return out
