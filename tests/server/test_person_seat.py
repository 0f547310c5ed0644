"""Issue 56, point 7: one seat a person, by person. Two people behind one address (a household,
an office, a phone carrier) each take a seat at one public table, and Play now seats them at one
table; a person is their account where signed in, else their browser (the ``tarocchi_browser``
cookie, the seats it opened or watched counted), else (a script with no cookie) their address.
One browser, or one account on two browsers, still never takes a second seat of a table, its
watch link counted; and the address stays the unit of the budget of unopened seats. On both
stores, over HTTP, and on a site of two processes where the store decides the claim."""

from __future__ import annotations

import asyncio
import types

import httpx
import websockets

from tarocchi.server.core.sessions import BROWSER_COOKIE, COOKIE, person_key
from tarocchi.server.core.store import address_key, open_store
from tarocchi.server.lobby import AT_THIS_TABLE, CLAIMS_PER_ADDRESS, TOO_MANY_CLAIMS, Lobby
from tests.server.live import running_server
from tests.server.seat import Seat
from tests.server.test_away_timer import Clock
from tests.server.test_public import Tables, settle
from tests.server.test_site import redis  # noqa: F401  (the fixture: a Redis for the bus)

OFFICE = "203.0.113.50"  # one address, many people behind it


def browser(n: int) -> str:
    """Browser ``n``'s id, as the server gives one (22 URL-safe characters)."""
    return f"browser{n:015d}"


def at_office(n: int | None, address: str = OFFICE, session: str | None = None) -> dict:
    """The headers of browser ``n`` (None: a script with no cookie) behind ``address``."""
    cookies = ([f"{BROWSER_COOKIE}={browser(n)}"] if n is not None else []) + ([f"{COOKIE}={session}"] if session else [])
    return {"X-Forwarded-For": address, **({"Cookie": "; ".join(cookies)} if cookies else {})}


def keys(n: int | None = None, account: str | None = None, address: str | None = None) -> list[str]:
    """The keys a request counts as (``sessions.persons``), made by hand."""
    return ([person_key("account", account)] if account else []) + ([person_key("browser", browser(n))] if n else []) \
        + ([address_key(address)] if address else [])


# --- the lobby on both stores --------------------------------------------------------------------


def test_people_behind_one_address_are_people_and_a_browser_or_an_account_is_one(store_db):
    """The lobby on each store: browsers at the host's address take a seat each; the host, one
    who holds a seat, one who opened the watch link, one account on another browser, one browser
    signed out, a script's address asking again: refused; the budget of unopened seats counts
    the address; Play now seats two browsers of one address at one table, through any process."""
    async def body():
        clock = Clock(asyncio.get_running_loop())
        tables = Tables(store_db, clock)
        lobby = tables.hub.lobby
        table_id, tokens = lobby.new_room(4, "ottocento", public=True, clock=None, address=OFFICE, persons=keys(1))
        tables.page(tokens[0])  # the host is there
        await settle()
        # Browsers 2 and 3, at the host's address: a seat each. The host and browser 2 again: no.
        got = [lobby.claim(table_id, None, OFFICE, persons=keys(n)) for n in (2, 3)]
        assert sorted(g[1] for g in got) == [1, 2]
        for n in (1, 2):
            assert lobby.claim(table_id, None, OFFICE, persons=keys(n)) == AT_THIS_TABLE
        # Browser 4 opened the watch link (a spectator): no seat; browser 5 gets the last one.
        lobby.opened(table_id, keys(4))
        assert lobby.claim(table_id, None, OFFICE, persons=keys(4)) == AT_THIS_TABLE
        assert lobby.claim(table_id, None, OFFICE, persons=keys(5))[1] == 3

        # One account on two browsers (and one browser signed in and out) is one person.
        other, others = lobby.new_room(4, "ottocento", public=True, clock=None, address="198.51.100.1")
        tables.page(others[0])
        await settle()
        home = "198.51.100.6"
        assert isinstance(lobby.claim(other, None, home, persons=keys(6, account="anna")), tuple)
        assert lobby.claim(other, None, "198.51.100.7", persons=keys(7, account="anna")) == AT_THIS_TABLE
        assert lobby.claim(other, None, home, persons=keys(6)) == AT_THIS_TABLE  # signed out, same browser
        # A script with no cookie is its address: once.
        assert isinstance(lobby.claim(other, None, "198.51.100.9", persons=keys(address="198.51.100.9")), tuple)
        assert lobby.claim(other, None, "198.51.100.9", persons=keys(address="198.51.100.9")) == AT_THIS_TABLE

        # The budget of unopened seats stays the address's, however many browsers ask from it:
        # the office holds CLAIMS_PER_ADDRESS unopened claims (browsers 2, 3 and 5's).
        third, thirds = lobby.new_room(4, "ottocento", public=True, clock=None, address="198.51.100.2")
        tables.page(thirds[0])
        await settle()
        assert lobby.claim(third, None, OFFICE, persons=keys(8)) == TOO_MANY_CLAIMS
        assert isinstance(lobby.claim(third, None, "198.51.100.3", persons=keys(8)), tuple)  # (another address)

        # Play now: two browsers at one address sit at one table, the one the first made.
        stores = [open_store(store_db) for _ in range(2)]  # (each its own process's, on one database)
        home = "192.0.2.10"
        quick, opener, seat, new = lobby.play_now("sicilian", home, keys(10))
        assert new and seat == 0
        tables.page(opener)
        await settle()
        lobbies = [Lobby(types.SimpleNamespace(store=s, revoke=lambda table_id, seat: None)) for s in stores]
        joined = lobby.play_now("sicilian", home, keys(11))
        assert (joined[0], joined[3]) == (quick, False)
        for other_process in lobbies:  # (and not twice, through any process)
            assert other_process.claim(quick, None, home, persons=keys(11)) == AT_THIS_TABLE
        assert lobby.play_now("sicilian", home, keys(10))[0] != quick  # the opener: not at their own again
        for s in stores:
            s.close()
        tables.store.close()

    asyncio.run(body())


