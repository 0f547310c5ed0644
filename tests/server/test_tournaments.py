"""Tournaments (issue 59): each kind plays to its end on both stores, its standings equal what
``tarocchi tournaments standings`` recomputes from its records alone; the routes' refusals."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time

import httpx
import pytest
import websockets

from tarocchi.server.core.sessions import COOKIE
from tarocchi.server.tournaments import SIGNED_OUT
from tests.server.live import running_server
from tests.server.seat import Seat, pick_action
from tests.server.test_public import person
from tests.server.test_social import sign_up

# Everything quick: absent seats go to the computer at once, a tick ten times a second, an
# arena's minute two seconds.
QUICK = {"no_show": 0.3, "leave_after": 0.3, "arena_wait": 0.3, "every": 0.1, "clock": 5.0, "minute": 2.0}
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena"]


def until(check, seconds: float = 90.0, every: float = 0.6):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise AssertionError("waited too long")


def recomputed(records: str, tmp_path) -> list[dict]:
    path = tmp_path / "records.jsonl"
    path.write_text(records, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "tarocchi.cli", "tournaments", "standings", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def played(server, body: dict, people: int = 4) -> tuple[dict, str, list]:
    """A tournament made by the first person, joined by ``people``, played to its end by the
    computers standing in for everyone: its final page, its records, the clients."""
    clients = [sign_up(server, n + 1, NAMES[n]) for n in range(people)]
    r = clients[0].post("/api/tournaments", json={"starts": 3, **body})
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert r.json()["link"] == f"/tournament/{tid}"
    for c in clients:
        assert c.post(f"/api/tournaments/{tid}/join").status_code == 200
    page = until(lambda: (p := clients[1].get(f"/api/tournaments/{tid}").json())["status"] == "finished" and p,
                 seconds=240)
    return page, clients[0].get(f"/api/tournaments/{tid}/records").text, clients


def same_standings(page: dict, records: str, tmp_path) -> None:
    mine = recomputed(records, tmp_path)
    played_ = [p for p in page["players"] if p.get("matches", p.get("groups"))]
    keys = [k for k in mine[0] if k not in ("name",)] if mine else []
    assert [{k: p[k] for k in keys} for p in played_] == [{k: p[k] for k in keys} for p in mine]
    assert [p["name"] for p in mine] == [p["name"] for p in played_]


@pytest.mark.parametrize("kind", ["swiss", "duplicate"])
def test_a_tournament_of_rounds_plays_to_its_end_and_its_records_give_its_standings(store_db, kind, tmp_path):
    with running_server(db=store_db, bot_delay=0.01, trick_pause=0.01, tournaments=QUICK) as server:
        page, records, clients = played(server, {"game": "sicilian", "seats": 3, "kind": kind, "rounds": 2})
        assert page["round"] == 2 and len(page["rounds"]) == 2
        for r in page["rounds"]:  # four people at tables of three: two tables, two computers
            assert len(r["tables"]) == 2 and all(t["done"] for t in r["tables"])
            names = [n for t in r["tables"] for n in t["names"] if n is not None]
            assert sorted(names) == sorted(NAMES[:4])
        assert {p["name"] for p in page["players"]} == set(NAMES[:4])  # (computers never ranked)
        assert [p["rank"] for p in page["podium"]] == [p["rank"] for p in page["players"] if p["rank"] <= 3]
        lines = [json.loads(line) for line in records.splitlines()]
        assert len(lines) == 4 and all(line["meta"]["kind"] == kind for line in lines)
        if kind == "duplicate":  # every table of a round played the same deck orders from the same dealer
            for round_ in (1, 2):
                deals = [[(d["dealer"], d["deck"]) for d in line["deals"]] for line in lines
                         if line["meta"]["round"] == round_]
                assert deals[0] == deals[1]
            assert lines[0]["deals"][0]["deck"] != lines[2]["deals"][0]["deck"]
        same_standings(page, records, tmp_path)
        # the bell said each person's table was ready, with its link
        bell = clients[1].get("/api/me/bell").json()["items"]
        assert any(i["kind"] == "tournament" and (i["data"].get("link") or "").startswith("/t/") for i in bell)


def test_an_arena_seats_the_free_players_until_its_end(tmp_path):
    with running_server(bot_delay=0.01, trick_pause=0.01, tournaments=QUICK) as server:
        page, records, _ = played(server, {"game": "sicilian", "seats": 3, "kind": "arena", "minutes": 10}, people=3)
        assert len(page["rounds"]) >= 2  # (twenty seconds, a match in a few)
        same_standings(page, records, tmp_path)


async def play_seat(server, link: str, client: httpx.Client, n: int) -> int:
    """Person ``n`` opens their seat signed in, from an address of their own, and plays it to
    the match's end (Next deal between deals); the actions they made."""
    rng = random.Random(n)
    seat = await Seat.open(server.ws_url, link.removeprefix("/t/"),
                           headers={"Cookie": f"{COOKIE}={client.cookies[COOKIE]}", **person(n)})
    acted = 0
    while seat.state["table"]["status"] != "over":
        version = seat.state["version"]
        if seat.my_turn():
            await seat.act(pick_action(seat.view, rng), f"a{version}")
            acted += 1
        elif seat.state["table"]["status"] == "between" and not seat.state["table"]["ready"][seat.you]:
            await seat.send({"type": "next"})
        await seat.wait_state(lambda st: st["version"] > version, timeout=60)
    await seat.close()
    return acted


