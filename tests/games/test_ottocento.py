"""Ottocento, ruling by ruling (OTTOCENTO.md B1-B27) and the hand-built cases O1-O12, each a
real deal built from a chosen deck order (tests/games/ottocento_builders.py)."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest

from tarocchi.engine.game import IllegalAction, get_game
from tarocchi.engine.match import Match
from tarocchi.engine.playout import play_out, random_action
from tarocchi.engine.records import RecordError, replay
from tarocchi.games import ottocento_combos as combos
from tarocchi.games.ottocento import (
    DECK, DISCARD, FIVES, KINDS, MOORS, ONE_POINT, RULES, TARGET, Deal, Options, action_text, decided, matto_card,
    parse_action, pile_points, tally,
)

from .ottocento_builders import dealt, deck_order, finish, to_play

GAME = get_game("ottocento")


def mask(*codes: str) -> int:
    return DECK.mask_of(codes)


def cards(*codes: str) -> list[int]:
    return [DECK.card(c) for c in codes]


def winner(*codes: str) -> int:
    return RULES.winner(cards(*codes))


def ready(dealer: int = 0, seed: int = 1, options: Options | None = None) -> Deal:
    """A shuffled deal taken to its first lead: gioco, a random discard, nothing declared."""
    d = Deal.shuffled(4, dealer, random.Random(seed), options)
    d.apply("gioco")
    d.apply(random_action(d, random.Random(seed)))
    for _ in range(4):
        d.apply("declare")
    assert d.phase == "play"
    return d


# --- the cards (B1-B4) --------------------------------------------------------------------

def test_B1_the_62_codes():
    assert DECK.size == 62 and len(set(DECK.codes)) == 62
    assert DECK.codes[:22] == ["0", "1", "2", "3", "4"] + [str(n) for n in range(5, 21)] + ["F"]
    for s in "COSB":
        assert {c for c in DECK.codes if c.endswith(s) and len(c) > 1} == \
            {r + s for r in ("K", "Q", "H", "M", "10", "9", "8", "7", "6", "1")}
    assert DECK.card("mb") == DECK.card("MB")


def test_B2_O2_trump_order_and_the_moors_of_equal_rank_the_last_played_wins():
    assert winner("20", "19", "5", "18") == 0 and winner("5", "4", "0", "3") == 0
    assert winner("0", "1", "KC", "QC") == 1  # a Moor beats the Bégato
    # O2: trumps led; 2, 4, 1 and a cup: the last Moor (seat 2's 1) wins; with a 5 instead, the 5
    assert winner("2", "4", "1", "6C") == 2
    assert winner("2", "4", "1", "5") == 3
    assert MOORS == mask("1", "2", "3", "4")


def test_B2_O3_cups_and_coins_rank_the_ace_above_the_6_and_the_10_lowest_swords_and_batons_10_high():
    assert winner("6C", "1C", "7S", "KB") == 1  # O3: 1C beats 6C
    assert winner("10C", "6C", "9C", "8C") == 1  # 10C is the lowest cup
    assert winner("1S", "10S", "6S", "MB") == 1  # 10S beats 1S
    assert winner("1O", "MO", "10O", "6O") == 1
    assert winner("MB", "10B", "QB", "KB") == 3


def test_B3_names_in_both_languages():
    names = {c: DECK.names(c) for c in ("20", "19", "18", "17", "1", "4", "0", "F", "KC", "MS", "1O", "HB")}
    assert names["20"] == ("the Angel", "l'Angelo") and names["19"][1] == "il Mondo"
    assert names["18"][1] == "il Sole" and names["17"][1] == "la Luna"
    assert names["1"][1] == names["4"][1] == "un Moro" and names["0"][1] == "il Bégato"
    assert names["F"] == ("the Fool", "il Matto")
    assert names["KC"] == ("King of Cups", "Re di Coppe") and names["MS"][1] == "Fante di Spade"
    assert names["1O"][1] == "Asso di Denari" and names["HB"][1] == "Cavallo di Bastoni"
    assert DECK.describe()["names"]["0"] == {"en": "the Magician", "it": "il Bégato"}


def test_B4_O1_card_points_in_pairs_and_the_last_trick_make_93():
    assert {c: DECK.values[DECK.card(c)] for c in ("20", "19", "0", "F", "KB", "QC", "HO", "MS", "18", "1", "7C")} \
        == {"20": 5, "19": 5, "0": 5, "F": 5, "KB": 5, "QC": 4, "HO": 3, "MS": 2, "18": 1, "1": 1, "7C": 1}
    assert DECK.value(DECK.full) == 118 and DECK.points(DECK.full) == 87
    assert DECK.points(mask("KC", "7C")) == 5  # a pair: 6 - 1
    for seed in range(30):  # O1: any legal end state
        d = finish(ready(seed % 4, seed), seed)
        c = d.count
        assert sum(c.card_points) + 6 == 93 and c.piles[0] | c.piles[1] == DECK.full


# --- seats and the deal (B5-B8) -------------------------------------------------------------

def test_B5_partners_opposite_and_every_deal_by_dealer_plus_one_thrown_in_ones_too():
    v = Deal.from_seed(0, 1).view(1)
    assert v["partner"] == 3 and v["sides"] == [[0, 2], [1, 3]]
    m = Match(4, 2, game="ottocento")
    d = m.start_deal(random.Random(1))
    for _ in range(4):
        d.apply("a monte")
    assert d.done and not m.over and d.returns() == [0, 0, 0, 0]
    assert m.start_deal(random.Random(2)).dealer == 3  # O7: dealer + 1 deals
    with pytest.raises(ValueError, match="four seats"):
        Deal(3, 0, list(range(62)))


def test_B6_packets_of_five_from_dealer_plus_one_three_rounds_and_two_to_the_dealer():
    order = list(range(62))
    d = Deal(4, 1, order)
    assert [d.hand_size(s) for s in range(4)] == [5, 5, 5, 5]
    assert d.hands[2] == sum(1 << c for c in range(0, 5)) and d.hands[1] == sum(1 << c for c in range(15, 20))
    d.apply("gioco")
    packets = {s: set() for s in range(4)}
    for i in range(12):
        packets[(1 + 1 + i) % 4] |= set(range(5 * i, 5 * i + 5))
    packets[1] |= {60, 61}
    assert all(d.hands[s] == sum(1 << c for c in packets[s]) for s in range(4))
    assert d.to_act == 1 and d.phase == "discard" and d.hand_size(1) == 17


def test_B7_O7_a_monte_after_five_cards_four_throw_in_the_first_gioco_plays_on():
    d = Deal.from_seed(3, 5)
    assert d.phase == "monte" and d.to_act == 0 and d.view(0)["choices"][0]["action"] == "a monte"
    for _ in range(4):
        d.apply("a monte")
    assert d.done and d.thrown_in and d.returns() == [0, 0, 0, 0] and d.count.to_json()["thrown_in"]
    d = Deal.from_seed(3, 5)
    d.apply("a monte")
    d.apply("gioco", 1)  # O7: a monte, gioco: play on
    assert d.phase == "discard" and d.to_act == 3 and d.view(2)["monte"] == [
        {"seat": 0, "said": "a monte"}, {"seat": 1, "said": "gioco"}]
    assert Deal.from_seed(3, 5).refusal(0, "7C") == "now is the time to say a monte or gioco"


def test_B7_before_the_question_ends_a_seat_sees_only_its_first_five_cards():
    d = Deal(4, 0, list(range(62)))
    assert [len(d.view(s)["hand"]) for s in range(4)] == [5, 5, 5, 5]


def test_B8_O8_the_discard_never_a_5_point_card():
    d = dealt(0, {0: ["KC", "F", "18", "3", "20", "19", "0", "KO", "KS", "KB", "5", "6", "7", "8", "9", "10", "11"]})
    d.apply("gioco")
    assert d.phase == "discard" and d.to_act == 0
    for bad in ("discard KC 18", "discard F 3", "discard 20 3", "discard 0 3"):  # O8
        assert d.refusal(0, bad) == \
            "you may not discard a 5-point card: a King, the Angel, the World, the Bégato or the Matto"
    assert d.refusal(0, "discard 18") is not None and d.refusal(0, "discard 18 3 5") is not None
    assert d.refusal(0, "discard 18 7C") == "that card is not in your hand"
    assert FIVES.bit_count() == 8
    assert d.refusal(0, "discard 18 3") is None  # O8: trumps allowed
    offered = {c["action"]: c["reason_id"] for c in d.view(0)["choices"]}
    assert offered["KC"] == offered["F"] == "discard_five_points" and offered["18"] is None
    d.apply("discard 3 18")
    assert d.discarded == mask("18", "3") and d.hand_size(0) == 15 and d.phase == "declare"
    v0, v1 = d.view(0), d.view(1)
    assert v0["discard"] == ["18", "3"] and v1["discard"] is None
    assert v1["actions"][-1]["action"] == "discard" and v0["actions"][-1]["action"] == "discard 18 3"


def test_B8_a_dealer_with_every_5_point_card_discards_any_two_of_the_others():
    # the most a dealt hand can hold of them: all 8 of the 17; B8 has no fallback, and needs none
    fives = ["KC", "KO", "KS", "KB", "20", "19", "0", "F"]
    others = ["18", "3", "5", "6", "7", "8", "9", "10", "11"]
    d = dealt(0, {0: fives + others})
    d.apply("gioco")
    listed = d.legal_actions()
    assert {a - DISCARD for a in listed} == {mask(*t) for t in combinations(others, 2)}
    for a in listed:
        assert d.refusal(0, a) is None
        d.copy().apply(a, 0)


def test_B8_a_hand_of_5_point_cards_and_two_others_discards_those_two():
    # no dealt hand is so short (17 cards, 8 of 5 points); the rule still finds its one discard
    rule = GAME.discard_rule
    hand = mask("KC", "KO", "KS", "KB", "20", "19", "0", "F", "18", "7C")
    assert rule.discards(hand) == [mask("18", "7C")]
    assert rule.refusal(hand, mask("18", "7C")) is None
    assert rule.refusal(hand, mask("18", "F")) == rule.never_words


def test_B8_the_discard_counts_for_the_dealers_side_or_goes_over_with_no_trick():
    for seed in range(12):
        d = finish(ready(seed % 4, seed), seed)
        c, side = d.count, d.dealer % 2
        assert c.discard_to == (side if c.tricks[side] else 1 - side)
        assert c.piles[c.discard_to] & c.discard == c.discard
    d = no_trick_deal()  # side A deals and wins nothing: the discard goes over
    assert d.count.tricks == [0, 15] and d.count.discard_to == 1 and d.count.piles[1] & d.discarded


# --- declarations (B9-B18) ----------------------------------------------------------------

B27_HANDS = {0: ["20", "19", "18", "F", "KC", "KO", "KS"], 1: ["1", "2", "3", "0"],
             2: ["9S", "10S"], 3: ["QC", "QO", "QS", "QB", "HC", "HO", "HS", "MC", "MO", "MS"]}
B27_DECLARATIONS = {0: "declare tarocchi:20,19,F kings:KC,KO,KS grande:20,19,18,F", 1: "declare moors:1,2,3,0",
                    3: "declare queens:QC,QO,QS,QB cavalli:HC,HO,HS fanti:MC,MO,MS"}


def b27_deal(totals: list[int] | None = None) -> Deal:
    """B27: seat 2 deals and discards 9S 10S; the four declarations, from seat 3."""
    return to_play(dealt(2, B27_HANDS, totals=totals), "9S 10S", B27_DECLARATIONS)


def test_B9_each_seat_declares_once_from_dealer_plus_one_face_up_for_all_points_at_once():
    d = dealt(2, B27_HANDS)
    d.apply("gioco")
    d.apply("discard 9S 10S")
    assert d.phase == "declare" and d.to_act == 3
    assert d.refusal(0, B27_DECLARATIONS[0]) == "it is not your turn"
    d.apply(B27_DECLARATIONS[3])
    for s in range(4):  # face up to all four, with its cards
        v = d.view(s)
        assert v["declarations"][3]["points"] == 106 and v["declarations"][0] is None
        assert v["declarations"][3]["combinations"][0]["cards"] == ["QC", "QO", "QS", "QB"]
        assert v["totals"] == [0, 106]
    assert d.public_events()[-1]["type"] == "declare" and d.public_events()[-1]["seat"] == 3
    assert 3 in [e["seat"] for e in d.public_events() if e["type"] == "declare"]
    assert d.hand_size(3) == 15  # kept in hand
    d.apply(B27_DECLARATIONS[0])
    d.apply(B27_DECLARATIONS[1])
    d.apply("declare")
    assert d.phase == "play" and d.to_act == 3 and d.declared == [50, 15, 0, 106]


def test_B9_a_seat_may_declare_less_than_it_holds():
    d = dealt(2, B27_HANDS)
    d.apply("gioco")
    d.apply("discard 9S 10S")
    d.apply("declare queens:QC,QO,QS")  # three of four queens, the rest left out
    assert d.declared[3] == 14
    d.apply("declare grande:20,19,18")
    assert d.declared[0] == 10


def test_B9_the_choices_offer_the_full_best_declaration_first_shrinkable_and_droppable():
    d = dealt(2, B27_HANDS)
    d.apply("gioco")
    d.apply("discard 9S 10S")
    choices = d.view(3)["choices"]
    best = combos.best_all(DECK.codes_of(d.hands[3]))
    first = choices[0]
    assert first["points"] == combos.score(best)
    assert [c["kind"] for c in first["combinations"]] == [c.kind for c in best]
    for c, j in zip(best, first["combinations"]):
        assert j["shrinkable"] == list(combos.shrinkable(c))
    assert choices[-1]["action"] == "declare" and choices[-1]["points"] == 0
    assert all(d.refusal(3, c["action"]) is None for c in choices)
    assert d.view(0)["choices"] == []


def test_B9_B17_a_declaration_is_parsed_strictly_and_refused_with_its_reason():
    d = dealt(2, B27_HANDS)
    d.apply("gioco")
    d.apply("discard 9S 10S")
    assert d.refusal(3, "declare queens:QC,QO,QS queens:QB,QC,QO") == str(combos.ONE_PER_KIND)  # B17
    assert d.reason(3, "declare queens:QC,QO,QS queens:QB,QC,QO").id == combos.ONE_PER_KIND.id
    assert d.refusal(3, "declare kings:KC,KO,KS") == "you may declare only cards in your hand"
    assert "not a combination" in d.refusal(3, "declare sextets:QC,QO,QS")
    assert "twice" in d.refusal(3, "declare queens:QC,QC,QO")
    assert d.refusal(3, "declare queens:") is not None and d.refusal(3, "QC") == \
        "now is the time to declare: declare and your combinations, or declare alone"
    with pytest.raises(IllegalAction):
        d.apply("declare queens:QC,QO")
    # The combos module's own reasons come through as they are (ComboError.reason).
    for seat, kind, cs in ((3, "queens", ["QC", "QO"]), (0, "grande", ["20", "F"]), (0, "kings", ["KC", "KO"])):
        with pytest.raises(combos.ComboError) as e:
            combos.check(kind, cs)
        text = f"declare {kind}:{','.join(cs)}"
        assert d.reason(seat if seat == d.to_act else d.to_act, text) in (e.value.reason, None) or seat != d.to_act
        if seat == d.to_act:
            assert d.reason(seat, text) == e.value.reason and d.reason(seat, text).id == e.value.reason.id
        if d.to_act == 3:
            d.apply("declare")


def test_B10_B18_O6_cricche_points_and_the_doubling_within_one_seats_declaration():
    d = b27_deal()
    assert d.declared == [50, 15, 0, 106]  # O6: seat 3's three cricche doubled
    d = dealt(2, {3: ["KC", "KO", "KS", "QC", "QO", "QS"], 2: ["9S", "10S"]})
    d.apply("gioco")
    d.apply("discard 9S 10S")
    d.apply("declare kings:KC,KO,KS queens:QC,QO,QS")
    assert d.declared[3] == 31  # O6: two cricche, not doubled


def test_B11_B16_sequence_declarations_through_the_deal():
    d = dealt(2, {3: ["20", "19", "17", "16", "15", "F", "KC", "QC", "HC", "1C", "1O", "1S"], 2: ["9S", "10S"]})
    d.apply("gioco")
    d.apply("discard 9S 10S")
    d.apply("declare grande:20,19,17,16,15,F cups:KC,QC,HC,1C,F aces:1C,1O,1S,F")
    # O4 25, cups 4 + F 20, aces 3 + F 15: three sequences doubled (B18); F in all three (B12, B17)
    assert d.declared[3] == 2 * (25 + 20 + 15)


# --- play (B19-B23) -----------------------------------------------------------------------

def test_B19_dealer_plus_one_leads_follow_suit_else_trump_else_any_15_tricks():
    d = ready(1, 3)
    assert d.to_act == 2 and d.leader == 2
    for s in range(4):
        assert d.hand_size(s) == 15
    plays = 0
    while not d.done:
        seat = d.to_act
        hand, trick = d.hands[seat], d.trick
        legal = d.legal_cards()
        if trick:
            led = RULES.led_suit(trick) if len(trick) > 1 or trick[0] != DECK.fool else None
            if led is not None:
                same = hand & DECK.suit_mask_of[led]
                expect = same or (hand & DECK.trumps) or hand
                assert legal & ~DECK.fool_bit == expect & ~DECK.fool_bit
        d.apply(random_action(d, random.Random(plays)))
        plays += 1
    assert sum(d.tricks_won) == 15 and d.count.tricks[0] + d.count.tricks[1] == 15


def test_B19_refusals_name_follow_the_suit_and_play_a_trump():
    d = dealt(3, {0: ["7C"] + [str(n) for n in range(5, 19)], 1: ["8C"] + [f"{r}O" for r in
              ("K", "Q", "H", "M", "10", "9", "8", "7", "6", "1")] + ["19", "20", "KS", "QS"],
              2: ["KB", "QB", "HB", "MB", "10B", "9B", "8B", "7B", "6B", "1B", "0", "1", "2", "3", "4"]})
    d.apply("gioco")
    d.apply(random_action(d, random.Random(1)))
    for _ in range(4):
        d.apply("declare")
    d.apply("7C")  # seat 0 leads a cup
    assert d.refusal(1, "KO") == "follow the suit" and d.reason(1, "KO").id == "follow_suit"
    d.apply("8C")
    assert d.refusal(2, "KB") == "play a trump" and d.reason(2, "KB").id == "play_trump"
    assert d.refusal(2, "F") == "that card is not in your hand"


def test_B20_the_matto_may_replace_any_card_lead_included_never_wins_goes_to_its_side():
    d = dealt(3, {0: ["F", "KC"], 1: ["QC"], 2: ["6C"], 3: ["1C"]})
    d.apply("gioco")
    d.apply(random_action(d, random.Random(2)))
    for _ in range(4):
        d.apply("declare")
    d.apply("F")  # B20: the Matto leads; the next card fixes the suit
    cups = d.hands[1] & DECK.suit_masks[0]
    assert d.legal_cards() == d.hands[1]
    d.apply(DECK.codes[cups.bit_length() - 1] if cups else DECK.codes_of(d.hands[1])[0])
    led = d.trick[1]
    if DECK.suit_of[led] < 4 and d.hands[2] & DECK.suit_mask_of[led]:
        assert d.legal_cards() == d.hands[2] & DECK.suit_mask_of[led]
    d.rollout(random.Random(3))
    assert d.count.fool_by == 0 and d.count.fool_to != 0


def fool_deal(condition, seed0: int = 0) -> Deal:
    """A deal from a chosen deck order (seat 0 holds the Matto) played at random until the
    Matto's trick is won as ``condition`` asks."""
    for seed in range(seed0, seed0 + 200):
        d = finish(to_play(dealt(3, {0: ["F", "6C", "7C"], 3: ["9S", "10S"]}), "9S 10S"), seed)
        if condition(d):
            return d
    raise AssertionError("no such deal")


