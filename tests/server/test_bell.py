"""The bell, its second half (issue 58): the store tells its listeners of each item once it is
committed, the notifier pushes every item to its own account's browsers (budgeted, coalesced),
rings ``started`` and a correspondence table's ``turn`` itself (one unread turn a table), and the
chat reads bans and blocks from the store once in a few seconds, not once a line; on both stores."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import httpx
import pytest

from tarocchi.server import notify
from tarocchi.server.core.store import open_store
from tarocchi.server.core.store import people as people_module
from tarocchi.server.core.store.people import Ended, Player
from tests.push_service import PushService
from tests.server.live import running_server
from tests.server.seat import Seat
from tests.server.test_moderation import moderator
from tests.server.test_notify import account, play_until
from tests.server.test_public import person
from tests.server.test_social import sign_up


def test_the_store_tells_its_listeners_of_each_bell_item_after_its_commit_and_never_of_one_undone(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        anna, bruno = people.create_account("Anna", "h", []), people.create_account("Bruno", "h", [])
        told: list[tuple[list[dict], list]] = []
        # (what a listener reads is committed: another connection's read sees the item)
        people.rung.append(lambda items: told.append((items, [people.bell(i["account"])["unread"] for i in items])))
        item = people.ring(anna, "warning", {"text": "be kind"})
        assert told == [([{"id": item, "account": anna, "kind": "warning", "data": {"text": "be kind"},
                           "at": told[0][0][0]["at"]}], [1])]
        with pytest.raises(RuntimeError), people.write() as tx:  # rolled back: nobody is told
            people._ring(tx, bruno, "warning", {"text": "never"}, time.time())
            raise RuntimeError("undone")
        assert len(told) == 1 and people.bell(bruno)["unread"] == 0
        with people.ringing():  # (nested: the outermost block tells, once, at its end)
            people.ring(bruno, "warning", {"text": "one"})
            people.ring(bruno, "warning", {"text": "two"})
            assert len(told) == 1
        assert [i["data"]["text"] for i in told[1][0]] == ["one", "two"]
        # A match's end rings inside the store's own commit (append_many): told after it.
        store.create_table("t1", "room", ["a", "b", "c"], {"kind": "room"})
        carla = people.create_account("Carla", "h", [])
        players = [Player(s, n, s, t, False, a) for s, (n, t), a in
                   zip(range(3), [("Anna", 21), ("Bruno", 3), ("Carla", 0)], [anna, bruno, carla])]
        store.append_many([("t1", 2, "join", {"seat": 0})], ended=[Ended(
            "t1", 1, "calabresella", 3, 100.0, players,
            rater=lambda ps, before: {p.account: (25.0 + 3 - p.place, 8.0) for p in ps})])
        assert sorted((i["account"], i["kind"]) for i in told[2][0]) == sorted(
            (a, "rated") for a in (anna, bruno, carla))
        assert told[2][1] == [2, 3, 1]  # (Anna's warning, Bruno's two, each's rating: all committed)
    finally:
        store.close()


def test_one_unread_turn_a_table_and_a_seen_turn_goes(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        anna = people.create_account("Anna", "h", [])
        turn = {"table": "t1", "link": "/t/anna-seat", "game": "calabresella"}
        people.ring(anna, "turn", turn, one_per_table=True)
        people.ring(anna, "turn", turn, one_per_table=True)  # a newer turn at t1 replaces it
        people.ring(anna, "turn", turn | {"table": "t2", "link": "/t/other"}, one_per_table=True)
        bell = people.bell(anna)
        assert bell["unread"] == 2 and sorted(i["data"]["table"] for i in bell["items"]) == ["t1", "t2"]
        assert people.bell_read(anna, bell["items"][0]["id"])  # read: kept as it is
        people.ring(anna, "turn", turn, one_per_table=True)
        bell = people.bell(anna)
        assert bell["unread"] == 1 and len(bell["items"]) == 3
        assert people.unring(anna, "turn", "t1")  # seen: the unread one goes, the read ones stay
        assert not people.unring(anna, "turn", "t1")
        assert people.bell(anna)["unread"] == 0 and len(people.bell(anna)["items"]) == 2
    finally:
        store.close()


def test_the_chat_reads_bans_and_blocks_once_in_a_while_and_a_change_here_at_once(store_db, monkeypatch):
    monkeypatch.setattr(people_module, "CHAT_FRESH", 0.5)
    here, there = open_store(store_db), open_store(store_db)  # two processes of a site
    try:
        anna, bruno, carla = (here.people.create_account(n, "h", []) for n in ("Anna", "Bruno", "Carla"))
        reads = []
        read = here.people.read
        here.people.read = lambda: (reads.append(1), read())[1]
        assert here.people.blockers_among(bruno, [anna, carla]) == set()
        assert here.people.chat_banned_until(bruno) is None
        before = len(reads)
        for _ in range(200):  # a chat's lines
            here.people.blockers_among(bruno, [anna, carla])
            here.people.blocked_among(anna, [bruno])
            here.people.chat_banned_until(bruno)
        assert len(reads) - before <= 1  # (Anna's blocks, read once)
        here.people.sanction(bruno, "chat", time.time() + 3600)  # a change here shows at once
        assert here.people.chat_banned_until(bruno) is not None
        assert here.people.sanctioned_until(bruno, "rated") is None  # (a chat ban only)
        here.people.block(anna, bruno, 10)
        assert here.people.blockers_among(bruno, [anna, carla]) == {anna}
        assert here.people.blocked_among(anna, [bruno, carla]) == {bruno}
        # One made on the other process shows here within CHAT_FRESH.
        there.people.unblock(anna, bruno)
        there.people.block(carla, bruno, 10)
        there.people.sanction(bruno, "chat", 0)
        assert here.people.blockers_among(bruno, [anna, carla]) == {anna}
        assert here.people.chat_banned_until(bruno) is not None
        time.sleep(0.6)
        assert here.people.blockers_among(bruno, [anna, carla]) == {carla}
        assert here.people.chat_banned_until(bruno) is None
    finally:
        here.close()
        there.close()


def challenge(client: httpx.Client, to: str) -> str:
    r = client.post("/api/challenges", json={"to": [to], "game": "calabresella", "seats": 3})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_a_challenge_its_answer_and_a_warning_are_pushed_to_their_own_account_alone():
    with PushService() as service, running_server(push_hosts=(service.origin,)) as server:
        anna, bruno, carla = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno"), sign_up(server, 3, "Carla")
        mara = moderator(server, 4, "Mara")
        a_browser, b_browser = service.browser(), service.browser()
        assert anna.post("/api/push", json=a_browser.subscription | {"lang": "it"}).status_code == 204
        assert bruno.post("/api/push", json=b_browser.subscription).status_code == 204
        cid = challenge(anna, "Bruno")
        told = service.wait(lambda m: m["what"] == "challenge")
        assert told["browser"] in b_browser.endpoint and told["title"] == "Anna challenges you"
        assert (told["body"], told["url"], told["tag"]) == ("Calabresella", "/", "bell:challenge")
        assert told["bell"] == bruno.get("/api/me/bell").json()["items"][0]["id"]
        assert bruno.post(f"/api/challenges/{cid}/decline").status_code == 204
        declined = service.wait(lambda m: m["what"] == "challenge_declined")
        assert declined["browser"] in a_browser.endpoint and declined["title"] == "La tua sfida è stata rifiutata"
        assert declined["body"] == "Bruno" and declined["tag"] == f"challenge:{cid}"
        # Carla has no subscription: her challenge rings her bell and pushes nothing anywhere.
        pushed = len(service.messages)
        challenge(bruno, "Carla")
        assert carla.get("/api/me/bell").json()["unread"] == 1
        # A warning after Anna's report: pushed to Bruno, naming neither Anna nor Mara.
        assert anna.post("/api/reports", json={"name": "Bruno", "reason": "abuse", "text": "rude"}).status_code == 204
        assert mara.post("/api/mod/actions", json={"name": "Bruno", "action": "warn",
                                                    "why": "mind your words"}).status_code == 200
        warned = service.wait(lambda m: m["what"] == "warning")
        assert warned["browser"] in b_browser.endpoint
        assert (warned["title"], warned["body"], warned["url"]) == ("A word from the moderators", "mind your words", "/")
        time.sleep(0.5)
        assert [m["what"] for m in service.messages[pushed:]] == ["warning"]  # (nothing for Carla, nor Anna)
        for m in service.messages:
            assert "Mara" not in str(m) and ("Anna" not in str(m) or m["what"] == "challenge")
        for c in (anna, bruno, carla, mara):
            c.close()


def test_a_flood_of_challenges_is_pushed_within_the_budget_then_as_one(monkeypatch):
    monkeypatch.setattr(notify, "BELL_PUSHES", (2, 1.0))  # (the server's: 5, then one a minute)
    with PushService() as service, running_server(push_hosts=(service.origin,)) as server:
        anna, carla = sign_up(server, 1, "Anna"), sign_up(server, 3, "Carla")
        browser = service.browser()
        assert carla.post("/api/push", json=browser.subscription).status_code == 204
        for _ in range(5):
            challenge(anna, "Carla")
        more = service.wait(lambda m: m["what"] == "more", timeout=5)
        assert (more["title"], more["body"], more["url"]) == ("Tarocchi", "3 more on your bell", "/")
        time.sleep(0.3)
        assert [m["what"] for m in service.messages] == ["challenge", "challenge", "more"]
        assert carla.get("/api/me/bell").json()["unread"] == 5  # (the bell has every one)
        anna.close()
        carla.close()


def test_a_correspondence_turn_rings_one_item_a_table_pushed_once_and_the_start_too():
    async def body(server, service):
        a_browser, b_browser = service.browser(), service.browser()
        host = httpx.Client(base_url=server.url, headers=person(1))
        assert host.post("/api/account", json={"name": "Anna", "password": "segreto123"}).status_code == 201
        assert host.post("/api/push", json=a_browser.subscription).status_code == 204
        made = host.post("/api/rooms", json={"seats": 3, "game": "calabresella", "correspondence": 1}).json()
        links, table = made["links"], made["table"]
        tokens = [link.removeprefix("/t/") for link in links]
        with contextlib.closing(host), contextlib.closing(account(server, 2, "Bruno", links[1], b_browser)) as bruno, \
                contextlib.closing(account(server, 3, "Carla", links[2])) as carla:
            seats = [await Seat.open(server.ws_url, t) for t in tokens[:2]]
            await seats[1].send({"type": "visible", "visible": False})  # Bruno's tab goes behind another
            await seats[1].quiet(0.2)
            seats.append(await Seat.open(server.ws_url, tokens[2]))  # the match starts
            started = service.wait(lambda m: m["what"] == "started")
            assert started["browser"] in b_browser.endpoint and started["url"] == links[1]
            rng = random.Random(7)
            turns = lambda: [m for m in service.of(b_browser) if m["what"] == "turn"]  # noqa: E731
            await play_until(seats, lambda: len(turns()) >= 2, rng)
            await asyncio.sleep(0.3)
            # Each turn pushed once, as its bell item (no second push of it); one unread turn.
            assert len({m["bell"] for m in turns()}) == len(turns()) >= 2
            assert all(m["url"] == links[1] and m["tag"] == f"{table}:turn" for m in turns())
            items = bruno.get("/api/me/bell").json()["items"]
            assert [(i["kind"], i["data"]) for i in items if not i["read"]] == [
                ("turn", {"table": table, "link": links[1], "game": "calabresella"}),
                ("started", {"table": table, "link": links[1], "game": "calabresella"})]
            # Nobody else's bell or browser has Bruno's seat link (Anna and Carla looked on).
            assert carla.get("/api/me/bell").json()["items"] == []
            assert [i["kind"] for i in host.get("/api/me/bell").json()["items"]] == []
            assert service.of(a_browser) == []
            async def kinds_once_settled() -> list[str]:
                for _ in range(50):
                    kinds = [i["kind"] for i in bruno.get("/api/me/bell").json()["items"]]
                    if "turn" not in kinds:
                        break
                    await asyncio.sleep(0.1)
                return kinds

            # Bruno's tab comes back into sight: the turn is seen, off his bell; the start stays.
            await seats[1].send({"type": "visible", "visible": True})
            assert await kinds_once_settled() == ["started"]
            # A turn rung again (as if a newer one), then a page of his seat opens the table: gone too.
            elsewhere = open_store(server.db)
            try:
                ids = {i["data"]["table"]: i for i in bruno.get("/api/me/bell").json()["items"]}
                held = elsewhere.people.account_named("Bruno")["id"]
                elsewhere.people.ring(held, "turn", ids[table]["data"], one_per_table=True)
            finally:
                elsewhere.close()
            assert [i["kind"] for i in bruno.get("/api/me/bell").json()["items"]] == ["turn", "started"]
            page = await Seat.open(server.ws_url, tokens[1])
            assert await kinds_once_settled() == ["started"]
            for s in seats + [page]:
                await s.close()

    with PushService() as service, running_server(push_hosts=(service.origin,)) as server:
        asyncio.run(body(server, service))


@pytest.fixture(scope="module")
def redis():
    from tests.redis_server import RedisServer
    with RedisServer() as server:
        yield server


def test_on_a_site_of_two_each_item_is_pushed_once_by_the_process_that_rang_it(redis, store_db):
    from tests.server.test_social import on
    with PushService() as service, \
            running_server(store_db, bus=redis.url, process="A", lease=2.0, push_hosts=(service.origin,)) as a, \
            running_server(store_db, bus=redis.url, process="B", lease=2.0, push_hosts=(service.origin,)) as b:
        anna, bruno = sign_up(a, 1, "Anna"), sign_up(a, 2, "Bruno")
        a_browser, b_browser = service.browser(), service.browser()
        assert anna.post("/api/push", json=a_browser.subscription).status_code == 204
        assert bruno.post("/api/push", json=b_browser.subscription).status_code == 204
        cid = challenge(anna, "Bruno")  # rung on A
        with on(b, bruno, 2) as bruno_b:
            assert bruno_b.post(f"/api/challenges/{cid}/decline").status_code == 204  # rung on B
        service.wait(lambda m: m["what"] == "challenge_declined")
        time.sleep(1.0)  # (time for a second push, if one were sent)
        assert [m["what"] for m in service.of(b_browser)] == ["challenge"]
        assert [m["what"] for m in service.of(a_browser)] == ["challenge_declined"]
        anna.close()
        bruno.close()


def test_who_is_online_is_gathered_once_in_a_while_for_every_friends_list(monkeypatch):
    """Issue 58: one gathering of who is online serves the friends lists asked within
    ONLINE_FRESH seconds; a friend who leaves shows offline after it."""
    from tarocchi.server import social
    from tarocchi.server.core.sessions import COOKIE

    monkeypatch.setattr(social, "ONLINE_FRESH", 3.0)  # (the server's 2 s: room for a slow machine)

    async def body(server):
        anna, bruno = sign_up(server, 1, "Anna"), sign_up(server, 2, "Bruno")
        for a, b in ((anna, "Bruno"), (bruno, "Anna")):
            assert a.post("/api/me/friends", json={"name": b}).status_code == 204
        links = anna.post("/api/rooms", json={"seats": 3}).json()["links"]
        seat = await Seat.open(server.ws_url, links[1].removeprefix("/t/"),
                               headers={"Cookie": f"{COOKIE}={bruno.cookies[COOKIE]}"})
        assert anna.get("/api/me/friends").json()["following"][0]["online"]
        await seat.close()
        await asyncio.sleep(0.2)
        assert anna.get("/api/me/friends").json()["following"][0]["online"]  # (the gathering kept)
        await asyncio.sleep(3.0)
        assert anna.get("/api/me/friends").json()["following"][0] == {
            "name": "Bruno", "friend": True, "online": False, "table": None}
        anna.close()
        bruno.close()

    with running_server() as server:
        asyncio.run(body(server))


def test_a_rated_match_end_is_pushed_once_as_its_bell_item_with_the_rating(tmp_path):
    """Issue 58: the ``rated`` item rung in the match's commit is the push of its end, in the
    subscription's language with the rating's change; "the match is over" is not pushed too."""
    import json
    from types import SimpleNamespace

    from tarocchi.engine.game import get_game
    from tarocchi.server.notify import Notifier
    from tarocchi.server.ratings import shown_change

    store = open_store(str(tmp_path / "rated.sqlite3"))
    people = store.people
    accounts = [people.create_account(n, "h", []) for n in ("Anna", "Bruno", "Carla")]
    assert people.subscribe(accounts[0], "https://fcm.googleapis.com/fcm/send/anna", "p", "a", "it")
    sent: list[dict] = []

    async def body():
        hub = SimpleNamespace(store=store, staged=[], committing=[], committed=asyncio.Event(), connections={})
        hub.committed.set()
        notifier = Notifier(hub, send=lambda sub, payload: sent.append(json.loads(payload)) or 201, shown=shown_change)
        store.create_table("t1", "room", ["a", "b", "c"], {"kind": "room"})
        players = [Player(s, n, s, t, False, a) for s, (n, t), a in
                   zip(range(3), [("Anna", 21), ("Bruno", 3), ("Carla", 0)], accounts)]
        store.append_many([("t1", 2, "join", {"seat": 0})], ended=[Ended(
            "t1", 1, "calabresella", 3, 100.0, players,
            rater=lambda ps, before: {p.account: (25.0 + 3 - p.place, 8.0) for p in ps})])
        table = SimpleNamespace(id="t1", names=["Anna", "Bruno", "Carla"], game=get_game("calabresella"))
        await notifier._push(table, accounts[0], "anna-seat", "ended")
        await asyncio.gather(*notifier.tasks)
        await notifier.stop()

    try:
        asyncio.run(body())
    finally:
        store.close()
    assert [m["what"] for m in sent] == ["rated"]
    before, after = shown_change(None, [27.0, 8.0])
    assert sent[0]["title"] == "La partita è finita" and sent[0]["tag"] == "t1:ended" and sent[0]["url"] == "/"
    assert sent[0]["body"] == f"Calabresella: il tuo punteggio {before} → {after}"


def test_a_tournaments_bell_items_are_pushed_with_their_own_words_and_links():
    """A tournament's three items (issue 59, server/tournaments.py): its table ready opens the
    seat, its start and its end the tournament's page; one notification a tournament (its tag);
    in the subscription's language."""
    def message(data: dict, lang: str = "en") -> dict:
        return notify.bell_message({"kind": "tournament", "data": {"tournament": "T1", "game": "sicilian", **data}},
                                   notify.TEXTS[lang], lambda before, after: (before, after))
    ready = {"round": 2, "table": 3, "link": "/t/anna-seat"}
    assert message(ready) == {"title": "Your table is ready (round 2)", "body": "Tarocchi Siciliani",
                              "url": "/t/anna-seat", "tag": "tournament:T1"}
    assert message(ready, "it")["title"] == "Il tuo tavolo è pronto (turno 2)"
    assert message({"started": True}) == {"title": "The tournament has started", "body": "Tarocchi Siciliani",
                                          "url": "/tournament/T1", "tag": "tournament:T1"}
    assert message({"started": True}, "it")["title"] == "Il torneo è cominciato"
    over = message({"finished": True, "rank": 2})
    assert (over["title"], over["url"], over["tag"]) == ("The tournament is over: you placed 2", "/tournament/T1",
                                                         "tournament:T1")
    assert message({"finished": True, "rank": 2}, "it")["title"] == "Il torneo è finito: 2° posto per te"
    assert set(notify.TEXTS["en"]) == set(notify.TEXTS["it"])  # (every title in both languages)
