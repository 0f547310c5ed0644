"""A fixed set of positions where the right play is clear; the rule and search bots must find it.

Each position is a chosen deck order (tests/bots/positions.py) and the actions reaching it,
replayed through the engine. The bots see only ``Deal.view(seat)``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarocchi.bots import make_player
from tarocchi.bots.sicilian.expert import SicilianExpert
from tarocchi.bots.sicilian.search_bot import SearchBot
from tarocchi.engine.records import replay

from .positions import deck_for, reach

LEVELS = ["rule", "search", "expert"]


def player(level: str):
    if level == "search":
        return SearchBot(seed=5, time_limit=None)
    if level == "expert":
        return SicilianExpert(seed=5, time_limit=None)
    return make_player(level, seed=5)


# Three seats, dealer 2: seat 0 says vado solo on five cards (a stata, R5), the others pass;
# it takes the monte (turned up, R11), discards the monte's three coins, nobody announces.
STATA_OPENING = [(0, "vado solo"), (1, "passo"), (2, "passo"), (0, "discard 5O 6O 7O"),
                 (0, "no"), (1, "no"), (2, "no")]
MONTE = ["5O", "6O", "7O"]
# Trick 1: seat 1 leads 5B, seat 2 takes it with KB, the soloist follows with 6B.
TRICK_1 = [(1, "5B"), (2, "KB"), (0, "6B")]


def three_seat_trick_2(fixed: dict[int, list[str]], voids: dict[int, str], trick_2: list[tuple[int, str]]):
    fixed = {0: ["6B"] + fixed.get(0, []), 1: ["5B"] + fixed.get(1, []), 2: ["KB"] + fixed.get(2, [])}
    deck = deck_for(3, 2, fixed, monte=MONTE, voids=voids, seed=11)
    return reach(3, 2, deck, STATA_OPENING + TRICK_1 + trick_2)


@pytest.mark.parametrize("level", LEVELS)
def test_feeds_points_to_a_friends_sure_trick(level):
    """R13/R15: the friend leads KC, the soloist follows, we play last: the Horse goes on it."""
    deal = three_seat_trick_2({0: ["5C", "QC"], 1: ["HC", "6C"], 2: ["KC", "F"]}, {1: "C"},
                              [(2, "KC"), (0, "5C")])
    assert deal.to_act == 1
    assert player(level)(deal.view(1)) == "HC"


@pytest.mark.parametrize("level", LEVELS)
def test_takes_the_soloists_queen_with_the_king(level):
    """Last to play, the soloist's Queen winning: the King takes it (and 4 points)."""
    deal = three_seat_trick_2({0: ["QC"], 1: ["KC", "6C"], 2: ["7C"]}, {1: "C", 0: "C"},
                              [(2, "7C"), (0, "QC")])
    assert player(level)(deal.view(1)) == "KC"


@pytest.mark.parametrize("level", LEVELS)
def test_does_not_throw_a_king_on_the_soloists_trump(level):
    """The soloist (void in cups) has trumped: the King would be lost, play the 6."""
    deal = three_seat_trick_2({0: ["5"], 1: ["KC", "6C"], 2: ["7C"]}, {1: "C", 0: "C"},
                              [(2, "7C"), (0, "5")])
    assert player(level)(deal.view(1)) == "6C"


@pytest.mark.parametrize("level", LEVELS)
def test_does_not_lead_the_1_into_trumps(level):
    """R15 pigliata: leading the 1 while the soloist holds higher trumps gives it away."""
    deck = deck_for(3, 2, {0: ["20", "19", "18", "17"], 1: ["1", "5B", "6B", "7C"]}, monte=MONTE, seed=3)
    deal = reach(3, 2, deck, STATA_OPENING)
    assert deal.to_act == 1
    assert player(level)(deal.view(1)) != "1"


@pytest.mark.parametrize("level", LEVELS)
def test_does_not_lead_a_king_into_a_shown_void(level):
    """The soloist showed no batons (trumped trick 1): leading KB would see it trumped."""
    fixed = {0: ["2", "3"], 1: ["5B", "15", "KB", "6C", "7C", "8S"], 2: ["6B", "4"]}
    deck = deck_for(3, 2, fixed, monte=MONTE, voids={0: "B"}, seed=4)
    deal = reach(3, 2, deck, STATA_OPENING + [(1, "5B"), (2, "6B"), (0, "2"),
                                              (0, "3"), (1, "15"), (2, "4")])
    view = deal.view(1)
    assert deal.to_act == 1 and view["tricks"] == [1, 1, 0]
    assert player(level)(view) != "KB"


