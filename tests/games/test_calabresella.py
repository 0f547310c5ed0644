"""Calabresella with Sicilian cards, ruling by ruling (CALABRESELLA.md C1-C22) and the
hand-built cases K1-K10, each a real deal built from a chosen deck order
(tests/games/calabresella_builders.py)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from tarocchi.engine import cards, tricks
from tarocchi.engine.game import IllegalAction
from tarocchi.engine.playout import play_out, random_action
from tarocchi.games.calabresella import (
    COUNTING, DECK, LAY, RULES, Deal, Options, action_text, match_over, match_winners, parse_action,
)

from .calabresella_builders import dealt, deck_order, played, won_by

TRUMP_TRIPLES = [("20", "19", "18"), ("17", "16", "15"), ("14", "13", "12"), ("11", "10", "9"), ("8", "7", "6"),
                 ("5", "4", "3"), ("2", "1", "0")]


def mask(*codes: str) -> int:
    return DECK.mask_of(codes)


def codes(m: int) -> list[str]:
    return DECK.codes_of(m)


def finish(d: Deal, seed: int = 0) -> Deal:
    return play_out(d, random.Random(seed))


def bid_deal(words: list[str], dealer: int = 0, seed: int = 1) -> Deal:
    d = Deal.from_seed(dealer, seed)
    for w in words:
        d.apply(w)
    return d


# --- the reading, the cards (C1-C5) -------------------------------------------------------

def test_C1_C4_the_deck_and_the_trick_rules_are_sicilians_own_values_not_copies():
    assert DECK is cards.DECK and RULES is tricks.SICILIAN  # R1, R13 reused
    assert DECK.size == 63 and DECK.codes[:22] == [str(n) for n in range(21)] + ["F"]
    suits = {s.letter: s.ranks for s in DECK.suits}
    assert suits["O"] == ("4", "5", "6", "7", "8", "9", "10", "M", "H", "Q", "K")  # coins also 4
    assert all(suits[s] == ("5", "6", "7", "8", "9", "10", "M", "H", "Q", "K") for s in "CSB")
    # ranking (R13): 20 high .. Miseria; K Q H M 10 .. 5 (4)
    assert RULES.winner([DECK.card(c) for c in ("0", "KC", "QC")]) == 0
    assert RULES.winner([DECK.card(c) for c in ("5C", "MC", "10C")]) == 1


def test_C2_C3_63_cards_force_20_each_and_a_3_card_monte_not_40_cards_or_4():
    d = Deal.from_seed(0, 3)
    assert [d.hand_size(s) for s in range(3)] == [20, 20, 20] and d.monte.bit_count() == 3
    assert (63 - 4) % 3 != 0  # C3: a 4-card monte leaves 59
    with pytest.raises(ValueError, match="63 cards"):
        Deal(3, 0, list(range(40)))  # C3: no 40-card strip
    with pytest.raises(ValueError, match="three seats"):
        Deal(4, 0, list(range(63)))  # C6


def test_C5_points_are_R2s_and_the_two_sides_make_109_with_the_last_trick():
    assert DECK.points(mask("20", "1", "F")) == 28  # 10 + 10 + 10 - 2
    assert DECK.points(mask("KC", "QO", "HS", "MB", "16")) == 5 + 4 + 3 + 2 + 5 - 2 - 1
    assert DECK.points(mask("5C", "6C", "7C")) == 1  # three blanks make one point
    rng = random.Random(5)
    for _ in range(300):  # every split of the 63
        half = sum(1 << c for c in rng.sample(range(63), rng.randrange(64)))
        assert DECK.points(half) + DECK.points(DECK.full & ~half) + 5 == 109


# --- seats, deal and auction (C6-C9) --------------------------------------------------------

def test_C6_one_challenger_against_two_who_share_one_pile():
    d = c22_deal()
    c = d.count
    assert d.challenger == 1 and [d.side_of(s) for s in range(3)] == [1, 0, 1]
    assert c.piles[1] == d.won[0] | d.won[2] | DECK.fool_bit  # the two opponents' tricks, one pile
    assert c.payments[0] == c.payments[2] == -c.payments[1] // 2
    assert d.view(2)["challenger"] == 1 and d.view(2)["contract"] == "solo"


def test_C7_packets_of_five_from_dealer_plus_one_and_the_last_three_the_monte():
    order = list(range(63))
    for dealer in range(3):
        d = Deal(3, dealer, order)
        for seat in range(3):
            k = (seat - dealer - 1) % 3
            assert d.hands[seat] == sum(1 << c for r in range(4) for c in range(15 * r + 5 * k, 15 * r + 5 * k + 5))
        assert d.monte == (1 << 60) | (1 << 61) | (1 << 62) and d.monte_order == [60, 61, 62]


def test_C7_C21_each_deal_thrown_in_or_not_is_dealt_by_the_next_seat():
    from tarocchi.engine.match import Match
    from tarocchi.games.calabresella import CALABRESELLA

    m = Match(3, first_dealer=2, game=CALABRESELLA)
    d = m.start_deal(random.Random(1))
    for _ in range(3):
        d.apply("passo")  # thrown in (C9): still a deal, the next seat deals
    assert d.done and d.returns() == [0, 0, 0]
    d = m.start_deal(random.Random(2))
    assert d.dealer == 0 and d.to_act == 1


def test_C8_the_auction_once_each_from_dealer_plus_one_low_to_high():
    d = Deal.from_seed(dealer=1, seed=2)
    assert d.phase == "speak" and d.to_act == 2
    assert d.refusal(0, "passo") == "it is not your turn"
    assert d.refusal(2, "sta bene") == "nobody has bid yet: passo or a bid"
    assert d.reason(2, "sta bene").id == "sta_bene_no_bid"
    d.apply("passo")
    d.apply("chiamo")
    assert d.refusal(1, "passo") == "there is a bid: sta bene or a higher bid"
    assert d.reason(1, "chiamo").id == "bid_above_chiamo" and d.refusal(1, "chiamo") == "bid higher than chiamo"
    with pytest.raises(IllegalAction) as e:
        d.apply("passo", 1)
    assert e.value.reason_id == "passo_after_bid" and d.to_act == 1
    choices = {c["action"]: c["reason_id"] for c in d.view(1)["choices"]}
    assert choices == {"passo": "passo_after_bid", "sta bene": None, "chiamo": "bid_above_chiamo", "vado solo": None,
                       "vado solissimo": None, "vado solissimo dividete": None, "vado solissimo scegliete": None}
    d.apply("vado solo")  # the dealer speaks last
    assert d.challenger == 1 and d.phase == "discard"


def test_C8_after_vado_solo_only_sta_bene_or_solissimo():
    d = bid_deal(["vado solo"])
    assert d.refusal(2, "chiamo") == d.refusal(2, "vado solo") == "bid higher than vado solo"
    assert d.reason(2, "vado solo").id == "bid_above_solo"
    assert d.refusal(2, "vado solissimo dividete") is None


def test_C9_K2_the_highest_bid_stands_solissimo_ends_it_three_passes_throw_in():
    d = bid_deal(["chiamo", "vado solo", "sta bene"])  # K2: seat 2 plays solo
    assert (d.challenger, d.view(0)["contract"], d.view(0)["stake"]) == (2, "solo", 4)
    d = bid_deal(["passo", "vado solissimo scegliete"])  # K2: over, seat 0 is not asked
    assert d.challenger == 2 and d.phase == "take" and [s for s, _ in d.history] == [1, 2]
    d = bid_deal(["vado solissimo"])  # solissimo at once: nobody after it speaks
    assert d.phase == "play" and len(d.history) == 1
    d = bid_deal(["passo", "passo", "passo"])  # K2: thrown in
    assert d.done and d.thrown_in and d.returns() == [0, 0, 0]
    assert d.view(1)["thrown_in"] and d.view(1)["count"] == {"thrown_in": True, "payments": [0, 0, 0]}
    assert d.view(1)["hand"] == codes(d.hands[1]) and d.view(1)["monte"] is None  # no hand is shown


# --- chiamo (C10) ---------------------------------------------------------------------------

def chiamo(holder_hand: list[str], monte: list[str] = (), caller_hand: list[str] = ()) -> Deal:
    """Seat 0 deals, seat 1 says chiamo, the others sta bene; seat 2 holds ``holder_hand``."""
    d = dealt(0, {1: list(caller_hand), 2: list(holder_hand)}, monte)
    for w in ("chiamo", "sta bene", "sta bene"):
        d.apply(w)
    assert d.phase == "call" and d.to_act == 1
    return d


def test_C10_K3_the_called_card_comes_over_face_up_the_monte_is_taken_one_goes_back():
    d = chiamo(["20", "KC"], monte=["5C", "6C", "7C"], caller_hand=["F", "19"])
    assert d.refusal(1, "chiamo 19") == "you hold that card: call one you do not hold"
    assert d.reason(1, "chiamo F").id == "call_own_card"
    refused = [c["action"] for c in d.view(1)["choices"] if c["reason"]]
    assert refused == ["chiamo " + c for c in d.view(1)["hand"]] and len(d.view(1)["choices"]) == 63
    d.apply("chiamo 20")
    assert d.hand_size(1) == 24 and d.hand_size(2) == 19  # K3: 21, 24 with the monte
    for seat in range(3):  # the called card, its giver and the monte are public
        v = d.view(seat)
        assert (v["called"], v["giver"], v["monte"]) == ("20", 2, ["7C", "6C", "5C"])
    assert d.phase == "give" and d.refusal(1, "restituisco 20") == "you may not give back the called card"
    assert d.reason(1, "restituisco 20").id == "give_called_card"
    assert d.refusal(1, "restituisco 5C") is None and d.refusal(1, "restituisco F") is None  # any other card
    d.apply("restituisco F")
    assert d.hand_size(2) == 20 and d.hands[2] >> DECK.fool & 1 and d.view(0)["given_back"] == "F"
    assert d.phase == "discard" and d.view(1)["lay"] == 3
    d.apply("scarto 5C 6C 7C")
    assert [d.hand_size(s) for s in range(3)] == [20, 20, 20] and d.phase == "play"
    assert d.view(1)["laid"][1] == ["7C", "6C", "5C"] and d.view(0)["laid"][1] is None  # face down
    assert d.view(0)["actions"][-1]["action"] == "scarto" and d.view(1)["actions"][-1]["action"] == "scarto 7C 6C 5C"
    finish(d)
    assert d.view(0)["laid"][1] == ["7C", "6C", "5C"]  # shown at the count


def test_C10_K4_a_called_card_in_the_monte_gives_nothing_either_way():
    d = chiamo([], monte=["5C", "20", "7C"])
    d.apply("chiamo 20")
    assert d.giver == -1 and d.view(2)["giver"] is None and d.view(2)["called"] == "20"
    assert d.hand_size(1) == 23 and d.hand_size(2) == 20 and d.phase == "discard"  # K4
    assert d.refusal(1, "restituisco 5C") == "now is the time to lay cards face down: scarto and the cards"
    d.apply("scarto 5C 7C " + next(c for c in codes(d.hands[1]) if not c[0].isdigit() and c[0] not in "KF"))
    assert d.hand_size(1) == 20


def test_C10_the_give_back_may_be_a_king_a_trump_or_a_monte_card():
    d = chiamo(["20"], monte=["KB", "6C", "7C"], caller_hand=["KC", "3"])
    d.apply("chiamo 20")
    assert all(d.refusal(1, f"restituisco {c}") is None for c in ("KC", "3", "KB", "6C"))


# --- solo and solissimo (C11, C12) ----------------------------------------------------------

def test_C11_solo_turns_the_monte_up_for_all_and_lays_three_back():
    d = dealt(0, {}, monte=["5C", "6O", "7S"])
    d.apply("vado solo"); d.apply("sta bene"); d.apply("sta bene")
    assert all(d.view(s)["monte"] == ["5C", "6O", "7S"] for s in range(3)) and d.hand_size(1) == 23
    d.apply("scarto 5C 6O 7S")
    assert d.monte == mask("5C", "6O", "7S") and d.hand_size(1) == 20


def test_C11_plain_solissimo_leaves_the_monte_face_down_unseen_until_the_count():
    d = dealt(0, {}, monte=["5C", "6O", "7S"])
    d.apply("vado solissimo")
    assert d.phase == "play" and d.hand_size(1) == 20
    assert all(d.view(s)["monte"] is None for s in range(3))
    finish(d)
    assert d.view(0)["count"]["monte"] == ["5C", "6O", "7S"]


def test_C11_K6_dividete_cards_1_2_to_the_seat_after_the_challenger_3_to_the_other_each_sees_his_own():
    d = dealt(0, {}, monte=["5C", "6O", "7S"])  # deck order: 5C, 6O, then 7S
    d.apply("passo"); d.apply("vado solissimo dividete")  # seat 2 challenges
    first, second = 0, 1
    assert [d.hand_size(s) for s in range(3)] == [22, 21, 20]  # K6
    assert d.hands[first] & mask("5C", "6O") == mask("5C", "6O") and d.hands[second] >> DECK.card("7S") & 1
    assert d.view(first)["taken"] == [["5C", "6O"], None, None] and d.view(second)["taken"] == [None, ["7S"], None]
    assert d.view(2)["taken"] == [None, None, []] and all(d.view(s)["monte"] is None for s in range(3))
    assert (d.phase, d.to_act, d.view(first)["lay"]) == ("lay", first, 2)
    assert all(c["action"].startswith("scarto ") and len(c["action"].split()) == 3 for c in d.view(first)["choices"])
    assert d.refusal(second, "scarto 7S") == "it is not your turn"  # the seat after the challenger first
    assert d.refusal(first, "scarto 5C") == "lay two cards face down"
    assert d.refusal(first, "scarto 7S 5C") == "that card is not in your hand"  # the other's card: not his
    d.apply("scarto 5C 6O")
    other = next(c for c in codes(d.hands[second]) if c != "7S" and not c[0].isdigit() and c[0] not in "KF")
    assert (d.phase, d.to_act) == ("lay", second) and d.reason(second, f"scarto 7S {other}").id == "lay_one"
    d.apply("scarto 7S")
    assert [d.hand_size(s) for s in range(3)] == [20, 20, 20] and d.phase == "play"  # K6: back to 20


def scegliete(monte: list[str], hands: dict[int, list[str]] | None = None) -> Deal:
    d = dealt(0, hands or {}, monte=monte)
    d.apply("vado solissimo scegliete")  # seat 1 challenges; seat 2 chooses first, then seat 0
    return d


def test_C12_scegliete_turned_up_each_opponent_takes_once_and_lays_as_many():
    d = scegliete(["5C", "6O", "7S"])
    assert all(d.view(s)["monte"] == ["5C", "6O", "7S"] for s in range(3))
    assert (d.phase, d.to_act) == ("take", 2)
    takes = [c["action"] for c in d.view(2)["choices"]]
    assert len(takes) == 8 and takes[0] == "passo" and "prendo 5C 6O 7S" in takes
    d.apply("prendo 5C 7S")
    assert d.view(0)["taken"][2] == ["5C", "7S"] and d.view(0)["monte_face_up"] == ["6O"]  # a public take
    assert (d.phase, d.view(2)["lay"]) == ("lay", 2)
    assert d.refusal(2, "scarto 5C 7S") is None  # a card just taken may go back
    mine = next(c for c in codes(d.hands[2]) if c not in ("5C", "7S") and not c[0].isdigit() and c[0] not in "KF")
    d.apply(f"scarto 5C {mine}")
    assert d.monte == mask("6O", "5C", mine) and d.view(0)["monte_face_up"] == ["6O"]
    assert (d.phase, d.to_act) == ("take", 0)
    assert d.refusal(0, "prendo 5C") == "take only cards lying face up in the monte"  # laid face down
    assert d.reason(0, "prendo 5C").id == "take_not_face_up"
    assert [c["action"] for c in d.view(0)["choices"]] == ["passo", "prendo 6O"]
    d.apply("prendo 6O")
    assert d.phase == "lay" and d.view(0)["lay"] == 1
    d.apply("scarto 6O")
    assert d.phase == "play" and d.view(1)["monte_face_up"] == []  # laid back: face down
    assert [d.hand_size(s) for s in range(3)] == [20, 20, 20]


def test_C12_an_empty_take_lays_nothing_and_three_taken_lay_three():
    d = scegliete(["5C", "6O", "7S"])
    d.apply("prendo 5C 6O 7S")
    assert d.phase == "discard" and d.view(2)["lay"] == 3  # three: the card-by-card lay
    d.apply("scarto 5C 6O 7S")
    assert (d.phase, d.to_act, d.view(0)["choices"]) == ("take", 0, [
        {"action": "passo", "reason": None, "reason_id": None}])  # nothing face up: still a take
    d.apply("passo")
    assert d.phase == "play"


# --- the lay (C13) --------------------------------------------------------------------------

def test_C13_K5_never_a_trump_the_fool_or_a_king_unless_short():
    d = dealt(0, {1: ["KC", "F", "0", "7", "QC", "5S", "6S"]}, monte=["8S", "9S", "10S"])
    d.apply("vado solo"); d.apply("sta bene"); d.apply("sta bene")
    for bad in ("KC", "F", "0", "7"):
        assert d.refusal(1, f"scarto QC 5S {bad}") == "you may not lay a trump, the Fool or a King"
        assert d.reason(1, f"scarto QC 5S {bad}").id == "lay_forbidden"
    assert d.refusal(1, "scarto QC 5S 6S") is None and d.refusal(1, "scarto QC 5S") == "lay three cards face down"
    refused = {c["action"] for c in d.view(1)["choices"] if c["reason"]}
    assert {"KC", "F", "0", "7"} <= refused and not {"QC", "5S"} & refused
    # K5: a seat whose only other card is 5S lays it and two of Miseria / trumps 2-15
    hand = [str(n) for n in range(20)]
    d = dealt(0, {1: hand}, monte=["20", "F", "5S"])
    d.apply("vado solo"); d.apply("sta bene"); d.apply("sta bene")
    assert d.refusal(1, "scarto 5S 0 2") is None and d.refusal(1, "scarto 5S 15 14") is None
    for bad in ("5S 1 2", "5S 16 2", "5S 20 2", "5S F 2"):
        assert d.reason(1, f"scarto {bad}").id in ("lay_fallback", "lay_forbidden")
    assert d.refusal(1, "scarto 0 2 3") == "only Miseria and trumps 2 to 15, and no more than you must"
    assert all(a & mask("5S") for a in d.legal_actions())


LOW = [str(n) for n in range(16) if n != 1]  # C13: Miseria and trumps 2-15


def every_listed_lay_is_taken(d: Deal) -> list[int]:
    """refusal() and apply() (on a copy) accept each lay legal_actions() lists."""
    seat, listed = d.to_act, d.legal_actions()
    for a in listed:
        assert d.refusal(seat, a) is None
        d.copy().apply(a, seat)
    return listed


def test_C13_a_challenger_with_no_other_card_lays_three_of_miseria_and_2_to_15():
    d = dealt(0, {1: [str(n) for n in range(1, 21)]}, monte=["0", "F", "KC"])  # 23 never laid
    d.apply("vado solo"); d.apply("sta bene"); d.apply("sta bene")
    assert (d.phase, d.to_act) == ("discard", 1)
    listed = every_listed_lay_is_taken(d)
    assert {a - LAY for a in listed} == {mask(*t) for t in combinations(LOW, 3)}
    for bad in ("1 2 3", "16 2 3", "KC 2 3", "F 2 3"):
        assert d.reason(1, f"scarto {bad}").id in ("lay_fallback", "lay_forbidden")
    d.apply("scarto 15 14 0")
    assert d.phase == "play"


def test_C13_dividete_opponents_with_no_other_card_lay_two_then_one_of_miseria_and_2_to_15():
    # seat 1 challenges; seat 2 takes monte cards 1-2 and lays 2, seat 0 takes card 3 and lays 1 (C11)
    d = dealt(0, {2: [str(n) for n in range(1, 21)]}, monte=["0", "F", "KC"])  # seat 2: 22 never laid
    d.apply("vado solissimo dividete")
    assert (d.phase, d.to_act) == ("lay", 2)
    listed = every_listed_lay_is_taken(d)
    assert {a - LAY for a in listed} == {mask(*t) for t in combinations(LOW, 2)}
    assert d.refusal(2, "scarto 16 2") == "only Miseria and trumps 2 to 15, and no more than you must"
    d.apply("scarto 0 2")
    d = dealt(0, {0: [str(n) for n in range(1, 21)]}, monte=["5C", "6C", "0"])  # seat 0: 21 never laid
    d.apply("vado solissimo dividete"); d.apply("scarto 5C 6C")
    assert (d.phase, d.to_act) == ("lay", 0)
    listed = every_listed_lay_is_taken(d)
    assert {a - LAY for a in listed} == {mask(c) for c in LOW}
    assert d.refusal(0, "scarto 1") == "you may not lay a trump, the Fool or a King"  # 1 is no fallback
    d.apply("scarto 0")
    assert d.phase == "play"


@pytest.mark.parametrize("take", ["0", "0 F", "0 F KC"])
def test_C13_scegliete_an_opponent_with_no_other_card_lays_as_many_of_miseria_and_2_to_15(take):
    d = dealt(0, {2: [str(n) for n in range(1, 21)]}, monte=["0", "F", "KC"])
    d.apply("vado solissimo scegliete")
    d.apply(f"prendo {take}")
    n = len(take.split())
    assert d.to_act == 2 and d.view(2)["lay"] == n
    listed = every_listed_lay_is_taken(d)
    assert {a - LAY for a in listed} == {mask(*t) for t in combinations(LOW, n)}


# --- the monte to the last trick, play (C14, C15) -------------------------------------------

def test_C14_the_monte_and_a_fool_in_it_go_to_the_winner_of_the_last_trick():
    d = dealt(0, {}, monte=["F", "5C", "KS"])
    d.apply("vado solissimo")
    finish(d, 4)
    c = d.count
    last_side = d.side_of(d.last_trick[2])
    assert c.monte == mask("F", "5C", "KS") and c.monte_to == last_side and c.fool_to == last_side
    assert c.piles[last_side] & c.monte == c.monte and not c.piles[1 - last_side] & c.monte


def test_C15_dealer_plus_one_leads_whoever_the_challenger_is_and_R13_follows():
    d = bid_deal(["passo", "vado solissimo"], dealer=2)  # seat 1 challenges; seat 0 leads
    assert d.to_act == 0 and d.view(0)["leader"] == 0
    d = dealt(2, {0: ["F", "7C"]})
    d.apply("vado solissimo")
    assert d.refusal(0, "F") == "the Fool cannot lead" and d.reason(0, "F").id == "fool_cannot_lead"
    d = dealt(0, {1: ["7C"], 2: ["9C", "3", "KO"], 0: ["5", "KB"]}, monte=["5C", "6C", "8C"])
    d.apply("vado solissimo")
    d.apply("7C")
    assert d.refusal(2, "3") == "follow the suit" and d.reason(2, "3").id == "follow_suit"
    assert d.refusal(2, "9C") is None
    d.apply("9C")
    no_cups = d.hands[0] & DECK.suit_masks[0] == 0
    assert no_cups and d.reason(0, "KB").id == "play_trump"
    choices = {c["action"]: c["reason_id"] for c in d.view(0)["choices"]}
    assert choices["KB"] == "play_trump" and choices["5"] is None
    finish(d)
    assert sum(d.tricks_won) == 20


# --- the count (C16-C20), K1 K7 K8 K9 and the worked example C22 ----------------------------

C22_STEPS = ["vado solo", "sta bene", "sta bene", "scarto 5C 5S 5B"]
C22_MONTE = ["5C", "5S", "5B"]
C22_CHALLENGER_TRICKS = [won_by(1, *t) for t in (
    ("20", "2", "1"), ("19", "4", "3"), ("18", "6", "5"), ("KC", "10C", "9C"), ("8C", "7C", "6C"),
    ("KS", "10S", "9S"), ("8S", "7S", "6S"), ("HB", "10B", "9B"), ("8B", "7B", "6B"))]
C22_OPPONENT_TRICKS = [won_by(w, *t) for w, t in (
    (2, ("17", "7", "0")), (0, ("16", "9", "8")), (2, ("15", "11", "10")), (0, ("14", "13", "12")),
    (2, ("QC", "HC", "MC")), (0, ("QS", "HS", "MS")), (2, ("KB", "QB", "MB")))]


def c22_deal() -> Deal:
    """C22: seat 0 deals, seat 1 plays solo and wins the last trick: 10 tricks + the monte."""
    fool = {1: "7O", 2: "8O", 0: "F"}  # seat 1 leads; seat 2 wins; seat 0's Fool stays his side's
    plan = ([fool] + C22_OPPONENT_TRICKS + [won_by(0, "KO", "HO", "MO"), won_by(2, "6O", "5O", "4O")]
            + C22_CHALLENGER_TRICKS + [won_by(1, "QO", "10O", "9O")])
    return played(0, plan, C22_MONTE, C22_STEPS)


def c22_lost_deal() -> Deal:
    """C22 with QO in the opponents' pile: 32 cards against 31."""
    fool = {1: "8O", 2: "7O", 0: "F"}  # seat 1 wins it; seat 0's Fool goes back to his side (R14)
    plan = ([fool] + C22_OPPONENT_TRICKS + [won_by(0, "KO", "QO", "HO"), won_by(2, "MO", "10O", "9O"),
                                             won_by(0, "6O", "5O", "4O")] + C22_CHALLENGER_TRICKS)
    return played(0, plan, C22_MONTE, C22_STEPS)


