"""Tables asleep (issue 41): a table by correspondence waits days for a move, and nobody has it
open most of that time; it leaves memory (``Hub.unload_if_idle``) and is written down here with
when it must wake (its deadline, or sooner where a feature asks: the notice that time is running
out), or none (it wakes when a link of it is opened). A server starting loads no sleeping table
(``unfinished`` passes them over); a waker asks for the due ones every little while. One SQL
text for both backends, as ``people.py``."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from .people import Tx

SCHEMA = """
CREATE TABLE IF NOT EXISTS sleeping (
    table_id text PRIMARY KEY,
    wake_at double precision
);
CREATE INDEX IF NOT EXISTS sleeping_by_wake ON sleeping (wake_at);
"""
NOT_ASLEEP = "id NOT IN (SELECT table_id FROM sleeping)"  # (for ``unfinished``)


class Sleepers:
    def __init__(self, write: Callable[[], contextlib.AbstractContextManager[Tx]],
                 read: Callable[[], contextlib.AbstractContextManager[Tx]]):
        self.write, self.read = write, read

    def sleep(self, table_id: str, wake_at: float | None) -> None:
        with self.write() as tx:
            tx.run("INSERT INTO sleeping (table_id, wake_at) VALUES (%s, %s) ON CONFLICT (table_id) "
                   "DO UPDATE SET wake_at = excluded.wake_at", (table_id, wake_at))

    def wake(self, table_id: str) -> None:
        with self.write() as tx:
            tx.run("DELETE FROM sleeping WHERE table_id = %s", (table_id,))

    def due(self, now: float, limit: int = 500) -> list[str]:
        """The sleeping tables whose time to wake has come, the most overdue first."""
        with self.read() as tx:
            rows = tx.run("SELECT table_id FROM sleeping WHERE wake_at <= %s ORDER BY wake_at LIMIT %s", (now, limit))
        return [r[0] for r in rows]

    def count(self) -> int:
        with self.read() as tx:
            return tx.run("SELECT count(*) FROM sleeping")[0][0]
