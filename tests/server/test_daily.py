"""The daily deal (issue 59, tarocchi/server/daily.py) on real servers and both stores: the day's
deals the same for everyone (two accounts on two processes of a site), one ranked try an account
a day (a second POST: the same table, then 409 with the result), signed out an unranked table of
the same deals, the scores stored as each deal ends, the standings as matchpoints of the stored
scores, the streak, budgets and refusals, and no card of the day in any daily route: two
databases, two secrets, two days' different decks, the same bytes for the same public facts."""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import json
import random
import sqlite3
import time
import types

import httpx
import pytest
import websockets

from tarocchi.engine.game import get_game
from tarocchi.server.core.sessions import COOKIE
from tarocchi.server.core.store import open_store
from tarocchi.server.watch import DAILY_HIDDEN, DAILY_WATCHED
from tarocchi.server import daily
from tarocchi.server.daily import ALREADY_PLAYED, DEALS, NO_DAILY, DailyDeals, streak, today
from tests.redis_server import RedisServer
from tests.server.live import running_server
from tests.server.seat import Seat, deal_done, pick_action
from tests.server.test_public import person
from tests.server.test_social import on, sign_up


def the_day(db: str) -> DailyDeals:
    """The day's deals as the servers on ``db`` draw them (the same site secret)."""
    store = open_store(db)
    feature = DailyDeals(types.SimpleNamespace(store=store, now=time.time))
    feature.secret()
    store.close()
    return feature


def first_hand(feature: DailyDeals, game: str, deal: int) -> list:
    """The person's hand (seat 0) of the day's deal ``deal``, dealt by the engine from its deck."""
    rules, day = get_game(game), today(time.time())
    seats = rules.seats[0]
    dealer = (feature.first_dealer(day, game, seats) + deal) % seats
    return rules.new_deal(seats, dealer, rules.deck.parse_order(feature.deck(day, game, deal))).view(0)["hand"]


