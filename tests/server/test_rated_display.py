"""Ratings seen where they matter, and leavers paused (issue 56, points 5 and 6): a rating shown
on a scale players know (a newcomer 1500, never negative, in the conservative value's order),
places counted one way everywhere (as sport counts them: after two first comes third, old
records too), a match's result with each player's rating before and after, and a player who
leaves rated matches again and again paused from rated tables for a while that grows, told to
that player alone. Store tests on both stores."""

from __future__ import annotations

import asyncio
import time

import httpx
from hypothesis import given
from hypothesis import strategies as st

from tarocchi.server.core.store import open_store
from tarocchi.server.core.store.people import Ended, Player, places
from tarocchi.server.ratings import (
    LEAVES_WINDOW, MODEL, PAUSED, PAUSES, SHOWN_BASE, ordinal, pause_after, rate, shown,
)
from tests.server.live import running_server
from tests.server.seat import Seat
from tests.server.test_public import person

PASSWORD = "segreto123"


@given(st.floats(-10, 60), st.floats(0.5, 9), st.floats(-10, 60), st.floats(0.5, 9))
def test_the_shown_rating_keeps_the_conservative_order_and_is_never_negative(mu1, s1, mu2, s2):
    assert shown(mu1, s1) >= 0
    if ordinal(mu1, s1) > ordinal(mu2, s2) + 0.05:  # (a shown number is rounded)
        assert shown(mu1, s1) >= shown(mu2, s2)


def test_a_newcomer_shows_1500_and_a_first_loss_a_little_less():
    assert shown(MODEL.mu, MODEL.sigma) == SHOWN_BASE
    players = [Player(s, f"p{s}", s, total, False, f"a{s}") for s, total in enumerate((9, 0, -9))]
    places(players)
    after = rate(players, {})
    assert shown(*after["a0"]) > SHOWN_BASE > shown(*after["a2"]) > SHOWN_BASE - 200


def test_places_are_counted_as_in_sport_and_old_records_are_shown_so(store_db):
    players = [Player(s, f"p{s}", s, total, False) for s, total in enumerate((4, 4, -8))]
    places(players)
    assert [p.place for p in players] == [1, 1, 3]
    store = open_store(store_db)
    try:
        people = store.people
        anna = people.create_account("Anna", None, [])
        store.create_table("t1", "room", ["a", "b", "c"], {"kind": "room"})
        store.append_many([("t1", 2, "join", {"seat": 0})], ended=[Ended(
            "t1", 1, "calabresella", 3, 1.0, [Player(0, "Anna", 0, 4, False, anna), Player(1, "Bruno", 1, 4, False),
                                              Player(2, "Carla", 2, -8, False)])])
        with people.write() as tx:  # (as recorded before issue 56: 1, 1, 2)
            tx.run("UPDATE match_players SET place = 2 WHERE seat = 2")
        assert [p["place"] for p in people.matches_of(anna)[0]["players"]] == [1, 1, 3]
        assert [p["place"] for p in people.match_result("t1", 1)["players"]] == [1, 1, 3]
        assert people.match_result("t1", 2) is None
    finally:
        store.close()


def test_the_pause_grows_with_each_leave_of_a_week_and_ends():
    now = 1_000_000.0
    assert pause_after([], now) is None
    assert pause_after([now - 60], now) is None  # (one leave: anyone's connection drops once)
    two = pause_after([now - 3600, now - 60], now)
    assert two == {"until": now - 60 + PAUSES[2], "leaves": 2}
    three = pause_after([now - 7200, now - 3600, now - 60], now)
    assert three["until"] - (now - 60) == PAUSES[3] > PAUSES[2]
    assert pause_after([now - 3600, now - 60], now + PAUSES[2]) is None  # (over)
    assert pause_after([now - LEAVES_WINDOW - 10, now - 60], now) is None  # (a week ago: forgotten)
    many = [now - 60 - i for i in range(20)][::-1]
    assert pause_after(many, now)["until"] == many[-1] + PAUSES[-1]


