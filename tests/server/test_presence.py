"""Issue 38 on the server: the lobby knows who is here. A public room whose seated people have
all gone is neither listed nor chosen by Play now (on a site of two processes too), and the
listing says who of the seated is away; the lobby counts the people playing each game now; a
browser's seat links say what they open now ("Your tables", the host's live links), and a
link tells only what its seat already knows."""

from __future__ import annotations

import asyncio
import itertools

import httpx
import pytest

from tests.server.fake import until as wait_until
from tests.server.live import running_server
from tests.server.seat import Seat
from tests.server.test_public import person
from tests.server.test_site import redis  # noqa: F401  (the fixture: a Redis for the bus)


def until(check, seconds: float = 10.0):
    """``fake.until``, asking every 50 ms: each check asks the server over HTTP."""
    return wait_until(check, seconds, every=0.05)


LOOKERS = itertools.cycle(range(150, 250))  # the lobby's readers: each its own budget


def listed(server) -> list[dict]:
    return httpx.get(f"{server.url}/api/public", headers=person(next(LOOKERS))).json()["tables"]


async def a_host_leaves(a, b) -> None:
    """A room made and opened on ``a``; the lobby read on ``b``."""
    made = httpx.post(f"{a.url}/api/rooms", json={"game": "sicilian", "seats": 3, "public": True},
                      headers=person(1)).json()
    host = await Seat.open(a.ws_url, made["links"][0].removeprefix("/t/"))
    await until(lambda: [t["table"] for t in listed(b)] == [made["table"]])
    guest_link = httpx.post(f"{b.url}/api/public/{made['table']}/seat", json={"seat": 1}, headers=person(2)).json()["link"]
    guest = await Seat.open(b.ws_url, guest_link.removeprefix("/t/"))
    await until(lambda: listed(b) and listed(b)[0]["present"] == [True, True, False])
    await host.close()  # the host goes: the guest is still there, and the lobby says who is away
    await until(lambda: listed(b) and listed(b)[0]["present"] == [False, True, False])
    state = await guest.wait_state(lambda st: st["table"]["connected"] == [False, True, False])
    assert state["table"]["joined"] == [True, True, False]
    await guest.close()  # nobody left: not listed, not chosen, no seat of it handed out
    await until(lambda: listed(b) == [])
    now = httpx.post(f"{b.url}/api/play-now", json={"game": "sicilian"}, headers=person(3)).json()
    assert now["table"] != made["table"] and now["new"]
    r = httpx.post(f"{b.url}/api/public/{made['table']}/seat", json={"seat": 2}, headers=person(4))
    assert r.status_code == 409 and r.json()["error"] == "nobody is at this table now"
    back = await Seat.open(a.ws_url, guest_link.removeprefix("/t/"))  # one comes back: offered again
    await until(lambda: [t["table"] for t in listed(b)] == [made["table"]])
    await back.close()


def test_a_room_whose_people_all_left_is_not_offered():
    with running_server() as server:
        asyncio.run(a_host_leaves(server, server))


def test_on_a_site_every_process_knows_who_is_here(redis, tmp_path):  # noqa: F811
    db = str(tmp_path / "site.sqlite3")
    with running_server(db, bus=redis.url, process="A", lease=2.0) as a, \
            running_server(db, bus=redis.url, process="B", lease=2.0) as b:
        asyncio.run(a_host_leaves(a, b))


@pytest.mark.slow
def test_the_lobby_counts_the_people_playing_each_game_on_the_whole_site(redis, tmp_path):  # noqa: F811
    """Two people at a Calabresella table driven by A (one of them relayed by B), one at a
    Renaissance computer table on B: both processes' lobbies say so (B's own count at once,
    A's within its period); a spectator is not counted, and one who leaves is not any more."""
    db = str(tmp_path / "site.sqlite3")

    async def body(a, b):
        def playing(server) -> dict:
            return httpx.get(f"{server.url}/api/public", headers=person(next(LOOKERS))).json()["playing"]

        made = httpx.post(f"{a.url}/api/rooms", json={"game": "calabresella", "seats": 3}).json()
        one = await Seat.open(a.ws_url, made["links"][0].removeprefix("/t/"))
        two = await Seat.open(b.ws_url, made["links"][1].removeprefix("/t/"))
        solo = httpx.post(f"{b.url}/api/computer", json={"game": "renaissance", "seats": 3}).json()
        three = await Seat.open(b.ws_url, solo["link"].removeprefix("/t/"))
        watch = one.state["table"]["watch"].removeprefix("/w/")
        spectator = await Seat.open(b.ws_url, watch)
        for server in (a, b):
            await until(lambda: playing(server) == {"calabresella": 2, "renaissance": 1}, seconds=15)
        await two.close()
        for server in (a, b):
            await until(lambda: playing(server) == {"calabresella": 1, "renaissance": 1}, seconds=15)
        for s in (one, three, spectator):
            await s.close()

    with running_server(db, bus=redis.url, process="A", lease=2.0) as a, \
            running_server(db, bus=redis.url, process="B", lease=2.0) as b:
        asyncio.run(body(a, b))


