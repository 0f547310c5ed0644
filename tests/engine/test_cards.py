"""Card codes (R1), card points counted in threes (R2) and the ranking of cards (R13)."""

from __future__ import annotations

import random

import pytest

from tarocchi.engine.cards import (
    CODES, DECK_SIZE, FULL_DECK, VALUES, CardError, card, code, codes, mask_of, parse_deck, points,
)
from tarocchi.engine.tricks import trick_winner

SUIT_RANKS = ["K", "Q", "H", "M", "10", "9", "8", "7", "6", "5"]


def test_the_63_codes_are_exactly_the_deck_of_R1():
    expected = {str(n) for n in range(21)} | {"F"}
    for suit in "COSB":
        expected |= {rank + suit for rank in SUIT_RANKS}
    expected.add("4O")  # coins keep a 4 at the bottom
    assert len(CODES) == DECK_SIZE == 63
    assert set(CODES) == expected


@pytest.mark.parametrize("text", ["KC", "10O", "4O", "MB", "0", "20", "F", "1", "HS"])
def test_every_code_reads_back_as_itself_R1(text):
    assert code(card(text)) == text


def test_codes_are_read_without_regard_to_case_or_spaces_R1():
    assert card(" kc ") == card("KC")
    assert card("f") == card("F")


@pytest.mark.parametrize("text", ["4C", "4S", "4B", "AC", "1C", "21", "-1", "KX", "", "FOOL", "10"+"OO", "K C"])
def test_anything_else_is_not_a_card_R1(text):
    with pytest.raises(CardError, match="not a card code"):
        card(text)


def test_non_text_is_not_a_card_R1():
    with pytest.raises(CardError):
        card(7)  # type: ignore[arg-type]


def test_card_values_R2():
    expected = {"20": 10, "1": 10, "F": 10, "16": 5, "17": 5, "18": 5, "19": 5}
    expected |= {"K" + s: 5 for s in "COSB"} | {"Q" + s: 4 for s in "COSB"}
    expected |= {"H" + s: 3 for s in "COSB"} | {"M" + s: 2 for s in "COSB"}
    for c, text in enumerate(CODES):
        assert VALUES[c] == expected.get(text, 1), text  # every other card: 1 (Miseria, 2-15, numbers)
    assert sum(VALUES) == 146


def test_counting_in_threes_the_rules_text_examples_R2():
    assert points(mask_of(["20", "9", "6"])) == 10  # 10 + 1 + 1 - 2
    assert points(mask_of(["MC"])) == 1  # a Maid on her own
    assert points(mask_of(["MC", "5S"])) == 2  # a Maid with a small card
    assert points(0) == 0


@pytest.mark.parametrize("pile, expected", [
    (["KC", "QC", "HC"], 5 + 4 + 3 - 2),
    (["KC", "QC", "HC", "MC"], 14 - 2 - 1),
    (["KC", "QC", "HC", "MC", "20"], 24 - 2 - 1),
    (["5C", "6C", "7C", "8C", "9C", "10C"], 6 - 4),
])
def test_a_batch_of_three_loses_two_and_a_leftover_one_R2(pile, expected):
    assert points(mask_of(pile)) == expected


def test_two_piles_and_the_last_trick_always_make_109_R2():
    rng = random.Random(2)
    for _ in range(500):
        a = mask_of(rng.sample(range(DECK_SIZE), rng.randrange(DECK_SIZE + 1)))
        assert points(a) + points(FULL_DECK & ~a) + 5 == 109


def test_parse_deck_wants_every_card_once_R3():
    assert parse_deck(CODES) == list(range(63))
    with pytest.raises(CardError, match="missing KB"):
        parse_deck(CODES[:-1])
    with pytest.raises(CardError, match="missing"):
        parse_deck(CODES[:-1] + ["KC"])
    with pytest.raises(CardError, match="not a card code"):
        parse_deck(CODES[:-1] + ["AB"])
    with pytest.raises(CardError, match="not a card code"):
        parse_deck(CODES[:-1] + [62])


def test_a_hand_is_shown_trumps_high_to_low_then_suits_and_the_fool_apart():
    assert codes(mask_of(["F", "5B", "KC", "0", "20", "4O", "MS"])) == ["20", "0", "KC", "4O", "MS", "5B", "F"]


def test_suit_ranks_king_high_down_to_the_4_of_coins_R13():
    for suit in "COSB":
        ranks = SUIT_RANKS + (["4"] if suit == "O" else [])
        for hi, lo in zip(ranks, ranks[1:]):
            assert trick_winner([card(lo + suit), card(hi + suit), card("5" + ("C" if suit != "C" else "S"))]) == 1


def test_trumps_rank_20_down_to_1_then_miseria_R13():
    order = [str(n) for n in range(20, -1, -1)]
    for hi, lo in zip(order, order[1:]):
        assert trick_winner([card(lo), card(hi), card("KC")]) == 1
    assert trick_winner([card("KC"), card("0"), card("QC")]) == 1  # the lowest trump beats a King