def test_a_player_plays_their_own_seat_from_the_link_they_are_given():
    """One person opens the seat link the page gives them and plays it; the others' seats are
    the computer's (never opened)."""
    options = {**QUICK, "no_show": 3.0}
    with running_server(bot_delay=0.01, trick_pause=0.01, tournaments=options) as server:
        anna, bruno = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno")
        tid = anna.post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 1,
                                                  "starts": 3}).json()["id"]
        for c in (anna, bruno):
            c.post(f"/api/tournaments/{tid}/join")
        link = until(lambda: anna.get(f"/api/tournaments/{tid}").json()["seat"])
        assert bruno.get(f"/api/tournaments/{tid}").json()["seat"] not in (None, link)
        assert httpx.get(f"{server.url}/api/tournaments/{tid}").json()["seat"] is None  # (a stranger: none)
        watch = anna.get(f"/api/tournaments/{tid}").json()["rounds"][0]["tables"][0]["watch"]

        async def the_way_back():
            """The seat's frame names its tournament and round (the table page's link back to
            /tournament/<id>); a spectator's does not (an unlisted tournament's page lists every
            table's watch link)."""
            seat = await Seat.open(server.ws_url, link.removeprefix("/t/"),
                                   headers={"Cookie": f"{COOKIE}={anna.cookies[COOKIE]}", **person(1)})
            spectator = Seat(await websockets.connect(f"{server.ws_url}/ws/{watch.removeprefix('/w/')}",
                                                      additional_headers=person(7)), watch)
            await spectator.send({"type": "hello", "since": 0})
            await spectator.wait_state(lambda st: True)
            try:
                return seat.state["table"]["tournament"], spectator.state["table"]
            finally:
                await seat.close()
                await spectator.close()
        told, watched = asyncio.run(the_way_back())
        assert told == {"id": tid, "round": 1}
        assert watched["tournament"] is None and tid not in json.dumps(watched)

        assert asyncio.run(play_seat(server, link, anna, 1)) > 10
        page = until(lambda: (p := anna.get(f"/api/tournaments/{tid}").json())["status"] == "finished" and p)
        rows = {p["name"]: p for p in page["players"]}
        assert rows["Anna"]["matches"] == rows["Bruno"]["matches"] == 1
        # Bruno never came: the computer played his seat, and he is placed as a leaver, last
        assert rows["Bruno"]["points"] == 0 and rows["Anna"]["points"] >= 1
        (record,) = [json.loads(line) for line in anna.get(f"/api/tournaments/{tid}/records").text.splitlines()]
        assert {p["name"]: p["absent"] for p in record["meta"]["players"] if p["name"]} == {"Anna": False, "Bruno": True}


