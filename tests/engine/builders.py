"""Deals built from chosen deck orders (R3), so engine tests are exact, not random.

``deck_order`` lays out a 63-code deck from the hands each seat should get: per R3 the packets
of five go to the seat after the dealer first, round after round, and the last three cards are
the monte. ``deck_from_tricks`` works backwards from the tricks to be played: it finds which
seat plays each card (the seat after the bidder leads, then each trick's winner, R13) and gives
every seat exactly the cards it will play, the bidder's discard included.
"""

from __future__ import annotations

from tarocchi.engine.cards import CODES, card
from tarocchi.games.sicilian import Deal, Options
from tarocchi.engine.tricks import trick_winner

HAND_SIZE = {3: 20, 4: 15}  # cards per seat once every packet is out (R3)


def deck_order(seats: int, dealer: int, hands: dict[int, list[str]] | None = None,
               monte: list[str] | tuple[str, ...] = ()) -> list[str]:
    """A deck order (63 codes, top first) that deals ``hands[seat]`` to each seat, in the
    listed order (the first five are its first packet), and ``monte`` as the last three.
    Seats and the monte not fully given are filled with the unused cards in code order."""
    hands = {s: list(h) for s, h in (hands or {}).items()}
    monte = list(monte)
    size = HAND_SIZE[seats]
    used = [c for h in hands.values() for c in h] + monte
    assert len(used) == len(set(used)), f"a card is given twice: {sorted(used)}"
    assert all(c in CODES for c in used), f"not a card code in {used}"
    rest = [c for c in CODES if c not in set(used)]
    for s in range(seats):
        h = hands.setdefault(s, [])
        assert len(h) <= size, f"seat {s} is given {len(h)} cards"
        while len(h) < size:
            h.append(rest.pop(0))
    while len(monte) < 3:
        monte.append(rest.pop(0))
    assert not rest and len(monte) == 3
    deck: list[str] = []
    for packet in range(size // 5):
        for i in range(seats):
            seat = (dealer + 1 + i) % seats
            deck.extend(hands[seat][packet * 5:packet * 5 + 5])
    return deck + monte


def deal_of(seats: int, dealer: int, hands: dict[int, list[str]] | None = None,
            monte: list[str] | tuple[str, ...] = (), options: Options | None = None) -> Deal:
    deck = deck_order(seats, dealer, hands, monte)
    return Deal(seats, dealer, [card(c) for c in deck], options)


def hands_from_tricks(seats: int, bidder: int, tricks: list[list[str]], discard: list[str],
                      monte: list[str]) -> dict[int, list[str]]:
    """Each seat's dealt hand so that it can play ``tricks`` (each listed in play order) and
    the bidder, after taking ``monte``, can discard ``discard``."""
    hands: dict[int, list[str]] = {s: [] for s in range(seats)}
    leader = (bidder + 1) % seats  # R13: the seat after the bidder leads first
    for t in tricks:
        assert len(t) == seats, t
        for i, c in enumerate(t):
            hands[(leader + i) % seats].append(c)
        leader = (leader + trick_winner([card(c) for c in t])) % seats
    hands[bidder] += discard
    for c in monte:
        hands[bidder].remove(c)
    return hands


def deal_from_tricks(seats: int, dealer: int, bidder: int, tricks: list[list[str]],
                     discard: list[str], monte: list[str], options: Options | None = None) -> Deal:
    return deal_of(seats, dealer, hands_from_tricks(seats, bidder, tricks, discard, monte), monte, options)


def say(deal: Deal, *actions: str) -> None:
    """Apply actions in turn, each by the seat to act."""
    for a in actions:
        deal.apply(a)


def play(deal: Deal, tricks: list[list[str]]) -> None:
    for t in tricks:
        say(deal, *t)


def hand(deal: Deal, seat: int) -> set[str]:
    return set(deal.view(seat)["hand"])
