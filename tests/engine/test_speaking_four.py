"""Speaking at four seats (R7-R10): the stata round, chiamo and vado solo, the called trump,
the hidden partner, the forced call by the holder of the 20, the throw-in and its option."""

from __future__ import annotations

import random

import pytest

from tarocchi.games import sicilian as S
from tarocchi.engine.cards import card
from tarocchi.engine.playout import play_out
from tarocchi.games.sicilian import Deal, IllegalAction, Options

from .builders import deal_of, say

# Dealer 3: seats speak 0, 1, 2, 3.
TRUMPS_20_TO_6 = [str(n) for n in range(20, 5, -1)]
BATONS = ["5B", "6B", "7B", "8B", "9B", "10B", "MB", "HB", "QB", "KB"]
SWORDS = ["5S", "6S", "7S", "8S", "9S", "10S", "MS", "HS", "QS", "KS"]


def padded(held: list[str]) -> list[str]:
    """A 15-card hand: ``held`` and swords and batons for the rest, so no other trump."""
    return (held + SWORDS + BATONS)[:15]


def reasons(d: Deal) -> dict[str, str | None]:
    return {c["action"]: c["reason"] for c in d.choices(d.to_act)}


def test_first_round_only_passo_or_vado_solo_R7():
    d = Deal.from_seed(4, 3, 5)
    assert reasons(d) == {"passo": None, "chiamo": S.FIVE_CARDS_FOUR, "vado solo": None}
    assert d.refusal(0, "pago") == S.NO_PAGO_FOUR
    assert d.refusal(0, "prendo") == S.NO_PAGO_FOUR
    assert d.refusal(0, "altre cinque") == S.NO_ALTRE_FOUR
    assert set(d.legal_actions()) == {S.PASSO, S.VADO_SOLO}


def test_a_solo_on_five_cards_is_a_stata_and_ends_the_round_at_once_R7():
    d = Deal.from_seed(4, 3, 5)
    say(d, "passo", "vado solo")
    assert (d.bidder, d.stata, d.contract, d.phase, d.to_act) == (1, True, "solo", "discard", 1)
    assert len(d.bids) == 2  # seats 2 and 3 never spoke
    assert [d.hand_size(s) for s in range(4)] == [15, 18, 15, 15]
    assert d.spoke_after == frozenset()


def test_all_pass_deals_two_more_packets_and_the_dealer_looks_R7():
    d = Deal.from_seed(4, 3, 5)
    say(d, "passo", "passo", "passo", "passo")
    assert [d.hand_size(s) for s in range(4)] == [15] * 4 and d.to_act == 0
    assert d.dealer_looked
    assert d.view(3)["monte"] is not None and all(d.view(s)["monte"] is None for s in range(3))
    assert reasons(d) == {"passo": None, "chiamo": None, "vado solo": None}


def to_second_round(hands=None, monte=(), options=None) -> Deal:
    d = deal_of(4, 3, hands, monte, options)
    say(d, "passo", "passo", "passo", "passo")
    return d


def test_chiamo_calls_the_highest_trump_the_caller_lacks_R8_R9():
    # seat 0 holds the 20 and the 19 but not the 18: it calls the 18, which seat 2 holds
    d = to_second_round({0: ["20", "19", "17"], 2: ["18"]}, monte=["MC", "MO", "MS"])
    say(d, "chiamo", "passo", "passo", "passo")
    assert (d.bidder, d.contract, d.called, d.stata) == (0, "chiamo", 18, False)
    assert d.public_events()[-2]["called"] == "18"  # announced to all: "chiamo il 18"
    assert all(d.view(s)["called"] == "18" for s in range(4))
    assert d.partner is None  # not settled before the discard
    say(d, "discard MC MO MS")
    assert d.partner == 2


@pytest.mark.parametrize("held, called", [
    ([], "20"),  # lacks the 20
    (["20", "19"], "18"),
    (["20", "19", "18", "17", "16", "15", "14"], "13"),
    (TRUMPS_20_TO_6, "5"),  # fifteen trumps: the 5 is the highest missing
    ([str(n) for n in range(20, 7, -1)] + ["1", "0"], "7"),
])
def test_the_called_trump_is_the_highest_missing_R9(held, called):
    d = to_second_round({1: padded(held)}, monte=["KC", "KO", "QC"])
    say(d, "passo", "chiamo", "passo", "passo")
    assert d.bidder == 1 and d.called == card(called)