def test_the_routes_refuse_strangers_bad_bodies_and_floods_and_change_nothing():
    with running_server(tournaments=QUICK) as server:
        anna = sign_up(server, 1, "Anna")
        with httpx.Client(base_url=server.url, headers=person(9)) as stranger:
            assert stranger.post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "arena",
                                                           "minutes": 5}).json() == {"error": SIGNED_OUT}
        tid = anna.post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 3,
                                                  "public": False}).json()["id"]
        with httpx.Client(base_url=server.url, headers=person(9)) as stranger:
            for method in ("POST", "DELETE"):
                assert stranger.request(method, f"/api/tournaments/{tid}/join").status_code == 401
        for body in ({"game": "sicilian", "seats": 3, "kind": "arena"},  # (no minutes)
                     {"game": "sicilian", "seats": 3, "kind": "swiss", "minutes": 5},
                     {"game": "sicilian", "seats": 3, "kind": "knockout", "rounds": 2},
                     {"game": "ottocento", "seats": 3, "kind": "swiss", "rounds": 2},
                     {"game": "nope", "seats": 3, "kind": "swiss", "rounds": 2},
                     {"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 2, "deals": 7},
                     {"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 99},
                     {"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 2, "extra": 1}):
            r = anna.post("/api/tournaments", json=body)
            assert r.status_code == 400, (body, r.text)
        listed = httpx.get(f"{server.url}/api/tournaments").json()
        assert listed == {"upcoming": [], "running": [], "finished": []}  # (by link only: not listed)
        assert httpx.get(f"{server.url}/api/tournaments/nope").status_code == 404
        assert anna.delete(f"/api/tournaments/{tid}/join").status_code == 404  # (not entered)
        made = [anna.post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "arena", "minutes": 5})
                for _ in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]  # (three at once; bad bodies spend nothing)


def test_a_server_stopped_mid_round_carries_the_tournament_on_from_the_store(store_db, tmp_path):
    """The tournament, its players and its tables are in the store: a new server on the same
    database takes the tables over where they were and finishes the tournament."""
    slow = {**QUICK, "no_show": 0.3}
    with running_server(db=store_db, bot_delay=0.2, trick_pause=0.2, tournaments=slow) as server:
        clients = [sign_up(server, n + 1, NAMES[n]) for n in range(3)]
        tid = clients[0].post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 2,
                                                        "starts": 2}).json()["id"]
        for c in clients:
            c.post(f"/api/tournaments/{tid}/join")
        until(lambda: clients[0].get(f"/api/tournaments/{tid}").json()["rounds"])
        cookies = [c.cookies[COOKIE] for c in clients]
    with running_server(db=store_db, bot_delay=0.01, trick_pause=0.01, tournaments=QUICK) as server:
        again = httpx.Client(base_url=server.url, headers=person(1), cookies={COOKIE: cookies[0]}, timeout=30)
        page = until(lambda: (p := again.get(f"/api/tournaments/{tid}").json())["status"] == "finished" and p,
                     seconds=240)
        assert page["round"] == 2 and all(t["done"] for r in page["rounds"] for t in r["tables"])
        same_standings(page, again.get(f"/api/tournaments/{tid}/records").text, tmp_path)


def test_the_operator_makes_tournaments_from_arguments_or_a_schedule_file(tmp_path):
    db = str(tmp_path / "site.sqlite3")
    schedule = tmp_path / "weekly.jsonl"
    schedule.write_text('# the week\n{"game": "sicilian", "seats": 4, "kind": "swiss", "rounds": 5, "starts": 1800}\n'
                        '{"game": "ottocento", "seats": 4, "kind": "duplicate", "rounds": 3, "starts": 7200}\n')

    def make(*args):
        return subprocess.run([sys.executable, "-m", "tarocchi.cli", "tournaments", "make", "--db", db, *args],
                              capture_output=True, text=True, timeout=120)
    done = make("--schedule", str(schedule))
    assert done.returncode == 0, done.stderr
    made = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(made) == 2 and all(m["link"] == f"/tournament/{m['id']}" for m in made)
    done = make("--kind", "arena", "--minutes", "30", "--starts", "60")
    assert done.returncode == 0, done.stderr
    refused = make("--kind", "arena", "--starts", "60")  # (an arena needs its minutes)
    assert refused.returncode == 1 and "minutes" in refused.stderr
    with running_server(db=db) as server:
        listed = httpx.get(f"{server.url}/api/tournaments").json()["upcoming"]
        assert [(t["kind"], t["game"]) for t in listed] == [("arena", "sicilian"), ("swiss", "sicilian"),
                                                           ("duplicate", "ottocento")]


