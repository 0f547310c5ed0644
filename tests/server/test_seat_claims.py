"""Issue 37, the lobby's seats as a stranger, a spectator and a seated player probed them: the
host's seat is never handed out; a seat taken from a computer mid-deal shows nothing of that
deal; a seated player or a spectator of a table never takes another seat of it; a claim
revokes the old link at once, on a socket already open too; one address holds at most a few
seats it has not opened, on every process of a site. Hub tests run on both stores."""

from __future__ import annotations

import asyncio
import json
import threading
import types

import httpx
import psycopg
import pytest
import websockets

from tarocchi.server.lobby import (
    AT_THIS_TABLE, CLAIM_SECONDS, CLAIMS_PER_ADDRESS, NO_FREE_SEAT, NOBODY_HERE, TOO_MANY_CLAIMS, Lobby,
)
from tarocchi.server.core.messages import Chat, Hello, Hint, Next
from tarocchi.server.core.store import address_key, open_store
from tarocchi.server.core.tables import NEXT_DEAL, PLAYING, spectator_view
from tests.server.live import running_server
from tests.server.seat import Seat
from tests.server.test_away_timer import Clock
from tests.server.test_public import CLOCK, FILL, GAMES, Tables, person, settle, until_state
from tests.server.test_site import redis  # noqa: F401  (the fixture: a Redis for the bus)


def frame(hub, conn) -> dict:
    return json.loads(hub.state_frame(conn))


def age_claims(store_db: str, store, seconds: float) -> None:
    """Every claim of the database made ``seconds`` earlier (claims age by the wall clock)."""
    if store_db.startswith("postgresql"):
        with psycopg.connect(store_db, autocommit=True) as conn:
            conn.execute("UPDATE claims SET at = at - %s", (seconds,))
    else:
        store.db.execute("UPDATE claims SET at = at - ?", (seconds,))


# --- 2. the host's seat ----------------------------------------------------------------------


def test_the_hosts_seat_is_never_handed_out_opened_or_not(store_db):
    """A public room whose host has not opened their link for longer than any claim lasts is not
    offered at all (nobody is there: issue 38); once the host is there, the lobby lists the
    guests' seats alone and every claim gets one of those; the host's link still opens the
    host's seat. At a Play now table whose opener never came, the computer that fills the
    opener's seat holds it for them, never for a stranger."""
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(store_db, clock)
        hub, lobby = tables.hub, tables.hub.lobby
        table_id, tokens = lobby.new_room(3, "sicilian", public=True, clock=None, address="203.0.113.1")
        await settle()
        age_claims(store_db, hub.store, 2 * CLAIM_SECONDS)  # (as probed: the host away for longer)
        assert lobby.public_tables() == [] and lobby.claim(table_id, 0, "203.0.113.5") == NOBODY_HERE
        guest = tables.page(tokens[1])  # someone the host sent a link to is there: offered
        await settle()
        (listed,) = lobby.public_tables()
        assert listed["free"] == [2] and listed["present"] == [False, True, False]
        got = [lobby.claim(table_id, 0, f"203.0.113.{n}") for n in (2, 3)]
        assert got[0][1] == 2 and got[1] == NO_FREE_SEAT  # never seat 0
        assert hub.store.seat_of(tokens[0]) == (table_id, 0)
        host = tables.page(tokens[0])
        assert host.conn.seat == 0 and hub.tables[table_id].joined[0]
        del guest
        # Play now: an opener who never opens their table is not joined there by the next person;
        # and the opener's seat is never offered, whoever else is at the table.
        quick, opener, _, _ = lobby.play_now("calabresella", "198.51.100.1")
        other, second, seat, new = lobby.play_now("calabresella", "198.51.100.2")
        assert other != quick and new and seat == 0
        tables.page(opener)
        third = lobby.play_now("calabresella", "198.51.100.3")
        assert third[0] in (quick, other) and third[2] != 0
        assert hub.store.seat_of(opener) == (quick, 0) and hub.store.seat_of(second) == (other, 0)
        tables.store.close()

    asyncio.run(body())


