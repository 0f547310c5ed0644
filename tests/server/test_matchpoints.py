"""Matchpoints (issue 59): the duplicate's scoring, as properties over any group of results."""

from __future__ import annotations

from hypothesis import given, strategies as st

from tarocchi.server.core.matchpoints import matchpoints, percent, standings

scores = st.dictionaries(st.text(min_size=1, max_size=3), st.integers(-50, 50).map(float), min_size=1, max_size=12)


def by_hand(group: dict) -> dict:
    """The definition itself, pair by pair."""
    return {a: sum(1.0 if s > t else 0.5 if s == t else 0.0 for b, t in group.items() if b != a)
            for a, s in group.items()}


@given(scores)
def test_matchpoints_are_one_for_each_beaten_and_a_half_for_each_tie(group):
    assert matchpoints(group) == by_hand(group)


@given(scores)
def test_a_group_shares_exactly_one_point_for_each_pair(group):
    n = len(group)
    assert sum(matchpoints(group).values()) == n * (n - 1) / 2


@given(scores)
def test_percent_runs_from_0_to_100_and_averages_50(group):
    shares = percent(group)
    if len(group) < 2:
        assert shares == {}
        return
    assert all(0 <= s <= 100 for s in shares.values())
    assert abs(sum(shares.values()) / len(shares) - 50) < 1e-9


def test_standings_rank_by_average_share_and_leave_computers_unranked():
    groups = [{"ada": 10.0, "bice": 5.0, "cpu": 5.0}, {"ada": -3.0, "bice": 4.0, "cpu": 0.0}, {"ada": 7.0}]
    rows = standings(groups, ranked={"ada", "bice"})
    assert [r["player"] for r in rows] == ["bice", "ada"]  # (the computer compared, never listed)
    bice, ada = rows
    assert (ada["matchpoints"], ada["groups"]) == (2.0, 2)  # (a group of one counts for nothing)
    assert (bice["matchpoints"], bice["groups"]) == (0.5 + 2, 2)
    assert ada["percent"] == (100 + 0) / 2 and bice["percent"] == (25 + 100) / 2
    assert [r["rank"] for r in rows] == [1, 2]


def test_equal_standings_share_a_place_as_sport_counts():
    rows = standings([{"a": 1.0, "b": 1.0, "c": 0.0}])
    assert [(r["player"], r["rank"]) for r in rows] == [("a", 1), ("b", 1), ("c", 3)]
