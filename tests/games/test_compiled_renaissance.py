"""The compiled Renaissance game (setup.py, mypyc) against its Python source, the reference:
the same deals, refusals, views, records and counts."""

from __future__ import annotations

import os
import random

from tarocchi.engine import playout
from tarocchi.games import renaissance
from tarocchi.pure_engine import is_compiled, pure, pure_game

BAD = ["passo", "F", "21", "KC", "discard 2C 3C 4C", "discard KC KO KS", "xx", None, 3.0, True, 10**30]


def test_the_game_is_compiled_unless_asked_not_to():
    assert is_compiled(renaissance) == (os.environ.get("TAROCCHI_PURE", "") in ("", "0"))


def test_the_compiled_game_plays_as_the_source_does():
    games, walkers = (renaissance, pure_game("renaissance")), (playout, pure("playout"))
    for seed in range(150):
        rng = random.Random(seed)
        order, dealer = rng.sample(range(78), 78), rng.randrange(3)
        deals = [g.Deal(3, dealer, order) for g in games]
        rngs = [random.Random(seed), random.Random(seed)]
        step = 0
        while not deals[0].done:
            seat = deals[0].to_act
            for bad in rng.sample(BAD, 3):
                assert deals[0].refusal(seat, bad) == deals[1].refusal(seat, bad), bad
            if step % 9 == 0:
                assert [deals[0].view(s) for s in range(3)] == [deals[1].view(s) for s in range(3)]
            if deals[0].phase == "play" and step % 13 == 7:
                for d, r in zip(deals, rngs):
                    d.rollout(r)
                break
            actions = [w.random_action(d, r) for w, d, r in zip(walkers, deals, rngs)]
            assert actions[0] == actions[1]
            for d in deals:
                d.apply(actions[0])
            step += 1
        assert deals[1].done and deals[0].record() == deals[1].record()
        assert deals[0].count.to_json() == deals[1].count.to_json()
        assert deals[0].public_events() == deals[1].public_events()
