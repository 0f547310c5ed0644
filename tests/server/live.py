"""A real server for tests: uvicorn in a background thread, on a free port, with its own
temporary SQLite file and short bot delays.

Usage, as a pytest fixture (import it into your test module or conftest.py)::

    from tests.server.live import live_server        # noqa: F401  (the fixture)

    def test_something(live_server):
        base = live_server.url                        # "http://127.0.0.1:PORT"
        ws = live_server.ws_url                       # "ws://127.0.0.1:PORT"
        # POST f"{base}/api/computer" ..., open f"{base}/t/<token>" in a browser

Or as a context manager, e.g. to restart on the same database::

    from tests.server.live import running_server

    with running_server(db=path, bot_delay=0.05, trick_pause=0.05) as server:
        ...                                           # server.url, server.ws_url, server.db
    with running_server(db=path) as again:            # a new server on the same file
        ...

``running_server`` keywords: ``db`` (default: a new temp file), ``bot_delay``,
``trick_pause`` (both 0.05 s by default), ``advice_seconds`` (0.1), ``bot_level_default``
("random"), ``bot_processes`` (0: bots think in a thread pool; above 0, in that many worker
processes). The ``live_server`` fixture has function scope: every test gets a fresh server and
database.
"""

from __future__ import annotations

import contextlib
import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import uvicorn

from tarocchi.server.app import create_app, server_config

ADVICE_SECONDS = 0.1  # a hint's or a review decision's CPU budget on a test server


@dataclass
class LiveServer:
    url: str
    ws_url: str
    db: str
    port: int


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(db: str | None = None, *, bot_delay: float = 0.05, trick_pause: float = 0.05,
                   bot_level_default: str = "random", bot_processes: int = 0, connections_per_address: int = 10_000,
                   proxy: str | None = "127.0.0.1", header_timeout: float = 5.0, **options) -> Iterator[LiveServer]:
    """``options`` go to ``create_app`` as they are (e.g. ``chance``, ``budget``); the
    connection guard's settings to ``server_config`` (tests open many sockets from one
    address: no cap unless a test sets one). The test's own requests are believed when they
    say, in X-Forwarded-For, whose they are (``proxy``: as behind a reverse proxy): one machine
    plays several people, each at an address of their own (a seat a person, issue 37)."""
    tmpdir = None
    if db is None:
        tmpdir = tempfile.TemporaryDirectory(prefix="tarocchi-live-")
        db = os.path.join(tmpdir.name, "tables.sqlite3")
    # Tests make many tables from one address: no limit on new tables unless a test sets one.
    options.setdefault("new_tables", (1_000_000, 1000.0))
    # Hints and reviews think for a tenth of a second, not the table's 0.6: what the tests check
    # (what is shown, when, to whom, that it names no hidden card) does not depend on how long.
    options.setdefault("advice_seconds", ADVICE_SECONDS)
    # No time bank (issue 41) unless a test asks: the tests of a turn clock wait for its own time
    # to run out (tests/server/test_time_bank.py is the bank's).
    options.setdefault("time_bank", 0.0)
    app = create_app(db, bot_delay=bot_delay, trick_pause=trick_pause, bot_level_default=bot_level_default,
                     bot_processes=bot_processes, **options)
    port = free_port()
    config = server_config(app, "127.0.0.1", port, proxy=proxy, connections_per_address=connections_per_address,
                           header_timeout=header_timeout, log_level="warning", lifespan="on",
                           timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", db, port)
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        if tmpdir is not None:
            tmpdir.cleanup()


@pytest.fixture
def live_server() -> Iterator[LiveServer]:
    """A fresh server with a fresh database for one test (delays 0.05 s)."""
    with running_server() as server:
        yield server