def test_B21_O9_an_opponents_trick_is_paid_one_1_point_card_the_matto_stays():
    d = fool_deal(lambda d: d.count.fool_to % 2 == 1 and d.count.tricks[0] > 0)
    c = d.count
    assert c.paid >= 0 and ONE_POINT >> c.paid & 1 and not c.surrendered
    assert c.piles[0] & DECK.fool_bit and c.piles[1] >> c.paid & 1
    assert c.piles[0].bit_count() % 2 == 0 and c.piles[1].bit_count() % 2 == 0
    # B21's choice, recomputed: the best for the Matto's side, the worst for the other, the last
    before = [c.piles[0] & ~DECK.fool_bit | 1 << c.paid, c.piles[1] & ~(1 << c.paid)]
    assert matto_card(before[0], before[1]) == c.paid
    keys = {x: (pile_points(before[0] & ~(1 << x) | DECK.fool_bit)[1], -pile_points(before[1] | 1 << x)[1])
            for x in DECK.display_order(before[0] & ONE_POINT)}
    top = max(keys.values())
    assert keys[c.paid] == top and [x for x in keys if keys[x] == top][-1] == c.paid


def test_B21_O9_a_partners_trick_nothing_moves():
    d = fool_deal(lambda d: d.count.fool_to == 2)
    assert d.count.paid == -1 and not d.count.surrendered and d.count.piles[0] & DECK.fool_bit


