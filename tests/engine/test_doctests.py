"""The engine's docs run: every example in the engine's docstrings is checked."""

import doctest
import importlib

import pytest

MODULES = ["cards", "tricks", "actions", "sicilian", "records", "match", "playout"]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_the_docs_run(name):
    module = importlib.import_module(f"tarocchi.engine.{name}")
    result = doctest.testmod(module)
    assert result.attempted > 0, f"{name} has no runnable example"
    assert result.failed == 0