def test_C22_K7_the_worked_example_55_wins_plus_4_minus_2_each():
    d = c22_deal()
    c = d.count
    assert d.last_trick[2] == 1 and c.tricks == [10, 10]
    assert sorted(codes(c.piles[0] & COUNTING)) == sorted("20 1 19 18 KC KS QO HB".split())
    assert c.piles[0].bit_count() == 33 and c.piles[1].bit_count() == 30
    j = c.to_json()
    assert sorted(j["sides"][1]["counting"]) == sorted("F 17 16 KO KB QC QS QB HC HO HS MC MO MS MB".split())
    assert [s["blanks"] for s in j["sides"]] == [25, 15]
    assert c.points == [55, 54] and sum(c.points) == 109  # K1
    assert c.won and c.payments == [-2, 4, -2] == d.returns()
    assert (j["line"], j["contract"], j["stake"], j["multiplier"]) == (55, "solo", 4, 1)


def test_C22_K7_with_QO_among_the_opponents_52_loses_minus_4_plus_2_each():
    d = c22_lost_deal()
    c = d.count
    assert c.piles[0].bit_count() == 32 and c.piles[1].bit_count() == 31 and c.fool_to == 1
    assert c.points == [52, 57] and not c.won and c.payments == [2, -4, 2]


def k8_cappotto() -> Deal:
    """K8: seat 0 deals, seat 2 plays solo; the opponents win two tricks of blanks, one with the
    challenger's own Fool in it (back to him, R14); he wins the other 18, the last mixed."""
    plan = [{1: "10C", 2: "F", 0: "9C"}, {1: "8C", 2: "6C", 0: "7C"}]
    plan += [won_by(2, *t) for t in TRUMP_TRIPLES + [
        ("KC", "QC", "HC"), ("KO", "QO", "HO"), ("MO", "10O", "9O"), ("8O", "7O", "6O"),
        ("QS", "HS", "MS"), ("10S", "9S", "8S"), ("7S", "6S", "5S"),
        ("KB", "QB", "HB"), ("MB", "10B", "9B"), ("8B", "7B", "6B")]]
    plan.append({2: "KS", 1: "5C", 0: "4O"})  # the last trick, one card each: KS wins
    return played(0, plan, ["MC", "5O", "5B"], ["passo", "vado solo", "sta bene", "scarto MC 5O 5B"])


