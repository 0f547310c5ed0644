"""Matches (R4, R16): one deal per seat, the dealer moving on, totals carried, ties shared."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tarocchi.engine.match import Match
from tarocchi.engine.playout import play_out

from .builders import say


def test_the_deal_moves_on_one_seat_and_a_match_is_one_deal_per_seat_R4():
    for seats in (3, 4):
        m = Match(seats, first_dealer=seats - 1)
        dealers = []
        rng = random.Random(seats)
        while not m.over:
            deal = m.start_deal(rng)
            dealers.append(deal.dealer)
            play_out(deal, rng)
        assert dealers == [(seats - 1 + i) % seats for i in range(seats)]
        assert m.deals_played == seats == m.length
        with pytest.raises(ValueError, match="over"):
            m.start_deal(rng)


def test_the_first_dealer_is_drawn_at_random_R4():
    drawn = Counter(Match.drawn(4, random.Random(i)).first_dealer for i in range(400))
    assert set(drawn) == {0, 1, 2, 3} and min(drawn.values()) > 60


def test_a_deal_must_finish_before_the_next_starts_R4():
    m = Match(3, 0)
    m.start_deal(random.Random(1))
    with pytest.raises(ValueError, match="not finished"):
        m.start_deal(random.Random(2))


def test_an_abandoned_deal_counts_as_dealt_and_totals_carry_on_R4_R16():
    m = Match(3, first_dealer=0)
    rng = random.Random(9)
    say(m.start_deal(rng), "passo", "passo", "passo")
    assert m.deals_played == 1 and m.totals == [0, 0, 0] and not m.over
    played = []
    while not m.over:
        played.append(play_out(m.start_deal(rng), rng).count.payments)
    assert m.totals == [sum(p[s] for p in played) for s in range(3)]
    assert sum(m.totals) == 0


def test_a_tie_at_the_top_is_shared_R16():
    # pago and prendo payments (R6) make small, exact totals
    m = Match(3, first_dealer=0)
    rng = random.Random(3)
    say(m.start_deal(rng), "altre cinque", "passo", "passo", "pago", "prendo", "passo")  # 1 pays 2
    say(m.start_deal(rng), "altre cinque", "passo", "passo", "pago", "prendo", "passo")  # 2 pays 0
    assert m.totals == [1, -1, 0] and m.winners() == [0]
    say(m.start_deal(rng), "altre cinque", "passo", "passo", "passo", "pago", "prendo")  # 1 pays 2
    assert m.over and m.totals == [1, -2, 1]
    assert m.winners() == [0, 2]


def test_match_deals_from_a_chosen_deck_R3_R4():
    m = Match(4, first_dealer=2)
    deck = list(range(63))
    deal = m.start_deal(deck=deck)
    assert deal.dealer == 2 and list(deal.deck) == deck
    with pytest.raises(ValueError):
        Match(5, 0)
