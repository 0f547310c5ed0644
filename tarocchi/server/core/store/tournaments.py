"""Tournaments (issue 59, server/tournaments.py): each one, its players and its tables. One SQL
text for both backends, as ``people.py``. What a tournament is and how it moves is the
feature's; this keeps it, so that any process of a site, or one started after a crash, carries
it on: its tables are rooms like any other (their streams are the truth of every match), and a
table's result is written here once its match is recorded (``ended``: the ``matches`` row that
the match's own commit wrote)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable

from .people import Tx

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id text PRIMARY KEY,
    maker text REFERENCES accounts(id) ON DELETE SET NULL,
    game text NOT NULL,
    seats integer NOT NULL,
    kind text NOT NULL,
    status text NOT NULL,
    starts_at double precision NOT NULL,
    ends_at double precision,
    rounds integer,
    round integer NOT NULL DEFAULT 0,
    round_at double precision,
    entries integer NOT NULL DEFAULT 0,
    rated integer NOT NULL,
    public integer NOT NULL,
    settings text NOT NULL,
    seed text NOT NULL,
    created_at double precision NOT NULL,
    finished_at double precision
);
CREATE INDEX IF NOT EXISTS tournaments_by_status ON tournaments (status, starts_at);
CREATE INDEX IF NOT EXISTS tournaments_by_maker ON tournaments (maker, created_at);
CREATE TABLE IF NOT EXISTS tournament_players (
    tournament_id text NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    number integer NOT NULL,
    joined_at double precision NOT NULL,
    present integer NOT NULL DEFAULT 1,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE TABLE IF NOT EXISTS tournament_tables (
    tournament_id text NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round integer NOT NULL,
    number integer NOT NULL,
    table_id text NOT NULL UNIQUE,
    players text NOT NULL,
    result text,
    started_at double precision NOT NULL,
    ended_at double precision,
    PRIMARY KEY (tournament_id, round, number)
);
CREATE INDEX IF NOT EXISTS tournament_tables_open ON tournament_tables (ended_at);
"""

COLUMNS = ("id, maker, game, seats, kind, status, starts_at, ends_at, rounds, round, round_at, entries, rated, "
           "public, settings, seed, created_at, finished_at")


def _tournament(row: tuple) -> dict:
    t = dict(zip([c.strip() for c in COLUMNS.split(",")], row))
    t["rated"], t["public"] = bool(t["rated"]), bool(t["public"])
    t["settings"] = json.loads(t["settings"])
    return t


