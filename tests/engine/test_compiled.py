"""The compiled engine (setup.py, mypyc) against its Python sources, the reference: the same
deals, the same refusals, the same views and counts. And a compiled module whose source has
changed since the build is refused, so old rules never run."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES

import pytest

from tarocchi.engine import playout, stale_compiled
from tarocchi.games import sicilian

from tarocchi.pure_engine import ENGINE, is_compiled, pure, pure_game

ACTIONS = ["passo", "altre cinque", "vado solo", "pago", "prendo", "chiamo", "scommessa",
           "rivanto", "no", "F", "20", "KC", "discard MC MO MS", "xx", None, 3.0, True, 10**30]


def test_the_engine_is_compiled_unless_asked_not_to():
    # CI and the benchmark figures are the compiled engine: a build that silently fell back to
    # the sources would make both lie.
    if os.environ.get("TAROCCHI_PURE", "") not in ("", "0"):
        assert not is_compiled(sicilian)
    else:
        assert is_compiled(sicilian), "run `bash scripts/setup.sh` to compile the engine"
        assert is_compiled(playout)


def _play_both(seats: int, seed: int) -> None:
    """One deal in each engine from the same deck, the same random choices and the same bad
    input: every refusal, view and the count must match."""
    engines = (sicilian, pure_game("sicilian"))
    walkers = (playout, pure("playout"))
    rng = random.Random(seed)
    deck = rng.sample(range(63), 63)
    dealer = rng.randrange(seats)
    deals = [engine.Deal(seats, dealer, deck) for engine in engines]
    rngs = [random.Random(seed), random.Random(seed)]
    steps = 0
    while not deals[0].done:
        assert not deals[1].done
        seat = deals[0].to_act
        for bad in rng.sample(ACTIONS, 3):
            assert deals[0].refusal(seat, bad) == deals[1].refusal(seat, bad), bad
        if steps % 7 == 0:
            for s in range(seats):
                assert deals[0].view(s) == deals[1].view(s)
            assert deals[0].legal_actions() == deals[1].legal_actions()
        if deals[0].phase == "play" and steps % 11 == 5:
            for d, r in zip(deals, rngs):
                d.rollout(r)
            break
        actions = [w.random_action(d, r) for w, d, r in zip(walkers, deals, rngs)]
        assert actions[0] == actions[1]
        for d in deals:
            d.apply(actions[0])
        steps += 1
    assert deals[1].done
    assert deals[0].history == deals[1].history
    assert deals[0].record() == deals[1].record()
    assert deals[0].count.to_json() == deals[1].count.to_json()
    assert deals[0].public_events() == deals[1].public_events()
    copies = [d.copy(log=True) for d in deals]
    assert copies[0].view(0) == copies[1].view(0) == deals[0].view(0)


@pytest.mark.parametrize("seats", [3, 4])
def test_the_compiled_engine_plays_as_the_sources_do(seats):
    for seed in range(300):
        _play_both(seats, seed)


def _fake_build(folder, source_text: str, built_from: str | None):
    (folder / "hot.py").write_text(source_text)
    (folder / f"hot{EXTENSION_SUFFIXES[0]}").write_bytes(b"not really compiled")
    if built_from is not None:
        digest = hashlib.sha256(built_from.encode()).hexdigest()
        (folder / "_compiled.json").write_text(json.dumps({"hot.py": digest}))


def test_a_compiled_module_built_from_its_source_is_not_stale(tmp_path):
    _fake_build(tmp_path, "X = 1\n", built_from="X = 1\n")
    assert stale_compiled(tmp_path) == []


@pytest.mark.parametrize("built_from", ["X = 0\n", None])
def test_a_compiled_module_whose_source_changed_is_stale(tmp_path, built_from):
    _fake_build(tmp_path, "X = 1\n", built_from=built_from)
    assert stale_compiled(tmp_path) == ["hot.py"]


def test_a_stale_engine_refuses_to_import_and_says_how_to_rebuild(tmp_path):
    package = tmp_path / "tarocchi" / "engine"
    package.mkdir(parents=True)
    (tmp_path / "tarocchi" / "__init__.py").write_text("")
    for source in ENGINE.glob("*.py"):
        (package / source.name).write_bytes(source.read_bytes())
    (package / f"tricks{EXTENSION_SUFFIXES[0]}").write_bytes(b"built from an older tricks.py")
    (package / "_compiled.json").write_text(json.dumps({"tricks.py": "0" * 64}))
    run = subprocess.run([sys.executable, "-c", "import tarocchi.engine"], cwd=tmp_path,
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert run.returncode != 0
    assert "tricks.py changed since it was compiled" in run.stderr
    assert "bash scripts/setup.sh" in run.stderr
