"""What only the PostgreSQL store has to show: it outlives a restart of the database, and
``tarocchi serve --db postgresql://...`` serves tables from it and refuses a later schema.
(The ``Store`` protocol itself is tested on both stores in test_store.py.)"""

from __future__ import annotations

import asyncio
import random
import time

import psycopg
import pytest
import websockets

from tarocchi.server.core.hub import CLOSE_NOT_STORED
from tarocchi.server.core.store import SCHEMA_VERSION, VersionConflict
from tarocchi.server.core.store.postgres import PostgresStore
from tests.faults.server import ServerProcess
from tests.postgres import Cluster
from tests.server.live import running_server
from tests.server.seat import Seat, new_computer, pick_action, play_computer_deal

CREATED = {"kind": "room", "seats": 3, "names": ["host", "guest 1", "guest 2"],
           "bots": [None, None, None], "options": {}}


def test_the_store_outlives_a_database_restart_and_loses_nothing_committed():
    """A crash (pg_ctl stop -m immediate) and a start: the next call works on a new
    connection. While the database is down, a call fails within the store's timeout instead of
    hanging, stores nothing, and the store works again once the database is back."""
    with Cluster() as cluster:
        store = PostgresStore(cluster.new_database())  # timeout: 2 s
        store.create_table("t1", "room", ["a", "b", "c"], CREATED)
        store.append_many([("t1", 2, "join", {"seat": 0}), ("t1", 3, "join", {"seat": 1})])
        cluster.restart("immediate")
        store.append("t1", 4, "join", {"seat": 2})
        assert [v for v, _, _ in store.events("t1")] == [1, 2, 3, 4]
        cluster.stop("immediate")
        started = time.monotonic()
        with pytest.raises(psycopg.Error):  # a psycopg_pool.PoolTimeout is one too
            store.append("t1", 5, "chat", {"text": "into the void"})
        assert time.monotonic() - started < 10
        cluster.start()
        store.append("t1", 5, "chat", {"text": "after"})
        with pytest.raises(VersionConflict):
            store.append("t1", 5, "chat", {"text": "twice"})
        assert store.events("t1")[1:] == [(2, "join", {"seat": 0}), (3, "join", {"seat": 1}),
                                          (4, "join", {"seat": 2}), (5, "chat", {"text": "after"})]
        assert store.seat_of("c") == ("t1", 2) and store.unfinished() == ["t1"]
        store.close()


def test_a_server_whose_database_goes_down_drops_the_move_and_serves_the_table_once_it_is_back():
    """PostgreSQL crashes while a computer table waits for its human: the move cannot be
    stored, so the seat's socket is closed with 1011 and the move never happened; once the
    database is back, the page opens the table again from what was stored and the same move,
    sent again, is applied once."""
    rng = random.Random(5)
    with Cluster() as cluster, running_server(cluster.new_database()) as server:
        async def body():
            token = new_computer(server.url, 3)
            seat = await Seat.open(server.ws_url, token)
            await seat.wait_state(lambda st: seat.my_turn())
            version, view = seat.version, seat.view
            action = pick_action(view, rng)
            cluster.stop("immediate")
            await seat.act(action, "lost")
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await seat.until(lambda m: False)
            assert closed.value.rcvd.code == CLOSE_NOT_STORED
            assert seat.version == version  # nothing was told of the move
            cluster.start()
            again = await Seat.open(server.ws_url, token)
            assert again.version == version and again.view == view
            await again.act(action, "lost")
            await again.wait_state(lambda st: st["version"] > version)
            await again.close()
            return version

        version = asyncio.run(body())
        # The move is stored once: the try while the database was down left nothing.
        with psycopg.connect(server.db) as conn:
            acts = conn.execute("SELECT version, data FROM events WHERE kind = 'act' ORDER BY version").fetchall()
        assert [v for v, data in acts if '"id":"lost"' in data] == [version + 1]


@pytest.mark.slow
def test_tarocchi_serve_on_postgresql_plays_a_computer_table_and_reloads_it_after_sigkill(postgres, tmp_path):
    """The whole way: the CLI on a PostgreSQL URL, a computer table played a few actions, the
    server killed (SIGKILL: only what was committed remains), a new server on the same
    database serves the same view at the same version, and the deal plays on to the count."""
    url = postgres.new_database()
    rng = random.Random(20)

    async def play_some(server: ServerProcess, token: str, actions: int) -> tuple[int, dict]:
        seat = await Seat.open(server.ws_url, token)
        for n in range(actions):
            await seat.wait_state(lambda st: seat.my_turn())
            version = seat.version
            await seat.act(pick_action(seat.view, rng), f"before{n}")  # play_computer_deal says a0, a1...
            await seat.wait_state(lambda st: st["version"] > version)
        await seat.close()
        return seat.version, seat.view

    server = ServerProcess(url, log=str(tmp_path / "server.log"), bot_delay=0.0)
    with server:
        token = new_computer(server.url, 3)
        version, view = asyncio.run(play_some(server, token, 4))
        assert version > 5
        server.kill9()
        server.start()

        async def back() -> dict:
            seat = await Seat.open(server.ws_url, token)
            assert seat.version >= version  # a bot may have acted after the last frame seen
            if seat.version == version:
                assert seat.view == view
            return await play_computer_deal(seat, rng)

        state = asyncio.run(back())
        assert state["view"]["phase"] == "done" and state["table"]["status"] == "between"
    with psycopg.connect(url) as conn:
        (table_id,) = conn.execute("SELECT id FROM tables").fetchone()
        versions = [v for (v,) in conn.execute(
            "SELECT version FROM events WHERE table_id = %s ORDER BY version", (table_id,))]
    assert versions == list(range(1, state["version"] + 1))


def test_tarocchi_serve_refuses_a_database_of_a_later_schema(postgres, tmp_path):
    url = postgres.new_database()
    PostgresStore(url).close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    server = ServerProcess(url, log=str(tmp_path / "server.log"))
    with pytest.raises(RuntimeError, match="the server exited"):
        server.start()
    assert server.proc.wait(10) != 0
    assert (f"has schema version {SCHEMA_VERSION + 1}, but this Tarocchi knows versions up to {SCHEMA_VERSION}"
            in server.errors())
