"""The monte and the discard (R11)."""

from __future__ import annotations

import itertools
import random

import pytest

from tarocchi.games import sicilian as S
from tarocchi.games.sicilian import DISCARD, parse_action
from tarocchi.engine.cards import FOOL, KINGS, LOW_TRUMPS, TRUMPS, card, mask_of
from tarocchi.engine.game import get_game
from tarocchi.engine.playout import play_out
from tarocchi.games.sicilian import Deal, IllegalAction

from .builders import deal_of, say

MONTE = ["MC", "MO", "MS"]


def monte_seen_by(d: Deal) -> list[bool]:
    return [d.view(s)["monte"] == MONTE for s in range(d.seats)]


def three(dealer: int = 2) -> Deal:
    return deal_of(3, dealer, monte=MONTE)


def test_the_monte_is_turned_up_for_a_soloist_who_is_not_the_dealer_R11():
    d = three()
    say(d, "altre cinque", "passo", "passo", "vado solo", "passo", "passo")
    assert d.monte_up and monte_seen_by(d) == [True, True, True]
    assert d.public_events()[-1] == {"type": "monte", "seat": 0, "cards": MONTE}


def test_only_the_dealer_sees_the_monte_once_it_has_looked_at_20_cards_R5_R11():
    d = three()
    for _ in range(2):
        say(d, "altre cinque", "passo", "passo")
        assert monte_seen_by(d) == [False, False, False]  # 15 cards: nobody has looked
    say(d, "altre cinque", "passo", "passo")
    assert monte_seen_by(d) == [False, False, True]  # 20 cards: the dealer has looked


def test_the_dealer_who_looked_and_goes_solo_picks_it_up_unseen_R11():
    d = three()
    for _ in range(3):
        say(d, "altre cinque", "passo", "passo")
    say(d, "passo", "passo", "vado solo")
    assert d.bidder == 2 and not d.monte_up
    assert monte_seen_by(d) == [False, False, True]
    assert d.public_events()[-1] == {"type": "monte", "seat": 2, "cards": None}
    say(d, "discard " + " ".join(MONTE))
    play_out(d, random.Random(4))
    assert [d.view(s)["monte"] for s in range(2)] == [None, None]  # still unseen by the others


@pytest.mark.parametrize("words", [
    ["passo", "passo", "vado solo"],  # a stata: nobody has seen the monte
    ["altre cinque", "passo", "passo", "passo", "passo", "vado solo"],  # at 10: not looked yet
])
def test_a_dealer_who_has_not_looked_turns_the_monte_up_R11(words):
    d = three()
    say(d, *words)
    assert d.bidder == 2 and d.monte_up and monte_seen_by(d) == [True, True, True]


def test_four_seats_the_dealer_looks_at_15_and_a_dealer_solo_takes_it_unseen_R7_R11():
    d = deal_of(4, 3, monte=MONTE)
    say(d, "passo", "passo", "passo", "passo")
    assert monte_seen_by(d) == [False, False, False, True]
    say(d, "passo", "passo", "passo", "vado solo")
    assert not d.monte_up and monte_seen_by(d) == [False, False, False, True]


def test_four_seats_a_calling_dealer_turns_it_up_R11():
    d = deal_of(4, 3, {3: ["5B", "6B", "7B"]}, monte=MONTE)
    say(d, "passo", "passo", "passo", "passo", "passo", "passo", "passo", "chiamo")
    assert d.monte_up and monte_seen_by(d) == [True] * 4


def test_four_seats_a_dealer_stata_turns_it_up_R11():
    d = deal_of(4, 3, monte=MONTE)
    say(d, "passo", "passo", "passo", "vado solo")
    assert d.stata and d.monte_up and monte_seen_by(d) == [True] * 4


def discard_phase() -> Deal:
    # seat 0 goes solo at 10 and holds, with the monte, plenty of cards that are no trump or King
    d = deal_of(3, 2, {0: ["20", "F", "KC", "5B", "6B", "1", "7B", "8B"]}, monte=MONTE)
    say(d, "altre cinque", "passo", "passo", "vado solo", "passo", "passo")
    assert d.phase == "discard" and d.to_act == 0
    return d


@pytest.mark.parametrize("cards", ["20 MC MO", "F MC MO", "KC MC MO", "1 MC MO"])
def test_never_a_trump_the_fool_or_a_king_R11(cards):
    d = discard_phase()
    with pytest.raises(IllegalAction, match="you may not discard a trump, the Fool or a King"):
        d.apply("discard " + cards)
    assert d.phase == "discard"


def test_allowed_discards_are_every_three_of_the_other_cards_R11():
    d = discard_phase()
    hand = d.hands[0]
    free = hand & ~(TRUMPS | KINGS | (1 << FOOL))
    expected = {DISCARD | mask_of(t) for t in itertools.combinations(
        [c for c in range(63) if free >> c & 1], 3)}
    assert set(d.legal_actions()) == expected
    refused = {c["action"] for c in d.choices(0) if c["reason"]}
    assert refused == {"20", "F", "KC", "1"} | {c for c in d.view(0)["hand"] if c.isdigit()}


def test_the_discard_counts_for_the_bidder_and_is_shown_at_the_count_only_R11():
    d = discard_phase()
    say(d, "discard 5B 6B 7B")
    assert d.view(0)["discard"] == ["7B", "6B", "5B"]
    assert [d.view(s)["discard"] for s in (1, 2)] == [None, None]
    assert d.view(1)["actions"][-1] == {"seat": 0, "action": "discard"}
    say(d, "no", "no", "no")
    play_out(d, random.Random(5))
    assert {"5B", "6B", "7B"} <= set(d.count.to_json()["piles"]["bidder"])
    assert d.count.to_json()["discard"] == ["7B", "6B", "5B"]
    assert all(d.view(s)["discard"] == ["7B", "6B", "5B"] for s in range(3))


