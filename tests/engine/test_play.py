"""Trick play and the Fool (R13), and where the Fool goes at the count (R14)."""

from __future__ import annotations


from tarocchi.engine import tricks as T
from tarocchi.engine.cards import CODES, card, mask_of
from tarocchi.games.sicilian import Deal

from .builders import deal_from_tricks, deal_of, play, say

MONTE = ["8B", "7S", "7B"]


def rules_text_trick() -> Deal:
    """Seat 2 goes solo (a stata), so seat 0 leads: seat 0 the 7 of cups, seat 1 holds cups,
    seat 2 (the bidder) has no cups but trumps."""
    no_cups = ["3", "20", "19", "KO", "QO", "HO", "MO", "KS", "QS", "HS", "MS", "KB", "QB",
               "HB", "MB", "10S", "10B", "9S", "9B", "8S"]
    d = deal_of(3, 1, {0: ["7C", "6C", "5C", "4O", "F"], 1: ["9C", "10C", "6O", "7O", "16"], 2: no_cups},
                monte=MONTE)
    say(d, "vado solo", "passo", "passo", "discard " + " ".join(MONTE), "no", "no", "no")
    return d


def test_the_seat_after_the_bidder_leads_and_the_fool_cannot_lead_R13():
    d = rules_text_trick()
    assert d.phase == "play" and d.to_act == 0 and d.view(0)["leader"] == 0
    assert d.refusal(0, "F") == T.FOOL_CANNOT_LEAD == "the Fool cannot lead"
    assert "F" not in {CODES[a] for a in d.legal_actions()}


def test_the_rules_text_trick_follow_the_suit_then_play_a_trump_R13():
    d = rules_text_trick()
    say(d, "7C")
    # seat 1 holds cups: it must follow, with any cup (nobody has to beat)
    assert d.refusal(1, "16") == T.FOLLOW_SUIT == "follow the suit"
    assert d.refusal(1, "6O") == T.FOLLOW_SUIT
    assert d.refusal(1, "9C") is None and d.refusal(1, "10C") is None
    assert {CODES[a] for a in d.legal_actions()} <= {c for c in d.view(1)["hand"] if c.endswith("C")}
    say(d, "9C")
    # seat 2 has no cups but trumps: it must play one, any one
    assert d.refusal(2, "KO") == T.PLAY_TRUMP == "play a trump"
    assert {CODES[a] for a in d.legal_actions()} == {"3", "20", "19"}
    say(d, "3")
    assert d.last_trick == (0, [card("7C"), card("9C"), card("3")], 2)
    assert d.to_act == 2  # the winner leads next


def test_trumps_led_must_be_followed_with_trumps_and_the_fool_is_always_allowed_R13():
    d = rules_text_trick()
    say(d, "7C", "9C", "3", "20")
    assert d.refusal(0, "6C") == T.FOLLOW_SUIT  # seat 0 holds trumps from the filler
    assert d.refusal(0, "F") is None  # the excuse, instead of following
    assert d.refusal(1, "16") == "it is not your turn"


def test_without_the_suit_or_a_trump_anything_goes_and_the_fool_is_no_suit_R13():
    hand = mask_of(["KO", "5B", "F"])
    assert T.legal_cards(hand, [card("7C")]) == hand
    assert T.legal_cards(mask_of(["F", "4"]), [card("7C")]) == mask_of(["F", "4"])
    assert T.refusal(mask_of(["F", "4", "KO"]), card("KO"), [card("7C")]) == T.PLAY_TRUMP
    assert T.refusal(mask_of(["KO"]), card("KC"), [card("7C")]) == T.NOT_IN_HAND


def test_a_fool_led_lets_the_second_card_fix_the_suit_R13():
    fool = card("F")
    assert T.legal_cards(mask_of(["7C", "3", "KO"]), [fool]) == mask_of(["7C", "3", "KO"])
    assert T.legal_cards(mask_of(["7C", "3", "KO"]), [fool, card("9C")]) == mask_of(["7C"])
    assert T.refusal(mask_of(["7C", "3"]), card("3"), [fool, card("9C")]) == T.FOLLOW_SUIT
    assert T.trick_winner([fool, card("6B"), card("KC")]) == 1
    assert T.trick_winner([card("6B"), fool, card("MB")]) == 2  # the Fool never wins
    assert T.trick_winner([fool, card("6B"), card("0")]) == 2


