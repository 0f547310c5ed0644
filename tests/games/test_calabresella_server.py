"""Calabresella through the real server with the cross-game trust check of
tests/trust/test_every_game.py: a whole match in a room, every frame of every seat against the
truth replayed from the store. The harness asks each game what a seat may know
(``harness.KNOWN``); ``calabresella_known`` is that for this game, given to the harness here for
this test alone (it belongs in the harness's table beside the other games')."""

from __future__ import annotations

from unittest import mock

from tarocchi.engine.game import get_game
from tests.trust import harness, test_every_game


def calabresella_known(d, s: int) -> set[str]:
    """What seat ``s`` may know of a Calabresella deal now: its hand, every card played, the
    monte as turned up for all (C10-C12), the called card and the card given back, its own
    dividete cards (C11) and its own cards laid face down; at the count, every card (C16)."""
    deck = get_game("calabresella").deck
    if d.count is not None and not d.thrown_in:
        return set(deck.codes)
    seen = d.hands[s] | sum(d.played) | sum(1 << c for c in d.trick) | d.turned_up | d.took[s] | d.laid[s]
    for c in (d.called, d.given_back):
        if c >= 0:
            seen |= 1 << c
    return set(deck.codes_of(seen))


def test_a_whole_calabresella_match_leaks_nothing_through_the_server():
    with mock.patch.dict(harness.KNOWN, {"calabresella": calabresella_known}):
        test_every_game.test_a_whole_match_leaks_nothing_and_every_view_is_the_seats_projection("calabresella", 3)
