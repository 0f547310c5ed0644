"""The people of a site (issue 40): accounts, their sessions, passkeys and recovery codes, the
seats each account holds, every finished match with its players, and the ratings. One SQL text
for both backends (``%s`` placeholders; SQLite's ``?`` is put in by its ``Tx``), kept in the
database the tables are in: an account, its session and its matches are one site's, whichever
process answers.

A backend gives ``People`` two context managers that yield a ``Tx``: ``write()`` (one
transaction, every statement of it or none) and ``read()``. The match records and ratings are
written by ``record_ended`` inside the hub's own commit (``Store.append_many``), so a match's end,
its record and its players' new ratings are stored together or not at all: a crash never rates
a match twice, nor forgets one.

What is kept of a secret is a hash: a session's cookie, a recovery code and a passkey
challenge's key by SHA-256 (they are random and long), a password by Argon2id (the accounts
feature hashes it; the store never sees the password)."""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..names import canonical_name, lookalike_keys

# Version 5 (issue 40), 6 (issue 55: ``COLUMNS`` and ``LOOKALIKES`` below, the budgets). Types
# every backend reads alike; ids are random text. Issue 58's moderation: who moderates, the
# players' reports, the moderation log (never edited), the chat and rated bans (``sanctions``),
# the addresses (hashed, ``address_key``) an account sat from.
SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    id text PRIMARY KEY,
    name text NOT NULL,
    name_key text NOT NULL UNIQUE,
    password text,
    created_at double precision NOT NULL
);
CREATE TABLE IF NOT EXISTS recovery_codes (
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    code text NOT NULL,
    PRIMARY KEY (account_id, code)
);
CREATE TABLE IF NOT EXISTS sessions (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at double precision NOT NULL,
    seen_at double precision NOT NULL,
    agent text NOT NULL,
    confirmed_at double precision NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (account_id);
CREATE TABLE IF NOT EXISTS passkeys (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    public_key text NOT NULL,
    sign_count bigint NOT NULL,
    created_at double precision NOT NULL,
    used_at double precision
);
CREATE INDEX IF NOT EXISTS passkeys_by_account ON passkeys (account_id);
CREATE TABLE IF NOT EXISTS passkey_challenges (
    id text PRIMARY KEY,
    purpose text NOT NULL,
    challenge text NOT NULL,
    data text NOT NULL,
    expires_at double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS passkey_challenges_by_expiry ON passkey_challenges (expires_at);
CREATE TABLE IF NOT EXISTS seat_accounts (
    token text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    table_id text NOT NULL,
    seat integer NOT NULL,
    at double precision NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS one_seat_an_account ON seat_accounts (table_id, account_id);
CREATE INDEX IF NOT EXISTS seat_accounts_by_account ON seat_accounts (account_id, at);
CREATE TABLE IF NOT EXISTS matches (
    seq integer NOT NULL UNIQUE,
    table_id text NOT NULL,
    match integer NOT NULL,
    game text NOT NULL,
    seats integer NOT NULL,
    ended_at double precision NOT NULL,
    rated integer NOT NULL,
    PRIMARY KEY (table_id, match)
);
CREATE TABLE IF NOT EXISTS match_players (
    table_id text NOT NULL,
    match integer NOT NULL,
    seat integer NOT NULL,
    account_id text REFERENCES accounts(id) ON DELETE SET NULL,
    name text,
    team integer NOT NULL,
    total integer NOT NULL,
    absent integer NOT NULL,
    place integer NOT NULL,
    before text,
    after text,
    PRIMARY KEY (table_id, match, seat)
);
CREATE INDEX IF NOT EXISTS match_players_by_account ON match_players (account_id);
CREATE TABLE IF NOT EXISTS ratings (
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key text NOT NULL,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    ordinal double precision NOT NULL,
    matches integer NOT NULL,
    updated_at double precision NOT NULL,
    PRIMARY KEY (account_id, key)
);
CREATE INDEX IF NOT EXISTS ratings_by_key ON ratings (key, ordinal);
CREATE TABLE IF NOT EXISTS lesson_progress (
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    game text NOT NULL,
    lesson text NOT NULL,
    at double precision NOT NULL,
    PRIMARY KEY (account_id, game, lesson)
);
CREATE TABLE IF NOT EXISTS site_keys (
    name text PRIMARY KEY,
    value text NOT NULL
);
CREATE TABLE IF NOT EXISTS push_subscriptions (
    endpoint text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    p256dh text NOT NULL,
    auth text NOT NULL,
    lang text NOT NULL,
    created_at double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS push_by_account ON push_subscriptions (account_id);
CREATE TABLE IF NOT EXISTS leaves (
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    table_id text NOT NULL,
    match integer NOT NULL,
    at double precision NOT NULL,
    PRIMARY KEY (account_id, table_id, match)
);
CREATE INDEX IF NOT EXISTS leaves_by_account ON leaves (account_id, at);
CREATE TABLE IF NOT EXISTS sat_at (
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    table_id text NOT NULL,
    PRIMARY KEY (account_id, table_id)
);
CREATE TABLE IF NOT EXISTS budgets (
    key text PRIMARY KEY,
    tokens double precision NOT NULL,
    at double precision NOT NULL,
    full_at double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS budgets_by_full ON budgets (full_at);
CREATE TABLE IF NOT EXISTS follows (
    follower text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    followed text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    at double precision NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX IF NOT EXISTS follows_by_followed ON follows (followed);
CREATE TABLE IF NOT EXISTS blocks (
    blocker text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    blocked text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    at double precision NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
CREATE INDEX IF NOT EXISTS blocks_by_blocked ON blocks (blocked);
CREATE TABLE IF NOT EXISTS challenges (
    id text PRIMARY KEY,
    from_account text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    to_accounts text NOT NULL,
    game text NOT NULL,
    seats integer NOT NULL,
    rated integer,
    clock integer,
    correspondence integer,
    to_lobby integer NOT NULL DEFAULT 0,
    status text NOT NULL,
    accepted text NOT NULL DEFAULT '[]',
    answered_by text,
    created_at double precision NOT NULL,
    answered_at double precision,
    expires_at double precision NOT NULL,
    table_id text
);
CREATE INDEX IF NOT EXISTS challenges_by_from ON challenges (from_account, created_at);
CREATE INDEX IF NOT EXISTS challenges_by_expiry ON challenges (expires_at);
CREATE TABLE IF NOT EXISTS bell (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind text NOT NULL,
    data text NOT NULL,
    at double precision NOT NULL,
    read integer NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS bell_by_account ON bell (account_id, at);
CREATE TABLE IF NOT EXISTS moderators (
    account_id text PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE
);
CREATE TABLE IF NOT EXISTS reports (
    id text PRIMARY KEY,
    reporter text REFERENCES accounts(id) ON DELETE SET NULL,
    reported text REFERENCES accounts(id) ON DELETE SET NULL,
    reason text NOT NULL,
    text text NOT NULL,
    table_id text,
    deal integer,
    chat text NOT NULL,
    at double precision NOT NULL,
    status text NOT NULL
);
CREATE INDEX IF NOT EXISTS reports_by_status ON reports (status, at);
CREATE INDEX IF NOT EXISTS reports_by_reported ON reports (reported);
CREATE INDEX IF NOT EXISTS reports_by_reporter ON reports (reporter);
CREATE TABLE IF NOT EXISTS mod_log (
    id text PRIMARY KEY,
    moderator text NOT NULL,
    target text,
    action text NOT NULL,
    why text NOT NULL,
    at double precision NOT NULL,
    data text NOT NULL
);
CREATE INDEX IF NOT EXISTS mod_log_by_at ON mod_log (at);
CREATE TABLE IF NOT EXISTS sanctions (
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind text NOT NULL,
    until double precision NOT NULL,
    at double precision NOT NULL,
    PRIMARY KEY (account_id, kind)
);
CREATE TABLE IF NOT EXISTS account_addresses (
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    address text NOT NULL,
    at double precision NOT NULL,
    PRIMARY KEY (account_id, address)
);
CREATE INDEX IF NOT EXISTS account_addresses_by_address ON account_addresses (address);
"""

# Columns added since version 5 (issue 55), which a database of that version lacks: each backend
# adds those missing when it opens one, a new one too. (table, column, type)
COLUMNS = [
    ("sessions", "confirmed_at", "double precision NOT NULL DEFAULT 0"),  # the password or a passkey last proved
    ("passkeys", "used_at", "double precision"),
    # (issue 56) a deleted account's seats keep an anonymous identity of their own (``GONE`` and
    # random hex, no account's id: no login reaches it), so that a rebuild rates them as the live
    # server did; ``account_id`` is NULL there (the account is gone: its key with it)
    ("match_players", "gone", "text"),
    # (issue 58, "Your games"; version 7) whether others may see the account's archive of matches
    # and its figures (``GET /api/players/<name>/games``): public unless the player says not
    ("accounts", "games_public", "integer NOT NULL DEFAULT 1"),
]
# Version 7 (issue 58, "Your games"): what each finished deal of a recorded match was for each
# seat (games/figures.py): the deal's contract and the seat's part in it, made or not, the
# seat's score for the deal, the announcements and declarations. Written with the match's record
# (``record_ended``); a match recorded before has its rows from its stored events (``tarocchi
# archive backfill``). The seat's account is its ``match_players`` row's: a deleted account's
# deals keep no trace of it here.
DEALS = """
CREATE TABLE IF NOT EXISTS deal_seats (
    table_id text NOT NULL,
    match integer NOT NULL,
    deal integer NOT NULL,
    seat integer NOT NULL,
    points integer NOT NULL,
    thrown integer NOT NULL,
    contract text,
    role text,
    made integer,
    announce text,
    announce_made integer,
    declared integer,
    PRIMARY KEY (table_id, match, deal, seat)
);
"""
# Version 6 (issue 55): each account's look-alike keys (names.lookalike_keys), one account a
# key: of two names that look alike, the second is refused by the database itself.
LOOKALIKES = """
CREATE TABLE IF NOT EXISTS name_lookalikes (
    lookalike text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS name_lookalikes_by_account ON name_lookalikes (account_id);
"""

GONE = "gone:"  # an anonymous identity's prefix (match_players.gone): no account id has a colon

NEUTRAL_NAME = "a former player"  # a deleted account's name in the matches it played
# A session ends unused this long, and this long after it began whatever its use (issue 55): a
# cookie stolen from a browser dies with its disuse, and none lives past a year.
SESSION_IDLE = 30 * 24 * 3600
SESSION_LONGEST = 365 * 24 * 3600
# Push subscriptions an account keeps (issue 55): one a browser, so a player's phone, laptops and
# tablets; a new one beyond them drops the oldest (a browser long unused, most likely), so a
# player never has to find and remove old ones, and one message goes to at most this many.
SUBSCRIPTIONS_PER_ACCOUNT = 10
BELL_KEPT = 100  # an account's latest bell items kept (issue 58)
# (issue 58) Seconds a chat ban or an account's blocks, read for the chat, are kept in this
# process's memory: a change made here shows at once, one made on another process of a site
# within this long. The chat asks them for every line; the store is asked once in this long.
CHAT_FRESH = 5.0
CHAT_KEPT = 50_000  # accounts whose bans and blocks are kept at most (then all are forgotten)

log = logging.getLogger("tarocchi.server")
# The bell items rung inside the outermost ``People.ringing`` block now running (None: none).
_RUNG: contextvars.ContextVar[list[dict] | None] = contextvars.ContextVar("rung", default=None)
# A challenge as its lists show it (``_challenge``).
CHALLENGE_COLUMNS = ("SELECT c.id, c.from_account, a.name, c.to_accounts, c.game, c.seats, c.rated, c.clock, "
                     "c.correspondence, c.to_lobby, c.status, c.accepted, c.created_at, c.expires_at, c.table_id "
                     "FROM challenges c JOIN accounts a ON a.id = c.from_account")


class Tx(Protocol):
    def run(self, sql: str, params: tuple | list = ()) -> list[tuple]:
        """Run one statement (``%s`` placeholders); its rows (none for a write)."""


def digest(secret: str) -> str:
    """A random secret as stored (a session cookie, a recovery code): its SHA-256."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_account_id() -> str:
    return secrets.token_hex(8)


def name_key(name: str) -> str:
    """An account name as it is compared: NFKC, case and width folded (``Mario`` is ``mario``,
    ``ｍａｒｉｏ`` too: names.canonical_name, issue 55)."""
    return canonical_name(name)


def fold_names(tx: Tx) -> None:
    """Version 6 (issue 55): the accounts made before it, their names compared as
    ``canonical_name`` does and their look-alike keys kept. Where two of them now fold alike,
    the older keeps the key and the newer its old one (still signed in to as before, by its
    name as it was compared): an upgrade never fails on the names it finds."""
    for account, name, key in tx.run("SELECT id, name, name_key FROM accounts ORDER BY created_at, id"):
        folded = name_key(name)
        if folded != key and not tx.run("SELECT 1 FROM accounts WHERE name_key = %s", (folded,)):
            tx.run("UPDATE accounts SET name_key = %s WHERE id = %s", (folded, account))
        for lookalike in sorted(lookalike_keys(name)):
            tx.run("INSERT INTO name_lookalikes (lookalike, account_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                   (lookalike, account))


@dataclass
class Player:
    """One seat of a finished match, as recorded and rated."""

    seat: int
    name: str | None  # None: a deleted account's (``NEUTRAL_NAME`` is shown)
    team: int  # the side (Ottocento's partnerships, B1); else the seat itself
    total: int  # the match total, by seat
    absent: bool  # the computer played for this seat most of a deal or more: finishes last
    account: str | None = None  # the account that sat there (``Table.sitters``, issue 56)
    place: int = 0  # 1: first; equal places share (worked out by ``places``)


# A rating: (mu, sigma). ``Rater`` rates one match: the players with their accounts, and each
# account's rating before (absent: none yet); the ratings after, by account, or None when the
# match is not to be rated (a seat without an account, a computer). The ratings feature gives
# it; the store calls it inside the match's own transaction.
Rater = Callable[[list[Player], dict[str, tuple[float, float]]], dict[str, tuple[float, float]] | None]


@dataclass
class Ended:
    """A match that just ended, staged with the event that ended it (``Hub.write``)."""

    table_id: str
    match: int  # 1 for the table's first match, 2 after a rematch...
    game: str
    seats: int
    at: float
    players: list[Player]
    rater: Rater | None = None  # set by a feature (``Feature.ended``): the match is to be rated
    ordinal: Callable[[float, float], float] | None = None  # the rating's ranking value
    rated_room: bool = False  # a room whose matches are rated (casual or not this time): who left it is noted
    # Each deal of the match, in order: each seat's figures (games/figures.py ``SeatFigures.to_row``),
    # by seat; set by a feature (server/archive.py), stored in ``deal_seats`` (issue 58)
    deals: list[list[dict]] = dataclasses.field(default_factory=list)

    @property
    def key(self) -> str:
        """What a rating is of: a game at a table size (Sicilian at three and at four differ)."""
        return rating_key(self.game, self.seats)


def rating_key(game: str, seats: int) -> str:
    return f"{game}/{seats}"


def places(players: list[Player]) -> None:
    """Each player's place from the totals by team (a team's total is its best seat's): 1 is
    first, equal totals share a place, and a team with an absent player comes after every team
    whose players were all there. Places are counted as in sport (issue 56: one wording of
    places everywhere, the leaderboard's too): after two first, the next is third."""
    def strength(p: Player) -> tuple[int, int]:
        team = [q for q in players if q.team == p.team]
        return (0 if any(q.absent for q in team) else 1, max(q.total for q in team))
    by_team = {p.team: strength(p) for p in players}
    for p in players:
        p.place = 1 + sum(1 for s in by_team.values() if s > strength(p))


def sport_places(rows: list[tuple[int, int]]) -> list[int]:
    """(team, place) of a match's seats, as stored (before issue 56 a place after a tie was the
    next number: 1, 1, 2), as sport counts them: 1 + the teams placed before (1, 1, 3)."""
    teams = {team: place for team, place in rows}
    return [1 + sum(1 for q in teams.values() if q < place) for _, place in rows]


class _NameLooksLike(Exception):
    """(Raised inside ``create_account``'s transaction: the account is undone with it.)"""


class People:
    """The people's tables, on a backend's transactions (``write``, ``read``)."""

    def __init__(self, write: Callable[[], contextlib.AbstractContextManager[Tx]],
                 read: Callable[[], contextlib.AbstractContextManager[Tx]], *, lock: Callable[[Tx], None] = lambda tx: None):
        self._write, self.read = write, read
        # Told of the bell items rung (each {id, account, kind, data, at}) once their
        # transaction is committed, on this process alone, in the thread that committed it
        # (issue 58: the notifier pushes them). A listener must not raise, nor take long.
        self.rung: list[Callable[[list[dict]], None]] = []
        # (issue 58) account -> (when read, until) of its chat ban; account -> (when read, those
        # it blocks, those that block it): the chat's reads (``CHAT_FRESH``).
        self._chat_bans: dict[str, tuple[float, float | None]] = {}
        self._blocks: dict[str, tuple[float, frozenset[str], frozenset[str]]] = {}
        # After a deletion: what the backend still holds of the deleted rows goes (SQLite: its
        # WAL checkpointed and cut to nothing; its pages are zeroed as they are freed,
        # secure_delete). PostgreSQL: see docs/operations.md.
        self.wipe: Callable[[], None] = lambda: None
        self.lock_matches = lock  # PostgreSQL: one match's end at a time, site-wide (SQLite: one writer)

    @contextlib.contextmanager
    def write(self):
        """A write transaction; the bell items it rings are told after its commit."""
        with self.ringing(), self._write() as tx:
            yield tx

    @contextlib.contextmanager
    def ringing(self):
        """The bell items rung inside (``_ring``) are told to the ``rung`` listeners when the
        block ends without an error: wrapped around a transaction, after its commit (a store's
        own: ``append_many``, whose matches ring ``rated``). Nested, the outermost tells."""
        if _RUNG.get() is not None:
            yield
            return
        rung: list[dict] = []
        token = _RUNG.set(rung)
        try:
            yield
        finally:
            _RUNG.reset(token)
        if rung:
            for listener in self.rung:
                try:
                    listener(rung)
                except Exception:  # (what was committed stays so: a push is not worth an error)
                    log.exception("a bell listener failed")

    # --- accounts ---------------------------------------------------------------------------

    def create_account(self, name: str, password: str | None, codes: list[str], *, account: str | None = None,
                       passkey: tuple[str, str, int] | None = None) -> str | None:
        """A new account (``password``: its Argon2id hash, or None) with its recovery codes
        (kept hashed); its id, or None if the name (case folded) is taken or looks like one
        taken (``name_clash`` tells which). ``account``: its id, chosen before (a passkey's user
        handle, ``new_account_id``); ``passkey``: (credential, public key, sign count), stored
        with it in the same transaction: an account made with a passkey never exists without it.

        One transaction whose inserts the database's UNIQUE constraints decide (issue 55): of
        two sign-ups of one name at once, on any process of a site, one wins and the other gets
        None, never an error."""
        account = account or new_account_id()
        try:
            with self.write() as tx:
                if not tx.run("INSERT INTO accounts (id, name, name_key, password, created_at) "
                              "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING id",
                              (account, name, name_key(name), password, time.time())):
                    return None
                for lookalike in sorted(lookalike_keys(name)):
                    if not tx.run("INSERT INTO name_lookalikes (lookalike, account_id) VALUES (%s, %s) "
                                  "ON CONFLICT DO NOTHING RETURNING account_id", (lookalike, account)):
                        raise _NameLooksLike
                for code in codes:
                    tx.run("INSERT INTO recovery_codes (account_id, code) VALUES (%s, %s)", (account, digest(code)))
                if passkey is not None:
                    credential, public_key, sign_count = passkey
                    tx.run("INSERT INTO passkeys (id, account_id, public_key, sign_count, created_at) "
                           "VALUES (%s, %s, %s, %s, %s)", (credential, account, public_key, sign_count, time.time()))
        except _NameLooksLike:
            return None
        return account

    def name_clash(self, name: str) -> str | None:
        """Why ``name`` cannot be a new account's: ``taken`` (an account has it, in any case or
        width), ``lookalike`` (it looks like an account's: names.lookalike_keys), or None."""
        keys = sorted(lookalike_keys(name))
        with self.read() as tx:
            if tx.run("SELECT 1 FROM accounts WHERE name_key = %s", (name_key(name),)):
                return "taken"
            if tx.run("SELECT 1 FROM name_lookalikes WHERE lookalike IN (%s)" % ", ".join(["%s"] * len(keys)), keys):
                return "lookalike"
        return None

    def account(self, account: str) -> dict | None:
        with self.read() as tx:
            rows = tx.run("SELECT id, name, password, created_at FROM accounts WHERE id = %s", (account,))
        return _account(rows)

    def account_named(self, name: str) -> dict | None:
        with self.read() as tx:
            rows = tx.run("SELECT id, name, password, created_at FROM accounts WHERE name_key = %s", (name_key(name),))
        return _account(rows)

    def set_password(self, account: str, password: str, *, keep: str | None = None) -> None:
        """A new password hash; every session of the account but ``keep`` (the stored id of the
        session that changed it) ends with it (issue 55: whoever held the old password, or a
        stolen session, is signed out; a reset by the operator ends them all)."""
        with self.write() as tx:
            tx.run("UPDATE accounts SET password = %s WHERE id = %s", (password, account))
            tx.run("DELETE FROM sessions WHERE account_id = %s AND id <> %s", (account, keep or ""))

    def new_recovery_codes(self, account: str, codes: list[str]) -> None:
        """The account's recovery codes replaced by ``codes`` (kept hashed): the old ones are void."""
        with self.write() as tx:
            tx.run("DELETE FROM recovery_codes WHERE account_id = %s", (account,))
            for code in codes:
                tx.run("INSERT INTO recovery_codes (account_id, code) VALUES (%s, %s)", (account, digest(code)))

    def spend_recovery_code(self, account: str, code: str) -> bool:
        """Whether ``code`` is one of the account's unused recovery codes (it is used up now).
        One statement: of two spends of one code at once, only one finds it (issue 55)."""
        with self.write() as tx:
            found = tx.run("DELETE FROM recovery_codes WHERE account_id = %s AND code = %s RETURNING code",
                           (account, digest(code)))
        return bool(found)

    def delete_account(self, account: str) -> Forgotten | None:
        """The account and everything kept of it go: sessions, passkeys, codes, ratings, its
        seats' links, push subscriptions, lessons; the matches it played stay, under a neutral
        name and an anonymous identity of their own (issue 56: a rebuild rates them as the live
        server did). Its name goes from the stored events of every table it had a seat at (issue
        55): the seats' ``name`` events, its chat lines' names, the lobby's listings, the match
        records. What the backend keeps of the deleted rows is wiped after (``wipe``). What was
        forgotten (for the tables in play: ``Hub.forget``), None for no such account."""
        with self.write() as tx:
            found = tx.run("SELECT name FROM accounts WHERE id = %s", (account,))
            if not found:
                return None
            name = found[0][0]
            tables = sorted({r[0] for r in tx.run(
                "SELECT table_id FROM seat_accounts WHERE account_id = %s UNION "
                "SELECT table_id FROM sat_at WHERE account_id = %s UNION "
                "SELECT table_id FROM match_players WHERE account_id = %s", (account, account, account))})
            gone = GONE + secrets.token_hex(8)
            tx.run("UPDATE match_players SET name = NULL, account_id = NULL, gone = %s WHERE account_id = %s",
                   (gone, account))
            forget_name(tx, name, tables, account)
            tx.run("DELETE FROM accounts WHERE id = %s", (account,))
        self.wipe()
        return Forgotten(name, tables, account)

    def forget_name(self, name: str, tables: list[str], account: str = "") -> None:
        """``forget_name`` again, in a transaction of its own (the events of a table in play
        committed meanwhile: ``Hub.forget``)."""
        with self.write() as tx:
            forget_name(tx, name, tables, account)
        self.wipe()

    def sat_at(self, account: str, table_id: str, address: str | None = None) -> None:
        """The account sat at a seat of the table (its ``sit`` event, issue 56): a deletion
        finds the table by it, to take the account's name and id out of its events. ``address``
        (its hash, ``address_key``): kept for a moderator's file (issue 58: accounts that shared one)."""
        with self.write() as tx:
            tx.run("INSERT INTO sat_at (account_id, table_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                   (account, table_id))
            if address:
                tx.run("INSERT INTO account_addresses (account_id, address, at) VALUES (%s, %s, %s) "
                       "ON CONFLICT (account_id, address) DO UPDATE SET at = excluded.at",
                       (account, address, time.time()))

    # --- budgets (issue 55) --------------------------------------------------------------------

    def spend_budget(self, key: str, burst: int, per_second: float) -> bool:
        """Spend one try of the token bucket ``key`` (a burst, then so many a second); whether
        there was one. Kept in the store, so that no flood of other keys evicts it (a bucket
        is forgotten only once it has refilled, when it is as good as new); the key is kept
        as its hash (it holds an address, a name)."""
        now, key = time.time(), digest(key)
        with self.write() as tx:
            tx.run("DELETE FROM budgets WHERE full_at < %s", (now,))
            tx.run("INSERT INTO budgets (key, tokens, at, full_at) VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                   (key, float(burst), now, now))
            tx.run("UPDATE budgets SET at = at WHERE key = %s", (key,))  # (the row locked till the commit)
            tokens, at = tx.run("SELECT tokens, at FROM budgets WHERE key = %s", (key,))[0]
            tokens = min(float(burst), tokens + max(0.0, now - at) * per_second)
            spent = tokens >= 1
            tokens -= spent
            tx.run("UPDATE budgets SET tokens = %s, at = %s, full_at = %s WHERE key = %s",
                   (tokens, now, now + (burst - tokens) / per_second, key))
        return spent

    # --- sessions ---------------------------------------------------------------------------

    def new_session(self, account: str, agent: str) -> str:
        """A new session of the account, its password or passkey proved now (it was just
        signed in with one): the cookie's value (random; only its hash is kept). The account's
        sessions past their time go with it."""
        cookie = secrets.token_urlsafe(32)
        now = time.time()
        with self.write() as tx:
            tx.run("DELETE FROM sessions WHERE account_id = %s AND (seen_at < %s OR created_at < %s)",
                   (account, now - SESSION_IDLE, now - SESSION_LONGEST))
            tx.run("INSERT INTO sessions (id, account_id, created_at, seen_at, agent, confirmed_at) "
                   "VALUES (%s, %s, %s, %s, %s, %s)", (digest(cookie), account, now, now, agent[:200], now))
        return cookie

    def session_account(self, cookie: str, seen_every: float = 60.0) -> dict | None:
        """The account a session cookie is signed in to (None: unknown, ended, or past its
        time: ``SESSION_IDLE`` unused, or ``SESSION_LONGEST`` since it began), with the
        session's ``id`` (its hash) and when the password or a passkey was last proved in it
        (``confirmed``); when it was last seen (which renews it) is written at most every
        ``seen_every`` seconds."""
        sid, now = digest(cookie), time.time()
        with self.read() as tx:
            rows = tx.run("SELECT a.id, a.name, s.seen_at, s.created_at, s.confirmed_at FROM sessions s "
                          "JOIN accounts a ON a.id = s.account_id WHERE s.id = %s", (sid,))
        if not rows:
            return None
        account, name, seen, created, confirmed = rows[0]
        if now - seen > SESSION_IDLE or now - created > SESSION_LONGEST:
            self.end_session(sid)
            return None
        if now - seen > seen_every:
            with self.write() as tx:
                tx.run("UPDATE sessions SET seen_at = %s WHERE id = %s", (now, sid))
        return {"id": account, "name": name, "session": sid, "confirmed": confirmed}

    def confirm_session(self, session: str) -> None:
        """The account's password or a passkey was proved again in this session (issue 55)."""
        with self.write() as tx:
            tx.run("UPDATE sessions SET confirmed_at = %s WHERE id = %s", (time.time(), session))

    def sessions(self, account: str) -> list[dict]:
        with self.read() as tx:
            rows = tx.run("SELECT id, created_at, seen_at, agent FROM sessions WHERE account_id = %s "
                          "ORDER BY seen_at DESC", (account,))
        return [{"id": r[0][:12], "created": r[1], "seen": r[2], "agent": r[3]} for r in rows]

    def end_session(self, session: str) -> None:
        """End one session (``session``: its stored id)."""
        with self.write() as tx:
            tx.run("DELETE FROM sessions WHERE id = %s", (session,))

    def end_sessions(self, account: str) -> None:
        with self.write() as tx:
            tx.run("DELETE FROM sessions WHERE account_id = %s", (account,))

    # --- passkeys ---------------------------------------------------------------------------

    def add_passkey(self, account: str, credential: str, public_key: str, sign_count: int) -> None:
        with self.write() as tx:
            tx.run("INSERT INTO passkeys (id, account_id, public_key, sign_count, created_at) "
                   "VALUES (%s, %s, %s, %s, %s)", (credential, account, public_key, sign_count, time.time()))

    def passkey(self, credential: str) -> dict | None:
        with self.read() as tx:
            rows = tx.run("SELECT id, account_id, public_key, sign_count FROM passkeys WHERE id = %s", (credential,))
        if not rows:
            return None
        return dict(zip(("id", "account", "public_key", "sign_count"), rows[0]))

    def passkeys(self, account: str) -> list[dict]:
        """The account's passkeys: id, added (``created``), last signed in with (``used``)."""
        with self.read() as tx:
            rows = tx.run("SELECT id, created_at, used_at FROM passkeys WHERE account_id = %s ORDER BY created_at",
                          (account,))
        return [{"id": r[0], "created": r[1], "used": r[2]} for r in rows]

    def passkey_used(self, credential: str, sign_count: int) -> None:
        with self.write() as tx:
            tx.run("UPDATE passkeys SET sign_count = %s, used_at = %s WHERE id = %s",
                   (sign_count, time.time(), credential))

    def remove_passkey(self, account: str, credential: str) -> str:
        """Remove one of the account's passkeys: ``removed``; ``unknown`` (not one of its);
        ``last`` (refused: no password and no other passkey, it is the last way in). One
        transaction: two removals at once never leave an account with no way in."""
        with self.write() as tx:
            # (an update that changes nothing: the account's row locked till the commit, on both backends)
            tx.run("UPDATE accounts SET password = password WHERE id = %s", (account,))
            rows = tx.run("SELECT password FROM accounts WHERE id = %s", (account,))
            if not rows or not tx.run("SELECT 1 FROM passkeys WHERE id = %s AND account_id = %s", (credential, account)):
                return "unknown"
            others = tx.run("SELECT count(*) FROM passkeys WHERE account_id = %s AND id <> %s", (account, credential))
            if rows[0][0] is None and others[0][0] == 0:
                return "last"
            tx.run("DELETE FROM passkeys WHERE id = %s AND account_id = %s", (credential, account))
        return "removed"

    def new_challenge(self, purpose: str, challenge: bytes, data: dict, seconds: float) -> str:
        """A passkey ceremony's challenge (``purpose``: what it is for; ``data``: what the
        ceremony's second step needs), kept until taken once or ``seconds`` pass: the key to
        take it with (random, for the browser's cookie; only its hash is kept). In the store,
        not in a process: a site's next request may reach another process. Those past their
        time go with each new one."""
        key = secrets.token_urlsafe(32)
        now = time.time()
        with self.write() as tx:
            tx.run("DELETE FROM passkey_challenges WHERE expires_at < %s", (now,))
            tx.run("INSERT INTO passkey_challenges (id, purpose, challenge, data, expires_at) "
                   "VALUES (%s, %s, %s, %s, %s)",
                   (digest(key), purpose, challenge.hex(), json.dumps(data), now + seconds))
        return key

    def take_challenge(self, key: str, purpose: str) -> tuple[bytes, dict] | None:
        """The challenge of ``key`` and its data, used up now (a second take finds nothing,
        from any process); None: unknown, taken before, past its time, or for another
        purpose."""
        with self.write() as tx:
            # (one statement: of two takes at once, on either backend, only one gets the row)
            rows = tx.run("DELETE FROM passkey_challenges WHERE id = %s RETURNING purpose, challenge, data, expires_at",
                          (digest(key),))
        if not rows or rows[0][0] != purpose or rows[0][3] < time.time():
            return None
        return bytes.fromhex(rows[0][1]), json.loads(rows[0][2])

    # --- seats ------------------------------------------------------------------------------

    def hold_seat(self, account: str, token: str) -> tuple[str, int] | str:
        """The seat of link ``token`` becomes the account's: (table, seat); or why not
        (``unknown``: no such seat link; ``other``: another account holds it; ``table``: the
        account holds another seat of that table: one seat a person)."""
        with self.write() as tx:
            rows = tx.run("SELECT table_id, seat FROM seats WHERE token = %s AND seat < 255", (token,))
            if not rows:
                return "unknown"
            table_id, seat = rows[0]
            held = tx.run("SELECT account_id FROM seat_accounts WHERE token = %s", (token,))
            if held:
                return (table_id, seat) if held[0][0] == account else "other"
            # A link replaced since (a seat claimed in the lobby) holds nothing any more.
            tx.run("DELETE FROM seat_accounts WHERE table_id = %s AND account_id = %s "
                   "AND token NOT IN (SELECT token FROM seats WHERE table_id = %s)", (table_id, account, table_id))
            if tx.run("SELECT 1 FROM seat_accounts WHERE table_id = %s AND account_id = %s", (table_id, account)):
                return "table"
            # Two holds at once (issue 55): the database's constraints pick one; the other finds
            # what won (each statement of a PostgreSQL transaction sees what committed before it).
            if not tx.run("INSERT INTO seat_accounts (token, account_id, table_id, seat, at) "
                          "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING RETURNING token",
                          (token, account, table_id, seat, time.time())):
                held = tx.run("SELECT account_id FROM seat_accounts WHERE token = %s", (token,))
                if not held:
                    return "table"  # (its other seat at this table, held at the same moment)
                return (table_id, seat) if held[0][0] == account else "other"
        return table_id, seat

    def held_seats(self, account: str, limit: int) -> list[str]:
        """The seat links the account holds (still its seats' links), the latest first."""
        with self.read() as tx:
            rows = tx.run("SELECT h.token FROM seat_accounts h JOIN seats s ON s.token = h.token "
                          "WHERE h.account_id = %s ORDER BY h.at DESC LIMIT %s", (account, limit))
        return [r[0] for r in rows]

    def forget_seat(self, account: str, token: str) -> None:
        with self.write() as tx:
            tx.run("DELETE FROM seat_accounts WHERE account_id = %s AND token = %s", (account, token))

    def table_accounts(self, table_id: str) -> dict[int, str]:
        """Seat -> the account holding that seat's current link."""
        with self.read() as tx:
            return _table_accounts(tx, table_id)

    def table_seats(self, table_id: str) -> dict[int, tuple[str, str]]:
        """Room seat -> (the account holding that seat's current link, the link's token)."""
        with self.read() as tx:
            rows = tx.run("SELECT s.seat, h.account_id, s.token FROM seats s JOIN seat_accounts h ON h.token = s.token "
                          "WHERE s.table_id = %s AND s.seat < 255", (table_id,))
        return {seat: (account, token) for seat, account, token in rows}

    # --- lessons done (issue 42) -----------------------------------------------------------

    def lesson_done(self, account: str, game: str, lesson: str, most: int) -> bool:
        """The account finished a lesson (kept once); False if it holds ``most`` already."""
        with self.write() as tx:
            if tx.run("SELECT count(*) FROM lesson_progress WHERE account_id = %s", (account,))[0][0] >= most:
                return False
            tx.run("INSERT INTO lesson_progress (account_id, game, lesson, at) VALUES (%s, %s, %s, %s) "
                   "ON CONFLICT DO NOTHING", (account, game, lesson, time.time()))
        return True

    def lessons_done(self, account: str) -> dict[str, list[str]]:
        """Game -> the lessons the account finished, in the order it did."""
        with self.read() as tx:
            rows = tx.run("SELECT game, lesson FROM lesson_progress WHERE account_id = %s ORDER BY at", (account,))
        out: dict[str, list[str]] = {}
        for game, lesson in rows:
            out.setdefault(game, []).append(lesson)
        return out

    # --- the site's own keys, and push subscriptions (issue 41) -----------------------------

    def site_key(self, name: str, make: Callable[[], str]) -> str:
        """The site's key ``name``, made by ``make`` the first time any process asks (the
        first writer wins: every process of a site then uses the same)."""
        with self.write() as tx:
            tx.run("INSERT INTO site_keys (name, value) VALUES (%s, %s) ON CONFLICT DO NOTHING", (name, make()))
            return tx.run("SELECT value FROM site_keys WHERE name = %s", (name,))[0][0]

    def subscribe(self, account: str, endpoint: str, p256dh: str, auth: str, lang: str) -> bool:
        """A browser's push subscription, for the account, in the page's language; False (and
        nothing changed) if that endpoint is another account's: never taken over (issue 55; that
        browser's page subscribes afresh, with a new endpoint). An account keeps its newest
        ``SUBSCRIPTIONS_PER_ACCOUNT``: the oldest beyond them are dropped."""
        with self.write() as tx:
            tx.run("INSERT INTO push_subscriptions (endpoint, account_id, p256dh, auth, lang, created_at) "
                   "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (endpoint) DO UPDATE SET "
                   "p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang, "
                   "created_at = excluded.created_at WHERE push_subscriptions.account_id = excluded.account_id",
                   (endpoint, account, p256dh, auth, lang, time.time()))
            if tx.run("SELECT account_id FROM push_subscriptions WHERE endpoint = %s", (endpoint,))[0][0] != account:
                return False
            # (this one kept whatever the clocks of a site's processes say: it is the newest)
            tx.run("DELETE FROM push_subscriptions WHERE account_id = %s AND endpoint <> %s AND endpoint NOT IN "
                   "(SELECT endpoint FROM push_subscriptions WHERE account_id = %s AND endpoint <> %s "
                   "ORDER BY created_at DESC, endpoint LIMIT %s)",
                   (account, endpoint, account, endpoint, SUBSCRIPTIONS_PER_ACCOUNT - 1))
        return True

    def unsubscribe(self, endpoint: str, account: str | None = None) -> None:
        """Drop a subscription (``account``: only if it is that account's)."""
        with self.write() as tx:
            if account is None:
                tx.run("DELETE FROM push_subscriptions WHERE endpoint = %s", (endpoint,))
            else:
                tx.run("DELETE FROM push_subscriptions WHERE endpoint = %s AND account_id = %s", (endpoint, account))

    def subscriptions(self, account: str) -> list[dict]:
        with self.read() as tx:
            rows = tx.run("SELECT endpoint, p256dh, auth, lang FROM push_subscriptions WHERE account_id = %s "
                          "ORDER BY created_at", (account,))
        return [{"endpoint": e, "keys": {"p256dh": p, "auth": a}, "lang": lang} for e, p, a, lang in rows]

    # --- friends, blocks, challenges and the bell (issue 58) ----------------------------------

    def follow(self, follower: str, followed: str, most: int) -> bool:
        """``follower`` follows ``followed`` (kept once); False if it follows ``most`` already."""
        with self.write() as tx:
            if tx.run("SELECT 1 FROM follows WHERE follower = %s AND followed = %s", (follower, followed)):
                return True
            if tx.run("SELECT count(*) FROM follows WHERE follower = %s", (follower,))[0][0] >= most:
                return False
            tx.run("INSERT INTO follows (follower, followed, at) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                   (follower, followed, time.time()))
        return True

    def unfollow(self, follower: str, followed: str) -> None:
        with self.write() as tx:
            tx.run("DELETE FROM follows WHERE follower = %s AND followed = %s", (follower, followed))

    def following(self, account: str) -> list[dict]:
        """Those the account follows, by name: {id, name, friend}; a friend follows it back and
        neither blocks the other (issue 58)."""
        with self.read() as tx:
            rows = tx.run(
                "SELECT a.id, a.name, EXISTS (SELECT 1 FROM follows b WHERE b.follower = f.followed "
                "AND b.followed = f.follower) AND NOT EXISTS (SELECT 1 FROM blocks k WHERE "
                "(k.blocker = f.follower AND k.blocked = f.followed) OR (k.blocker = f.followed AND k.blocked = f.follower)) "
                "FROM follows f JOIN accounts a ON a.id = f.followed WHERE f.follower = %s ORDER BY a.name_key",
                (account,))
        return [{"id": i, "name": n, "friend": bool(mutual)} for i, n, mutual in rows]

    def block(self, blocker: str, blocked: str, most: int) -> bool:
        """``blocker`` blocks ``blocked`` (kept once); False if it blocks ``most`` already. In
        the same transaction the pending challenges between the two end: the blocked one's to
        the blocker declined (as if by hand: nothing says why), the blocker's own cancelled."""
        now = time.time()
        with self.write() as tx:
            if not tx.run("SELECT 1 FROM blocks WHERE blocker = %s AND blocked = %s", (blocker, blocked)):
                if tx.run("SELECT count(*) FROM blocks WHERE blocker = %s", (blocker,))[0][0] >= most:
                    return False
                tx.run("INSERT INTO blocks (blocker, blocked, at) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                       (blocker, blocked, now))
            for cid, sender, to in tx.run("SELECT id, from_account, to_accounts FROM challenges WHERE status = 'pending' "
                                          "AND (from_account = %s OR from_account = %s) AND expires_at > %s",
                                          (blocker, blocked, now)):
                named = json.loads(to)
                if sender == blocked and blocker in named:
                    self._answer(tx, cid, "declined", blocker, now)
                elif sender == blocker and blocked in named:
                    tx.run("UPDATE challenges SET status = 'cancelled', answered_at = %s WHERE id = %s", (now, cid))
        self._forget_kept(blocker, blocked)
        return True

    def unblock(self, blocker: str, blocked: str) -> None:
        with self.write() as tx:
            tx.run("DELETE FROM blocks WHERE blocker = %s AND blocked = %s", (blocker, blocked))
        self._forget_kept(blocker, blocked)

    def blocked_by(self, account: str) -> list[str]:
        """The names the account blocks (its own list: never shown to anyone else)."""
        with self.read() as tx:
            rows = tx.run("SELECT a.name FROM blocks b JOIN accounts a ON a.id = b.blocked WHERE b.blocker = %s "
                          "ORDER BY a.name_key", (account,))
        return [r[0] for r in rows]

    def blocks_any(self, account: str, others: list[str]) -> bool:
        """Whether ``account`` and any of ``others`` block each other, either way (issue 58: the
        lobby seats no one beside a person they block, or who blocks them)."""
        others = sorted(set(o for o in others if o and o != account))
        if not others:
            return False
        marks = ", ".join(["%s"] * len(others))
        with self.read() as tx:
            return bool(tx.run(f"SELECT 1 FROM blocks WHERE (blocker = %s AND blocked IN ({marks})) "
                               f"OR (blocked = %s AND blocker IN ({marks})) LIMIT 1",
                               (account, *others, account, *others)))

    def blockers_among(self, blocked: str, accounts: list[str]) -> set[str]:
        """Those of ``accounts`` that block ``blocked`` (the chat asks it for every line: kept
        ``CHAT_FRESH`` seconds, ``_blocks_of``)."""
        return set(accounts) & self._blocks_of(blocked)[2]

    def blocked_among(self, blocker: str, accounts: list[str]) -> set[str]:
        """Those of ``accounts`` that ``blocker`` blocks (kept as ``blockers_among``)."""
        return set(accounts) & self._blocks_of(blocker)[1]

    def _blocks_of(self, account: str) -> tuple[float, frozenset[str], frozenset[str]]:
        """(when read, those the account blocks, those that block it), read from the store at
        most once in ``CHAT_FRESH`` seconds (issue 58: not once a chat line)."""
        now = time.monotonic()
        kept = self._blocks.get(account)
        if kept is None or now - kept[0] > CHAT_FRESH:
            with self.read() as tx:
                rows = tx.run("SELECT blocker, blocked FROM blocks WHERE blocker = %s OR blocked = %s",
                              (account, account))
            if len(self._blocks) >= CHAT_KEPT:
                self._blocks.clear()
            kept = self._blocks[account] = (now, frozenset(b for a, b in rows if a == account),
                                            frozenset(a for a, b in rows if b == account))
        return kept

    def _forget_kept(self, *accounts: str) -> None:
        """A block between these accounts changed here: read afresh at the next chat line."""
        for account in accounts:
            self._blocks.pop(account, None)

    def block_between(self, accounts: list[str]) -> bool:
        """Whether any two of ``accounts`` block each other, either way (issue 58: Play now and
        the lobby never seat them together, nor does a challenge)."""
        wanted = sorted(set(a for a in accounts if a))
        if len(wanted) < 2:
            return False
        marks = ", ".join(["%s"] * len(wanted))
        with self.read() as tx:
            return bool(tx.run(f"SELECT 1 FROM blocks WHERE blocker IN ({marks}) AND blocked IN ({marks}) LIMIT 1",
                               (*wanted, *wanted)))

    def challenge_players(self, sender: dict, named: list[dict], settings: dict, seconds: float, *, quiet: float,
                      most_open: int, most_waiting: int) -> str | None:
        """A challenge from ``sender`` ({id, name}) to the accounts ``named`` (each {id, name}),
        for a room of ``settings`` (game, seats, rated, clock, correspondence, to_lobby), lapsing
        after ``seconds``; a bell item for each one named. None (nothing written) when it is
        refused (issue 58), one answer for every reason: two of them block each other, one named
        declined a challenge of the sender's in the last ``quiet`` seconds, the sender has
        ``most_open`` pending already or one named has ``most_waiting`` waiting for them."""
        now = time.time()
        ids = [n["id"] for n in named]
        with self.write() as tx:
            tx.run("UPDATE accounts SET password = password WHERE id = %s", (sender["id"],))  # (its challenges one at a time)
            everyone = sorted({sender["id"], *ids})
            marks = ", ".join(["%s"] * len(everyone))
            if tx.run(f"SELECT 1 FROM blocks WHERE blocker IN ({marks}) AND blocked IN ({marks}) LIMIT 1",
                      (*everyone, *everyone)):
                return None
            for account in ids:
                if tx.run("SELECT 1 FROM challenges WHERE from_account = %s AND status = 'declined' AND answered_by = %s "
                          "AND answered_at > %s", (sender["id"], account, now - quiet)):
                    return None
                waiting = tx.run("SELECT count(*) FROM challenges WHERE status = 'pending' AND expires_at > %s "
                                 "AND to_accounts LIKE %s", (now, f'%"{account}"%'))[0][0]
                if waiting >= most_waiting:
                    return None
            if tx.run("SELECT count(*) FROM challenges WHERE from_account = %s AND status = 'pending' AND expires_at > %s",
                      (sender["id"], now))[0][0] >= most_open:
                return None
            # (ended challenges are kept a week: a decline's quiet time, the lists' latest answers)
            tx.run("DELETE FROM challenges WHERE expires_at < %s", (now - 7 * 24 * 3600,))
            cid = secrets.token_hex(8)
            tx.run("INSERT INTO challenges (id, from_account, to_accounts, game, seats, rated, clock, correspondence, "
                   "to_lobby, status, created_at, expires_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, 'pending', %s, %s)",
                   (cid, sender["id"], json.dumps(ids), settings["game"], settings["seats"],
                    None if settings.get("rated") is None else int(settings["rated"]), settings.get("clock"),
                    settings.get("correspondence"), int(bool(settings.get("to_lobby"))), now, now + seconds))
            for account in ids:
                self._ring(tx, account, "challenge", {"challenge": cid, "from": sender["name"], "game": settings["game"]},
                           now)
        return cid

    def challenge(self, cid: str) -> dict | None:
        with self.read() as tx:
            rows = tx.run(CHALLENGE_COLUMNS + " WHERE c.id = %s", (cid,))
            return _challenge(tx, rows[0]) if rows else None

    def challenges_of(self, account: str, limit: int = 50) -> list[dict]:
        """The challenges from and to the account, the latest first (a week's: older ones go)."""
        with self.read() as tx:
            rows = tx.run(CHALLENGE_COLUMNS + " WHERE c.from_account = %s OR c.to_accounts LIKE %s "
                          "ORDER BY c.created_at DESC LIMIT %s", (account, f'%"{account}"%', limit))
            return [_challenge(tx, r) for r in rows]

    def accept_challenge(self, cid: str, account: str, stale: float) -> str:
        """``account``, one named, accepts: ``seat`` (every one named has accepted now: the
        caller makes the room, then ``challenge_seated``), ``waiting`` (others named have yet
        to), ``seated`` (its room is made: ``challenge``'s table), ``seating`` (another request
        is making its room now), ``lapsed``, ``closed`` (declined or cancelled), ``unknown`` (no
        such challenge to this account). One transaction, the challenge's row locked: of two
        accepts at once one makes the room (issue 58); a room begun ``stale`` seconds ago and
        never made (its process died) may be begun again."""
        now = time.time()
        with self.write() as tx:
            tx.run("UPDATE challenges SET status = status WHERE id = %s", (cid,))  # (locked till the commit)
            rows = tx.run("SELECT to_accounts, status, accepted, expires_at, answered_at FROM challenges WHERE id = %s",
                          (cid,))
            if not rows or account not in json.loads(rows[0][0]):
                return "unknown"
            to, status, accepted, expires, answered = json.loads(rows[0][0]), rows[0][1], json.loads(rows[0][2]), \
                rows[0][3], rows[0][4]
            if status == "accepted":
                return "seated"
            if status == "seating" and (answered or 0) > now - stale:
                return "seating"
            if status in ("declined", "cancelled"):
                return "closed"
            if status == "pending" and expires < now:
                return "lapsed"
            if account not in accepted:
                accepted.append(account)
            done = set(accepted) >= set(to)
            tx.run("UPDATE challenges SET accepted = %s, status = %s, answered_at = %s WHERE id = %s",
                   (json.dumps(accepted), "seating" if done else "pending", now if done else answered, cid))
        return "seat" if done else "waiting"

    def challenge_seated(self, cid: str, table_id: str) -> bool:
        """The room of a challenge every one named accepted is made: the challenge is answered
        with it, and the challenger's bell rings. False if it was not being seated (then the
        room is nobody's)."""
        now = time.time()
        with self.write() as tx:
            rows = tx.run("UPDATE challenges SET status = 'accepted', table_id = %s, answered_at = %s WHERE id = %s "
                          "AND status = 'seating' RETURNING from_account, to_accounts", (table_id, now, cid))
            if not rows:
                return False
            names = [n for (n,) in tx.run("SELECT name FROM accounts WHERE id IN (%s)" % ", ".join(
                ["%s"] * len(json.loads(rows[0][1]))), json.loads(rows[0][1]))]
            self._ring(tx, rows[0][0], "challenge_accepted", {"challenge": cid, "by": sorted(names)}, now)
        return True

    def challenge_unseated(self, cid: str) -> None:
        """Its room could not be made: the challenge is pending again (until it lapses)."""
        with self.write() as tx:
            tx.run("UPDATE challenges SET status = 'pending' WHERE id = %s AND status = 'seating'", (cid,))

    def decline_challenge(self, cid: str, account: str) -> bool:
        """One named declines: the challenge ends, and its challenger's bell rings. False: no
        such pending challenge to this account."""
        now = time.time()
        with self.write() as tx:
            rows = tx.run("SELECT to_accounts FROM challenges WHERE id = %s AND status = 'pending' AND expires_at > %s",
                          (cid, now))
            if not rows or account not in json.loads(rows[0][0]):
                return False
            return self._answer(tx, cid, "declined", account, now)

    def cancel_challenge(self, cid: str, account: str) -> bool:
        """The challenger takes its pending challenge back; False: none such of this account's."""
        with self.write() as tx:
            return bool(tx.run("UPDATE challenges SET status = 'cancelled', answered_at = %s WHERE id = %s AND "
                               "from_account = %s AND status = 'pending' RETURNING id", (time.time(), cid, account)))

    def _answer(self, tx: Tx, cid: str, status: str, account: str, now: float) -> bool:
        rows = tx.run("UPDATE challenges SET status = %s, answered_by = %s, answered_at = %s WHERE id = %s "
                      "AND status = 'pending' RETURNING from_account", (status, account, now, cid))
        if rows:
            name = tx.run("SELECT name FROM accounts WHERE id = %s", (account,))
            self._ring(tx, rows[0][0], f"challenge_{status}", {"challenge": cid, "by": name[0][0] if name else None},
                       now)
        return bool(rows)

    def _ring(self, tx: Tx, account: str, kind: str, data: dict, at: float) -> str:
        """A bell item for the account (issue 58); it keeps its latest ``BELL_KEPT``. Its id."""
        item = secrets.token_hex(8)
        tx.run("INSERT INTO bell (id, account_id, kind, data, at, read) VALUES (%s, %s, %s, %s, %s, 0)",
               (item, account, kind, json.dumps(data), at))
        tx.run("DELETE FROM bell WHERE account_id = %s AND id NOT IN (SELECT id FROM bell WHERE account_id = %s "
               "ORDER BY at DESC, id LIMIT %s)", (account, account, BELL_KEPT))
        if (rung := _RUNG.get()) is not None:
            rung.append({"id": item, "account": account, "kind": kind, "data": data, "at": at})
        return item

    def ring(self, account: str, kind: str, data: dict, *, one_per_table: bool = False) -> str:
        """A bell item for the account; its id. ``one_per_table``: an unread item of this kind
        at the same table (``data["table"]``) is replaced by this one (a newer turn there).
        Whoever listens (``rung``) is told after the commit."""
        with self.write() as tx:
            if one_per_table:
                self._unring(tx, account, kind, data["table"])
            return self._ring(tx, account, kind, data, time.time())

    def unring(self, account: str, kind: str, table: str) -> bool:
        """The account's unread bell items of ``kind`` at ``table`` go (a turn it has seen, at
        its table): whether there were any. Reads only, when there are none."""
        with self.read() as tx:
            if not self._unread_at(tx, account, kind, table):
                return False
        with self.write() as tx:
            return self._unring(tx, account, kind, table)

    def _unread_at(self, tx: Tx, account: str, kind: str, table: str) -> list[str]:
        rows = tx.run("SELECT id, data FROM bell WHERE account_id = %s AND kind = %s AND read = 0", (account, kind))
        return [i for i, d in rows if json.loads(d).get("table") == table]

    def _unring(self, tx: Tx, account: str, kind: str, table: str) -> bool:
        found = self._unread_at(tx, account, kind, table)
        if found:
            tx.run("DELETE FROM bell WHERE account_id = %s AND id IN (%s)" % ("%s", ", ".join(["%s"] * len(found))),
                   (account, *found))
        return bool(found)

    def bell(self, account: str) -> dict:
        """The account's bell: its items, the latest first, and how many are unread."""
        with self.read() as tx:
            rows = tx.run("SELECT id, kind, data, at, read FROM bell WHERE account_id = %s ORDER BY at DESC, id",
                          (account,))
        items = [{"id": i, "kind": k, "data": json.loads(d), "at": at, "read": bool(r)} for i, k, d, at, r in rows]
        return {"items": items, "unread": sum(not i["read"] for i in items)}

    def bell_read(self, account: str, upto: str) -> bool:
        """The account's bell item ``upto`` and every one before it are read, on every device;
        False: no such item of this account's."""
        with self.write() as tx:
            found = tx.run("SELECT at FROM bell WHERE account_id = %s AND id = %s", (account, upto))
            if not found:
                return False
            tx.run("UPDATE bell SET read = 1 WHERE account_id = %s AND at <= %s", (account, found[0][0]))
        return True

    def seat_link_at(self, table_id: str, account: str) -> str | None:
        """The link of the seat the account holds at the table (still its seat's), or None."""
        with self.read() as tx:
            rows = tx.run("SELECT h.token FROM seat_accounts h JOIN seats s ON s.token = h.token "
                          "WHERE h.table_id = %s AND h.account_id = %s", (table_id, account))
        return rows[0][0] if rows else None

    # --- moderation (issue 58) -----------------------------------------------------------------

    def set_moderator(self, account: str, moderator: bool) -> None:
        """The operator gives (or takes back) the moderator's role (``tarocchi account mod``)."""
        with self.write() as tx:
            if moderator:
                tx.run("INSERT INTO moderators (account_id) VALUES (%s) ON CONFLICT DO NOTHING", (account,))
            else:
                tx.run("DELETE FROM moderators WHERE account_id = %s", (account,))

    def is_moderator(self, account: str) -> bool:
        with self.read() as tx:
            return bool(tx.run("SELECT 1 FROM moderators WHERE account_id = %s", (account,)))

    def sat_at_table(self, account: str, table_id: str) -> bool:
        """Whether the account sits or sat at the table (its ``sit``, or a seat link it holds)."""
        with self.read() as tx:
            return bool(tx.run("SELECT 1 FROM sat_at WHERE account_id = %s AND table_id = %s UNION "
                               "SELECT 1 FROM seat_accounts WHERE account_id = %s AND table_id = %s",
                               (account, table_id, account, table_id)))

    def add_report(self, reporter: str, reported: str, reason: str, text: str, table_id: str | None,
                   deal: int | None, chat: list[dict]) -> str:
        rid = secrets.token_hex(8)
        with self.write() as tx:
            tx.run("INSERT INTO reports (id, reporter, reported, reason, text, table_id, deal, chat, at, status) "
                   "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, 'open')",
                   (rid, reporter, reported, reason, text, table_id, deal, json.dumps(chat), time.time()))
        return rid

    def reports(self, *, status: str | None = "open", about: str | None = None, by: str | None = None,
                limit: int = 200) -> list[dict]:
        """Reports, the oldest first: open ones (``status``), or about / by one account."""
        where, params = [], []
        for column, value in (("r.status", status), ("r.reported", about), ("r.reporter", by)):
            if value is not None:
                where.append(f"{column} = %s")
                params.append(value)
        with self.read() as tx:
            rows = tx.run("SELECT r.id, a.name, b.name, r.reason, r.text, r.table_id, r.deal, r.chat, r.at, r.status "
                          "FROM reports r LEFT JOIN accounts a ON a.id = r.reporter "
                          "LEFT JOIN accounts b ON b.id = r.reported"
                          + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY r.at, r.id LIMIT %s",
                          (*params, limit))
        return [{"id": i, "reporter": a or NEUTRAL_NAME, "reported": b or NEUTRAL_NAME, "reason": reason,
                 "text": text, "table": t, "deal": d, "chat": json.loads(c), "at": at, "status": st}
                for i, a, b, reason, text, t, d, c, at, st in rows]

    def close_report(self, rid: str) -> tuple[str | None] | None:
        """Close an open report: (the reported account's id, None if deleted since), or None for
        no such open report (one statement: of two closings at once, one wins)."""
        with self.write() as tx:
            rows = tx.run("UPDATE reports SET status = 'closed' WHERE id = %s AND status = 'open' RETURNING reported",
                          (rid,))
        return (rows[0][0],) if rows else None

    def log_moderation(self, moderator: str, target: str | None, action: str, why: str, data: dict) -> str:
        """One line of the moderation log: appended, never changed (no method here updates or
        deletes it; a deleted account's lines stay, by its id and the name in ``data``)."""
        lid = secrets.token_hex(8)
        with self.write() as tx:
            tx.run("INSERT INTO mod_log (id, moderator, target, action, why, at, data) "
                   "VALUES (%s, %s, %s, %s, %s, %s, %s)", (lid, moderator, target, action, why, time.time(),
                                                           json.dumps(data)))
        return lid

    def moderation_log(self, target: str | None = None, limit: int = 500) -> list[dict]:
        """The moderation log, the latest first (about ``target`` alone, if given)."""
        with self.read() as tx:
            rows = tx.run("SELECT l.id, m.name, l.moderator, t.name, l.target, l.action, l.why, l.at, l.data "
                          "FROM mod_log l LEFT JOIN accounts m ON m.id = l.moderator "
                          "LEFT JOIN accounts t ON t.id = l.target"
                          + (" WHERE l.target = %s" if target else "") + " ORDER BY l.at DESC, l.id LIMIT %s",
                          (target, limit) if target else (limit,))
        out = []
        for i, mname, mid, tname, tid, action, why, at, data in rows:
            data = json.loads(data)
            out.append({"id": i, "moderator": mname or data.get("moderator_name") or mid,
                        "target": tname or data.get("target_name"), "action": action, "why": why, "at": at,
                        "data": data})
        return out

    def sanction(self, account: str, kind: str, until: float) -> None:
        """A chat or rated ban of the account until ``until`` (0: lifted)."""
        with self.write() as tx:
            tx.run("INSERT INTO sanctions (account_id, kind, until, at) VALUES (%s, %s, %s, %s) "
                   "ON CONFLICT (account_id, kind) DO UPDATE SET until = excluded.until, at = excluded.at",
                   (account, kind, until, time.time()))
        self._chat_bans.pop(account, None)  # (read afresh at the next chat line)

    def sanctioned_until(self, account: str, kind: str) -> float | None:
        """When the account's live ban of ``kind`` (chat, rated) ends, or None."""
        with self.read() as tx:
            rows = tx.run("SELECT until FROM sanctions WHERE account_id = %s AND kind = %s AND until > %s",
                          (account, kind, time.time()))
        return rows[0][0] if rows else None

    def chat_banned_until(self, account: str) -> float | None:
        """``sanctioned_until(account, "chat")`` as the chat asks it, for every line: read from
        the store at most once in ``CHAT_FRESH`` seconds (issue 58)."""
        now = time.monotonic()
        kept = self._chat_bans.get(account)
        if kept is None or now - kept[0] > CHAT_FRESH:
            if len(self._chat_bans) >= CHAT_KEPT:
                self._chat_bans.clear()
            kept = self._chat_bans[account] = (now, self.sanctioned_until(account, "chat"))
        return kept[1] if kept[1] is not None and kept[1] > time.time() else None

    def sanctions(self, account: str) -> dict[str, float]:
        with self.read() as tx:
            rows = tx.run("SELECT kind, until FROM sanctions WHERE account_id = %s AND until > %s",
                          (account, time.time()))
        return dict(rows)

    def sharing_addresses(self, account: str, limit: int = 100) -> list[str]:
        """The names of other accounts that sat at a table from an address this one sat from."""
        with self.read() as tx:
            rows = tx.run("SELECT DISTINCT a.name FROM account_addresses mine JOIN account_addresses o "
                          "ON o.address = mine.address AND o.account_id <> mine.account_id "
                          "JOIN accounts a ON a.id = o.account_id WHERE mine.account_id = %s ORDER BY a.name LIMIT %s",
                          (account, limit))
        return [r[0] for r in rows]

    def chat_of(self, account: str, tables: int = 20, limit: int = 200) -> list[dict]:
        """The account's chat lines at the latest tables it sat at: those said from a seat
        after its ``sit`` there (the latest first)."""
        out: list[dict] = []
        with self.read() as tx:
            sat = [r[0] for r in tx.run("SELECT table_id FROM sat_at WHERE account_id = %s LIMIT %s",
                                        (account, tables))]
            for table_id in sat:
                seat_of: dict[int, str] = {}
                for version, kind, data in tx.run("SELECT version, kind, data FROM events WHERE table_id = %s "
                                                  "AND kind IN ('sit', 'chat') ORDER BY version", (table_id,)):
                    event = json.loads(data)
                    if kind == "sit":
                        seat_of[event.get("seat")] = event.get("account")
                    elif seat_of.get(event.get("seat")) == account:
                        out.append({"table": table_id, "version": version, "text": event.get("text"),
                                    "hidden": bool(event.get("hidden"))})
        return out[-limit:][::-1]

    def void_match(self, table_id: str, match: int, account: str) -> bool:
        """A rated match ``account`` played made unrated (a moderator's word): the ratings are
        then rebuilt (``rebuild_ratings``). False: no such rated match of that account's."""
        with self.write() as tx:
            if not tx.run("SELECT 1 FROM match_players WHERE table_id = %s AND match = %s AND account_id = %s",
                          (table_id, match, account)):
                return False
            return bool(tx.run("UPDATE matches SET rated = 0 WHERE table_id = %s AND match = %s AND rated = 1 "
                               "RETURNING table_id", (table_id, match)))

    def force_rename(self, account: str, name: str) -> bool:
        """The account's name is ``name`` now (a moderator's forced rename); False: taken, or
        looks like one taken."""
        try:
            with self.write() as tx:
                if tx.run("SELECT 1 FROM accounts WHERE name_key = %s AND id <> %s", (name_key(name), account)):
                    return False
                tx.run("DELETE FROM name_lookalikes WHERE account_id = %s", (account,))
                for lookalike in sorted(lookalike_keys(name)):
                    if not tx.run("INSERT INTO name_lookalikes (lookalike, account_id) VALUES (%s, %s) "
                                  "ON CONFLICT DO NOTHING RETURNING account_id", (lookalike, account)):
                        raise _NameLooksLike
                tx.run("UPDATE accounts SET name = %s, name_key = %s WHERE id = %s", (name, name_key(name), account))
        except _NameLooksLike:
            return False
        return True

    # --- matches and ratings ----------------------------------------------------------------

    def record_ended(self, tx: Tx, ended: Ended) -> None:
        """Inside the commit of the event that ended the match: its record, its players with
        their accounts (each the account that sat at its seat, ``Player.account``), and (a
        ``rater`` set, every seat an account's) their new ratings.

        Issue 56: a seat's name is its account's; an account deleted before the end leaves
        its seat as a leaver (absent, no account, no name) and the others are rated, its seat
        as a newcomer's (``GONE``), as ``tarocchi ratings rebuild`` rates it."""
        self.lock_matches(tx)
        if tx.run("SELECT 1 FROM matches WHERE table_id = %s AND match = %s", (ended.table_id, ended.match)):
            return  # recorded (and rated) already: never twice
        wanted = sorted({p.account for p in ended.players if p.account})
        names = dict(tx.run("SELECT id, name FROM accounts WHERE id IN (%s)" % ", ".join(["%s"] * len(wanted)),
                            wanted)) if wanted else {}
        departed = set()
        for p in ended.players:
            if p.account and p.account not in names:  # deleted since it sat there
                p.account, p.name, p.absent = None, None, True
                departed.add(p.seat)
            elif p.account:
                p.name = names[p.account]
        places(ended.players)
        before: dict[str, tuple[float, float]] = {}
        after = None
        if ended.rater is not None and all(p.account or p.seat in departed for p in ended.players) and \
                len(departed) < len(ended.players) - 1:
            present = [p.account for p in ended.players if p.account]
            for account, mu, sigma in tx.run(
                    "SELECT account_id, mu, sigma FROM ratings WHERE key = %s AND account_id IN (%s)"
                    % ("%s", ", ".join(["%s"] * len(present))), (ended.key, *present)):
                before[account] = (mu, sigma)
            rated = [dataclasses.replace(p, account=p.account or f"{GONE}{p.seat}") for p in ended.players]
            after = ended.rater(rated, before)
            if after is not None:
                after = {account: r for account, r in after.items() if not account.startswith(GONE)}
        seq = tx.run("SELECT COALESCE(MAX(seq), 0) + 1 FROM matches")[0][0]
        tx.run("INSERT INTO matches (seq, table_id, match, game, seats, ended_at, rated) "
               "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
               (seq, ended.table_id, ended.match, ended.game, ended.seats, ended.at, int(after is not None)))
        for p in ended.players:
            was = before.get(p.account) if p.account else None
            now = after.get(p.account) if after and p.account else None
            tx.run("INSERT INTO match_players (table_id, match, seat, account_id, name, team, total, absent, place, "
                   "before, after) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                   (ended.table_id, ended.match, p.seat, p.account, p.name, p.team, p.total, int(p.absent), p.place,
                    json.dumps(was) if was else None, json.dumps(now) if now else None))
        _put_deals(tx, ended.table_id, ended.match, ended.deals)
        if after is not None:
            self._put_ratings(tx, ended.key, after, ended.ordinal or (lambda mu, sigma: mu - 3 * sigma), ended.at,
                              count=True)
            for account, rating in after.items():  # (issue 58: the bell says each one's change)
                self._ring(tx, account, "rated", {"table": ended.table_id, "match": ended.match, "key": ended.key,
                                                  "before": before.get(account), "after": list(rating)}, ended.at)
        if ended.rated_room:  # (issue 56: who leaves rated matches again and again is paused from them)
            for p in ended.players:
                if p.absent and p.account:
                    tx.run("INSERT INTO leaves (account_id, table_id, match, at) VALUES (%s, %s, %s, %s) "
                           "ON CONFLICT DO NOTHING", (p.account, ended.table_id, ended.match, ended.at))

    def leaves_since(self, account: str, since: float) -> list[float]:
        """When the account left rated matches before their end (the computer played its seat
        most of a deal or more), since ``since``, the earliest first."""
        with self.read() as tx:
            rows = tx.run("SELECT at FROM leaves WHERE account_id = %s AND at >= %s ORDER BY at", (account, since))
        return [r[0] for r in rows]

    def _put_ratings(self, tx: Tx, key: str, ratings: dict[str, tuple[float, float]], ordinal, at: float,
                     count: bool) -> None:
        for account, (mu, sigma) in ratings.items():
            tx.run("INSERT INTO ratings (account_id, key, mu, sigma, ordinal, matches, updated_at) "
                   "VALUES (%s, %s, %s, %s, %s, 1, %s) ON CONFLICT (account_id, key) DO UPDATE SET "
                   "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
                   "matches = ratings.matches + 1, updated_at = excluded.updated_at",
                   (account, key, mu, sigma, ordinal(mu, sigma), at))

    def rated_matches(self) -> list[tuple[str, list[Player]]]:
        """Every rated match in the order it was rated: its rating key and players (for a
        rebuild of the ratings from the matches alone). A deleted account's seat has its
        anonymous identity (``GONE``) for account; an account deleted before there were
        those (schema 5), None."""
        with self.read() as tx:
            return _rated_matches(tx)

    def rebuild_ratings(self, recompute, ordinal) -> None:
        """Every rating anew from the rated matches, read and written in one transaction that
        no match's end can come between (``lock_matches``): a live server's rebuild (issue 58,
        a match voided). ``recompute(matches)`` as ratings.py's."""
        with self.write() as tx:
            self.lock_matches(tx)
            ratings = recompute(_rated_matches(tx))[0]
            self._replace_ratings(tx, ratings, ordinal)

    def replace_ratings(self, ratings: dict[tuple[str, str], tuple[float, float, int]], ordinal) -> None:
        """Every rating anew (a rebuild): (account, key) -> (mu, sigma, matches)."""
        with self.write() as tx:
            self.lock_matches(tx)
            self._replace_ratings(tx, ratings, ordinal)

    @staticmethod
    def _replace_ratings(tx: Tx, ratings: dict[tuple[str, str], tuple[float, float, int]], ordinal) -> None:
        tx.run("DELETE FROM ratings")
        now = time.time()
        for (account, key), (mu, sigma, n) in ratings.items():
            tx.run("INSERT INTO ratings (account_id, key, mu, sigma, ordinal, matches, updated_at) "
                   "VALUES (%s, %s, %s, %s, %s, %s, %s)", (account, key, mu, sigma, ordinal(mu, sigma), n, now))

    def ratings(self, account: str) -> dict[str, dict]:
        """The account's ratings by key: mu, sigma, ordinal, matches."""
        with self.read() as tx:
            rows = tx.run("SELECT key, mu, sigma, ordinal, matches FROM ratings WHERE account_id = %s", (account,))
        return {k: {"mu": mu, "sigma": sigma, "ordinal": o, "matches": n} for k, mu, sigma, o, n in rows}

    def leaderboard(self, key: str, limit: int, max_sigma: float | None = None) -> list[dict]:
        """The top accounts of one rating, by its conservative value (``ordinal``); with
        ``max_sigma``, only the ratings no longer provisional."""
        where, params = "r.key = %s", [key]
        if max_sigma is not None:
            where += " AND r.sigma <= %s"
            params.append(max_sigma)
        with self.read() as tx:
            rows = tx.run(f"SELECT a.name, r.mu, r.sigma, r.ordinal, r.matches FROM ratings r JOIN accounts a "
                          f"ON a.id = r.account_id WHERE {where} ORDER BY r.ordinal DESC, a.name_key LIMIT %s",
                          (*params, limit))
        return [{"name": n, "mu": mu, "sigma": s, "ordinal": o, "matches": m} for n, mu, s, o, m in rows]

    def matches_of(self, account: str, limit: int = 200) -> list[dict]:
        """The account's finished matches, the latest first: game, seats, when, rated, each
        player (name, total, place; ``you``), and the account's rating before and after."""
        with self.read() as tx:
            mine = tx.run("SELECT m.table_id, m.match, m.game, m.seats, m.ended_at, m.rated, p.seat, p.before, p.after "
                          "FROM match_players p JOIN matches m ON m.table_id = p.table_id AND m.match = p.match "
                          "WHERE p.account_id = %s ORDER BY m.seq DESC LIMIT %s", (account, limit))
            out = []
            for table_id, match, game, seats, at, rated, seat, before, after in mine:
                out.append({"table": table_id, "match": match, "game": game, "seats": seats, "ended": at,
                            "rated": bool(rated), "seat": seat,
                            "before": json.loads(before) if before else None,
                            "after": json.loads(after) if after else None,
                            "players": _match_players(tx, table_id, match, seat)})
        return out

    # --- the archive of matches and its figures (issue 58, "Your games") -----------------------

    def games_public(self, account: str) -> bool:
        """Whether others may see the account's archive and figures (its setting)."""
        with self.read() as tx:
            rows = tx.run("SELECT games_public FROM accounts WHERE id = %s", (account,))
        return bool(rows and rows[0][0])

    def set_games_public(self, account: str, public: bool) -> None:
        with self.write() as tx:
            tx.run("UPDATE accounts SET games_public = %s WHERE id = %s", (int(public), account))

    def games_of(self, account: str, *, game: str | None = None, seats: int | None = None,
                 rated: bool | None = None, won: bool | None = None, opponent: str | None = None,
                 since: float | None = None, until: float | None = None, before: int | None = None,
                 limit: int = 50) -> tuple[list[dict], int | None]:
        """The account's finished matches that pass the filters, the latest first, ``limit`` at
        most: each one's game, seats, when, rated, the account's seat, total and place, the
        players (``_match_players``), its deals and its rating before and after; and the cursor
        of the next page (``before``: the ``seq`` of its last match), None at the end.
        ``won``: placed first (a shared first too), or not; ``opponent``: an account that sat in
        the match too (another than ``account``: the caller's to see); ``since`` / ``until``: when
        it ended, ``until`` excluded."""
        where, params = ["p.account_id = %s"], [account]
        for column, value in (("m.game = %s", game), ("m.seats = %s", seats), ("m.ended_at >= %s", since),
                              ("m.ended_at < %s", until), ("m.seq < %s", before)):
            if value is not None:
                where.append(column)
                params.append(value)
        if rated is not None:
            where.append("m.rated = %s")
            params.append(int(rated))
        if won is not None:
            where.append("p.place = 1" if won else "p.place > 1")
        if opponent is not None:
            # (the opponent's matches read once, by its index: not a look-up for each of the asker's)
            where.append("(p.table_id, p.match) IN (SELECT o.table_id, o.match FROM match_players o "
                         "WHERE o.account_id = %s)")
            params.append(opponent)
        with self.read() as tx:
            rows = tx.run("SELECT m.seq, m.table_id, m.match, m.game, m.seats, m.ended_at, m.rated, p.seat, p.before, "
                          "p.after, (SELECT count(DISTINCT d.deal) FROM deal_seats d WHERE d.table_id = m.table_id "
                          "AND d.match = m.match) FROM match_players p JOIN matches m ON m.table_id = p.table_id "
                          f"AND m.match = p.match WHERE {' AND '.join(where)} ORDER BY m.seq DESC LIMIT %s",
                          (*params, limit + 1))
            out = []
            for seq, table_id, match, game_, seats_, at, rated_, seat, was, now, deals in rows[:limit]:
                out.append({"seq": seq, "table": table_id, "match": match, "game": game_, "seats": seats_, "ended": at,
                            "rated": bool(rated_), "seat": seat, "deals": deals,
                            "before": json.loads(was) if was else None, "after": json.loads(now) if now else None,
                            "players": _match_players(tx, table_id, match, seat)})
        return out, (out[-1]["seq"] if len(rows) > limit else None)

    def figures_of(self, account: str) -> dict:
        """What the account's figures are made of, read in one transaction: by game, its deals
        (``deals``: how many, thrown in, points, declared points and how many declarations),
        its contracts by part and kind (``contracts``: taken, made), its announcements
        (``announced``: said, made), and every match it played, the earliest first
        (``matches``: table, match, game, seats, ended, rated, total, place, rating after)."""
        with self.read() as tx:
            # (one pass over the account's deal rows, grouped finely, summed here: the figures of
            # an account of 2,000 matches in one read, docs/benchmarks.md)
            groups = tx.run("SELECT m.game, d.role, d.contract, d.announce, count(*), COALESCE(sum(d.thrown), 0), "
                            "COALESCE(sum(d.points), 0), COALESCE(sum(d.declared), 0), count(d.declared), "
                            "COALESCE(sum(d.made), 0), COALESCE(sum(d.announce_made), 0) FROM deal_seats d "
                            "JOIN match_players p ON p.table_id = d.table_id AND p.match = d.match AND p.seat = d.seat "
                            "JOIN matches m ON m.table_id = d.table_id AND m.match = d.match WHERE p.account_id = %s "
                            "GROUP BY m.game, d.role, d.contract, d.announce", (account,))
            matches = tx.run("SELECT m.table_id, m.match, m.game, m.seats, m.ended_at, m.rated, p.total, p.place, p.after "
                             "FROM match_players p JOIN matches m ON m.table_id = p.table_id AND m.match = p.match "
                             "WHERE p.account_id = %s ORDER BY m.seq", (account,))
        deals: dict[str, dict] = {}
        contracts: dict[tuple, dict] = {}
        announced: dict[tuple, dict] = {}
        for game, role, contract, announce, n, thrown, points, declared, declarations, made, said_made in groups:
            tally = deals.setdefault(game, {"deals": 0, "thrown": 0, "points": 0, "declared": 0, "declarations": 0})
            for key, value in (("deals", n), ("thrown", thrown), ("points", points), ("declared", declared),
                               ("declarations", declarations)):
                tally[key] += value
            if role in ("declarer", "partner"):
                c = contracts.setdefault((game, role, contract), {"game": game, "role": role, "contract": contract,
                                                                   "taken": 0, "made": 0})
                c["taken"], c["made"] = c["taken"] + n, c["made"] + made
            if announce is not None:
                a = announced.setdefault((game, announce), {"game": game, "announce": announce, "said": 0, "made": 0})
                a["said"], a["made"] = a["said"] + n, a["made"] + said_made
        return {
            "deals": deals, "contracts": list(contracts.values()), "announced": list(announced.values()),
            "matches": [{"table": t, "match": mt, "game": g, "seats": n, "ended": at, "rated": bool(r), "total": total,
                         "place": place, "after": json.loads(after) if after else None}
                        for t, mt, g, n, at, r, total, place, after in matches],
        }

    def matches_without_deals(self) -> list[tuple[str, int, str]]:
        """The recorded matches with no ``deal_seats`` rows (recorded before version 7): (table,
        match, game), in the order they were recorded."""
        with self.read() as tx:
            return [tuple(r) for r in tx.run(
                "SELECT m.table_id, m.match, m.game FROM matches m WHERE NOT EXISTS (SELECT 1 FROM deal_seats d "
                "WHERE d.table_id = m.table_id AND d.match = m.match) ORDER BY m.seq")]

    def put_deals(self, table_id: str, match: int, deals: list[list[dict]]) -> None:
        """A recorded match's deals (``Ended.deals``), written afresh (a backfill)."""
        with self.write() as tx:
            tx.run("DELETE FROM deal_seats WHERE table_id = %s AND match = %s", (table_id, match))
            _put_deals(tx, table_id, match, deals)

    def match_result(self, table_id: str, match: int) -> dict | None:
        """A finished match as recorded (issue 56: its result screen): game, seats, rated, and
        each player's name, total, place and rating before and after; None if not recorded
        (yet). What a profile shows of it, no more."""
        with self.read() as tx:
            found = tx.run("SELECT game, seats, rated FROM matches WHERE table_id = %s AND match = %s", (table_id, match))
            if not found:
                return None
            game, seats, rated = found[0]
            players = _match_players(tx, table_id, match, None, ratings=True)
        return {"game": game, "seats": seats, "rated": bool(rated), "players": players}

    def rated_match_names(self, table_id: str, match: int) -> list[str] | None:
        """The names of a rated match's players as recorded, by seat (a deleted account's:
        the neutral name); None for no such rated match. Its result is public, and so are
        its deals (issue 55: a profile's link opens them, and nothing else of the table)."""
        with self.read() as tx:
            if not tx.run("SELECT 1 FROM matches WHERE table_id = %s AND match = %s AND rated = 1", (table_id, match)):
                return None
            rows = tx.run("SELECT name FROM match_players WHERE table_id = %s AND match = %s ORDER BY seat",
                          (table_id, match))
        return [n or NEUTRAL_NAME for (n,) in rows]

    def watch_tokens(self, table_ids: list[str]) -> dict[str, str]:
        """Each table's watch token (its ``seats`` row at seat 255, core/tables.py WATCH_SEAT),
        by table: the one link of a table that opens no seat (a profile links its matches'
        replays with it). A table without one (made before watch links, never opened since) is
        left out."""
        if not table_ids:
            return {}
        with self.read() as tx:
            rows = tx.run("SELECT table_id, token FROM seats WHERE seat = 255 AND table_id IN (%s)"
                          % ", ".join(["%s"] * len(table_ids)), tuple(table_ids))
        return {table_id: token for table_id, token in rows}

    def export(self, account: str) -> dict:
        """Everything stored about the account (its download)."""
        found = self.account(account)
        if found is None:
            return {}
        return {"account": {"name": found["name"], "created": found["created"],
                            "password": found["password"] is not None},
                "sessions": self.sessions(account), "passkeys": self.passkeys(account),
                "seats": self.held_seats(account, 10_000), "ratings": self.ratings(account),
                "push": [s["endpoint"] for s in self.subscriptions(account)],
                "lessons": self.lessons_done(account),
                "following": [f["name"] for f in self.following(account)], "blocked": self.blocked_by(account),
                "bell": self.bell(account)["items"],
                "matches": self.matches_of(account, 100_000), "games_public": self.games_public(account)}


@dataclass
class Forgotten:
    """A deleted account's name, and the tables it had a seat at (``People.delete_account``)."""

    name: str
    tables: list[str]
    account: str = ""  # its id, as the tables' ``sit`` events name it


def neutral(data: dict, key: str) -> bool:
    """Put the neutral name for every name in an event's (or a listing's) ``data`` that is
    ``key`` case folded (``name``, ``names``); whether it changed."""
    changed = False
    if isinstance(data.get("name"), str) and name_key(data["name"]) == key:
        data["name"], changed = NEUTRAL_NAME, True
    names = data.get("names")
    if isinstance(names, list):
        for i, n in enumerate(names):
            if isinstance(n, str) and name_key(n) == key:
                names[i], changed = NEUTRAL_NAME, True
    return changed


def forget_sitter(data: dict, account: str) -> bool:
    """A ``sit`` event's (or a table's sitter's) account, if it is ``account``, made a deleted
    account's (``GONE``): whether it changed."""
    if account and data.get("account") == account:
        data["account"], data["name"] = GONE, NEUTRAL_NAME
        return True
    return False


def forget_name(tx: Tx, name: str, tables: list[str], account: str = "") -> None:
    """The name, wherever the store keeps it for ``tables`` (issue 55): their events (a seat's
    ``name``, a chat line's, ``created``, a ``sit``), their listings, their match records. A
    seat named so (case folded) at those tables is the deleted account's (its own name, given
    when it held the seat), and another who took the same name there loses nothing by it. A
    ``sit`` of ``account`` keeps no id of it either: its seat is a deleted account's (``GONE``,
    a leaver when its match ends, issue 56)."""
    key = name_key(name)
    encode = lambda data: json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # noqa: E731
    for table_id in tables:
        for version, data in tx.run("SELECT version, data FROM events WHERE table_id = %s "
                                    "AND kind IN ('created', 'name', 'chat', 'sit')", (table_id,)):
            event = json.loads(data)
            if isinstance(event, dict) and (neutral(event, key) | forget_sitter(event, account)):
                tx.run("UPDATE events SET data = %s WHERE table_id = %s AND version = %s",
                       (encode(event), table_id, version))
        for (data,) in tx.run("SELECT data FROM listings WHERE table_id = %s", (table_id,)):
            listing = json.loads(data)
            if isinstance(listing, dict) and neutral(listing, key):
                tx.run("UPDATE listings SET data = %s WHERE table_id = %s", (encode(listing), table_id))
        for match, seat, was in tx.run("SELECT match, seat, name FROM match_players WHERE table_id = %s "
                                       "AND name IS NOT NULL", (table_id,)):
            if name_key(was) == key:
                tx.run("UPDATE match_players SET name = NULL WHERE table_id = %s AND match = %s AND seat = %s",
                       (table_id, match, seat))


def _put_deals(tx: Tx, table_id: str, match: int, deals: list[list[dict]]) -> None:
    """A match's deals (``Ended.deals``) into ``deal_seats``: deal k (from 1), each seat's row."""
    flag = lambda b: None if b is None else int(b)  # noqa: E731
    for k, seats in enumerate(deals, 1):
        for seat, f in enumerate(seats):
            tx.run("INSERT INTO deal_seats (table_id, match, deal, seat, points, thrown, contract, role, made, announce, "
                   "announce_made, declared) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                   (table_id, match, k, seat, f["points"], int(f["thrown"]), f["contract"], f["role"], flag(f["made"]),
                    f["announce"], flag(f["announce_made"]), f["declared"]))


def _rated_matches(tx: Tx) -> list[tuple[str, list[Player]]]:
    """``People.rated_matches``, read in ``tx``."""
    matches = tx.run("SELECT table_id, match, game, seats FROM matches WHERE rated = 1 ORDER BY seq")
    players = tx.run("SELECT p.table_id, p.match, p.seat, COALESCE(p.account_id, p.gone), p.name, p.team, "
                     "p.total, p.absent, "
                     "p.place FROM match_players p JOIN matches m ON m.table_id = p.table_id "
                     "AND m.match = p.match WHERE m.rated = 1 ORDER BY m.seq, p.seat")
    by_match: dict[tuple[str, int], list[Player]] = {}
    for t, m, seat, account, name, team, total, absent, place in players:
        by_match.setdefault((t, m), []).append(
            Player(seat, name or NEUTRAL_NAME, team, total, bool(absent), account, place))
    return [(rating_key(game, seats), by_match.get((t, m), [])) for t, m, game, seats in matches]


def _match_players(tx: Tx, table_id: str, match: int, mine: int | None, ratings: bool = False) -> list[dict]:
    """A recorded match's players by seat: name (a deleted account's neutral), total, place (as
    sport counts), whether an account; ``you`` (``mine``: the asker's seat); with ``ratings``,
    each one's rating ``[mu, sigma]`` before and after (a rated match's)."""
    rows = tx.run("SELECT seat, name, total, place, account_id IS NOT NULL, team, before, after FROM match_players "
                  "WHERE table_id = %s AND match = %s ORDER BY seat", (table_id, match))
    shown = sport_places([(r[5], r[3]) for r in rows])
    out = []
    for (s, n, t, _, a, _, before, after), place in zip(rows, shown):
        player = {"seat": s, "name": n or NEUTRAL_NAME, "total": t, "place": place, "account": bool(a)}
        if mine is not None:
            player["you"] = s == mine
        if ratings:
            player["before"], player["after"] = (json.loads(before) if before else None,
                                                 json.loads(after) if after else None)
        out.append(player)
    return out


def _challenge(tx: Tx, row: tuple) -> dict:
    (cid, sender, sender_name, to, game, seats, rated, clock, correspondence, to_lobby, status, accepted, created,
     expires, table_id) = row
    to, accepted = json.loads(to), json.loads(accepted)
    names = dict(tx.run("SELECT id, name FROM accounts WHERE id IN (%s)" % ", ".join(["%s"] * len(to)), to)) if to else {}
    if status == "pending" and expires < time.time():
        status = "lapsed"
    return {"id": cid, "from": {"id": sender, "name": sender_name},
            "to": [{"id": a, "name": names.get(a, NEUTRAL_NAME), "accepted": a in accepted} for a in to],
            "game": game, "seats": seats, "rated": None if rated is None else bool(rated), "clock": clock,
            "correspondence": correspondence, "open": bool(to_lobby), "status": status, "created": created,
            "expires": expires, "table": table_id}


def _account(rows: list[tuple]) -> dict | None:
    if not rows:
        return None
    account, name, password, created = rows[0]
    return {"id": account, "name": name, "password": password, "created": created}


def _table_accounts(tx: Tx, table_id: str) -> dict[int, str]:  # (the links held: "Your tables", not ratings)
    rows = tx.run("SELECT s.seat, h.account_id FROM seats s JOIN seat_accounts h ON h.token = s.token "
                  "WHERE s.table_id = %s AND s.seat < 255", (table_id,))
    return {seat: account for seat, account in rows}

