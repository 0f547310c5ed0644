"""Scommessa and Rivanto (R12), and what they are worth at the count (R15)."""

from __future__ import annotations

import random

import pytest

from tarocchi.games import sicilian as S
from tarocchi.engine.playout import play_out, random_action
from tarocchi.games.sicilian import Deal, IllegalAction

from .builders import deal_from_tricks, deal_of, play, say
from .test_worked_example import MONTE, NET_3_AT_THREE


def reasons(d: Deal) -> dict[str, str | None]:
    return {c["action"]: c["reason"] for c in d.choices(d.to_act)}


def net_3_deal(words: list[str]) -> Deal:
    d = deal_from_tricks(3, 2, 0, NET_3_AT_THREE, MONTE, MONTE)
    say(d, *words)
    say(d, "discard " + " ".join(MONTE))
    return d


SOLO_AT_10_BY = {
    0: ["altre cinque", "passo", "passo", "vado solo", "passo", "passo"],
    1: ["altre cinque", "passo", "passo", "passo", "vado solo", "passo"],
    2: ["altre cinque", "passo", "passo", "passo", "passo", "vado solo"],
}


def to_announce(seats: int, dealer: int, bidder_words: list[str], hands=None) -> Deal:
    d = deal_of(seats, dealer, hands, monte=["MC", "MO", "MS"])
    say(d, *bidder_words)
    say(d, "discard MC MO MS")
    assert d.phase == "announce"
    return d


def test_each_seat_is_asked_once_from_the_bidder_round_the_table_R12():
    d = to_announce(3, 0, ["passo", "vado solo", "passo"])  # dealer 0: seat 2 goes solo
    asked = []
    while d.phase == "announce":
        asked.append(d.to_act)
        d.apply("no")
    assert asked == [2, 0, 1] and d.phase == "play"
    assert d.to_act == 0  # R13: the seat after the bidder leads


def test_scommessa_needs_the_20_and_the_fool_in_the_bidders_hand_R12():
    d = net_3_deal(SOLO_AT_10_BY[0])  # seat 0 lacks the 20
    assert reasons(d) == {"scommessa": S.SCOMMESSA_NEEDS, "no": None}
    assert d.refusal(0, "rivanto") == S.RIVANTO_BIDDER
    d = to_announce(3, 2, SOLO_AT_10_BY[0], {0: ["20", "F", "5B", "6B", "7B"]})
    assert reasons(d) == {"scommessa": None, "no": None}
    say(d, "scommessa")
    assert d.scommessa
    assert d.refusal(1, "scommessa") == S.SCOMMESSA_BIDDER == "only the bidder may announce Scommessa"


def test_scommessa_is_not_possible_with_the_20_alone():
    d = to_announce(3, 2, SOLO_AT_10_BY[0], {0: ["20", "5B", "6B", "7B"], 1: ["F"]})
    assert d.refusal(0, "scommessa") == "Scommessa needs the 20 and the Fool in your hand"


@pytest.mark.parametrize("bidder, allowed", [(0, {1, 2}), (1, {2}), (2, set())])
def test_rivanto_only_for_an_opponent_who_spoke_after_the_final_bid_R5_R12(bidder, allowed):
    d = to_announce(3, 2, SOLO_AT_10_BY[bidder])
    say(d, "no")  # the bidder
    for _ in range(2):
        seat = d.to_act
        assert d.refusal(seat, "rivanto") == (None if seat in allowed else S.RIVANTO_WHO)
        say(d, "no")


def test_only_one_rivanto_a_deal_R12():
    d = to_announce(3, 2, SOLO_AT_10_BY[0])
    say(d, "no", "rivanto")
    assert d.rivanto == 1
    assert reasons(d) == {"rivanto": S.RIVANTO_ONCE, "no": None}
    with pytest.raises(IllegalAction, match="Rivanto was already announced"):
        d.apply("rivanto")


def test_rivanto_doubles_the_vanto_R12_R15():
    d = net_3_deal(SOLO_AT_10_BY[0])
    say(d, "no", "rivanto", "no")
    play(d, NET_3_AT_THREE)
    vanto = [j for j in d.count.jochi if j.name == "vanto"]
    assert [(j.side, j.value) for j in vanto] == [("bidder", 2)]
    assert d.count.net == 4 and d.count.payments == [8, -4, -4]


def test_a_stata_doubles_the_rivanto_too_R12_R15():
    d = net_3_deal(["vado solo", "passo", "passo"])
    say(d, "no", "no", "rivanto")
    play(d, NET_3_AT_THREE)
    assert d.count.net == 4 and d.count.payments == [16, -8, -8]


def test_scommessa_scores_for_the_bidder_only_if_its_pile_holds_20_1_and_fool_R15():
    seen = set()
    for seed in range(400):
        rng = random.Random(seed)
        d = Deal.shuffled(3, seed % 3, rng)
        while d.phase != "announce" and not d.done:
            d.apply(random_action(d, rng))
        if d.done or d.refusal(d.to_act, "scommessa"):
            continue
        say(d, "scommessa")
        play_out(d, rng)
        pile = set(d.count.to_json()["piles"]["bidder"])
        made = {"20", "1", "F"} <= pile
        assert [(j.side, j.value) for j in d.count.jochi if j.name == "scommessa"] == [
            ("bidder" if made else "others", 1)]
        seen.add(made)
        if seen == {True, False}:
            break
    assert seen == {True, False}


