"""``evaluate(view)``: what a search player weighed for a decision (issue 21's interface between
the players and the hint and the review), split out of ``__call__`` without changing its play.

``search_choices.jsonl`` holds seeded random deals of every game, each with positions (an
action's index in the record: the view of the seat to act before it) and the action the search
bot played there, written by the code before the split (commit ad71e39, the same small
budgets as here and no time limit, so that a decision is a function of the view): each line
is {"game", "seed", "record", "choices": [[index, action], ...]}. The positions cover every
phase that has a choice: the auctions, discards, announcements, declarations, leads, follows.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tarocchi.bots import levels_for
from tarocchi.engine.records import new_deal

POSITIONS = [json.loads(line) for line in (Path(__file__).parent / "search_choices.jsonl").read_text().splitlines()]


def search_player(game: str, seed: int):
    """Today's search level with the fixture's budgets (``search`` stays as it is, issue 21)."""
    level = levels_for(game)["search"]
    if game == "sicilian":
        return level(seed, rollouts=16, bid_worlds=4, time_limit=None)
    return level(seed, worlds=6, time_limit=None)


def views(line: dict):
    for index, played in line["choices"]:
        deal = new_deal(line["record"])
        for a in line["record"]["actions"][:index]:
            deal.apply(a["action"], a["seat"])
        yield deal.view(deal.to_act), played


@pytest.mark.parametrize("line", POSITIONS, ids=lambda line: f"{line['game']}-{line['seed']}")
def test_the_search_plays_what_it_played_before_evaluate_was_split_out(line):
    game, seed = line["game"], line["seed"]
    for view, before in views(line):
        assert search_player(game, seed)(view) == before, (view["phase"], view["hand"])


@pytest.mark.parametrize("line", POSITIONS, ids=lambda line: f"{line['game']}-{line['seed']}")
def test_evaluate_ranks_legal_actions_with_the_played_one_first(line):
    game, seed = line["game"], line["seed"]
    searched = 0
    for view, before in views(line):
        ranked = search_player(game, seed).evaluate(view)
        legal = {c["action"] for c in view["choices"] if c["reason"] is None}
        assert ranked[0][0] == before
        actions = [a for a, _ in ranked]
        assert len(set(actions)) == len(actions)
        # A discard is one action naming its cards; every other action is one of the choices.
        assert all(a in legal or a.startswith("discard ") for a in actions), (actions, legal)
        scores = [s for _, s in ranked]
        if len(ranked) == 1:
            continue
        # Weighed: a mean over sampled worlds for every action, the others after the first by it.
        searched += 1
        assert all(math.isfinite(s) for s in scores), ranked
        assert scores[1:] == sorted(scores[1:], reverse=True)
        if game != "sicilian":  # PIMC plays the best mean (ties to the rule bot's card)
            assert scores[0] == max(scores)
    assert searched > 0


def test_a_forced_or_unsearched_decision_is_the_one_action_without_a_score():
    line = next(x for x in POSITIONS if x["game"] == "sicilian")
    deal = new_deal(line["record"])
    for a in line["record"]["actions"]:
        view = deal.view(deal.to_act)
        if view["phase"] == "announce":  # the rule bot's (R12's questions)
            ranked = search_player("sicilian", 1).evaluate(view)
            assert len(ranked) == 1 and math.isnan(ranked[0][1])
            return
        deal.apply(a["action"], a["seat"])
    pytest.fail("no announcement in the deal")
