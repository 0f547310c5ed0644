"""Ratings that mean what they say (issue 56): a rated seat is the account that opened it signed
in (never whoever posted its link), each account gets its own seat's result when a room starts
with three (R17), a person who takes a computer's seat is not a leaver and the match is not
rated, and a match is casual when it was thrown in, when two of its accounts sat down from one
address, or (its name) when a seat is renamed; an account deleted mid-match leaves its seat as
a leaver and the others are rated. docs/protocol.md, "Ratings"."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.datastructures import Address

from tarocchi.bots import make_player
from tarocchi.engine.game import game_names, get_game
from tarocchi.server.core.messages import Budget
from tarocchi.server.core.sessions import COOKIE
from tarocchi.server.core.sockets import serve_socket
from tarocchi.server.core.store import open_store
from tarocchi.server.core.tables import NAMED_BY_ACCOUNT
from tarocchi.server.ratings import recompute
from tests.server.test_ratings import (
    RATED, accounts, all_ratings, leave, new_hub, over, players_of, recorded, seat_all, signed_in,
)
from tests.server.fake import Socket, until
from tests.server.live import running_server
from tests.server.seat import Seat, new_room, pick_action
from tests.server.test_public import person
from tests.server.test_site import redis  # noqa: F401  (the fixture: a Redis for the bus)

# The games a four-seat room of which may start with three (R17: played at three too).
EARLY = [g for g in game_names() if {3, 4} <= set(get_game(g).seats)]


def post_links(store, people, tokens) -> None:
    """Each account's seat link posted to it (``POST /api/me/seats``), as a browser signed in
    does besides opening it: "Your tables", and (before issue 56) whose seat was rated."""
    for account, token in zip(people, tokens):
        assert isinstance(store.people.hold_seat(account, token), tuple)


def sits(store, table_id: str) -> list[dict]:
    """The table's stored ``sit`` events' data, in order."""
    return [data for _, kind, data in store.events(table_id) if kind == "sit"]


# --- R17: a room started with three --------------------------------------------------------------

def test_the_games_that_start_early_are_known():
    assert EARLY == ["sicilian"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(EARLY), left=st.sampled_from([1, 2, 3]), seed=st.integers(0, 10_000),
       posted=st.booleans())
def test_a_room_started_with_three_rates_each_account_with_its_own_seats_result(tmp_path_factory, game, left,
                                                                                 seed, posted):
    """Every choice of the room seat left out (the host's, 0, starts it): the three accounts
    that sat down are rated, each with the total of the seat it played, which its own page
    called ``you``; an account that was posted the left-out seat's link (``POST
    /api/me/seats``) and never opened it gets nothing."""
    db = str(tmp_path_factory.mktemp("r17") / "t.sqlite3")

    async def body():
        hub, store = new_hub(db, seed=seed)
        hub.start()
        people = accounts(store, "anna", "bruno", "carla", "dario")
        table_id, tokens = hub.new_room(4, game, settings=RATED)
        if posted:  # the left-out seat's link, held by an account that never opens it
            assert isinstance(store.people.hold_seat(people[left], tokens[left]), tuple)
        seats = [s for s in range(4) if s != left]
        sockets, tasks = seat_all(hub, store, [tokens[s] for s in seats], game, seed,
                                  sitters=[people[s] for s in seats])
        table = hub.tables[table_id]
        for s in sockets:  # (a Sicilian seat that goes solo when it may: deals played out)
            s.choose = lambda view, s=s: pick_action(view, s.rng)
        await until(lambda: sum(table.joined) == 3, seconds=10)  # (each hello: its join, then its sit)
        sockets[0].say({"type": "start"})
        await until(lambda: over(sockets[0]), seconds=30)
        assert recorded(store, table_id) == [(1, 1)]
        kept = {account: (seat, total) for seat, account, _, total, _, _ in players_of(store, table_id)}
        totals = sockets[0].state["table"]["totals"]
        for room_seat, socket in zip(seats, sockets):
            you = socket.state["table"]["you"]
            assert kept[people[room_seat]] == (you, totals[you])
        assert people[left] not in kept and store.people.ratings(people[left]) == {}
        assert all(store.people.ratings(people[s])[f"{game}/3"]["matches"] == 1 for s in seats)
        await leave(sockets, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


# --- the seat's account: the one that opened it signed in ---------------------------------------

def test_links_posted_to_other_accounts_bind_nothing_and_a_later_account_replaces_no_one(store_db):
    """A host posts the guests' links to his own accounts before they come: the guests, opening
    their seats signed in, are the ones rated (before: the posted accounts were, and the guests
    were refused ``other``). A third account opening a seat afterwards changes nothing."""
    async def body():
        hub, store = new_hub(store_db)
        hub.start()
        host, alt1, alt2, guest1, guest2, stranger = accounts(store, "host", "alt1", "alt2", "gina", "gigi", "sly")
        table_id, tokens = hub.new_room(3, "calabresella", settings=RATED)
        for alt, token in ((alt1, tokens[1]), (alt2, tokens[2])):
            assert isinstance(store.people.hold_seat(alt, token), tuple)
        sockets, tasks = seat_all(hub, store, tokens, "calabresella", seed=3, playing=False,
                                  sitters=[host, guest1, guest2])
        table = hub.tables[table_id]
        await until(lambda: all(table.joined), seconds=10)
        late = signed_in(store, Socket(store, random.Random(1)), stranger)
        late.playing = False
        late_task = asyncio.create_task(serve_socket(hub, late, tokens[1], Budget(10_000, 10_000.0)))
        late.say({"type": "hello", "since": 0})
        await until(lambda: late.frames and late.state["type"] == "state", seconds=10)
        assert [s["account"] for s in sits(store, table_id)] == [host, guest1, guest2]
        late.leave()
        await late_task
        for s in sockets:
            s.playing = True
            s.say({"type": "hello", "since": 0})
        await until(lambda: over(sockets[0]), seconds=30)
        assert recorded(store, table_id) == [(1, 1)]
        assert [p[1] for p in players_of(store, table_id)] == [host, guest1, guest2]
        assert store.people.ratings(alt1) == store.people.ratings(alt2) == store.people.ratings(stranger) == {}
        assert all(store.people.ratings(a)["calabresella/3"]["matches"] == 1 for a in (host, guest1, guest2))
        await leave(sockets, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


def test_a_seat_at_a_rated_table_keeps_its_accounts_name(store_db):
    """A seat renamed "Honest" before the end was recorded under that name as the account's:
    at a rated table the seat is named by the account that sat there, a rename is refused,
    and the record has the account's name."""
    async def body():
        hub, store = new_hub(store_db)
        hub.start()
        people = accounts(store, "Anna", "Bruno", "Carla")
        table_id, tokens = hub.new_room(3, "sicilian", settings=RATED)
        sockets, tasks = seat_all(hub, store, tokens, "sicilian", seed=4, playing=False, sitters=people)
        table = hub.tables[table_id]
        await until(lambda: table.status == "playing", seconds=10)
        assert table.names == ["Anna", "Bruno", "Carla"]
        sockets[1].say({"type": "name", "name": "Honest"})
        await until(lambda: any(f.get("type") == "refused" for f in sockets[1].frames), seconds=10)
        assert [f["reason"] for f in sockets[1].frames if f.get("type") == "refused"] == [NAMED_BY_ACCOUNT]
        sockets[1].say({"type": "hello", "since": 0, "name": "Honest"})  # (a hello's name: left out)
        for s in sockets:
            s.playing = True
            s.say({"type": "hello", "since": 0})
        await until(lambda: over(sockets[0]), seconds=30)
        assert table.names == ["Anna", "Bruno", "Carla"]
        with store.people.read() as tx:
            names = [r[0] for r in tx.run("SELECT name FROM match_players WHERE table_id = %s ORDER BY seat",
                                          (table_id,))]
        assert names == ["Anna", "Bruno", "Carla"]
        await leave(sockets, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


# --- casual matches ----------------------------------------------------------------------------

def test_a_match_thrown_in_deal_after_deal_is_not_rated(store_db):
    """Three accounts passing every deal were "settled" after 12 instant matches: a match is
    rated only if at least one of its deals was played out."""
    async def body():
        hub, store = new_hub(store_db)
        hub.start()
        people = accounts(store, "anna", "bruno", "carla")
        table_id, tokens = hub.new_room(3, "sicilian", settings=RATED)
        post_links(store, people, tokens)
        sockets, tasks = seat_all(hub, store, tokens, "sicilian", seed=5, sitters=people)
        for s in sockets:
            s.choose = lambda view, s=s: pick_action(view, s.rng, prefer=("passo",))
        await until(lambda: over(sockets[0]), seconds=30)
        table = hub.tables[table_id]
        assert len(table.match.deals) >= 3 and all(d.count.abandoned for d in table.match.deals)
        assert recorded(store, table_id) == [(1, 0)]
        assert all(store.people.ratings(a) == {} for a in people)
        await leave(sockets, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


@pytest.mark.parametrize("shared", ["address", "browser", None])
def test_accounts_that_sat_down_from_one_address_are_not_rated_against_each_other(tmp_path, shared):
    """Three accounts made and seated from one address, or from one browser (its id cookie) at
    addresses of their own: the match is casual (recorded, rated for nobody). Each from an
    address and a browser of its own, the same match is rated."""
    from tarocchi.server.core.sessions import BROWSER_COOKIE
    async def body():
        hub, store = new_hub(str(tmp_path / "t.sqlite3"))
        hub.start()
        people = accounts(store, "anna", "bruno", "carla")
        table_id, tokens = hub.new_room(3, "calabresella", settings=RATED)
        post_links(store, people, tokens)
        sockets, tasks = [], []
        rng = random.Random(6)
        for n, (account, token) in enumerate(zip(people, tokens)):
            s = signed_in(store, Socket(store, rng), account)
            s.client = Address("203.0.113.7" if shared == "address" else f"203.0.113.{10 + n}", 40000 + n)
            s.cookies[BROWSER_COOKIE] = ("b" * 22) if shared == "browser" else f"{n}" * 22
            s.choose = make_player("random", rng.randrange(1 << 30), "calabresella")
            sockets.append(s)
            tasks.append(asyncio.create_task(serve_socket(hub, s, token, Budget(10_000, 10_000.0))))
            s.say({"type": "hello", "since": 0})
        await until(lambda: over(sockets[0]), seconds=30)
        assert recorded(store, table_id) == [(1, 0 if shared else 1)]
        assert all(bool(store.people.ratings(a)) is not bool(shared) for a in people)
        # The address itself is not written down: a hash of it, in the table's stream.
        assert all("203.0.113" not in str(data) for data in sits(store, table_id))
        await leave(sockets, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


# --- an account deleted mid-match ----------------------------------------------------------------

def test_an_account_deleted_mid_match_is_a_leaver_and_the_others_are_rated(store_db):
    async def body():
        hub, store = new_hub(store_db)
        hub.start()
        people = accounts(store, "anna", "bruno", "carla")
        table_id, tokens = hub.new_room(3, "sicilian", settings=RATED)
        sockets, tasks = seat_all(hub, store, tokens, "sicilian", seed=8, playing=False, sitters=people)
        table = hub.tables[table_id]
        await until(lambda: table.status == "playing", seconds=10)
        store.people.delete_account(people[1])
        for s in sockets:
            s.playing = True
            s.say({"type": "hello", "since": 0})
        await until(lambda: over(sockets[0]), seconds=30)
        assert recorded(store, table_id) == [(1, 1)]
        kept = players_of(store, table_id)
        assert kept[1][1] is None and kept[1][4] == 1  # no account, absent
        assert kept[1][5] > max(kept[0][5], kept[2][5])  # last, whatever its total
        live = {k: (mu, s, n) for k, (mu, s, _, n) in all_ratings(store).items()}
        assert {a for a, _ in live} == {people[0], people[2]}
        assert all(n == 1 for _, _, n in live.values())
        # The rebuild rates the deleted seat as a newcomer, as the live rating did: the same values.
        rebuilt, rated, departed = recompute(store.people.rated_matches())
        assert rebuilt == live and (rated, departed) == (1, 1)
        await leave(sockets, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


# --- a person who takes a computer's seat ---------------------------------------------------------

def test_a_person_who_takes_a_computers_seat_is_not_a_leaver_and_the_match_is_not_rated(tmp_path):
    """Play now: a computer fills seat 2, a person takes it during the first deal and plays
    from the next. The computer's moves were the computer's own: the person is not absent (it
    was placed last, whatever the totals), and the match is recorded, rated for nobody (a seat
    that changed hands mid-match is no one person's result)."""
    async def body():
        hub, store = new_hub(str(tmp_path / "t.sqlite3"), fill_seconds=0.3)
        hub.start()
        people = accounts(store, "anna", "bruno", "carla")
        rng = random.Random(9)
        sockets, tasks = [], []

        def sit(account: str, address: str, seat: int) -> Socket:
            found = hub.lobby.play_now("sicilian", address)
            assert isinstance(found, tuple) and found[2] == seat
            s = signed_in(store, Socket(store, rng), account)
            s.playing = False
            sockets.append(s)
            tasks.append(asyncio.create_task(serve_socket(hub, s, found[1], Budget(10_000, 10_000.0))))
            s.say({"type": "hello", "since": 0})
            return s

        sit(people[0], "203.0.113.1", 0)
        table = hub.tables[next(iter(hub.tables))]
        await until(lambda: table.joined[0], seconds=10)
        await asyncio.sleep(0.05)  # (its listing says somebody is there: Play now seats the next one at it)
        sit(people[1], "203.0.113.2", 1)
        await until(lambda: table.status == "playing" and table.filled[2], seconds=10)
        assert len(hub.tables) == 1 and table.joined[1] and not table.filled[1]
        assert table.rated  # (a public table: rated, were it not for the computer)
        sit(people[2], "203.0.113.3", 2)
        await until(lambda: table.arrived[2], seconds=10)
        for s in sockets:
            s.playing = True
            s.say({"type": "hello", "since": 0})
        await until(lambda: over(sockets[0]), seconds=30)
        assert recorded(store, table.id) == [(1, 0)]
        kept = players_of(store, table.id)
        assert [p[1] for p in kept] == people and [p[4] for p in kept] == [0, 0, 0]  # nobody absent
        totals = [p[3] for p in kept]
        assert [p[5] for p in kept] == [1 + len({t for t in totals if t > mine}) for mine in totals]
        assert all(store.people.ratings(a) == {} for a in people)
        await leave(sockets, tasks)
        await hub.stop()
        store.close()

    asyncio.run(body())


# --- over HTTP and websockets, on one server and on a site of two ---------------------------------

def sign_up(client: httpx.Client, name: str) -> dict:
    """A new account signed in on ``client``: its socket's handshake headers (the cookie)."""
    assert client.post("/api/account", json={"name": name, "password": "segreto123"}).status_code == 201
    return {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}


def test_over_the_wire_a_seat_is_the_account_that_opened_it_not_the_one_posted_its_link():
    """The host's second account is posted guest 1's link before she comes; she opens it signed
    in: the seat is hers (its name hers, and no rename at a rated table), and the host's
    account opening it afterwards changes nothing."""
    async def body(server, host, alt, gina):
        tokens = [link.removeprefix("/t/") for link in
                  host.post("/api/rooms", json={"seats": 3, "game": "calabresella", "rated": True}).json()["links"]]
        alt_cookie = sign_up(alt, "Alto")
        assert alt.post("/api/me/seats", json={"links": [f"/t/{tokens[1]}"]}).json()["held"] == [f"/t/{tokens[1]}"]
        seat = await Seat.open(server.ws_url, tokens[1], headers=sign_up(gina, "Gina") | person(12))
        await seat.wait_state(lambda st: st["table"]["names"][1] == "Gina")
        await seat.send({"type": "name", "name": "Honest"})
        refused = await seat.until(lambda m: m["type"] == "refused")
        assert refused["reason"] == NAMED_BY_ACCOUNT
        again = await Seat.open(server.ws_url, tokens[1], headers=alt_cookie | person(13))
        assert again.state["table"]["names"][1] == "Gina"
        for s in (seat, again):
            await s.close()
        return tokens

    with running_server() as server, httpx.Client(base_url=server.url, headers=person(11)) as host, \
            httpx.Client(base_url=server.url, headers=person(11)) as alt, \
            httpx.Client(base_url=server.url, headers=person(12)) as gina:
        sign_up(host, "Oste")
        tokens = asyncio.run(body(server, host, alt, gina))
        store = open_store(server.db)
        try:
            table_id = store.seat_of(tokens[1])[0]
            gina_id = store.people.account_named("Gina")["id"]
            assert [(d["seat"], d["account"]) for d in sits(store, table_id)] == [(1, gina_id)]
        finally:
            store.close()


def test_on_a_site_of_two_a_relayed_seat_is_the_account_that_opened_it(redis, tmp_path):
    """A seat opened signed in on the process that relays it (the table driven by the other):
    its account is bound all the same (the relay sends it; the cookie never crosses)."""
    db = str(tmp_path / "site.sqlite3")

    async def body(a, b, gina_headers):
        tokens = new_room(a.url, 3)  # made on A: A drives it
        seat = await Seat.open(b.ws_url, tokens[2], headers=gina_headers)
        await seat.wait_state(lambda st: st["table"]["names"][2] == "Gina")
        await seat.close()
        return tokens

    with running_server(db, bus=redis.url, process="A", lease=2.0) as a, \
            running_server(db, bus=redis.url, process="B", lease=2.0) as b, \
            httpx.Client(base_url=b.url, headers=person(21)) as gina:
        tokens = asyncio.run(body(a, b, sign_up(gina, "Gina") | person(21)))
        store = open_store(db)
        try:
            table_id = store.seat_of(tokens[2])[0]
            assert store.lease_owner(table_id) == "A"
            gina_id = store.people.account_named("Gina")["id"]
            assert [(d["seat"], d["account"], d["name"]) for d in sits(store, table_id)] == [(2, gina_id, "Gina")]
        finally:
            store.close()
