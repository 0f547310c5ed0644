"""Whole deals through the real server over websockets: the computer table and rooms."""

from __future__ import annotations

import asyncio
import json
import random

import pytest

from tests.server.seat import Seat, new_computer, new_room, play_computer_deal, play_room_deal


def check_counted(state: dict, seats: int) -> None:
    count = state["view"]["count"]
    assert state["view"]["phase"] == "done"
    assert count is not None and len(count["payments"]) == seats
    assert sum(count["payments"]) == 0  # R15: every deal's payments sum to zero
    assert state["table"]["totals"] == count["payments"]  # R16: the first deal's totals
    assert state["table"]["status"] == "between"


@pytest.mark.parametrize("seats", [3, 4])
def test_computer_table_plays_a_whole_deal_to_the_count(live_server, seats):
    async def body():
        seat = await Seat.open(live_server.ws_url, new_computer(live_server.url, seats))
        table = seat.state["table"]
        assert table["kind"] == "computer" and table["you"] == 0
        assert table["bots"] == [False] + [True] * (seats - 1)
        assert table["status"] == "playing" and table["deal_number"] == 1
        state = await play_computer_deal(seat, random.Random(seats))
        check_counted(state, seats)
        assert not state["view"]["count"]["abandoned"]
        # Every frame was this seat's own projection.
        for f in seat.frames:
            if f["type"] == "state":
                assert f["view"]["seat"] == 0 and f["table"]["you"] == 0
        types = {e["type"] for e in seat.events}
        assert {"dealt", "bid", "contract", "play", "trick", "count"} <= types
        await seat.close()

    asyncio.run(body())


@pytest.mark.parametrize("seats", [3, 4])
def test_room_seats_each_join_by_link_and_play_a_deal(live_server, seats):
    async def body():
        tokens = new_room(live_server.url, seats)
        assert len(set(tokens)) == seats and all(len(t) >= 32 for t in tokens)  # >= 192 bits
        first = await Seat.open(live_server.ws_url, tokens[0])
        assert first.state["table"]["status"] == "waiting"
        assert first.state["table"]["joined"] == [True] + [False] * (seats - 1)
        assert first.state["view"] is None
        others = [await Seat.open(live_server.ws_url, t) for t in tokens[1:]]
        everyone = [first, *others]
        for i, s in enumerate(everyone):
            st = await s.wait_state(lambda st: st["table"]["status"] == "playing")
            assert st["table"]["you"] == i
            assert st["table"]["names"] == ["host", "guest 1", "guest 2", "guest 3"][:seats]  # R17
            assert st["table"]["joined"] == [True] * seats
        await play_room_deal(everyone, random.Random(seats))
        for s in everyone:
            check_counted(s.state, seats)
        # Every seat saw the same public events, and its own hand only.
        assert all(s.events == first.events for s in everyone)
        for s in everyone:
            await s.close()

    asyncio.run(body())


def test_a_four_seat_room_started_with_three_plays_as_three_seats(live_server):
    """R17: the host starts a waiting four-seat room with three; it plays as a three-seat game."""
    async def body():
        tokens = new_room(live_server.url, 4)
        host = await Seat.open(live_server.ws_url, tokens[0])
        await host.send({"type": "start"})
        refused = await host.until(lambda m: m["type"] == "refused")
        assert "three seats joined" in refused["reason"]
        g1 = await Seat.open(live_server.ws_url, tokens[1])
        g3 = await Seat.open(live_server.ws_url, tokens[3])
        await g1.send({"type": "start"})
        refused = await g1.until(lambda m: m["type"] == "refused")
        assert refused["reason"] == "only the host may start the room"
        await host.send({"type": "start"})
        seats = [host, g1, g3]
        for i, s in enumerate(seats):
            st = await s.wait_state(lambda st: st["table"]["status"] == "playing")
            assert st["table"]["seats"] == 3 and st["table"]["you"] == i
            assert st["table"]["names"] == ["host", "guest 1", "guest 3"]
            assert st["view"]["seats"] == 3 and len(st["view"]["hand"]) == 5
        # The seat left out cannot come in any more.
        import websockets
        async with websockets.connect(f"{live_server.ws_url}/ws/{tokens[2]}") as ws:
            error = json.loads(await ws.recv())
            assert error["type"] == "error" and "without this one" in error["reason"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await ws.recv()
            assert closed.value.rcvd.code == 4404
        await play_room_deal(seats, random.Random(17))
        for s in seats:
            check_counted(s.state, 3)

    asyncio.run(body())


def test_next_deal_waits_for_every_human_and_the_match_ends_on_the_result(live_server):
    """Between deals each human presses Next deal; after one deal per seat, the result (R16)."""
    async def body():
        tokens = new_room(live_server.url, 3)
        seats = [await Seat.open(live_server.ws_url, t) for t in tokens]
        rng = random.Random(3)
        for number in (1, 2, 3):
            for s in seats:
                await s.wait_state(lambda st: st["table"]["deal_number"] == number
                                   and st["table"]["status"] == "playing")
            await play_room_deal(seats, rng)
            if number < 3:
                await seats[0].send({"type": "next"})
                st = await seats[0].wait_state(lambda st: st["table"]["ready"][0])
                assert st["table"]["ready"] == [True, False, False]
                assert st["table"]["status"] == "between"
                await seats[1].send({"type": "next"})
                await seats[2].send({"type": "next"})
        final = await seats[0].wait_state(lambda st: st["table"]["status"] == "over")
        totals = final["table"]["totals"]
        assert final["table"]["winners"] == [s for s in range(3) if totals[s] == max(totals)]
        await seats[1].send({"type": "next"})
        refused = await seats[1].until(lambda m: m["type"] == "refused")
        assert refused["reason"] == "the match is over"

    asyncio.run(body())
