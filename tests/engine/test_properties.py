"""Properties over thousands of random deals at both sizes, driven by random legal actions
(playout.random_action) from a hypothesis-drawn seed: the count adds up (R2, R15), a record
replays to the same count, and a seat's view holds nothing it may not know (R9, R11, R12)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from tarocchi.engine.cards import CODES, FULL_DECK, codes, mask_of
from tarocchi.engine.playout import random_action
from tarocchi.engine.records import replay
from tarocchi.games.sicilian import PASSO, Deal, Options
from tarocchi.engine.tricks import trick_winner

SEEDS = st.integers(0, 2**63)
SIZES = st.sampled_from([3, 4])
FORCED = st.booleans()
# How often a seat passes when it may speak: uniform random bids make four-seat deals mostly
# statas, so some deals pass more, to reach the call, the forced call and the throw-in.
PASSING = st.sampled_from([0.0, 0.6, 0.9])
CODE_SET = set(CODES)


def act(d: Deal, rng: random.Random, passing: float) -> None:
    if d.phase == "speak" and rng.random() < passing:
        d.apply(PASSO)
    else:
        d.apply(random_action(d, rng))


def random_deal(seed: int, seats: int, forced: bool) -> tuple[Deal, random.Random]:
    rng = random.Random(seed)
    return Deal.shuffled(seats, rng.randrange(seats), rng, Options(forced_call=forced)), rng


def check_count(d: Deal) -> None:
    c = d.count
    j = c.to_json()
    assert sum(c.payments) == 0
    if c.abandoned:  # R6: only a prendo collects, one jocu from each pago; never doubled
        expected = [0] * d.seats
        if c.prendo is not None:
            for p in c.pago:
                expected[p] -= 1
                expected[c.prendo] += 1
        assert c.payments == expected
        return
    bidder, others = mask_of(j["piles"]["bidder"]), mask_of(j["piles"]["others"])
    assert bidder & others == 0 and bidder | others == FULL_DECK  # every card in exactly one pile
    assert len(j["piles"]["bidder"]) + len(j["piles"]["others"]) == 63
    assert c.card_points["bidder"] + c.card_points["others"] == 109  # R2
    assert sum(d.hands) == 0 and sum(d.tricks_won) == {3: 20, 4: 15}[d.seats]
    totals = j["totals"]
    assert c.net == totals["bidder"] - totals["others"]
    s = c.net * c.stake
    assert c.stake == (2 if d.stata else 1)
    for seat in c.sides["others"]:
        assert c.payments[seat] == -s
    share = {1: 2 * s if d.seats == 3 else 3 * s, 2: s}[len(c.sides["bidder"])]  # R15
    for seat in c.sides["bidder"]:
        assert c.payments[seat] == share
    assert ("rimatura", "bidder" if c.card_points["bidder"] >= 55 else "others") in [
        (x.name, x.side) for x in c.jochi]
    assert sorted((x.side, x.card) for x in c.jochi if x.name == "pigliata") == pigliate(d)


def pigliate(d: Deal) -> list[tuple[str, str]]:
    """(side, card) for each counting trump, the 1 or 16 to 19, that one side played and the
    other took (R15), recounted from the tricks as played, apart from the engine's piles."""
    side = {seat: name for name, seats in d.count.sides.items() for seat in seats}
    cards = [(seat, a) for seat, a in d.history if 0 <= a < 63]  # the play, after the words
    out = []
    for i in range(0, len(cards), d.seats):
        trick = cards[i:i + d.seats]
        winner = trick[trick_winner([c for _, c in trick])][0]
        out += [(side[winner], CODES[c]) for seat, c in trick
                if c in (1, 16, 17, 18, 19) and side[seat] != side[winner]]
    return sorted(out)


@settings(max_examples=3000, deadline=None)
@given(seed=SEEDS, seats=SIZES, forced=FORCED, passing=PASSING)
def test_every_deal_adds_up_and_replays_to_the_same_count_R2_R15(seed, seats, forced, passing):
    d, rng = random_deal(seed, seats, forced)
    while not d.done:
        act(d, rng, passing)
    check_count(d)
    assert replay(d.record()).count.to_json() == d.count.to_json()


def strings(x) -> list[str]:
    if isinstance(x, str):
        return x.split()[1:] if x.startswith("discard ") else [x]
    if isinstance(x, dict):
        return [s for v in x.values() for s in strings(v)]
    if isinstance(x, list):
        return [s for v in x for s in strings(v)]
    return []


def may_know(d: Deal, seat: int) -> int:
    """The cards ``seat`` may see: its hand, every card played, the monte once turned up or
    to the dealer who looked (R11), its own discard; and the called trump's name (R9)."""
    known = d.hands[seat] | sum(d.played)
    if d.called is not None:
        known |= 1 << d.called
    if d.monte_up or (seat == d.dealer and d.dealer_looked):
        known |= d.monte
    if seat == d.bidder:
        known |= d.discarded | d.monte  # the bidder picked the monte up
    return known


def check_views(d: Deal) -> None:
    for seat in range(d.seats):
        v = d.view(seat)
        assert v["hand"] == codes(d.hands[seat])
        shown = mask_of(s for s in strings(v) if s in CODE_SET)
        assert shown & ~may_know(d, seat) == 0, (seat, v)
        called_played = d.called is not None and sum(d.played) >> d.called & 1
        if not called_played:
            assert v["partner"] is None
    hidden_partner = d.partner
    if hidden_partner is None or sum(d.played) >> d.called & 1:
        return
    # Who the partner is changes nothing another seat sees (R9, R12): move the partner to any
    # other non-bidder seat and every other seat's view is the same.
    for other in range(d.seats):
        if other in (d.bidder, hidden_partner):
            continue
        moved = d.copy(log=True)
        moved.partner = other
        for seat in range(d.seats):
            if seat not in (hidden_partner, other):
                assert moved.view(seat) == d.view(seat)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(seed=SEEDS, seats=SIZES, forced=FORCED, passing=PASSING)
def test_a_view_never_holds_another_seats_hidden_card_or_the_partner_R9_R11_R12(seed, seats, forced, passing):
    d, rng = random_deal(seed, seats, forced)
    while not d.done:
        check_views(d)
        act(d, rng, passing)
