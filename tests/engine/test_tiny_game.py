"""The smallest complete game (tests/engine/tiny_game.py, shown in docs/games.md) runs on the
engine's trick play alone: every listed action is accepted and every other refused, the rollout
plays legal cards to the count, records replay, and the docs show the file as it is."""

import random
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarocchi.engine.game import game_names
from tarocchi.pure_engine import PACKAGE, pure

SOURCE = Path(__file__).with_name("tiny_game.py")


def load_tiny() -> ModuleType:
    """tiny_game.py on the engine's sources: a game outside the compiled group inherits the
    sources' TrickPlay (an interpreted class cannot inherit a compiled one; setup.py compiles a
    game of the table with the engine)."""
    pure("trickplay")
    module = ModuleType("tiny_game")
    module.__file__ = str(SOURCE)
    sys.modules[module.__name__] = module
    source = SOURCE.read_text().replace("from tarocchi.engine.", f"from {PACKAGE}.engine.")
    exec(compile(source, str(SOURCE), "exec"), module.__dict__)
    return module


tiny = load_tiny()
DECK, TINY, Deal = tiny.DECK, tiny.TINY, tiny.Deal
IllegalAction = pure("game").IllegalAction


def test_it_is_not_on_the_table():
    assert TINY.name not in game_names()


@given(st.randoms(use_true_random=False), st.integers(0, 1))
def test_listed_actions_are_exactly_the_accepted_ones(rng, dealer):
    deal = TINY.shuffled(2, dealer, rng)
    assert deal.hand_size(0) == deal.hand_size(1) == 3 and deal.to_act == 1 - dealer
    while not deal.done:
        seat, legal = deal.to_act, deal.legal_actions()
        for c in range(DECK.size):
            assert (deal.refusal(seat, c) is None) == (c in legal), (c, legal)
            assert deal.refusal(1 - seat, c) == "it is not your turn"
        before = deal.copy()
        with pytest.raises(IllegalAction):
            deal.apply(next(c for c in range(DECK.size) if c not in legal))
        assert deal.view(0) == before.view(0)
        deal.apply(DECK.codes[rng.choice(legal)])  # by its text
    assert sum(deal.returns()) == 0 and deal.legal_actions() == []
    assert deal.refusal(0, "KC") == "the deal is over"
    # every card in one trick pile, the Fool beside its player until the count
    assert deal.won[0] & deal.won[1] == 0 and deal.won[0] | deal.won[1] | DECK.fool_bit == DECK.full
    assert deal.count.payments[deal.fool_by] == -deal.count.payments[1 - deal.fool_by]


@given(st.integers(0, 10**6))
def test_the_rollout_plays_what_apply_would_and_records_replay(seed):
    deal = TINY.shuffled(2, seed % 2, random.Random(seed))
    if seed % 3:
        deal.apply(deal.legal_actions()[0])
    copy = deal.copy(log=True)
    copy.rollout(random.Random(seed))
    again = Deal(2, deal.dealer, list(deal.deck))
    for _, action in copy.history:
        again.apply(tiny.action_text(action))
    assert again.returns() == copy.returns() and again.public_events() == copy.public_events()
    record = copy.record()
    assert record["game"] == "tre carte" and len(record["actions"]) == 6


def test_the_docs_show_the_game_as_it_is():
    docs = (Path(__file__).parents[2] / "docs" / "games.md").read_text()
    source = SOURCE.read_text()
    body = source[source.index("from tarocchi.engine.deck"):]
    assert body in docs
