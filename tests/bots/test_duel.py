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


@pytest.mark.parametrize("game", ["sicilian", *(pytest.param(g, marks=pytest.mark.slow) for g in ("renaissance", "calabresella", "ottocento"))])
def test_the_duel_runs_the_expert_in_every_game(game, capsys, monkeypatch):
    """Issue 21: ``tarocchi duel --game G expert search`` (here a small budget: two worlds a
    decision) prints each bot's table with its CPU time per decision."""
    monkeypatch.setattr(levels_for(game)["expert"], "worlds", 2)
    assert main(["duel", "--game", game, "--deals", "1", "--seed", "3", "expert", "rule"]) == 0
    out = capsys.readouterr().out
    assert "| expert |" in out and "p95 CPU ms" in out and "difference expert - rule" in out


def _deal_in_play(game_name: str, cards: int = 2):
    """A deal of ``game_name`` played by rule bots into its play, ``cards`` cards on."""
    import random

    from tarocchi.bots import make_player
    from tarocchi.engine.game import get_game

    game = get_game(game_name)
    deck = list(range(game.deck.size))
    random.Random(f"seeing:{game_name}").shuffle(deck)
    deal = game.new_deal(game.seats[0], 0, deck, log=False)
    rule = [make_player("rule", seed=s, game=game_name) for s in range(deal.seats)]
    played = 0
    while not deal.done and played < cards:
        played += deal.phase == "play"
        deal.apply(rule[deal.to_act](deal.view(deal.to_act)), deal.to_act)
    assert not deal.done and deal.phase == "play"
    return deal


@pytest.mark.parametrize("game", ["sicilian", "renaissance", "calabresella", "ottocento"])
@pytest.mark.parametrize("level", ["search", "expert"])
def test_a_seeing_player_samples_the_true_deal_and_only_in_the_duel(game, level):
    """Issue 21's perfect-information bound: ``LEVEL+seeing`` is the same bot whose every
    world is the deal itself (every hand as dealt and played); the bot at the table, the same
    level without the mark, samples worlds that differ from it."""
    import random

    from tarocchi.bots import make_player
    from tarocchi.bots.duel import measured_player

    deal = _deal_in_play(game)
    me = deal.to_act
    seeing = measured_player(f"{level}+seeing", seed=1, game=game)
    seeing.truth = deal
    plain = make_player(level, seed=1, game=game)

    def worlds(player):
        rng = random.Random(1)
        if hasattr(player, "knowledge"):
            seen = player.knowledge(deal.view(me))
            return [seen.world(rng, relax=True) for _ in range(8)]
        from tarocchi.bots.sicilian.knowledge import read_view
        from tarocchi.bots.sicilian.sampler import parse_log
        seen = read_view(deal.view(me))
        return [player.sample_world(seen, rng, parse_log(seen)) for _ in range(8)]

    true_hands = list(deal.hands)
    assert all(w is not None and list(w.hands) == true_hands and w is not deal for w in worlds(seeing))
    assert any(w is not None and list(w.hands) != true_hands for w in worlds(plain))
    assert not hasattr(plain, "truth")
    assert seeing(deal.view(me)) in {c["action"] for c in deal.view(me)["choices"] if c["reason"] is None}


def test_a_time_budget_mark_sets_the_experts_cpu_time_and_lifts_its_worlds_cap():
    from tarocchi.bots.duel import VARIED_WORLDS, measured_player

    player = measured_player("expert@0.25", seed=1, game="renaissance")
    assert player.time_limit == 0.25 and player.worlds == VARIED_WORLDS
    assert measured_player("expert", seed=1, game="renaissance").time_limit == 0.6
    capped = measured_player("expert@0.85/96", seed=1, game="ottocento")
    assert (capped.time_limit, capped.worlds) == (0.85, 96)
    for wrong in ("expert@0.85/0", "expert@0.85/many", "expert@0.85/", "expert@0.85/100001", "expert@0.85/²"):
        with pytest.raises(ValueError, match="cap of worlds"):
            measured_player(wrong, seed=1, game="ottocento")
    with pytest.raises(ValueError, match="time budget"):
        measured_player("expert@/96", seed=1, game="ottocento")
    with pytest.raises(ValueError):
        measured_player("rule@1", seed=1, game="sicilian")
    with pytest.raises(ValueError):
        measured_player("rule+seeing", seed=1, game="sicilian")


@pytest.mark.slow
def test_the_duel_command_takes_the_measuring_marks(capsys):
    assert main(["duel", "--game", "calabresella", "--deals", "1", "--seed", "4", "search+seeing", "rule"]) == 0
    assert "difference search+seeing - rule" in capsys.readouterr().out
    assert main(["duel", "--deals", "1", "oracle+seeing", "rule"]) == 2
    assert main(["duel", "--deals", "1", "expert@soon", "rule"]) == 2
    assert main(["duel", "--deals", "1", "expert@0.5/lots", "rule"]) == 2
    assert main(["duel", "--deals", "1", "rule+seeing", "rule"]) == 2
    assert "samples no worlds" in capsys.readouterr().err
