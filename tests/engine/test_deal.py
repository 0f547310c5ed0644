"""The deal from a deck order (R3): packets of five from the seat after the dealer, round after
round; the last three cards are the monte."""

from __future__ import annotations

import pytest

from tarocchi.engine.cards import CODES, card, mask_of
from tarocchi.games.sicilian import Deal

from .builders import deck_order, say


def deck_of_codes() -> list[int]:
    return [card(c) for c in CODES]  # the deck in code order: the packets are easy to read


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_three_seats_five_cards_each_from_the_seat_after_the_dealer_R3(dealer):
    deck = deck_of_codes()
    d = Deal(3, dealer, deck)
    for i in range(3):
        seat = (dealer + 1 + i) % 3
        assert d.hands[seat] == mask_of(deck[5 * i:5 * i + 5])
    assert d.to_act == (dealer + 1) % 3  # R5: the seat after the dealer speaks first
    assert d.monte == mask_of(deck[-3:])


def test_three_seats_each_altre_cinque_deals_the_next_round_of_packets_R3_R6():
    deck = deck_of_codes()
    d = Deal(3, 2, deck)  # seats 0, 1, 2 in that order
    for rnd in range(1, 4):
        say(d, "altre cinque", "passo", "passo")
        for seat in range(3):
            start = 15 * rnd + 5 * seat
            assert d.hands[seat] & mask_of(deck[start:start + 5]) == mask_of(deck[start:start + 5])
            assert d.hand_size(seat) == 5 * (rnd + 1)
    # 20 cards each: 60 dealt, the monte is the last three and nobody holds it yet
    assert sum(d.hands) == mask_of(deck[:60])


def test_four_seats_one_round_then_two_rounds_back_to_back_R3_R7():
    deck = deck_of_codes()
    d = Deal(4, 1, deck)  # order 2, 3, 0, 1
    assert [d.hand_size(s) for s in range(4)] == [5] * 4
    assert d.hands[2] == mask_of(deck[0:5]) and d.hands[1] == mask_of(deck[15:20])
    say(d, "passo", "passo", "passo", "passo")
    assert [d.hand_size(s) for s in range(4)] == [15] * 4
    for rnd in (1, 2):
        for i, seat in enumerate((2, 3, 0, 1)):
            start = 20 * rnd + 5 * i
            assert d.hands[seat] & mask_of(deck[start:start + 5]) == mask_of(deck[start:start + 5])
    assert d.monte == mask_of(deck[60:])


def test_a_stata_deals_the_packets_still_to_come_in_the_same_order_R3():
    deck = deck_of_codes()
    d = Deal(3, 0, deck)  # order 1, 2, 0
    say(d, "vado solo", "passo", "passo")
    for rnd in range(4):
        for i, seat in enumerate((1, 2, 0)):
            start = 15 * rnd + 5 * i
            assert d.hands[seat] & mask_of(deck[start:start + 5]) == mask_of(deck[start:start + 5])
    assert d.hands[1] & d.monte == d.monte  # the soloist took the monte (R11)


def test_the_builder_lays_out_the_hands_it_is_given_R3():
    hands = {0: ["20", "19", "18", "17", "16", "KC"], 2: ["F"]}
    deck = deck_order(3, 1, hands, ["1", "2", "3"])
    d = Deal(3, 1, [card(c) for c in deck])
    say(d, "altre cinque", "passo", "passo")
    assert d.hands[0] & mask_of(hands[0]) == mask_of(hands[0])
    assert d.hands[2] >> card("F") & 1
    assert d.monte == mask_of(["1", "2", "3"])


@pytest.mark.parametrize("bad", [list(range(62)), list(range(62)) + [0], list(range(1, 64))])
def test_a_deck_order_holds_each_card_once_R3(bad):
    with pytest.raises(ValueError, match="63 cards once"):
        Deal(3, 0, bad)


def test_seats_and_dealer_are_checked():
    with pytest.raises(ValueError):
        Deal(5, 0, deck_of_codes())
    with pytest.raises(ValueError):
        Deal(3, 3, deck_of_codes())
