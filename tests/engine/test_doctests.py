"""The engine's docs run: every example in the engine's docstrings is checked. The examples are
read from the sources (compiled modules keep no docstrings) and import the installed engine."""

import doctest

import pytest

from tarocchi.pure_engine import pure

MODULES = ["bits", "deck", "game", "cards", "tricks", "discards", "actions", "sicilian", "records", "match", "playout"]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docs_run(name):
    result = doctest.testmod(pure(name))
    assert result.attempted > 0, f"{name} has no runnable example"
    assert result.failed == 0


def test_the_examples_in_the_games_docs_run():
    from tarocchi.pure_engine import pure_game

    result = doctest.testmod(pure_game("renaissance"))
    assert result.attempted > 0 and result.failed == 0
