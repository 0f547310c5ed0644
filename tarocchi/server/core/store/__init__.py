"""Storage: each table one append-only, versioned stream of events (``store/base.py`` says
what a store promises). One module per backend, each importing only the shared part:
``store/sqlite.py`` (the embedded default) and ``store/postgres.py``; ``open_store`` picks one
by the address it is given."""

from __future__ import annotations

import asyncio

from .base import (  # noqa: F401  (the store's public names, for the server and the tests)
    CLAIM_HERE, CLAIM_TAKEN, CLAIM_TOO_MANY, CLAIM_WON, SCHEMA_VERSION, DamagedRow, SchemaTooNew, Store,
    VersionConflict, address_key, check_schema, decoded, event_rows, listing_of, listing_row, redacted,
    version_conflict,
)
from .sqlite import (  # noqa: F401
    CLAIMS_ADDRESS, LEASES, LISTINGS, SCHEMA, VISITS, WAL_LIMIT, Checkpoints, SqliteStore,
)


def open_store(db: str) -> Store:
    """The store for ``db``: PostgreSQL for a ``postgresql://`` or ``postgres://`` URL, else
    SQLite on that file (created if missing)."""
    if db.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore  # psycopg loads only for PostgreSQL

        return PostgresStore(db)
    return SqliteStore(db)


async def off_loop(store, work, *args):
    """``work(*args)``, a store call: off the event loop where the store commits off it
    (PostgreSQL's round trips, on threads), on it for SQLite (its one connection is the loop's)."""
    if getattr(store, "commits_off_loop", False):
        return await asyncio.to_thread(work, *args)
    return work(*args)