@pytest.mark.parametrize("level", LEVELS)
def test_discards_points_safely(level):
    """R11: the discard counts for the bidder, so a bare Queen goes there (voiding the suit);
    never a King or a trump."""
    fixed = {0: ["QC", "20", "19", "18", "17", "16", "15", "14", "13", "12", "11", "F", "KS", "KB", "KO"]}
    deck = deck_for(3, 2, fixed, monte=MONTE, voids={0: "C"}, seed=8)
    deal = reach(3, 2, deck, STATA_OPENING[:3])
    action = player(level)(deal.view(0))
    assert action.startswith("discard ")
    cards = action.split()[1:]
    assert "QC" in cards
    assert not any(c.startswith("K") or c.isdigit() for c in cards)


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_partner_feeds_the_caller(level):
    """Four seats, R9: seat 0 calls the 19 (it holds the 20); seat 3 holds the 19, so it
    knows it is the partner. The caller's KC leads, we play last: the Queen goes on it."""
    fixed = {0: ["20", "KB", "KC"], 1: ["5B", "5C"], 2: ["6B", "6C"], 3: ["19", "7B", "QC", "7C"]}
    deck = deck_for(4, 3, fixed, monte=MONTE, voids={0: "T", 3: "C"}, seed=9)
    actions = ([(s, "passo") for s in range(4)] + [(0, "chiamo"), (1, "passo"), (2, "passo"), (3, "passo"),
               (0, "discard 5O 6O 7O")] + [(s, "no") for s in range(4)]
               + [(1, "5B"), (2, "6B"), (3, "7B"), (0, "KB"), (0, "KC"), (1, "5C"), (2, "6C")])
    deal = reach(4, 3, deck, actions)
    view = deal.view(3)
    assert view["called"] == "19" and view.get("i_am_partner") and view["partner"] is None
    assert player(level)(view) == "QC"


def monster_at_20() -> tuple:
    """Three seats: everybody says altre cinque up to 20 cards; seat 0 speaks first."""
    fixed = {0: ["20", "19", "18", "17", "16", "1", "F", "15", "14", "13", "KC", "KO", "KS", "KB"]}
    deck = deck_for(3, 2, fixed, seed=12)
    actions = [(s, "altre cinque") for _ in range(3) for s in (0, 1, 2)]
    return reach(3, 2, deck, actions)


@pytest.mark.parametrize("level", LEVELS)
def test_goes_solo_with_a_monster(level):
    deal = monster_at_20()
    assert deal.to_act == 0 and deal.hand_size(0) == 20
    assert player(level)(deal.view(0)) == "vado solo"


@pytest.mark.parametrize("level", LEVELS)
def test_no_solo_without_trumps(level):
    """A hand without a trump does not go solo (it would lose every arie and the 20)."""
    deck = deck_for(3, 2, {}, voids={0: "T"}, seed=13)
    actions = [(s, "altre cinque") for _ in range(3) for s in (0, 1, 2)]
    deal = reach(3, 2, deck, actions)
    assert player(level)(deal.view(0)) != "vado solo"


def endgames() -> list[dict]:
    """Records (docs/records.md) of three-seat deals stopped with two tricks left, the seat to
    lead holding the highest trump still out and one other card. Found by playing rule bots
    (seeds 3, 47, 53 of a stata opening); ``meta.values`` is the exact value of each lead
    with every hand in view, the check that keeping the trump for the last trick is right."""
    path = Path(__file__).with_name("endgames.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("index", range(3))
def test_keeps_the_top_trump_to_take_the_last_trick(level, index):
    """R15: the last trick is worth the Vanto and 5 points: lead the other card first."""
    rec = endgames()[index]
    deal = replay(rec)
    seat = rec["meta"]["seat"]
    assert deal.to_act == seat and deal.tricks_left == 2 and not deal.trick
    assert player(level)(deal.view(seat)) == rec["meta"]["expect"]


# A known weakness of the expert (issue 21): its weighted worlds, 48 of them, value keeping the
# QB (the highest batons left) above feeding it by more than their noise; 300 unweighted worlds
# agree with feeding it (-0.18 against -0.25 jochi), so it is the weights' small sample.
@pytest.mark.parametrize("level", [lv if lv != "expert" else pytest.param(lv, marks=pytest.mark.xfail(
    reason="the expert's weighted worlds keep the QB (issue 21, docs/history/benchmarks.md)", strict=False)) for lv in LEVELS])
def test_opponent_feeds_its_fellow_once_the_partner_is_known(level):
    """Four seats, R9: seat 0 called the 19; seat 3 played it, so everyone knows the sides.
    Seat 1's KB holds the trick and seat 2 plays last: its Queen goes on its fellow's trick."""
    fixed = {0: ["20", "4", "6B"], 1: ["3", "KB"], 2: ["2", "QB", "7B"], 3: ["19", "5B"]}
    deck = deck_for(4, 3, fixed, monte=MONTE, voids={2: "B"}, seed=10)
    actions = ([(s, "passo") for s in range(4)] + [(0, "chiamo"), (1, "passo"), (2, "passo"), (3, "passo"),
               (0, "discard 5O 6O 7O")] + [(s, "no") for s in range(4)]
               + [(1, "3"), (2, "2"), (3, "19"), (0, "4"), (3, "5B"), (0, "6B"), (1, "KB")])
    deal = reach(4, 3, deck, actions)
    view = deal.view(2)
    assert view["partner"] == 3 and deal.to_act == 2
    assert player(level)(view) == "QB"
