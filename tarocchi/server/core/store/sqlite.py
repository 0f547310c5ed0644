"""The embedded store: one SQLite file in WAL mode (the default, ``tarocchi serve --db FILE``).
Its tables and their versions are here; what every store shares is in ``store/base.py``."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence

from . import dailies, people, sleepers, tournaments
from .base import (
    CLAIM_HERE, CLAIM_TAKEN, CLAIM_TOO_MANY, CLAIM_WON, SCHEMA_VERSION, SchemaTooNew, check_schema, decoded,
    event_rows, listing_of, listing_row, version_conflict,
)

log = logging.getLogger("tarocchi.server")

# A WAL file larger than this is checkpointed to its end and cut back to this size (PASSIVE
# checkpoints alone never shrink it). Large, so that even flat out (bench/load.py) the writer
# pays for that (about 10 ms) only every few seconds.
WAL_LIMIT = 64 * 1024 * 1024


# Version 2: which process drives a table, until when (a site of several processes).
LEASES = """
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires REAL NOT NULL
);
"""

# Version 3: the public tables the lobby lists, as their owner process last wrote them, and the
# seats handed out from the lobby (one claim per seat: two strangers never get the same one).
LISTINGS = """
CREATE TABLE IF NOT EXISTS listings (
    table_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    status TEXT NOT NULL,
    since REAL NOT NULL,
    open TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS claims (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, seat)
);
"""

CLAIMS_ADDRESS = "ALTER TABLE claims ADD COLUMN address TEXT NOT NULL DEFAULT '';"
# Version 4 (issue 37): who made each claim, and who has been at each table (made it, or opened
# one of its links): one seat a person, and no more than a few seats held unopened by one address.
VISITS = """
CREATE TABLE IF NOT EXISTS visits (
    table_id TEXT NOT NULL,
    address TEXT NOT NULL,
    PRIMARY KEY (table_id, address)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS claims_by_address ON claims (address, at);
"""

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

    def __init__(self, path: str, checkpoint_every: float = 0.5, wal_limit: int = WAL_LIMIT):
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.checkpoints: Checkpoints | None = None
        self.db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode: a commit survives the process being killed (only a power cut
        # may lose the last commits), and it costs no fsync: only checkpoints sync.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        # A deleted row's bytes are overwritten with zeros, not left in a free page (issue 55:
        # a deleted account leaves nothing in the file; ``wipe`` then empties the WAL).
        self.db.execute("PRAGMA secure_delete=ON")
        self._migrate()
        self.people = people.People(self._write, self._read)
        self.people.wipe = self.wipe
        self.sleepers = sleepers.Sleepers(self._write, self._read)
        self.dailies = dailies.Dailies(self._write, self._read)
        self.tournaments = tournaments.Tournaments(self._write, self._read)
        # Not on this connection: a checkpoint ends with an fsync that took the event loop
        # 5 to 15 ms now and then (bench/load.py), every table waiting meanwhile.
        self.db.execute("PRAGMA wal_autocheckpoint=0")
        # When this connection starts the WAL over (all of it checkpointed), it cuts a longer
        # file to this size at that commit.
        self.db.execute(f"PRAGMA journal_size_limit={wal_limit}")
        self.checkpoints = Checkpoints(path, checkpoint_every, wal_limit)

    @classmethod
    def read_only(cls, path: str) -> SqliteStore:
        """The file as it is, for reading alone (an operator's check beside a running
        server): no schema, no pragmas, no checkpoints; a missing file is an error."""
        store = cls.__new__(cls)
        store.path, store.checkpoints = path, None
        store.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
        return store

    def _migrate(self) -> None:
        """Bring the file to SCHEMA_VERSION. A file from before versions were kept (user_version
        0, SQLite's default) has version 1's tables, or none if new: ``SCHEMA`` creates what is
        missing either way."""
        found = self.db.execute("PRAGMA user_version").fetchone()[0]
        try:
            check_schema(found, self.path)
        except SchemaTooNew:
            self.db.close()
            raise
        if found >= SCHEMA_VERSION:
            return
        with self._transaction():  # (BEGIN IMMEDIATE: two processes opening one old file migrate it once)
            if self.db.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
                return
            steps = (SCHEMA if found < 1 else "") + LEASES + LISTINGS
            for statement in filter(str.strip, steps.split(";")):  # (every step may run again: IF NOT EXISTS)
                self.db.execute(statement)
            if "address" not in [row[1] for row in self.db.execute("PRAGMA table_info(claims)")]:
                self.db.execute(CLAIMS_ADDRESS)  # version 3's claims (or those just made)
            steps = VISITS + people.SCHEMA + sleepers.SCHEMA + people.LOOKALIKES + people.DEALS + dailies.SCHEMA + tournaments.SCHEMA
            for statement in filter(str.strip, steps.split(";")):
                self.db.execute(statement)
            for table, column, kind in people.COLUMNS:  # (version 5's tables lack them)
                if column not in [row[1] for row in self.db.execute(f"PRAGMA table_info({table})")]:
                    self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            people.fold_names(_Tx(self.db))  # version 6 (issue 55): names as compared now
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def create_table(self, table_id: str, kind: str, tokens: list[str | None], created: dict,
                     more: Iterable[tuple[int, str]] = ()) -> None:
        now = time.time()
        with self._transaction():
            self.db.execute("INSERT INTO tables (id, kind, created_at) VALUES (?, ?, ?)",
                            (table_id, kind, now))
            self.db.executemany("INSERT INTO seats (token, table_id, seat) VALUES (?, ?, ?)",
                                [(t, table_id, s) for s, t in enumerate(tokens) if t is not None]
                                + [(t, table_id, s) for s, t in more])
            self.db.execute("INSERT INTO events VALUES (?, 1, 'created', ?, ?)",
                            (table_id, json.dumps(created), now))

    def add_token(self, table_id: str, seat: int, token: str) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO seats (token, table_id, seat) VALUES (?, ?, ?)", (token, table_id, seat))

    def append(self, table_id: str, version: int, kind: str, data: dict) -> None:
        self.append_many([(table_id, version, kind, data)])

    def append_many(self, events: list[tuple[str, int, str, dict]], finished: Iterable[str] = (),
                    reopened: Iterable[str] = (), ended: Iterable[people.Ended] = ()) -> None:
        rows = event_rows(events)
        try:
            # (a match's end rings its players' bells: told once this commit is made)
            with self.people.ringing(), self._transaction():
                self.db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
                self.db.executemany("UPDATE tables SET finished = 1 WHERE id = ?", [(t,) for t in finished])
                self.db.executemany("UPDATE tables SET finished = 0 WHERE id = ?", [(t,) for t in reopened])
                for match in ended:
                    self.people.record_ended(_Tx(self.db), match)
        except sqlite3.IntegrityError:
            raise version_conflict(events) from None

    def events(self, table_id: str) -> list[tuple[int, str, dict]]:
        rows = self.db.execute(
            "SELECT version, kind, data FROM events WHERE table_id = ? ORDER BY version", (table_id,))
        return [(v, k, decoded(table_id, v, k, d)) for v, k, d in rows]

    def table_ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM tables ORDER BY created_at")]

    def acquire(self, table_id: str, owner: str, seconds: float) -> str:
        now = time.time()
        with self._transaction():
            self.db.execute(
                "INSERT INTO leases VALUES (?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, "
                "expires = excluded.expires WHERE leases.expires < ? OR leases.owner = excluded.owner",
                (table_id, owner, now + seconds, now))
            return self.db.execute("SELECT owner FROM leases WHERE table_id = ?", (table_id,)).fetchone()[0]

    def renew(self, owner: str, seconds: float, table_ids: Iterable[str]) -> set[str]:
        wanted = set(table_ids)
        with self._transaction():
            self.db.executemany("UPDATE leases SET expires = ? WHERE table_id = ? AND owner = ?",
                                [(time.time() + seconds, t, owner) for t in wanted])
            held = {r[0] for r in self.db.execute("SELECT table_id FROM leases WHERE owner = ?", (owner,))}
        return wanted & held

    def release(self, table_id: str, owner: str) -> None:
        with self._transaction():
            self.db.execute("DELETE FROM leases WHERE table_id = ? AND owner = ?", (table_id, owner))

    def lease_owner(self, table_id: str) -> str | None:
        row = self.db.execute("SELECT owner FROM leases WHERE table_id = ? AND expires >= ?",
                              (table_id, time.time())).fetchone()
        return row[0] if row else None

    def lease_owners(self, table_ids: Iterable[str]) -> dict[str, str]:
        wanted = list(table_ids)
        marks = ",".join("?" * len(wanted))
        return dict(self.db.execute(f"SELECT table_id, owner FROM leases WHERE expires >= ? AND table_id IN ({marks})",
                                    (time.time(), *wanted))) if wanted else {}

    def live_owners(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT DISTINCT owner FROM leases WHERE expires >= ?", (time.time(),))}

    def orphans(self) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT id FROM tables LEFT JOIN leases ON leases.table_id = tables.id "
            "WHERE finished = 0 AND (leases.table_id IS NULL OR leases.expires < ?) ORDER BY created_at",
            (time.time(),))]

    def chat_before(self, table_id: str, version: int, limit: int) -> list[tuple[int, dict]]:
        rows = self.db.execute(
            "SELECT version, data FROM events WHERE table_id = ? AND version < ? AND kind = 'chat' "
            "ORDER BY version DESC LIMIT ?", (table_id, version, limit))
        return [(v, json.loads(d)) for v, d in rows]

    def seat_of(self, token: str) -> tuple[str, int] | None:
        row = self.db.execute("SELECT table_id, seat FROM seats WHERE token = ?", (token,)).fetchone()
        return (row[0], row[1]) if row else None

    def unfinished(self) -> list[str]:
        return [r[0] for r in self.db.execute(
            f"SELECT id FROM tables WHERE finished = 0 AND {sleepers.NOT_ASLEEP} ORDER BY created_at")]

    def put_listing(self, table_id: str, listing: dict | None) -> None:
        with self._transaction():
            if listing is None:
                self.db.execute("DELETE FROM listings WHERE table_id = ?", (table_id,))
                self.db.execute("DELETE FROM claims WHERE table_id = ?", (table_id,))
            else:
                # (``since`` stays as first listed: how long the table has waited, across restarts)
                self.db.execute("INSERT INTO listings VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET "
                                "game = excluded.game, status = excluded.status, open = excluded.open, "
                                "data = excluded.data", (table_id, *listing_row(listing)))
                # A seat no longer open was taken (its link opened): its claim is spent, with it.
                self.db.execute("DELETE FROM claims WHERE table_id = ? AND seat NOT IN (SELECT value FROM json_each(?))",
                                (table_id, json.dumps(listing["open"])))

    def listings(self, game: str | None, claim_seconds: float) -> list[dict]:
        rows = self.db.execute(
            "SELECT table_id, game, status, since, open, data, (SELECT json_group_array(seat) FROM claims "
            "WHERE claims.table_id = listings.table_id AND at > ?) FROM listings JOIN tables ON tables.id = table_id "
            "WHERE finished = 0 AND (? IS NULL OR game = ?) ORDER BY since", (time.time() - claim_seconds, game, game))
        return [listing_of(*row) for row in rows]

    def claim_seat(self, table_id: str, seat: int, token: str, claim_seconds: float, persons: Sequence[str],
                   address: str, per_address: int) -> str:
        now = time.time()
        live = now - claim_seconds
        with self._transaction():  # (BEGIN IMMEDIATE: one writer at a time, across processes)
            row = self.db.execute("SELECT open FROM listings WHERE table_id = ?", (table_id,)).fetchone()
            if row is None or seat not in json.loads(row[0]):
                return CLAIM_TAKEN
            if self.db.execute("SELECT 1 FROM visits WHERE table_id = ? AND address IN (SELECT value FROM json_each(?))",
                               (table_id, json.dumps(list(persons)))).fetchone():
                return CLAIM_HERE
            if self.db.execute("SELECT count(*) FROM claims WHERE address = ? AND at > ?",
                               (address, live)).fetchone()[0] >= per_address:
                return CLAIM_TOO_MANY
            won = self.db.execute(
                "INSERT INTO claims VALUES (?, ?, ?, ?) ON CONFLICT (table_id, seat) DO UPDATE SET at = excluded.at, "
                "address = excluded.address WHERE claims.at <= ?", (table_id, seat, now, address, live)).rowcount
            if not won:
                return CLAIM_TAKEN
            self.db.execute("UPDATE seats SET token = ? WHERE table_id = ? AND seat = ?", (token, table_id, seat))
            # The claimer is at the table from now on, opened or not (the link is theirs while
            # nobody claims the seat again): no second seat of it.
            self.db.executemany("INSERT INTO visits VALUES (?, ?) ON CONFLICT DO NOTHING",
                                [(table_id, p) for p in persons])
            return CLAIM_WON

    def visit(self, table_id: str, person: str) -> None:
        with self._transaction():
            self.db.execute("INSERT INTO visits VALUES (?, ?) ON CONFLICT DO NOTHING", (table_id, person))

    def finish(self, table_id: str) -> None:
        with self._transaction():
            self.db.execute("UPDATE tables SET finished = 1 WHERE id = ?", (table_id,))

    def wipe(self, tries: int = 50) -> None:
        """Copy the WAL into the file and cut it to nothing (TRUNCATE), so that no older page
        (a deleted account's rows as they were) stays in it; the deleted content in the file
        itself was zeroed (secure_delete). A checkpoint of the thread's own under way, or a
        reader, may hold it up: it is tried again for a while, then left to the next one
        (logged)."""
        for _ in range(tries):
            busy = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            if not busy:
                return
            time.sleep(0.01)
        log.warning("the WAL of %s could not be emptied after a deletion: the next checkpoints copy it in", self.path)

    def close(self) -> None:
        if self.checkpoints is not None:
            self.checkpoints.close()
        self.db.close()  # the last connection to close checkpoints what is left

    def _transaction(self):
        return _Transaction(self.db)

    @contextlib.contextmanager
    def _write(self):
        with self._transaction():
            yield _Tx(self.db)

    @contextlib.contextmanager
    def _read(self):
        yield _Tx(self.db)


class _Tx:
    """``people.Tx`` on this connection: ``%s`` placeholders become SQLite's ``?``."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def run(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        return self.db.execute(sql.replace("%s", "?"), params).fetchall()


class Checkpoints:
    """Checkpoints the WAL every ``every`` seconds from its own thread and connection.
    PASSIVE: it never waits for the writer, and SQLite leaves the GIL while it copies and
    syncs, so the event loop goes on meanwhile (a WAL past ``wal_limit`` gets more, see
    ``_checkpoint``).

    No error ends the thread (a full disk, no descriptor left: the WAL would then grow until
    a restart). It logs the first error of a streak, drops its connection (it may be the
    broken part), tries again after a delay that doubles up to ten periods (5 s by default),
    and logs once more when a checkpoint works again. ``connect``: tests inject faults."""

    def __init__(self, path: str, every: float, wal_limit: int = WAL_LIMIT, connect=None):
        self.path, self.every, self.wal_limit = path, every, wal_limit
        self.max_delay = 10 * every
        self.connect = connect or self._connect
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="sqlite-checkpoints", daemon=True)
        self.thread.start()

    def _connect(self) -> sqlite3.Connection:
        # timeout 0: a RESTART checkpoint gives up at once while the writer holds its lock,
        # instead of waiting for it (it tries again at the next period).
        return sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=0)

    def _run(self) -> None:
        db = None
        failures, failing_since, delay = 0, 0.0, self.every
        while not self.stopping.wait(delay):
            try:
                if db is None:
                    db = self.connect()
                self._checkpoint(db)
            except Exception as e:
                if not failures:
                    failing_since = time.monotonic()
                    log.error("WAL checkpoint of %s failed: %s: %s; retrying every %g s at most, "
                              "the WAL grows until one works", self.path, type(e).__name__, e,
                              self.max_delay)
                failures += 1
                _close(db)
                db = None
                delay = min(self.every * 2 ** failures, self.max_delay)
                continue
            if failures:
                log.warning("WAL checkpoints of %s work again, after %d failed in %.1f s",
                            self.path, failures, time.monotonic() - failing_since)
                failures, delay = 0, self.every
        _close(db)

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[2]
        if os.path.getsize(self.path + "-wal") <= self.wal_limit:
            return
        # The WAL is large: it grew while checkpoints failed, or the writer never starts it
        # over because it writes during every pass (bench/load.py: 251 MB in 20 s, and on).
        # Catch up with passes that get shorter, then RESTART: it holds the writer's lock only
        # to copy the last few frames, and the writer's next commit starts the file over and
        # cuts it to the limit (journal_size_limit).
        for _ in range(4):
            before = copied
            copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[2]
            if copied - before < 64:  # frames: a short pass, few were written meanwhile
                break
        db.execute("PRAGMA wal_checkpoint(RESTART)")

    def close(self) -> None:
        self.stopping.set()
        self.thread.join()


def _close(db: sqlite3.Connection | None) -> None:
    if db is not None:
        with contextlib.suppress(sqlite3.Error):
            db.close()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT (or ROLLBACK on error), with autocommit otherwise off.
    Whatever fails, no transaction is left open: the next one could not begin."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
            except BaseException:
                self._rollback()  # a failed COMMIT may leave the transaction open (SQLITE_BUSY)
                raise
        else:
            self._rollback()
        return False

    def _rollback(self) -> None:
        # SQLite may have rolled back already (a full disk, out of memory): a ROLLBACK then
        # fails and its error would hide the real one.
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
