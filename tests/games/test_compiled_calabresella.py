"""The compiled Calabresella (setup.py, mypyc) against its Python source, the reference: the
same deals of every contract, refusals, views, records and counts."""

from __future__ import annotations

import os
import random

from tarocchi.engine import playout
from tarocchi.games import calabresella
from tarocchi.pure_engine import is_compiled, pure, pure_game

BAD = ["passo", "sta bene", "chiamo 20", "restituisco F", "scarto KC KO KS", "prendo 5C", "F", "xx", None, 3.0,
       True, 10**30]


def test_calabresella_is_compiled_unless_asked_not_to():
    assert is_compiled(calabresella) == (os.environ.get("TAROCCHI_PURE", "") in ("", "0"))


def test_the_compiled_calabresella_plays_as_the_source_does():
    source, walker = pure_game("calabresella"), pure("playout")
    for seed in range(120):
        rng = random.Random(seed)
        order, dealer = rng.sample(range(63), 63), rng.randrange(3)
        compiled, reference = calabresella.Deal(3, dealer, order), source.Deal(3, dealer, order)
        rngs = random.Random(seed), random.Random(seed)
        while not compiled.done:
            seat = compiled.to_act
            bad = rng.choice(BAD)
            assert compiled.refusal(seat, bad) == reference.refusal(seat, bad), bad
            assert [compiled.view(s) for s in range(3)] == [reference.view(s) for s in range(3)]
            action = playout.random_action(compiled, rngs[0])
            assert action == walker.random_action(reference, rngs[1])
            compiled.apply(action)
            reference.apply(action)
        assert compiled.record() == reference.record() and compiled.returns() == reference.returns()
        assert compiled.public_events() == reference.public_events()
