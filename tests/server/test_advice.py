"""Hints and reviews at the table (issue 21, server/advice.py): what a seat may ask, when, how
often, and that neither ever holds up a table: a hint thinks while the table plays on and is
dropped once the seat has acted; a review works in the background while the next deal is
played."""

from __future__ import annotations

import asyncio
import random
import time

import httpx
import pytest

from tarocchi import bots
from tarocchi.bots import advice
from tarocchi.server.advice import ADVICE_BURST
from tarocchi.server.core.hub import Chance
from tests.server.fake import new_hub, open_room, until
from tests.server.live import running_server
from tests.server.seat import Seat, deal_done


class Quick:
    """A strongest level that answers at once: each legal action, in the order of the choices,
    scored by its position (a real search is for the leak tests and the browser)."""

    def __init__(self, seed=None):
        self.rng = random.Random(seed)

    def evaluate(self, view):
        ok = [c["action"] for c in view["choices"] if c["reason"] is None]
        if view["phase"] == "discard":  # a set the rules allow: the random player's
            return [(bots.make_player("random", 1, view["game"])(view), float("nan"))]
        return [(a, float(len(ok) - i)) for i, a in enumerate(ok)]

    def __call__(self, view):
        return self.evaluate(view)[0][0]


class Slow(Quick):
    """Thinks THINK seconds; counts the evaluations begun and ended (the test reads them: the
    server runs in this process, the advice in its thread pool)."""
    THINK = 1.0
    begun = ended = 0

    def evaluate(self, view):
        Slow.begun += 1
        time.sleep(self.THINK)
        Slow.ended += 1
        return super().evaluate(view)


@pytest.fixture
def strongest(monkeypatch):
    """The advice's player made ``cls`` (the server runs in this process, the advice in its
    thread pool); the real strongest level is the leak tests' and the browser's."""
    asked: list[float] = []  # the CPU budget of each question (``advice_seconds``)

    def use(cls):
        def player(game, seconds):
            asked.append(seconds)
            return cls(0)
        monkeypatch.setattr(advice, "_player", player)
        return asked
    return use


def computer(base: str, seats: int = 3, game: str = "sicilian") -> str:
    r = httpx.post(f"{base}/api/computer", json={"seats": seats, "level": "random", "game": game})
    assert r.status_code == 200, r.text
    return r.json()["link"].removeprefix("/t/")


def room(base: str, seats: int = 3, hints: bool | None = None) -> list[str]:
    body = {"seats": seats} if hints is None else {"seats": seats, "hints": hints}
    r = httpx.post(f"{base}/api/rooms", json=body)
    assert r.status_code == 200, r.text
    return [link.removeprefix("/t/") for link in r.json()["links"]]


async def my_turn(seat: Seat) -> dict:
    return await seat.wait_state(lambda s: s["view"] is not None and s["view"]["phase"] != "done"
                                 and s["view"]["turn"] == s["table"]["you"] and not s["view"].get("automatic"))


def allowed(view: dict) -> list[str]:
    return [c["action"] for c in view["choices"] if c["reason"] is None]


def act_for(view: dict) -> str:
    return bots.make_player("random", 3, view["game"])(view)


async def ask(seat: Seat, kind: str = "hint") -> dict:
    await seat.send({"type": kind})
    return await seat.until(lambda m: m["type"] in (kind, "refused", "error"))


async def play_to_count(seat: Seat) -> int:
    """The seat's deal played to its count; how many of its decisions had a choice."""
    choices = 0
    while not deal_done(seat.state):
        if seat.my_turn() and not seat.view.get("automatic"):
            version = seat.state["version"]
            choices += len(allowed(seat.view)) > 1
            await seat.act(act_for(seat.view), f"p{version}")
            await seat.wait_state(lambda s: s["version"] > version)
        else:
            await seat.recv()
    return choices


def test_a_hint_at_a_computer_table_ranks_the_seats_legal_actions(strongest):
    strongest(Quick)
    with running_server() as server:
        async def body():
            seat = await Seat.open(server.ws_url, computer(server.url))
            assert seat.state["table"]["hints"] is True
            state = await my_turn(seat)
            answer = await ask(seat)
            assert answer["type"] == "hint", answer
            legal = allowed(state["view"])
            expected = legal[:3] if state["view"]["phase"] != "discard" else None
            if expected is not None:
                assert [a["action"] for a in answer["actions"]] == expected
                assert [a["score"] for a in answer["actions"]] == [float(len(legal) - i) for i in range(len(expected))]
            assert answer["deal"] == state["table"]["deal_number"] and answer["acted"] == sum(state["acted"])
            await seat.close()
        asyncio.run(body())


