"""Storage: each table is one append-only, versioned stream of events (Lichess-style).

The game code talks to the ``Store`` protocol only (this module, which imports no backend):
``store.open_store`` gives the embedded SQLite store (``store/sqlite.py``) for a file path, the
default, and the PostgreSQL one (``store/postgres.py``) for a ``postgresql://`` URL. An event is ``(version, kind, data)``: versions run 1, 2, 3... per table with
no gaps, and ``append`` refuses a version that is already taken, so two writers can never both
win (optimistic concurrency). ``append`` and ``append_many`` return only once the events are
committed: the server acknowledges or broadcasts nothing before that. The server commits the
events of one turn of its event loop together (``append_many``, one transaction: a group commit).

Kinds (see ``tables.Table.apply_event``): ``created``, ``join``, ``start``, ``match``, ``deal``,
``act``, ``chat``, ``next``, ``takeover`` (a computer plays for an away human), ``return``
(the human is back), ``name`` (a seat's player named), ``rematch`` (a seat's yes to another
match; a ``match`` follows once every seat has said it), ``public`` (a room listed in the
lobby, or taken off), ``fill`` (a computer takes a Play now table's empty seat), ``arrive`` (a
person came for a seat a computer filled: theirs after the deal; lobby.py), ``watch`` (an older
table's watch token, server/watch.py). At a table with a turn clock every event's data holds
``at``, the time it was stored (its deadlines). A watch token is a ``seats`` row too, under
seat number 255.
"""

from __future__ import annotations

import hashlib
import json
import time
import urllib.parse
from collections.abc import Iterable, Sequence
from typing import Protocol

import msgspec

from .people import Ended, People
from .dailies import Dailies
from .sleepers import Sleepers

_encode = msgspec.json.Encoder().encode
# The layout of the tables below. A database records the one it has (SQLite: PRAGMA
# user_version; PostgreSQL: the schema_version table); the store brings an older one up to this
# on opening, and refuses a newer one (written by a later Tarocchi).
SCHEMA_VERSION = 8  # 2: leases (issue 20); 3: the lobby's listings and seat claims (issue 22); 4: visits (issue 37);
# 5: the people: accounts, sessions, passkeys, seats held, matches, ratings (issue 40, store/people.py);
# 6: accounts that cannot be stolen, locked out or faked (issue 55: people.COLUMNS, the sign-in budgets,
# account names folded anew and their look-alike keys, people.LOOKALIKES); a deleted account's seats
# keep an anonymous identity (issue 56, match_players.gone); 7: each finished deal's figures by seat
# and the archive's privacy setting (issue 58, "Your games": people.DEALS, accounts.games_public)
# 8: the daily deal's tries and scores (issue 59, store/dailies.py)


class VersionConflict(RuntimeError):
    """The version is already written: someone else appended first."""


class DamagedRow(ValueError):
    """A stored event that cannot be read back (not JSON: a row damaged by hand)."""

    def __init__(self, table_id: str, version: int, kind: str, reason: str):
        super().__init__(f"table {table_id}: event {version} ({kind}) cannot be read: {reason}")
        self.table_id, self.version, self.kind, self.reason = table_id, version, kind, reason


class SchemaTooNew(RuntimeError):
    """The database was written by a later Tarocchi: this one does not know its layout."""


def check_schema(found: int, where: str) -> None:
    """Refuse a database whose schema is newer than this code's."""
    if found > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"the database {where} has schema version {found}, but this Tarocchi knows versions up to "
            f"{SCHEMA_VERSION}: run the Tarocchi that wrote it (or a later one), or another database")


