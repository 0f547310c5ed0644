"""A seat comes back exactly where it was: after a lost connection and after a restart."""

from __future__ import annotations

import asyncio
import os
import random
import tempfile

from tests.server.live import running_server
from tests.server.seat import (
    Seat, new_computer, new_room, pick_action, play_computer_deal, play_room_deal,
)


async def open_all(ws_url: str, tokens: list[str], since: int = 0) -> list[Seat]:
    return [await Seat.open(ws_url, t, since) for t in tokens]


async def step(seats: list[Seat], rng: random.Random) -> None:
    """The seat to act takes one legal action; every open seat sees it."""
    version = max(s.state["version"] for s in seats)
    for s in seats:
        await s.wait_state(lambda st: st["version"] >= version)
    actor = next(s for s in seats if s.my_turn())
    await actor.act(pick_action(actor.view, rng), f"s{version}")
    for s in seats:
        await s.wait_state(lambda st: st["version"] > version)


def test_reconnect_with_since_gets_the_missed_events_and_the_same_view(live_server):
    async def body():
        tokens = new_room(live_server.url, 3)
        seats = await open_all(live_server.ws_url, tokens)
        for s in seats:
            await s.wait_state(lambda st: st["table"]["status"] == "playing")
        rng = random.Random(11)
        away = seats[1]
        if away.my_turn():
            await step(seats, rng)
        left_at = away.version
        await away.close()
        st = await seats[0].wait_state(lambda st: st["table"]["connected"] == [True, False, True])
        assert st["version"] == left_at  # a socket coming and going is not an event
        seen_before = len(seats[0].events)
        present = [seats[0], seats[2]]
        moves = 0
        # The others play on while it is not the away seat's turn.
        while seats[0].view["turn"] != 1 and seats[0].view["phase"] != "done" and moves < 6:
            await step(present, rng)
            moves += 1
        assert moves > 0
        missed = seats[0].events[seen_before:]
        back = await Seat.open(live_server.ws_url, tokens[1], since=left_at)
        fresh = await Seat.open(live_server.ws_url, tokens[1], since=0)
        assert back.state["version"] == seats[0].state["version"] == left_at + moves
        assert back.state["events"] == missed and missed
        assert back.state["view"] == fresh.state["view"]
        assert back.state["view"]["seat"] == 1 and back.state["table"]["you"] == 1
        assert fresh.state["events"][-len(missed):] == missed
        # Both sockets of the seat are served; the others see it connected again.
        assert (await seats[0].wait_state(lambda st: st["table"]["connected"][1]))["version"] == left_at + moves

    asyncio.run(body())


def test_restart_on_the_same_database_carries_every_table_on_exactly():
    """Stop the server mid-trick (a room), mid-deal (a computer table waiting for its human)
    and while a bot is thinking; a new server on the same file serves identical views and
    versions, and the deals play on to the count."""
    async def body(db: str):
        rng = random.Random(23)
        with running_server(db) as first:
            room_tokens = new_room(first.url, 3)
            room = await open_all(first.ws_url, room_tokens)
            for s in room:
                await s.wait_state(lambda st: st["table"]["status"] == "playing")
            # Into the play, and into the middle of a trick.
            await play_room_deal(room, rng, stop=lambda st: st["view"]["phase"] == "play"
                                 and len(st["view"]["trick"]) == 1)
            await room[0].send({"type": "chat", "text": "before the restart"})
            for s in room:
                await s.until(lambda m: m["type"] == "chat")
            computer_token = new_computer(first.url, 4)
            human = await Seat.open(first.ws_url, computer_token)
            await human.wait_state(lambda st: human.my_turn())
            before = {t: (s.version, s.state["view"], s.state["table"])
                      for t, s in zip(room_tokens + [computer_token], room + [human])}
            for s in room + [human]:
                await s.close()
        with running_server(db) as second:
            again = await open_all(second.ws_url, room_tokens + [computer_token])
            for token, s in zip(room_tokens + [computer_token], again):
                version, view, table = before[token]
                assert s.version == version
                assert s.state["view"] == view
                assert {k: v for k, v in s.state["table"].items() if k != "connected"} == \
                       {k: v for k, v in table.items() if k != "connected"}
            assert [c["text"] for c in again[0].chats] == ["before the restart"]
            # A since at the current version: nothing missed.
            late = await Seat.open(second.ws_url, room_tokens[2], since=before[room_tokens[2]][0])
            assert late.state["events"] == []
            await play_room_deal(again[:3], rng)
            assert all(s.state["view"]["count"] is not None for s in again[:3])
        with running_server(db, bot_delay=30) as third:
            # Slow bots now: act until a bot is to act, then stop while it thinks.
            human = await Seat.open(third.ws_url, computer_token)
            while human.my_turn():
                version = human.version
                await human.act(pick_action(human.view, rng), f"h{version}")
                await human.wait_state(lambda st: st["version"] > version)
            thinking_at = human.version
            assert human.view["phase"] != "done" and human.view["turn"] != 0
            assert await human.quiet(0.3) == []  # the bot's beat is still running
            stopping = asyncio.get_running_loop().time()
        assert asyncio.get_running_loop().time() - stopping < 5  # a thinking bot does not hold up the stop
        with running_server(db) as fourth:
            human = await Seat.open(fourth.ws_url, computer_token)
            assert human.version >= thinking_at
            await human.wait_state(lambda st: st["version"] > thinking_at)  # the bot carried on
            state = await play_computer_deal(human, rng)
            assert state["view"]["phase"] == "done" and state["table"]["status"] == "between"

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(body(os.path.join(tmp, "restart.sqlite3")))
