"""Accounts (issue 40, server/accounts/): the people's store on both backends, and the routes as a
stranger, a signed-in player and another site's page would call them."""

from __future__ import annotations

import asyncio
import json
import logging

import httpx
import pytest
import websockets

from tarocchi.cli import main as cli
from tarocchi.server.accounts import COOKIE, NAME_RULE, NAME_TAKEN, PASSWORD_RULE, SIGN_IN_BURST, WRONG
from tarocchi.server.core.store import open_store
from tarocchi.server.core.store.people import NEUTRAL_NAME, Ended, Player
from tarocchi.server.origin import CLOSE_OTHER_SITE, OTHER_SITE
from tests.server.live import running_server
from tests.server.test_public import person


# --- the store -------------------------------------------------------------------------------


def test_an_account_name_is_one_whatever_its_case_and_a_session_is_kept_by_its_hash(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        mario = people.create_account("Mario", "hash", ["aaaa-bbbb-cccc"])
        assert mario and people.create_account("MARIO", "other", []) is None
        assert people.account_named("mArIo")["id"] == mario
        cookie = people.new_session(mario, "a browser")
        assert people.session_account(cookie)["name"] == "Mario"
        # What is stored is not the cookie: whoever reads the database cannot sign in with it.
        assert all(cookie not in str(s) for s in people.sessions(mario))
        assert people.session_account(cookie + "x") is None
        other = people.new_session(mario, "a phone")
        people.end_session(people.session_account(cookie)["session"])
        assert people.session_account(cookie) is None and people.session_account(other) is not None
        people.end_sessions(mario)
        assert people.session_account(other) is None
        # A recovery code signs in once; a new password ends every session.
        assert people.spend_recovery_code(mario, "aaaa-bbbb-cccc")
        assert not people.spend_recovery_code(mario, "aaaa-bbbb-cccc")
        again = people.new_session(mario, "a browser")
        people.set_password(mario, "new hash")
        assert people.session_account(again) is None and people.account(mario)["password"] == "new hash"
    finally:
        store.close()


def test_a_seat_is_one_accounts_and_an_account_holds_one_seat_a_table(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        anna, bruno = people.create_account("Anna", "h", []), people.create_account("Bruno", "h", [])
        store.create_table("t1", "room", ["tok0", "tok1", "tok2"], {"kind": "room"})
        assert people.hold_seat(anna, "tok0") == ("t1", 0)
        assert people.hold_seat(anna, "tok0") == ("t1", 0)  # (again: the same)
        assert people.hold_seat(bruno, "tok0") == "other"
        assert people.hold_seat(anna, "tok1") == "table"  # one seat a person: no rating against yourself
        assert people.hold_seat(anna, "nope") == "unknown"
        assert people.hold_seat(bruno, "tok1") == ("t1", 1)
        assert people.table_accounts("t1") == {0: anna, 1: bruno}
        assert people.held_seats(anna, 10) == ["tok0"]
        # A link replaced (the seat claimed in the lobby once its person left) holds nothing.
        store.put_listing("t1", {"game": "sicilian", "status": "waiting", "since": 1.0, "open": [0]})
        assert store.claim_seat("t1", 0, "fresh", 30.0, ["someone"], "someone", 3) == "won"
        assert people.held_seats(anna, 10) == [] and people.table_accounts("t1") == {1: bruno}
        assert people.hold_seat(anna, "tok2") == ("t1", 2)  # (the seat she lost no longer counts)
    finally:
        store.close()


def test_a_deleted_account_leaves_its_matches_under_a_neutral_name(store_db):
    store = open_store(store_db)
    try:
        people = store.people
        anna = people.create_account("Anna", "h", [])
        store.create_table("t1", "room", ["a", "b", "c"], {"kind": "room"})
        people.hold_seat(anna, "a")
        store.append_many([("t1", 2, "join", {"seat": 0})], finished=["t1"], ended=[Ended(
            "t1", 1, "calabresella", 3, 100.0, [Player(s, n, s, t, False, a) for s, (n, t, a) in
                                                enumerate([("Anna", 21, anna), ("guest 1", 3, None),
                                                           ("guest 2", 0, None)])])])
        assert [p["name"] for p in people.matches_of(anna)[0]["players"]] == ["Anna", "guest 1", "guest 2"]
        people.new_session(anna, "x")
        people.delete_account(anna)
        assert people.account(anna) is None and people.account_named("Anna") is None
        assert people.matches_of(anna) == []
        bruno = people.create_account("Bruno", "h", [])
        store.create_table("t2", "room", ["d", "e", "f"], {"kind": "room"})
        people.hold_seat(bruno, "d")
        # The match is still there for the others, Anna's seat under a neutral name.
        rows = store.people.read
        with rows() as tx:
            names = [r[0] for r in tx.run("SELECT name FROM match_players WHERE table_id = %s ORDER BY seat", ("t1",))]
        assert names == [None, "guest 1", "guest 2"]
        assert NEUTRAL_NAME not in names  # (shown as such, stored as nothing)
    finally:
        store.close()


# --- the routes -----------------------------------------------------------------------------


def sign_up(client: httpx.Client, name: str, password: str = "segreto123") -> httpx.Response:
    return client.post("/api/account", json={"name": name, "password": password})


def test_sign_up_sign_in_and_out_and_the_same_answer_for_an_unknown_name_and_a_wrong_password():
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as c:
        r = sign_up(c, "Mario")
        assert r.status_code == 201 and r.json()["name"] == "Mario" and len(r.json()["recovery_codes"]) == 8
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Secure" not in cookie  # (plain http)
        assert c.get("/api/me").json()["name"] == "Mario"
        assert sign_up(c, "mario").json() == {"error": NAME_TAKEN}
        assert sign_up(c, "a b").json() == {"error": NAME_RULE}
        assert sign_up(c, "Luigi", "short").json() == {"error": PASSWORD_RULE}
        assert c.delete("/api/session").status_code == 204
        assert c.get("/api/me").status_code == 401
        wrong = c.post("/api/session", json={"name": "Mario", "password": "not it at all"})
        unknown = c.post("/api/session", json={"name": "Nobody", "password": "not it at all"})
        assert (wrong.status_code, wrong.json()) == (unknown.status_code, unknown.json()) == (401, {"error": WRONG})
        assert c.post("/api/session", json={"name": "MARIO", "password": "segreto123"}).json() == {"name": "Mario"}
        assert c.get("/api/me").json()["name"] == "Mario"


def test_a_recovery_code_signs_in_once_with_a_new_password_and_signs_out_the_old_sessions():
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as first, \
            httpx.Client(base_url=server.url, headers=person(2)) as second:
        codes = sign_up(first, "Mario").json()["recovery_codes"]
        ask = {"name": "Mario", "recovery_code": codes[3], "password": "nuovo-segreto"}
        assert second.post("/api/session", json=ask).json() == {"name": "Mario"}
        assert first.get("/api/me").status_code == 401  # (whoever had the old password is out)
        second.cookies.clear()
        assert second.post("/api/session", json=ask).json() == {"error": WRONG}  # used up
        assert second.post("/api/session", json={"name": "Mario", "password": "nuovo-segreto"}).status_code == 200


# A sign-in budget that does not refill while a test spends it, however slow the machine: the
# shipped one gives a guess back every ten seconds, and a loaded run's burst can take longer.
NO_REFILL = (SIGN_IN_BURST, 1e-4)


def test_sign_in_has_a_budget_per_address_and_per_account_name():
    with running_server(sign_in=NO_REFILL) as server:
        with httpx.Client(base_url=server.url, headers=person(1)) as c:
            sign_up(c, "Mario")
        with httpx.Client(base_url=server.url, headers=person(2)) as c:  # (a browser Mario never used)
            answers = [c.post("/api/session", json={"name": "Mario", "password": "wrong-one!"}).status_code
                       for _ in range(SIGN_IN_BURST + 1)]
        assert answers[:SIGN_IN_BURST] == [401] * SIGN_IN_BURST and answers[-1] == 429
        # Another address guessing the same account's password is held back as well...
        with httpx.Client(base_url=server.url, headers=person(3)) as c:
            assert c.post("/api/session", json={"name": "Mario", "password": "segreto123"}).status_code == 429
            # ... but may sign in to another.
            with httpx.Client(base_url=server.url, headers=person(4)) as d:
                sign_up(d, "Luigi")
            assert c.post("/api/session", json={"name": "Luigi", "password": "segreto123"}).status_code == 200


def test_another_sites_page_is_refused_its_requests_and_sockets_even_with_the_players_cookie():
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as c:
        sign_up(c, "Mario")
        evil = {"origin": "https://evil.example"}
        for method, path, body in [("POST", "/api/rooms", {"seats": 3}), ("DELETE", "/api/account", {"confirm": "Mario"}),
                                   ("POST", "/api/me/seats", {"links": []}), ("DELETE", "/api/sessions", None),
                                   ("POST", "/api/session", {"name": "Mario", "password": "segreto123"})]:
            r = c.request(method, path, json=body, headers=evil)
            assert (r.status_code, r.json()) == (403, {"error": OTHER_SITE}), path
        assert c.get("/api/me").json()["name"] == "Mario"  # nothing changed
        ours = {"origin": server.url}
        assert c.post("/api/rooms", json={"seats": 3}, headers=ours).status_code == 200
        link = c.post("/api/rooms", json={"seats": 3}).json()["links"][0]  # (a script: no Origin)

        async def handshake(origin: str) -> object:
            try:
                async with websockets.connect(server.ws_url + "/ws/" + link.removeprefix("/t/"),
                                              additional_headers={"Origin": origin}) as ws:
                    await ws.send(json.dumps({"type": "hello", "since": 0}))
                    return json.loads(await ws.recv())["type"]
            except websockets.exceptions.InvalidStatus as e:
                return e.response.status_code
        assert asyncio.run(handshake("https://evil.example")) == 403
        assert asyncio.run(handshake(server.url)) == "state"
        assert CLOSE_OTHER_SITE  # (the close code the handshake is refused with, as a 403)


def test_a_page_of_the_same_host_over_another_scheme_is_another_sites():
    """Issue 55: an origin is its scheme, host and port. An https page is refused by an http
    site, and behind a TLS proxy (its X-Forwarded-Proto believed) an http page is refused; each
    site's own page is served, requests and websockets alike."""
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as c:
        link = c.post("/api/rooms", json={"seats": 3}).json()["links"][0]
        host = f"127.0.0.1:{server.port}"
        tls = {"X-Forwarded-Proto": "https"}

        def post(origin: str, behind: dict) -> int:
            return c.post("/api/rooms", json={"seats": 3}, headers={"origin": origin} | behind).status_code

        async def handshake(origin: str, behind: dict) -> object:
            try:
                async with websockets.connect(server.ws_url + "/ws/" + link.removeprefix("/t/"),
                                              additional_headers={"Origin": origin} | behind) as ws:
                    await ws.send(json.dumps({"type": "hello", "since": 0}))
                    return json.loads(await ws.recv())["type"]
            except websockets.exceptions.InvalidStatus as e:
                return e.response.status_code

        for origin, behind, answer in [(f"https://{host}", {}, 403), (f"http://{host}", tls, 403),
                                       (f"http://{host}", {}, 200), (f"https://{host}", tls, 200),
                                       ("https://127.0.0.1", tls, 403)]:
            assert post(origin, behind) == answer, (origin, behind)
            assert asyncio.run(handshake(origin, behind)) == (403 if answer == 403 else "state"), (origin, behind)
        # An untrusted client's X-Forwarded-Proto changes nothing (running_server trusts 127.0.0.1 only).
        with running_server(proxy="10.9.9.9") as direct:
            assert httpx.post(direct.url + "/api/rooms", json={"seats": 3},
                              headers={"origin": f"https://127.0.0.1:{direct.port}"} | tls).status_code == 403
            assert httpx.post(direct.url + "/api/rooms", json={"seats": 3},
                              headers={"origin": direct.url} | tls).status_code == 200


def test_the_session_cookie_is_secure_over_tls_as_the_trusted_proxy_says():
    with running_server() as server, httpx.Client(base_url=server.url) as c:
        r = c.post("/api/account", json={"name": "Mario", "password": "segreto123"},
                   headers={"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"})
        assert "Secure" in r.headers["set-cookie"]


def test_signed_in_on_a_second_device_the_account_finds_its_seats_and_the_table_shows_its_name():
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as phone, \
            httpx.Client(base_url=server.url, headers=person(2)) as laptop, \
            httpx.Client(base_url=server.url, headers=person(3)) as stranger:
        links = phone.post("/api/rooms", json={"seats": 3, "game": "calabresella"}).json()["links"]
        sign_up(phone, "Mario")
        held = phone.post("/api/me/seats", json={"links": [links[0], "/t/nothing-here"]}).json()
        assert held == {"held": [links[0]], "refused": [{"link": "/t/nothing-here", "why": "unknown"}]}
        assert phone.post("/api/me/seats", json={"links": [links[1]]}).json()["refused"][0]["why"] == "table"
        assert laptop.post("/api/session", json={"name": "Mario", "password": "segreto123"}).status_code == 200
        assert laptop.get("/api/me/seats").json() == {"links": [links[0]]}
        mine = laptop.post("/api/my-tables", json={"links": [links[0]]}).json()["tables"][0]
        assert mine["names"][0] == "Mario"  # the seat's name at the table is the account's
        # Nobody else learns the account's links.
        assert stranger.get("/api/me/seats").status_code == 401
        sign_up(stranger, "Luigi")
        assert stranger.get("/api/me/seats").json() == {"links": []}
        assert stranger.post("/api/me/seats", json={"links": [links[0]]}).json()["refused"][0]["why"] == "other"


def test_sign_out_everywhere_and_the_sessions_list():
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as a, \
            httpx.Client(base_url=server.url, headers=person(2)) as b:
        sign_up(a, "Mario")
        b.post("/api/session", json={"name": "Mario", "password": "segreto123"})
        sessions = a.get("/api/me").json()["sessions"]
        assert len(sessions) == 2 and [s["this"] for s in sessions].count(True) == 1
        assert a.delete("/api/sessions").status_code == 204
        assert a.get("/api/me").status_code == 401 and b.get("/api/me").status_code == 401


def test_the_player_downloads_their_data_and_deletes_the_account():
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as c:
        sign_up(c, "Mario")
        link = c.post("/api/rooms", json={"seats": 3}).json()["links"][0]
        c.post("/api/me/seats", json={"links": [link]})
        r = c.get("/api/me/export")
        assert "attachment" in r.headers["content-disposition"]
        data = r.json()
        assert data["account"]["name"] == "Mario" and data["seats"] == [link.removeprefix("/t/")]
        assert len(data["sessions"]) == 1 and "password" in data["account"]
        assert "hash" not in json.dumps(data) and "$argon2" not in json.dumps(data)  # never the hash
        assert c.request("DELETE", "/api/account", json={"confirm": "Luigi", "password": "segreto123"}).status_code == 400
        assert c.request("DELETE", "/api/account", json={"confirm": "mario", "password": "wrong-one!"}).status_code == 401
        assert c.request("DELETE", "/api/account", json={"confirm": "mario", "password": "segreto123"}).status_code == 204
        assert c.get("/api/me").status_code == 401
        assert c.post("/api/session", json={"name": "Mario", "password": "segreto123"}).status_code == 401
        assert sign_up(c, "Mario").status_code == 201  # the name is free again


def test_the_operator_resets_a_password_and_the_old_sessions_end(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite3")
    with running_server(db=db) as server, httpx.Client(base_url=server.url, headers=person(1)) as c:
        sign_up(c, "Mario")
        assert cli(["account", "reset", "mario", "--db", db]) == 0
        password = capsys.readouterr().out.split("new password ")[1].split()[0]
        assert c.get("/api/me").status_code == 401
        assert c.post("/api/session", json={"name": "Mario", "password": password}).status_code == 200
        assert cli(["account", "reset", "nobody", "--db", db]) == 1
        assert c.cookies.get(COOKIE)


def test_a_password_changes_with_the_old_one():
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as c:
        sign_up(c, "Mario")
        assert c.post("/api/me/password", json={"password": "nuovo-segreto", "old": "wrong-one!"}).status_code == 401
        assert c.post("/api/me/password", json={"password": "nuovo-segreto", "old": "segreto123"}).status_code == 204
        c.delete("/api/session")
        assert c.post("/api/session", json={"name": "Mario", "password": "nuovo-segreto"}).status_code == 200


@pytest.mark.parametrize("body", [{"name": "Mario"}, {"name": "x" * 5000, "password": "p" * 10}, {"password": "x"}])
def test_a_bad_sign_in_body_gets_a_clear_error(body):
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as c:
        r = c.post("/api/session", json=body)
        assert r.status_code in (400, 401, 413) and r.json()["error"]


# --- a site of two processes, and what is never kept ----------------------------------------


@pytest.fixture(scope="module")
def redis():
    from tests.redis_server import RedisServer
    with RedisServer() as server:
        yield server


@pytest.mark.parametrize("db_kind", ["sqlite", "postgresql"])
def test_on_a_site_of_two_a_session_works_on_both_and_the_sign_in_budget_is_the_sites(redis, db_kind, tmp_path, request):
    n = 10 if db_kind == "sqlite" else 20  # (the bus, and so its budgets, is the module's)
    name = f"Mario-{db_kind}"
    db = str(tmp_path / "site.sqlite3") if db_kind == "sqlite" else request.getfixturevalue("postgres").new_database()
    with running_server(db, bus=redis.url, process="A", sign_in=NO_REFILL) as a, \
            running_server(db, bus=redis.url, process="B", sign_in=NO_REFILL) as b, httpx.Client(headers=person(n)) as c:
        assert c.post(a.url + "/api/account", json={"name": name, "password": "segreto123"}).status_code == 201
        cookie = {COOKIE: c.cookies[COOKIE]}
        assert httpx.get(b.url + "/api/me", cookies=cookie).json()["name"] == name
        # Guesses spread over both processes (and many connections) spend one budget.
        answers = [httpx.post((a, b)[i % 2].url + "/api/session", headers=person(n + 1),
                              json={"name": name, "password": f"guess {i}"}).status_code for i in range(SIGN_IN_BURST + 2)]
        assert answers.count(401) == SIGN_IN_BURST and answers[-1] == 429
        # Signed out on B: the session is over on A too.
        assert httpx.delete(b.url + "/api/session", cookies=cookie).status_code == 204
        assert httpx.get(a.url + "/api/me", cookies=cookie).status_code == 401


def test_a_password_is_never_stored_nor_logged_plainly(tmp_path, caplog):
    db = str(tmp_path / "t.sqlite3")
    password, new = "Tarocco-Matto-1923", "Bagatto-Mondo-2024"
    with caplog.at_level(logging.DEBUG), running_server(db=db) as server, \
            httpx.Client(base_url=server.url, headers=person(1)) as c:
        codes = sign_up(c, "Mario", password).json()["recovery_codes"]
        c.post("/api/session", json={"name": "Mario", "password": password})
        c.post("/api/session", json={"name": "Mario", "password": "wrong " + password})
        c.post("/api/me/password", json={"old": password, "password": new})
        c.post("/api/session", json={"name": "Mario", "recovery_code": codes[0], "password": password})
        cookie = c.cookies[COOKIE]
    secrets = [password, new, cookie, *codes]
    # (the test's own client logs the cookies it gets at DEBUG: the server's loggers are the question)
    logged = "\n".join(r.getMessage() for r in caplog.records if not r.name.startswith(("httpx", "httpcore")))
    stored = b"".join(open(p, "rb").read() for p in tmp_path.iterdir() if p.name.startswith("t.sqlite3"))
    for secret in secrets:
        assert secret not in logged and secret.encode() not in stored
    assert b"$argon2id$" in stored  # (what is stored of a password)


def test_a_deleted_accounts_sessions_die_on_every_device():
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as a, \
            httpx.Client(base_url=server.url, headers=person(2)) as b:
        sign_up(a, "Mario")
        b.post("/api/session", json={"name": "Mario", "password": "segreto123"})
        assert b.request("DELETE", "/api/account", json={"confirm": "Mario", "password": "segreto123"}).status_code == 204
        assert a.get("/api/me").status_code == 401


def test_a_match_recorded_twice_is_recorded_and_rated_once(store_db):
    """``record_ended`` of a match already stored (its table's end written again by a process
    that did not know) changes nothing: a crash or a retry never rates a match twice."""
    store = open_store(store_db)
    try:
        people = store.people
        accounts = [people.create_account(n, "h", []) for n in ("Anna", "Bruno", "Carla")]
        store.create_table("t1", "room", ["a", "b", "c"], {"kind": "room"})
        for account, token in zip(accounts, "abc"):
            people.hold_seat(account, token)
        calls = []

        def rater(players, before):
            calls.append(before)
            return {p.account: (25.0 + 3 - p.place, 8.0) for p in players}

        def ended():
            return Ended("t1", 1, "calabresella", 3, 100.0, [Player(s, n, s, t, False, a) for s, (n, t), a in
                                                             zip(range(3), [("Anna", 21), ("Bruno", 3), ("Carla", 0)],
                                                                 accounts)],
                         rater=rater)
        store.append_many([("t1", 2, "join", {"seat": 0})], ended=[ended()])
        store.append_many([("t1", 3, "join", {"seat": 1})], ended=[ended()])
        assert len(calls) == 1
        assert people.ratings(accounts[0])["calabresella/3"]["matches"] == 1
        assert len(people.matches_of(accounts[0])) == 1
    finally:
        store.close()


def test_the_lessons_done_are_kept_with_the_account_on_every_device():
    """Issue 42: "Learn to play" shows the lessons an account finished wherever it signs in."""
    with running_server() as server, httpx.Client(base_url=server.url, headers=person(1)) as phone, \
            httpx.Client(base_url=server.url, headers=person(2)) as laptop:
        assert phone.get("/api/me/lessons").status_code == 401
        sign_up(phone, "Mario")
        for lesson in ("cards", "follow", "cards"):
            assert phone.post("/api/me/lessons", json={"game": "sicilian", "lesson": lesson}).status_code == 204
        assert phone.post("/api/me/lessons", json={"game": "Sicilian!", "lesson": "x"}).status_code == 400
        laptop.post("/api/session", json={"name": "Mario", "password": "segreto123"})
        assert laptop.get("/api/me/lessons").json() == {"done": {"sicilian": ["cards", "follow"]}}
        assert laptop.get("/api/me/export").json()["lessons"] == {"sicilian": ["cards", "follow"]}


def test_an_unknown_name_checks_a_hash_as_a_known_one_does_and_a_start_hashes_nothing():
    """A sign-in under an unknown name verifies a password against a hash with the parameters of
    a real one (it takes as long as a wrong password: nothing tells which names exist). With the
    site's hasher that hash is shipped (``NOBODY``): a start makes none, nor the first unknown
    name (which would take twice as long); another hasher's is made once, by that hasher."""
    from argon2 import PasswordHasher, extract_parameters

    from tarocchi.server.accounts import DEFAULT_HASHER, NOBODY, Passwords

    class Counted(PasswordHasher):
        def __init__(self, **parameters):
            super().__init__(**parameters)
            self.hashed, self.verified = 0, []

        def hash(self, password, **kw):
            self.hashed += 1
            return super().hash(password, **kw)

        def verify(self, stored, password):
            self.verified.append(stored)
            return super().verify(stored, password)

    async def sign_ins(passwords: Passwords) -> None:
        stored = await passwords.hash("segreto123")
        assert await passwords.verify(stored, "segreto123") and not await passwords.verify(stored, "wrong one")
        assert not await passwords.verify(None, "segreto123") and not await passwords.verify(None, "another")

    for parameters in ({}, {"time_cost": 1, "memory_cost": 1024, "parallelism": 1}):
        hasher = Counted(**parameters)
        passwords = Passwords(hasher)
        assert hasher.hashed == 0  # (a start hashes nothing)
        asyncio.run(sign_ins(passwords))
        stored, dummy = hasher.verified[0], hasher.verified[2]
        assert hasher.verified == [stored, stored, dummy, dummy]
        assert extract_parameters(dummy) == extract_parameters(stored)  # (the same work)
        if parameters:
            assert hasher.hashed == 2 and dummy != NOBODY  # the password's, and once the unknown name's
        else:
            assert hasher.hashed == 1 and dummy == NOBODY  # the password's alone
    assert extract_parameters(NOBODY) == extract_parameters(DEFAULT_HASHER.hash("x"))
