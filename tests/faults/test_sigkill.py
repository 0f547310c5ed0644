"""SIGKILL the server during the bidding, the discard, a trick and the count; a new process on
the same database carries every table on exactly (same stream, same versions, same views), and
play goes on to the end of the match. No shutdown code runs on SIGKILL: only what SQLite
committed survives, and the server acknowledges nothing before the commit."""

from __future__ import annotations

import asyncio
import random

import pytest
from websockets.exceptions import ConnectionClosed

from tests.faults.server import ServerProcess, run
from tests.server.seat import Seat, new_computer, new_room, pick_action

# Slow (a server process killed and restarted at every phase): the inner loop, -m "not slow", has
# tests/trust/test_every_game.py's SIGKILL of a Sicilian table instead.
pytestmark = pytest.mark.slow

HIDE = ("connected", "takeover")  # who is connected is not part of the table's state


def table_part(state: dict) -> dict:
    return {k: v for k, v in state["table"].items() if k not in HIDE}


async def snapshot(ws_url: str, tokens: list[str]) -> list[dict]:
    """Each seat as a fresh page sees it (hello since 0): version, view, table, events, chat."""
    out = []
    for token in tokens:
        s = await Seat.open(ws_url, token)
        out.append({"version": s.state["version"], "view": s.state["view"], "table": table_part(s.state),
                    "events": s.state["events"], "chat": s.chats})
        await s.close()
    return out


async def step(seats: list[Seat], rng: random.Random) -> None:
    """The seat to act takes one legal action (or everybody presses Next deal after a count);
    every seat sees the result."""
    version = max(s.state["version"] for s in seats)
    for s in seats:
        await s.wait_state(lambda st: st["version"] >= version)
    state = seats[0].state
    if state["table"]["status"] == "between":
        for s in seats:
            if not s.state["table"]["ready"][s.you]:
                await s.send({"type": "next"})
    else:
        (actor,) = [s for s in seats if s.my_turn()]
        # The first speaker passes and the next goes solo: a bidding of more than one word
        # (a first vado solo at four seats ends it at once), then a discard and a whole deal.
        prefer = ("passo",) if actor.view["phase"] == "speak" and not actor.view["bids"] else ("vado solo",)
        await actor.act(pick_action(actor.view, rng, prefer=prefer), f"k{version}")
    for s in seats:
        await s.wait_state(lambda st: st["version"] > version)


async def play_until(seats: list[Seat], rng: random.Random, stop, limit: int = 400) -> None:
    for _ in range(limit):
        if stop(seats[0].state):
            return
        await step(seats, rng)
    raise AssertionError("the stop point never came")


def bidding(st):
    v = st["view"]
    return v is not None and v["phase"] == "speak" and len(v["bids"]) >= 1


def discarding(st):
    return st["view"] is not None and st["view"]["phase"] == "discard"


def mid_trick(st):
    v = st["view"]
    return v is not None and v["phase"] == "play" and sum(v["tricks"]) >= 2 and len(v["trick"]) == 2


def counting(st):
    return st["table"]["status"] == "between"


async def kill_and_restart(server: ServerProcess, table_id: str, tokens: list[str], seats: list[Seat],
                           what: str) -> list[Seat]:
    """SIGKILL now, start again: everything the seats had is there, identical."""
    before = await snapshot(server.ws_url, tokens)
    stream = server.stream(table_id)
    versions = [s.version for s in seats]
    assert [b["version"] for b in before] == versions, what
    server.kill9()
    for s in seats:  # every open socket notices
        with pytest.raises(ConnectionClosed):
            while True:
                await s.recv(5)
    server.start()
    assert server.stream(table_id) == stream, f"{what}: the stored stream changed"
    after = await snapshot(server.ws_url, tokens)
    assert after == before, f"{what}: a seat's view changed over the restart"
    # The seats come back with the version they had: nothing missed, nothing changed.
    again = []
    for token, old in zip(tokens, seats):
        s = await Seat.open(server.ws_url, token, since=old.version)
        assert s.state["version"] == old.version and s.state["events"] == [], what
        assert s.state["view"] == old.view and table_part(s.state) == table_part(old.state), what
        again.append(s)
    return again