def test_C19_K8_cappotto_all_23_counting_cards_doubles_plus_8_minus_4():
    d = k8_cappotto()
    c = d.count
    assert c.piles[0].bit_count() == 58 and c.piles[1] == mask("10C", "9C", "8C", "7C", "6C")
    assert c.points == [107, 2] and c.fool_to == 0
    assert c.cappotto == 0 and c.stramazzo == -1 and c.multiplier == 2
    assert c.payments == [-4, -4, 8]


STRAMAZZO_TRICKS = [won_by(1, *t) for t in TRUMP_TRIPLES + [
    ("KC", "QC", "HC"), ("MC", "10C", "9C"), ("8C", "7C", "6C"), ("KO", "QO", "HO"), ("MO", "8O", "7O"),
    ("6O", "5O", "4O"), ("KS", "QS", "HS"), ("MS", "10S", "9S"), ("8S", "7S", "6S"),
    ("KB", "QB", "HB"), ("MB", "10B", "9B"), ("8B", "7B", "6B")]]


def k8_stramazzo(steps: list[str]) -> Deal:
    """K8: seat 1 wins all 20 tricks; seat 0's Fool goes into one and, his side winning none,
    to seat 1 (R14)."""
    plan = [{1: "10O", 2: "9O", 0: "F"}] + STRAMAZZO_TRICKS
    return played(0, plan, ["5C", "5S", "5B"], steps)


