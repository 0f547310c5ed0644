"""The store: one append-only, versioned stream per table. Every test of the ``Store`` protocol
takes ``store_db`` and runs on both stores, SQLite and PostgreSQL (tests/server/conftest.py)."""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarocchi.server.core.store import (
    LEASES, LISTINGS, SCHEMA, SCHEMA_VERSION, SchemaTooNew, SqliteStore, VersionConflict, open_store, redacted,
)
from tarocchi.server.core.tables import replay

CREATED = {"kind": "room", "seats": 3, "names": ["host", "guest 1", "guest 2"],
           "bots": [None, None, None], "options": {"forced_call": True}}


def test_a_stream_is_append_only_and_versioned(store_db):
    store = open_store(store_db)
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.append("t1", 2, "join", {"seat": 0})
    with pytest.raises(VersionConflict):
        store.append("t1", 2, "join", {"seat": 1})  # someone else wrote version 2 first
    assert store.events("t1") == [(1, "created", CREATED), (2, "join", {"seat": 0})]
    assert store.seat_of("b") == ("t1", 1) and store.seat_of("zzz") is None
    store.close()


def test_two_stores_on_one_database_cannot_both_write_a_version(store_db):
    first, second = open_store(store_db), open_store(store_db)
    first.create_table("t1", "room", ["a", "b", "c"], CREATED)
    second.append("t1", 2, "join", {"seat": 2})
    with pytest.raises(VersionConflict):
        first.append("t1", 2, "join", {"seat": 0})
    assert first.events("t1") == second.events("t1") == [(1, "created", CREATED), (2, "join", {"seat": 2})]
    first.close()
    second.close()


def test_what_is_committed_survives_reopening_and_finished_tables_are_not_reloaded(store_db):
    store = open_store(store_db)
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.create_table("t2", "room", ["d", "e", "f"], CREATED)
    for seat in range(3):
        store.append("t1", 2 + seat, "join", {"seat": seat})
    store.finish("t2")
    store.close()
    again = open_store(store_db)
    assert again.unfinished() == ["t1"]
    table = replay("t1", again.events("t1"))
    assert table.version == 4 and table.joined == [True, True, True]
    again.close()


def test_a_group_commit_stores_all_of_its_events_or_none(store_db):
    store = open_store(store_db)
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.create_table("t2", "room", ["d", "e", "f"], CREATED)
    store.append_many([("t1", 2, "join", {"seat": 0}), ("t2", 2, "join", {"seat": 1})], finished=["t2"])
    assert store.events("t2") == [(1, "created", CREATED), (2, "join", {"seat": 1})]
    assert store.unfinished() == ["t1"]
    with pytest.raises(VersionConflict):  # t1 v2 is taken: nothing of the batch is stored
        store.append_many([("t1", 3, "join", {"seat": 1}), ("t1", 2, "join", {"seat": 2})], finished=["t1"])
    assert [v for v, _, _ in store.events("t1")] == [1, 2] and store.unfinished() == ["t1"]
    # A rematch reopens a finished table; in one commit, reopening wins over finishing.
    store.append_many([("t2", 3, "rematch", {"seat": 0})], reopened=["t2"])
    assert store.unfinished() == ["t1", "t2"]
    store.append_many([("t1", 3, "next", {})], finished=["t1"], reopened=["t1"])
    assert store.unfinished() == ["t1", "t2"]
    store.close()


def test_chat_before_gives_the_last_lines_before_a_version_newest_first(store_db):
    store = open_store(store_db)
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.create_table("t2", "room", ["d", "e", "f"], CREATED)
    store.append_many([("t1", v, "chat" if v % 2 else "join", {"text": f"line {v}"}) for v in range(2, 12)]
                      + [("t2", 2, "chat", {"text": "elsewhere"})])
    assert store.chat_before("t1", 10, 3) == [(9, {"text": "line 9"}), (7, {"text": "line 7"}),
                                              (5, {"text": "line 5"})]
    assert store.chat_before("t1", 4, 10) == [(3, {"text": "line 3"})]
    assert store.chat_before("t1", 2, 10) == []
    store.close()


