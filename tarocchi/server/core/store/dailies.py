"""The daily deal's tries and their scores (issue 59, server/daily.py). One SQL text for both
backends, as ``people.py``.

A *try* is one account's ranked table of one game's daily deal on one day (UTC): at most one
an account a day and game (the unique index; a second asks for the same row back). Its
*scores* are the person's seat's result of each of the day's deals, written as each deal ends.
Who is ranked against whom is worked out from these rows alone (``core/matchpoints.py``). An
account deleted takes its tries and scores with it (its place in a day's standings goes: issue
55, a deleted account leaves nothing). Signed-out tables are not written here: they are unranked.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from .people import Tx

SCHEMA = """
CREATE TABLE IF NOT EXISTS daily_tries (
    id text PRIMARY KEY,
    day text NOT NULL,
    game text NOT NULL,
    account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    table_id text NOT NULL,
    token text NOT NULL,
    started_at double precision NOT NULL,
    deals integer NOT NULL DEFAULT 0,
    finished_at double precision
);
CREATE UNIQUE INDEX IF NOT EXISTS daily_one_try ON daily_tries (day, game, account_id);
CREATE INDEX IF NOT EXISTS daily_by_account ON daily_tries (account_id, game, day);
CREATE TABLE IF NOT EXISTS daily_scores (
    try_id text NOT NULL REFERENCES daily_tries(id) ON DELETE CASCADE,
    deal integer NOT NULL,
    score double precision NOT NULL,
    PRIMARY KEY (try_id, deal)
);
"""
COLUMNS = "id, day, game, account_id, table_id, token, started_at, deals, finished_at"


def _try(row: tuple) -> dict:
    return dict(zip(COLUMNS.split(", "), row))


class Dailies:
    def __init__(self, write: Callable[[], contextlib.AbstractContextManager[Tx]],
                 read: Callable[[], contextlib.AbstractContextManager[Tx]]):
        self.write, self.read = write, read

    def begin(self, try_id: str, day: str, game: str, account: str, table_id: str, token: str) -> dict:
        """The account's try of the day and game: this new one, or the one it has already (two
        requests at once, on two processes of a site: one row, whichever came first)."""
        with self.write() as tx:
            tx.run("INSERT INTO daily_tries (id, day, game, account_id, table_id, token, started_at) "
                   "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                   (try_id, day, game, account, table_id, token, time.time()))
            return _try(tx.run(f"SELECT {COLUMNS} FROM daily_tries WHERE day = %s AND game = %s AND account_id = %s",
                               (day, game, account))[0])

    def try_of(self, day: str, game: str, account: str) -> dict | None:
        with self.read() as tx:
            rows = tx.run(f"SELECT {COLUMNS} FROM daily_tries WHERE day = %s AND game = %s AND account_id = %s",
                          (day, game, account))
        return _try(rows[0]) if rows else None

    def score(self, try_id: str, scores: list[float], finished: bool) -> None:
        """The try's scores so far, deal by deal (written again as they are: a deal whose end is
        written twice, after a restart, keeps one row); ``finished``: its last deal is over."""
        with self.write() as tx:
            for deal, score in enumerate(scores):
                tx.run("INSERT INTO daily_scores (try_id, deal, score) VALUES (%s, %s, %s) "
                       "ON CONFLICT (try_id, deal) DO UPDATE SET score = excluded.score", (try_id, deal, float(score)))
            tx.run("UPDATE daily_tries SET deals = %s, finished_at = CASE WHEN %s THEN "
                   "COALESCE(finished_at, %s) ELSE NULL END WHERE id = %s",
                   (len(scores), finished, time.time(), try_id))

    def scores(self, day: str, game: str) -> list[tuple[str, int, float]]:
        """Every ranked score of the day and game: (the account's name, deal, score)."""
        with self.read() as tx:
            return [(r[0], r[1], r[2]) for r in tx.run(
                "SELECT a.name, s.deal, s.score FROM daily_scores s JOIN daily_tries t ON t.id = s.try_id "
                "JOIN accounts a ON a.id = t.account_id WHERE t.day = %s AND t.game = %s", (day, game))]

    def played(self, day: str, game: str) -> tuple[int, int]:
        """(tries begun, tries finished) of the day and game."""
        with self.read() as tx:
            row = tx.run("SELECT count(*), count(finished_at) FROM daily_tries WHERE day = %s AND game = %s",
                         (day, game))[0]
        return int(row[0]), int(row[1])

    def days(self, account: str, game: str, limit: int = 400) -> list[str]:
        """The days the account began a try of ``game``, the latest first."""
        with self.read() as tx:
            return [r[0] for r in tx.run("SELECT day FROM daily_tries WHERE account_id = %s AND game = %s "
                                         "ORDER BY day DESC LIMIT %s", (account, game, limit))]
