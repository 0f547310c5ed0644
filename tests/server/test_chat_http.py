"""Chat (stored, delivered to the table only) and the HTTP side."""

from __future__ import annotations

import re

import asyncio
import contextlib
import inspect
import json
import sqlite3

import httpx
import pytest

from tarocchi.bots import DEFAULT_LEVEL
from tarocchi.server.app import INDEX, create_app
from tests.server.live import running_server
from tests.server.seat import Seat, new_computer, new_room


def test_chat_goes_to_the_tables_seats_only_and_is_stored(live_server):
    async def body():
        room = [await Seat.open(live_server.ws_url, t) for t in new_room(live_server.url, 3)]
        other = [await Seat.open(live_server.ws_url, t) for t in new_room(live_server.url, 3)]
        for s in room + other:
            await s.wait_state(lambda st: st["table"]["status"] == "playing")
        version = room[0].version
        markup = '<img src=x onerror="alert(1)"> & <b>ciao</b>'
        await room[2].send({"type": "chat", "text": markup})
        for s in room:
            line = await s.until(lambda m: m["type"] == "chat")
            # Plain text, as typed: the browser shows it escaped.
            assert line == {"type": "chat", "seat": 2, "name": "guest 2", "text": markup, "version": version + 1}
        assert all([await s.quiet(0.2) == [] for s in other])
        # Stored: a seat opening later gets the line, and a since past it does not.
        late = await Seat.open(live_server.ws_url, room[0].token, since=0)
        assert [c["text"] for c in late.chats] == [markup]
        current = await Seat.open(live_server.ws_url, room[0].token, since=version + 1)
        assert current.chats == [] and current.state["version"] == version + 1

    asyncio.run(body())


@pytest.mark.parametrize("text, reason", [
    ("x" * 301, "a chat line is at most 300 characters"),
    ("   ", "say something"),
])
def test_a_bad_chat_line_is_refused_and_not_stored(live_server, text, reason):
    async def body():
        host = await Seat.open(live_server.ws_url, new_room(live_server.url, 3)[0])
        version = host.version
        await host.send({"type": "chat", "text": text})
        refused = await host.until(lambda m: m["type"] == "refused")
        assert refused["reason"] == reason and refused["version"] == version
        again = await Seat.open(live_server.ws_url, host.token)
        assert again.chats == [] and again.version == version

    asyncio.run(body())


def test_a_chat_line_of_300_characters_is_accepted(live_server):
    async def body():
        host = await Seat.open(live_server.ws_url, new_room(live_server.url, 3)[0])
        await host.send({"type": "chat", "text": "é" * 300})
        assert (await host.until(lambda m: m["type"] == "chat"))["text"] == "é" * 300

    asyncio.run(body())


@pytest.mark.parametrize("path, body", [
    ("/api/computer", {"seats": 5}),
    ("/api/computer", {"seats": 3, "level": "grandmaster"}),
    ("/api/computer", {"seats": "3"}),
    ("/api/rooms", {"seats": 2}),
    ("/api/rooms", {"seats": 3, "private": False}),
])
def test_bad_requests_get_400_with_plain_words(live_server, path, body):
    r = httpx.post(live_server.url + path, json=body)
    assert r.status_code == 400 and r.json()["error"]


def test_bad_json_body_is_400(live_server):
    r = httpx.post(live_server.url + "/api/rooms", content=b"{not json")
    assert r.status_code == 400 and "bad request" in r.json()["error"]


def test_links_are_unguessable_and_distinct(live_server):
    links = [httpx.post(live_server.url + "/api/rooms", json={"seats": 4}).json()["links"] for _ in range(5)]
    tokens = [link.removeprefix("/t/") for room in links for link in room]
    assert len(set(tokens)) == 20
    assert all(len(t) == 32 for t in tokens)  # token_urlsafe(24): 192 random bits
    token = new_computer(live_server.url, 3)
    assert len(token) == 32 and token not in tokens


def test_the_page_is_served_for_the_lobby_and_for_a_seat_link(live_server):
    lobby = httpx.get(live_server.url + "/")
    seat = httpx.get(live_server.url + "/t/" + new_computer(live_server.url, 3))
    assert lobby.status_code == seat.status_code == (200 if INDEX.exists() else 503)
    # One page, the app's, for both: the same shell and entry (each preloads its own modules, issue 60).
    strip = lambda html: re.sub(rb"\s*<link rel=\"modulepreload\"[^>]*>", b"", html)  # noqa: E731
    assert strip(lobby.content) == strip(seat.content) and b"modulepreload" in lobby.content
    assert httpx.get(live_server.url + "/api/rooms").status_code == 405  # no listing of rooms


def test_levels_lists_what_the_computer_table_accepts(live_server):
    levels = httpx.get(live_server.url + "/api/levels").json()["levels"]
    assert "random" in levels
    for level in levels:
        r = httpx.post(live_server.url + "/api/computer", json={"seats": 3, "level": level})
        assert r.status_code == 200, (level, r.text)



def test_the_computer_table_defaults_to_the_servers_level():
    """Issue 4: the computer table offers the levels; issue 12: by default the one a newcomer
    can beat sometimes (rule), the strongest one click away; a table asked for without a level
    gets the server's default."""
    assert DEFAULT_LEVEL == "rule"
    assert inspect.signature(create_app).parameters["bot_level_default"].default == DEFAULT_LEVEL
    with running_server(bot_level_default=DEFAULT_LEVEL) as server:  # as `tarocchi serve` starts
        body = httpx.get(server.url + "/api/levels").json()
        assert body["default"] == "rule" and body["levels"][-1] == "expert"
        games = httpx.get(server.url + "/api/games").json()["games"]
        assert all(g["default_level"] == "rule" for g in games if "rule" in g["levels"])
        # issue 21: every game's strongest level, named last, is the expert
        # (the strongest last, search before it; a game's learned level, issue 43, between them)
        assert all(g["levels"][-1] == "expert" and "search" in g["levels"] for g in games), games
        assert all(g["levels"].index("search") >= g["levels"].index("rule") for g in games)
    with running_server(bot_level_default="search") as server:
        r = httpx.post(server.url + "/api/computer", json={"seats": 4})
        assert r.status_code == 200, r.text
        with contextlib.closing(sqlite3.connect(server.db)) as db:
            (data,) = db.execute("SELECT data FROM events WHERE table_id = ? AND version = 1",
                                 (r.json()["table"],)).fetchone()
        assert json.loads(data)["bots"] == [None, "search", "search", "search"]
    with running_server(bot_level_default="rule") as server:
        r = httpx.post(server.url + "/api/computer", json={"seats": 4})
        assert r.status_code == 200, r.text
        with contextlib.closing(sqlite3.connect(server.db)) as db:  # the table's creation event
            (data,) = db.execute("SELECT data FROM events WHERE table_id = ? AND version = 1",
                                 (r.json()["table"],)).fetchone()
        assert json.loads(data)["bots"] == [None, "rule", "rule", "rule"]
