"""The engine's docs run: every example in the engine's docstrings is checked. The examples are
read from the sources (compiled modules keep no docstrings) and import the installed engine."""

import doctest

import pytest

from tarocchi.pure_engine import pure, pure_game

MODULES = ["bits", "deck", "game", "cards", "tricks", "discards", "choices", "trickplay", "records", "match", "playout"]
GAMES = ["sicilian", "renaissance", "calabresella", "ottocento"]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docs_run(name):
    result = doctest.testmod(pure(name))
    assert result.attempted > 0, f"{name} has no runnable example"
    assert result.failed == 0


@pytest.mark.parametrize("name", GAMES)
def test_the_examples_in_the_games_docs_run(name):
    result = doctest.testmod(pure_game(name))
    assert result.attempted > 0 and result.failed == 0
