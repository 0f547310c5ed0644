"""Tournament seating and standings (issue 59, core/pairing.py), as properties."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings, strategies as st

from tarocchi.server.core.pairing import (
    Result, Seat, computers_at, duplicate_groups, form_tables, match_points, meetings, seat_players, standings,
    swiss_order,
)

sizes = st.sampled_from([3, 4])


def partitions(people: list, shape: list[int]):
    """Every way to seat ``people`` at tables of ``shape`` people (the oracle, for small numbers)."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for others in itertools.combinations(rest, shape[0] - 1):
        left = [p for p in rest if p not in others]
        for more in partitions(left, shape[1:]):
            yield [[first, *others]] + more


def repeats(tables, met) -> int:
    return sum(b in met.get(a, ()) for t in tables for a, b in itertools.combinations([p for p in t if p is not None], 2))


@st.composite
def histories(draw, most=9):
    size = draw(sizes)
    n = draw(st.integers(1, most))
    people = list(range(n))
    met: dict = {}
    for a, b in draw(st.lists(st.tuples(st.sampled_from(people), st.sampled_from(people)), max_size=12)):
        if a != b:
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
    order = draw(st.permutations(people))
    return size, order, met


@given(histories(most=30))
def test_everyone_sits_once_at_tables_of_the_games_size(case):
    size, order, met = case
    tables = form_tables(order, size, met)
    seated = [p for t in tables for p in t if p is not None]
    assert sorted(seated) == sorted(order)
    assert all(len(t) == size for t in tables)
    assert len(tables) == -(-len(order) // size)
    assert all(any(p is not None for p in t) for t in tables)  # (no table of computers alone)


@settings(max_examples=60, deadline=None)
@given(histories(most=9))
def test_no_repeated_table_mates_where_a_seating_allows_it(case):
    size, order, met = case
    shape = [size - c for c in computers_at(len(order), size)]
    possible = min(repeats(t, met) for t in partitions(list(order), shape))
    if possible == 0:
        assert repeats(form_tables(order, size, met), met) == 0


def test_the_first_table_is_the_first_players_where_they_have_not_met():
    assert form_tables(list("abcdef"), 3) == [list("abc"), list("def")]
    met = {"a": {"b"}, "b": {"a"}}
    assert form_tables(list("abcdef"), 3, met) == [list("acd"), list("bef")]


def test_computers_are_spread_one_a_table_from_the_last():
    assert computers_at(7, 3) == [0, 1, 1]
    assert computers_at(5, 4) == [1, 2]  # (two tables, three computers)
    assert computers_at(2, 4) == [2]
    assert computers_at(9, 3) == [0, 0, 0]


def test_a_duplicate_moves_people_to_new_table_mates_and_seats():
    """Sixteen players at four-seat tables, three rounds: nobody meets anyone twice, and nobody
    holds the same seat in the first two rounds (in the third, the fewest repeats a table's
    people allow). (Twelve could not: three tables of four after three tables of four put
    two of a first table together again.)"""
    people = list(range(16))
    rounds: list = []
    held: dict = {}
    for r in range(3):
        tables = form_tables(people, 4, meetings(rounds))
        tables = [seat_players(t, held) for t in tables]
        for t in tables:
            for s, p in enumerate(t):
                held.setdefault(p, {}).setdefault(s, 0)
                held[p][s] += 1
        rounds.append(tables)
        if r == 1:
            assert all(max(seats.values()) <= 2 for seats in held.values())
    for r in range(1, 3):
        assert repeats(rounds[r], meetings(rounds[:r])) == 0
    assert all(max(seats.values()) <= 2 for seats in held.values())


def seats_of(players, totals, absent=None, team=None):
    absent = absent or [False] * len(players)
    return [Seat(p, team[i] if team else i, t, a) for i, (p, t, a) in enumerate(zip(players, totals, absent))]


def test_points_by_place_share_ties_and_put_leavers_last():
    assert match_points(seats_of("abc", [5, 0, -5])) == [2, 1, 0]
    assert match_points(seats_of("abc", [5, 5, -10])) == [1.5, 1.5, 0]
    assert match_points(seats_of("abc", [9, 0, -9], absent=[True, False, False])) == [0, 2, 1]
    # Ottocento: the two sides, partners placed together
    assert match_points(seats_of("abcd", [900, 100, 900, 100], team=[0, 1, 0, 1])) == [1, 0, 1, 0]


results = st.lists(st.builds(
    lambda players, totals, absent, r: Result(r, 0, seats_of(players, totals, absent)),
    st.permutations(["a", "b", "c", None]).map(lambda p: p[:3]),
    st.lists(st.integers(-20, 20), min_size=3, max_size=3),
    st.lists(st.booleans(), min_size=3, max_size=3),
    st.integers(1, 3)), max_size=8)


@given(results, st.sampled_from(["arena", "swiss"]), st.randoms())
def test_point_standings_rank_people_only_and_do_not_depend_on_the_order(found, kind, rng):
    rows = standings(kind, found)
    assert None not in [r["player"] for r in rows]
    shuffled = list(found)
    rng.shuffle(shuffled)
    assert standings(kind, shuffled) == rows
    total = sum(r["points"] for r in rows)
    assert total <= sum(sum(match_points(r.seats)) for r in found)
    ranks = [r["rank"] for r in rows]
    assert ranks == sorted(ranks) and (not ranks or ranks[0] == 1)


def test_swiss_tie_breaks_points_then_buchholz_then_firsts():
    """a and b both have 3 points; a met c (4) and b (3), b met a (3) and d (2): a first. A
    computer's seat is placed and beaten, never listed, and counts 0 to Buchholz."""
    found = [Result(1, 0, seats_of(["a", "b", None], [10, 0, -10])), Result(1, 1, seats_of(["c", "d", None], [10, 0, -10])),
             Result(2, 0, seats_of(["a", "c", None], [0, 10, -10])), Result(2, 1, seats_of(["b", "d", None], [10, 0, -10]))]
    rows = standings("swiss", found, players="abce")
    assert [(r["player"], r["points"], r["buchholz"], r["rank"]) for r in rows] == [
        ("c", 4, 5, 1), ("a", 3, 7, 2), ("b", 3, 5, 3), ("d", 2, 7, 4), ("e", 0, 0, 5)]
    assert swiss_order(rows, list("abcde")) == list("cabde")
    # equal on every tie-break: one rank, listed by key
    rows = standings("swiss", [Result(1, 0, seats_of(["b", "a", None], [5, 5, 0]))])
    assert [(r["player"], r["rank"]) for r in rows] == [("a", 1), ("b", 1)]


@st.composite
def duplicates(draw):
    """Some rounds of a duplicate: each table's seats with a result for each deal."""
    out = []
    people = list("abcdefgh")
    for r in range(draw(st.integers(1, 3))):
        random.Random(r).shuffle(people)
        for t in range(2):
            seats = people[t * 4:t * 4 + 4]
            seats = [p if draw(st.booleans()) or i else None for i, p in enumerate(seats)]
            out.append(Result(r + 1, t, [Seat(p, s, 0, False, draw(st.lists(st.integers(-5, 5), min_size=2, max_size=2)))
                                         for s, p in enumerate(seats)]))
    return out


@given(duplicates(), st.randoms())
def test_duplicate_standings_compare_each_seats_cards_and_never_rank_computers(found, rng):
    rows = standings("duplicate", found)
    assert all(isinstance(r["player"], str) for r in rows)
    groups = duplicate_groups(found)
    assert all(len(g) == 2 for g in groups)  # (two tables: each seat's cards held twice a deal)
    shuffled = list(found)
    rng.shuffle(shuffled)
    assert standings("duplicate", shuffled) == rows
    for row in rows:
        assert 0 <= row["percent"] <= 100


def test_ottocento_partnerships_are_compared_by_side():
    """Each seat's result is its side's (B24: a deal's payments by seat are the side's score):
    partners earn the same, and each side is compared with the same side at the other table."""
    def table(n, players, a, b):
        return Result(1, n, [Seat(p, s % 2, 0, False, [a if s % 2 == 0 else b]) for s, p in enumerate(players)])
    rows = standings("duplicate", [table(0, "abcd", 300, 100), table(1, "efgh", 200, 250)])
    share = {r["player"]: r["percent"] for r in rows}
    assert share["a"] == share["c"] == 100 and share["e"] == share["g"] == 0  # (300 beats 200 holding side A's cards)
    assert share["f"] == share["h"] == 100 and share["b"] == share["d"] == 0  # (250 beats 100 with side B's)


def test_two_hundred_players_meet_new_people_for_eight_rounds():
    """The most a tournament takes, at tables of three: past the ordered search's steps, the
    greedy seating and its swaps still find no repeated meeting."""
    people, rounds = list(range(200)), []
    for _ in range(8):
        tables = form_tables(people, 3, meetings(rounds))
        assert repeats(tables, meetings(rounds)) == 0
        rounds.append(tables)
