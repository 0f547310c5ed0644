"""Several server processes, one site (issue 20): one shared database, a Redis bus, each table
driven by the process that holds its lease, the others relaying its seats' sockets.

The seats of one room sit on different processes and play a deal to its count; the owner is
killed with SIGKILL mid-trick and another process carries the table on: every acknowledged
action is there, every seat reconnects and finishes the deal."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time

import pytest
import websockets

from tarocchi.server.site import CLOSE_MOVED
from tarocchi.server.core.store import open_store
from tests.faults.server import ServerProcess, run
from tests.postgres import Cluster
from tests.trust.harness import run_async
from tests.redis_server import RedisServer
from tests.server.live import running_server
from tests.server.seat import Seat, deal_done, new_room, pick_action, play_room_deal


@pytest.fixture(scope="module")
def redis():
    with RedisServer() as server:
        yield server


@pytest.fixture(params=["sqlite", "postgresql"])
def site_db(request, tmp_path) -> str:
    """The shared database: one SQLite file (processes of one host), or PostgreSQL (hosts)."""
    if request.param == "sqlite":
        return str(tmp_path / "site.sqlite3")
    return request.getfixturevalue("postgres").new_database()


def lease_of(db: str, table_id: str) -> str | None:
    store = open_store(db)
    try:
        return store.lease_owner(table_id)
    finally:
        store.close()


def test_a_room_whose_seats_sit_on_two_processes_plays_to_its_count(redis, site_db):
    async def body():
        db = site_db
        with running_server(db, bus=redis.url, process="A", lease=2.0) as a, \
                running_server(db, bus=redis.url, process="B", lease=2.0) as b:
            tokens = new_room(a.url, 3)  # made on A: A drives it
            seats = [await Seat.open(a.ws_url, tokens[0]), await Seat.open(b.ws_url, tokens[1]),
                     await Seat.open(b.ws_url, tokens[2])]
            for s in seats:
                await s.wait_state(lambda st: st["table"]["status"] == "playing")
            table_id = seats[0].state["table"]["id"]
            assert lease_of(db, table_id) == "A"
            # A link made on one works on the other; the relayed seats see what A's does.
            await seats[1].send({"type": "chat", "text": "ciao da B"})
            await seats[0].until(lambda m: m["type"] == "chat" and m["text"] == "ciao da B")
            await seats[1].send({"type": "name", "name": "Turi"})
            await seats[0].wait_state(lambda st: st["table"]["names"][1] == "Turi")
            await play_room_deal(seats, random.Random(2))
            views = [s.state["view"] for s in seats]
            assert all(v["phase"] == "done" for v in views)
            assert len({json.dumps(v["count"], sort_keys=True) for v in views}) == 1
            # A refusal travels back to the relayed seat too.
            await seats[2].act("KC", "nope")
            refused = await seats[2].until(lambda m: m["type"] in ("refused", "error"))
            assert refused.get("id") == "nope"
            for s in seats:
                await s.close()

    asyncio.run(body())


@pytest.mark.slow
def test_kill_9_of_the_owner_moves_its_table_and_loses_no_acknowledged_action(redis, site_db, tmp_path):
    """The owner dies mid-trick; within a few seconds the other process drives the table from
    the stream, and every seat (the one that was on the dead process too) comes back to the
    same version and plays the deal to its count."""
    db = site_db
    extra = ("--bus", redis.url, "--lease", "2")
    a, b = (ServerProcess(db, extra=extra, log=str(tmp_path / f"{name}.log")).start() for name in "ab")

    async def body():
        rng = random.Random(8)
        tokens = new_room(a.url, 3)
        seats = [await Seat.open(a.ws_url, tokens[0]), await Seat.open(b.ws_url, tokens[1]),
                 await Seat.open(b.ws_url, tokens[2])]
        for s in seats:
            await s.wait_state(lambda st: st["table"]["status"] == "playing")
        table_id = seats[0].state["table"]["id"]
        assert lease_of(db, table_id).endswith(f":{a.port}:{a.proc.pid}")
        await play_room_deal(seats, rng, stop=lambda st: st["view"]["phase"] == "play" and len(st["view"]["trick"]) == 1)
        acknowledged = max(s.state["version"] for s in seats)

        a.kill9()
        killed = time.monotonic()
        # The relayed seats are told to reconnect (1012) once the lease runs out.
        for s in seats[1:]:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await s.recv(timeout=15)
            assert closed.value.rcvd is None or closed.value.rcvd.code == CLOSE_MOVED
        moved = time.monotonic() - killed
        back = [await Seat.open(b.ws_url, t, since=0) for t in tokens]  # seat 0 too: its process is gone
        assert lease_of(db, table_id).endswith(f":{b.port}:{b.proc.pid}")
        assert all(s.state["version"] >= acknowledged for s in back)
        assert back[0].state["view"]["trick"] == seats[0].state["view"]["trick"]
        await play_room_deal(back, rng)
        assert all(deal_done(s.state) for s in back)
        print(f"the table moved {moved:.1f} s after the kill")
        assert moved < 10

    try:
        run(body())
    finally:
        b.stop()
        a.stop()


@pytest.mark.slow
def test_a_database_restart_under_a_site_of_two_loses_nothing_and_every_seat_plays_on(redis, tmp_path):
    """PostgreSQL crashes (``pg_ctl stop -m immediate``) mid-deal under a site of two processes
    and stays down longer than a lease; both processes live through it, and once it is back
    every seat, the ones relayed by the other process too, reconnects by itself, finds every
    acknowledged action stored and plays the deal to its count, the table driven by one process."""
    import psycopg

    with Cluster() as cluster:
        db = cluster.new_database()
        extra = ("--bus", redis.url, "--lease", "2")
        a, b = (ServerProcess(db, extra=extra, log=str(tmp_path / f"{name}.log")).start() for name in "ab")

        async def reopen(server: ServerProcess, token: str, since: int) -> Seat:
            for _ in range(200):  # as the page does: again and again, until the table is served
                try:
                    return await Seat.open(server.ws_url, token, since=since)
                except (OSError, websockets.WebSocketException, asyncio.TimeoutError, TimeoutError):
                    await asyncio.sleep(0.1)
            raise AssertionError("the seat never got its table back")

        async def body():
            rng = random.Random(11)
            tokens = new_room(a.url, 3)
            servers = [a, b, b]
            seats = [await Seat.open(s.ws_url, t) for s, t in zip(servers, tokens)]
            for s in seats:
                await s.wait_state(lambda st: st["table"]["status"] == "playing")
            table_id = seats[0].state["table"]["id"]
            await play_room_deal(seats, rng, stop=lambda st: st["view"]["phase"] == "play" and len(st["view"]["trick"]) == 2)
            acknowledged = max(s.state["version"] for s in seats)
            (actor,) = [s for s in seats if s.my_turn()]
            action = pick_action(actor.view, rng)

            cluster.stop("immediate")
            # Its commit waits for the database (the store's timeout): it is stored once the
            # database is back, or given up and dropped (the socket closed with 1011). Either
            # way the seat finds, on reconnecting, what was stored, and never the move twice.
            await actor.act(action, "in-the-outage")
            await asyncio.sleep(3.0)  # past the lease
            cluster.start()
            assert a.proc.poll() is None and b.proc.poll() is None  # both waited
            for s in seats:
                with contextlib.suppress(Exception):
                    await s.close()
            back = [await reopen(server, t, since=0) for server, t in zip(servers, tokens)]
            assert all(s.state["version"] >= acknowledged for s in back)
            assert {s.state["table"]["id"] for s in back} == {table_id}
            view = back[0].state["view"]
            trick_closed = view["phase"] == "done" or len(view["trick"]) != 2  # the third card was stored
            await play_room_deal(back, rng)
            assert all(deal_done(s.state) for s in back)
            assert len({json.dumps(s.state["view"]["count"], sort_keys=True) for s in back}) == 1
            owner = lease_of(db, table_id)
            assert owner is not None and owner.rsplit(":", 2)[1] in (str(a.port), str(b.port))
            for s in back:
                await s.close()
            return trick_closed

        try:
            trick_closed = run_async(body())
            with psycopg.connect(db) as conn:
                ids = [json.loads(d)["id"] for (d,) in conn.execute(
                    "SELECT data FROM events WHERE table_id = (SELECT id FROM tables LIMIT 1) AND kind = 'act' "
                    "ORDER BY version")]
            assert ids.count("in-the-outage") == (1 if trick_closed else 0)  # stored once, or not at all
            assert a.proc.poll() is None and b.proc.poll() is None
        finally:
            b.stop()
            a.stop()


@pytest.mark.slow
def test_in_a_database_outage_every_page_of_the_table_is_told_at_once_relayed_or_not(redis, tmp_path):
    """The database goes down and a seat relayed by the other process plays a card: the owner's
    commit gives up after the store's timeout (2 s) and every page of the table, the owner's
    own and the relayed one, is closed with 1011 (not stored) within a few seconds. The
    periodic lease, orphan and relay queries, which wait as long each while the database is
    away, run in a thread of their own and hold nobody up (while they ran on the event loop,
    this test measured 28.8 s)."""
    from tarocchi.server.core.hub import CLOSE_NOT_STORED

    with Cluster() as cluster:
        db = cluster.new_database()
        extra = ("--bus", redis.url, "--lease", "2")
        a, b = (ServerProcess(db, extra=extra, log=str(tmp_path / f"{name}.log")).start() for name in "ab")

        async def closed_after(seat: Seat, start: float) -> tuple[float, int | None]:
            try:
                while True:
                    await seat.recv(timeout=30)
            except websockets.ConnectionClosed as e:
                return time.monotonic() - start, e.rcvd.code if e.rcvd else None

        async def body():
            rng = random.Random(5)
            tokens = new_room(a.url, 3)
            seats = [await Seat.open(a.ws_url, t) for t in tokens]
            for s in seats:
                await s.wait_state(lambda st: st["table"]["status"] == "playing")
            await play_room_deal(seats, rng, stop=lambda st: st["view"]["phase"] == "play")
            table_id = seats[0].state["table"]["id"]
            assert lease_of(db, table_id).rsplit(":", 2)[1] == str(a.port)
            (n,) = [i for i, s in enumerate(seats) if s.my_turn()]
            await seats[n].close()  # the seat to play comes back through the other process
            seats[n] = await Seat.open(b.ws_url, tokens[n], since=seats[n].version)
            action = pick_action(seats[n].view, rng)

            cluster.stop("immediate")
            await asyncio.sleep(1.5)  # the periodic queries are waiting for the database by now
            start = time.monotonic()
            await seats[n].act(action, "in-the-outage")
            told = await asyncio.gather(*(closed_after(s, start) for s in seats))
            cluster.start()
            return told

        try:
            told = run_async(body())
            assert all(code == CLOSE_NOT_STORED for _, code in told), told
            assert max(seconds for seconds, _ in told) < 5.0, told  # the 2 s timeout, and a margin
            assert a.proc.poll() is None and b.proc.poll() is None
        finally:
            b.stop()
            a.stop()


@pytest.mark.slow
def test_workers_share_one_port_and_a_dead_one_is_replaced(redis, site_db, tmp_path):
    """``tarocchi serve --workers 2``: two processes on one port (SO_REUSEPORT), one site.
    Tables made through the one port are driven by both; a worker killed with SIGKILL is
    replaced, and its tables go on from the other."""
    import os
    import signal as signals
    import subprocess
    import sys

    import httpx

    from tests.server.live import free_port

    port = free_port()
    log = open(tmp_path / "workers.log", "ab")
    supervisor = subprocess.Popen(
        [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port), "--db", site_db, "--workers", "2",
         "--bus", redis.url, "--lease", "2", "--bot-delay", "0.02", "--trick-pause", "0", "--bot-processes", "0",
         "--new-tables", "1000"],
        stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"

    async def body():
        owners: set[str] = set()
        tables = []
        for _ in range(300):  # until both workers are up
            try:
                if httpx.get(base + "/api/games", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                await asyncio.sleep(0.1)
        # New connections spread over the two workers once both listen (the second may come
        # up a moment after the first answers, on a loaded machine).
        for _ in range(200):
            with httpx.Client() as client:
                r = client.post(base + "/api/computer", json={"seats": 3, "level": "random"}, timeout=5)
            tables.append(r.json())
            owners.add(lease_of(site_db, tables[-1]["table"]))
            if len(owners) == 2 and len(tables) >= 16:
                break
            await asyncio.sleep(0.05)
        assert len(owners) == 2  # both workers made (and drive) tables
        victim = tables[0]
        pid = int(lease_of(site_db, victim["table"]).rsplit(":", 1)[1])
        human = await Seat.open(f"ws://127.0.0.1:{port}", victim["link"].removeprefix("/t/"))
        before = human.state["version"]
        os.kill(pid, signals.SIGKILL)
        await asyncio.sleep(0.3)
        for _ in range(100):  # the page reconnects (to whichever worker the kernel picks)
            try:
                human = await Seat.open(f"ws://127.0.0.1:{port}", victim["link"].removeprefix("/t/"))
                break
            except Exception:
                await asyncio.sleep(0.1)
        assert human.state["version"] >= before
        assert lease_of(site_db, victim["table"]) is not None
        assert not lease_of(site_db, victim["table"]).endswith(f":{pid}")
        rng = random.Random(3)
        while not deal_done(human.state):
            if human.my_turn():
                version = human.state["version"]
                await human.act(pick_action(human.view, rng), f"a{version}")
                await human.wait_state(lambda st: st["version"] > version)
            else:
                await human.recv()
        await human.close()

    try:
        run(body())
        assert b"starting another" in (tmp_path / "workers.log").read_bytes()
    finally:
        supervisor.terminate()
        supervisor.wait(20)
        log.close()


def test_the_new_table_budget_of_an_address_is_the_sites_not_each_processes(redis, tmp_path):
    """A burst of 3 new tables from one address, whichever process it asks (issue 20)."""
    import httpx

    db = str(tmp_path / "budget.sqlite3")
    with running_server(db, bus=redis.url, process="A", new_tables=(3, 0.001)) as a, \
            running_server(db, bus=redis.url, process="B", new_tables=(3, 0.001)) as b:
        codes = [httpx.post(f"{server.url}/api/rooms", json={"seats": 3}).status_code for server in (a, b, a, b, a, b)]
    assert codes == [200, 200, 200, 429, 429, 429]


def test_a_relayed_page_that_does_not_read_is_closed_not_buffered_for_ever():
    """The relay's side of Connection.MAX_QUEUED: past RELAY_BACKLOG frames waiting for a page,
    what it has not read is dropped and its socket closed (4408), so one reader that never reads
    cannot make a relaying process's memory grow."""
    from tarocchi.server.core.messages import CLOSE_TOO_SLOW
    from tarocchi.server.site import RELAY_BACKLOG, Envelope, Relay, Site

    site = Site(bus=None, process="B")
    relay = site.relays["c1"] = Relay(websocket=None, table_id="t1", owner="A")
    for n in range(RELAY_BACKLOG + 1):
        site._on_message(Envelope("text", "c1", text=f"frame {n}"))
    left = [relay.outbox.get_nowait() for _ in range(relay.outbox.qsize())]
    assert [e.op for e in left] == ["close"] and left[0].code == CLOSE_TOO_SLOW