def test_a_browsers_seat_links_say_what_they_open_now_and_nothing_more():
    """``POST /api/my-tables``: for each seat link, its table, game, seat, state and whose turn
    (``yours`` where it is that seat's); a link handed to a stranger since, an unknown link or
    a watch link: ``gone``, nothing else. At most 20 links; the lobby's budget."""
    async def body(server):
        made = httpx.post(f"{server.url}/api/rooms", json={"game": "sicilian", "seats": 3, "public": True},
                          headers=person(1)).json()
        links = made["links"]
        host = await Seat.open(server.ws_url, links[0].removeprefix("/t/"))
        taken = httpx.post(f"{server.url}/api/public/{made['table']}/seat", json={"seat": 1}, headers=person(2)).json()
        solo = httpx.post(f"{server.url}/api/computer", json={"game": "renaissance", "seats": 3, "level": "rule"}).json()
        player = await Seat.open(server.ws_url, solo["link"].removeprefix("/t/"))
        state = await player.wait_state(lambda st: st["view"] and st["view"]["turn"] == 0)
        watch = f"/w/{host.state['table']['watch'].removeprefix('/w/')}"
        asked = [links[0], links[1], links[2], solo["link"], watch, "/t/nothing-here"]
        answers = httpx.post(f"{server.url}/api/my-tables", json={"links": asked}).json()["tables"]
        assert [a["link"] for a in answers] == asked
        mine, old, guest, computer, watching, unknown = answers
        assert (mine["table"], mine["game"], mine["seat"], mine["status"], mine["yours"]) == \
            (made["table"], "sicilian", 0, "waiting", False)
        assert old == {"link": links[1], "gone": True}  # the seat went to the stranger from the lobby
        assert guest["seat"] == 2 and guest["names"] == mine["names"]
        assert watching == {"link": watch, "gone": True} and unknown == {"link": "/t/nothing-here", "gone": True}
        assert (computer["status"], computer["turn"], computer["yours"]) == ("playing", 0, True)
        assert computer["deal"] == state["table"]["deal_number"] == 1
        assert set(computer) == {"link", "table", "game", "kind", "seats", "seat", "status", "names", "turn", "yours", "deal",
                                 "deadline"}  # (when the turn clock plays: issue 57)
        # (the stranger's new link is theirs: it answers as a seat, the one they took)
        (theirs,) = httpx.post(f"{server.url}/api/my-tables", json={"links": [taken["link"]]}).json()["tables"]
        assert theirs["seat"] == 1
        too_many = httpx.post(f"{server.url}/api/my-tables", json={"links": [links[0]] * 21})
        assert too_many.status_code == 400
        for s in (host, player):
            await s.close()

    with running_server() as server:
        asyncio.run(body(server))


def test_a_table_not_in_this_processs_memory_answers_from_its_stream(tmp_path):
    """A seat link of a table another process drives, or one that waits in the store (after a
    restart): its summary comes from the stored stream."""
    db = str(tmp_path / "t.sqlite3")

    async def play(server) -> dict:
        solo = httpx.post(f"{server.url}/api/computer", json={"game": "calabresella", "seats": 3}).json()
        seat = await Seat.open(server.ws_url, solo["link"].removeprefix("/t/"))
        await seat.wait_state(lambda st: st["view"] is not None)
        await seat.close()
        return solo

    with running_server(db) as server:
        solo = asyncio.run(play(server))
    with running_server(db) as again:  # a new process: the table waits in the store
        (row,) = httpx.post(f"{again.url}/api/my-tables", json={"links": [solo["link"]]}).json()["tables"]
        assert row["game"] == "calabresella" and row["seat"] == 0 and row["status"] == "playing"
