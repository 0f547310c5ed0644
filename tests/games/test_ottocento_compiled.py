"""The compiled Ottocento (setup.py, mypyc) against its Python source, the reference: the same
deals, a monte, discards, declarations, signals and plays, refusals, views, records and counts."""

from __future__ import annotations

import os
import random

from tarocchi.engine import playout
from tarocchi.games import ottocento
from tarocchi.pure_engine import is_compiled, pure, pure_game

BAD = ["a monte", "gioco", "discard KC 7C", "discard 18 3", "declare", "declare kings:KC,KO,KS",
       "declare queens:QC,QC", "7C volo", "F trionfi", "F volo", "F", "xx", None, 3.0, True, 10**30]


def test_ottocento_is_compiled_unless_asked_not_to():
    assert is_compiled(ottocento) == (os.environ.get("TAROCCHI_PURE", "") in ("", "0"))


def test_the_compiled_ottocento_plays_as_the_source_does():
    source, walker = pure_game("ottocento"), pure("playout")
    for seed in range(60):
        rng = random.Random(seed)
        order, dealer = rng.sample(range(62), 62), rng.randrange(4)
        options = ottocento.Options(signals=seed % 3 != 0)
        compiled = ottocento.Deal(4, dealer, order, options)
        reference = source.Deal(4, dealer, order, source.Options(signals=options.signals))
        rngs = random.Random(seed), random.Random(seed)
        while not compiled.done:
            seat = compiled.to_act
            bad = rng.choice(BAD)
            assert compiled.refusal(seat, bad) == reference.refusal(seat, bad), bad
            assert [compiled.view(s) for s in range(4)] == [reference.view(s) for s in range(4)]
            action = playout.random_action(compiled, rngs[0])
            assert action == walker.random_action(reference, rngs[1])
            compiled.apply(action)
            reference.apply(action)
        assert compiled.record() == reference.record() and compiled.returns() == reference.returns()
        assert compiled.public_events() == reference.public_events()