def short_hand() -> Deal:
    # seat 0: the trumps 1-20 and, from the monte, Miseria, the King and the Maid of cups: the
    # Maid is its only card that is no trump or King
    trumps = [str(n) for n in range(20, 0, -1)]
    d = deal_of(3, 2, {0: trumps}, monte=["0", "KC", "MC"])
    say(d, "vado solo", "passo", "passo")
    return d


def test_short_of_other_cards_the_rest_are_the_least_trumps_no_more_than_needed_R11():
    d = short_hand()
    low = [c for c in range(63) if LOW_TRUMPS >> c & 1]  # Miseria and 2-15
    expected = {DISCARD | mask_of(["MC"]) | (1 << a) | (1 << b) for a, b in itertools.combinations(low, 2)}
    assert set(d.legal_actions()) == expected and len(expected) == 105
    for bad in ("discard 0 2 3", "discard MC 1 2", "discard MC 16 2"):  # the Maid must go; no 1 or 16
        assert d.refusal(0, bad) == S.LOW_TRUMPS_ONLY
    assert d.refusal(0, "discard MC KC 20") == S.NO_TRUMP_DISCARD
    say(d, "discard MC 0 15")
    assert d.discarded == mask_of(["MC", "0", "15"])


def every_listed_discard_is_taken(d: Deal) -> None:
    """refusal() and apply() (on a copy) accept each discard legal_actions() lists."""
    seat = d.to_act
    for a in d.legal_actions():
        assert d.refusal(seat, a) is None
        d.copy().apply(a, seat)


RULE = get_game("sicilian").discard_rule  # R11's, through the game's facts
ALL_TRUMPS = [str(n) for n in range(20, 0, -1)]  # 1-20: with Miseria, F and KC from the monte, 23 never discarded


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_a_bidder_with_no_other_card_discards_three_low_trumps_R11(dealer):
    # issue 19: the bidder holds only trumps, the Fool and a King, so all three come from
    # Miseria and 2-15, any three of them (none must go)
    bidder = (dealer + 1) % 3
    d = deal_of(3, dealer, {bidder: ALL_TRUMPS}, monte=["0", "F", "KC"])
    say(d, "vado solo", "passo", "passo")
    assert (d.phase, d.to_act) == ("discard", bidder)
    low = [c for c in range(63) if LOW_TRUMPS >> c & 1]
    assert set(d.legal_actions()) == {DISCARD | mask_of(t) for t in itertools.combinations(low, 3)}
    assert len(d.legal_actions()) == 455
    every_listed_discard_is_taken(d)
    for bad in ("discard 16 14 13", "discard 1 14 13", "discard KC 14 13", "discard F 2 0", "discard 20 19 18"):
        assert d.refusal(bidder, bad) in (RULE.fallback_words, RULE.never_words)
    say(d, "discard 15 14 13")
    assert d.phase == "announce" and d.discarded == mask_of(["15", "14", "13"])


def test_the_rule_alone_takes_three_low_trumps_from_a_hand_of_trumps_the_fool_and_a_king_R11():
    hand = mask_of([str(n) for n in range(21)] + ["F", "KC"])  # the hand: 23 cards, none other
    assert RULE.refusal(hand, mask_of(["15", "14", "13"])) is None
    assert RULE.refusal(hand, mask_of(["0", "2", "3"])) is None
    assert RULE.refusal(hand, mask_of(["16", "14", "13"])) == RULE.fallback_words
    assert all(RULE.refusal(hand, m) is None for m in RULE.discards(hand)) and len(RULE.discards(hand)) == 455


@pytest.mark.parametrize("words", [["vado solo"], ["passo"] * 4 + ["chiamo"] + ["passo"] * 3, ["passo"] * 8])
def test_four_seats_a_bidder_with_no_other_card_still_discards_R7_R8_R10_R11(words):
    # seat 0 goes solo, calls, or is forced to call (R10: it holds the 20); its 15 and the
    # monte are trumps, the Fool and Kings: all three from Miseria and 2-15
    hand = ["20", "19", "18", "17", "16", "1", "KC", "KO", "KS", "KB", "15", "14", "13", "12", "11"]
    d = deal_of(4, 3, {0: hand}, monte=["F", "0", "2"])
    say(d, *words)
    assert (d.phase, d.to_act) == ("discard", 0)
    listed = d.legal_actions()
    assert listed and all(a & ~DISCARD & ~LOW_TRUMPS == 0 for a in listed)  # 0, 2 and 11-15: 7 low trumps
    assert len(listed) == 35
    every_listed_discard_is_taken(d)
    say(d, "discard 0 2 11")
    assert d.phase == "announce" and d.hands[0].bit_count() == 15


def test_a_second_discard_is_refused_R11():
    d = discard_phase()
    say(d, "discard 5B 6B 7B")
    with pytest.raises(IllegalAction, match="now is the time to answer yes or no"):
        d.apply("discard 8B MC MO")
    assert d.discarded == mask_of(["5B", "6B", "7B"])


def test_the_discard_is_three_cards_in_hand_R11():
    d = discard_phase()
    assert d.refusal(0, parse_action("discard 5B 6B 7B") | (1 << card("8B"))) == S.DISCARD_THREE
    assert d.refusal(0, "discard 5B 6B") == "a discard names three different cards, e.g. 'discard 5C 6O MB'"
    assert d.refusal(0, "discard 5B 6B KO") == "that card is not in your hand"
    assert d.refusal(0, "5B") == S.DISCARD_NOW