def test_nobody_may_say_rivanto_after_a_forced_call_R10_R12():
    d = to_announce(4, 3, ["passo"] * 8, {1: ["20"]})
    assert d.contract == "forced" and d.bidder == 1
    say(d, "no")
    for _ in range(3):
        assert d.refusal(d.to_act, "rivanto") in (S.RIVANTO_WHO, S.PARTNER_SILENT)
        say(d, "no")


def test_nobody_may_say_rivanto_after_a_four_seat_solo_R8_R12():
    d = to_announce(4, 3, ["passo"] * 4 + ["vado solo"])
    say(d, "no")
    for _ in range(3):
        assert d.refusal(d.to_act, "rivanto") == S.RIVANTO_WHO
        say(d, "no")


def chiamo_deal(partner: int) -> Deal:
    """Seat 0 calls the 20 (it lacks it); ``partner`` (2 or 3) holds it, the other the 19."""
    other = 5 - partner
    return to_announce(4, 3, ["passo"] * 4 + ["chiamo", "passo", "passo", "passo"],
                       {0: ["5B", "6B", "7B"], partner: ["20"], other: ["19"]})


def test_the_hidden_partners_rivanto_is_refused_on_its_own_screen_only_R12():
    for partner in (2, 3):
        d = chiamo_deal(partner)
        assert d.called == 20 and d.partner == partner
        say(d, "no")  # seat 0, the bidder
        for seat in (1, 2, 3):
            expected = S.PARTNER_SILENT if seat == partner else None  # 1, 2, 3 spoke after
            assert d.choices(seat) == [{"action": "rivanto", "reason": expected},
                                       {"action": "no", "reason": None}]
            say(d, "no")


def test_nobody_else_can_tell_who_the_partner_is_R9_R12():
    a, b = chiamo_deal(2), chiamo_deal(3)  # seats 2 and 3 swap the 20 and the 19
    for step in range(5):  # every answer, then the first lead
        for seat in (0, 1):
            assert a.view(seat) == b.view(seat)
        assert a.public_events() == b.public_events()
        if step < 4:
            say(a, "no")
            say(b, "no")
    assert a.view(2).get("i_am_partner") and not b.view(2).get("i_am_partner")
    assert b.view(3).get("i_am_partner") and not a.view(3).get("i_am_partner")


def test_every_view_lists_the_answers_in_order_for_the_announcements_log_R12():
    d = to_announce(3, 2, SOLO_AT_10_BY[0])
    assert all(d.view(s)["announcements"] == [] for s in range(3))
    say(d, "no", "rivanto")
    answers = [{"seat": 0, "announce": "no", "possible": True}, {"seat": 1, "announce": "rivanto", "possible": True}]
    assert all(d.view(s)["announcements"] == answers for s in (1, 2))
    say(d, "no")
    d.apply(random_action(d.copy(), random.Random(1)))  # the first card does not join the log
    # Seat 2 could not say Rivanto after seat 1's (one a deal), and everyone can tell.
    assert d.view(1)["announcements"] == answers + [{"seat": 2, "announce": "no", "possible": False}]


# --- no question without a choice (R12; issue 12: "ask only when there is a real choice") ----


def test_a_no_without_a_choice_is_automatic_and_says_whether_all_can_tell_R12():
    d = to_announce(3, 2, SOLO_AT_10_BY[0], {1: ["20"]})  # the bidder lacks the 20
    assert d.automatic() == ("no", False)  # only the bidder knows
    say(d, "no")
    assert d.automatic() is None  # seat 1 spoke after the final bid: a real choice
    say(d, "rivanto")
    assert d.automatic() == ("no", True)  # one Rivanto a deal: everyone can tell
    say(d, "no")
    assert d.automatic() is None  # play: no automatic card


def test_the_bidders_own_log_alone_says_its_scommessa_was_not_possible_R12():
    d = to_announce(3, 2, SOLO_AT_10_BY[0], {2: ["F"]})  # the bidder lacks the Fool
    say(d, "no")
    assert d.view(0)["announcements"] == [{"seat": 0, "announce": "no", "possible": False}]
    for seat in (1, 2):  # the others cannot tell it from a No by choice
        assert d.view(seat)["announcements"] == [{"seat": 0, "announce": "no", "possible": True}]
    assert d.public_events()[-1] == {"type": "announce", "seat": 0, "announce": "no"}


def test_the_hidden_partner_is_still_asked_though_its_rivanto_is_off_R9_R12():
    for partner in (2, 3):
        d = chiamo_deal(partner)
        say(d, "no")
        for seat in (1, 2, 3):  # all spoke after the final bid: each has the question
            assert d.to_act == seat and d.automatic() is None
            say(d, "no")
        # Nothing public tells the partner's No from the others'.
        assert [e.get("possible") for e in d.public_events() if e["type"] == "announce"] == [None] * 4


def test_nobody_is_asked_for_nothing_after_a_forced_call_R10_R12():
    d = to_announce(4, 3, ["passo"] * 8, {1: ["20"]})
    say(d, "no")  # the bidder
    for _ in range(3):
        assert d.automatic() == ("no", True)
        say(d, "no")


def test_a_scommessa_question_with_a_choice_is_asked_R12():
    d = to_announce(3, 2, SOLO_AT_10_BY[0], {0: ["20", "F"]})
    assert d.automatic() is None
    say(d, "scommessa")
    assert d.view(1)["announcements"] == [{"seat": 0, "announce": "scommessa", "possible": True}]
