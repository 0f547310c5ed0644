"""Properties over thousands of random Renaissance deals, played by random legal actions from a
hypothesis-drawn seed: every card ends in exactly one pile, piles are whole threes, the points
make 78 and the scores 0 (A4, A13-A15), a record replays to the same count, and no view holds
another seat's hidden card or the dealer's discard before the count (A7)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from tarocchi.engine.playout import random_action
from tarocchi.engine.records import replay
from tarocchi.games.renaissance import DECK, RULES, Deal

from ..engine.test_properties import strings  # every text of a view, a discard's cards one by one

SEEDS = st.integers(0, 2**63)
CODE_SET = set(DECK.codes)


def random_deal(seed: int) -> tuple[Deal, random.Random]:
    rng = random.Random(seed)
    return Deal.shuffled(3, rng.randrange(3), rng), rng


def fool_settled_as_A13_A14(d: Deal) -> None:
    """The Fool's card recounted from the tricks as played, apart from the engine's piles."""
    by = next(seat for seat, a in d.history if a == DECK.fool)
    cards = [(seat, a) for seat, a in d.history[1:]]
    tricks = [cards[i:i + 3] for i in range(0, 75, 3)]
    fool_trick = next(t for t in tricks if any(a == DECK.fool for _, a in t))
    winner = fool_trick[RULES.winner([a for _, a in fool_trick])][0]
    order = DECK.display_order(d.discarded) if by == d.dealer else []
    for t in tricks:
        if t[RULES.winner([a for _, a in t])][0] == by:
            order += [a for _, a in t]
    plain = [c for c in order if DECK.values[c] == 1]
    c = d.count
    assert (c.fool_by, c.fool_to) == (by, winner)
    if plain:
        assert c.paid == plain[0] and c.piles[by] >> DECK.fool & 1 and c.piles[winner] >> plain[0] & 1
    else:
        assert c.paid == -1 and c.piles[winner] >> DECK.fool & 1


@settings(max_examples=2000, deadline=None)
@given(seed=SEEDS)
def test_every_deal_adds_up_and_replays_to_the_same_count_A4_A13_A15(seed):
    d, rng = random_deal(seed)
    while not d.done:
        d.apply(random_action(d, rng))
    c = d.count
    union = 0
    for pile in c.piles:
        assert union & pile == 0  # each card in exactly one pile
        union |= pile
        assert pile.bit_count() % 3 == 0  # A4
    assert union == DECK.full and sum(d.hands) == 0
    assert sum(c.points) == 78 and sum(c.scores) == 0  # A4, A15
    assert c.scores == [p - 26 for p in c.points] == d.returns()
    paid_away = 1 << c.paid if c.paid >= 0 else 0  # the dealer's Fool may pay with a discarded card
    assert (c.piles[d.dealer] | paid_away) & d.discarded == d.discarded  # A7: the discard is his
    fool_settled_as_A13_A14(d)
    assert replay(d.record()).count.to_json() == c.to_json()


def may_know(d: Deal, seat: int) -> int:
    """Its hand and every card played; the dealer also his three extra cards and his discard;
    at the count everything (the discard is shown, A7)."""
    if d.done:
        return DECK.full
    known = d.hands[seat] | sum(d.played)
    if seat == d.dealer:
        known |= d.extra | d.discarded
    return known


# Slow, as Sicilian's and Ottocento's view properties (the inner loop, README.md): some 68,000
# views of 300 deals, the inner loop's fourth longest test (issue 60).
@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(seed=SEEDS)
def test_a_view_never_holds_another_seats_hidden_card_or_the_discard_A7(seed):
    d, rng = random_deal(seed)
    while True:
        for seat in range(3):
            v = d.view(seat)
            assert v["hand"] == DECK.codes_of(d.hands[seat])
            shown = DECK.mask_of(s for s in strings(v) if s in CODE_SET)
            assert shown & ~may_know(d, seat) == 0, (seat, v)
        if d.done:
            break
        d.apply(random_action(d, rng))
