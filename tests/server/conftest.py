"""Fixtures for every server test: ``live_server`` (a real uvicorn, see ``live.py``), and the
databases the store tests run on, SQLite and PostgreSQL (the ``postgres`` cluster of
``tests/conftest.py``)."""

from __future__ import annotations

import pytest

from tests.server.live import live_server  # noqa: F401  (a fixture, found by name)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_db(request, tmp_path) -> str:
    """A new, empty database for ``open_store``: a SQLite file path, or the URL of a new
    PostgreSQL database. The tests of the store protocol take it, so they run on both stores."""
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite3")
    return request.getfixturevalue("postgres").new_database()