# Three seats, seat 0 the bidder (a stata), seat 2 the dealer. Seven tricks of trumps won by
# seat 1, twelve suit tricks won by seat 2, who is left with the Fool and leads it: seat 0's
# 6 of batons fixes the suit and beats seat 1's King of cups.
FOOL_LEADS_LAST = [
    *[[str(20 - k), str(6 - k), str(13 - k)] for k in range(7)],
    ["5C", "QC", "6C"], ["HC", "7C", "8C"], ["MC", "9C", "10C"],
    ["KS", "6S", "7S"], ["QS", "8S", "9S"], ["HS", "10S", "MS"],
    ["KO", "6O", "7O"], ["QO", "8O", "9O"], ["HO", "10O", "MO"],
    ["KB", "5B", "7B"], ["QB", "8B", "9B"], ["HB", "10B", "MB"],
    ["F", "6B", "KC"],
]
FOOL_MONTE = ["5S", "4O", "5O"]


def test_the_fool_may_lead_as_the_last_card_and_the_second_card_fixes_the_suit_R13():
    d = deal_from_tricks(3, 2, 0, FOOL_LEADS_LAST, FOOL_MONTE, FOOL_MONTE)
    say(d, "vado solo", "passo", "passo", "discard " + " ".join(FOOL_MONTE), "no", "no", "no")
    play(d, FOOL_LEADS_LAST[:8])
    assert d.to_act == 2 and d.refusal(2, "F") == T.FOOL_CANNOT_LEAD  # while it holds more
    play(d, FOOL_LEADS_LAST[8:-1])
    assert d.to_act == 2 and d.legal_actions() == [card("F")]
    play(d, FOOL_LEADS_LAST[-1:])
    assert d.last_trick[2] == 0  # the 6 of batons, not the King of cups
    # R14: the Fool's side (seats 1 and 2) won tricks, so the Fool is theirs
    assert "F" in d.count.to_json()["piles"]["others"]


def slam_tricks(bidder_has_trumps: bool) -> list[list[str]]:
    """Every trick to one seat: the one holding the trumps 1-20. Seat 1 leads first; seat 0
    is the bidder. The seat without trumps also holds the Fool and throws it in trick 5; the
    third holds Miseria, which it must play to the first trumps led."""
    suits = [c for c in CODES[22:] if c not in MONTE]  # 38 suit cards
    a, b = suits[:19], suits[19:]  # a: the cups and low coins; b: high coins, swords, batons
    trumps = [str(n) for n in range(20, 0, -1)]
    throws = b[:4] + ["F"] + b[4:]  # 20 cards with the Fool fifth
    if bidder_has_trumps:  # seat 1: Miseria and a; seat 2: the Fool and b
        first = [a[0], throws[0], trumps[0]]  # seat 2 has no cups or trumps; seat 0 trumps
        return [first] + [[trumps[k], "0" if k == 1 else a[k - 1], throws[k]] for k in range(1, 20)]
    # seat 1: the trumps; seat 2: Miseria and b; seat 0, the bidder: the Fool and a
    own = a[:4] + ["F"] + a[4:]
    return [[trumps[k], "0" if k == 0 else b[k - 1], own[k]] for k in range(20)]


def test_the_fool_of_a_side_without_tricks_goes_to_the_side_that_took_it_bidder_wins_all_R14():
    tricks = slam_tricks(bidder_has_trumps=True)
    d = deal_from_tricks(3, 2, 0, tricks, MONTE, MONTE)
    say(d, "altre cinque", "passo", "passo", "vado solo", "passo", "passo")
    say(d, "discard " + " ".join(MONTE), "no", "no", "no")
    play(d, tricks)
    c = d.count
    assert d.tricks_won == [20, 0, 0] and d.fool_by == 2
    assert c.to_json()["piles"]["others"] == [] and c.card_points == {"bidder": 109, "others": 0}
    # and all the extras: every King, the arie with the 20; no pigliata, the trumps were its own
    assert sorted((j.side, j.name) for j in c.jochi) == [
        ("bidder", "arie"), ("bidder", "arie_20"), ("bidder", "kings"), ("bidder", "rimatura"),
        ("bidder", "vanto")]
    assert c.payments == [10, -5, -5]


def test_the_fool_of_a_side_without_tricks_goes_to_the_side_that_took_it_bidder_wins_none_R14():
    tricks = slam_tricks(bidder_has_trumps=False)
    d = deal_from_tricks(3, 2, 0, tricks, MONTE, MONTE)
    say(d, "altre cinque", "passo", "passo", "vado solo", "passo", "passo")
    say(d, "discard " + " ".join(MONTE), "no", "no", "no")
    play(d, tricks)
    c = d.count
    assert d.tricks_won == [0, 20, 0] and d.fool_by == 0
    # the discard is not a trick (R14): the bidder's side keeps it, but the Fool goes over
    assert set(c.to_json()["piles"]["bidder"]) == set(MONTE)
    assert "F" in c.to_json()["piles"]["others"]
    assert sorted((j.side, j.name) for j in c.jochi) == [
        ("others", "arie"), ("others", "arie_20"), ("others", "kings"), ("others", "rimatura"),
        ("others", "vanto")]
    assert c.payments == [-10, 5, 5]