def no_trick_deal(seed: int = 0) -> Deal:
    """Side B holds every trump and every King and Queen, and seat 1 leads: side A (seat 0
    deals, holding the Matto) wins no trick, whatever is played."""
    trumps = [str(n) for n in range(21)]
    high = ["KC", "KO", "KS", "KB", "QC", "QO", "QS", "QB", "HC"]
    hands = {1: trumps[:15], 3: trumps[15:] + high}
    hands[0] = ["F", "HO", "HS", "HB", "MC", "MO", "MS", "MB", "1C", "1O", "1S", "1B", "10C", "10O", "10S",
                "6C", "7C"]
    return finish(to_play(dealt(0, hands), "6C 7C"), seed)


def test_B21_O9_the_matto_side_winning_no_trick_gives_the_matto_and_its_discard():
    for seed in range(3):
        d = no_trick_deal(seed)
        c = d.count
        assert c.tricks == [0, 15] and c.surrendered and c.paid == -1
        assert c.piles[0] == 0 and c.piles[1] == DECK.full
        assert c.scores[0] == 0 and sum(c.card_points) == 93 - 6


def test_B21_a_pile_with_no_1_point_card_gives_the_matto_itself():
    assert matto_card(mask("KC", "QC", "20", "19"), mask("7C")) == -1