@pytest.mark.parametrize(("steps", "payments"), [
    (["vado solo", "sta bene", "sta bene", "scarto 5C 5S 5B"], [-6, 12, -6]),
    (["vado solissimo scegliete", "passo", "passo"], [-48, 96, -48]),
])
def test_C19_C20_K8_stramazzo_every_trick_triples_and_replaces_cappotto(steps, payments):
    d = k8_stramazzo(steps)
    c = d.count
    assert c.piles[0] == DECK.full and c.tricks == [20, 0] and c.fool_to == 0
    assert c.stramazzo == 0 and c.cappotto == 0 and c.multiplier == 3  # x3, never x6
    assert c.payments == payments


def opponents_stramazzo() -> Deal:
    """The opponents (seats 1 and 0) win every trick of seat 2's plain solissimo; seat 2's Fool
    goes to them, his side winning none (R14); the unseen monte goes to them too (C14)."""
    plan = [{1: "10O", 0: "9O", 2: "F"}] + [won_by(1 if i % 2 else 0, *t.values()) for i, t in enumerate(STRAMAZZO_TRICKS)]
    return played(0, plan, ["5C", "5S", "5B"], ["passo", "vado solissimo"])


def test_C19_either_side_may_make_stramazzo_and_then_wins_the_deal():
    d = opponents_stramazzo()
    c = d.count
    assert c.piles[1] == DECK.full and c.tricks == [0, 20] and c.stramazzo == 1 and not c.won
    assert c.payments == [12, 12, -24]