def test_a_rated_tournaments_match_is_rated_as_a_rated_rooms():
    """Three people, one table, each playing their own seat signed in: the match is rated (each
    bell says the change), as a rated room's would be."""
    options = {**QUICK, "no_show": 20.0, "leave_after": 20.0}
    with running_server(bot_delay=0.01, trick_pause=0.01, tournaments=options) as server:
        clients = [sign_up(server, n + 1, NAMES[n]) for n in range(3)]
        tid = clients[0].post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 1,
                                                        "starts": 2, "rated": True}).json()["id"]
        for c in clients:
            c.post(f"/api/tournaments/{tid}/join")
        links = [until(lambda c=c: c.get(f"/api/tournaments/{tid}").json()["seat"]) for c in clients]

        async def everyone():
            return await asyncio.gather(*(play_seat(server, link, c, n + 1)
                                          for n, (link, c) in enumerate(zip(links, clients))))
        assert all(acted > 0 for acted in asyncio.run(everyone()))
        until(lambda: clients[0].get(f"/api/tournaments/{tid}").json()["status"] == "finished")
        for c in clients:
            kinds = [i["kind"] for i in c.get("/api/me/bell").json()["items"]]
            assert "rated" in kinds and "tournament" in kinds


def test_two_who_block_each_other_are_not_seated_together_where_the_numbers_allow():
    """Six people, tables of three: in entry order Anna and Bruno would share the first table,
    but Bruno blocks Anna (issue 58: she is never told)."""
    names = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]
    with running_server(bot_delay=0.01, trick_pause=0.01, tournaments=QUICK) as server:
        clients = [sign_up(server, n + 1, name) for n, name in enumerate(names)]
        assert clients[1].post("/api/me/blocks", json={"name": "Anna"}).status_code == 204
        tid = clients[0].post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 1,
                                                        "starts": 2}).json()["id"]
        for c in clients:
            assert c.post(f"/api/tournaments/{tid}/join").status_code == 200
        tables = until(lambda: clients[2].get(f"/api/tournaments/{tid}").json()["rounds"])[0]["tables"]
        assert len(tables) == 2 and all(None not in t["names"] for t in tables)
        assert not any({"Anna", "Bruno"} <= set(t["names"]) for t in tables)
        assert tables[0]["names"][0] == "Anna"  # (the first in order still heads the first table)


def test_a_swiss_takes_a_late_player_from_the_next_round_and_seats_a_leaver_no_more(tmp_path):
    with running_server(bot_delay=0.01, trick_pause=0.01, tournaments=QUICK) as server:
        clients = [sign_up(server, n + 1, NAMES[n]) for n in range(5)]
        tid = clients[0].post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 2,
                                                        "starts": 2}).json()["id"]
        for c in clients[:4]:
            c.post(f"/api/tournaments/{tid}/join")
        until(lambda: clients[0].get(f"/api/tournaments/{tid}").json()["rounds"])
        assert clients[3].delete(f"/api/tournaments/{tid}/join").status_code == 204  # Dario leaves
        assert clients[4].post(f"/api/tournaments/{tid}/join").json()["status"] == "running"  # Elena comes late
        page = until(lambda: (p := clients[0].get(f"/api/tournaments/{tid}").json())["status"] == "finished" and p,
                     seconds=240)
        first, second = ([n for t in r["tables"] for n in t["names"] if n] for r in page["rounds"])
        assert "Dario" in first and "Elena" not in first
        assert "Elena" in second and "Dario" not in second
        rows = {p["name"]: p for p in page["players"]}
        assert rows["Dario"]["present"] is False and rows["Dario"]["matches"] == 1 and rows["Elena"]["matches"] == 1
        same_standings(page, clients[0].get(f"/api/tournaments/{tid}/records").text, tmp_path)