def test_B22_O11_signals_on_the_card_led_for_all_volo_only_when_true():
    d = dealt(3, {0: ["7C", "KS", "QS", "HS", "MS", "10S", "9S", "8S", "7S", "6S", "1S", "KB", "QB", "HB", "MB"],
                  1: ["8C"]})
    d.apply("gioco")
    d.apply(random_action(d, random.Random(2)))
    for _ in range(4):
        d.apply("declare")
    assert d.refusal(0, "KS volo") == "volo says you are now void in that suit: you still hold it"  # O11
    assert d.reason(0, "KS volo").id == "volo_false"
    assert d.refusal(0, "7C volo") is None  # the last cup
    choices = {c["action"]: c["reason_id"] for c in d.view(0)["choices"]}
    assert choices["7C volo"] is None and choices["KS volo"] == "volo_false" and choices["KS busso"] is None
    d.apply("7C volo")
    for s in range(4):
        assert d.view(s)["signal"] == "volo" and d.view(s)["trick"][0] == {"seat": 0, "card": "7C"}
    assert d.public_events()[-1] == {"type": "play", "seat": 0, "card": "7C", "signal": "volo"}
    assert d.refusal(1, "8C trionfi") == "a signal goes only with the card led"  # O11
    assert all(" " not in c["action"] for c in d.view(1)["choices"])
    d.apply("8C")
    assert d.view(0)["signals"] == [{"seat": 0, "card": "7C", "signal": "volo"}]


