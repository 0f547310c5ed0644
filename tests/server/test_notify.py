"""Notifications (issue 41, server/notify.py), against a push service of the test's own that
checks each message's VAPID signature and decrypts it with the subscription's keys: who is told,
of what, and when; never a player whose page of the table is open and visible."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

from tarocchi.server.core.store import open_store
from tarocchi.server.core.store.people import SUBSCRIPTIONS_PER_ACCOUNT
from tarocchi.server.notify import ANOTHER_ACCOUNTS, NOT_A_PUSH_SERVICE, PUSH_HOSTS
from tests.push_service import Browser, PushService
from tests.server.live import running_server
from tests.server.seat import Seat, pick_action
from tests.server.test_public import person


def account(server, n: int, name: str, link: str, browser=None, lang: str = "en") -> httpx.Client:
    """Person ``n`` signs up as ``name``, holds the seat of ``link`` and subscribes ``browser``."""
    client = httpx.Client(base_url=server.url, headers=person(n))
    assert client.post("/api/account", json={"name": name, "password": "segreto123"}).status_code == 201
    assert client.post("/api/me/seats", json={"links": [link]}).json()["held"] == [link]
    if browser is not None:
        assert client.post("/api/push", json=browser.subscription | {"lang": lang}).status_code == 204
    return client


async def play_until(seats: list[Seat], done, rng: random.Random, limit: int = 400, actors=None) -> None:
    """Each seat (of ``actors``, if given) acts when its view says so (a legal action from its
    choices), until ``done()``; every seat's frames are read meanwhile."""
    for _ in range(limit):
        if done():
            return
        turn = [s for s in (actors or seats) if s.state and s.my_turn()]
        if not turn:
            await asyncio.sleep(0.05)
            for s in seats:
                await s.quiet(0.01)
            continue
        seat = turn[0]
        await seat.act(pick_action(seat.view, rng, prefer=()))
        await seat.wait_state(lambda st, v=seat.version: st["version"] > v)
    raise AssertionError("not done")


def test_a_player_is_told_of_the_start_and_of_each_turn_only_when_not_looking_at_the_table():
    async def body(server, service):
        a_browser, b_browser = service.browser(), service.browser()
        links = httpx.post(server.url + "/api/rooms", headers=person(1), json={"seats": 3, "game": "calabresella"}).json()["links"]
        tokens = [link.removeprefix("/t/") for link in links]
        with contextlib.closing(account(server, 1, "Anna", links[0], a_browser)), \
                contextlib.closing(account(server, 2, "Bruno", links[1], b_browser, "it")):
            seats = [await Seat.open(server.ws_url, t) for t in tokens[:2]]  # (each says hello)
            await seats[1].send({"type": "visible", "visible": False})  # Bruno's tab goes behind another
            await seats[1].quiet(0.2)
            seats.append(await Seat.open(server.ws_url, tokens[2]))  # the last seat: the match starts
            started = service.wait(lambda m: m["what"] == "started")
            assert started["browser"] in b_browser.endpoint and started["title"] == "La partita è cominciata"
            assert started["url"] == links[1] and started["vapid"]["k"] == httpx.get(server.url + "/api/push/key").json()["key"]
            rng = random.Random(3)
            # Play until Bruno has been told of a turn of his, then until Anna's comes with her page gone.
            await play_until(seats, lambda: any(m["what"] == "turn" for m in service.of(b_browser)), rng)
            turn = service.wait(lambda m: m["what"] == "turn")
            assert turn["title"] == "Tocca a te" and turn["url"] == links[1] and turn["ttl"] > 0
            assert service.of(a_browser) == []  # Anna's page was open and visible all along
            await seats[0].close()  # Anna's page goes: her next turn is told
            await play_until(seats[1:], lambda: bool(service.of(a_browser)), rng)
            told = service.wait(lambda m: m["browser"] in a_browser.endpoint)
            assert told["what"] == "turn" and told["title"] == "Your turn" and told["url"] == links[0]
            for s in seats[1:]:
                await s.close()

    with PushService() as service, running_server(push_hosts=(service.origin,)) as server:
        asyncio.run(body(server, service))


