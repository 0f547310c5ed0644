"""What a game lists and what it accepts never disagree (issue 19): at every step of random deals
and of deals built from skewed hands (the Sicilian bidder at three and four seats, R11; the
Renaissance dealer, A7; each lay of Calabresella, C13; the Ottocento dealer, B8), every action
``legal_actions()`` lists is accepted by ``refusal()`` and ``apply()``, and the actions near them
that it does not list are refused. The checks and the skewed deals are
``tarocchi.engine.contract``'s, the same code bench/contract.py runs at benchmark size (2,000
random and 500 skewed deals a game); here hypothesis draws a share of them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from tarocchi.engine.contract import SCENARIOS, Checker, deal_positions, run, skewed_order
from tarocchi.engine.game import game_names, get_game

GAMES = game_names()
SEEDS = st.integers(0, 2**63)
CHECKERS = {name: Checker(name) for name in GAMES}  # one per game: the words seen listed carry over


def no_problems(tally) -> None:
    assert not tally.problems, "\n".join(tally.problems[:5])
    assert tally.steps > 0 and tally.listed > 0


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=30, deadline=None)
@given(seed=SEEDS)
def test_on_random_deals_listed_means_accepted(name, seed):
    no_problems(CHECKERS[name].random_deal(random.Random(seed)))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, data=st.data())
def test_on_skewed_deals_listed_means_accepted(name, seed, data):
    scenario = data.draw(st.sampled_from(SCENARIOS[name]), label="scenario")
    no_problems(CHECKERS[name].skewed_deal(random.Random(seed), scenario))


# What the skewed deals must reach: (seats, phase, cards to lay, other cards held). Renaissance's
# dealer holds at least 2 others (28 cards, 26 never discarded, A7) and Ottocento's at least 9
# (17 cards, 8 of 5 points, B8): there the short hand exists only in discards.py's own cases.
SHORT = {
    "sicilian": {(3, "discard", 3, 0), (3, "discard", 3, 1), (4, "discard", 3, 0), (4, "discard", 3, 1)},  # R11
    "renaissance": {(3, "discard", 3, 2)},  # A7
    "calabresella": {(3, "discard", 3, 0), (3, "discard", 3, 1), (3, "lay", 2, 0), (3, "lay", 2, 1),
                     (3, "lay", 1, 0)},  # C13: each lay size
    "ottocento": set(),  # B8
}


@pytest.mark.parametrize("name", GAMES)
def test_the_skewed_deals_reach_the_short_discards_they_are_built_for(name):
    tally = run(name, 0, 4 * len(SCENARIOS[name]), seed=19, checker=CHECKERS[name])
    no_problems(tally)
    assert SHORT[name] <= set(tally.short)
    if name == "ottocento":
        assert not tally.short  # B8: of the dealer's 17 cards at most 8 are of 5 points


@pytest.mark.parametrize("name", GAMES)
def test_a_skewed_hand_is_dealt_where_the_deal_puts_that_seat(name):
    game = get_game(name)
    for scenario in SCENARIOS[name]:
        dealer = scenario.seats - 1
        order, others = skewed_order(game, scenario, dealer, random.Random(len(scenario.label)))
        assert sorted(order) == list(range(game.deck.size))
        hands, aside = deal_positions(game, scenario.seats, dealer)
        seat = (dealer + scenario.skewed) % scenario.seats
        placed = [order[p] for p in hands[seat] + [aside[i] for i in scenario.monte]]
        assert sum(not game.discard_rule.never >> c & 1 for c in placed) == others
        # what the deal gives the seat now is among its places (R3, A6, C7, B6: the first packet
        # at least; all of them where everything is dealt at once)
        deal = game.new_deal(scenario.seats, dealer, order, game.options.from_json(None))
        dealt_now = {game.deck.card(c) for c in deal.view(seat)["hand"]}
        assert len(dealt_now) >= 5 and dealt_now <= {order[p] for p in hands[seat] + aside}


@pytest.mark.parametrize("name", ["sicilian", "calabresella"])
def test_the_check_finds_a_discard_rule_that_refuses_what_is_listed(name, monkeypatch):
    # issue 19's defect: every discard holding a never-discarded card refused, short or not
    rule = type(get_game(name).discard_rule)
    honest = rule.refusal
    monkeypatch.setattr(rule, "refusal", lambda self, hand, cards: (
        self.never_words if cards & self.never and not cards & ~hand else honest(self, hand, cards)))
    tally = run(name, 0, len(SCENARIOS[name]), seed=19, checker=Checker(name))
    assert any("refused" in p for p in tally.problems), tally.problems[:3]