def test_B22_volo_refused_on_a_led_matto_trionfi_and_busso_may_go_with_it():
    d = dealt(3, {0: ["F"]})
    d.apply("gioco")
    d.apply(random_action(d, random.Random(2)))
    for _ in range(4):
        d.apply("declare")
    assert d.refusal(0, "F volo") == "no volo on the Matto"
    assert d.refusal(0, "F trionfi") is None and d.refusal(0, "F busso") is None


def test_B22_signals_are_a_table_option_on_by_default():
    assert Options().signals and Options.from_json(None).signals and not Options.from_json({"signals": False}).signals
    with pytest.raises(ValueError, match="signals"):
        Options.from_json({"signals": "yes"})
    with pytest.raises(ValueError, match="unknown"):
        Options.from_json({"rounds": 2})
    d = ready(0, 4, Options(signals=False))
    card = DECK.codes[d.legal_cards().bit_length() - 1]
    assert d.refusal(1, f"{card} trionfi") == "signals are off at this table"
    assert all(" " not in c["action"] for c in d.view(1)["choices"])


def test_B23_a_signal_is_a_public_gesture_of_the_leader_bots_may_ignore_it():
    d = ready(0, 6)
    legal = [a for a in d.legal_actions() if a >= 64]
    assert legal and all(action_text(a).split()[1] in ("volo", "trionfi", "busso") for a in legal)
    d.apply(legal[0])
    d.rollout(random.Random(1))
    assert d.done


