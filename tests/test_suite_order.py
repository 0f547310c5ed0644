"""The suite's order (tests/conftest.py, issue 60): the files it hands out first are files of the
suite (a renamed or removed one would silently fall back to xdist's order, and run late)."""

from pathlib import Path

from tests.conftest import LONGEST

ROOT = Path(__file__).resolve().parents[1]


def test_the_longest_files_named_first_are_files_of_the_suite():
    assert LONGEST and all((ROOT / path).is_file() for path in LONGEST), [p for p in LONGEST if not (ROOT / p).is_file()]
    assert list(LONGEST.values()) == sorted(LONGEST.values(), reverse=True)  # (read as a table, longest first)