# --- over HTTP ------------------------------------------------------------------------------------


def test_over_http_a_household_sits_together_and_its_browsers_are_told_apart_by_their_cookie():
    """The host and two housemates behind one address each take a seat (each browser its cookie);
    a housemate asking again, or a browser that opened the watch link, is refused (409); Play now
    seats two housemates at one table; one account signed in on two browsers takes one seat; a
    browser that has no id is given one (a year, HttpOnly, SameSite=Lax) by a page or the lobby."""
    async def body(server):
        base = server.url
        first = httpx.get(f"{base}/", headers=at_office(None))
        given = first.cookies.get(BROWSER_COOKIE)
        cookie = first.headers["set-cookie"]
        assert given and len(given) == 22 and "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
        assert "max-age=31536000" in cookie.lower()
        assert httpx.get(f"{base}/api/public", headers=at_office(None)).cookies.get(BROWSER_COOKIE) not in (None, given)
        assert BROWSER_COOKIE not in httpx.get(f"{base}/api/public", headers=at_office(1)).cookies  # (has one: kept)

        made = httpx.post(f"{base}/api/rooms", json={"game": "ottocento", "seats": 4, "public": True},
                          headers=at_office(1)).json()
        table_id = made["table"]
        host = await Seat.open(server.ws_url, made["links"][0].removeprefix("/t/"), headers=at_office(1))
        watch = host.state["table"]["watch"].removeprefix("/w/")
        seat_url = f"{base}/api/public/{table_id}/seat"
        for n in (2, 3):
            r = httpx.post(seat_url, json={"seat": None}, headers=at_office(n))
            assert r.status_code == 200, r.text
        for n in (1, 2):  # the host, a housemate who has a seat: no other
            r = httpx.post(seat_url, json={"seat": None}, headers=at_office(n))
            assert (r.status_code, r.json()["error"]) == (409, AT_THIS_TABLE)
        spectator = Seat(await websockets.connect(f"{server.ws_url}/ws/{watch}", additional_headers=at_office(4)), watch)
        await spectator.send({"type": "hello", "since": 0})
        await spectator.wait_state(lambda st: True)
        r = httpx.post(seat_url, json={"seat": None}, headers=at_office(4))
        assert (r.status_code, r.json()["error"]) == (409, AT_THIS_TABLE)
        await spectator.close()

        # One account, two browsers (another address too): one seat.
        with httpx.Client(base_url=base, headers=at_office(5)) as anna:
            assert anna.post("/api/account", json={"name": "Anna", "password": "segreto123"}).status_code == 201
            session = anna.cookies[COOKIE]
        r = httpx.post(seat_url, json={"seat": None}, headers=at_office(5, session=session))
        assert r.status_code == 200, r.text
        other = await Seat.open(server.ws_url, r.json()["link"].removeprefix("/t/"), headers=at_office(5, session=session))
        made2 = httpx.post(f"{base}/api/rooms", json={"game": "sicilian", "seats": 3, "public": True},
                           headers=at_office(6, "198.51.100.20")).json()
        host2 = await Seat.open(server.ws_url, made2["links"][0].removeprefix("/t/"), headers=at_office(6, "198.51.100.20"))
        seat2_url = f"{base}/api/public/{made2['table']}/seat"
        assert httpx.post(seat2_url, json={"seat": None}, headers=at_office(5, session=session)).status_code == 200
        r = httpx.post(seat2_url, json={"seat": None}, headers=at_office(7, "198.51.100.21", session=session))
        assert (r.status_code, r.json()["error"]) == (409, AT_THIS_TABLE)

        # Play now: two housemates, one table.
        home = "192.0.2.30"
        opened = httpx.post(f"{base}/api/play-now", json={"game": "calabresella"}, headers=at_office(8, home)).json()
        opener = await Seat.open(server.ws_url, opened["link"].removeprefix("/t/"), headers=at_office(8, home))
        joined = httpx.post(f"{base}/api/play-now", json={"game": "calabresella"}, headers=at_office(9, home)).json()
        assert (joined["table"], joined["new"]) == (opened["table"], False) and joined["seat"] != 0
        for s in (host, other, host2, opener):
            await s.close()

    with running_server() as server:
        asyncio.run(body(server))