@pytest.mark.parametrize(("build", "fool_side"), [
    (c22_deal, 1),  # an opponent's Fool in a trick his partner won: his side's
    (c22_lost_deal, 1),  # an opponent's Fool in the challenger's trick, the opponents won tricks: back to them
    (lambda: k8_stramazzo(["vado solissimo scegliete", "passo", "passo"]), 0),  # ... they won none: to the winner
    (k8_cappotto, 0),  # the challenger's Fool in a trick he lost, he won tricks: back to him
    (opponents_stramazzo, 1),  # the challenger's Fool, he won none: to the opponents
])
def test_C16_K9_the_fool_by_R14_with_the_two_sides_of_C6(build, fool_side):
    d = build()
    assert d.count.fool_to == fool_side and d.count.piles[fool_side] & DECK.fool_bit


def test_C17_the_line_is_55_of_109_a_challenger_with_54_loses():
    d = c22_deal()
    assert d.count.points[0] == 55 and d.count.won
    for seed in range(60):
        d = finish(bid_deal(["vado solo", "sta bene", "sta bene"], seed=seed), seed)
        c = d.count
        if c.multiplier == 1:
            assert c.won == (c.points[0] >= 55) and sum(c.points) == 109


@pytest.mark.parametrize(("words", "stake"), [
    (["chiamo", "sta bene", "sta bene"], 2), (["vado solo", "sta bene", "sta bene"], 4),
    (["vado solissimo"], 8), (["vado solissimo dividete"], 16), (["vado solissimo scegliete"], 32),
])
def test_C18_stakes_2_4_8_16_32_for_the_challenger_half_for_each_opponent(words, stake):
    outcomes = set()
    for seed in range(40):
        d = finish(bid_deal(words, seed=seed), seed)
        c = d.count
        s = stake * c.multiplier * (1 if c.won else -1)
        assert c.payments == [s if seat == 1 else -s // 2 for seat in range(3)] and sum(c.payments) == 0
        assert d.view(0)["stake"] == stake
        outcomes.add(c.won)
    assert outcomes == {True, False}


def test_C21_K10_the_match_ends_at_21_the_top_wins_a_tie_is_shared():
    totals = [19, 5, -24]
    assert not match_over(totals)
    solo_won = [4, -2, -2]  # seat 0 wins a solo (C18)
    totals = [t + p for t, p in zip(totals, solo_won)]
    assert totals == [23, 3, -26] and match_over(totals) and match_winners(totals) == [0]
    assert match_over([21, 0, -21]) and not match_over([20, 10, -30])
    assert match_winners([22, 22, -44]) == [0, 1]  # shared top


# --- actions, records, views ----------------------------------------------------------------

def test_action_texts_read_back_and_refusals_leave_the_deal_unchanged():
    for text in ("passo", "sta bene", "chiamo", "vado solo", "vado solissimo", "vado solissimo dividete",
                 "vado solissimo scegliete", "chiamo 7C", "restituisco QS", "scarto 5C 6O MB", "prendo 7C", "KC"):
        assert action_text(parse_action(text)) == text
    assert parse_action(" Discard mb 5c 6O ") == parse_action("scarto 5C 6O MB") == LAY | mask("5C", "6O", "MB")
    d = Deal.from_seed(0, 4)
    before = d.view(1)
    for bad in ("chiamo 7X", "zz", None, 3.5, 10**30, "scarto", "prendo 5C 5C", "KC"):
        with pytest.raises(IllegalAction) as e:
            d.apply(bad, 1)
        assert e.value.reason and d.view(1) == before
    with pytest.raises(ValueError):
        Options.from_json({"rounds": 2})
    assert Options.from_json(None).to_json() == {}


def test_a_record_replays_to_the_same_count():
    d = finish(bid_deal(["chiamo", "sta bene", "sta bene"], seed=9), 9)
    r = d.record()
    assert r["game"] == "calabresella" and len(r["deck"]) == 63 and r["options"] == {}
    again = Deal(3, r["dealer"], DECK.parse_order(r["deck"]))
    for a in r["actions"]:
        again.apply(a["action"], a["seat"])
    assert again.count.to_json() == d.count.to_json() and again.history == d.history


def test_views_are_plain_json_and_events_public():
    import msgspec

    for words in (["vado solissimo dividete"], ["chiamo", "sta bene", "sta bene"]):
        d = bid_deal(words, seed=6)
        rng = random.Random(6)
        while True:
            views = [d.view(s) for s in range(3)]
            assert msgspec.json.decode(msgspec.json.encode(views)) == views
            if d.done:
                break
            d.apply(random_action(d, rng))
        kinds = {e["type"] for e in d.public_events()}
        assert {"bid", "contract", "play", "trick", "count"} <= kinds
        # what is laid face down, or dealt out of the monte in dividete, is never an event's
        assert all(isinstance(e["cards"], int) for e in d.public_events() if e["type"] == "lay")
        assert all("cards" not in e for e in d.public_events() if e["type"] == "divided")


def test_deck_order_builder_deals_what_it_is_asked():
    order = deck_order(2, {0: ["20"], 1: ["F"]}, ["KC"])
    d = Deal(3, 2, [DECK.card(c) for c in order])
    assert d.hands[0] >> 20 & 1 and d.hands[1] >> DECK.fool & 1 and d.monte_order[0] == DECK.card("KC")


# --- registered: records, matches and the command line through the registry ----------------

def test_the_game_is_registered_and_its_records_replay_through_the_registry():
    from tarocchi.engine.game import game_names, get_game
    from tarocchi.engine.records import replay
    from tarocchi.games.calabresella import CALABRESELLA

    assert "calabresella" in game_names() and get_game("calabresella") is CALABRESELLA
    for words in (["vado solissimo scegliete"], ["passo", "passo", "passo"]):
        d = finish(bid_deal(words, seed=3), 3)
        again = replay(d.record())
        assert again.count.to_json() == d.count.to_json() and again.history == d.history


@pytest.mark.parametrize("seed", range(6))
def test_C21_a_match_is_played_to_21_with_the_deal_in_turn_and_totals_summing_to_zero(seed):
    """C21: after each deal's payment, a seat at 21 or more ends the match, not before; the
    highest total wins, a tie at the top shared."""
    from tarocchi.engine.match import Match

    m = Match(3, first_dealer=1, game="calabresella")
    assert m.length is None  # no fixed number of deals
    rng = random.Random(seed)
    while not m.over:
        assert not m.deals or max(m.totals) < 21
        finish(m.start_deal(rng), rng.randrange(99))
    assert max(m.totals) >= 21 and match_over(m.totals) and sum(m.totals) == 0
    assert [d.dealer for d in m.deals] == [(1 + i) % 3 for i in range(len(m.deals))]
    assert m.winners() == match_winners(m.totals)
    with pytest.raises(ValueError, match="the match is over"):
        m.start_deal(rng)


def test_simulate_replay_and_duel_on_the_command_line():
    import json
    import subprocess
    import sys

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "tarocchi.cli", *args], input=stdin, capture_output=True,
                              text=True, timeout=120)

    sim = run("simulate", "--game", "calabresella", "--deals", "5", "--seed", "3")
    assert sim.returncode == 0, sim.stderr
    records = [json.loads(line) for line in sim.stdout.splitlines()]
    assert len(records) == 5 and all(r["game"] == "calabresella" for r in records)
    done = run("replay", "-", stdin=sim.stdout)
    assert done.returncode == 0, done.stderr
    assert all(sum(json.loads(line)["payments"]) == 0 for line in done.stdout.splitlines())
    duel = run("duel", "--game", "calabresella", "--deals", "3", "--seed", "1", "random", "random")
    assert duel.returncode == 0, duel.stderr
    assert "calabresella, 3 seats, 3 duplicate deals" in duel.stdout


