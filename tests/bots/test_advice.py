"""The players' side of hints and reviews (``tarocchi.bots.advice``, issue 21): the strongest
level answers, from one seat's view; a review's decisions are the seat's own choices, each
from the view it had then, and compared as actions (a discard names its cards in any order)."""

from __future__ import annotations

import math
import random

import pytest

from tarocchi.bots import advice, expert, levels_for
from tarocchi.engine.game import game_names, get_game
from tarocchi.engine.playout import play_out
from tarocchi.engine.records import new_deal


def played(game: str, seed: int) -> dict:
    """A deal of random legal play, to the count: its record."""
    g = get_game(game)
    rng = random.Random(seed)
    return play_out(g.shuffled(g.seats[-1], rng.randrange(g.seats[-1]), rng), rng).record()


@pytest.mark.parametrize("game", game_names())
def test_the_advice_comes_from_the_games_strongest_level(game):
    levels = levels_for(game)
    assert advice.strongest_level(game) == list(levels)[-1]
    assert isinstance(advice._player(game), list(levels.values())[-1])
    assert advice._player(game) is advice._player(game)  # made once per worker
    # Its CPU budget is the server's advice budget (``serve --advice-seconds``), by default the
    # level's own; a player is made once per budget.
    assert advice._player(game).time_limit == advice.ADVICE_SECONDS == expert.TIME_LIMIT
    quick = advice._player(game, 0.2)
    assert quick.time_limit == 0.2 and quick is advice._player(game, 0.2) and quick is not advice._player(game)


@pytest.mark.parametrize("game", game_names())
def test_a_reviews_decisions_are_the_seats_choices_each_from_the_view_it_had(game):
    record = played(game, 4)
    deal = new_deal(record)
    choices = {}
    for i, a in enumerate(record["actions"]):
        view = deal.view(a["seat"])
        choices[i] = (a["seat"], view, sum(c["reason"] is None for c in view["choices"]))
        deal.apply(a["action"], a["seat"])
    for seat in range(record["seats"]):
        found = advice.decisions(record, seat)
        assert found == [i for i, (s, _, n) in choices.items() if s == seat and n > 1]
        for i in found[:3]:
            view, action = advice.view_before(record, i)
            assert view == choices[i][1] and action == record["actions"][i]["action"]


@pytest.mark.parametrize("game", [g if g == "sicilian" else pytest.param(g, marks=pytest.mark.slow) for g in game_names()])
def test_a_reviewed_decision_is_the_seats_action_against_the_players(game):
    record = played(game, 6)
    parse = get_game(game).parse_action
    for index in advice.decisions(record, 0)[:6]:
        item = advice.review(game, record, index)
        view, action = advice.view_before(record, index)
        ranked = advice.ranked(game, view)
        assert item["index"] == index and item["phase"] == view["phase"] and item["played"] == action
        assert item["same"] == (parse(item["best"]) == parse(action))
        if item["same"]:
            assert item["cost"] == 0.0
        elif item["cost"] is not None:
            assert math.isclose(item["cost"], item["best_score"] - item["played_score"], abs_tol=0.011)
        assert 1 <= len(advice.hint(game, view)) <= advice.HINT_ACTIONS
        assert len(ranked) >= 1


def test_a_discard_is_the_same_whatever_the_order_of_its_cards(monkeypatch):
    record = played("sicilian", 1)
    index = next((i for i, a in enumerate(record["actions"]) if a["action"].startswith("discard ")), None)
    assert index is not None
    view, action = advice.view_before(record, index)
    reordered = "discard " + " ".join(reversed(action.split()[1:]))

    class Same:
        def evaluate(self, view):
            return [(reordered, float("nan"))]
    monkeypatch.setattr(advice, "_player", lambda game, seconds: Same())
    item = advice.review("sicilian", record, index)
    assert item["same"] and item["cost"] == 0.0 and item["best"] == reordered
