"""Who acts for a bot seat: off the event loop, after a beat that is a floor, never stalling
another table, and never stuck on a bad answer."""

from __future__ import annotations

import asyncio
import random
import statistics
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


async def bot_intervals(seat: Seat, rng: random.Random, enough) -> list[float]:
    """Play the human seat; the seconds between consecutive bot actions (a state where a bot
    is to act, and the very next version), until ``enough(intervals)``. Both ends travel the same way,
    so the network and the load cancel out; the median is robust to a stray delay."""
    out: list[float] = []
    last = None  # (arrival, version) of a state where a bot is to act
    while not enough(out) and seat.view["phase"] != "done":
        if seat.my_turn():
            last = None
            version = seat.version
            await seat.act(pick_action(seat.view, rng), f"h{version}")
            await seat.wait_state(lambda st: st["version"] > version)
        else:
            await seat.until(lambda m: m["type"] == "state")
        now, state = time.monotonic(), seat.state
        if last is not None and state["version"] == last[1] + 1:
            out.append(now - last[0])
        bot_turn = state["view"]["turn"] not in (None, 0)
        last = (now, state["version"]) if bot_turn else None
    return out


def test_a_thinking_bot_does_not_stall_another_table_and_its_beat_is_a_floor(extra_levels):
    async def body():
        with running_server(bot_delay=0.3, trick_pause=0.0) as server:
            slow = await Seat.open(server.ws_url, new_computer(server.url, 4, "slow"))
            quick = await Seat.open(server.ws_url, new_computer(server.url, 4, "random"))
            quick_done = asyncio.Event()

            def quick_enough(gaps):
                if len(gaps) >= 4:
                    quick_done.set()
                return quick_done.is_set()

            # The slow table keeps thinking until the quick one has its figures.
            slow_gaps, quick_gaps = await asyncio.gather(
                bot_intervals(slow, random.Random(8), lambda gaps: len(gaps) >= 4 and quick_done.is_set()),
                bot_intervals(quick, random.Random(9), quick_enough))
        # The beat (0.3 s) is a floor that thinking (0.6 s) counts towards: 0.6 s, not 0.9 s.
        assert 0.5 <= statistics.median(slow_gaps) < 0.8, slow_gaps
        # Meanwhile the other table's bots keep their own beat; thinking on the event loop
        # would hold them up to the slow bots' 0.6 s.
        assert statistics.median(quick_gaps) < 0.5, quick_gaps

    asyncio.run(body())


def test_a_bot_that_answers_nonsense_is_replaced_by_a_legal_action(extra_levels):
    async def body():
        with running_server() as server:
            seat = await Seat.open(server.ws_url, new_computer(server.url, 3, "nonsense"))
            state = await play_computer_deal(seat, random.Random(2))
            assert state["view"]["phase"] == "done"
            bot_moves = [e for e in seat.events if e["type"] in ("bid", "announce", "play") and e["seat"] != 0]
            assert bot_moves and all("checkmate" not in e.values() for e in bot_moves)

    asyncio.run(body())


def test_bots_in_worker_processes_play_a_deal():
    async def body():
        with running_server(bot_processes=1) as server:
            seat = await Seat.open(server.ws_url, new_computer(server.url, 4))
            state = await play_computer_deal(seat, random.Random(4))
            assert state["view"]["phase"] == "done" and state["table"]["status"] == "between"

    asyncio.run(body())