def test_over_http_the_unopened_seats_budget_counts_the_address_not_the_browser():
    """Browsers behind one address claim seats of several rooms without opening any: past
    CLAIMS_PER_ADDRESS the next is 429, whichever browser asks; another address is its own."""
    async def body(server):
        base = server.url
        rooms, hosts = [], []
        for n in range(CLAIMS_PER_ADDRESS + 1):
            made = httpx.post(f"{base}/api/rooms", json={"game": "sicilian", "seats": 3, "public": True},
                              headers=at_office(100 + n, f"198.51.100.{100 + n}")).json()
            rooms.append(made["table"])
            hosts.append(await Seat.open(server.ws_url, made["links"][0].removeprefix("/t/")))
        codes = [httpx.post(f"{base}/api/public/{room}/seat", json={"seat": None}, headers=at_office(n)).status_code
                 for n, room in enumerate(rooms)]
        assert codes == [200] * CLAIMS_PER_ADDRESS + [429]
        r = httpx.post(f"{base}/api/public/{rooms[-1]}/seat", json={"seat": None}, headers=at_office(9, "192.0.2.9"))
        assert r.status_code == 200
        for s in hosts:
            await s.close()

    with running_server() as server:
        asyncio.run(body(server))


# --- a site of two processes ----------------------------------------------------------------------


def test_on_a_site_the_store_seats_housemates_through_either_process_and_one_browser_once(redis, tmp_path):  # noqa: F811
    """A room made on A (A drives it): housemates behind one address take seats through B and A;
    one of them asks again through the other process: 409; a browser that opened the watch link
    through B (its socket relayed to A, which notes the visit again with the keys B found, not
    the bare address) is refused through A, and a script with no cookie at that same address
    still gets the last seat."""
    async def body(a, b):
        made = httpx.post(f"{a.url}/api/rooms", json={"game": "ottocento", "seats": 4, "public": True},
                          headers=at_office(1)).json()
        table_id = made["table"]
        host = await Seat.open(a.ws_url, made["links"][0].removeprefix("/t/"), headers=at_office(1))
        watch = host.state["table"]["watch"].removeprefix("/w/")
        path = f"/api/public/{table_id}/seat"
        assert httpx.post(b.url + path, json={"seat": None}, headers=at_office(2)).status_code == 200
        assert httpx.post(a.url + path, json={"seat": None}, headers=at_office(3)).status_code == 200
        for server, n in ((a, 2), (b, 3), (b, 1)):
            r = httpx.post(server.url + path, json={"seat": None}, headers=at_office(n))
            assert (r.status_code, r.json()["error"]) == (409, AT_THIS_TABLE)
        spectator = Seat(await websockets.connect(f"{b.ws_url}/ws/{watch}", additional_headers=at_office(4)), watch)
        await spectator.send({"type": "hello", "since": 0})
        await spectator.wait_state(lambda st: True)
        await asyncio.sleep(0.3)  # (the owner's note of the relayed socket, written by now)
        r = httpx.post(a.url + path, json={"seat": None}, headers=at_office(4))
        assert (r.status_code, r.json()["error"]) == (409, AT_THIS_TABLE)
        r = httpx.post(a.url + path, json={"seat": None}, headers=at_office(None))
        assert r.status_code == 200, r.text
        await spectator.close()
        await host.close()

    db = str(tmp_path / "site.sqlite3")
    with running_server(db, bus=redis.url, process="A", lease=2.0) as a, \
            running_server(db, bus=redis.url, process="B", lease=2.0) as b:
        asyncio.run(body(a, b))
