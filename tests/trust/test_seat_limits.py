"""One client must not hurt the others (issue 10), over real sockets to a real server: a
storm of hellos on one seat link costs a bounded number of replays and leaves the other
tables' play alone; one seat link holds at most SOCKETS_PER_SEAT sockets; chat has one budget
per seat, whatever the number of its sockets; a long chat never keeps a reload from its state,
and the table keeps only the latest lines in memory while the store keeps every one."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time

import websockets

from tarocchi.server.core.messages import (
    CHAT_BURST, CLOSE_REPLACED, CLOSE_TOO_MANY, HELLO_BURST, REPLACED, SOCKETS_PER_SEAT, TOO_MANY_CHATS,
    TOO_MANY_HELLOS,
)
from tarocchi.server.core.store import SqliteStore
from tarocchi.server.core.tables import CHAT_KEPT, replay
from tests.server.live import running_server
from tests.server.seat import Seat, new_room, pick_action
from tests.trust.harness import run_async, running

STORM_SOCKETS = 60
HELLOS_EACH = 40


async def read_all(ws, seconds: float) -> tuple[list[dict], int | None]:
    """Every message a raw socket gets within ``seconds`` (or until it closes), and its close code."""
    got: list[dict] = []
    end = time.monotonic() + seconds
    try:
        while (left := end - time.monotonic()) > 0:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), left)))
    except (TimeoutError, asyncio.TimeoutError):
        return got, None
    except websockets.ConnectionClosed as e:
        return got, e.rcvd.code if e.rcvd else None
    return got, None


def test_a_hello_storm_on_one_seat_link_costs_a_few_replays_and_stalls_no_other_table():
    """60 sockets on the host's link, 40 hellos each (well inside each socket's own budget):
    the link replays at most its hello budget, keeps at most SOCKETS_PER_SEAT sockets, and an
    action in another room reaches that room's seats at once meanwhile."""
    async def body(server):
        storm_tokens = new_room(server.url, 3)
        quiet_tokens = new_room(server.url, 3)
        quiet = [await Seat.open(server.ws_url, t) for t in quiet_tokens]
        for s in quiet:
            await s.wait_state(lambda st: st["table"]["status"] == "playing")
        hello = json.dumps({"type": "hello", "since": 0})

        async def storm_socket():
            async with websockets.connect(f"{server.ws_url}/ws/{storm_tokens[0]}") as ws:
                try:
                    for _ in range(HELLOS_EACH):
                        await ws.send(hello)
                except websockets.ConnectionClosed:
                    pass  # closed by the server meanwhile: what it sent first is still read
                return await read_all(ws, 3.0)

        storm = asyncio.gather(*[storm_socket() for _ in range(STORM_SOCKETS)])
        await asyncio.sleep(0.3)
        # Meanwhile the other room plays on: its action reaches its other seats promptly.
        actor = next(s for s in quiet if s.my_turn())
        version = actor.state["version"]
        await actor.act(pick_action(actor.view, random.Random(1)), "q1")
        for s in quiet:  # (how fast, under a full-size storm: bench/storm.py)
            await s.wait_state(lambda st: st["version"] > version, timeout=5)
        results = await storm
        states = sum(1 for got, _ in results for m in got if m["type"] == "state")
        codes = [code for _, code in results]
        reasons = {m["reason"] for got, _ in results for m in got if m["type"] == "error"}
        # Each replay answers a hello within the link's budget (the refill over the storm's few
        # seconds adds a couple); a state also goes to every socket when presence changes.
        replays = sum(1 for got, _ in results for m in got if m["type"] == "history")
        assert replays <= HELLO_BURST + 3, replays
        # (a state also goes to each open socket of the link when one comes or goes)
        assert states <= (HELLO_BURST + 3) * 2 * SOCKETS_PER_SEAT, states
        assert codes.count(CLOSE_TOO_MANY) + codes.count(CLOSE_REPLACED) >= STORM_SOCKETS - SOCKETS_PER_SEAT
        assert {TOO_MANY_HELLOS, REPLACED} <= reasons
        # The quiet room never heard of it, and the host's link still opens (the budget refills).
        for s in quiet:
            assert all(m["type"] == "state" for m in await s.quiet(0.1))
        await asyncio.sleep(2.5)
        host = await Seat.open(server.ws_url, storm_tokens[0])
        assert host.state["table"]["status"] == "waiting"
        for s in quiet + [host]:
            await s.close()

    with running() as server:
        run_async(body(server))


