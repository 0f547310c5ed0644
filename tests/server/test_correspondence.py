"""Tables by correspondence (issue 41): days a move, for signed-in players; out of memory while
nobody has them open (asleep in the store, with when to wake), their clock played by the
computer when it runs out with nobody there, awake again when a link is opened."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tarocchi.server.app import assemble
from tarocchi.server.core.hub import Chance
from tarocchi.server.core.messages import Budget
from tarocchi.server.core.sockets import serve_socket
from tarocchi.server.lobby import DAY, SIGN_IN_FOR_CORRESPONDENCE
from tests.server.fake import RecordingStore, Socket, until
from tests.server.live import running_server
from tests.server.test_public import person

START = 1_800_000_000.0  # the test's wall clock


def asleep(store, table_id: str) -> float | None | bool:
    """When the table wakes, if it sleeps (None: when opened); False if it is awake."""
    with store.people.read() as tx:
        rows = tx.run("SELECT wake_at FROM sleeping WHERE table_id = %s", (table_id,))
    return rows[0][0] if rows else False


def test_a_table_by_correspondence_sleeps_between_moves_and_its_clock_plays_with_nobody_there(store_db):
    async def body():
        store = RecordingStore(store_db)
        hub = assemble(store, ThreadPoolExecutor(1), bot_delay=0.0, trick_pause=0.0,
                       chance=Chance(random.Random(3)), wake_every=0.02)
        wall = [START]
        hub.lobby.now = lambda: wall[0]
        hub.start()
        table_id, tokens = hub.lobby.new_room(3, "calabresella", public=False, clock=None, correspondence=2)
        table = hub.tables[table_id]
        assert table.correspondence == 2 and table.clock == 2 * DAY
        sockets = [Socket(store, random.Random(1)) for _ in tokens]
        tasks = []
        for s, token in zip(sockets, tokens):
            s.playing = False
            tasks.append(asyncio.create_task(serve_socket(hub, s, token, Budget(10_000, 10_000.0))))
            s.say({"type": "hello", "since": 0})
        await until(lambda: sockets[0].frames and sockets[0].state["table"]["status"] == "playing")
        deadline = table.deadline()
        assert deadline == pytest.approx(START + 2 * DAY, abs=1)
        assert sockets[0].state["table"]["correspondence"] == 2
        # Everyone goes: the table leaves memory, asleep until its clock runs out.
        for s in sockets:
            s.leave()
        await asyncio.gather(*tasks)
        await until(lambda: table_id not in hub.tables)
        assert asleep(store, table_id) == pytest.approx(deadline)
        acted = len([e for e in store.events(table_id) if e[1] == "act"])
        # Two days pass with nobody there: it wakes, the computer plays that turn, and it
        # sleeps again until the next turn's clock runs out.
        wall[0] = deadline + 1
        await until(lambda: len([e for e in store.events(table_id) if e[1] == "act"]) > acted)
        played = [d for _, kind, d in store.events(table_id) if kind == "act"][-1]
        assert played["clock"] is True
        await until(lambda: table_id not in hub.tables and asleep(store, table_id))
        assert asleep(store, table_id) == pytest.approx(deadline + 1 + 2 * DAY, abs=1)
        # A server started meanwhile does not load it; a link opened wakes it.
        await hub.stop()
        again = assemble(store, ThreadPoolExecutor(1), bot_delay=0.0, trick_pause=0.0, wake_every=0.02)
        again.lobby.now = lambda: wall[0]
        again.start()
        assert table_id not in again.tables
        s = Socket(store, random.Random(2))
        s.playing = False
        task = asyncio.create_task(serve_socket(again, s, tokens[1], Budget(10_000, 10_000.0)))
        s.say({"type": "hello", "since": 0})
        await until(lambda: s.frames and s.state["type"] == "state")
        assert table_id in again.tables and asleep(store, table_id) is False
        s.leave()
        await task
        await until(lambda: table_id not in again.tables)
        await again.stop()
        store.close()

    asyncio.run(body())


def test_a_table_by_correspondence_is_for_signed_in_players():
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as host, \
            httpx.Client(base_url=server.url, headers=person(2)) as stranger:
        ask = {"seats": 3, "game": "renaissance", "correspondence": 3, "public": True}
        r = host.post("/api/rooms", json=ask)
        assert (r.status_code, r.json()) == (401, {"error": SIGN_IN_FOR_CORRESPONDENCE})
        assert host.post("/api/rooms", json=ask | {"correspondence": 5}).status_code == 400  # 1, 2, 3 or 7 days
        host.post("/api/account", json={"name": "Anna", "password": "segreto123"})
        made = host.post("/api/rooms", json=ask).json()
        assert host.get("/api/me/seats").json() == {"links": made["links"][:1]}  # the host's seat is Anna's
        listed = [t for t in host.get("/api/public").json()["tables"] if t["table"] == made["table"]]
        assert listed and listed[0]["correspondence"] == 3 and listed[0]["clock"] == 3 * DAY
        seat = f"/api/public/{made['table']}/seat"
        r = stranger.post(seat, json={"seat": None})
        assert (r.status_code, r.json()) == (401, {"error": SIGN_IN_FOR_CORRESPONDENCE})
        stranger.post("/api/account", json={"name": "Bruno", "password": "segreto123"})
        taken = stranger.post(seat, json={"seat": None}).json()
        assert stranger.get("/api/me/seats").json() == {"links": [taken["link"]]}  # Bruno's at once
        # Play now never seats anyone at a table that waits days.
        now = stranger.post("/api/play-now", json={"game": "renaissance"}).json()
        assert now["table"] != made["table"]


async def play_what_is_theirs(page, player, leave=None) -> int:
    """What a seat's page shows as theirs, the player plays there and then (a trick won leads
    the next, their own card ending a deal asks for their Next deal: nobody is told of what
    they are looking at); how many moves. ``leave(state)``: a turn left unplayed (the page is
    still the seat's to act when this returns)."""
    moves = 0
    while True:
        table = page.state["table"]
        if page.my_turn():
            if leave is not None and leave(page.state):
                return moves
            await page.act(player(page.view))
            moves += 1
        elif table["status"] == "between" and not table["ready"][table["you"]]:
            await page.send({"type": "next"})
        else:
            return moves
        await page.wait_state(lambda st, v=page.version: st["version"] > v)


def test_a_renaissance_match_by_correspondence_is_played_to_its_end_each_move_prompted_by_a_push():
    """Three signed-in players, a Renaissance room by correspondence (A16: a deal for each seat),
    nobody's page open between moves: each move is made by opening the link a push message
    brought (a page of its own, closed again), the player's own choice from its own view; each
    deal's Next deal likewise. The match ends, and every player is told so."""
    from tarocchi.bots import make_player
    from tests.push_service import PushService
    from tests.server.seat import Seat

    async def body(server, service):
        browsers = [service.browser() for _ in range(3)]
        clients = [httpx.Client(base_url=server.url, headers=person(n + 1)) for n in range(3)]
        for n, (client, browser) in enumerate(zip(clients, browsers)):
            assert client.post("/api/account", json={"name": f"Giocatore{n}", "password": "segreto123"}).status_code == 201
            assert client.post("/api/push", json=browser.subscription).status_code == 204
        made = clients[0].post("/api/rooms", json={"seats": 3, "game": "renaissance", "correspondence": 1}).json()
        for client, link in zip(clients[1:], made["links"][1:]):
            assert client.post("/api/me/seats", json={"links": [link]}).json()["held"] == [link]
        players = [make_player("rule", n, "renaissance") for n in range(3)]
        for client, link in zip(clients, made["links"]):  # everyone sits down once, signed in (issue 56: the
            # seat's account is the one that opened it); the last one's hello starts the match
            cookie = {"Cookie": f"tarocchi_session={client.cookies['tarocchi_session']}"}
            seat = await Seat.open(server.ws_url, link.removeprefix("/t/"), headers=cookie)
            await seat.close()
        handled, moves, looked = 0, 0, False
        while True:
            try:
                message = service.wait(lambda m: service.messages.index(m) >= handled, timeout=3)
            except AssertionError:
                # No news: the first turn was the last seat's, who was at the table as it began
                # (told on the screen, not by a push); that once, they play it from the table.
                assert not looked, "a turn nobody was told of"
                looked = True
                for n, link in enumerate(made["links"]):
                    page = await Seat.open(server.ws_url, link.removeprefix("/t/"))
                    if page.my_turn():
                        await page.act(players[n](page.view))
                        await page.wait_state(lambda st, v=page.version: st["version"] > v)
                        moves += 1
                    await page.close()
                continue
            handled = service.messages.index(message) + 1
            if message["what"] == "ended":
                break
            if message["what"] not in ("turn", "counted"):
                continue
            n = next(i for i, b in enumerate(browsers) if message["browser"] in b.endpoint)
            page = await Seat.open(server.ws_url, message["url"].removeprefix("/t/"))
            if message["what"] == "turn":
                assert page.my_turn(), message
            moves += await play_what_is_theirs(page, players[n])
            await page.close()
        # Every player is told the match is over (but the one whose own card ended it, looking at
        # it); its record is there, with each seat's account.
        await asyncio.sleep(0.5)
        told = {m["browser"] for m in service.messages if m["what"] == "ended"}
        assert len(told) >= 2
        profile = clients[1].get("/api/players/Giocatore1").json()
        assert profile["matches"][0]["game"] == "renaissance" and moves > 60
        for client in clients:
            client.close()

    with PushService() as service, running_server(push_hosts=(service.origin,)) as server:
        asyncio.run(body(server, service))
