"""Friends, challenges, blocks and the bell (issue 58): every route as a stranger, as another
account, with a block, past its budget, with a bad body; on both stores, and a challenge made on
one process of a site and accepted on the other."""

from __future__ import annotations

import asyncio
import concurrent.futures

import httpx
import pytest

from tarocchi.server.core.sessions import COOKIE
from tarocchi.server.core.store import open_store
from tarocchi.server.core.store.people import Ended, Player
from tarocchi.server.social import (
    CANNOT_CHALLENGE, CHALLENGES_PER_ACCOUNT, FOLLOWS_PER_ACCOUNT, NO_SUCH_CHALLENGE, NO_SUCH_ITEM, SIGNED_OUT,
    TOO_MANY_CHALLENGES, TOO_MANY_FOLLOWS,
)
from tests.redis_server import RedisServer
from tests.server.live import running_server
from tests.server.seat import Seat
from tests.server.test_public import person


def sign_up(server, n: int, name: str) -> httpx.Client:
    """Person ``n`` (an address of their own) signs up as ``name``: their signed-in client."""
    client = httpx.Client(base_url=server.url, headers=person(n), timeout=30)
    r = client.post("/api/account", json={"name": name, "password": "segreto123"})
    assert r.status_code == 201, r.text
    return client


def on(server, client: httpx.Client, n: int) -> httpx.Client:
    """The same session (its cookie) on another server of the site."""
    return httpx.Client(base_url=server.url, headers=person(n), cookies={COOKIE: client.cookies[COOKIE]}, timeout=30)


ROUTES = [("GET", "/api/me/friends", None), ("POST", "/api/me/friends", {"name": "Anna"}),
          ("DELETE", "/api/me/friends", {"name": "Anna"}), ("GET", "/api/me/blocks", None),
          ("POST", "/api/me/blocks", {"name": "Anna"}), ("DELETE", "/api/me/blocks", {"name": "Anna"}),
          ("POST", "/api/challenges", {"to": ["Anna"]}), ("GET", "/api/me/challenges", None),
          ("POST", "/api/challenges/x/accept", None), ("POST", "/api/challenges/x/decline", None),
          ("POST", "/api/challenges/x/cancel", None), ("GET", "/api/me/bell", None),
          ("POST", "/api/me/bell/read", {"upto": "x"})]


def test_every_route_answers_a_stranger_401_and_changes_nothing():
    with running_server() as server:
        anna = sign_up(server, 1, "Anna")
        with httpx.Client(base_url=server.url, headers=person(9)) as stranger:
            for method, path, body in ROUTES:
                r = stranger.request(method, path, json=body)
                assert (r.status_code, r.json()) == (401, {"error": SIGNED_OUT}), (method, path)
            # (a cookie made up is no session either)
            stranger.cookies.set(COOKIE, "made-up")
            assert stranger.post("/api/challenges", json={"to": ["Anna"]}).status_code == 401
        assert anna.get("/api/me/bell").json() == {"items": [], "unread": 0}
        assert anna.get("/api/me/challenges").json() == {"challenges": []}


