"""The duplicate duel: the same deck orders with the bots rotated through the seats."""

from __future__ import annotations

import pytest

from tarocchi.bots import levels_for
from tarocchi.bots.duel import duplicate_deal, run
from tarocchi.cli import main


@pytest.mark.parametrize("seats", [3, 4])
def test_each_deck_is_played_once_per_seat_and_sums_to_zero(seats):
    """R15: every deal's payments sum to zero, so over one duplicate deal A's payments (one
    per seat it sat in) and B's (the rest) cancel exactly."""
    for index in range(4):
        r = duplicate_deal((seats, 5, index, "rule", "random", False))
        assert len(r["a_pay"]) == seats and len(r["b_pay"]) == seats * (seats - 1)
        assert sum(r["a_pay"]) + sum(r["b_pay"]) == 0
        assert r["bids"]["rule"][0] == seats and r["bids"]["random"][0] == seats * (seats - 1)


def test_mirror_plays_both_rotations():
    r = duplicate_deal((3, 5, 0, "rule", "random", True))
    assert len(r["a_pay"]) == len(r["b_pay"]) == 9


def test_the_same_seed_gives_the_same_duel():
    a = run(3, 3, 11, "rule", "random")
    b = run(3, 3, 11, "rule", "random")
    assert a["diff"] == b["diff"] and a["bots"]["rule"]["contracts"] == b["bots"]["rule"]["contracts"]


def test_duel_command_prints_the_table(capsys):
    assert main(["duel", "--seats", "3", "--deals", "4", "--seed", "2", "rule", "random"]) == 0
    out = capsys.readouterr().out
    assert "| rule |" in out and "| random |" in out and "difference rule - random" in out
    assert main(["duel", "--deals", "1", "rule", "oracle"]) == 2


@pytest.mark.parametrize("game", ["sicilian", "renaissance", "calabresella", "ottocento"])
def test_the_duel_runs_the_expert_in_every_game(game, capsys, monkeypatch):
    """Issue 21: ``tarocchi duel --game G expert search`` (here a small budget: two worlds a
    decision) prints each bot's table with its CPU time per decision."""
    monkeypatch.setattr(levels_for(game)["expert"], "worlds", 2)
    assert main(["duel", "--game", game, "--deals", "1", "--seed", "3", "expert", "rule"]) == 0
    out = capsys.readouterr().out
    assert "| expert |" in out and "p95 CPU ms" in out and "difference expert - rule" in out