def test_a_lease_answer_asked_off_the_loop_judges_only_the_tables_it_was_asked_for(tmp_path):
    """``Site.ask`` runs the lease renewal in a thread; while it runs the table may be unloaded
    and loaded again here (its lease taken anew). The stale answer, "not held", must not make
    the process let go of the table it holds now; the same answer for the table it asked about
    does (another process took the lease: its pages go to the owner)."""
    from tarocchi.server.site import Site
    from tests.server.test_away_timer import Clock
    from tests.server.test_public import Tables, settle

    async def body():
        clock = Clock(asyncio.get_running_loop())
        site = Site(None, "A", lease=5.0)  # (its bus is not started: the leases alone)
        a = Tables(str(tmp_path / "site.sqlite3"), clock, site=site)
        table_id, tokens = a.hub.lobby.new_room(3, "sicilian", public=False, clock=None)
        for token in tokens:
            a.page(token)
        await settle()
        asked = dict(a.hub.tables)  # what the renewal asked about
        a.hub.unload(table_id)  # meanwhile: unloaded (its lease given back) and opened again (acquired anew)
        again = a.page(tokens[0])
        assert a.hub.tables[table_id] is not asked[table_id]
        site.let_go_lost(asked, held=set())  # the answer for the old one
        assert a.hub.tables.get(table_id) is again.conn.table and not again.conn.aborted  # kept
        site.let_go_lost(dict(a.hub.tables), held=set())  # another process holds it now
        assert table_id not in a.hub.tables and again.conn.aborted  # its page reconnects to the owner
        a.store.close()

    asyncio.run(body())
