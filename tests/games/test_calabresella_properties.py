"""Properties over many random Calabresella deals of every contract, played by random legal
actions from a hypothesis-drawn seed: every card in exactly one place at every step, the two
piles and the last trick make 109 (C5, C17), payments sum to zero as C18-C20 say, a record
replays to the same count, and no view holds a card its seat may not know: another's hand, the
cards laid face down, the unseen monte, the other opponent's dividete cards (C10-C14)."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from tarocchi.engine.playout import random_action
from tarocchi.games.calabresella import COUNTING, DECK, STAKE, Deal

SEEDS = st.integers(0, 2**63)
# The auctions that give each contract (seat dealer + 1 bids, or passes and the next bids).
AUCTIONS = st.sampled_from([
    ["chiamo", "sta bene", "sta bene"], ["passo", "chiamo", "vado solo"], ["vado solo", "sta bene", "sta bene"],
    ["vado solissimo"], ["passo", "vado solissimo dividete"], ["passo", "passo", "vado solissimo scegliete"],
    ["passo", "passo", "passo"], [],  # [] leaves the auction to random play
])
CODE_SET = set(DECK.codes)


def random_deal(seed: int, auction: list[str]) -> tuple[Deal, random.Random]:
    rng = random.Random(seed)
    d = Deal.shuffled(3, rng.randrange(3), rng)
    for word in auction:
        if not d.done:
            d.apply(word)
    return d, rng


def places(d: Deal) -> list[int]:
    """Where every card is: the hands, the monte, the trick, the tricks won, the Fool apart."""
    fool = DECK.fool_bit if d.fool_to >= 0 else 0
    return d.hands + [d.monte, sum(1 << c for c in d.trick), fool] + d.won


def check_cards(d: Deal) -> None:
    if d.count is not None and not d.thrown_in:
        a, b = d.count.piles
        assert a & b == 0 and a | b == DECK.full
        return
    union = 0
    for m in places(d):
        assert union & m == 0
        union |= m
    assert union == DECK.full
    if d.phase == "play" and not d.trick:
        assert len({h.bit_count() for h in d.hands}) == 1  # C10-C12: all back to the same size


@settings(max_examples=2000, deadline=None)
@given(seed=SEEDS, auction=AUCTIONS)
def test_K1_every_deal_adds_up_to_109_pays_zero_and_replays_C5_C17_C18(seed, auction):
    d, rng = random_deal(seed, auction)
    while not d.done:
        check_cards(d)
        d.apply(random_action(d, rng))
    check_cards(d)
    if d.thrown_in:
        assert d.returns() == [0, 0, 0]
        return
    c = d.count
    assert sum(c.points) == 109 and sum(c.payments) == 0 and c.payments == d.returns()
    assert c.piles[c.monte_to] & c.monte == c.monte and c.monte.bit_count() == 3  # C14
    mult = 3 if 20 in c.tricks else 2 if any(p & COUNTING == COUNTING for p in c.piles) else 1
    won = (c.tricks[0] == 20 or c.piles[0] & COUNTING == COUNTING) if mult > 1 else c.points[0] >= 55
    stake = STAKE[c.contract] * mult * (1 if won else -1)
    assert (c.multiplier, c.won) == (mult, won)
    assert c.payments == [stake if s == c.challenger else -stake // 2 for s in range(3)]
    again = Deal(3, d.dealer, list(d.deck))
    for item in d.record()["actions"]:
        again.apply(item["action"], item["seat"])
    assert again.count.to_json() == c.to_json()


def words(x) -> list[str]:
    """Every word of every string of a view, keys included; a chiamo choice names a card, not
    where it is, so the call's choices are left out."""
    if isinstance(x, str):
        return x.split()
    if isinstance(x, dict):
        return [w for k, v in x.items() for w in words(k) + words(v)]
    if isinstance(x, list):
        return [w for v in x for w in words(v)]
    return []


def may_know(d: Deal, seat: int) -> int:
    """Its hand, every card played, the monte as turned up (C10-C12), the called card and the
    card given back, its own dividete cards and its own lay; at the count, everything."""
    if d.count is not None and not d.thrown_in:
        return DECK.full
    known = d.hands[seat] | sum(d.played) | sum(1 << c for c in d.trick) | d.turned_up | d.took[seat] | d.laid[seat]
    for c in (d.called, d.given_back):
        if c >= 0:
            known |= 1 << c
    return known


@settings(max_examples=120, deadline=None)
@given(seed=SEEDS, auction=AUCTIONS)
def test_a_view_never_holds_a_card_its_seat_may_not_know_C10_C14(seed, auction):
    d, rng = random_deal(seed, auction)
    while True:
        for seat in range(3):
            v = d.view(seat)
            assert v["hand"] == DECK.codes_of(d.hands[seat])
            if v["phase"] == "call":
                v = {k: x for k, x in v.items() if k != "choices"}
            shown = DECK.mask_of(w for w in words(v) if w in CODE_SET)
            assert shown & ~may_know(d, seat) == 0, (seat, DECK.codes_of(shown & ~may_know(d, seat)))
        if d.done:
            break
        d.apply(random_action(d, rng))
    for e in d.public_events():  # the events go to every seat
        if e["type"] != "count":
            shown = DECK.mask_of(w for w in words(e) if w in CODE_SET)
            assert shown & ~(sum(d.played) | d.turned_up | (1 << d.called if d.called >= 0 else 0)
                             | (1 << d.given_back if d.given_back >= 0 else 0)) == 0, e