class Store(Protocol):
    # Accounts, sessions, the seats they hold, matches and ratings (issue 40, store/people.py).
    people: People
    # Tables asleep between moves, and when each wakes (issue 41, store/sleepers.py).
    sleepers: Sleepers
    # The daily deal's ranked tries and their scores (issue 59, store/dailies.py).
    dailies: Dailies

    def create_table(self, table_id: str, kind: str, tokens: list[str | None], created: dict,
                     more: Iterable[tuple[int, str]] = ()) -> None:
        """A new table with its seat tokens (None: a seat without a link, a bot's), ``more``
        tokens as (seat number, token) (its watch link: server/watch.py) and its first event
        (version 1, ``created``)."""

    def add_token(self, table_id: str, seat: int, token: str) -> None:
        """One more token for a table (an older table's watch link)."""

    def append(self, table_id: str, version: int, kind: str, data: dict) -> None:
        """Commit one event; raise VersionConflict if ``version`` is taken."""

    def append_many(self, events: list[tuple[str, int, str, dict]], finished: Iterable[str] = (),
                    reopened: Iterable[str] = (), ended: Iterable[Ended] = ()) -> None:
        """Commit the events ``(table id, version, kind, data)``, mark the ``finished``
        tables' matches as over and the ``reopened`` ones (a rematch) as not, and record the
        matches ``ended`` with them (their players, and ratings: ``People.record_ended``), in
        one transaction: all of it or nothing (VersionConflict if a version is taken)."""

    def events(self, table_id: str) -> list[tuple[int, str, dict]]:
        """The whole stream of a table, in version order (DamagedRow: one cannot be read)."""

    def table_ids(self) -> list[str]:
        """Every table's id, oldest first (``tarocchi check-db``)."""

    # Leases (issue 20, a site of several processes; one process alone takes none): the one
    # process that drives a table, until ``expires`` (seconds since the epoch).

    def acquire(self, table_id: str, owner: str, seconds: float) -> str:
        """Take the table's lease for ``seconds`` if it is free, expired or ``owner``'s
        already; the lease's owner after the attempt (``owner`` if it won)."""

    def renew(self, owner: str, seconds: float, table_ids: Iterable[str]) -> set[str]:
        """Extend ``owner``'s leases of ``table_ids``; the ones it still holds."""

    def release(self, table_id: str, owner: str) -> None:
        """Give up ``owner``'s lease of the table (another process may take it at once)."""

    def lease_owner(self, table_id: str) -> str | None:
        """Who holds the table's lease now (None: nobody, or it expired)."""

    def lease_owners(self, table_ids: Iterable[str]) -> dict[str, str]:
        """``lease_owner`` of many tables in one query: table -> owner, for the held ones."""

    def orphans(self) -> list[str]:
        """Unfinished tables that no live lease holds (their process died): to take over."""

    def live_owners(self) -> set[str]:
        """Who holds a live lease now, of a table or of the database itself (site.py)."""

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """(table id, seat) of a seat token, or None for an unknown token."""

    # The lobby (issue 22, lobby.py): what the owner of each public table last wrote of it, and
    # the seats handed out, so that every process of a site lists and seats alike.

    def put_listing(self, table_id: str, listing: dict | None) -> None:
        """Write the table's listing (``lobby.Lobby.listing``), or (None) drop it and its claims;
        the claims of seats it no longer lists as open go with the same write (spent: their
        links were opened)."""

    def listings(self, game: str | None, claim_seconds: float) -> list[dict]:
        """The listed tables (of ``game``, or all), oldest first, each with ``claimed``: the
        seats whose claim is younger than ``claim_seconds``."""

    def claim_seat(self, table_id: str, seat: int, token: str, claim_seconds: float, persons: Sequence[str],
                   address: str, per_address: int) -> str:
        """Claim an open seat of a listed table for the person known by ``persons`` (their keys:
        ``sessions.persons``), asking from ``address`` (``address_key``): that seat's link
        becomes ``token`` (its old link opens nothing), and the person has been at the table
        (``visit``, each key). One transaction, in which every claim of one table, and every
        claim of one address, waits for the others: CLAIM_TAKEN if a claim younger than
        ``claim_seconds`` holds the seat (or it is not open), CLAIM_HERE if any of ``persons``
        has been at the table (one seat a person: issue 56), CLAIM_TOO_MANY if the address holds
        ``per_address`` live claims (the address counts only in this budget); else CLAIM_WON."""

    def visit(self, table_id: str, person: str) -> None:
        """The person ``person`` (a key of ``sessions.persons``: an account's, a browser's, an
        address's) made the table or opened one of its links: they may never claim a seat of it
        (one seat a person, no spectator at a seat). The ``visits`` table's column ``address``
        holds that key."""

    def chat_before(self, table_id: str, version: int, limit: int) -> list[tuple[int, dict]]:
        """A table's last ``limit`` chat events before ``version``, newest first: (version, data)."""

    def unfinished(self) -> list[str]:
        """The ids of every table whose match is not over, but those asleep (``sleepers``)."""

    def finish(self, table_id: str) -> None:
        """Mark a table's match as over (it is no longer reloaded at startup)."""

    def close(self) -> None: ...


