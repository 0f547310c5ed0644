"""Who may act: a seat link acts for its own seat at its own table, and nothing else.

Wrong and guessed tokens are closed with 4404; a token of one room never touches another;
there is no field to claim another seat, and acting out of turn or handing a present seat to
the computer is refused with a reason and changes nothing; rooms cannot be listed; the bot
seats of a computer table have no token at all (and a stray one from an old database opens
nothing)."""

from __future__ import annotations

import asyncio
import base64
import json
import sqlite3
import contextlib

import httpx
import pytest
import websockets

from tarocchi.games.sicilian import NOT_YOUR_TURN
from tarocchi.server.watch import WATCH_SEAT
from tests.server.seat import Seat, new_computer
from tests.trust.harness import new_room_ids, open_all, running

UNKNOWN = {"type": "error", "reason": "unknown link: this seat does not exist"}


@pytest.fixture(scope="module")
def server():
    with running(seed=7) as s:
        yield s


@pytest.fixture(scope="module", params=["embedded", pytest.param("site", marks=pytest.mark.slow)])
def any_server(request):
    """The embedded server, and a site of two processes (PostgreSQL, Redis, every other seat
    relayed, issue 20): a token opens the same seat and nothing more either way."""
    with running(seed=8, site=request.param == "site") as s:
        yield s


def relayed(server) -> str:
    """The address of a process that does not drive the server's new tables (a site's second)."""
    return server.ws_url if isinstance(server.ws_url, str) else server.ws_url[-1]


async def closed_with_4404(ws_url: str, token: str) -> None:
    async with websockets.connect(f"{ws_url}/ws/{token}") as ws:
        assert json.loads(await asyncio.wait_for(ws.recv(), 5)) == UNKNOWN
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd.code == 4404 and "unknown link" in closed.value.rcvd.reason


def seat_tokens(db: str, table_id: str) -> dict[int, str]:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return {s: t for t, s in conn.execute("SELECT token, seat FROM seats WHERE table_id = ?", (table_id,))}


def test_tokens_are_long_random_capabilities_and_guesses_get_4404(server):
    table_id, tokens = new_room_ids(server.url, 4)
    other_id, other = new_room_ids(server.url, 3)
    everything = tokens + other
    assert len(set(everything)) == len(everything)
    for t in everything:
        assert len(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))) * 8 >= 128
    real = tokens[1]
    flipped = real[:-1] + ("A" if real[-1] != "A" else "B")
    guesses = [flipped, real[:-1], real + "x", real.upper() if real.upper() != real else real.lower(),
               table_id, other_id, "0", "host", "a" * 32]

    async def body():
        for guess in guesses:
            await closed_with_4404(server.ws_url, guess)
    asyncio.run(body())
    # The page at /t/<anything> is the same static app: it tells nothing about the token.
    pages = {httpx.get(f"{server.url}/t/{t}").text for t in (real, flipped, "nothing")}
    assert len(pages) == 1