def test_replay_refuses_a_stream_with_a_gap(store_db):
    store = open_store(store_db)
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.append("t1", 3, "join", {"seat": 0})
    with pytest.raises(ValueError, match="event 3 after version 1"):
        replay("t1", store.events("t1"))
    store.close()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(created=st.dictionaries(st.text(max_size=8), JSON, max_size=4),
       data=st.dictionaries(st.text(max_size=8), JSON, max_size=6))
def test_any_json_data_comes_back_equal(store_db, created, data):
    """What the server stores is JSON from the engine and from players (a chat line may hold
    any character, a \\u0000 too): it comes back equal, every value exactly (a float stays a
    float, True does not become 1). Each example on a new table of the same database."""
    table_id = f"t{next(TABLE_IDS)}"
    store = open_store(store_db)
    store.create_table(table_id, "room", [table_id, None, None], created)
    store.append_many([(table_id, 2, "chat", data), (table_id, 3, "act", {"nested": [data, created]})])
    expected = [(1, "created", created), (2, "chat", data), (3, "act", {"nested": [data, created]})]
    assert typed(store.events(table_id)) == typed(expected)
    store.close()


TABLE_IDS = itertools.count()


def typed(value):
    """``value`` with the type of every leaf beside it (== alone takes 1 for 1.0 and True)."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [typed(v) for v in value]
    return (type(value).__name__, value)


def test_a_database_of_a_later_schema_refuses_to_open_with_a_clear_message(store_db):
    store = open_store(store_db)
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.close()
    if store_db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(store_db, autocommit=True) as conn:
            assert conn.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
            conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    else:
        with sqlite3.connect(store_db) as db:
            assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNew, match=f"has schema version {SCHEMA_VERSION + 1}, but this Tarocchi "
                                           f"knows versions up to {SCHEMA_VERSION}"):
        open_store(store_db)


@pytest.mark.parametrize("old", [0, 1])
def test_an_older_sqlite_file_opens_and_is_brought_up_to_this_schema(tmp_path, old):
    """Files written before user_version was kept (0, SQLite's default) hold version 1's tables;
    version 2 adds the leases (issue 20). Either opens with its tables intact, migrated."""
    path = str(tmp_path / "old.sqlite3")
    store = SqliteStore(path)
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE leases")
        db.execute(f"PRAGMA user_version = {old}")
    again = SqliteStore(path)
    assert again.events("t1") == [(1, "created", CREATED)] and again.unfinished() == ["t1"]
    assert again.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 8
    assert again.acquire("t1", "host:1:2", 5.0) == "host:1:2"
    again.close()


def test_a_version_3_file_keeps_its_claims_and_learns_who_made_them(tmp_path):
    """Version 4 (issue 37) adds who made a claim and who has been at a table: a file of version
    3, with a listing and a live claim, opens with both kept and claims by address at once."""
    from tarocchi.server.core.store import CLAIM_HERE, CLAIM_TAKEN, CLAIM_WON

    path = str(tmp_path / "v3.sqlite3")
    with sqlite3.connect(path) as db:  # version 3's tables, as that code made them
        db.executescript(SCHEMA + LEASES + LISTINGS + "PRAGMA user_version = 3;")
        db.execute("INSERT INTO tables VALUES ('t1', 'room', 0, 0)")
        db.execute("INSERT INTO seats VALUES ('a', 't1', 0), ('b', 't1', 1), ('c', 't1', 2)")
        db.execute("INSERT INTO events VALUES ('t1', 1, 'created', ?, 0)", (json.dumps(CREATED),))
        db.execute("INSERT INTO listings VALUES ('t1', 'sicilian', 'waiting', 0, '[1, 2]', '{}')")
        db.execute("INSERT INTO claims VALUES ('t1', 1, ?)", (time.time(),))
    store = SqliteStore(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store.listings(None, 30)[0]["claimed"] == [1]
    assert store.claim_seat("t1", 1, "d", 30, ["x"], "x", 3) == CLAIM_TAKEN  # the old claim holds
    assert store.claim_seat("t1", 2, "e", 30, ["x"], "x", 3) == CLAIM_WON and store.seat_of("e") == ("t1", 2)
    store.visit("t1", "y")
    store.db.execute("UPDATE claims SET at = 0")
    assert store.claim_seat("t1", 1, "f", 30, ["y"], "y", 3) == CLAIM_HERE
    store.close()
    assert SqliteStore(path).events("t1") == [(1, "created", CREATED)]  # and opens again, unchanged


def test_open_store_picks_the_store_by_url_and_a_log_line_hides_the_password(tmp_path, postgres):
    from tarocchi.server.core.store.postgres import PostgresStore

    sqlite = open_store(str(tmp_path / "s.sqlite3"))
    assert isinstance(sqlite, SqliteStore)
    assert sqlite.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    sqlite.close()
    url = postgres.new_database()
    for scheme in ("postgresql://", "postgres://"):
        store = open_store(url.replace("postgresql://", scheme))
        assert isinstance(store, PostgresStore)
        store.close()
    assert redacted("postgresql://tarocchi:s3cret@db.example:5433/tarocchi?sslmode=require") == \
        "postgresql://tarocchi:***@db.example:5433/tarocchi?sslmode=require"
    assert redacted("postgresql://tarocchi@/tarocchi?host=/run/postgresql") == \
        "postgresql://tarocchi@/tarocchi?host=/run/postgresql"
    assert redacted("postgresql://tarocchi@/tarocchi?host=/run/postgresql&password=s3cret") == \
        "postgresql://tarocchi@/tarocchi?host=/run/postgresql&password=***"
    assert redacted("tables.sqlite3") == "tables.sqlite3"


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


def test_one_lease_per_table_until_it_runs_out_and_then_another_process_may_take_it(store_db):
    """Issue 20: a table is driven by one process at a time. A lease is taken if free, expired
    or already the taker's; renewed only by its owner; an expired one is an orphan to take."""
    a, b = open_store(store_db), open_store(store_db)  # two processes on one database
    for t in ("t1", "t2"):
        a.create_table(t, "room", [t + "a", t + "b", t + "c"], CREATED)
    assert a.acquire("t1", "host:1:10", 0.5) == "host:1:10"
    assert b.acquire("t1", "host:2:20", 5.0) == "host:1:10"  # held: the other keeps it
    assert a.acquire("t1", "host:1:10", 0.5) == "host:1:10"  # its own: renewed
    assert b.lease_owner("t1") == "host:1:10" and b.lease_owner("t2") is None
    assert b.lease_owners(["t1", "t2", "zz"]) == {"t1": "host:1:10"} and b.lease_owners([]) == {}
    assert b.orphans() == ["t2"]
    assert b.renew("host:2:20", 5.0, ["t1"]) == set()  # not its lease
    assert a.renew("host:1:10", 0.5, ["t1", "t2"]) == {"t1"}
    time.sleep(0.6)
    assert b.lease_owner("t1") is None and b.orphans() == ["t1", "t2"]  # the owner died
    assert b.acquire("t1", "host:2:20", 5.0) == "host:2:20"
    assert a.renew("host:1:10", 0.5, ["t1"]) == set()  # too late: it lets the table go
    b.release("t1", "host:1:10")  # only the owner releases
    assert a.lease_owner("t1") == "host:2:20"
    b.release("t1", "host:2:20")
    assert a.lease_owner("t1") is None
    a.finish("t2")
    assert a.orphans() == ["t1"] and a.table_ids() == ["t1", "t2"]
    a.close()
    b.close()


def test_no_method_of_the_stores_is_defined_twice():
    """A class body keeps the last of two methods of one name, silently: the people's store once
    lost the passkeys' ``new_challenge`` to the challenges' (issue 58). Each name is defined once."""
    import ast
    from pathlib import Path

    import tarocchi.server.core.store as store_package
    for path in Path(store_package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                names = [f.name for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
                assert len(names) == len(set(names)), (path.name, node.name, sorted(n for n in names if names.count(n) > 1))