def test_only_the_first_chiamo_is_a_call_R8():
    d = to_second_round()
    say(d, "chiamo")
    assert reasons(d) == {"passo": None, "chiamo": S.ONE_CALL, "vado solo": None}
    with pytest.raises(IllegalAction, match="there is already a call"):
        d.apply("chiamo")


def test_a_solo_after_a_chiamo_ends_the_round_and_the_caller_is_an_opponent_R8():
    d = to_second_round()
    say(d, "chiamo", "vado solo")
    assert (d.bidder, d.contract, d.called, d.stata) == (1, "solo", None, False)
    assert len(d.bids) == 6  # seats 2 and 3 did not speak
    play_out(d, random.Random(1))
    c = d.count
    assert c.sides == {"bidder": [1], "others": [0, 2, 3]} and c.alone
    assert c.payments[1] == 3 * c.net and c.payments[0] == -c.net  # single stake, alone (R15)


def test_the_called_trump_in_the_monte_leaves_the_caller_alone_against_three_R9():
    d = to_second_round({0: padded(["19", "18"])}, monte=["20", "MC", "MO"])
    say(d, "chiamo", "passo", "passo", "passo")
    assert d.called == 20
    say(d, "discard MC MO 5S")
    assert d.partner is None
    play_out(d, random.Random(2))
    c = d.count
    assert c.alone and c.sides["bidder"] == [0] and c.called == "20"
    assert c.payments == [3 * c.net, -c.net, -c.net, -c.net]


def test_all_four_pass_the_holder_of_the_20_calls_after_the_monte_and_discard_R10():
    # seat 2 holds the 20 but not the 19; the 19 is in the monte, so after taking it seat 2
    # lacks the 18 (held by seat 1), and calls it
    d = to_second_round({2: padded(["20", "17"]), 1: ["18"]}, monte=["19", "MC", "MO"])
    say(d, "passo", "passo", "passo", "passo")
    assert (d.bidder, d.contract, d.phase, d.to_act) == (2, "forced", "discard", 2)
    assert d.called is None  # the call comes after the discard
    assert all(d.view(s)["monte"] == ["19", "MC", "MO"] for s in range(4))  # turned up (R11)
    assert d.hand_size(2) == 18
    say(d, "discard MC MO 5S")
    assert d.called == 18 and d.partner == 1
    assert d.public_events()[-1] == {"type": "call", "seat": 2, "called": "18"}


def test_a_forced_call_whose_trump_is_in_the_own_discard_plays_alone_R9_R10():
    # seat 2 holds the 20 down to the 6; with the monte it has one card that is no trump or
    # King, so it discards that and two low trumps (R11), and calls the highest missing trump
    d = to_second_round({2: TRUMPS_20_TO_6}, monte=["5", "KC", "MC"])
    say(d, "passo", "passo", "passo", "passo")
    say(d, "discard MC 5 6")
    assert d.called == 6 and d.partner is None
    play_out(d, random.Random(3))
    assert d.count.alone and d.count.payments[2] == 3 * d.count.net


def test_the_20_in_the_monte_throws_the_deal_in_R10():
    d = to_second_round(monte=["20", "MC", "MO"])
    say(d, "passo", "passo", "passo", "passo")
    assert d.done and d.count.abandoned and d.count.payments == [0, 0, 0, 0]
    assert "20 is in the monte" in d.count.reason


def test_the_table_option_throws_every_all_pass_deal_in_R10():
    d = to_second_round({1: ["20"]}, options=Options(forced_call=False))
    say(d, "passo", "passo", "passo", "passo")
    assert d.done and d.count.abandoned and d.count.payments == [0, 0, 0, 0]
    assert d.record()["options"] == {"forced_call": False}


def test_vado_solo_in_the_second_round_is_a_single_stake_R8():
    d = to_second_round()
    say(d, "passo", "passo", "vado solo")
    assert (d.bidder, d.stata, d.phase) == (2, False, "discard")
    assert len(d.bids) == 7