def test_rooms_cannot_be_listed(server):
    new_room_ids(server.url, 3)
    for path in ("/api/rooms", "/api/computer", "/api/tables", "/api/rooms/list", "/t/", "/ws/",
                 "/api", "/static/"):
        r = httpx.get(f"{server.url}{path}")
        assert r.status_code in (404, 405), (path, r.status_code)
        assert "/t/" not in r.text
    # The HTTP routes are the documented ones; none of them answers a list.
    from tarocchi.server.app import create_app
    paths = {getattr(r, "path", None) for r in create_app(server.db).routes}
    # (Watching and looking back, issue 22: each needs a table's token, and answers for that table.)
    assert paths == {"/", "/t/{token}", "/api/computer", "/api/rooms", "/api/levels", "/api/games", "/ws/{token}",
                     "/static/{path:path}", "/api/public", "/api/public/{table}/seat", "/api/play-now",
                     "/w/{token}", "/r/{token}/{number:int}", "/api/deals/{token}",
                     "/api/replay/{token}/{number:int}", "/api/records/{token}", "/api/my-tables",
                     "/sw.js", "/manifest.webmanifest",  # (the installable app's files: no table in them)
                     # Accounts (issue 40): each answers for the account signed in, or the one
                     # named; the leaderboards list players' names and ratings, never a table or a link.
                     "/account", "/@/{name}", "/leaderboard/{game}", "/api/account", "/api/session", "/api/sessions",
                     "/api/me", "/api/me/password", "/api/me/seats", "/api/me/export", "/api/me/lessons",
                     "/api/passkeys/signup/options", "/api/passkeys/signup", "/api/passkeys/options", "/api/passkeys",
                     "/api/passkeys/signin/options", "/api/passkeys/signin",
                     # (issue 55: the account's own keys, asked for again; a passkey of its own removed)
                     "/api/me/confirm", "/api/me/recovery-codes", "/api/passkeys/confirm/options",
                     "/api/passkeys/confirm", "/api/passkeys/{credential}",
                     "/api/players/{name}", "/api/leaderboard/{game}",
                     # (issue 56: one recorded match's result, named; the account's own pause)
                     "/api/matches/{reference}", "/api/me/pause",
                     # (issue 58: the account's own friends, blocks, challenges and bell; a challenge
                     # answered by its id, for those it names; reports; the moderators' alone)
                     "/api/me/friends", "/api/me/blocks", "/api/me/challenges", "/api/challenges",
                     "/api/challenges/{id}/accept", "/api/challenges/{id}/decline", "/api/challenges/{id}/cancel",
                     "/api/me/bell", "/api/me/bell/read", "/api/reports", "/api/mod/reports",
                     "/api/mod/reports/{id}/close", "/api/mod/players/{name}", "/api/mod/log", "/api/mod/actions",
                     "/api/push/key", "/api/push",  # (notifications, issue 41: the account's own)
                     "/api/lessons", "/api/lessons/{game}/{n:int}",  # (issue 42: a lesson's own new table)
                     # (issue 58: a player's archive of finished matches, and its figures, named by
                     # the player, never a table in play; the account's own setting; the moderators' page)
                     "/@/{name}/games", "/api/players/{name}/games", "/api/players/{name}/figures",
                     "/api/me/settings", "/mod",
                     # (issue 59: the public tournaments, each its tables' watch links and the asker's
                     # own seat alone; the daily deal's public facts and the asker's own table)
                     "/tournaments", "/tournament/{id}", "/api/tournaments", "/api/tournaments/{id}",
                     "/api/tournaments/{id}/join", "/api/tournaments/{id}/records", "/daily/{game}",
                     "/api/daily/{game}"}
    # A stranger's tournaments list and daily deal name no seat (issue 59).
    for path in ("/api/tournaments", "/api/daily/sicilian"):
        r = httpx.get(f"{server.url}{path}")
        assert r.status_code == 200 and "/t/" not in r.text, (path, r.status_code)
    # "Your tables" (issue 38) answers only for the seat links it is given, never a list of its own.
    assert httpx.post(f"{server.url}/api/my-tables", json={"links": []}).json()["tables"] == []
    assert httpx.get(f"{server.url}/api/my-tables").status_code == 405
    for path in ("/api/deals", "/api/deals/", "/api/records/", "/api/replay/", "/w/", "/r/"):
        r = httpx.get(f"{server.url}{path}")
        assert r.status_code in (404, 405) and "/t/" not in r.text and "/w/" not in r.text, (path, r.status_code)
    # The lobby's listing (issue 22) lists public rooms only, and never a link.
    public = httpx.get(f"{server.url}/api/public")
    assert public.json()["tables"] == [] and "/t/" not in public.text
    games = httpx.get(f"{server.url}/api/games").text  # the games' static facts, no table in them
    assert "/t/" not in games and '"table"' not in games


def test_a_token_opens_its_own_table_and_seat_only(any_server):
    async def body():
        a_id, a_tokens = new_room_ids(any_server.url, 3)
        b_id, b_tokens = new_room_ids(any_server.url, 3)
        a = await open_all(any_server.ws_url, a_tokens)
        b = await open_all(any_server.ws_url, b_tokens)
        for seat, s in enumerate(a):
            assert s.state["table"]["id"] == a_id and s.you == seat
        for seat, s in enumerate(b):
            assert s.state["table"]["id"] == b_id and s.you == seat
        # The seat to act at A acts: only A moves; B hears nothing.
        b_version = b[0].state["version"]
        actor = next(s for s in a if s.my_turn())
        version = actor.state["version"]
        await actor.act("passo", "a1")
        for s in a:
            await s.wait_state(lambda st: st["version"] == version + 1)
        for s in b:
            assert await s.quiet(0.2) == []
            assert s.state["version"] == b_version
        # A second socket on the same link is the same seat, never another one.
        again = await Seat.open(relayed(any_server), a_tokens[2])
        assert again.you == 2 and again.view["hand"] == a[2].view["hand"]
        for s in a + b + [again]:
            await s.close()
    asyncio.run(body())


