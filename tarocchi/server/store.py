"""Storage: each table is one append-only, versioned stream of events (Lichess-style).

The game code talks to the ``Store`` protocol only, so a PostgreSQL store can later take
SQLite's place. An event is ``(version, kind, data)``: versions run 1, 2, 3... per table with
no gaps, and ``append`` refuses a version that is already taken, so two writers can never both
win (optimistic concurrency). ``append`` and ``append_many`` return only once the events are
committed: the server acknowledges or broadcasts nothing before that. The server commits the
events of one turn of its event loop together (``append_many``, one transaction: a group commit).

Kinds (see ``tables.Table.apply_event``): ``created``, ``join``, ``start``, ``match``, ``deal``,
``act``, ``chat``, ``next``, ``takeover`` (a computer plays for an away human), ``return``
(the human is back).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterable
from typing import Protocol

import msgspec

_encode = msgspec.json.Encoder().encode


class VersionConflict(RuntimeError):
    """The version is already written: someone else appended first."""


class Store(Protocol):
    def create_table(self, table_id: str, kind: str, tokens: list[str | None], created: dict) -> None:
        """A new table with its seat tokens (None: a seat without a link, a bot's) and its
        first event (version 1, ``created``)."""

    def append(self, table_id: str, version: int, kind: str, data: dict) -> None:
        """Commit one event; raise VersionConflict if ``version`` is taken."""

    def append_many(self, events: list[tuple[str, int, str, dict]], finished: Iterable[str] = ()) -> None:
        """Commit the events ``(table id, version, kind, data)`` and mark the ``finished``
        tables' matches as over, in one transaction: all of it or nothing (VersionConflict if
        a version is taken)."""

    def events(self, table_id: str) -> list[tuple[int, str, dict]]:
        """The whole stream of a table, in version order."""

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """(table id, seat) of a seat token, or None for an unknown token."""

    def chat_before(self, table_id: str, version: int, limit: int) -> list[tuple[int, dict]]:
        """A table's last ``limit`` chat events before ``version``, newest first: (version, data)."""

    def unfinished(self) -> list[str]:
        """The ids of every table whose match is not over."""

    def finish(self, table_id: str) -> None:
        """Mark a table's match as over (it is no longer reloaded at startup)."""

    def close(self) -> None: ...


SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    created_at REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    token TEXT PRIMARY KEY,
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    version INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
"""


class SqliteStore:
    """One SQLite file in WAL mode. Used from one thread (the server's event loop); a thread
    of its own copies the WAL back into the database file (checkpoints)."""

    def __init__(self, path: str, checkpoint_every: float = 0.5):
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives the process being killed (only a power cut
        # may lose the last commits), and it costs no fsync: only checkpoints sync.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        # Not on this connection: a checkpoint ends with an fsync that took the event loop
        # 5 to 15 ms now and then (bench/load.py), every table waiting meanwhile.
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.checkpoints = Checkpoints(path, checkpoint_every)

    def create_table(self, table_id: str, kind: str, tokens: list[str | None], created: dict) -> None:
        now = time.time()
        with self._transaction():
            self.db.execute("INSERT INTO tables (id, kind, created_at) VALUES (?, ?, ?)",
                            (table_id, kind, now))
            self.db.executemany("INSERT INTO seats (token, table_id, seat) VALUES (?, ?, ?)",
                                [(t, table_id, s) for s, t in enumerate(tokens) if t is not None])
            self.db.execute("INSERT INTO events VALUES (?, 1, 'created', ?, ?)",
                            (table_id, json.dumps(created), now))

    def append(self, table_id: str, version: int, kind: str, data: dict) -> None:
        self.append_many([(table_id, version, kind, data)])

    def append_many(self, events: list[tuple[str, int, str, dict]], finished: Iterable[str] = ()) -> None:
        now = time.time()
        rows = [(table_id, version, kind, _encode(data).decode(), now) for table_id, version, kind, data in events]
        try:
            with self._transaction():
                self.db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
                self.db.executemany("UPDATE tables SET finished = 1 WHERE id = ?", [(t,) for t in finished])
        except sqlite3.IntegrityError:
            if len(events) == 1:
                raise VersionConflict(f"table {events[0][0]} already has version {events[0][1]}") from None
            raise VersionConflict(f"a version among these {len(events)} events is already taken") from None

    def events(self, table_id: str) -> list[tuple[int, str, dict]]:
        rows = self.db.execute(
            "SELECT version, kind, data FROM events WHERE table_id = ? ORDER BY version", (table_id,))
        return [(v, k, json.loads(d)) for v, k, d in rows]

    def chat_before(self, table_id: str, version: int, limit: int) -> list[tuple[int, dict]]:
        rows = self.db.execute(
            "SELECT version, data FROM events WHERE table_id = ? AND version < ? AND kind = 'chat' "
            "ORDER BY version DESC LIMIT ?", (table_id, version, limit))
        return [(v, json.loads(d)) for v, d in rows]

    def seat_of(self, token: str) -> tuple[str, int] | None:
        row = self.db.execute("SELECT table_id, seat FROM seats WHERE token = ?", (token,)).fetchone()
        return (row[0], row[1]) if row else None

    def unfinished(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM tables WHERE finished = 0 ORDER BY created_at")]

    def finish(self, table_id: str) -> None:
        with self._transaction():
            self.db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    def close(self) -> None:
        self.checkpoints.close()
        self.db.close()  # the last connection to close checkpoints what is left

    def _transaction(self):
        return _Transaction(self.db)


class Checkpoints:
    """Checkpoints the WAL every ``every`` seconds from its own thread and connection.
    PASSIVE: it never waits for the writer, and SQLite leaves the GIL while it copies and
    syncs, so the event loop goes on meanwhile."""

    def __init__(self, path: str, every: float):
        self.path, self.every = path, every
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="sqlite-checkpoints", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            while not self.stopping.wait(self.every):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def close(self) -> None:
        self.stopping.set()
        self.thread.join()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT (or ROLLBACK on error), with autocommit otherwise off."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb):
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")
        return False