def test_one_seat_link_keeps_at_most_its_socket_cap_and_a_new_socket_closes_the_oldest():
    async def body(server):
        tokens = new_room(server.url, 3)
        first = [await Seat.open(server.ws_url, tokens[1]) for _ in range(SOCKETS_PER_SEAT)]
        newest = await Seat.open(server.ws_url, tokens[1])
        got = await first[0].until(lambda m: m["type"] == "error")
        assert got["reason"] == REPLACED
        try:
            await first[0].recv(2)
            raise AssertionError("the oldest socket was not closed")
        except websockets.ConnectionClosed as e:
            assert (e.rcvd.code, e.rcvd.reason) == (CLOSE_REPLACED, REPLACED)
        for s in first[1:] + [newest]:  # the others stay open and in the room
            await s.send({"type": "hello", "since": s.version})
            await s.wait_state(lambda st: st["table"]["joined"][1])
        for s in first[1:] + [newest]:
            await s.close()

    with running() as server:
        run_async(body(server))


def test_chat_has_one_budget_per_seat_however_many_sockets_it_opens():
    """Six sockets of one seat send 20 lines each at once: the seat is heard CHAT_BURST times
    (plus what refills meanwhile), the rest is refused with the reason, nothing is closed."""
    async def body(server):
        tokens = new_room(server.url, 3)
        mine = [await Seat.open(server.ws_url, tokens[2]) for _ in range(SOCKETS_PER_SEAT)]
        listener = await Seat.open(server.ws_url, tokens[0])
        began = time.monotonic()
        for i in range(20):
            for s in mine:
                await s.send({"type": "chat", "text": f"line {i}"})
        refused = []
        for s in mine:
            refused += [m for m in await s.quiet(0.5) if m["type"] == "refused"]
        seconds = time.monotonic() - began
        heard = [m for m in await listener.quiet(0.3) if m["type"] == "chat"]
        allowed = CHAT_BURST + int(seconds) + 1
        assert CHAT_BURST <= len(heard) <= allowed, (len(heard), seconds)
        assert len(heard) + len(refused) == 20 * len(mine)
        assert {m["reason"] for m in refused} == {TOO_MANY_CHATS}
        rows = sqlite3.connect(server.db).execute("SELECT count(*) FROM events WHERE kind = 'chat'").fetchone()
        assert rows[0] == len(heard)
        for s in mine + [listener]:
            await s.close()

    with running() as server:
        run_async(body(server))


def test_a_long_chat_never_keeps_a_reload_from_its_state(tmp_path):
    """600 chat lines stored (more than a socket's 500-frame queue): a fresh page (since 0)
    gets its state first, then one history frame of the latest CHAT_KEPT lines; older lines
    come on request, a hundred at a time, with their names; the table keeps CHAT_KEPT lines."""
    db = str(tmp_path / "chat.sqlite3")
    with running_server(db=db) as server:
        tokens = new_room(server.url, 3)

        async def join():
            seats = [await Seat.open(server.ws_url, t) for t in tokens]
            for s in seats:
                await s.close()
        run_async(join())
    store = SqliteStore(db)
    table_id = store.seat_of(tokens[0])[0]
    version = store.events(table_id)[-1][0]
    for n in range(600):
        version += 1
        store.append(table_id, version, "chat", {"seat": n % 3, "text": f"line {n}"})
    assert len(replay(table_id, store.events(table_id)).chat) == CHAT_KEPT  # bounded in memory
    store.close()

    async def reload(server):
        async with websockets.connect(f"{server.ws_url}/ws/{tokens[1]}") as ws:
            await ws.send(json.dumps({"type": "hello", "since": 0}))
            first = json.loads(await asyncio.wait_for(ws.recv(), 5))
            history = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert first["type"] == "state" and first["version"] == version
            assert history["type"] == "history" and history["more"] is True
            assert [line["text"] for line in history["lines"]] == [f"line {n}" for n in range(500, 600)]
            earliest, texts = history["lines"][0]["version"], []
            while True:
                await ws.send(json.dumps({"type": "history", "before": earliest}))
                older = json.loads(await asyncio.wait_for(ws.recv(), 5))
                assert older["type"] == "history" and older["before"] == earliest
                assert len(older["lines"]) <= CHAT_KEPT
                texts = [line["text"] for line in older["lines"]] + texts
                assert {line["name"] for line in older["lines"]} == {"host", "guest 1", "guest 2"}
                if not older["more"]:
                    break
                earliest = older["lines"][0]["version"]
            assert texts == [f"line {n}" for n in range(500)]
            assert await read_all(ws, 0.3) == ([], None)  # still open, nothing more

    with running_server(db=db) as server:
        run_async(reload(server))