# --- the count and the match (B24-B27) -----------------------------------------------------

B27_PILES = [
    ["20", "19", "18", "17", "16", "15", "14", "13", "0", "F", "KC", "KO", "KS", "KB", "QC", "HC", "MO", "1C", "1O",
     "1S", "6C", "7C", "8C", "9C", "6O", "7O", "8O", "9O", "10O", "6S", "7S", "8S", "9S", "10S"],
    ["12", "11", "10", "9", "8", "7", "6", "5", "1", "2", "3", "4", "QO", "QS", "QB", "HO", "HS", "HB", "MC", "MS",
     "MB", "10C", "1B", "6B", "7B", "8B", "9B", "10B"],
]


def test_B24_B25_a_sides_score_adds_declarations_pile_combinations_card_points_and_the_last_trick():
    for seed in range(8):
        d = finish(ready(seed % 4, seed + 40), seed)
        c = d.count
        found, scores, points = tally(c.piles, c.last)
        assert found == c.pile_combos and scores == c.pile_scores
        for i in (0, 1):
            assert c.scores[i] == c.declared[i] + c.declared[i + 2] + scores[i] + points[i]
        assert d.returns() == [c.scores[0], c.scores[1], c.scores[0], c.scores[1]]
        j = c.to_json()
        assert j["scores"] == c.scores and [s["score"] for s in j["sides"]] == c.scores
        assert j["sides"][c.last]["last_trick"] == 6


def test_B26_O10_a_side_at_800_at_the_declarations_wins_without_playing():
    d = b27_deal(totals=[760, 100, 760, 100])  # O10: A at 760 declares 50
    assert d.done and d.count.at_declarations and d.count.totals == [810, 221] and d.count.winner == 0
    assert d.returns() == [50, 121, 50, 121] and d.hand_size(0) == 15
    assert d.public_events()[-1]["type"] == "count"
    assert d.view(1)["count"]["winner"] == 0 and "sides" in d.view(1)["count"]
    assert d.view(1)["discard"] is None  # nothing more is shown: the hand is not played
    again = replay(d.record())
    assert again.count.to_json() == d.count.to_json()


def test_B26_both_over_800_the_higher_wins_equal_totals_play_on():
    d = b27_deal(totals=[760, 700, 760, 700])  # A 810, B 821: B wins
    assert d.done and d.count.winner == 1
    d = b27_deal(totals=[771, 700, 771, 700])  # 821 and 821: equal, the hand is played
    assert d.phase == "play"
    assert decided([812, 805]) and not decided([805, 805]) and not decided([799, 0]) and decided([800, 0])


def test_B26_O10_after_a_count_a_812_b_805_a_wins():
    d = finish(ready(0, 11), 11)
    a, b = d.count.scores
    rec = d.record()
    rec["totals"] = [812 - a, 805 - b, 812 - a, 805 - b]
    again = replay(rec)
    assert again.count.totals == [812, 805] and again.count.winner == 0 and not again.count.at_declarations


def test_B26_a_record_whose_totals_already_decide_the_match_is_malformed():
    rec = Deal.from_seed(0, 1).record()
    for bad in ([800, 0, 800, 0], [1, 2, 3, 4], [0, 0], "x"):
        rec["totals"] = bad
        with pytest.raises(RecordError):
            replay(rec)


