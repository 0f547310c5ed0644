"""Issue 22, the lobby: public rooms listed from the store (so every process of a site lists
alike), one seat to one stranger however they race, Play now's computers who fill the empty
seats at the end of the countdown and give a seat back between deals, and the turn clock that
plays for a person out of time, from a deadline kept in the stored stream (a restart, a move
to another process). The hub runs on a loop whose clock and timers the test drives
(test_away_timer.Clock), and on a wall clock the test sets (``hub.lobby.now``)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import types

import httpx
import pytest

from tarocchi.server.app import assemble
from tarocchi.server.core.hub import Hub
from tarocchi.server.site import Site
from tarocchi.server.lobby import AT_THIS_TABLE, CLAIM_SECONDS, NO_FREE_SEAT, NOT_LISTED, TIME_BANK, Lobby
from tarocchi.server.core.messages import Act, Hello, Next, Public
from tarocchi.server.core.store import open_store
from tarocchi.server.core.tables import BETWEEN, ONLY_HOST_PUBLIC, PLAYING, WAITING, WATCH_SEAT, check_stream, replay
from tarocchi.server.watch import spectator_frame
from tests.server.live import running_server
from tests.server.seat import Seat
from tests.server.test_away_timer import Clock, Page

GAMES = ["sicilian", "renaissance", "calabresella", "ottocento"]
STRANGER = "203.0.113.2"  # a client address of the lobby's (documentation addresses: one per person)


def person(n: int) -> dict:
    """The headers of person ``n`` over HTTP: a client address of their own, as a trusted proxy
    forwards it (the test servers believe 127.0.0.1's X-Forwarded-For: tests/server/live.py)."""
    return {"X-Forwarded-For": f"203.0.113.{n}"}
FILL, CLOCK = 20.0, 30.0


class Tables:
    """A hub on the test's clocks (the loop's and the wall's, one time), on ``db``."""

    def __init__(self, db: str, clock: Clock, site=None):
        self.store = open_store(db)
        self.clock = clock
        # (no time bank: these tests are of the clock's own time; test_time_bank.py of the bank)
        self.hub = assemble(self.store, None, bot_delay=0.0, trick_pause=0.0, away_timeout=600, site=site, time_bank=0.0)
        self.hub.lobby.now = lambda: clock.now
        self.hub.start()

    def page(self, token: str) -> Page:
        page = Page(self.hub, token, self.clock)
        page.open()
        return page

    def token(self, link: str) -> str:
        return link.removeprefix("/t/")


async def settle(clock: Clock | None = None, to: float | None = None, rounds: int = 40) -> None:
    """Let the loop run what is ready, the bots' threads included (the fake clock lets no
    real time pass): a few turns, and a short real wait for each."""
    loop = asyncio.get_running_loop()
    for _ in range(rounds):
        if clock is not None and to is not None:
            clock.advance(to)
        await asyncio.sleep(0)
        await loop.run_in_executor(None, time.sleep, 0.002)


def kinds(store, table_id: str) -> list[str]:
    return [kind for _, kind, _ in store.events(table_id)]


async def until_state(check, clock: Clock, step: float = 0.0, tries: int = 3000) -> None:
    for _ in range(tries):
        if check():
            return
        await settle(clock, clock.now + step, rounds=1)
    raise AssertionError("timed out")


# --- listing ---------------------------------------------------------------------------------


def test_a_public_room_is_listed_until_it_starts_and_a_private_one_never(store_db, tmp_path):
    async def body():
        tables = Tables(store_db, Clock(asyncio.get_running_loop()))
        hub, lobby = tables.hub, tables.hub.lobby
        private, _ = hub.new_room(3, "sicilian")  # by link: never listed, and no seat of it handed out
        assert lobby.claim(private, 1, STRANGER) == NOT_LISTED
        table_id, tokens = lobby.new_room(3, "renaissance", public=True, clock=None)
        host = tables.page(tokens[0])
        await settle()
        listed = lobby.public_tables()
        assert [t["table"] for t in listed] == [table_id]
        (room,) = listed
        assert room["game"] == "renaissance" and room["seats"] == 3 and room["free"] == [1, 2]
        assert room["names"] == ["host", None, None] and room["clock"] == CLOCK and not room["quick"]
        assert lobby.public_tables("sicilian") == [] and len(lobby.public_tables("renaissance")) == 1
        # Another process on the same database lists it alike (the listing is in the store).
        other = open_store(store_db)
        assert [r["table"] for r in other.listings(None, CLAIM_SECONDS)] == [table_id]
        # A stranger takes a seat: it is his, listed as taken at once, and his link opens it.
        token, seat = lobby.claim(table_id, 2, STRANGER)
        assert seat == 2 and lobby.public_tables()[0]["free"] == [1]
        assert hub.store.seat_of(token) == (table_id, 2)
        stranger = tables.page(token)
        hub.handle(stranger.conn, Hello(since=0, name="Nino"))
        await settle()
        assert lobby.public_tables()[0]["names"] == ["host", None, "Nino"]
        token, seat = lobby.claim(table_id, None, "203.0.113.3")
        tables.page(token)
        await settle()
        assert host.conn.table.status == PLAYING
        assert lobby.public_tables() == [] and other.listings(None, CLAIM_SECONDS) == []
        other.close()
        tables.store.close()

    asyncio.run(body())


def test_the_host_lists_the_waiting_room_and_nobody_else_may(tmp_path):
    async def body():
        tables = Tables(str(tmp_path / "t.sqlite3"), Clock(asyncio.get_running_loop()))
        hub = tables.hub
        table_id, tokens = hub.new_room(3, "calabresella")
        host, guest = tables.page(tokens[0]), tables.page(tokens[1])
        refused = []
        guest.conn.send = refused.append
        hub.handle(guest.conn, Public(public=True))
        assert refused[-1]["reason"] == ONLY_HOST_PUBLIC and hub.lobby.public_tables() == []
        hub.handle(host.conn, Public(public=True))
        await settle()
        (room,) = hub.lobby.public_tables()
        assert room["free"] == [2] and room["clock"] == CLOCK  # a public table has a clock
        assert host.conn.table.clock == CLOCK
        hub.handle(host.conn, Public(public=False))
        await settle()
        assert hub.lobby.public_tables() == []
        # The events replay: the table as the stream leaves it is the table in memory.
        again = replay(table_id, tables.store.events(table_id))
        assert (again.public, again.clock) == (False, CLOCK)
        tables.store.close()

    asyncio.run(body())


def test_two_strangers_who_click_the_same_seat_at_once_get_one_seat_each(store_db):
    """Two processes (two stores on one database) claim seat 1 at the same moment, many
    times over: one gets it, the other the next free seat; a third finds none."""
    async def body():
        tables = Tables(store_db, Clock(asyncio.get_running_loop()))
        for round in range(8):  # (new people each round: one address holds few unopened seats)
            table_id, tokens = tables.hub.lobby.new_room(3, "sicilian", public=True, clock=None)
            tables.page(tokens[0])  # the host is there (a room nobody is at is not offered)
            stores = [open_store(store_db) for _ in range(2)]
            lobbies = [Lobby(types.SimpleNamespace(store=s, revoke=lambda table_id, seat: None)) for s in stores]  # each process's
            start, got = threading.Barrier(2), [None, None]

            def claim(i):
                start.wait()
                got[i] = lobbies[i].claim(table_id, 1, f"203.0.113.{3 * round + i + 1}")

            threads = [threading.Thread(target=claim, args=(i,)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(seat for _, seat in got) == [1, 2], got
            owners = {tables.store.seat_of(token) for token, _ in got}
            assert owners == {(table_id, 1), (table_id, 2)}
            assert tables.hub.lobby.claim(table_id, 1, f"203.0.113.{3 * round + 3}") == NO_FREE_SEAT
            for s in stores:
                s.close()
        tables.store.close()

    asyncio.run(body())


def test_a_seat_claimed_and_never_opened_is_free_again_with_a_new_link(tmp_path):
    async def body():
        tables = Tables(str(tmp_path / "t.sqlite3"), Clock(asyncio.get_running_loop()))
        lobby, store = tables.hub.lobby, tables.store
        table_id, tokens = lobby.new_room(3, "sicilian", public=True, clock=None)
        tables.page(tokens[0])
        first, _ = lobby.claim(table_id, 1, STRANGER)
        assert lobby.public_tables()[0]["free"] == [2]
        store.db.execute("UPDATE claims SET at = at - ? WHERE seat = 1", (CLAIM_SECONDS + 1,))
        assert lobby.public_tables()[0]["free"] == [1, 2]
        # (its claimer held that link: at the table, as a seat's opener is, never given a second seat)
        assert lobby.claim(table_id, 2, STRANGER) == AT_THIS_TABLE
        second, seat = lobby.claim(table_id, 1, "203.0.113.3")
        assert seat == 1 and store.seat_of(second) == (table_id, 1)
        assert store.seat_of(first) is None and store.seat_of(tokens[1]) is None  # the old links open nothing
        store.close()

    asyncio.run(body())


# --- Play now ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_play_now_fills_with_computers_after_the_wait_and_one_leaves_between_deals(tmp_path, game):
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(str(tmp_path / "t.sqlite3"), clock)
        hub, store = tables.hub, tables.store
        opened = clock.now
        table_id, token, seat, new = hub.lobby.play_now(game, "203.0.113.1")
        assert new and seat == 0
        first = tables.page(token)
        table = first.conn.table
        assert table.quick and table.public and table.clock == CLOCK and table.fill_at == opened + FILL
        summary = table.summary(0, [True] + [False] * (table.seats - 1))
        assert summary["fill_at"] == opened + FILL and summary["status"] == WAITING
        # Another Play now during the wait sits at the same table.
        again, token2, seat2, new2 = hub.lobby.play_now(game, "203.0.113.2")
        assert (again, seat2, new2) == (table_id, 1, False)
        second = tables.page(token2)
        await settle(clock, opened + FILL - 1)
        assert table.status == WAITING  # not before its time
        await settle(clock, opened + FILL + 0.1)
        assert table.status == PLAYING
        fills = [s for s in range(table.seats) if table.filled[s]]
        assert fills == list(range(2, table.seats))
        assert all(table.bots[s] == hub.standin_level(table.game) and table.standin[s] for s in fills)
        # No host at a Play now table: its people are players, its computers computers (issue 38).
        assert table.names[:2] == ["player 1", "player 2"] and [table.names[s] for s in fills] == [f"computer {s}" for s in fills]
        # Mid-deal a third person comes: a computer's seat is his, from the next deal.
        _, token3, seat3, new3 = hub.lobby.play_now(game, "203.0.113.3")
        assert not new3 and seat3 == 2
        third = tables.page(token3)
        await settle()
        assert table.arrived[2] and table.bots[2] is not None  # never mid-deal
        # The deal plays on: computers, and the clock for the people who do not act.
        deal = len(table.match.deals)
        await until_state(lambda: table.status != PLAYING or len(table.match.deals) > deal, clock, step=CLOCK / 3)
        await settle()
        assert table.status in (BETWEEN, PLAYING, "over")
        assert table.bots[2] is None and not table.filled[2] and not table.standin[2]
        assert table.names[2] == "player 3"  # theirs now: a player's name until they give one
        assert "arrive" in kinds(store, table_id) and kinds(store, table_id).count("fill") == len(fills)
        assert check_stream(table_id, store.events(table_id)) is None
        assert third.conn.seat == 2 and second.conn.seat == 1
        store.close()

    asyncio.run(body())


# --- the turn clock ----------------------------------------------------------------------------


def clocked_room(tables: Tables, seconds: int = 10, game: str = "sicilian") -> tuple[str, list[str], list[Page]]:
    table_id, tokens = tables.hub.lobby.new_room(3, game, public=False, clock=seconds)
    return table_id, tokens, [tables.page(t) for t in tokens]


def to_act(table) -> int:
    return table.deal.to_act


def test_the_clock_plays_for_a_person_out_of_time_and_not_before(tmp_path):
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(str(tmp_path / "t.sqlite3"), clock)
        table_id, tokens, pages = clocked_room(tables)
        await settle()
        table = pages[0].conn.table
        assert table.status == PLAYING and table.deadline() == table.turn_since + 10
        summary = table.summary(0, [True] * 3)["clock"]
        assert summary == {"seconds": 10, "seats": [to_act(table)], "deadline": table.deadline(), "bank": None,
                           "base": table.turn_since + 10}
        version, seat = table.version, to_act(table)
        await settle(clock, clock.now + 9)
        assert table.version == version  # in time: nothing
        await settle(clock, clock.now + 1.1)
        assert table.acted[seat] == 1 and table.version > version
        last = tables.store.events(table_id)[-1]
        ours = [d for _, k, d in tables.store.events(table_id) if k == "act" and d.get("clock")]
        assert ours and ours[0]["seat"] == seat and "at" in last[2]
        # Every screen is told the clock played it (issue 38): its event, in the public lines,
        # marked; the spectators' frame too.
        (said,) = [e for e in table.events_since(version) if e.get("clock")]
        assert said["seat"] == seat and said["type"] == "bid"
        spectator = json.loads(spectator_frame(table, None, version, [True] * 3))
        assert said in spectator["events"]
        # The next person's clock starts at the event that made it their turn.
        assert table.turn_since is not None and table.deadline() == table.turn_since + 10
        # A person who acts in time stops it: nothing is played for them.
        seat = to_act(table)
        await settle(clock, clock.now + 5)
        page = pages[[p.conn.seat for p in pages].index(seat)]
        choice = next(c["action"] for c in table.deal.view(seat)["choices"] if c["reason"] is None)
        tables.hub.handle(page.conn, Act(action=choice, id="in-time"))
        await settle(clock, clock.now + 6)
        mine = [d for _, k, d in tables.store.events(table_id) if k == "act" and d["seat"] == seat]
        assert [d.get("clock", False) for d in mine] == [False] and mine[0]["id"] == "in-time"
        tables.store.close()

    asyncio.run(body())


def test_a_room_by_link_has_no_clock_unless_its_host_set_one(tmp_path):
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(str(tmp_path / "t.sqlite3"), clock)
        table_id, tokens = tables.hub.new_room(3, "sicilian")
        pages = [tables.page(t) for t in tokens]
        await settle()
        table = pages[0].conn.table
        assert table.clock is None and table.deadline() is None and table.summary(0, [True] * 3)["clock"] is None
        version = table.version
        await settle(clock, clock.now + 3600)
        assert table.version == version
        assert all("at" not in d for _, _, d in tables.store.events(table_id))  # nothing new in its stream
        tables.store.close()

    asyncio.run(body())


def test_between_deals_the_clock_presses_next_deal_for_who_has_not(tmp_path):
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(str(tmp_path / "t.sqlite3"), clock)
        table_id, tokens, pages = clocked_room(tables, seconds=5)
        table = pages[0].conn.table
        await until_state(lambda: table.status == BETWEEN, clock, step=2)
        hub = tables.hub
        hub.handle(pages[0].conn, Next())
        await settle()
        assert table.clock_seats() == [1, 2]
        await settle(clock, clock.now + 6)
        assert table.status == PLAYING and len(table.match.deals) == 2
        pressed = [d["seat"] for _, k, d in tables.store.events(table_id) if k == "next" and d.get("clock")]
        assert pressed == [1, 2]
        said = [e for _, e in table.log if e["type"] == "clock"]
        assert said == [{"type": "clock", "seat": 1, "next": True}, {"type": "clock", "seat": 2, "next": True}]
        tables.store.close()

    asyncio.run(body())


def test_the_clock_survives_a_restart_its_deadline_from_the_stream(tmp_path):
    async def body():
        db = str(tmp_path / "t.sqlite3")
        clock = Clock(asyncio.get_running_loop())
        first = Tables(db, clock)
        table_id, tokens, pages = clocked_room(first, seconds=10)
        await settle()
        table = pages[0].conn.table
        deadline, seat, version = table.deadline(), to_act(table), table.version
        await first.hub.stop()
        first.store.close()
        clock.timers.clear()
        second = Tables(db, clock)
        again = second.hub.tables[table_id]
        assert again.deadline() == deadline and again.version == version  # from the stored "at"
        second.page(tokens[(seat + 1) % 3])  # somebody is at the table
        await settle(clock, deadline - 0.5)
        assert again.version == version
        await settle(clock, deadline + 0.1)
        assert again.acted[seat] == 1
        second.store.close()

    asyncio.run(body())


def test_the_clock_fires_on_the_process_that_takes_the_table_over(tmp_path):
    """A site of two: the table's owner lets it go (stops); the other takes it over from the
    store and its clock runs out there, at the deadline the stream says."""
    async def body():
        db = str(tmp_path / "site.sqlite3")
        clock = Clock(asyncio.get_running_loop())
        a = Tables(db, clock, site=Site(None, "A", lease=5.0))  # (their buses not started: the leases alone)
        table_id, tokens, pages = clocked_room(a, seconds=10, game="renaissance")
        await settle()
        table = pages[0].conn.table
        deadline, seat = table.deadline(), to_act(table)
        b = Tables(db, clock, site=Site(None, "B", lease=5.0))
        assert table_id not in b.hub.tables  # A drives it
        await a.hub.stop()
        await b.hub.site.take_orphans()
        moved = b.hub.tables[table_id]
        assert moved.deadline() == deadline
        b.page(tokens[(seat + 1) % 3])
        await settle(clock, deadline + 0.1)
        assert moved.acted[seat] == 1
        assert [d["seat"] for _, k, d in b.store.events(table_id) if k == "act" and d.get("clock")] == [seat]
        a.store.close()
        b.store.close()

    asyncio.run(body())


def test_an_older_stream_replays_as_it_did(tmp_path):
    """Records written before the lobby (no public, clock, at): the table they make has none
    of it, and the summary the seats get differs only by the new fields' defaults."""
    events = [(1, "created", {"game": "sicilian", "kind": "room", "seats": 3, "names": ["host", "guest 1", "guest 2"],
                              "bots": [None, None, None]}),
              (2, "join", {"seat": 0}), (3, "join", {"seat": 1}), (4, "join", {"seat": 2}),
              (5, "match", {"first_dealer": 1})]
    table = replay("old", events)
    assert (table.public, table.quick, table.clock, table.fill_at, table.turn_since) == (False, False, None, None, None)
    summary = table.summary(0, [True] * 3)
    assert summary["clock"] is None and summary["public"] is False and summary["filled"] == [False] * 3


# --- HTTP ----------------------------------------------------------------------------------------


def test_the_lobby_routes_and_their_budget():
    async def body(server):
        base = server.url
        r = httpx.post(f"{base}/api/rooms", json={"game": "calabresella", "seats": 3, "public": True})
        assert r.status_code == 200
        table_id = r.json()["table"]
        assert httpx.get(f"{base}/api/public").json()["tables"] == []  # nobody there yet
        host = await Seat.open(server.ws_url, r.json()["links"][0].removeprefix("/t/"))
        listed = httpx.get(f"{base}/api/public").json()["tables"]
        assert [t["table"] for t in listed] == [table_id] and listed[0]["free"] == [1, 2]
        first = httpx.post(f"{base}/api/public/{table_id}/seat", json={"seat": 1}, headers=person(1)).json()
        assert first["seat"] == 1 and first["link"].startswith("/t/") and "taken" not in first
        late = httpx.post(f"{base}/api/public/{table_id}/seat", json={"seat": 1}, headers=person(2)).json()
        assert late["seat"] == 2 and late["taken"] == "that seat was just taken"
        full = httpx.post(f"{base}/api/public/{table_id}/seat", json={"seat": 1}, headers=person(3))
        assert full.status_code == 409 and full.json()["error"] == NO_FREE_SEAT
        # This address asked twice (the seats were asked by others, each with a budget of its own):
        codes = [httpx.get(f"{base}/api/public").status_code for _ in range(3)]
        assert codes == [200] * 3  # the fifth: the burst's last
        over = httpx.get(f"{base}/api/public")
        assert over.status_code == 429 and "too many lobby requests" in over.json()["error"]
        assert httpx.get(f"{base}/api/public", headers=person(1)).status_code == 200  # another's is its own
        assert httpx.post(f"{base}/api/rooms", json={"seats": 3, "clock": 2}).status_code == 400  # 5 s at least
        await host.close()

    with running_server(lobby=(5, 0.01)) as server:
        asyncio.run(body(server))


def test_every_state_frame_says_the_servers_time_as_it_leaves_a_kept_frame_too():
    """A page counts the deadlines (``clock.deadline``, ``fill_at``) down against the server's
    clock, not its own: every state frame, to a seat or a spectator, carries ``now``, the
    server's wall clock when it was sent, even a frame encoded once and kept for the version."""

    async def body(server):
        r = httpx.post(f"{server.url}/api/rooms", json={"seats": 3, "clock": 15})
        tokens = [link.removeprefix("/t/") for link in r.json()["links"]]
        host = await Seat.open(server.ws_url, tokens[0])
        first, version = host.state["now"], host.state["version"]
        assert abs(first - time.time()) < 2
        watch = host.state["table"]["watch"].removeprefix("/w/")
        await host.close()
        await asyncio.sleep(1.2)
        again = await Seat.open(server.ws_url, tokens[0])  # the same version: the kept frame
        assert again.state["version"] == version and again.state["now"] >= first + 1.1
        assert abs(again.state["now"] - time.time()) < 2
        spectator = await Seat.open(server.ws_url, watch)
        assert abs(spectator.state["now"] - time.time()) < 2
        # Once the seats are taken the clock runs: its deadline is the server's now plus the turn
        # (its own 15 s, then the seat's time bank, issue 41).
        guests = [await Seat.open(server.ws_url, t) for t in tokens[1:]]
        playing = await again.wait_state(lambda st: st["table"]["status"] == "playing")
        clock = playing["table"]["clock"]
        assert 13 < clock["base"] - playing["now"] <= 15
        assert clock["deadline"] - clock["base"] == clock["bank"][0] == TIME_BANK
        for s in (again, spectator, *guests):
            await s.close()

    with running_server(time_bank=TIME_BANK) as server:
        asyncio.run(body(server))


def test_play_now_over_http_opens_then_seats():
    async def body(server):
        base = server.url
        opened = httpx.post(f"{base}/api/play-now", json={"game": "ottocento"}, headers=person(1)).json()
        assert opened["new"] and opened["seat"] == 0
        opener = await Seat.open(server.ws_url, opened["link"].removeprefix("/t/"))
        joined = httpx.post(f"{base}/api/play-now", json={"game": "ottocento"}, headers=person(2)).json()
        assert joined["table"] == opened["table"] and joined["seat"] == 1 and not joined["new"]
        assert httpx.post(f"{base}/api/play-now", json={"game": "scopa"}).status_code == 400
        await opener.close()

    with running_server() as server:
        asyncio.run(body(server))


# --- a site of two processes ---------------------------------------------------------------------

from tests.server.test_site import redis  # noqa: E402,F401  (the fixture: a Redis for the bus)


def test_two_processes_list_alike_seat_across_and_share_the_lobby_budget(redis, tmp_path):  # noqa: F811
    """A public room made on A (A drives it) is listed by B; a seat taken through B opens on
    A's table; Play now on B seats the next person there; and an address's lobby budget is the
    site's, not each process's."""
    import asyncio as _asyncio

    db = str(tmp_path / "site.sqlite3")

    async def body(a, b):
        made = httpx.post(f"{a.url}/api/rooms", json={"game": "renaissance", "seats": 3, "public": True}).json()
        host = await Seat.open(a.ws_url, made["links"][0].removeprefix("/t/"))
        (listed,) = httpx.get(f"{b.url}/api/public").json()["tables"]
        assert listed["table"] == made["table"] and listed["free"] == [1, 2]
        taken = httpx.post(f"{b.url}/api/public/{made['table']}/seat", json={"seat": 2}, headers=person(2)).json()
        guest = await Seat.open(b.ws_url, taken["link"].removeprefix("/t/"))  # relayed to A
        await host.wait_state(lambda st: st["table"]["joined"] == [True, False, True])
        now = httpx.post(f"{b.url}/api/play-now", json={"game": "renaissance"}, headers=person(3)).json()
        assert (now["table"], now["seat"], now["new"]) == (made["table"], 1, False)
        last = await Seat.open(b.ws_url, now["link"].removeprefix("/t/"))
        for seat in (host, guest, last):
            await seat.wait_state(lambda st: st["table"]["status"] == "playing")
        assert httpx.get(f"{a.url}/api/public").json()["tables"] == []
        for seat in (host, guest, last):
            await seat.close()

    with running_server(db, bus=redis.url, process="A", lease=2.0, lobby=(8, 0.001)) as a, \
            running_server(db, bus=redis.url, process="B", lease=2.0, lobby=(8, 0.001)) as b:
        _asyncio.run(body(a, b))  # 2 lobby requests of this address's 8 (the seat and Play now were others')
        codes = [httpx.get(f"{server.url}/api/public").status_code for server in (a, b, a, b, a, b, a, b)]
    assert codes == [200, 200, 200, 200, 200, 200, 429, 429]


# --- invariants ------------------------------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

STEPS = st.lists(st.one_of(
    st.tuples(st.just("wait"), st.integers(1, 60)),  # seconds pass (the fill, the clocks)
    st.tuples(st.just("play"), st.integers(0, 3)),  # a person at the table acts in time, if it is their turn
    st.tuples(st.just("come"), st.integers(0, 3)),  # Play now: someone comes (a seat a computer holds, or waits)
    st.tuples(st.just("leave"), st.integers(0, 3)),  # a page goes away
), min_size=3, max_size=20)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(GAMES), steps=STEPS)
def test_whatever_happens_the_stream_replays_to_the_table_in_memory(tmp_path_factory, game, steps):
    """Play now tables under any order of arrivals, departures, actions and time: after each
    step the stored stream replays to the very table in memory (its clock's deadline, who fills
    and who came for which seat, every seat's summary), no seat is handed to two, and a computer
    never gives up a seat mid-deal."""
    db = str(tmp_path_factory.mktemp("prop") / "t.sqlite3")

    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(db, clock)
        hub, store = tables.hub, tables.store
        hub.lobby.clock_seconds = 2.0  # (short turns: deals end within the steps)
        table_id, token, _, _ = hub.lobby.play_now(game, "203.0.113.1")
        pages = {0: tables.page(token)}
        table = hub.tables[table_id]
        comers = iter(range(2, 255))
        for what, arg in steps:
            deals_before, arrived_before = len(table.match.deals) if table.match else 0, list(table.arrived)
            if what == "wait":
                for _ in range(int(arg)):
                    await settle(clock, clock.now + 1.0, rounds=2)
            elif what == "play" and table.status == PLAYING and table.deal.to_act in pages \
                    and table.bots[table.deal.to_act] is None:
                seat = table.deal.to_act
                choice = next(c["action"] for c in table.deal.view(seat)["choices"] if c["reason"] is None)
                if table.deal.view(seat)["phase"] not in ("discard",) and " " not in choice:
                    hub.handle(pages[seat].conn, Act(action=choice, id=f"p{table.version}"))
            elif what == "come":
                found = hub.lobby.play_now(game, f"198.51.100.{next(comers)}")  # each comer a person of their own
                if found[0] == table_id and found[2] not in pages:
                    pages[found[2]] = tables.page(found[1])
            elif what == "leave" and arg in pages and len(pages) > 1:
                pages.pop(arg).close()
            await settle(rounds=2)
            if table.match and len(table.match.deals) == deals_before and table.status == PLAYING:
                # mid-deal, nobody took a computer's seat
                assert all(table.bots[s] is not None for s in range(table.seats) if arrived_before[s])
            again = replay(table_id, store.events(table_id))
            connected = hub.connected(table)
            for s in range(table.seats):
                assert again.summary(s, connected) == table.summary(s, connected)
            assert again.deadline() == table.deadline()
            seats = [row[0] for row in store.db.execute("SELECT seat FROM seats WHERE table_id = ?", (table_id,))]
            # One link per seat, never two; and the table's one watch link (watch.py).
            assert sorted(s for s in seats if s != WATCH_SEAT) == list(range(table.seats)) and seats.count(WATCH_SEAT) == 1
        await hub.stop()
        store.close()

    asyncio.run(body())


def test_one_who_came_for_a_computers_seat_and_left_finds_it_kept(tmp_path):
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(str(tmp_path / "t.sqlite3"), clock)
        hub = tables.hub
        hub.lobby.clock_seconds = 2.0
        table_id, token, _, _ = hub.lobby.play_now("sicilian", "203.0.113.1")
        tables.page(token)
        await settle(clock, clock.now + FILL + 0.1)
        table = hub.tables[table_id]
        _, token2, seat, _ = hub.lobby.play_now("sicilian", "203.0.113.2")
        came = tables.page(token2)
        await settle()
        assert table.arrived[seat]
        came.close()
        await until_state(lambda: table.status != PLAYING, clock, step=1.0)
        assert table.arrived[seat] and table.bots[seat] is not None  # kept for him, the computer plays it
        other = hub.lobby.play_now("sicilian", "203.0.113.3")
        assert (other[0], other[2]) != (table_id, seat)  # not handed to another
        again = tables.page(token2)
        await settle()
        assert table.bots[seat] is None or (table.status == PLAYING and table.arrived[seat])
        assert again.conn.seat == seat
        tables.store.close()

    asyncio.run(body())


@pytest.mark.slow
def test_on_a_site_the_clock_runs_out_on_the_process_that_takes_the_table(redis, tmp_path):  # noqa: F811
    """A room with a clock driven by A, its seats relayed by B; A stops (its leases go): B takes
    the table from the store, the pages reconnect to B, and the clock runs out there at the
    deadline the stream says."""
    db = str(tmp_path / "site.sqlite3")

    async def body():
        with running_server(db, bus=redis.url, process="B", lease=1.0) as b:
            with running_server(db, bus=redis.url, process="A", lease=1.0) as a:
                made = httpx.post(f"{a.url}/api/rooms", json={"game": "sicilian", "seats": 3, "clock": 6}).json()
                tokens = [link.removeprefix("/t/") for link in made["links"]]
                seats = [await Seat.open(b.ws_url, t) for t in tokens]
                state = await seats[0].wait_state(lambda st: st["table"]["status"] == "playing")
                deadline = state["table"]["clock"]["deadline"]
                (late,) = state["table"]["clock"]["seats"]
                acted = state["acted"][late]
            assert time.time() < deadline - 1, "A stopped before the deadline"
            again = [await Seat.open(b.ws_url, t) for t in tokens]  # B drives it now
            moved = await again[0].wait_state(lambda st: st["acted"][late] > acted, timeout=15)
            assert time.time() >= deadline - 0.1  # not before its time
            assert moved["table"]["clock"]["seats"] != [late] or moved["table"]["clock"]["deadline"] != deadline
            store = open_store(db)
            events = store.events(made["table"])
            store.close()
            assert [d["seat"] for _, k, d in events if k == "act" and d.get("clock")][:1] == [late]
            for s in seats + again:
                await s.close()

    asyncio.run(body())
