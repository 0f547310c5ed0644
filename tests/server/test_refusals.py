"""The server is the authority: refusals carry the engine's reasons and change nothing."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from tarocchi.engine import tricks
from tarocchi.games import sicilian
from tests.server.seat import Seat, new_room


async def open_room(server, seats: int = 3) -> list[Seat]:
    tokens = new_room(server.url, seats)
    out = [await Seat.open(server.ws_url, t) for t in tokens]
    for s in out:
        await s.wait_state(lambda st: st["table"]["status"] == "playing")
    return out


async def nothing_arrives(seats: list[Seat]) -> bool:
    return all([await s.quiet(0.2) == [] for s in seats])


def to_act(seats: list[Seat]) -> tuple[Seat, list[Seat]]:
    actor = next(s for s in seats if s.my_turn())
    return actor, [s for s in seats if s is not actor]


def test_out_of_turn_is_refused_with_the_engines_reason_and_changes_nothing(live_server):
    async def body():
        seats = await open_room(live_server)
        actor, idle = to_act(seats)
        version, view = idle[0].state["version"], idle[0].view
        await idle[0].act("passo", "x1")
        refused = await idle[0].until(lambda m: m["type"] != "chat")
        assert refused == {"type": "refused", "id": "x1", "reason": "it is not your turn", "version": version}
        # Nobody else hears of it, and the table did not move.
        assert await nothing_arrives(seats)
        await idle[0].send({"type": "hello", "since": version})
        again = await idle[0].until(lambda m: m["type"] == "state")
        assert again["version"] == version and again["view"] == view and again["events"] == []

    asyncio.run(body())


def test_a_card_that_does_not_follow_suit_is_refused(live_server):
    """R13: follow the suit led. Play up to a trick where the second seat cannot play
    everything it holds, then try a refused card."""
    async def body():
        seats = await open_room(live_server)
        from random import Random
        from tests.server.seat import pick_action
        rng = Random(5)
        while True:
            actor, _ = to_act(seats)
            view = actor.view
            refused_cards = [c for c in view["choices"] if c["reason"] is not None]
            if view["phase"] == "play" and view["trick"] and refused_cards:
                break
            version = actor.state["version"]
            await actor.act(pick_action(view, rng), f"p{version}")
            for s in seats:
                await s.wait_state(lambda st: st["version"] > version)
        bad = refused_cards[0]
        version = actor.state["version"]
        await actor.act(bad["action"], "bad")
        refused = await actor.until(lambda m: m["type"] == "refused")
        assert refused["reason"] == bad["reason"]
        assert refused["reason"] in (tricks.FOLLOW_SUIT, tricks.PLAY_TRUMP)  # R13
        assert refused["version"] == version
        assert await nothing_arrives(seats)
        # A card not in the hand, and words out of place, are refused too.
        not_mine = next(c for c in seats[(actor.you + 1) % 3].view["hand"])
        await actor.act(not_mine, "nm")
        assert (await actor.until(lambda m: m["type"] == "refused"))["reason"] == tricks.NOT_IN_HAND
        await actor.act("vado solo", "vs")
        assert (await actor.until(lambda m: m["type"] == "refused"))["reason"] == sicilian.PLAY_NOW

    asyncio.run(body())


def test_a_resent_action_is_applied_once(live_server):
    async def body():
        seats = await open_room(live_server)
        actor, idle = to_act(seats)
        version, acted = actor.state["version"], actor.state["acted"][actor.you]
        await actor.act("passo", "same-id")
        await actor.wait_state(lambda st: st["version"] == version + 1)
        await actor.act("passo", "same-id")  # a browser resending after a lost answer
        st = await actor.until(lambda m: m["type"] in ("state", "refused"))
        assert st["type"] == "state" and st["version"] == version + 1
        assert [b["bid"] for b in st["view"]["bids"]] == ["passo"] and st["acted"][actor.you] == acted + 1
        for s in idle:
            await s.wait_state(lambda st: st["version"] == version + 1)
            assert await s.quiet(0.2) == []

    asyncio.run(body())


@pytest.mark.parametrize("frame, words", [
    ("not json", "one JSON object"),
    ("[1, 2]", "bad message"),
    ('{"type": "dance"}', "bad message"),
    ('{"type": "act", "action": 7}', "bad message"),
    ('{"type": "act"}', "bad message"),
    ('{"type": "hello", "since": -1}', "bad message"),
    ('{"type": "chat", "text": "hi", "extra": 1}', "bad message"),
    ('{"type": "act", "action": "' + "x" * 5000 + '"}', "at most 4096 bytes"),
])
def test_garbage_is_refused_with_an_error_and_the_socket_lives_on(live_server, frame, words):
    async def body():
        seats = await open_room(live_server)
        version = seats[0].state["version"]
        await seats[0].ws.send(frame)
        error = await seats[0].until(lambda m: True)
        assert error["type"] == "error" and words in error["reason"]
        await seats[0].send({"type": "chat", "text": "still here"})
        line = await seats[0].until(lambda m: m["type"] == "chat")
        assert line["version"] == version + 1

    asyncio.run(body())


def test_an_unknown_token_is_closed_with_4404(live_server):
    async def body():
        async with websockets.connect(f"{live_server.ws_url}/ws/not-a-real-token") as ws:
            error = json.loads(await ws.recv())
            assert error == {"type": "error", "reason": "unknown link: this seat does not exist"}
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 4404
            assert "unknown link" in closed.value.rcvd.reason

    asyncio.run(body())


def test_messages_before_hello_are_refused(live_server):
    async def body():
        token = new_room(live_server.url, 3)[0]
        async with websockets.connect(f"{live_server.ws_url}/ws/{token}") as ws:
            await ws.send(json.dumps({"type": "act", "action": "passo", "id": 1}))
            assert json.loads(await ws.recv()) == {"type": "error", "reason": "say hello first"}

    asyncio.run(body())


def test_acting_before_the_room_starts_is_refused(live_server):
    async def body():
        host = await Seat.open(live_server.ws_url, new_room(live_server.url, 3)[0])
        await host.act("passo", 9)
        refused = await host.until(lambda m: m["type"] == "refused")
        assert refused == {"type": "refused", "id": 9, "reason": "the deal has not started", "version": 2}

    asyncio.run(body())