class Tournaments:
    def __init__(self, write: Callable[[], contextlib.AbstractContextManager[Tx]],
                 read: Callable[[], contextlib.AbstractContextManager[Tx]]):
        self.write, self.read = write, read

    def create(self, t: dict) -> None:
        """A new tournament (``t``: every column but the counters)."""
        with self.write() as tx:
            tx.run(f"INSERT INTO tournaments ({COLUMNS}) VALUES ({', '.join(['%s'] * 18)})",
                   (t["id"], t["maker"], t["game"], t["seats"], t["kind"], "upcoming", t["starts_at"], t["ends_at"],
                    t["rounds"], 0, None, 0, int(t["rated"]), int(t["public"]), json.dumps(t["settings"]), t["seed"],
                    time.time(), None))

    def get(self, tid: str) -> dict | None:
        with self.read() as tx:
            rows = tx.run(f"SELECT {COLUMNS} FROM tournaments WHERE id = %s", (tid,))
        return _tournament(rows[0]) if rows else None

    def listed(self, status: str, limit: int, public_only: bool = True) -> list[dict]:
        """Tournaments of a status: upcoming the soonest first, the others the latest first."""
        order = "starts_at" if status == "upcoming" else "starts_at DESC"
        with self.read() as tx:
            rows = tx.run(f"SELECT {COLUMNS} FROM tournaments WHERE status = %s"
                          + (" AND public = 1" if public_only else "") + f" ORDER BY {order}, id LIMIT %s",
                          (status, limit))
        return [_tournament(r) for r in rows]

    def made_since(self, maker: str, since: float) -> int:
        with self.read() as tx:
            return tx.run("SELECT count(*) FROM tournaments WHERE maker = %s AND created_at >= %s", (maker, since))[0][0]

    def set_status(self, tid: str, was: str, now: str, **more) -> bool:
        """From ``was`` to ``now`` (and ``more`` columns), unless another process did it first."""
        sets = ", ".join(f"{k} = %s" for k in more)
        with self.write() as tx:
            return bool(tx.run(f"UPDATE tournaments SET status = %s{', ' + sets if sets else ''} "
                               "WHERE id = %s AND status = %s RETURNING id", (now, *more.values(), tid, was)))

    def due(self, now: float) -> list[str]:
        """The upcoming tournaments whose start has come, and the running ones."""
        with self.read() as tx:
            rows = tx.run("SELECT id FROM tournaments WHERE (status = 'upcoming' AND starts_at <= %s) "
                          "OR status = 'running' ORDER BY starts_at, id", (now,))
        return [r[0] for r in rows]

    # --- players ----------------------------------------------------------------------------

    def join(self, tid: str, account: str, most: int) -> int | str:
        """The account enters (or comes back): its entry number; or why not (``full``, ``closed``)."""
        with self.write() as tx:
            # (the tournament's row locked first: joins at once, one account's twice or two accounts',
            # are taken one after the other: one entry an account, two numbers for two)
            if not tx.run("UPDATE tournaments SET entries = entries WHERE id = %s RETURNING id", (tid,)):
                return "full"
            found = tx.run("SELECT number FROM tournament_players WHERE tournament_id = %s AND account_id = %s",
                           (tid, account))
            if found:
                tx.run("UPDATE tournament_players SET present = 1 WHERE tournament_id = %s AND account_id = %s",
                       (tid, account))
                return found[0][0]
            taken = tx.run("UPDATE tournaments SET entries = entries + 1 WHERE id = %s AND entries < %s "
                           "RETURNING entries", (tid, most))
            if not taken:
                return "full"
            tx.run("INSERT INTO tournament_players (tournament_id, account_id, number, joined_at, present) "
                   "VALUES (%s, %s, %s, %s, 1)", (tid, account, taken[0][0], time.time()))
            return taken[0][0]

    def leave(self, tid: str, account: str, before_start: bool) -> bool:
        """The account withdraws: before the start its entry goes; after, it is seated no more
        (until it joins again). False: it had not entered."""
        with self.write() as tx:
            if before_start:
                return bool(tx.run("DELETE FROM tournament_players WHERE tournament_id = %s AND account_id = %s "
                                   "RETURNING number", (tid, account)))
            return bool(tx.run("UPDATE tournament_players SET present = 0 WHERE tournament_id = %s AND "
                               "account_id = %s RETURNING number", (tid, account)))

    def players(self, tid: str) -> list[dict]:
        """Its players in entry order: number, account, name, present. (A deleted account's
        entry went with it; its number stays in the results.)"""
        with self.read() as tx:
            rows = tx.run("SELECT p.number, p.account_id, a.name, p.present, p.joined_at FROM tournament_players p "
                          "JOIN accounts a ON a.id = p.account_id WHERE p.tournament_id = %s ORDER BY p.number", (tid,))
        return [{"number": n, "account": a, "name": name, "present": bool(present), "joined_at": at}
                for n, a, name, present, at in rows]

    # --- tables -------------------------------------------------------------------------------

    def claim_round(self, tid: str, was: int, now: int, at: float, claimed_at: float | None = None) -> bool:
        """This process forms round ``now`` (an arena's seating): the tournament goes from round
        ``was`` to ``now`` unless another process did it first. A round claimed and left
        without tables (its process killed meanwhile) is claimed again with ``was == now`` and the
        claim's time seen (``claimed_at``): one process wins that too."""
        with self.write() as tx:
            if was == now:
                return bool(tx.run("UPDATE tournaments SET round_at = %s WHERE id = %s AND round = %s AND round_at = %s "
                                   "RETURNING id", (at, tid, was, claimed_at)))
            return bool(tx.run("UPDATE tournaments SET round = %s, round_at = %s WHERE id = %s AND round = %s "
                               "RETURNING id", (now, at, tid, was)))

    def put_tables(self, tid: str, round_: int, tables: list[tuple[int, str, list]]) -> None:
        """A round's tables (number, table id, player number by seat: None a computer)."""
        with self.write() as tx:
            now = time.time()
            for number, table_id, players in tables:
                tx.run("INSERT INTO tournament_tables (tournament_id, round, number, table_id, players, started_at) "
                       "VALUES (%s, %s, %s, %s, %s, %s)", (tid, round_, number, table_id, json.dumps(players), now))

    def tables(self, tid: str) -> list[dict]:
        with self.read() as tx:
            rows = tx.run("SELECT round, number, table_id, players, result, started_at, ended_at FROM tournament_tables "
                          "WHERE tournament_id = %s ORDER BY round, number", (tid,))
        return [{"round": r, "number": n, "table": t, "players": json.loads(p), "result": json.loads(res) if res else None,
                 "started_at": s, "ended_at": e} for r, n, t, p, res, s, e in rows]

    def ended(self) -> list[tuple[str, str]]:
        """(tournament, table) of the tournament tables whose match is recorded (``matches``:
        written with the event that ended it) and whose result is not written yet."""
        with self.read() as tx:
            return [tuple(r) for r in tx.run(
                "SELECT t.tournament_id, t.table_id FROM tournament_tables t JOIN matches m ON m.table_id = t.table_id "
                "AND m.match = 1 WHERE t.ended_at IS NULL ORDER BY t.tournament_id, t.round, t.number")]

    def set_result(self, table_id: str, result: list[dict], at: float) -> bool:
        with self.write() as tx:
            return bool(tx.run("UPDATE tournament_tables SET result = %s, ended_at = %s WHERE table_id = %s "
                               "AND ended_at IS NULL RETURNING table_id", (json.dumps(result), at, table_id)))

    def of_table(self, table_id: str) -> tuple[str, int, int] | None:
        """(tournament, round, table number) of a tournament's table, or None."""
        with self.read() as tx:
            rows = tx.run("SELECT tournament_id, round, number FROM tournament_tables WHERE table_id = %s", (table_id,))
        return tuple(rows[0]) if rows else None