def test_no_message_acts_for_another_seat(any_server):
    """The act has no seat field (an extra field is refused); acting out of turn is refused
    with the engine's reason; handing a present seat, or one's own, to the computer is
    refused. None of it changes the table or reaches the other seats."""
    async def body():
        _, tokens = new_room_ids(any_server.url, 3)
        seats = await open_all(any_server.ws_url, tokens)
        actor = next(s for s in seats if s.my_turn())
        idle = [s for s in seats if s is not actor]
        version = actor.state["version"]
        before = [s.state for s in seats]
        attempts = [
            (idle[0], {"type": "act", "action": "passo", "id": "x", "seat": actor.you}, "error", "bad message"),
            (idle[0], {"type": "act", "action": "passo", "id": "y", "as": actor.you}, "error", "bad message"),
            (idle[0], {"type": "hello", "since": 0, "seat": actor.you}, "error", "bad message"),
            (idle[0], {"type": "act", "action": "passo", "id": "z"}, "refused", NOT_YOUR_TURN),
            (idle[1], {"type": "act", "action": "vado solo", "id": 5}, "refused", NOT_YOUR_TURN),
            (idle[0], {"type": "takeover", "seat": actor.you}, "refused", "not away"),
            (idle[0], {"type": "takeover", "seat": idle[0].you}, "refused", "your own seat"),
            (idle[0], {"type": "takeover", "seat": 3}, "refused", "not away"),
            (next(s for s in seats if s.you != 0), {"type": "start"}, "refused", "only the host"),
        ]
        for who, message, kind, words in attempts:
            await who.send(message)
            answer = await who.until(lambda m: True, timeout=5)
            assert answer["type"] == kind and words in answer["reason"], (message, answer)
            if kind == "refused":
                assert answer["version"] == version
        for s in seats:
            assert await s.quiet(0.2) == []
        # Nothing changed: a fresh hello gets the same state back.
        for s, old in zip(seats, before):
            await s.send({"type": "hello", "since": version})
            st = await s.until(lambda m: m["type"] == "state", timeout=5)
            assert st["version"] == version and st["view"] == old["view"] and st["events"] == []
        for s in seats:
            await s.close()
    asyncio.run(body())


def test_the_bots_of_a_computer_table_have_no_token(server):
    """Only the human's seat of a computer table has a link; a bot seat's token does not
    exist, so nobody can act for the computer from outside."""
    token = new_computer(server.url, 4)
    with contextlib.closing(sqlite3.connect(server.db)) as conn:
        (table_id,) = conn.execute("SELECT table_id FROM seats WHERE token = ?", (token,)).fetchone()
    tokens = seat_tokens(server.db, table_id)
    # Besides the human's, the table's watch token (issue 22): it opens no seat, it only watches.
    assert {s: t for s, t in tokens.items() if s != WATCH_SEAT} == {0: token} and WATCH_SEAT in tokens


def test_a_stray_bot_token_from_an_old_database_opens_nothing(server):
    """Defence in depth: a bot seat's token left in the store (as older versions wrote them)
    is refused like an unknown link."""
    token = new_computer(server.url, 3)
    with contextlib.closing(sqlite3.connect(server.db)) as conn:
        (table_id,) = conn.execute("SELECT table_id FROM seats WHERE token = ?", (token,)).fetchone()
        with conn:
            conn.execute("INSERT INTO seats (token, table_id, seat) VALUES (?, ?, 1)", ("stray-bot-token-" + "x" * 20, table_id))

    async def body():
        await closed_with_4404(server.ws_url, "stray-bot-token-" + "x" * 20)
        human = await Seat.open(server.ws_url, token)
        assert human.you == 0
        await human.close()
    asyncio.run(body())


def test_new_tables_from_one_address_are_limited():
    """Rooms cannot be made in a flood: past its burst an address gets 429 with a reason, and
    nothing is created; the served default is a burst of 30, then one every 10 s."""
    import inspect

    from tarocchi.server.app import create_app, serve
    from tarocchi.server.core.messages import TOO_MANY_TABLES
    from tests.server.live import running_server

    for f in (create_app, serve):
        assert inspect.signature(f).parameters["new_tables"].default == (30, 0.1)
    with running_server(new_tables=(3, 0.001)) as server:
        made = [httpx.post(server.url + path, json={"seats": 3})
                for path in ("/api/rooms", "/api/computer", "/api/rooms", "/api/rooms", "/api/computer")]
        assert [r.status_code for r in made] == [200, 200, 200, 429, 429]
        assert made[3].json() == {"error": TOO_MANY_TABLES}
        with contextlib.closing(sqlite3.connect(server.db)) as db:
            assert db.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 3
