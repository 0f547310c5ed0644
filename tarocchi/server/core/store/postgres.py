"""The PostgreSQL store: the same streams as ``SqliteStore``, in a database server of its own
(``tarocchi serve --db postgresql://user@host/dbname``, docs/operations.md), the store that
several server processes will share (issue 20: the routing of tables to processes comes later).

The same guarantees: ``append``/``append_many`` return only after COMMIT (synchronous_commit
as the server has it, on by default: the commit is on disk); one transaction per group commit;
the primary key (table_id, version) refuses a version already taken, across every server
writing to the database (``VersionConflict``). ``data`` is kept as JSON text, as SQLite has it,
not jsonb: jsonb rewrites numbers (a float 1e100 would come back an int) and refuses a
``\\u0000`` in a string (a chat line may hold one), and nothing queries inside it.

Synchronous, like ``SqliteStore``. The hub commits from a thread of its own (``Hub.store_thread``)
and a site asks its periodic queries from another (``Site.ask``), so that neither a commit's WAL
flush nor a database that is away holds up the event loop; reads (a table loaded, a seat looked
up) are made on the loop.

Connections come from a psycopg pool, and each is checked before use (an empty query, one
round trip, see ``_connection``): after the database restarted, the dead connections are
replaced and the next call works. An operation that fails (the database down, the connection
lost mid-way) raises: the hub drops the tables whose events could not be stored and reloads
them later. While the database is down, each call waits at most ``timeout`` seconds for a
connection (a read on the event loop waits with it); the pool keeps trying to reconnect meanwhile, and
again on the next call after a long outage.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable, Iterator, Sequence

import msgspec
import psycopg
import psycopg_pool

from . import dailies, people, sleepers, tournaments
from .base import (
    CLAIM_HERE, CLAIM_TAKEN, CLAIM_TOO_MANY, CLAIM_WON, SCHEMA_VERSION, check_schema, decoded, event_rows, listing_of, listing_row, redacted, version_conflict,
)

_encode = msgspec.json.Encoder().encode


def _version_6(conn: psycopg.Connection) -> None:
    conn.execute(people.SCHEMA + "".join(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind};\n"
                                         for table, column, kind in people.COLUMNS))
    conn.execute(people.LOOKALIKES)
    people.fold_names(_Tx(conn))


def _version_7(conn: psycopg.Connection) -> None:
    # (issue 58's tables, made since version 6 by a new database alone, come with it: IF NOT EXISTS)
    conn.execute(people.SCHEMA + people.DEALS
                 + "".join(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {column} {kind};\n"
                           for table, column, kind in people.COLUMNS))


# MIGRATIONS[n] brings a database from schema version n to n + 1 (0: an empty database); a
# function, for a step that SQL alone cannot do.
MIGRATIONS: list = [
    """
    CREATE TABLE tables (
        id text PRIMARY KEY,
        kind text NOT NULL,
        created_at double precision NOT NULL,
        finished boolean NOT NULL DEFAULT false
    );
    CREATE TABLE seats (
        token text PRIMARY KEY,
        table_id text NOT NULL REFERENCES tables(id),
        seat integer NOT NULL
    );
    CREATE TABLE events (
        table_id text NOT NULL REFERENCES tables(id),
        version integer NOT NULL,
        kind text NOT NULL,
        data text NOT NULL,
        at double precision NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    CREATE INDEX tables_unfinished ON tables (created_at) WHERE NOT finished;
    """,
    # 2: which process drives a table, until when (issue 20); times are the database's clock,
    # the one clock every host of a site shares.
    """
    CREATE TABLE leases (
        table_id text PRIMARY KEY,
        owner text NOT NULL,
        expires double precision NOT NULL
    );
    """,
    # 3: the lobby's listings and seat claims (issue 22, lobby.py).
    """
    CREATE TABLE listings (
        table_id text PRIMARY KEY,
        game text NOT NULL,
        status text NOT NULL,
        since double precision NOT NULL,
        open text NOT NULL,
        data text NOT NULL
    );
    CREATE TABLE claims (
        table_id text NOT NULL,
        seat integer NOT NULL,
        at double precision NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    """,
    # 4: who made each claim, and who has been at each table (issue 37, store.VISITS).
    """
    ALTER TABLE claims ADD COLUMN address text NOT NULL DEFAULT '';
    CREATE INDEX claims_by_address ON claims (address, at);
    CREATE TABLE visits (
        table_id text NOT NULL,
        address text NOT NULL,
        PRIMARY KEY (table_id, address)
    );
    """,
    # 5: the people: accounts, sessions, passkeys, seats held, matches, ratings (issue 40).
    people.SCHEMA + sleepers.SCHEMA,
    # 6: what issue 55 added to the people (a new database has some from 5's SCHEMA already):
    # SQL, then Python (account names folded anew).
    _version_6,
    # 7: each finished deal's figures by seat, the archive's privacy setting (issue 58, "Your games")
    _version_7,
    # 8: the daily deal's tries and scores (issue 59).
    dailies.SCHEMA,
    # 9: tournaments, their players and tables (issue 59).
    tournaments.SCHEMA,
]
NOW = "extract(epoch from clock_timestamp())"
# A lease need not survive a crash of the database (a lease lost is taken again within seconds):
# its writes skip the WAL flush that every event's commit waits for.
LEASE_WRITE = "SET LOCAL synchronous_commit = off"
assert len(MIGRATIONS) == SCHEMA_VERSION

# Two servers starting at once on a new database: one creates the schema, the other waits for it.
MIGRATION_LOCK = 0x7a70_0001  # pg_advisory_xact_lock's key, any number of our own
CLAIM_LOCK = 0x7a70_0002  # the first key of the lock that one address's claims take (its hash the second)
RATING_LOCK = 0x7a70_0003  # one rated match's end at a time, site-wide (people.People.record_ended)


class PostgresStore:
    """The ``Store`` on a PostgreSQL database (a ``postgresql://`` URL, libpq's form: see
    https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-CONNSTRING)."""

    # The hub may commit from a thread of its own, and a site ask its periodic queries from
    # another, while the event loop reads (each call takes its own connection from the pool:
    # four, so that none of the three waits for another's).
    commits_off_loop = True

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 4, timeout: float = 2.0):
        self.url = url
        # A direct connection first: an unreachable database fails here with libpq's own
        # reason, not a pool timeout.
        with psycopg.connect(url, autocommit=True) as conn:
            self._migrate(conn)
        self.timeout = timeout
        # reconnect_timeout: the pool tries to replace a lost connection with a backoff that
        # doubles (1 s, 2 s, 4 s...) until it gives up; the next call then starts a new try at
        # once. Giving up as soon as a call would: the database back, the next call or the one
        # after works, not one a minute later.
        self.pool = psycopg_pool.ConnectionPool(url, min_size=min_size, max_size=max_size, open=True,
                                                reconnect_timeout=timeout, kwargs={"autocommit": True},
                                                name="tarocchi-store")
        self.people = people.People(self._write, self._connection_tx, lock=_lock_matches)
        self.sleepers = sleepers.Sleepers(self._write, self._connection_tx)
        self.dailies = dailies.Dailies(self._write, self._connection_tx)
        self.tournaments = tournaments.Tournaments(self._write, self._connection_tx)

    @contextlib.contextmanager
    def _connection(self) -> Iterator[psycopg.Connection]:
        """A working connection of the pool, in autocommit mode (a write opens its own
        transaction). One found dead goes back to the pool, which drops it and connects anew,
        and the next is tried at once. (The pool's own ``check`` sleeps a second before trying
        the next: after a restart, every idle connection is dead.)"""
        deadline = time.monotonic() + self.timeout
        for _ in range(self.pool.max_size + 1):
            # (a timeout of 0 fails even with a connection ready)
            conn = self.pool.getconn(timeout=max(0.001, deadline - time.monotonic()))
            try:
                conn.execute("")
            except psycopg.OperationalError:
                self.pool.putconn(conn)
                continue
            try:
                yield conn
            finally:
                self.pool.putconn(conn)
            return
        raise psycopg.OperationalError(f"no working connection to {redacted(self.url)}")

    def _migrate(self, conn: psycopg.Connection) -> None:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)")
            row = conn.execute("SELECT version FROM schema_version").fetchone()
            found = row[0] if row else 0
            check_schema(found, redacted(self.url))
            for version in range(found, SCHEMA_VERSION):
                step = MIGRATIONS[version]
                step(conn) if callable(step) else conn.execute(step)
            if row is None:
                conn.execute("INSERT INTO schema_version VALUES (%s)", (SCHEMA_VERSION,))
            elif found < SCHEMA_VERSION:
                conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION,))

    def create_table(self, table_id: str, kind: str, tokens: list[str | None], created: dict,
                     more: Iterable[tuple[int, str]] = ()) -> None:
        now = time.time()
        with self._connection() as conn, conn.transaction():
            conn.execute("INSERT INTO tables (id, kind, created_at) VALUES (%s, %s, %s)", (table_id, kind, now))
            with conn.cursor() as cur:
                cur.executemany("INSERT INTO seats (token, table_id, seat) VALUES (%s, %s, %s)",
                                [(t, table_id, s) for s, t in enumerate(tokens) if t is not None]
                                + [(t, table_id, s) for s, t in more])
            conn.execute("INSERT INTO events VALUES (%s, 1, 'created', %s, %s)",
                         (table_id, _encode(created).decode(), now))

    def add_token(self, table_id: str, seat: int, token: str) -> None:
        with self._connection() as conn:
            conn.execute("INSERT INTO seats (token, table_id, seat) VALUES (%s, %s, %s)", (token, table_id, seat))

    def append(self, table_id: str, version: int, kind: str, data: dict) -> None:
        self.append_many([(table_id, version, kind, data)])

    def append_many(self, events: list[tuple[str, int, str, dict]], finished: Iterable[str] = (),
                    reopened: Iterable[str] = (), ended: Iterable[people.Ended] = ()) -> None:
        rows = event_rows(events)
        finished, reopened = list(finished), list(reopened)
        try:
            # (a match's end rings its players' bells: told once this commit is made)
            with self.people.ringing(), self._connection() as conn, conn.transaction(), conn.cursor() as cur:
                # executemany pipelines the statements: one round trip, not one per event.
                cur.executemany("INSERT INTO events VALUES (%s, %s, %s, %s, %s)", rows)
                # In this order, as SQLite does them: a table in both ends up reopened.
                if finished:
                    cur.execute("UPDATE tables SET finished = true WHERE id = ANY(%s)", (finished,))
                if reopened:
                    cur.execute("UPDATE tables SET finished = false WHERE id = ANY(%s)", (reopened,))
                for match in ended:
                    self.people.record_ended(_Tx(conn), match)
        except psycopg.errors.UniqueViolation:
            raise version_conflict(events) from None

    def events(self, table_id: str) -> list[tuple[int, str, dict]]:
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT version, kind, data FROM events WHERE table_id = %s ORDER BY version", (table_id,))
            return [(v, k, decoded(table_id, v, k, d)) for v, k, d in rows]

    def table_ids(self) -> list[str]:
        with self._connection() as conn:
            return [r[0] for r in conn.execute("SELECT id FROM tables ORDER BY created_at")]

    def acquire(self, table_id: str, owner: str, seconds: float) -> str:
        with self._connection() as conn, conn.transaction():
            conn.execute(LEASE_WRITE)
            conn.execute(
                f"INSERT INTO leases VALUES (%s, %s, {NOW} + %s) ON CONFLICT (table_id) DO UPDATE "
                f"SET owner = excluded.owner, expires = excluded.expires "
                f"WHERE leases.expires < {NOW} OR leases.owner = excluded.owner", (table_id, owner, seconds))
            return conn.execute("SELECT owner FROM leases WHERE table_id = %s", (table_id,)).fetchone()[0]

    def renew(self, owner: str, seconds: float, table_ids: Iterable[str]) -> set[str]:
        wanted = list(set(table_ids))
        if not wanted:
            return set()
        with self._connection() as conn, conn.transaction():
            conn.execute(LEASE_WRITE)
            rows = conn.execute(
                f"UPDATE leases SET expires = {NOW} + %s WHERE owner = %s AND table_id = ANY(%s) RETURNING table_id",
                (seconds, owner, wanted))
            return {r[0] for r in rows.fetchall()}

    def release(self, table_id: str, owner: str) -> None:
        with self._connection() as conn:
            conn.execute("DELETE FROM leases WHERE table_id = %s AND owner = %s", (table_id, owner))

    def lease_owner(self, table_id: str) -> str | None:
        with self._connection() as conn:
            row = conn.execute(f"SELECT owner FROM leases WHERE table_id = %s AND expires >= {NOW}",
                               (table_id,)).fetchone()
        return row[0] if row else None

    def lease_owners(self, table_ids: Iterable[str]) -> dict[str, str]:
        wanted = list(table_ids)
        if not wanted:
            return {}
        with self._connection() as conn:
            return dict(conn.execute(f"SELECT table_id, owner FROM leases WHERE expires >= {NOW} "
                                     f"AND table_id = ANY(%s)", (wanted,)).fetchall())

    def live_owners(self) -> set[str]:
        with self._connection() as conn:
            return {r[0] for r in conn.execute(f"SELECT DISTINCT owner FROM leases WHERE expires >= {NOW}")}

    def orphans(self) -> list[str]:
        with self._connection() as conn:
            return [r[0] for r in conn.execute(
                f"SELECT id FROM tables LEFT JOIN leases ON leases.table_id = tables.id WHERE NOT finished "
                f"AND (leases.table_id IS NULL OR leases.expires < {NOW}) ORDER BY created_at")]

    def chat_before(self, table_id: str, version: int, limit: int) -> list[tuple[int, dict]]:
        with self._connection() as conn:
            rows = conn.execute(
                "SELECT version, data FROM events WHERE table_id = %s AND version < %s AND kind = 'chat' "
                "ORDER BY version DESC LIMIT %s", (table_id, version, limit))
            return [(v, json.loads(d)) for v, d in rows]

    def seat_of(self, token: str) -> tuple[str, int] | None:
        with self._connection() as conn:
            row = conn.execute("SELECT table_id, seat FROM seats WHERE token = %s", (token,)).fetchone()
        return (row[0], row[1]) if row else None

    def unfinished(self) -> list[str]:
        with self._connection() as conn:
            return [r[0] for r in conn.execute(
                f"SELECT id FROM tables WHERE NOT finished AND {sleepers.NOT_ASLEEP} ORDER BY created_at")]

    def finish(self, table_id: str) -> None:
        with self._connection() as conn:
            conn.execute("UPDATE tables SET finished = true WHERE id = %s", (table_id,))

    def put_listing(self, table_id: str, listing: dict | None) -> None:
        with self._connection() as conn, conn.transaction():
            if listing is None:
                conn.execute("DELETE FROM listings WHERE table_id = %s", (table_id,))
                conn.execute("DELETE FROM claims WHERE table_id = %s", (table_id,))
            else:
                conn.execute("INSERT INTO listings VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (table_id) DO UPDATE "
                             "SET game = excluded.game, status = excluded.status, "
                             "open = excluded.open, data = excluded.data", (table_id, *listing_row(listing)))
                conn.execute("DELETE FROM claims WHERE table_id = %s AND seat <> ALL(%s::int[])", (table_id, listing["open"]))

    def listings(self, game: str | None, claim_seconds: float) -> list[dict]:
        with self._connection() as conn:
            rows = conn.execute(
                f"SELECT table_id, game, status, since, open, data, ARRAY(SELECT seat FROM claims "
                f"WHERE claims.table_id = listings.table_id AND at > {NOW} - %s) FROM listings JOIN tables "
                f"ON tables.id = table_id WHERE NOT finished AND (%s::text IS NULL OR game = %s) ORDER BY since", (claim_seconds, game, game)).fetchall()
        return [listing_of(*row) for row in rows]

    def claim_seat(self, table_id: str, seat: int, token: str, claim_seconds: float, persons: Sequence[str],
                   address: str, per_address: int) -> str:
        with self._connection() as conn, conn.transaction():
            # FOR UPDATE: the claims of one table wait for each other, on every host of the site
            # (one person's two claims there too); the lock on the address, the claims of one
            # address (its count of live claims).
            row = conn.execute("SELECT open FROM listings WHERE table_id = %s FOR UPDATE", (table_id,)).fetchone()
            if row is None or seat not in json.loads(row[0]):
                return CLAIM_TAKEN
            conn.execute("SELECT pg_advisory_xact_lock(%s::int4, hashtext(%s))", (CLAIM_LOCK, address))
            if conn.execute("SELECT 1 FROM visits WHERE table_id = %s AND address = ANY(%s::text[])",
                            (table_id, list(persons))).fetchone():
                return CLAIM_HERE
            if conn.execute(f"SELECT count(*) FROM claims WHERE address = %s AND at > {NOW} - %s",
                            (address, claim_seconds)).fetchone()[0] >= per_address:
                return CLAIM_TOO_MANY
            won = conn.execute(
                f"INSERT INTO claims VALUES (%s, %s, {NOW}, %s) ON CONFLICT (table_id, seat) DO UPDATE SET "
                f"at = excluded.at, address = excluded.address WHERE claims.at <= {NOW} - %s",
                (table_id, seat, address, claim_seconds)).rowcount
            if not won:
                return CLAIM_TAKEN
            conn.execute("UPDATE seats SET token = %s WHERE table_id = %s AND seat = %s", (token, table_id, seat))
            # The claimer is at the table from now on, opened or not (the link is theirs while
            # nobody claims the seat again): no second seat of it.
            conn.execute("INSERT INTO visits SELECT %s, unnest(%s::text[]) ON CONFLICT DO NOTHING",
                         (table_id, list(persons)))
            return CLAIM_WON

    def visit(self, table_id: str, person: str) -> None:
        with self._connection() as conn:
            conn.execute("INSERT INTO visits VALUES (%s, %s) ON CONFLICT DO NOTHING", (table_id, person))

    def close(self) -> None:
        self.pool.close()

    @contextlib.contextmanager
    def _write(self) -> Iterator[_Tx]:
        with self._connection() as conn, conn.transaction():
            yield _Tx(conn)

    @contextlib.contextmanager
    def _connection_tx(self) -> Iterator[_Tx]:
        with self._connection() as conn:
            yield _Tx(conn)


class _Tx:
    """``people.Tx`` on a connection of the pool."""

    def __init__(self, conn: psycopg.Connection):
        self.conn = conn

    def run(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        cur = self.conn.execute(sql, params)
        return cur.fetchall() if cur.description is not None else []


def _lock_matches(tx: _Tx) -> None:
    """The ends of matches one at a time, site-wide: their order numbers (``seq``) and the
    ratings they read and write (people.People.record_ended)."""
    tx.run("SELECT pg_advisory_xact_lock(%s)", (RATING_LOCK,))