def test_the_count_in_docs_records_md_is_what_the_commands_print():
    import json
    import subprocess
    import sys
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "records.md").read_text()
    shown = json.loads(next(line for line in text.splitlines() if '"contract":"solo","stake":4' in line).strip())
    cli = [sys.executable, "-m", "tarocchi.cli"]
    records = subprocess.run([*cli, "simulate", "--game", "calabresella", "--deals", "4", "--seed", "1"],
                             capture_output=True, text=True, timeout=60).stdout
    last = records.splitlines()[-1] + "\n"
    count = json.loads(subprocess.run([*cli, "replay", "-"], input=last, capture_output=True, text=True,
                                      timeout=60).stdout)
    for side in count["sides"]:
        side["cards"] = side["cards"][:3] + ["..."]
    assert count == shown


def test_every_refusal_a_view_shows_has_its_id_in_the_catalogue():
    from tarocchi.games.calabresella import REASONS

    seen = set()
    for seed in range(40):
        d = Deal.from_seed(seed % 3, seed)
        rng = random.Random(seed)
        while not d.done:
            for s in range(3):
                seen |= {(c["reason_id"], c["reason"]) for c in d.view(s)["choices"] if c["reason"]}
            d.apply(random_action(d, rng))
    assert seen and all(REASONS[rid] == text for rid, text in seen)
    assert {"passo_after_bid", "sta_bene_no_bid", "lay_forbidden", "follow_suit"} <= {rid for rid, _ in seen}