def test_a_challenge_accepted_twice_at_once_makes_one_room_and_nobody_else_may_answer_it(store_db):
    with running_server(db=store_db) as server:
        anna, bruno, carla = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno"), sign_up(server, 3, "Carla")
        r = anna.post("/api/challenges", json={"to": ["bruno"], "game": "calabresella", "seats": 3, "rated": True})
        assert r.status_code == 201, r.text
        cid = r.json()["id"]
        # The challenged is told on the bell; nobody else is.
        bell = bruno.get("/api/me/bell").json()
        assert bell["unread"] == 1 and bell["items"][0]["kind"] == "challenge"
        assert bell["items"][0]["data"] == {"challenge": cid, "from": "Anna", "game": "calabresella"}
        assert carla.get("/api/me/bell").json() == {"items": [], "unread": 0}
        # Another account cannot answer it, nor read it, nor mark another's bell read.
        for path in ("accept", "decline", "cancel"):
            assert carla.post(f"/api/challenges/{cid}/{path}").json() == {"error": NO_SUCH_CHALLENGE}
        assert bruno.post(f"/api/challenges/{cid}/cancel").status_code == 404  # (the challenger's alone)
        assert anna.post(f"/api/challenges/{cid}/accept").status_code == 404  # (the challenged's alone)
        assert carla.get("/api/me/challenges").json() == {"challenges": []}
        item = bell["items"][0]["id"]
        assert carla.post("/api/me/bell/read", json={"upto": item}).json() == {"error": NO_SUCH_ITEM}
        assert bruno.get("/api/me/bell").json()["unread"] == 1
        mine = bruno.get("/api/me/challenges").json()["challenges"]
        assert [(c["id"], c["from"], c["status"], c["mine"], c["link"]) for c in mine] == [(cid, "Anna", "pending", False, None)]
        assert "id" not in str(mine[0]["to"])  # (names, never account ids)
        # Two accepts at once (a double click): one room, one link.
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda _: bruno.post(f"/api/challenges/{cid}/accept"), range(2)))
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        assert answers[0].json() == answers[1].json()
        assert answers[0].json()["status"] == "accepted"
        link = answers[0].json()["link"]
        # The challenger's own seat link, in its list; its bell says who accepted.
        theirs = anna.get("/api/me/challenges").json()["challenges"][0]
        assert theirs["status"] == "accepted" and theirs["table"] == answers[0].json()["table"]
        assert theirs["link"] and theirs["link"] != link
        assert [i["kind"] for i in anna.get("/api/me/bell").json()["items"]] == ["challenge_accepted"]
        # Each seat is held for its account (one seat each: seats 0 and 1), and one room was made.
        store = open_store(store_db)
        try:
            seats = store.people.table_seats(theirs["table"])
            assert sorted(seats) == [0, 1]
            assert {f"/t/{token}" for _, token in seats.values()} == {link, theirs["link"]}
            with store.people.read() as tx:
                assert tx.run("SELECT count(*) FROM tables")[0][0] == 1
        finally:
            store.close()
        # Read on every device: marked read up to the item, the count is 0 from any session.
        assert bruno.post("/api/me/bell/read", json={"upto": item}).status_code == 204
        assert bruno.get("/api/me/bell").json()["unread"] == 0
        # Answered: it cannot be declined or cancelled any more.
        assert bruno.post(f"/api/challenges/{cid}/decline").status_code == 404
        assert anna.post(f"/api/challenges/{cid}/cancel").status_code == 404


def test_a_blocked_players_challenge_gets_the_answer_a_declined_ones_gets_and_the_block_is_never_shown(store_db):
    """Issue 58: a decline quiets the challenger's next challenges to that player for an hour,
    and a block refuses them with the very same answer (403, ``CANNOT_CHALLENGE``): whoever is
    blocked cannot tell. The blocker's list is the blocker's alone."""
    with running_server(db=store_db) as server:
        anna, bruno, carla = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno"), sign_up(server, 3, "Carla")
        cid = anna.post("/api/challenges", json={"to": ["Bruno"]}).json()["id"]
        assert bruno.post(f"/api/challenges/{cid}/decline").status_code == 204
        declined = anna.get("/api/me/bell").json()["items"]
        assert [(i["kind"], i["data"]["by"]) for i in declined] == [("challenge_declined", "Bruno")]
        again = anna.post("/api/challenges", json={"to": ["Bruno"]})
        # Carla's challenge is pending when Bruno blocks her: it ends as a decline would.
        pending = carla.post("/api/challenges", json={"to": ["Bruno"]}).json()["id"]
        assert bruno.post("/api/me/blocks", json={"name": "carla"}).status_code == 204
        assert carla.get("/api/me/challenges").json()["challenges"][0]["status"] == "declined"
        assert bruno.post(f"/api/challenges/{pending}/accept").status_code == 409
        blocked = carla.post("/api/challenges", json={"to": ["Bruno"]})
        assert (again.status_code, again.json()) == (blocked.status_code, blocked.json()) == (403, {"error": CANNOT_CHALLENGE})
        # Bruno sees his list; Carla sees nothing of it (her own list is empty).
        assert bruno.get("/api/me/blocks").json() == {"blocked": ["Carla"]}
        assert carla.get("/api/me/blocks").json() == {"blocked": []}
        # Nor may Bruno challenge Carla while he blocks her (a table would seat them together).
        assert bruno.post("/api/challenges", json={"to": ["Carla"]}).json() == {"error": CANNOT_CHALLENGE}
        # What the lobby asks (People.block_between), either way round; unblocked, no more.
        store = open_store(store_db)
        try:
            ids = {n: store.people.account_named(n)["id"] for n in ("Anna", "Bruno", "Carla")}
            assert store.people.block_between([ids["Carla"], ids["Bruno"]])
            assert store.people.block_between([ids["Anna"], ids["Bruno"], ids["Carla"]])
            assert not store.people.block_between([ids["Anna"], ids["Bruno"]])
            assert bruno.request("DELETE", "/api/me/blocks", json={"name": "Carla"}).status_code == 204
            assert not store.people.block_between([ids["Carla"], ids["Bruno"]])
        finally:
            store.close()
        # Unblocked: Bruno may challenge Carla; her own challenges stay quiet for the hour (the
        # block ended her pending one as a decline does).
        assert bruno.post("/api/challenges", json={"to": ["Carla"]}).status_code == 201
        assert carla.post("/api/challenges", json={"to": ["Bruno"]}).json() == {"error": CANNOT_CHALLENGE}