def test_a_seat_the_computer_played_at_a_rated_rooms_end_is_a_leave_of_its_account(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        anna, bruno = people.create_account("Anna", None, []), people.create_account("Bruno", None, [])
        for n, rated_room in ((1, True), (2, False)):
            table = f"t{n}"
            store.create_table(table, "room", [f"{table}a", f"{table}b", f"{table}c"], {"kind": "room"})
            store.append_many([(table, 2, "join", {"seat": 0})], ended=[Ended(
                table, 1, "calabresella", 3, time.time(), [Player(0, "Anna", 0, 4, True, anna),
                                                           Player(1, "Bruno", 1, 0, False, bruno),
                                                           Player(2, "x", 2, -4, True)], rated_room=rated_room)])
        assert len(people.leaves_since(anna, 0)) == 1 and people.leaves_since(bruno, 0) == []
    finally:
        store.close()


def left_twice(db: str, account_name: str) -> None:
    store = open_store(db)
    try:
        account = store.people.account_named(account_name)["id"]
        with store.people.write() as tx:
            for n in range(2):
                tx.run("INSERT INTO leaves (account_id, table_id, match, at) VALUES (%s, %s, 1, %s)",
                       (account, f"left{n}", time.time() - 100 + n))
    finally:
        store.close()


def test_a_paused_leaver_is_refused_rated_seats_and_alone_is_told_until_when(tmp_path):
    async def body(server, db):
        with httpx.Client(base_url=server.url, headers=person(1)) as leaver, \
                httpx.Client(base_url=server.url, headers=person(2)) as host:
            assert leaver.post("/api/account", json={"name": "Lino", "password": PASSWORD}).status_code == 201
            assert leaver.get("/api/me/pause").json() == {"until": None, "leaves": 0}
            left_twice(db, "Lino")
            told = leaver.get("/api/me/pause").json()
            assert told["leaves"] == 2 and time.time() < told["until"] <= time.time() + PAUSES[2]
            refused = leaver.post("/api/play-now", json={"game": "calabresella"})
            assert refused.status_code == 403 and refused.json() == {"error": PAUSED, "until": told["until"]}
            for rated in ({"public": True}, {"rated": True}):
                assert leaver.post("/api/rooms", json={"seats": 3, "game": "calabresella", **rated}).status_code == 403
            assert leaver.post("/api/rooms", json={"seats": 3, "game": "calabresella"}).status_code == 200  # (casual)
            # A host's public room (rated), and one he made casual: only the casual seat is given.
            rooms = [host.post("/api/rooms", json={"seats": 3, "game": "renaissance", "public": True, **more}).json()
                     for more in ({}, {"rated": False})]
            hosts = [await Seat.open(server.ws_url, room["links"][0].removeprefix("/t/")) for room in rooms]
            listed = {t["table"]: t["rated"] for t in host.get("/api/public").json()["tables"]}
            assert [listed[room["table"]] for room in rooms] == [True, False]
            assert leaver.post(f"/api/public/{rooms[0]['table']}/seat", json={}).json()["error"] == PAUSED
            assert leaver.post(f"/api/public/{rooms[1]['table']}/seat", json={}).status_code == 200
            # Nobody else learns of it: signed out, the profile.
            assert httpx.get(server.url + "/api/me/pause").status_code == 401
            assert "until" not in str(host.get("/api/players/Lino").json())
            for seat in hosts:
                await seat.close()

    db = str(tmp_path / "t.sqlite3")
    with running_server(db) as server:
        asyncio.run(body(server, db))


def test_a_recorded_matchs_result_shows_each_players_rating_before_and_after(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    store = open_store(db)
    people = store.people
    accounts = [people.create_account(n, None, []) for n in ("Anna", "Bruno", "Carla")]
    store.create_table("t1", "room", ["a", "b", "c"], {"kind": "room"})
    players = [Player(s, n, s, t, False, a) for s, (n, t), a in zip(range(3), [("Anna", 21), ("Bruno", 3), ("Carla", 0)],
                                                                     accounts)]
    store.append_many([("t1", 2, "join", {"seat": 0})], ended=[Ended("t1", 1, "calabresella", 3, 1.0, players,
                                                                     rater=rate, ordinal=ordinal, rated_room=True)])
    store.close()
    with running_server(db) as server:
        result = httpx.get(server.url + "/api/matches/t1.1").json()
        assert result["rated"] and [p["place"] for p in result["players"]] == [1, 2, 3]
        assert [p["rating_before"] for p in result["players"]] == [SHOWN_BASE] * 3
        assert result["players"][0]["rating_after"] > SHOWN_BASE > result["players"][2]["rating_after"]
        assert not any(account in str(result) for account in accounts)  # (no account's id: names only)
        for missing in ("t1.2", "t1", "nope.x", "t1.1.1"):
            assert httpx.get(server.url + f"/api/matches/{missing}").status_code == 404
        profile = httpx.get(server.url + "/api/players/Anna").json()
        assert profile["ratings"]["calabresella/3"]["rating"] == result["players"][0]["rating_after"]
        assert profile["matches"][0]["rating_after"] == result["players"][0]["rating_after"]
        board = httpx.get(server.url + "/api/leaderboard/calabresella").json()
        assert [p["rating"] for p in board["boards"][0]["players"]] == sorted(
            (p["rating_after"] for p in result["players"]), reverse=True)
