"""Who acts for a bot seat: off the event loop, after a beat that is a floor, never stalling
another table, and never stuck on a bad answer."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from tarocchi import bots
from tests.server.live import running_server
from tests.server.seat import Seat, new_computer, pick_action, play_computer_deal


class SlowBot:
    """Thinks for THINK seconds (more than the beat), then plays a random legal action."""

    THINK = 0.6

    def __init__(self, seed=None):
        self.inner = bots.make_player("random", seed)

    def __call__(self, view):
        time.sleep(self.THINK)
        return self.inner(view)


class NonsenseBot:
    def __init__(self, seed=None):
        pass

    def __call__(self, view):
        return "checkmate"


@pytest.fixture
def extra_levels(monkeypatch):
    monkeypatch.setitem(bots.LEVELS, "slow", SlowBot)
    monkeypatch.setitem(bots.LEVELS, "nonsense", NonsenseBot)


async def first_bot_answer(seat: Seat, rng: random.Random) -> float:
    """Seconds from the state where a bot is to act (the human acting until then) to the
    next version."""
    while seat.my_turn():
        version = seat.version
        await seat.act(pick_action(seat.view, rng), f"h{version}")
        await seat.wait_state(lambda st: st["version"] > version)
    assert seat.view["turn"] not in (None, 0)
    began, version = time.monotonic(), seat.version
    await seat.wait_state(lambda st: st["version"] > version)
    return time.monotonic() - began


def test_a_thinking_bot_does_not_stall_another_table_and_its_beat_is_a_floor(extra_levels):
    async def body():
        rng = random.Random(8)
        with running_server(bot_delay=0.5, trick_pause=0.05) as server:
            slow = await Seat.open(server.ws_url, new_computer(server.url, 3, "slow"))
            quick = await Seat.open(server.ws_url, new_computer(server.url, 3, "random"))
            # The beat (0.5 s) is a floor that thinking (0.6 s) counts towards: 0.6 s, not 1.1 s.
            waited = await first_bot_answer(slow, rng)
            assert 0.5 <= waited < 0.95, waited
            # While the slow bots think, the other table's bots answer on their own beat.
            waits = await asyncio.gather(first_bot_answer(slow, rng), first_bot_answer(quick, rng))
            assert waits[1] < 0.9, waits  # on the loop it would wait >= 1.1 s

    asyncio.run(body())


def test_a_bot_that_answers_nonsense_is_replaced_by_a_legal_action(extra_levels):
    async def body():
        with running_server() as server:
            seat = await Seat.open(server.ws_url, new_computer(server.url, 3, "nonsense"))
            state = await play_computer_deal(seat, random.Random(2))
            assert state["view"]["phase"] == "done"
            bot_actions = [a for a in state["view"]["actions"] if a["seat"] != 0]
            assert bot_actions and all(a["action"] != "checkmate" for a in bot_actions)

    asyncio.run(body())


def test_bots_in_worker_processes_play_a_deal():
    async def body():
        with running_server(bot_processes=1) as server:
            seat = await Seat.open(server.ws_url, new_computer(server.url, 4))
            state = await play_computer_deal(seat, random.Random(4))
            assert state["view"]["phase"] == "done" and state["table"]["status"] == "between"

    asyncio.run(body())