# --- 3. a computer's seat mid-deal -------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_computers_seat_taken_mid_deal_shows_nothing_of_that_deal(store_db, game):
    """Every game: a person who comes for a computer's seat mid-deal is shown what a spectator
    is shown (no hand, no choices, nothing that seat alone saw) and may not chat, hint or
    speak for the seat until the deal ends; from the next deal the seat and its hand are
    theirs. The table's own seated player and its spectators are never given another seat."""
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(store_db, clock)
        hub, lobby = tables.hub, tables.hub.lobby
        table_id, token, _, _ = lobby.play_now(game, "203.0.113.1")
        first = tables.page(token)
        await settle(clock, clock.now + FILL + 0.1)
        table = hub.tables[table_id]
        assert table.status == PLAYING
        # The seated player, and a spectator (its watch link opened from its address), ask for a
        # computer's seat: refused, both; the listing still offers it.
        lobby.visit(table_id, address_key("203.0.113.9"))  # (a script's socket, no cookie: its address)
        for address in ("203.0.113.1", "203.0.113.9"):
            assert lobby.claim(table_id, None, address) == AT_THIS_TABLE
            assert lobby.play_now(game, address)[0] != table_id
        # A stranger takes one mid-deal.
        found = lobby.claim(table_id, None, "203.0.113.2")
        token2, seat = found
        came = tables.page(token2)
        await settle()
        assert table.arrived[seat] and table.bots[seat] is not None and table.status == PLAYING
        deal = table.deal
        assert deal.view(seat)["hand"]  # the computer's hand is there, and not shown
        seen = frame(hub, came.conn)
        assert seen["table"]["you"] == seat
        assert seen["view"] == json.loads(json.dumps(spectator_view(deal)))
        assert seen["view"]["hand"] == [] and seen["view"]["choices"] == [] and seen["view"]["seat"] is None
        told = []
        came.conn.send = told.append
        for message in (Chat(text="ciao"), Hint(), Next()):
            hub.handle(came.conn, message)
        assert [t["reason"] for t in told if t["type"] == "refused"] == [NEXT_DEAL] * 3
        assert "chat" not in [k for _, k, _ in hub.store.events(table_id)]
        # The deal goes on to its end (computers, and the clock for the first person); the next
        # deal is the newcomer's, hand and all.
        await until_state(lambda: table.deal is not deal and table.status == PLAYING or table.status == "over",
                          clock, step=CLOCK / 3)
        if table.status == PLAYING:
            mine = frame(hub, came.conn)
            assert table.bots[seat] is None and mine["view"]["hand"] == table.deal.view(seat)["hand"] != []
        del first
        tables.store.close()

    asyncio.run(body())


def test_over_http_a_seated_player_and_a_spectator_are_refused_another_seat():
    """As probed: seat 0 of a Play now table asks for a seat of its own table from its own
    address; so does a spectator from the address its watch link was opened from: 409, both;
    a stranger gets one."""
    async def body(server):
        made = httpx.post(f"{server.url}/api/play-now", json={"game": "sicilian"}, headers=person(1)).json()
        host = await Seat.open(server.ws_url, made["link"].removeprefix("/t/"))
        state = await host.wait_state(lambda st: st["table"]["status"] == "playing", timeout=15)
        table_id = made["table"]
        watch = state["table"]["watch"].removeprefix("/w/")
        spectator = Seat(await websockets.connect(f"{server.ws_url}/ws/{watch}", additional_headers=person(5)), watch)
        await spectator.send({"type": "hello", "since": 0})
        await spectator.wait_state(lambda st: True)
        for who in (1, 5):
            r = httpx.post(f"{server.url}/api/public/{table_id}/seat", json={"seat": None}, headers=person(who))
            assert r.status_code == 409 and r.json()["error"] == AT_THIS_TABLE
        r = httpx.post(f"{server.url}/api/public/{table_id}/seat", json={"seat": None}, headers=person(2))
        assert r.status_code == 200 and r.json()["seat"] in (1, 2)
        for s in (host, spectator):
            await s.close()

    with running_server(fill_seconds=0.5, public_clock=30) as server:
        asyncio.run(body(server))


# --- 4. a claim revokes the old link at once ----------------------------------------------------


async def old_socket_says_hello(url: str, ws_url: str, claim_url: str) -> None:
    made = httpx.post(f"{url}/api/rooms", json={"game": "sicilian", "seats": 3, "public": True},
                      headers=person(1)).json()
    host = await Seat.open(ws_url, made["links"][0].removeprefix("/t/"))
    old = made["links"][1].removeprefix("/t/")
    socket = await websockets.connect(f"{ws_url}/ws/{old}")  # opened, no hello yet
    taken = httpx.post(f"{claim_url}/api/public/{made['table']}/seat", json={"seat": 1}, headers=person(2)).json()
    assert taken["seat"] == 1
    try:
        await socket.send(json.dumps({"type": "hello", "since": 0, "name": "Intruder"}))
        answers = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                answers.append(json.loads(await asyncio.wait_for(socket.recv(), 10)))
    finally:
        await socket.close()
    assert closed.value.rcvd.code == 4404
    assert [a["type"] for a in answers] == ["error"] and "unknown link" in answers[0]["reason"]
    mine = await Seat.open(ws_url, taken["link"].removeprefix("/t/"))
    assert mine.state["table"]["you"] == 1 and mine.state["table"]["names"][1] != "Intruder"
    for seat in (mine, host):
        await seat.close()


def test_a_claim_revokes_the_old_link_on_a_socket_opened_before_it():
    with running_server() as server:
        asyncio.run(old_socket_says_hello(server.url, server.ws_url, server.url))