def test_a_hint_is_only_for_the_seats_own_turn_and_forged_ones_are_refused(strongest):
    strongest(Quick)
    with running_server() as server:
        async def body():
            tokens = room(server.url, 3, hints=True)
            seats = [await Seat.open(server.ws_url, t) for t in tokens]
            for s in seats:
                await s.wait_state(lambda st: st["view"] is not None)
                assert s.state["table"]["hints"] is True  # the host's choice, shown to every seat
            actor = next(s for s in seats if s.my_turn())
            idle = [s for s in seats if s is not actor]
            answer = await ask(idle[0])
            assert answer["type"] == "refused" and answer["reason_id"] == "hint_not_now"
            # No message names another seat, or brings a view: a forged field is a bad message.
            for forged in ({"type": "hint", "seat": actor.you}, {"type": "hint", "view": actor.view},
                           {"type": "review", "seat": actor.you}, {"type": "hint", "for": 0}):
                await idle[0].send(forged)
                answer = await idle[0].until(lambda m: m["type"] in ("hint", "refused", "error"))
                assert answer["type"] == "error" and answer["reason"].startswith("bad message"), (forged, answer)
            assert (await ask(actor))["type"] == "hint"
            for s in idle:  # a hint goes to the socket that asked, no other
                assert not [m for m in await s.quiet(0.3) if m["type"] == "hint"]
            answer = await ask(actor, "review")
            assert answer["type"] == "refused" and answer["reason_id"] == "review_not_now"
            for s in seats:
                await s.close()
        asyncio.run(body())


def test_a_room_without_hints_refuses_them_and_says_so_to_every_seat(strongest):
    strongest(Quick)
    with running_server() as server:
        async def body():
            seats = [await Seat.open(server.ws_url, t) for t in room(server.url, 3)]
            for s in seats:
                await s.wait_state(lambda st: st["view"] is not None)
                assert s.state["table"]["hints"] is False
            actor = next(s for s in seats if s.my_turn())
            answer = await ask(actor)
            assert answer["type"] == "refused" and answer["reason_id"] == "hints_off"
            for s in seats:
                await s.close()
        asyncio.run(body())


def test_a_hint_never_holds_up_the_table_and_is_dropped_once_the_seat_has_acted(strongest):
    strongest(Slow)
    with running_server() as server:
        async def body():
            seat = await Seat.open(server.ws_url, computer(server.url))
            other = await Seat.open(server.ws_url, computer(server.url))
            state = await my_turn(seat)
            version = state["version"]
            Slow.begun = Slow.ended = 0
            await seat.send({"type": "hint"})
            # (Acted on before it is taken up, a hint is never worked out: this one is under way.)
            for _ in range(1000):
                if Slow.begun:
                    break
                await asyncio.sleep(0.01)
            await seat.act(act_for(state["view"]), "now")
            await seat.wait_state(lambda s: s["version"] > version)
            # Another table plays on too: its seat acts and its bots answer.
            other_state = await my_turn(other)
            await other.act(act_for(other_state["view"]), "other")
            await other.wait_state(lambda s: s["version"] > other_state["version"])
            assert Slow.begun == 1 and Slow.ended == 0, "both tables played while the hint was thought about"
            got = await seat.quiet(Slow.THINK * 2)
            assert not [m for m in got if m["type"] == "hint"], "a hint for a turn already played"
            await seat.close()
            await other.close()
        asyncio.run(body())


def test_a_hint_asked_just_before_the_seats_action_is_for_that_turn_and_so_is_dropped(strongest, tmp_path):
    """The hint and the action arrive together, the action read before the hint's task first
    runs: the hint is still for the turn the seat asked on (played by then), never for the
    position after it, where the seat has no legal action."""
    strongest(Quick)

    async def body():
        hub, store = new_hub(str(tmp_path / "t.db"))
        _, _, sockets, tasks = await open_room(hub, store, 3, random.Random(1), playing=False,
                                               settings={"hints": True})
        await until(lambda: all(s.frames and s.state["view"] is not None for s in sockets))
        actor = next(s for s in sockets if s.state["view"]["turn"] == s.state["table"]["you"])
        version = actor.state["version"]
        actor.say({"type": "hint"})
        actor.say({"type": "act", "action": act_for(actor.state["view"]), "id": "now"})
        await until(lambda: actor.state["version"] > version)
        await asyncio.sleep(0.3)  # the hint's thread has long answered
        assert not [f for f in actor.frames if f["type"] == "hint"], "a hint for the turn after the one asked"
        # Asked on a turn that is still to play, it comes.
        nxt = next(s for s in sockets if s.state["view"]["turn"] == s.state["table"]["you"])
        nxt.say({"type": "hint"})
        await until(lambda: any(f["type"] == "hint" for f in nxt.frames))
        hint = next(f for f in nxt.frames if f["type"] == "hint")
        assert hint["actions"] and hint["acted"] == sum(nxt.state["acted"])
        for s in sockets:
            s.leave()
        await asyncio.gather(*tasks)

    asyncio.run(body())


