"""The SQLite store: one append-only, versioned stream per table."""

from __future__ import annotations

import os
import time

import pytest

from tarocchi.server.store import SqliteStore, VersionConflict
from tarocchi.server.tables import replay

CREATED = {"kind": "room", "seats": 3, "names": ["host", "guest 1", "guest 2"],
           "bots": [None, None, None], "options": {"forced_call": True}}


def test_a_stream_is_append_only_and_versioned(tmp_path):
    store = SqliteStore(str(tmp_path / "s.sqlite3"))
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.append("t1", 2, "join", {"seat": 0})
    with pytest.raises(VersionConflict):
        store.append("t1", 2, "join", {"seat": 1})  # someone else wrote version 2 first
    assert store.events("t1") == [(1, "created", CREATED), (2, "join", {"seat": 0})]
    assert store.seat_of("b") == ("t1", 1) and store.seat_of("zzz") is None
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.close()


def test_what_is_committed_survives_reopening_and_finished_tables_are_not_reloaded(tmp_path):
    path = str(tmp_path / "s.sqlite3")
    store = SqliteStore(path)
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.create_table("t2", "room", ["d", "e", "f"], CREATED)
    for seat in range(3):
        store.append("t1", 2 + seat, "join", {"seat": seat})
    store.finish("t2")
    store.close()
    again = SqliteStore(path)
    assert again.unfinished() == ["t1"]
    table = replay("t1", again.events("t1"))
    assert table.version == 4 and table.joined == [True, True, True]
    again.close()


def test_a_group_commit_stores_all_of_its_events_or_none(tmp_path):
    store = SqliteStore(str(tmp_path / "s.sqlite3"))
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.create_table("t2", "room", ["d", "e", "f"], CREATED)
    store.append_many([("t1", 2, "join", {"seat": 0}), ("t2", 2, "join", {"seat": 1})], finished=["t2"])
    assert store.events("t2") == [(1, "created", CREATED), (2, "join", {"seat": 1})]
    assert store.unfinished() == ["t1"]
    with pytest.raises(VersionConflict):  # t1 v2 is taken: nothing of the batch is stored
        store.append_many([("t1", 3, "join", {"seat": 1}), ("t1", 2, "join", {"seat": 2})], finished=["t1"])
    assert [v for v, _, _ in store.events("t1")] == [1, 2] and store.unfinished() == ["t1"]
    store.close()


def test_replay_refuses_a_stream_with_a_gap(tmp_path):
    store = SqliteStore(str(tmp_path / "s.sqlite3"))
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.append("t1", 3, "join", {"seat": 0})
    with pytest.raises(ValueError, match="event 3 after version 1"):
        replay("t1", store.events("t1"))
    store.close()


def test_commits_leave_the_wal_to_the_checkpoint_thread(tmp_path):
    """A commit never checkpoints (its fsync would stall the event loop): the WAL grows until
    the store's own thread copies it into the database file."""
    big = {"text": "x" * 2000}

    def fill(store: SqliteStore) -> str:
        store.create_table("t1", "room", ["a", "b", "c"], CREATED)
        for v in range(2, 1200):
            store.append("t1", v, "chat", big)
        return store.path

    idle = SqliteStore(str(tmp_path / "idle.sqlite3"), checkpoint_every=3600)
    fill(idle)
    time.sleep(0.3)
    assert os.path.getsize(idle.path) < 100_000 < os.path.getsize(idle.path + "-wal")
    idle.close()
    busy = SqliteStore(str(tmp_path / "busy.sqlite3"), checkpoint_every=0.05)
    fill(busy)
    deadline = time.monotonic() + 10
    while os.path.getsize(busy.path) < 2_000_000 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.path.getsize(busy.path) > 2_000_000  # the events are in the database file now
    assert [v for v, _, _ in busy.events("t1")] == list(range(1, 1200))
    busy.close()