def test_a_round_claimed_by_a_process_killed_before_its_tables_is_formed_again(tmp_path):
    """As if a process claimed round 1 and died before writing its tables: the claim is stale
    (``FORMING_STALE``), one process claims it again and forms it, and the tournament ends."""
    from tarocchi.server.core.store import open_store

    with running_server(bot_delay=0.01, trick_pause=0.01, tournaments=QUICK) as server:
        clients = [sign_up(server, n + 1, NAMES[n]) for n in range(3)]
        tid = clients[0].post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "swiss", "rounds": 1,
                                                        "starts": 2}).json()["id"]
        for c in clients:
            c.post(f"/api/tournaments/{tid}/join")
        other = open_store(server.db)
        try:
            assert other.tournaments.claim_round(tid, 0, 1, at=time.time() - 60)  # (the dead process's claim)
        finally:
            other.close()
        page = until(lambda: (p := clients[0].get(f"/api/tournaments/{tid}").json())["status"] == "finished" and p,
                     seconds=120)
        assert page["round"] == 1 and [len(r["tables"]) for r in page["rounds"]] == [1]
        assert all(t["done"] for t in page["rounds"][0]["tables"])


def test_an_arena_seating_another_process_claimed_is_not_made_twice(tmp_path):
    """Another process of the site has claimed the arena's first seating and is still making
    its tables (their rows not written yet): this one seats nobody meanwhile, else the players
    would sit at two tables at once; once the claim is stale (its process killed,
    ``FORMING_STALE``) this one claims that seating again and makes it."""
    from tarocchi.server.core.store import open_store

    with running_server(bot_delay=0.01, trick_pause=0.01, tournaments=QUICK) as server:
        clients = [sign_up(server, n + 1, NAMES[n]) for n in range(3)]
        tid = clients[0].post("/api/tournaments", json={"game": "sicilian", "seats": 3, "kind": "arena", "minutes": 30,
                                                        "starts": 2}).json()["id"]
        for c in clients:
            c.post(f"/api/tournaments/{tid}/join")
        other = open_store(server.db)
        try:
            claimed = time.time()
            assert other.tournaments.claim_round(tid, 0, 1, at=claimed)  # (the other process's claim)
            until(lambda: clients[0].get(f"/api/tournaments/{tid}").json()["status"] == "running")
            time.sleep(2.0)  # (twenty ticks)
            page = clients[0].get(f"/api/tournaments/{tid}").json()
            assert page["round"] == 1 and page["rounds"] == []
            # (its process killed: the claim grows stale)
            assert other.tournaments.claim_round(tid, 1, 1, at=time.time() - 60, claimed_at=claimed)
        finally:
            other.close()
        page = until(lambda: (p := clients[0].get(f"/api/tournaments/{tid}").json())["rounds"] and p)
        assert page["round"] == 1 and [(r["round"], len(r["tables"])) for r in page["rounds"]] == [(1, 1)]
        assert sorted(page["rounds"][0]["tables"][0]["names"]) == sorted(NAMES[:3])


def test_the_standings_are_worked_out_again_only_when_a_result_or_a_player_comes(monkeypatch):
    """Each look at a tournament's page (and each arena seating) reads its standings: they are
    worked out once per result written or player come, not at every look."""
    from tarocchi.server import tournaments

    worked = []
    real = tournaments.standings
    monkeypatch.setattr(tournaments, "standings", lambda *a: worked.append(a) or real(*a))
    seats = lambda *players: [{"player": p, "team": s, "total": 3 - s, "absent": False, "deals": [3 - s]}  # noqa: E731
                              for s, p in enumerate(players)]
    t = {"id": "t1", "kind": "arena"}
    tables = [{"round": 1, "number": 1, "table": "a", "players": [1, 2, 3], "result": seats(1, 2, 3)},
              {"round": 1, "number": 2, "table": "b", "players": [4, 5, 6], "result": None}]
    players = [{"number": n, "name": f"P{n}", "account": f"a{n}", "present": True} for n in range(1, 7)]
    feature = tournaments.Tournaments(hub=None)
    first = feature.standings(t, tables, players)
    assert feature.standings(t, tables, players) == first and len(worked) == 1  # (looked at again: kept)
    first[0]["name"] = "changed by a caller"
    assert feature.standings(t, tables, players)[0]["name"] == "P1"  # (each caller its own rows)
    tables[1]["result"] = seats(4, 5, 6)  # a result comes
    assert [r["number"] for r in feature.standings(t, tables, players)][:2] == [1, 4] and len(worked) == 2
    players.append({"number": 7, "name": "P7", "account": "a7", "present": True})  # a player joins
    assert len(feature.standings(t, tables, players)) == 7 and len(worked) == 3
    assert len(feature.standings(t, tables, players)) == 7 and len(worked) == 3
