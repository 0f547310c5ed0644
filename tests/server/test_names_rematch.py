"""A player's name, the score sheet and the rematch (issue 12, the server's part): names are
plain text, limited and stored; the sheet lists each finished deal's payments; "Play again"
begins another match at the same table, with the same seats, links and names, once every
seat has said yes, and a restart keeps it."""

from __future__ import annotations

import sqlite3
import time

import httpx
import pytest

from tarocchi.engine.game import get_game
from tarocchi.server.core.hub import TABLE_GAMES
from tarocchi.server.core.tables import NAME_EMPTY, NAME_LIMIT, NAME_LONG, NOT_OVER
from tests.faults.server import ServerProcess, run
from tests.server.seat import Seat
from tests.trust.harness import new_room_ids, next_deal, open_all, play_deal, run_async, running
from tests.trust.test_every_game import policy


def test_names_are_plain_limited_stored_and_shown_to_the_table(live_server):
    async def body():
        _, tokens = new_room_ids(live_server.url, 3)
        host = await Seat.open(live_server.ws_url, tokens[0])
        await host.send({"type": "hello", "since": host.version, "name": "  Lucia \u0007\u200b  la  Rossa "})
        st = await host.wait_state(lambda st: st["table"]["names"][0] != "host")
        assert st["table"]["names"] == ["Lucia la Rossa", "guest 1", "guest 2"]
        guest = await Seat.open(live_server.ws_url, tokens[1])
        assert guest.state["table"]["names"][0] == "Lucia la Rossa"
        markup = '<b onclick=x>B</b>'
        await guest.send({"type": "name", "name": markup})
        st = await host.wait_state(lambda st: st["table"]["names"][1] == markup)  # as typed: text
        version = st["version"]
        for bad, reason in (("x" * (NAME_LIMIT + 1), NAME_LONG), (" \u0007 ", NAME_EMPTY), ("--", NAME_EMPTY)):
            await guest.send({"type": "name", "name": bad})
            refused = await guest.until(lambda m: m["type"] == "refused")
            assert refused["reason"] == reason and refused["version"] == version
        # The same name again changes nothing; a chat line carries the name.
        await guest.send({"type": "name", "name": markup})
        await guest.send({"type": "chat", "text": "ciao"})
        line = await host.until(lambda m: m["type"] == "chat")
        assert line["name"] == markup and line["version"] == version + 1
        # Stored: a page opening later sees the names, and each line under the name it was
        # said with, also once the seat is renamed (from memory and from the store).
        await guest.send({"type": "name", "name": "Cecco"})
        await host.wait_state(lambda st: st["table"]["names"][1] == "Cecco")
        late = await Seat.open(live_server.ws_url, tokens[2])
        assert late.state["table"]["names"] == ["Lucia la Rossa", "Cecco", "guest 2"]
        assert [(c["name"], c["text"]) for c in late.chats] == [(markup, "ciao")]
        await late.send({"type": "history", "before": late.state["version"]})
        older = await late.until(lambda m: m["type"] == "history")
        assert [(c["name"], c["text"]) for c in older["lines"]] == [(markup, "ciao")]
        for s in (host, guest, late):
            await s.close()

    run_async(body())


@pytest.mark.parametrize("game", [g if g == "sicilian" else pytest.param(g, marks=pytest.mark.slow) for g in TABLE_GAMES])
def test_a_rematch_begins_another_match_with_the_same_seats_once_all_say_yes(tmp_path, game):
    async def body(server: ServerProcess):
        seats = get_game(game).seats[0]
        table_id, tokens = new_room_ids(server.url, seats, game)
        room = await open_all(server.ws_url, tokens)
        await room[1].send({"type": "name", "name": "Bartolo"})
        await room[0].send({"type": "rematch"})
        assert (await room[0].until(lambda m: m["type"] == "refused"))["reason"] == NOT_OVER
        chosen = policy(game, 11)

        def decide(view):
            # At a person's pace, more or less: a seat's socket sends at most 30 messages a
            # second (docs/protocol.md "Limits"), and a match to a score can be long.
            time.sleep(0.015)
            return chosen(view)

        while True:
            await play_deal(room, decide)
            if not await next_deal(room):
                break
        table = room[0].state["table"]
        assert table["status"] == "over"
        if table["deals_in_match"] is None:  # a match to a score (C21): over once a seat reached it
            assert max(table["totals"]) >= table["target"]
        else:
            assert len(table["sheet"]) == table["deals_in_match"]
        assert [sum(col) for col in zip(*table["sheet"])] == table["totals"]  # the sheet adds up
        if game == "ottocento":  # B24: each side adds its own score, partners alike
            assert all(row[0] == row[2] and row[1] == row[3] for row in table["sheet"])
        else:
            assert all(sum(row) == 0 for row in table["sheet"])
        finished = sqlite3.connect(server.db).execute("SELECT finished FROM tables WHERE id = ?", (table_id,))
        assert finished.fetchone() == (1,)
        for s in room[:-1]:
            await s.send({"type": "rematch"})
        st = await room[-1].wait_state(lambda st: sum(st["table"]["rematch"]) == seats - 1)
        assert st["table"]["status"] == "over" and st["table"]["rematch"][-1] is False
        await room[-1].send({"type": "rematch"})
        for s in room:
            st = await s.wait_state(lambda st: st["table"]["status"] == "playing")
        assert st["table"]["deal_number"] == 1 and st["table"]["totals"] == [0] * seats
        assert st["table"]["sheet"] == [] and st["table"]["rematch"] == [False] * seats
        assert st["table"]["names"][1] == "Bartolo"
        version = st["version"]
        # The table is playing again: a restart reloads it, and the same links open it.
        server.kill9()
        server.start()
        again = [await Seat.open(server.ws_url, t) for t in tokens]
        assert [s.state["version"] for s in again] == [version] * seats
        assert again[0].state["table"]["status"] == "playing"
        finished = sqlite3.connect(server.db).execute("SELECT finished FROM tables WHERE id = ?", (table_id,))
        assert finished.fetchone() == (0,)
        for s in again:
            await s.close()

    with ServerProcess(str(tmp_path / f"{game}.sqlite3"), bot_delay=0.01) as server:
        run(body(server))


def test_a_computer_table_plays_again_at_the_humans_word():
    """The bots are always ready: the human's yes begins the next match."""
    async def body(server):
        link = httpx.post(f"{server.url}/api/computer", json={"seats": 3, "level": "random"}).json()["link"]
        me = await Seat.open(server.ws_url, link.removeprefix("/t/"))
        decide = policy("sicilian", 2)
        while (st := me.state)["table"]["status"] != "over":
            if st["table"]["status"] == "between":
                number = st["table"]["deal_number"]
                await me.send({"type": "next"})
                await me.wait_state(lambda st: st["table"]["deal_number"] > number or st["table"]["status"] == "over")
            elif me.my_turn():
                await me.act(decide(me.view), f"m{st['version']}")
                await me.wait_state(lambda new: new["version"] > st["version"])
            else:  # the computers' turn
                await me.wait_state(lambda new: new["version"] > st["version"], timeout=30)
        await me.send({"type": "rematch"})
        st = await me.wait_state(lambda st: st["table"]["status"] != "over")
        assert st["table"]["deal_number"] == 1 and st["table"]["totals"] == [0, 0, 0]
        await me.close()

    with running() as server:
        run_async(body(server))