def test_B26_a_match_to_800_side_totals_not_zero_sum():
    m = Match(4, 1, game="ottocento")
    assert m.length is None and GAME.target == TARGET
    rng = random.Random(5)
    while not m.over:
        d = m.start_deal(rng)
        assert d.totals_before == m.totals[:2] or not m.deals[:-1]
        play_out(d, rng)
    t = m.totals
    assert t[0] == t[2] and t[1] == t[3] and max(t) >= 800 and t[0] != t[1]
    assert m.winners() in ([0, 2], [1, 3]) and t[m.winners()[0]] == max(t)
    # every deal's record replays with the totals before it
    for d in m.deals:
        assert replay(d.record()).returns() == d.returns()
    with pytest.raises(ValueError, match="over"):
        m.start_deal(rng)


def test_B27_O12_the_worked_example_declarations_through_a_deal_and_the_count_from_its_piles():
    d = b27_deal()
    assert d.declared == [50, 15, 0, 106] and d.declared_totals() == [50, 121]  # B27
    piles = [mask(*p) for p in B27_PILES]
    assert len(B27_PILES[0]) == 34 and len(B27_PILES[1]) == 28 and piles[0] | piles[1] == DECK.full
    found, scores, points = tally(piles, 0)
    assert scores == [290, 93] and points == [55 + 6, 32]
    assert {c.kind: c.size for c in found[0]} == {"tarocchi": 4, "kings": 4, "grande": 10, "cups": 6, "coins": 5,
                                                 "aces": 5}
    assert {c.kind: c.size for c in found[1]} == {"queens": 3, "cavalli": 3, "fanti": 3, "moors": 4}
    hand = [d.declared_totals()[i] + scores[i] + points[i] for i in (0, 1)]
    assert hand == [401, 246]  # O12
    assert d.discarded == mask("9S", "10S")


# --- notation, records, views ----------------------------------------------------------------

def test_action_text_round_trips():
    for text in ("a monte", "gioco", "discard 10S 9S", "7C volo", "F trionfi", "KS busso", "20", "declare",
                 "declare tarocchi:20,19,F kings:KC,KO,KS grande:20,19,18,F"):
        assert action_text(parse_action(text)) == text
    assert action_text(parse_action("DECLARE  Kings:kc,ko,ks")) == "declare kings:KC,KO,KS"
    assert parse_action("discard 9S 10S") == parse_action("discard 10S 9S")
    for bad in ("", "declare kings", "declare kings:KC,,KO", "discard 9S", "discard 9S 9S", "7C wave", "XX", "a"):
        with pytest.raises(ValueError):
            parse_action(bad)
    assert len(KINDS) == 12


def test_records_name_the_game_and_replay_to_the_same_count():
    for seed in range(10):
        d = Deal.from_seed(seed % 4, seed)
        play_out(d, random.Random(seed))
        rec = d.record()
        assert rec["game"] == "ottocento" and rec["totals"] == [0, 0, 0, 0]
        again = replay(json.loads(json.dumps(rec)))
        assert again.count.to_json() == d.count.to_json() and again.public_events() == d.public_events()


def test_views_are_plain_json_and_choices_carry_reason_ids():
    d = ready(2, 9)
    for s in range(4):
        v = d.view(s)
        assert json.loads(json.dumps(v)) == v and v["game"] == "ottocento"
    assert all(c["reason"] is None or c["reason_id"] for c in d.view(d.to_act)["choices"])
    assert all(r.id in GAME.reasons for r in combos.REASONS)


def test_refused_actions_leave_the_deal_unchanged():
    d = ready(0, 2)
    before = d.view(1)
    for bad in ("discard", "KX", "x" * 64, "", None, 3.5, True, 10**30, "a monte", "declare"):
        with pytest.raises(IllegalAction):
            d.apply(bad)
    assert d.view(1) == before


def test_deck_order_builder_deals_what_it_says():
    order = deck_order(2, B27_HANDS)
    d = Deal(4, 2, [DECK.card(c) for c in order])
    d.apply("gioco")
    for s, h in B27_HANDS.items():
        assert d.hands[s] & mask(*h) == mask(*h)


def test_B26_the_match_record_in_docs_replays_to_800():
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "records.md").read_text()
    block = text.split("## Ottocento", 1)[1].split("```jsonl\n", 1)[1].split("```", 1)[0]
    records = [json.loads(line) for line in block.splitlines() if line.strip()]
    totals = [0, 0, 0, 0]
    for i, rec in enumerate(records):
        assert rec["totals"] == totals
        d = replay(rec)
        assert d.done
        totals = [t + r for t, r in zip(totals, d.returns())]
        assert GAME.is_decided(totals) == (i == len(records) - 1)
    assert max(totals) >= TARGET


def first_lead(dealer: int, hands: dict[int, list[str]], discard: str) -> Deal:
    d = to_play(dealt(dealer, hands), discard)
    assert d.phase == "play"
    return d