async def open_seat(server, link: str, client: httpx.Client | None = None) -> Seat:
    headers = {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"} if client is not None else None
    return await Seat.open(server.ws_url, link.removeprefix("/t/"), headers=headers)


async def play_deal(seat: Seat, rng: random.Random, n: int) -> None:
    """The person's seat plays until the deal is counted (its acts' ids new at each deal: an id
    already applied is answered as a resent act)."""
    k = 0
    while not deal_done(seat.state):
        if seat.my_turn():
            version = seat.state["version"]
            await seat.act(pick_action(seat.view, rng), f"d{n}a{k}")
            k += 1
            await seat.wait_state(lambda s: s["version"] > version)
        else:
            await seat.recv()


async def play_daily(seat: Seat, rng: random.Random, hands: list | None = None) -> dict:
    """Play the day's deals at the seat to the last one's count (checking each first hand
    against ``hands``); the last state."""
    for n in range(1, DEALS + 1):
        state = await seat.wait_state(lambda s: s["table"]["deal_number"] == n and s["view"] is not None)
        if hands is not None:
            assert state["view"]["hand"] == hands[n - 1] or deal_done(state), n  # (a deal thrown in at once: done)
        await play_deal(seat, rng, n)
        if seat.state["table"]["status"] == "over":
            return seat.state
        if n < DEALS:
            await seat.send({"type": "next"})
    return await seat.wait_state(lambda s: s["table"]["deal_number"] == DEALS and deal_done(s))


def test_a_ranked_try_is_the_day_s_deals_once_and_signed_out_is_unranked(store_db):
    with running_server(store_db) as server:
        anna = sign_up(server, 1, "Anna")
        day = the_day(store_db)
        hands = [first_hand(day, "sicilian", n) for n in range(DEALS)]
        assert hands[0] != hands[1]
        facts = anna.get("/api/daily/sicilian").json()
        assert facts["me"] == {"name": "Anna", "played": False, "finished": False, "deals": 0, "link": None,
                               "streak": 0, "result": None}
        assert (facts["deals"], facts["seats"], facts["seat"], facts["level"], facts["played"]) == (DEALS, 3, 0, "learned", 0)
        first = anna.post("/api/daily/sicilian")
        assert first.status_code == 200 and first.json()["ranked"] is True, first.text
        again = anna.post("/api/daily/sicilian").json()
        assert again == first.json()  # the same table while it is unfinished
        assert anna.get("/api/daily/sicilian").json()["me"]["link"] == again["link"]

        async def body():
            seat = await open_seat(server, again["link"], anna)
            state = await seat.wait_state(lambda s: s["view"] is not None)
            assert state["table"]["daily"] == {"game": "sicilian", "day": today(time.time()), "deals": DEALS,
                                               "ranked": True}
            assert state["table"]["hints"] is False  # (no advice at a ranked table)
            last = await play_daily(seat, random.Random(5), hands)
            await seat.close()
            return last

        last = asyncio.run(body())
        sheet = [row[0] for row in last["table"]["sheet"]][:DEALS]
        mine = anna.get("/api/daily/sicilian").json()
        assert mine["me"]["finished"] and mine["me"]["deals"] == len(sheet) and mine["me"]["streak"] == 1
        assert mine["me"]["link"] is None and (mine["played"], mine["finished"]) == (1, 1)
        store = open_store(store_db)
        assert sorted((d, s) for _, d, s in store.dailies.scores(today(time.time()), "sicilian")) == \
            [(d, float(s)) for d, s in enumerate(sheet)]  # each deal's score, as the table counted it
        store.close()
        # Its finished deals are not shown face up while others may still play them today.
        token = again["link"].removeprefix("/t/")
        for path in (f"/api/replay/{token}/1", f"/api/records/{token}"):
            r = anna.get(path)
            assert (r.status_code, r.json()) == (403, {"error": DAILY_HIDDEN}), path
        assert anna.get(f"/api/deals/{token}").status_code == 200  # (dealers and payments: no card)
        done = anna.post("/api/daily/sicilian")
        assert done.status_code == 409 and done.json() == {"error": ALREADY_PLAYED, "result": mine["me"]}

        # Signed out: a table of the same deals, unranked, and nothing stored of it.
        with httpx.Client(base_url=server.url, headers=person(7)) as stranger:
            assert stranger.get("/api/daily/sicilian").json()["me"] is None
            table = stranger.post("/api/daily/sicilian").json()
            assert table["ranked"] is False and table["link"] != again["link"]

            async def unranked():
                seat = await open_seat(server, table["link"])
                state = await seat.wait_state(lambda s: s["view"] is not None)
                assert state["view"]["hand"] == hands[0] and state["table"]["daily"]["ranked"] is False
                # Its watch link shows nothing today: a spectator would see the cards played.
                ws = await websockets.connect(server.ws_url + state["table"]["watch"].replace("/w/", "/ws/"))
                assert json.loads(await ws.recv()) == {"type": "error", "reason": DAILY_WATCHED}
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await ws.recv()
                assert closed.value.rcvd.code == 4404
                await seat.close()

            asyncio.run(unranked())
            assert stranger.get("/api/daily/sicilian").json()["played"] == 1


@pytest.fixture
def redis():
    with RedisServer() as server:
        yield server


def test_two_accounts_on_two_processes_of_a_site_get_the_same_deals(redis, store_db):
    with running_server(store_db, bus=redis.url, process="A", lease=2.0) as a, \
            running_server(store_db, bus=redis.url, process="B", lease=2.0) as b:
        anna, bruno = sign_up(a, 1, "Anna"), sign_up(a, 2, "Bruno")
        with on(b, bruno, 2) as bruno_b:
            links = [anna.post("/api/daily/ottocento").json()["link"], bruno_b.post("/api/daily/ottocento").json()["link"]]
            assert links[0] != links[1]

            async def body():
                seats = [await open_seat(a, links[0], anna), await open_seat(b, links[1], bruno_b)]
                states = [await s.wait_state(lambda st: st["view"] is not None) for s in seats]
                for s in seats:
                    await s.close()
                return states

            states = asyncio.run(body())
            assert states[0]["view"]["hand"] == states[1]["view"]["hand"] == first_hand(the_day(store_db), "ottocento", 0)
            assert states[0]["view"]["dealer"] == states[1]["view"]["dealer"]
            assert anna.get("/api/daily/ottocento").json()["played"] == bruno_b.get("/api/daily/ottocento").json()["played"] == 2
            # One try an account, whichever process is asked: Anna's again from B, and Carla's
            # first asked of both processes at once.
            with on(b, anna, 1) as anna_b:
                assert anna_b.post("/api/daily/ottocento").json()["link"] == links[0]
            carla = sign_up(a, 3, "Carla")
            with on(b, carla, 3) as carla_b, concurrent.futures.ThreadPoolExecutor(2) as pool:
                answers = list(pool.map(lambda c: c.post("/api/daily/ottocento").json(), [carla, carla_b]))
            assert answers[0] == answers[1] and answers[0]["ranked"] is True
            assert anna.get("/api/daily/ottocento").json()["played"] == 3


def store_tries(db: str, accounts: dict[str, str], scores: dict[str, list[float]], day: str) -> None:
    """Ranked tries of ``day``'s Sicilian with these scores, written as the feature writes them."""
    store = open_store(db)
    for name, points in scores.items():
        try_id = f"try-{name}-{day}"
        store.dailies.begin(try_id, day, "sicilian", accounts[name], f"table-{name}-{day}", f"token-{name}-{day}")
        store.dailies.score(try_id, points, len(points) == DEALS)
    store.close()


def account_ids(db: str, names: list[str]) -> dict[str, str]:
    store = open_store(db)
    found = {n: store.people.account_named(n)["id"] for n in names}
    store.close()
    return found


def test_the_standings_are_the_matchpoints_of_the_stored_scores_and_the_streak_counts_days(store_db, monkeypatch):
    monkeypatch.setattr(daily, "STANDINGS_KEPT", 0.0)  # (scores written here, not by the server: read each time)
    with running_server(store_db) as server:
        clients = {name: sign_up(server, n, name) for n, name in enumerate(["Anna", "Bruno", "Carla"], 1)}
        ids = account_ids(store_db, list(clients))
        now = datetime.date.fromisoformat(today(time.time()))
        days = [(now - datetime.timedelta(days=k)).isoformat() for k in range(4)]
        # Deal 1: Anna 10, Bruno 0, Carla 10 (Anna and Carla 75 %, Bruno 0); deal 2: a tie (50 %
        # each); deal 3: Bruno 3 beats Anna 0; Carla has played one deal so far.
        store_tries(store_db, ids, {"Anna": [10, -5, 0], "Bruno": [0, -5, 3], "Carla": [10]}, days[0])
        store_tries(store_db, ids, {"Anna": [1, 2, 3]}, days[1])
        store_tries(store_db, ids, {"Anna": [1, 2, 3], "Carla": [0, 0, 0]}, days[2])
        facts = clients["Anna"].get("/api/daily/sicilian").json()
        assert facts["standings"] == [
            {"name": "Carla", "percent": 75.0, "deals": 1, "rank": 1},
            {"name": "Bruno", "percent": 50.0, "deals": 3, "rank": 2},
            {"name": "Anna", "percent": 41.7, "deals": 3, "rank": 3}]
        assert (facts["played"], facts["finished"], facts["compared"]) == (3, 2, 3)
        assert facts["me"]["result"] == facts["standings"][2] and facts["me"]["streak"] == 3
        assert clients["Carla"].get("/api/daily/sicilian").json()["me"]["streak"] == 1  # (today; not yesterday)
        assert clients["Carla"].get("/api/daily/sicilian").json()["me"]["finished"] is False
        # An account deleted takes its tries with it: the others are ranked without it.
        store = open_store(store_db)
        store.people.delete_account(ids["Carla"])
        store.close()
        rows = clients["Anna"].get("/api/daily/sicilian").json()["standings"]
        assert [(r["name"], r["percent"], r["rank"]) for r in rows] == [("Anna", 50.0, 1), ("Bruno", 50.0, 1)]  # (a tie: by name)


def test_the_streak_counts_back_from_today_or_from_yesterday():
    assert streak([], "2026-12-07") == 0
    assert streak(["2026-12-06", "2026-12-05"], "2026-12-07") == 2  # today not begun yet: still alive
    assert streak(["2026-12-07", "2026-12-06", "2026-12-04"], "2026-12-07") == 2
    assert streak(["2026-12-05"], "2026-12-07") == 0
    assert streak(["2026-03-01", "2026-02-28"], "2026-03-01") == 2  # (across a month's end)


def test_no_daily_route_names_a_card_two_days_decks_give_the_same_bytes(tmp_path, postgres):
    """Two sites (a SQLite file, a PostgreSQL database), so two secrets and two different sets
    of decks today: the same accounts and stored scores give the same bytes on every daily route."""
    answers = []
    for db in (str(tmp_path / "one.sqlite3"), postgres.new_database()):
        with running_server(db) as server:
            anna, bruno = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno")
            ids = account_ids(db, ["Anna", "Bruno"])
            store_tries(db, ids, {"Bruno": [4, -8, 2]}, today(time.time()))
            started = anna.post("/api/daily/renaissance").json()  # (Anna's try begun, a table dealt)

            async def body():
                seat = await open_seat(server, started["link"], anna)
                await seat.wait_state(lambda s: s["view"] is not None)
                await seat.close()

            asyncio.run(body())
            with httpx.Client(base_url=server.url, headers=person(9)) as stranger:
                answers.append([anna.get("/api/daily/renaissance").content.replace(started["link"].encode(), b"L"),
                                bruno.get("/api/daily/sicilian").content,
                                stranger.get("/api/daily/renaissance").content,
                                sorted(stranger.post("/api/daily/sicilian").json())])
            feature = the_day(db)
            answers[-1].append(feature.deck(today(time.time()), "renaissance", 0))
    decks = [a.pop() for a in answers]
    assert decks[0] != decks[1]  # the two days' cards differ...
    assert answers[0] == answers[1]  # ...and nothing the daily routes say does


def test_bad_games_and_floods_are_refused_and_change_nothing(tmp_path):
    with running_server(str(tmp_path / "t.sqlite3"), new_tables=(2, 0.001), lobby=(3, 0.001)) as server:
        with httpx.Client(base_url=server.url, headers=person(3)) as someone:
            for bad in ("nogame", "Sicilian", "sicilian.js", "x" * 300):
                for method in ("GET", "POST"):
                    r = someone.request(method, f"/api/daily/{bad}")
                    assert (r.status_code, r.json()) == (404, {"error": NO_DAILY}), (method, bad)
            assert someone.post("/api/daily/sicilian").status_code == 200
            assert someone.post("/api/daily/sicilian").status_code == 200
            assert someone.post("/api/daily/sicilian").status_code == 429  # the address's new tables
            assert [someone.get("/api/daily/sicilian").status_code for _ in range(4)] == [200, 200, 200, 429]
        with httpx.Client(base_url=server.url, headers=person(4)) as other:  # (a budget per address)
            assert other.post("/api/daily/calabresella").status_code == 200
        store = open_store(server.db)
        assert store.dailies.played(today(time.time()), "sicilian") == (0, 0)  # (unranked: nothing stored)
        store.close()


DAILY_VERSION = 8  # (base.py SCHEMA_VERSION's comment)


def test_a_database_of_the_version_before_gains_the_daily_tables(store_db):
    """The daily tables are schema version 8's step: a database of version 7 opens with them made
    (and with version 9's, the tournaments', after them)."""
    store = open_store(store_db)
    with store.people.write() as tx:
        tx.run("DROP TABLE daily_scores")
        tx.run("DROP TABLE daily_tries")
        for table in ("tournament_tables", "tournament_players", "tournaments"):
            tx.run(f"DROP TABLE {table}")
    store.close()
    if store_db.startswith("postgresql"):
        import psycopg
        with psycopg.connect(store_db, autocommit=True) as conn:
            conn.execute("UPDATE schema_version SET version = %s", (DAILY_VERSION - 1,))
    else:
        with sqlite3.connect(store_db) as db:
            db.execute(f"PRAGMA user_version = {DAILY_VERSION - 1}")
    store = open_store(store_db)
    account = store.people.create_account("Anna", "segreto123", [])
    row = store.dailies.begin("t1", "2026-12-07", "sicilian", account, "table", "token")
    assert (row["id"], row["deals"], row["finished_at"]) == ("t1", 0, None)
    assert store.dailies.begin("t2", "2026-12-07", "sicilian", account, "other", "x")["id"] == "t1"  # one a day
    store.close()


def test_a_daily_table_s_cards_open_face_up_once_its_day_is_over():
    from tarocchi.server.core.tables import daily_hidden

    noon = datetime.datetime(2026, 12, 7, 12, tzinfo=datetime.timezone.utc).timestamp()
    assert daily_hidden(types.SimpleNamespace(daily={"day": "2026-12-07"}), noon)
    assert not daily_hidden(types.SimpleNamespace(daily={"day": "2026-12-06"}), noon)
    assert not daily_hidden(types.SimpleNamespace(daily=None), noon)
    assert daily_hidden(types.SimpleNamespace(daily={"day": "2026-12-07"}), noon + 11.9 * 3600)  # (till midnight UTC)
    assert not daily_hidden(types.SimpleNamespace(daily={"day": "2026-12-07"}), noon + 12 * 3600)