def test_the_time_running_out_is_told_at_four_fifths_of_the_clock_and_a_dropped_subscription_goes():
    async def body(server, service):
        browser = service.browser()
        links = httpx.post(server.url + "/api/rooms", headers=person(1),
                           json={"seats": 3, "game": "calabresella", "clock": 5}).json()["links"]
        tokens = [link.removeprefix("/t/") for link in links]
        clients = [account(server, n + 1, f"P{n}layer", links[n], browser if n == 0 else None) for n in range(3)]
        seats = [await Seat.open(server.ws_url, tokens[0])]
        await seats[0].send({"type": "visible", "visible": False})
        await seats[0].quiet(0.2)
        seats += [await Seat.open(server.ws_url, t) for t in tokens[1:]]
        state = await seats[0].wait_state(lambda st: st["table"]["status"] == "playing")
        rng = random.Random(5)
        await play_until(seats, lambda: seats[0].my_turn(), rng, actors=seats[1:])
        turn = service.wait(lambda m: m["what"] == "turn")
        service.wait(lambda m: m["what"] == "started")  # (a bell item, pushed after its commit: issue 58)
        browser.status = 410  # the browser drops the subscription: the next message says so
        out = service.wait(lambda m: m["what"] == "running_out", timeout=10)
        clock = seats[0].state["table"]["clock"]
        began = clock["base"] - 5  # (the turn's own 5 s, then the seat's time bank)
        assert abs(out["at"] - (began + 0.8 * (clock["deadline"] - began))) < 0.6, (out["at"], clock)
        for _ in range(50):  # (the service's 410 reaches the server just after the message)
            if clients[0].get("/api/me/export").json()["push"] == []:
                break
            await asyncio.sleep(0.1)
        assert clients[0].get("/api/me/export").json()["push"] == []
        assert state
        for s in seats:
            await s.close()
        for c in clients:
            c.close()

    with PushService() as service, running_server(push_hosts=(service.origin,), time_bank=2.0) as server:
        asyncio.run(body(server, service))


def test_a_subscription_is_an_accounts_and_names_a_push_service_only():
    with PushService() as service, running_server(push_hosts=(service.origin,)) as server, \
            httpx.Client(base_url=server.url, headers=person(1)) as c:
        sub = service.browser().subscription
        assert c.post("/api/push", json=sub).status_code == 401
        c.post("/api/account", json={"name": "Anna", "password": "segreto123"})
        for endpoint in ["http://10.0.0.1/x", "https://127.0.0.1:9/push", "https://evil.example/push",
                         "https://fcm.googleapis.com.evil.example/x", "file:///etc/passwd"]:
            r = c.post("/api/push", json=sub | {"endpoint": endpoint})
            assert (r.status_code, r.json()) == (400, {"error": NOT_A_PUSH_SERVICE}), endpoint
        assert c.post("/api/push", json=sub).status_code == 204
        assert c.get("/api/me/export").json()["push"] == [sub["endpoint"]]
        assert c.request("DELETE", "/api/push", json={"endpoint": sub["endpoint"]}).status_code == 204
        assert c.get("/api/me/export").json()["push"] == []
        key = httpx.get(server.url + "/api/push/key").json()["key"]
        assert len(key) == 87  # (65 bytes: an uncompressed P-256 point, base64url)


# --- issue 55: where the server posts, and whose a subscription is ---------------------------


def test_an_endpoint_is_refused_unless_the_sender_would_post_it_to_a_push_service_by_name_on_443():
    """Issue 55: the endpoint is read as the sender (requests) reads it; what it would connect to
    must be a push service's name, over https on 443. Each of these was taken before: the check
    read the host after the ``@``, requests connects to the one before the ``\\``."""
    with running_server(push_hosts=PUSH_HOSTS) as server, httpx.Client(base_url=server.url, headers=person(1)) as c:
        c.post("/api/account", json={"name": "Anna", "password": "segreto123"})
        keys = Browser("").subscription["keys"]
        for endpoint in ["https://someone@fcm.googleapis.com/fcm/send/x",  # userinfo
                         "https://user:pass@web.push.apple.com/x",
                         "https://127.0.0.1:8080\\@fcm.googleapis.com/fcm/send/x",  # requests: 127.0.0.1:8080
                         "https://169.254.169.254\\@fcm.googleapis.com/x",  # an IP literal as the sender reads it
                         "https://fcm.googleapis.com:8443/fcm/send/x",  # a port other than 443
                         "https://updates.push.services.mozilla.com:80/wpush/v2/x",
                         "https://evilfcm.googleapis.com/fcm/send/x",  # a name merely ending with a service's
                         "https://xpush.apple.com/x", "https://[::1]/x", "https://10.0.0.1/x",
                         "https://fcm.googleapis.com/fcm/send/x#y", "https://fcm.googleapis.com/a b"]:
            r = c.post("/api/push", json={"endpoint": endpoint, "keys": keys})
            assert (r.status_code, r.json()) == (400, {"error": NOT_A_PUSH_SERVICE}), endpoint
        assert c.get("/api/me/export").json()["push"] == []
        taken = ["https://fcm.googleapis.com/fcm/send/dGVzdA:APA91bE-x_y", "https://web.push.apple.com/QGFz",
                 "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABl", "https://wns2-db5p.notify.windows.com/w/?token=AwY",
                 "https://fcm.googleapis.com:443/fcm/send/z"]
        for endpoint in taken:
            assert c.post("/api/push", json={"endpoint": endpoint, "keys": keys}).status_code == 204, endpoint
        assert sorted(c.get("/api/me/export").json()["push"]) == sorted(taken)