@pytest.mark.parametrize("n", [3, 4])
def test_sigkill_at_every_phase_then_the_match_plays_to_its_end(tmp_path, n):
    async def body(server: ServerProcess):
        rng = random.Random(500 + n)
        tokens = new_room(server.url, n)
        seats = [await Seat.open(server.ws_url, t) for t in tokens]
        for s in seats:
            await s.wait_state(lambda st: st["table"]["status"] == "playing")
        table_id = seats[0].state["table"]["id"]
        await seats[1].send({"type": "chat", "text": "ciao"})
        for s in seats:
            await s.until(lambda m: m["type"] == "chat")
        killed = []
        for what, stop in (("bidding", bidding), ("discard", discarding), ("mid-trick", mid_trick),
                           ("count", counting)):
            await play_until(seats, rng, stop)
            seats = await kill_and_restart(server, table_id, tokens, seats, what)
            killed.append((what, seats[0].state["table"]["deal_number"]))
        assert killed == [("bidding", 1), ("discard", 1), ("mid-trick", 1), ("count", 1)]
        assert seats[0].view["phase"] == "done" and seats[0].view["count"] is not None
        # Next deal after the count, and every deal of the match to its end.
        await play_until(seats, rng, lambda st: st["table"]["status"] == "over", limit=2000)
        final = seats[0].state["table"]
        assert final["deal_number"] == n and final["winners"]
        assert final["totals"] == seats[0].state["table"]["totals"] and seats[0].view["count"] is not None
        assert [c["text"] for c in (await snapshot(server.ws_url, tokens))[2]["chat"]] == ["ciao"]
        assert "Traceback" not in server.errors()

    with ServerProcess(str(tmp_path / "kill.sqlite3"), bot_delay=0.0) as server:
        run(body(server))


def test_sigkill_while_bots_play_and_an_action_is_in_flight(tmp_path):
    """A computer table with instant bots: kill the process right after the human sends an
    action, while bots are writing. Whatever the human saw is still there after the restart,
    the human's action is applied exactly once when the page resends it with its id, and the
    bots carry on by themselves."""
    async def body(server: ServerProcess):
        rng = random.Random(77)
        token = new_computer(server.url, 3)
        human = await Seat.open(server.ws_url, token)
        for round_ in range(4):
            await human.wait_state(lambda st: human.my_turn())
            seen_events, seen_version = list(human.events), human.version
            mine = human.state["acted"][0]  # the human's actions applied so far
            action, client_id = pick_action(human.view, rng), f"flight{round_}"
            await human.act(action, client_id)
            await asyncio.sleep(rng.choice([0.0, 0.002, 0.01]))  # the kill lands anywhere around it
            server.kill9()
            server.start()
            human = await Seat.open(server.ws_url, token)
            assert human.version >= seen_version
            assert human.events[:len(seen_events)] == seen_events  # nothing seen is lost or changed
            # The page resends its pending action with the same id: applied once, whatever happened.
            await human.act(action, client_id)
            await human.wait_state(lambda st: st["acted"][0] > mine)
            await human.quiet(0.1)
            # (A No the server answered for the seat after it, having no choice, R12, counts too.)
            answers = sum(1 for e in human.events[len(seen_events):] if e.get("type") == "announce" and e.get("seat") == 0)
            automatic = answers - (1 if action in ("no", "scommessa", "rivanto") else 0)
            assert human.state["acted"][0] == mine + 1 + automatic, (mine, automatic, human.state["acted"])
            assert human.state["table"]["deal_number"] == 1
        # The bots carry on after the last restart: the deal reaches the count.
        for _ in range(200):
            if human.view["phase"] == "done":
                break
            if human.my_turn():
                v = human.version
                await human.act(pick_action(human.view, rng), f"end{v}")
                await human.wait_state(lambda st: st["version"] > v)
            else:
                await human.recv()
        assert human.view["phase"] == "done" and human.view["count"] is not None
        assert "Traceback" not in server.errors()

    with ServerProcess(str(tmp_path / "flight.sqlite3"), bot_delay=0.0) as server:
        run(body(server))