def test_only_a_friend_is_told_where_the_other_plays():
    with running_server() as server:
        anna, bruno, carla = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno"), sign_up(server, 3, "Carla")
        links = anna.post("/api/rooms", json={"seats": 3}).json()["links"]

        async def seat_bruno():
            return await Seat.open(server.ws_url, links[1].removeprefix("/t/"),
                                   headers={"Cookie": f"{COOKIE}={bruno.cookies[COOKIE]}"})

        loop = asyncio.new_event_loop()
        seat = loop.run_until_complete(seat_bruno())
        try:
            assert anna.post("/api/me/friends", json={"name": "Bruno"}).status_code == 204
            assert carla.post("/api/me/friends", json={"name": "Bruno"}).status_code == 204
            # Followed, not followed back: nothing of where Bruno is.
            assert anna.get("/api/me/friends").json() == {"following": [{"name": "Bruno", "friend": False}]}
            assert bruno.post("/api/me/friends", json={"name": "anna"}).status_code == 204
            shown = anna.get("/api/me/friends").json()["following"]
            assert shown[0]["friend"] and shown[0]["online"] and shown[0]["table"].startswith("/w/")
            assert bruno.get("/api/me/friends").json()["following"] == [
                {"name": "Anna", "friend": True, "online": False, "table": None}]
            assert carla.get("/api/me/friends").json() == {"following": [{"name": "Bruno", "friend": False}]}
            # A block ends the friendship (either way); unfollowed, Anna's list is empty.
            assert bruno.post("/api/me/blocks", json={"name": "Anna"}).status_code == 204
            assert anna.get("/api/me/friends").json() == {"following": [{"name": "Bruno", "friend": False}]}
            assert anna.request("DELETE", "/api/me/friends", json={"name": "Bruno"}).status_code == 204
            assert anna.get("/api/me/friends").json() == {"following": []}
        finally:
            loop.run_until_complete(seat.close())
            loop.close()


def test_bad_bodies_get_a_400_and_budgets_a_429():
    with running_server() as server:
        anna, _ = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno")
        bad = [{"to": []}, {"to": ["Bruno", "Bruno"], "seats": 4}, {"to": ["Anna"]}, {"to": ["Bruno"], "seats": 5},
               {"to": ["Bruno"], "game": "poker"}, {"to": ["Bruno"], "clock": 1}, {"to": ["Bruno"], "extra": 1},
               {"to": ["Bruno", "x", "y"], "seats": 3}, {"to": "Bruno"}, {"to": ["Bruno"], "correspondence": 5}]
        for body in bad[:CHALLENGES_PER_ACCOUNT[0]]:
            r = anna.post("/api/challenges", json=body)
            assert r.status_code == 400 and r.json()["error"], (body, r.text)
        assert anna.post("/api/challenges", content=b"{not json").status_code in (400, 429)
        assert anna.get("/api/me/challenges").json() == {"challenges": []}
        # The burst is spent (bad bodies count: a flood of them is a flood): 429 from now.
        assert anna.post("/api/challenges", json={"to": ["Bruno"]}).json() == {"error": TOO_MANY_CHALLENGES}
        for body in ({}, {"name": ""}, {"name": "Anna"}, {"name": "Nobody"}, {"name": "x" * 41}):
            assert anna.post("/api/me/friends", json=body).status_code in (400, 404), body
        assert anna.post("/api/me/bell/read", json={"upto": ""}).status_code == 400
        assert anna.get("/api/me/friends").json() == {"following": []}
        for _ in range(FOLLOWS_PER_ACCOUNT[0] - 5):
            assert anna.post("/api/me/friends", json={"name": "Bruno"}).status_code == 204
        assert anna.post("/api/me/friends", json={"name": "Bruno"}).json() == {"error": TOO_MANY_FOLLOWS}
        assert anna.post("/api/me/blocks", json={"name": "Bruno"}).status_code == 429  # (one budget for both)


