"""Speaking at three seats (R5, R6): the words of each round, who may say pago and prendo,
altre cinque, the abandoned deal and its payments, the solo and the stata."""

from __future__ import annotations

import pytest

from tarocchi.games import sicilian as S
from tarocchi.games.sicilian import Deal, IllegalAction

from .builders import say

# Dealer 2: seat 0 speaks first, seat 1 second, seat 2 (the dealer) last.


def fresh(dealer: int = 2) -> Deal:
    return Deal.from_seed(3, dealer, 31)


def at_cards(cards: int) -> Deal:
    d = fresh()
    for _ in range(cards // 5 - 1):
        say(d, "altre cinque", "passo", "passo")
    assert d.hand_size(0) == cards
    return d


def reasons(d: Deal) -> dict[str, str | None]:
    return {c["action"]: c["reason"] for c in d.choices(d.to_act)}


def test_everyone_speaks_once_from_the_seat_after_the_dealer_the_dealer_last_R5():
    for dealer in range(3):
        d = fresh(dealer)
        order = []
        for _ in range(3):
            order.append(d.to_act)
            d.apply("altre cinque")
        assert order == [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
        assert d.to_act == (dealer + 1) % 3 and d.hand_size(0) == 10


def test_at_five_cards_passo_altre_cinque_vado_solo_and_no_pago_or_prendo_R5():
    d = fresh()
    assert reasons(d) == {"passo": None, "altre cinque": None, "vado solo": None,
                          "pago": S.PAGO_LATER, "prendo": S.PAGO_LATER}
    assert d.refusal(0, "chiamo") == S.CHIAMO_FOUR
    assert set(d.legal_actions()) == {S.PASSO, S.ALTRE_CINQUE, S.VADO_SOLO}


@pytest.mark.parametrize("cards", [10, 15])
def test_at_10_and_15_the_first_two_seats_may_say_pago_not_the_dealer_R5(cards):
    d = at_cards(cards)
    assert reasons(d)["pago"] is None
    say(d, "passo")
    assert reasons(d)["pago"] is None
    say(d, "passo")
    assert reasons(d)["pago"] == S.ONLY_FIRST_TWO_PAGO == "only the first two seats may say pago"
    with pytest.raises(IllegalAction, match="only the first two seats may say pago"):
        d.apply("pago")


def test_prendo_only_from_the_second_seat_or_the_dealer_after_a_pago_once_a_round_R5():
    d = at_cards(10)
    assert reasons(d)["prendo"] == S.PRENDO_WHO  # the first seat never
    say(d, "passo")
    assert reasons(d)["prendo"] == S.PRENDO_NEEDS_PAGO  # nobody has said pago
    d = at_cards(10)
    say(d, "pago")
    assert reasons(d)["prendo"] is None  # the second seat, after a pago
    say(d, "prendo")
    assert reasons(d)["prendo"] == S.ONE_PRENDO  # only once a round
    d = at_cards(10)
    say(d, "pago", "passo")
    assert reasons(d)["prendo"] is None  # the dealer, after a pago


def test_a_prendo_collects_one_jocu_from_each_pago_when_the_deal_is_abandoned_R6():
    d = at_cards(10)
    say(d, "pago", "pago", "prendo")
    assert d.done and d.count.abandoned
    assert d.count.payments == [-1, -1, 2]
    assert (d.count.pago, d.count.prendo) == ([0, 1], 2)


def test_prendo_by_the_second_seat_at_15_cards_R6():
    d = at_cards(15)
    say(d, "pago", "prendo", "passo")
    assert d.count.payments == [-1, 1, 0]


def test_a_pago_nobody_took_costs_nothing_R6():
    d = at_cards(10)
    say(d, "pago", "passo", "passo")
    assert d.done and d.count.payments == [0, 0, 0]


def test_altre_cinque_cancels_pago_and_prendo_and_deals_on_R6():
    d = at_cards(10)
    say(d, "pago", "prendo", "altre cinque")
    assert not d.done and d.hand_size(0) == 15
    say(d, "passo", "passo", "passo")  # this round's nobody says altre cinque: no payments
    assert d.done and d.count.payments == [0, 0, 0]


def test_a_pago_after_an_altre_cinque_and_a_solo_after_a_pago_are_allowed_R5():
    d = at_cards(10)
    say(d, "altre cinque", "pago")
    assert reasons(d)["vado solo"] is None
    say(d, "vado solo")
    assert d.bidder == 2 and d.phase == "discard"


def test_all_pass_at_five_abandons_the_deal_and_nobody_scores_R5():
    d = fresh()
    say(d, "passo", "passo", "passo")
    assert d.done and d.count.abandoned and d.count.payments == [0, 0, 0]
    assert d.count.reason == "nobody said altre cinque"


def test_at_20_cards_no_altre_cinque_and_pago_prendo_as_before_R5_R6():
    d = at_cards(20)
    assert reasons(d) == {"passo": None, "altre cinque": S.NO_ALTRE_AT_20, "vado solo": None,
                          "pago": None, "prendo": S.PRENDO_WHO}
    with pytest.raises(IllegalAction, match="no altre cinque at 20 cards"):
        d.apply("altre cinque")
    say(d, "pago", "passo", "prendo")
    assert d.done and d.count.payments == [-1, 0, 1]


def test_at_20_cards_all_pass_abandons_R5():
    d = at_cards(20)
    say(d, "passo", "passo", "passo")
    assert d.done and d.count.abandoned and d.count.payments == [0, 0, 0]
    # (altre cinque is not said at 20 cards: what ends the deal is that nobody goes solo, issue 38)
    assert d.count.reason == "nobody said vado solo at 20 cards"
    assert d.events[-1] == {"type": "abandoned", "reason": d.count.reason, "payments": [0, 0, 0]}


def test_a_solo_on_five_cards_is_a_stata_R5():
    d = fresh()
    say(d, "passo", "vado solo", "passo")
    assert (d.bidder, d.stata, d.contract) == (1, True, "solo")
    assert [d.hand_size(s) for s in range(3)] == [20, 23, 20]


@pytest.mark.parametrize("cards", [10, 15, 20])
def test_a_solo_at_10_15_20_is_a_single_stake_R5(cards):
    d = at_cards(cards)
    say(d, "vado solo", "passo", "passo")
    assert (d.bidder, d.stata) == (0, False)
    assert [d.hand_size(s) for s in range(3)] == [23, 20, 20]


@pytest.mark.parametrize("cards", [5, 10, 20])
def test_after_vado_solo_only_passo_R5(cards):
    d = at_cards(cards) if cards > 5 else fresh()
    say(d, "vado solo")
    for word in ("altre cinque", "vado solo", "pago", "prendo"):
        assert d.refusal(d.to_act, word) == S.ONLY_PASSO_AFTER_SOLO == "after a vado solo only passo"
    assert d.legal_actions() == [S.PASSO]
    say(d, "passo")
    assert d.legal_actions() == [S.PASSO]  # the dealer too


def test_a_solo_voids_the_round_pago_and_prendo_R6():
    d = at_cards(10)
    say(d, "pago", "prendo", "vado solo")
    assert d.bidder == 2 and not d.done  # played, not abandoned


def test_words_of_the_play_are_refused_while_speaking():
    d = fresh()
    assert d.refusal(0, "scommessa") == S.SPEAK_NOW
    assert d.refusal(0, "KC") == S.SPEAK_NOW
    assert d.refusal(1, "passo") == S.NOT_YOUR_TURN