def test_on_a_site_a_claim_through_one_process_revokes_a_socket_relayed_by_the_other(redis, tmp_path):  # noqa: F811
    db = str(tmp_path / "site.sqlite3")
    with running_server(db, bus=redis.url, process="A", lease=2.0) as a, \
            running_server(db, bus=redis.url, process="B", lease=2.0) as b:
        asyncio.run(old_socket_says_hello(a.url, b.ws_url, b.url))  # made on A, the old socket relayed by B


# --- 5. seats claimed and never opened ----------------------------------------------------------


def test_one_address_holds_a_few_unopened_seats_on_every_process(store_db):
    """Two processes (two stores on one database): one address's claims count together; past
    CLAIMS_PER_ADDRESS unopened ones the next is refused, until one is opened or lapses. A
    claim lapses, unopened, after CLAIM_SECONDS: its seat is free for the next."""
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(store_db, clock)
        lobby = tables.hub.lobby
        stores = [open_store(store_db) for _ in range(2)]
        lobbies = [Lobby(types.SimpleNamespace(store=s, revoke=lambda table_id, seat: None)) for s in stores]
        made = [lobby.new_room(3, "renaissance", public=True, clock=None, address=f"198.51.100.{n}")
                for n in range(CLAIMS_PER_ADDRESS + 2)]
        rooms = [table_id for table_id, _ in made]
        for _, tokens in made:
            tables.page(tokens[0])  # each host is there
        got = [lobbies[n % 2].claim(room, None, "203.0.113.7") for n, room in enumerate(rooms[:CLAIMS_PER_ADDRESS])]
        assert all(isinstance(g, tuple) for g in got)
        for process in lobbies:
            assert process.claim(rooms[-1], None, "203.0.113.7") == TOO_MANY_CLAIMS
        assert isinstance(lobby.claim(rooms[-1], None, "203.0.113.8"), tuple)  # another address is its own
        # One opened: its claim is spent with the listing that no longer offers the seat.
        tables.page(got[0][0])
        await settle()
        won = lobbies[1].claim(rooms[-2], None, "203.0.113.7")
        assert isinstance(won, tuple)
        assert lobbies[0].claim(rooms[-1], None, "203.0.113.7") == TOO_MANY_CLAIMS
        # The others lapse, never opened: their seats are free again, and the address may claim.
        age_claims(store_db, stores[0], CLAIM_SECONDS + 1)
        assert [t["free"] for t in lobby.public_tables() if t["table"] == rooms[1]] == [[1, 2]]
        assert isinstance(lobbies[0].claim(rooms[-1], None, "203.0.113.7"), tuple)
        for s in stores:
            s.close()
        tables.store.close()

    asyncio.run(body())


def test_on_a_site_one_address_cannot_hold_every_free_seat(redis, tmp_path):  # noqa: F811
    """As probed, on two processes: one address claims seats of many public rooms through both,
    without opening any; past CLAIMS_PER_ADDRESS the site says 429, and the others' seats stay
    free for other people. Two strangers who click one seat at once, through the two processes,
    get one seat each."""
    db = str(tmp_path / "site.sqlite3")
    with running_server(db, bus=redis.url, process="A", lease=2.0) as a, \
            running_server(db, bus=redis.url, process="B", lease=2.0) as b:
        asyncio.run(seize_seats(a, b))


async def seize_seats(a, b) -> None:
    made = [httpx.post(f"{a.url}/api/rooms", json={"game": "sicilian", "seats": 4, "public": True},
                       headers=person(100 + n)).json() for n in range(6)]
    rooms = [m["table"] for m in made]
    hosts = [await Seat.open((a, b)[n % 2].ws_url, m["links"][0].removeprefix("/t/")) for n, m in enumerate(made)]
    codes = []
    for n, room in enumerate(rooms):
        server = (a, b)[n % 2]
        r = httpx.post(f"{server.url}/api/public/{room}/seat", json={"seat": None}, headers=person(9))
        codes.append(r.status_code)
        if r.status_code == 429:
            assert r.json()["error"] == TOO_MANY_CLAIMS
    assert codes == [200] * CLAIMS_PER_ADDRESS + [429] * (len(rooms) - CLAIMS_PER_ADDRESS)
    free = sum(len(t["free"]) for t in httpx.get(f"{b.url}/api/public").json()["tables"])
    assert free == 3 * len(rooms) - CLAIMS_PER_ADDRESS
    got = [None, None]
    start = threading.Barrier(2)

    def claim(i):
        start.wait()
        got[i] = httpx.post(f"{(a, b)[i].url}/api/public/{rooms[-1]}/seat", json={"seat": 2},
                            headers=person(20 + i)).json()

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(g["seat"] for g in got) == [1, 2]  # one got seat 2, the other the next free
    assert len({g["link"] for g in got}) == 2
    for host in hosts:
        await host.close()
