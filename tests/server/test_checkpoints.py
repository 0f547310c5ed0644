"""The store through SQLite errors (issue 10): a full disk or no descriptor left must neither
end the checkpoint thread nor leave the writer's connection in a transaction, and both carry
on by themselves once the disk has room again."""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import subprocess
import time

import pytest

from tarocchi.server.core.store import Checkpoints, SqliteStore

CREATED = {"kind": "room", "seats": 3, "names": ["host", "guest 1", "guest 2"],
           "bots": [None, None, None], "options": {"forced_call": True}}
CHAT = {"text": "x" * 500}  # stays in its B-tree page (a longer one takes an overflow page)
WAL_LIMIT = 64 * 1024


def wait_until(check, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def messages(caplog, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tarocchi.server" and r.levelno == level]


def chats(table_id: str, first: int, count: int) -> list[tuple[str, int, str, dict]]:
    return [(table_id, v, "chat", CHAT) for v in range(first, first + count)]


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MiB tmpfs of the test's own, to fill."""
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root (CI runs the tests as root)")
    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)], check=True)
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


def fill(disk) -> str:
    """Write a file until the disk is full; its path."""
    filler = str(disk / "filler")
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        with pytest.raises(OSError) as full:
            for _ in range(1000):  # 64 MiB at most: bounded even if the disk were larger
                os.write(fd, b"\0" * 65536)
        assert full.value.errno == errno.ENOSPC
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_stops_checkpoints_and_commits_until_room_comes_back(small_disk, caplog):
    caplog.set_level(logging.WARNING, logger="tarocchi.server")
    path = str(small_disk / "s.sqlite3")
    store = SqliteStore(path, checkpoint_every=0.02, wal_limit=WAL_LIMIT)  # retries every 0.2 s at most
    try:
        store.create_table("t1", "room", ["a", "b", "c"], CREATED)
        # A reader's snapshot keeps the checkpoints from copying what follows: the WAL grows.
        reader = sqlite3.connect(path)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM events").fetchone()
        for first in range(2, 302, 30):
            store.append_many(chats("t1", first, 30))
        stored = 301
        filler = fill(small_disk)
        reader.close()
        # The checkpoints now have 300 events to copy into a database file that cannot grow.
        assert wait_until(lambda: messages(caplog, logging.ERROR))
        # The writer cannot grow the WAL. A batch larger than the page cache fails in an
        # INSERT (SQLite rolls it back itself), a small one in its COMMIT: the error said is
        # the disk's either way, and no transaction is left open.
        store.db.execute("PRAGMA cache_size=5")
        with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
            store.append_many(chats("t1", stored + 1, 100))
        assert not store.db.in_transaction
        store.db.execute("PRAGMA cache_size=-2000")
        with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
            for v in range(stored + 1, stored + 21):  # no room is left for even one frame
                store.append("t1", v, "chat", CHAT)
        assert not store.db.in_transaction

        time.sleep(0.5)  # a few retries
        assert store.checkpoints.thread.is_alive()
        assert len(messages(caplog, logging.ERROR)) == 1  # once for the whole streak
        [failed] = messages(caplog, logging.ERROR)
        assert "database or disk is full" in failed and path in failed
        assert not messages(caplog, logging.WARNING)
        wal_when_full = os.path.getsize(path + "-wal")

        os.remove(filler)
        assert wait_until(lambda: messages(caplog, logging.WARNING))
        [recovered] = messages(caplog, logging.WARNING)
        assert "work again" in recovered
        assert int(recovered.split("after ")[1].split()[0]) >= 2  # it did retry
        # Copied into the database file, and the writer's next commit starts the WAL over,
        # cut to its limit.
        assert os.path.getsize(path) > 300 * 500
        store.append("t1", stored + 1, "chat", CHAT)
        wal_after = os.path.getsize(path + "-wal")
        assert wal_after <= WAL_LIMIT < wal_when_full
        # The failed ones left no trace.
        assert [v for v, _, _ in store.events("t1")] == list(range(1, stored + 2))
        assert len(messages(caplog, logging.ERROR)) == 1
    finally:
        store.close()


def test_checkpoint_errors_are_logged_once_retried_later_and_later_and_survived(tmp_path, caplog):
    """No descriptor left, say: the first statements of the checkpoint connection fail. The
    thread logs the first error, opens a new connection for each try, waits twice as long
    each time (up to ten periods), and logs when a checkpoint works again."""
    caplog.set_level(logging.WARNING, logger="tarocchi.server")
    path = str(tmp_path / "s.sqlite3")
    store = SqliteStore(path, checkpoint_every=3600)  # its own thread stays asleep
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)
    store.append_many(chats("t1", 2, 400))
    assert os.path.getsize(path) < 50_000  # all in the WAL

    tries: list[float] = []
    opened: list[Flaky] = []

    class Flaky:
        def __init__(self):
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.closed = False
            opened.append(self)

        def execute(self, sql: str):
            tries.append(time.monotonic())
            if len(tries) <= 5:
                raise sqlite3.OperationalError("unable to open database file")
            return self.db.execute(sql)

        def close(self):
            self.closed = True
            self.db.close()

    every = 0.01
    checkpoints = Checkpoints(path, every, connect=Flaky)
    try:
        assert wait_until(lambda: os.path.getsize(path) > 400 * 500)  # copied: it works again
        assert checkpoints.thread.is_alive()
    finally:
        checkpoints.close()
        store.close()
    assert messages(caplog, logging.ERROR) == [
        f"WAL checkpoint of {path} failed: OperationalError: unable to open database file; "
        "retrying every 0.1 s at most, the WAL grows until one works"]
    [recovered] = messages(caplog, logging.WARNING)
    assert recovered.startswith(f"WAL checkpoints of {path} work again, after 5 failed in ")
    assert len(opened) >= 6 and all(c.closed for c in opened[:5])  # a new connection after each error
    waits = [b - a for a, b in zip(tries, tries[1:6])]
    for waited, planned in zip(waits, [0.02, 0.04, 0.08, 0.1, 0.1]):
        assert planned * 0.9 <= waited < planned + 0.5


def test_a_commit_that_fails_leaves_no_transaction_open(tmp_path):
    """Some failed COMMITs leave the transaction open (SQLITE_BUSY does): the store rolls it
    back, or no transaction could ever begin on its connection again."""
    store = SqliteStore(str(tmp_path / "s.sqlite3"))
    store.create_table("t1", "room", ["a", "b", "c"], CREATED)

    class CommitFailsOnce:
        def __init__(self, db: sqlite3.Connection):
            self.db, self.failed = db, False

        def execute(self, sql: str, *args):
            if sql == "COMMIT" and not self.failed:
                self.failed = True
                raise sqlite3.OperationalError("database is locked")
            return self.db.execute(sql, *args)

        def __getattr__(self, name: str):
            return getattr(self.db, name)

    store.db = CommitFailsOnce(store.db)
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        store.append("t1", 2, "join", {"seat": 0})
    assert not store.db.in_transaction
    store.append("t1", 2, "join", {"seat": 1})  # version 2 again: the failed one was not stored
    assert store.events("t1")[1:] == [(2, "join", {"seat": 1})]
    store.db = store.db.db
    store.close()