SUITED_17 = ["KC", "QC", "HC", "MC", "1C", "7C", "8C", "9C", "10C", "QO", "HO", "MO", "10O", "9O", "8O"]


@pytest.mark.parametrize(("last", "wins"), [("6C", 2), ("5", 3)])
def test_B2_O2_the_moors_in_a_real_trick_the_last_moor_played_wins(last, wins):
    """O2: dealer 3, seat 0 leads the 2, seat 1 plays the 4, seat 2 the 1, seat 3 (no other
    trump) 6C: seat 2 wins; with seat 3 playing the 5 instead, seat 3."""
    d = first_lead(3, {0: ["2"], 1: ["4"], 2: ["1"], 3: SUITED_17 + ["6C" if last == "5" else "6O", last]}, "9O 10O")
    for seat, card in ((0, "2"), (1, "4"), (2, "1"), (3, last)):
        d.apply(card, seat)
    assert d.last_trick[2] == wins and d.to_act == wins and d.tricks_won[wins] == 1


def test_B2_O3_suit_ranks_in_real_tricks():
    """O3: 1C beats 6C, 10C the lowest cup; 10S beats 1S."""
    d = first_lead(3, {0: ["6C", "7S"], 1: ["1C", "1S"], 2: ["10C", "10S"], 3: ["9C", "6S"]}, "7B 8B")
    for seat, card in ((0, "6C"), (1, "1C"), (2, "10C"), (3, "9C")):
        d.apply(card, seat)
    assert d.last_trick[2] == 1
    for seat, card in ((1, "1S"), (2, "10S"), (3, "6S"), (0, "7S")):
        d.apply(card, seat)
    assert d.last_trick[2] == 2


def declaring(hand: list[str]) -> Deal:
    """Seat 3 (dealer + 1) to declare from ``hand`` (seat 2 deals and discards 9S 10S)."""
    d = dealt(2, {3: hand, 2: ["9S", "10S"]})
    d.apply("gioco")
    d.apply("discard 9S 10S")
    assert d.to_act == 3
    return d


@pytest.mark.parametrize(("kind", "cards", "points"), [
    ("grande", "20 19 17 16 15 F", 25), ("grande", "20 18 15 14 F 0", 25),  # O4
    ("grande", "20 19 18 17 F 0", 25), ("grande", "20 19 18 16 15", 20), ("grande", "20 19 F", 10),
    ("cups", "KC QC HC 1C", 15), ("cups", "KC QC 1C F", 15),  # O5
    ("moors", "1 2 F", 10), ("aces", "1C 1O 1S 1B 0 F", 25),  # B16: up to 6
])
def test_B11_B13_B14_B15_B16_O4_O5_sequences_declared_through_the_deal(kind, cards, points):
    d = declaring(cards.split())
    text = f"declare {kind}:{cards.replace(' ', ',')}"
    assert d.refusal(3, text) is None
    d.apply(text)
    assert d.declared[3] == points


@pytest.mark.parametrize(("kind", "cards"), [
    ("grande", "20 F 0"), ("grande", "19 18 17"), ("cups", "KC QC 1C"), ("cups", "KC F 0"), ("cups", "QC HC MC"),
    ("grande", "20 19 18 17 14 13 12 F 0"), ("moors", "1 F 0"), ("kings", "KC KO F"),
])
def test_B12_B13_B14_B15_O4_O5_an_invalid_declaration_is_refused_with_the_combos_reason(kind, cards):
    d = declaring(cards.split())
    with pytest.raises(combos.ComboError) as e:
        combos.check(kind, cards.split())
    why = d.reason(3, f"declare {kind}:{cards.replace(' ', ',')}")
    assert why == e.value.reason and why.id == e.value.reason.id and why.id in GAME.reasons
    with pytest.raises(IllegalAction) as refused:
        d.apply(f"declare {kind}:{cards.replace(' ', ',')}")
    assert refused.value.reason_id == why.id


def test_B12_B17_one_contatore_in_every_sequence_and_in_the_tarocchi_a_card_in_a_cricca_and_sequences():
    d = declaring(["20", "19", "18", "F", "KC", "QC", "HC", "1C", "1O", "1S", "KO", "KS"])
    d.apply("declare tarocchi:20,19,F kings:KC,KO,KS grande:20,19,18,F cups:KC,QC,HC,1C,F aces:1C,1O,1S,F")
    # cricche 18 + 17 (two: not doubled); sequences 15 + 20 + 15, three: doubled (B18)
    assert d.declared[3] == 18 + 17 + 2 * (15 + 20 + 15)
    assert d.view(0)["declarations"][3]["sequences_doubled"] and not d.view(0)["declarations"][3]["cricche_doubled"]


def test_the_modules_examples_run():
    import doctest

    from tarocchi.pure_engine import pure_game

    result = doctest.testmod(pure_game("ottocento"))
    assert result.attempted > 0 and result.failed == 0
