"""A table that cannot be loaded stays alone (issue 18): a stored stream the code no longer
replays (an event it now refuses, a game renamed, a row damaged by hand) marks that table as
broken, logged once; its links say it could not be restored; the server starts and serves
every other table; ``tarocchi check-db`` lists it with its first failing version."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import random
import sqlite3
import tempfile

import httpx
import pytest
import websockets

from tarocchi.cli import main as cli
from tarocchi.server.core.hub import BROKEN, CLOSE_BROKEN
from tests.server.live import running_server
from tests.server.seat import Seat, new_computer, new_room, play_computer_deal, play_room_deal

DAMAGES = {
    # an act the rules refuse (the code of the day would never have stored it)
    "refused": lambda db, t, v: db.execute("INSERT INTO events VALUES (?, ?, 'act', ?, 0)",
                                           (t, v + 1, json.dumps({"seat": 0, "action": "KC KC", "id": None}))),
    # a game no longer registered under that name
    "renamed": lambda db, t, v: db.execute(
        "UPDATE events SET data = json_set(data, '$.game', 'briscola') WHERE table_id = ? AND version = 1", (t,)),
    # issue 18's reproduction, as the code before it stored it: an Ottocento room of four
    # started with three (R17 is Sicilian; B5)
    "ottocento started with three": lambda db, t, v: db.execute(
        "INSERT INTO events VALUES (?, ?, 'start', '{}', 0)", (t, v + 1)),
    # a row an operator edited by hand, no longer JSON
    "damaged": lambda db, t, v: db.execute(
        "UPDATE events SET data = '{\"seat\": 0, \"act' WHERE table_id = ? AND version = ?", (t, v)),
}
FIRST_BAD = {"refused": lambda v: v + 1, "renamed": lambda v: 1, "damaged": lambda v: v,
             "ottocento started with three": lambda v: v + 1}


def check_db(path: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli(["check-db", path])
    return code, out.getvalue()


async def opened(ws_url: str, token: str) -> tuple[list[dict], int]:
    """Every frame a hello on ``token`` gets, and the code the socket was closed with."""
    frames = []
    async with websockets.connect(f"{ws_url}/ws/{token}") as ws:
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(json.dumps({"type": "hello", "since": 0}))  # (the server may have closed already)
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    return frames, ws.close_code


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_table_that_does_not_replay_stays_alone_and_the_site_serves_the_rest(damage, caplog):
    async def body(db: str):
        rng = random.Random(4)
        with running_server(db) as first:
            good_tokens = new_room(first.url, 3)
            if damage == "ottocento started with three":  # seats 0, 1 and 3 of four joined
                r = httpx.post(f"{first.url}/api/rooms", json={"game": "ottocento", "seats": 4})
                bad_tokens = [link.removeprefix("/t/") for link in r.json()["links"]]
                bad = [await Seat.open(first.ws_url, bad_tokens[s]) for s in (0, 1, 3)]
            else:
                bad_tokens = new_room(first.url, 3)
                bad = [await Seat.open(first.ws_url, t) for t in bad_tokens]
            good = [await Seat.open(first.ws_url, t) for t in good_tokens]
            for s in good + bad:
                await s.wait_state(lambda st: st["table"]["status"] in ("playing", "waiting"))
                await s.close()
            bad_id = bad[0].state["table"]["id"]
        assert check_db(db) == (0, "")

        with sqlite3.connect(db) as raw:
            (last,) = raw.execute("SELECT max(version) FROM events WHERE table_id = ?", (bad_id,)).fetchone()
            DAMAGES[damage](raw, bad_id, last)

        caplog.set_level(logging.INFO, logger="tarocchi.server")
        with running_server(db) as again:  # it starts: the broken table does not take the site down
            for _ in range(2):
                frames, code = await opened(again.ws_url, bad_tokens[1])
                assert code == CLOSE_BROKEN
                assert frames == [{"type": "error", "reason": BROKEN}]
            # The other room carries on to its count, and a new computer table plays to its end.
            good = [await Seat.open(again.ws_url, t) for t in good_tokens]
            await play_room_deal(good, rng)
            human = await Seat.open(again.ws_url, new_computer(again.url, 3))
            assert (await play_computer_deal(human, rng))["view"]["phase"] == "done"
        told = [r for r in caplog.records if bad_id in r.getMessage() and "could not be restored" in r.getMessage()]
        assert len(told) == 1 and told[0].levelno == logging.ERROR  # once, with its id and the reason

        # The stream is kept untouched for the operator, and check-db names it.
        code, listing = check_db(db)
        assert code == 1
        (line,) = listing.splitlines()
        assert line.startswith(f"table {bad_id}: version {FIRST_BAD[damage](last)} ")

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(body(f"{tmp}/site.sqlite3"))


def test_check_db_refuses_what_is_not_a_database(tmp_path):
    assert check_db(str(tmp_path / "missing.sqlite3"))[0] == 2
    (tmp_path / "text.sqlite3").write_text("not a database at all, just words " * 100)
    assert check_db(str(tmp_path / "text.sqlite3"))[0] == 2


def test_check_db_reads_a_postgresql_database_too(postgres):
    from tarocchi.server.core.store import open_store

    url = postgres.new_database()
    store = open_store(url)
    store.create_table("good", "room", ["a1", "b1", "c1"], {"game": "sicilian", "kind": "room", "seats": 3,
                       "names": ["host", "guest 1", "guest 2"], "bots": [None] * 3, "options": None})
    store.create_table("bad", "room", ["a2", "b2", "c2"], {"game": "briscola", "kind": "room", "seats": 3,
                       "names": ["host", "guest 1", "guest 2"], "bots": [None] * 3, "options": None})
    store.close()
    code, listing = check_db(url)
    assert code == 1 and listing.startswith("table bad: version 1 (created): ") and len(listing.splitlines()) == 1
