"""The shared pieces with the options later games need: equal-ranking trumps where the last one
played wins (Ottocento's Moors, B2), a Fool that may lead, a discard of two (B8); and a deck
counted in pairs (B4). Built on small decks made for the test, so that no game is assumed."""

from __future__ import annotations

import pytest

from tarocchi.engine.deck import Deck, Suit
from tarocchi.engine.discards import DiscardRule
from tarocchi.engine.tricks import TrickRules

# Trumps low to high: the Bégato 0, the four Moors 1-4 (equal), then 5 and 6; the Matto F.
DECK = Deck("test", trumps=["0", "1", "2", "3", "4", "5", "6"], fool="F",
            suits=[Suit("C", "Cups", "Coppe", ("1", "6", "K")), Suit("S", "Swords", "Spade", ("6", "1", "K"))],
            values={"0": 5, "F": 5, "6": 5}, rank_values={"K": 5}, batch=2)
MOORS = DECK.mask_of(["1", "2", "3", "4"])


def winner(rules: TrickRules, *codes: str) -> str:
    return codes[rules.winner([DECK.card(c) for c in codes])]


def test_equal_trumps_on_top_the_last_one_played_wins_B2():
    rules = TrickRules(DECK, fool_leads=True, equal_trumps=MOORS)
    assert winner(rules, "2", "4", "KC") == "4"
    assert winner(rules, "4", "2", "1") == "1"  # not the highest number: the last Moor
    assert winner(rules, "3", "0", "1") == "1"
    assert winner(rules, "1", "5", "4") == "5"  # a higher trump beats every Moor
    assert winner(rules, "KC", "1C", "6C") == "KC"
    plain = TrickRules(DECK, fool_leads=True)
    assert winner(plain, "4", "2", "1") == "4"  # without the option, the higher bit wins


def test_the_fool_leads_only_where_the_game_lets_it():
    hand = DECK.mask_of(["F", "KC", "5"])
    assert TrickRules(DECK, fool_leads=True).legal(hand, []) == hand
    assert TrickRules(DECK, fool_leads=False).legal(hand, []) == DECK.mask_of(["KC", "5"])
    assert TrickRules(DECK, fool_leads=False).refusal(hand, DECK.fool, []) == "the Fool cannot lead"
    # after a led Fool the second card fixes the suit
    rules = TrickRules(DECK, fool_leads=True)
    assert rules.legal(DECK.mask_of(["KS", "1C", "5"]), [DECK.fool, DECK.card("6C")]) == DECK.mask_of(["1C"])
    assert winner(rules, "F", "6C", "1C") == "6C"  # this deck's cups run 1, 6, K


def test_a_deck_counted_in_pairs_B4():
    assert DECK.points(DECK.mask_of(["KC", "1C"])) == 5 + 1 - 1
    assert DECK.points(DECK.mask_of(["KC", "1C", "6C", "KS"])) == 12 - 2
    assert DECK.points(DECK.mask_of(["6C"])) == 0  # a leftover part of a pair loses 1 too


@pytest.mark.parametrize("cards, why", [
    (["1C", "6C"], None),
    (["KC", "1C"], "never a 5-point card"),
    (["1C"], "discard two cards"),
    (["1C", "6S"], "that card is not in your hand"),
])
def test_a_discard_of_two_never_a_five_point_card_B8(cards, why):
    rule = DiscardRule(2, never=DECK.mask_of(["KC", "KS", "0", "6", "F"]), fallback=0,
                       never_words="never a 5-point card", fallback_words="")
    hand = DECK.mask_of(["KC", "1C", "6C", "0", "F"])
    assert rule.refusal(hand, DECK.mask_of(cards)) == why
    assert rule.allowed(hand) == DECK.mask_of(["1C", "6C"])
