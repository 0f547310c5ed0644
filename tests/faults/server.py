"""The server as a real subprocess (``python -m tarocchi.cli serve``), so that a test can kill
it with SIGKILL and start it again on the same database and port."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import httpx

from tests.server.live import free_port


class ServerProcess:
    def __init__(self, db: str, port: int | None = None, *, bot_delay: float = 0.02,
                 trick_pause: float = 0.0, away_timeout: float = 60.0, extra: tuple[str, ...] = (),
                 log: str | None = None):
        """``db``: a SQLite path or a PostgreSQL URL (then give ``log``, the stderr file)."""
        self.db = db
        self.port = port or free_port()
        self.log_path = log or f"{db}.{self.port}.log"
        self.args = [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(self.port),
                     "--db", db, "--bot-delay", str(bot_delay), "--trick-pause", str(trick_pause),
                     "--bot-processes", "0", "--away-timeout", str(away_timeout), *extra]
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> ServerProcess:
        assert self.proc is None or self.proc.poll() is not None
        # stderr to a file, not a pipe: a pipe nobody reads would block a chatty server.
        self.log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL, stderr=self.log,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.errors()[-2000:]}")
            try:
                if httpx.get(self.url + "/api/levels", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("the server did not start in time")

    def kill9(self) -> None:
        """SIGKILL: no shutdown code runs, nothing is flushed but what SQLite committed."""
        self.proc.send_signal(signal.SIGKILL)
        self.log.close()
        assert self.proc.wait(10) == -signal.SIGKILL

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.log.close()

    def errors(self) -> str:
        """What the server wrote to stderr (every run on this database and port)."""
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def stream(self, table_id: str | None = None) -> list[tuple]:
        """The stored events, read from the file by another connection (WAL: readers are fine)."""
        db = sqlite3.connect(self.db)
        try:
            sql = "SELECT table_id, version, kind, data FROM events"
            rows = db.execute(sql + (" WHERE table_id = ?" if table_id else "") + " ORDER BY table_id, version",
                              (table_id,) if table_id else ()).fetchall()
        finally:
            db.close()
        return rows

    def __enter__(self) -> ServerProcess:
        return self.start() if self.proc is None else self

    def __exit__(self, *exc) -> None:
        self.stop()


def run(coro) -> None:
    """``asyncio.run`` in a thread of its own: a worker that already drove Playwright's sync
    API has an event loop running in the main thread."""
    import asyncio
    import threading

    failure: list[BaseException] = []

    def main():
        try:
            asyncio.run(coro)
        except BaseException as e:  # noqa: BLE001  (re-raised in the test's thread)
            failure.append(e)

    thread = threading.Thread(target=main, name="fault-test")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