def test_a_rated_match_ended_rings_each_players_bell_with_the_change(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        accounts = [people.create_account(n, "h", []) for n in ("Anna", "Bruno", "Carla")]
        store.create_table("t1", "room", ["a", "b", "c"], {"kind": "room"})
        players = [Player(s, n, s, t, False, a) for s, (n, t), a in
                   zip(range(3), [("Anna", 21), ("Bruno", 3), ("Carla", 0)], accounts)]
        store.append_many([("t1", 2, "join", {"seat": 0})], ended=[Ended(
            "t1", 1, "calabresella", 3, 100.0, players,
            rater=lambda ps, before: {p.account: (25.0 + 3 - p.place, 8.0) for p in ps})])
        for account, mu in zip(accounts, (27.0, 26.0, 25.0)):
            bell = people.bell(account)
            assert bell["unread"] == 1
            assert bell["items"][0]["kind"] == "rated"
            assert bell["items"][0]["data"] == {"table": "t1", "match": 1, "key": "calabresella/3", "before": None,
                                                "after": [mu, 8.0]}
    finally:
        store.close()


@pytest.fixture(scope="module")
def redis():
    with RedisServer() as server:
        yield server


def test_a_challenge_made_on_one_process_is_accepted_on_the_other(redis, store_db):
    with running_server(store_db, bus=redis.url, process="A", lease=2.0) as a, \
            running_server(store_db, bus=redis.url, process="B", lease=2.0) as b:
        anna, bruno = sign_up(a, 1, "Anna"), sign_up(a, 2, "Bruno")
        cid = anna.post("/api/challenges", json={"to": ["Bruno"], "seats": 3}).json()["id"]
        with on(b, bruno, 2) as bruno_b, on(b, anna, 1) as anna_b:
            assert bruno_b.get("/api/me/bell").json()["unread"] == 1
            accepted = bruno_b.post(f"/api/challenges/{cid}/accept")
            assert accepted.status_code == 200, accepted.text
            link = accepted.json()["link"]
            mine = anna_b.get("/api/me/challenges").json()["challenges"][0]
        assert anna.get("/api/me/challenges").json()["challenges"][0]["link"] == mine["link"] != link
        # The budget of challenges is the site's: spent on A, it is spent on B.
        for _ in range(CHALLENGES_PER_ACCOUNT[0] - 1):
            anna.post("/api/challenges", json={"to": []})
        with on(b, anna, 1) as anna_b:
            assert anna_b.post("/api/challenges", json={"to": ["Bruno"]}).status_code == 429


def test_an_accounts_follows_blocks_challenges_and_bell_are_in_its_download_and_go_with_it(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        anna, bruno = (people.create_account(n, "h", []) for n in ("Anna", "Bruno"))
        assert people.follow(anna, bruno, 10) and people.block(bruno, anna, 10)
        people.ring(anna, "challenge", {"from": "Bruno"})
        cid = people.challenge_players({"id": anna, "name": "Anna"}, [{"id": people.create_account("Carla", "h", []),
                                                                    "name": "Carla"}],
                                   {"game": "sicilian", "seats": 3}, 600, quiet=3600, most_open=5, most_waiting=20)
        assert cid is not None
        data = people.export(anna)
        assert data["following"] == ["Bruno"] and data["blocked"] == []
        assert [i["kind"] for i in data["bell"]] == ["challenge"]
        assert people.export(bruno)["blocked"] == ["Anna"]
        people.delete_account(anna)
        with people.read() as tx:
            for table in ("follows", "blocks", "challenges"):
                assert tx.run(f"SELECT count(*) FROM {table}")[0][0] == 0, table
            assert tx.run("SELECT count(*) FROM bell WHERE account_id = %s", (anna,))[0][0] == 0
    finally:
        store.close()


def test_a_block_is_honoured_by_play_now_and_the_lobby_and_never_told():
    """Bruno blocks Anna: Play now never seats them together, either way round, nor does a
    lobby seat, which answers as a full table would; Carla, who blocks nobody, sits with Anna."""
    from tarocchi.server.lobby import NO_FREE_SEAT

    async def body(server):
        anna, bruno, carla = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno"), sign_up(server, 3, "Carla")
        assert bruno.post("/api/me/blocks", json={"name": "Anna"}).status_code in (200, 201, 204)
        first = anna.post("/api/play-now", json={"game": "sicilian"}).json()
        assert first["new"]
        seat = await Seat.open(server.ws_url, first["link"].removeprefix("/t/"),
                               headers={"Cookie": f"{COOKIE}={anna.cookies[COOKIE]}"})
        other = bruno.post("/api/play-now", json={"game": "sicilian"}).json()
        assert other["table"] != first["table"]  # (passed over, in silence)
        refused = bruno.post(f"/api/public/{first['table']}/seat", json={})
        assert refused.status_code == 409 and refused.json() == {"error": NO_FREE_SEAT}
        assert carla.post("/api/play-now", json={"game": "sicilian"}).json()["table"] == first["table"]
        await seat.close()

    with running_server() as server:
        asyncio.run(body(server))