class Recorder:
    """A loopback HTTP server that notes every request made to it (an internal address a push
    service's redirect points to)."""

    def __init__(self):
        self.hits: list[str] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_any(self):
                recorder.hits.append(f"{self.command} {self.path}")
                self.send_response(404)
                self.send_header("content-length", "0")
                self.end_headers()

            do_GET = do_POST = do_PUT = do_any

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_a_push_services_redirect_is_not_followed():
    """Issue 55: a push service (or whoever answers for one) answering 307 to an internal address
    gets no request sent there, and the subscription is not dropped on what that address says."""
    async def body(server, service, recorder):
        browser = service.browser()
        browser.status, browser.location = 307, recorder.url + "/latest/meta-data"
        links = httpx.post(server.url + "/api/rooms", headers=person(1), json={"seats": 3, "game": "calabresella"}).json()["links"]
        tokens = [link.removeprefix("/t/") for link in links]
        with contextlib.closing(account(server, 1, "Anna", links[0], browser)) as anna:
            seats = [await Seat.open(server.ws_url, tokens[0])]
            await seats[0].send({"type": "visible", "visible": False})  # (Anna is told: her tab is behind)
            await seats[0].quiet(0.2)
            seats += [await Seat.open(server.ws_url, t) for t in tokens[1:]]
            service.wait(lambda m: m["what"] == "started")
            await asyncio.sleep(1.0)  # (time for the server to follow it, if it would)
            assert recorder.hits == []
            assert anna.get("/api/me/export").json()["push"] == [browser.endpoint]
            for s in seats:
                await s.close()

    recorder = Recorder()
    try:
        with PushService() as service, running_server(push_hosts=(service.origin,)) as server:
            asyncio.run(body(server, service, recorder))
    finally:
        recorder.close()


def test_an_account_keeps_its_newest_subscriptions_and_never_takes_another_accounts(store_db):
    """Issue 55, on both stores: at most SUBSCRIPTIONS_PER_ACCOUNT an account, the oldest dropped
    for a new one (subscribing again makes one the newest); another account posting an endpoint
    changes nothing of it."""
    store = open_store(store_db)
    try:
        people = store.people
        anna, bruno = people.create_account("Anna", "h", []), people.create_account("Bruno", "h", [])
        endpoints = [f"https://fcm.googleapis.com/fcm/send/anna{n:02}" for n in range(SUBSCRIPTIONS_PER_ACCOUNT + 2)]
        for endpoint in endpoints:
            assert people.subscribe(anna, endpoint, "p", "a", "en")
            time.sleep(0.002)
        assert [s["endpoint"] for s in people.subscriptions(anna)] == endpoints[2:]
        assert people.subscribe(anna, endpoints[2], "p", "a", "it")  # (again: now her newest)
        time.sleep(0.002)
        assert people.subscribe(anna, "https://fcm.googleapis.com/fcm/send/anna-new", "p", "a", "en")
        assert [s["endpoint"] for s in people.subscriptions(anna)][0] == endpoints[4]  # (3 went, not 2)
        assert not people.subscribe(bruno, endpoints[5], "bruno's", "bruno's", "it")
        assert people.subscriptions(bruno) == []
        anna_subs = {s["endpoint"]: s for s in people.subscriptions(anna)}
        assert anna_subs[endpoints[5]] == {"endpoint": endpoints[5], "keys": {"p256dh": "p", "auth": "a"}, "lang": "en"}
        people.unsubscribe(endpoints[5], bruno)  # (nor may he drop it)
        assert endpoints[5] in {s["endpoint"] for s in people.subscriptions(anna)}
        assert len(people.subscriptions(anna)) == SUBSCRIPTIONS_PER_ACCOUNT
    finally:
        store.close()


def test_another_account_posting_a_subscription_gets_409_and_the_subscription_stays():
    """Issue 55: one account's subscription is never made another's (who posts another
    browser's endpoint would get its owner's notifications)."""
    with PushService() as service, running_server(push_hosts=(service.origin,)) as server, \
            httpx.Client(base_url=server.url, headers=person(1)) as anna, \
            httpx.Client(base_url=server.url, headers=person(2)) as bruno:
        anna.post("/api/account", json={"name": "Anna", "password": "segreto123"})
        bruno.post("/api/account", json={"name": "Bruno", "password": "segreto123"})
        sub = service.browser().subscription
        assert anna.post("/api/push", json=sub).status_code == 204
        r = bruno.post("/api/push", json=sub)
        assert (r.status_code, r.json()) == (409, {"error": ANOTHER_ACCOUNTS})
        assert bruno.get("/api/me/export").json()["push"] == []
        assert anna.get("/api/me/export").json()["push"] == [sub["endpoint"]]
        # An account's own browsers: up to the cap, the oldest dropped for a new one.
        subs = [service.browser().subscription for _ in range(SUBSCRIPTIONS_PER_ACCOUNT)]
        for s in subs:
            assert bruno.post("/api/push", json=s).status_code == 204
        assert sorted(bruno.get("/api/me/export").json()["push"]) == sorted(s["endpoint"] for s in subs)
        newest = service.browser().subscription
        assert bruno.post("/api/push", json=newest).status_code == 204
        assert sorted(bruno.get("/api/me/export").json()["push"]) == sorted(s["endpoint"] for s in subs[1:] + [newest])