CLAIM_WON, CLAIM_TAKEN, CLAIM_HERE, CLAIM_TOO_MANY = "won", "taken", "here", "too_many"


def address_key(address: str) -> str:
    """A client address as the store keeps it: a hash (who was at a table is told apart, the
    address itself is not written down)."""
    return hashlib.sha256(b"tarocchi-address:" + address.encode()).hexdigest()[:32]


def event_rows(events: list[tuple[str, int, str, dict]]) -> list[tuple[str, int, str, str, float]]:
    """The rows of ``events`` in the table ``events``: the data as JSON text, the time now."""
    now = time.time()
    return [(table_id, version, kind, _encode(data).decode(), now) for table_id, version, kind, data in events]


def version_conflict(events: list[tuple[str, int, str, dict]]) -> VersionConflict:
    if len(events) == 1:
        return VersionConflict(f"table {events[0][0]} already has version {events[0][1]}")
    return VersionConflict(f"a version among these {len(events)} events is already taken")


def redacted(db: str) -> str:
    """``db`` fit for a log line: a URL without its password (in the address or the query)."""
    if "://" not in db:
        return db
    parts = urllib.parse.urlsplit(db)
    if parts.password is not None:
        parts = parts._replace(netloc=f"{parts.username}:***@{parts.netloc.rpartition('@')[2]}")
    query = urllib.parse.parse_qsl(parts.query, keep_blank_values=True)
    if any(key == "password" for key, _ in query):
        query = [(key, "***" if key == "password" else value) for key, value in query]
        parts = parts._replace(query=urllib.parse.urlencode(query, safe="/*"))
    return urllib.parse.urlunsplit(parts)


def listing_row(listing: dict) -> tuple:
    """The columns after ``table_id`` of a listing (either store)."""
    rest = {k: v for k, v in listing.items() if k not in ("game", "status", "since", "open")}
    return (listing["game"], listing["status"], listing["since"], json.dumps(listing["open"]), json.dumps(rest))


def listing_of(table_id: str, game: str, status: str, since: float, open_seats: str, data: str, claimed) -> dict:
    """A listing as read back (either store), with its live claims."""
    claimed = json.loads(claimed) if isinstance(claimed, str) else list(claimed or [])
    return {"table": table_id, "game": game, "status": status, "since": since, "open": json.loads(open_seats),
            **json.loads(data), "claimed": sorted(c for c in claimed if c is not None)}


def decoded(table_id: str, version: int, kind: str, data: str) -> dict:
    """A stored event's data, or DamagedRow (either store)."""
    try:
        event = json.loads(data)
    except (ValueError, TypeError) as e:
        raise DamagedRow(table_id, version, kind, f"{type(e).__name__}: {e}") from None
    if not isinstance(event, dict):
        raise DamagedRow(table_id, version, kind, f"its data is {type(event).__name__}, not an object")
    return event