def test_hints_are_limited_per_seat_link(strongest):
    strongest(Quick)
    with running_server() as server:
        async def body():
            seat = await Seat.open(server.ws_url, computer(server.url))
            await my_turn(seat)
            kinds = []
            for _ in range(ADVICE_BURST + 1):
                answer = await ask(seat)
                kinds.append(answer.get("reason_id", answer["type"]))
            assert kinds == ["hint"] * ADVICE_BURST + ["too_many_advice"]
            # Another seat's link has its own budget (the sockets of one link share one:
            # test_advice_capacity.py).
            other = await Seat.open(server.ws_url, computer(server.url))
            await my_turn(other)
            assert (await ask(other))["type"] == "hint"
            await seat.close()
            await other.close()
        asyncio.run(body())


def test_a_review_after_the_count_covers_every_decision_of_the_seat(strongest):
    strongest(Quick)
    with running_server() as server:
        async def body():
            seat = await Seat.open(server.ws_url, computer(server.url))
            await play_to_count(seat)
            await seat.send({"type": "review"})
            last = await seat.until(lambda m: m["type"] == "review" and m["done"])
            await seat.close()
            return last, seat.state
        last, state = asyncio.run(body())
        record = _record(server.db, state)
    items = last["items"]
    assert last["deal"] == state["table"]["deal_number"] and last["decisions"] == len(items) > 0
    mine = [i for i, a in enumerate(record["actions"]) if a["seat"] == state["table"]["you"]]
    assert [item["index"] for item in items] == [i for i in advice.decisions(record, state["table"]["you"])]
    assert set(item["index"] for item in items) <= set(mine)
    for item in items:
        assert item["played"] == record["actions"][item["index"]]["action"]
        if item["same"]:
            assert item["cost"] == 0.0
        elif item["cost"] is not None:  # Quick scores by position: the first is the best
            assert item["cost"] == item["best_score"] - item["played_score"] > 0


def test_hints_and_reviews_think_for_the_servers_advice_budget(strongest):
    asked = strongest(Quick)
    with running_server(advice_seconds=0.25) as server:
        async def body():
            seat = await Seat.open(server.ws_url, computer(server.url))
            await my_turn(seat)
            assert (await ask(seat))["type"] == "hint"
            await play_to_count(seat)
            await seat.send({"type": "review"})
            last = await seat.until(lambda m: m["type"] == "review" and m["done"])
            await seat.close()
            return last
        last = asyncio.run(body())
    assert len(asked) == 1 + len(last["items"]) > 1 and set(asked) == {0.25}, asked


def _record(db: str, state: dict) -> dict:
    """The last deal's record, as the server's table has it (replayed from the store)."""
    from tests.trust.harness import replay_stream, stream

    truth = replay_stream(state["table"]["id"], stream(db, state["table"]["id"]))
    return truth.deals[-1].record()


class SlowReview(Slow):
    THINK = 0.25


@pytest.mark.slow
def test_a_review_works_in_the_background_and_the_next_deal_does_not_wait(strongest):
    strongest(SlowReview)
    # A Renaissance deal: always played to its last trick (A8: no bidding to throw it
    # in), so the seat decides many times and the review outlasts the next deal's start. A
    # Sicilian deal may be thrown in after a single word (R6) and its review end at once.
    with running_server(chance=Chance(random.Random(1))) as server:
        async def body():
            seat = await Seat.open(server.ws_url, computer(server.url, game="renaissance"))
            assert await play_to_count(seat) > 1
            number = seat.state["table"]["deal_number"]
            await seat.send({"type": "review"})
            first = await seat.until(lambda m: m["type"] == "review")
            assert not first["done"]
            await seat.send({"type": "next"})
            # The next deal starts at once; the review goes on and reaches its end meanwhile.
            new_deal = await seat.until(lambda m: m["type"] == "review" and m["done"]
                                        or m["type"] == "state" and m["table"]["deal_number"] == number + 1)
            assert new_deal["type"] == "state", "the next deal waited for the review"
            done = await seat.until(lambda m: m["type"] == "review" and m["done"], timeout=60)
            assert done["deal"] == number and len(done["items"]) == done["decisions"] > 1
            await seat.close()
        asyncio.run(body())
