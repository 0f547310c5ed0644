"""Advice has capacity and budgets of its own (issue 37, item 7; server/advice.py): hints and
reviews think on the advice's own workers, so a table's computers never wait behind them; what
may wait for those workers is bounded and refused past the bound with a reason; the budget is
a seat link's (whichever of its sockets asks) and a client address's (over all its links);
and a room whose host did not allow hints refuses reviews as it refuses hints."""

from __future__ import annotations

import asyncio
import random
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tarocchi.server import advice as server_advice
from tarocchi.server.advice import HINT, REVIEW, AdviceWorkers
from tests.server.live import running_server
from tests.server.seat import Seat, play_room_deal
from tests.server.test_advice import Quick, act_for, ask, computer, my_turn, room, strongest  # noqa: F401


class Stuck(Quick):
    """Thinks until the test lets it go (``free``): an advice worker held as long as the test
    likes, without sleeping through a guessed time. ``begun`` counts the questions taken up."""
    free = threading.Event()
    begun = 0

    def evaluate(self, view):
        Stuck.begun += 1
        Stuck.free.wait(60)
        return super().evaluate(view)


@pytest.fixture
def stuck(strongest):
    strongest(Stuck)
    Stuck.free, Stuck.begun = threading.Event(), 0
    yield Stuck
    Stuck.free.set()  # whatever happened, the server's threads end


async def bots_answer(seat: Seat, timeout: float) -> float:
    """The seat acts on its turn; the seconds until its turn comes back (or the count), that is
    the table's computers' answers in between (a TimeoutError past ``timeout``). At the count
    it presses Next deal."""
    state = await my_turn(seat)
    version = state["version"]
    began = time.monotonic()
    await seat.act(act_for(state["view"]), f"t{version}")
    state = await seat.wait_state(lambda s: s["version"] > version and s["view"] is not None
                                  and (s["view"]["phase"] == "done" or s["view"]["turn"] == s["table"]["you"]),
                                  timeout=timeout)
    took = time.monotonic() - began
    if state["view"]["phase"] == "done":
        await seat.send({"type": "next"})
    return took


async def soon(check, seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.02)


def test_hints_that_fill_the_advice_workers_never_hold_up_another_tables_computers(stuck, store_db):
    """Four hints in flight, each thinking until the test ends (before issue 37 they held all
    four of the tables' bot threads, and every table's computers waited for them)."""
    with running_server(store_db) as server:  # (on both stores)
        async def body():
            probe = await Seat.open(server.ws_url, computer(server.url))
            baseline = statistics.median([await bots_answer(probe, 20) for _ in range(3)])
            askers = [await Seat.open(server.ws_url, computer(server.url)) for _ in range(4)]
            for seat in askers:
                await my_turn(seat)
                await seat.send({"type": "hint"})
            # One advice worker by default: one hint taken up, the others wait for it.
            await soon(lambda: stuck.begun >= 1)
            await asyncio.sleep(0.3)
            assert stuck.begun == 1, stuck.begun
            limit = max(10 * baseline, 3.0)  # generous: a loaded machine, measured against itself
            loaded = []
            for _ in range(3):
                try:
                    loaded.append(await bots_answer(probe, limit + 5))
                except TimeoutError:
                    pytest.fail(f"the computers did not answer in {limit + 5:.1f} s while hints were thought "
                                f"about (baseline {baseline:.2f} s)")
            assert max(loaded) < limit, (baseline, loaded)
            assert stuck.begun == 1, "the hints were still being thought about"
            # Let the advice go: the hints that waited are answered in turn.
            stuck.free.set()
            for seat in askers:
                answer = await seat.until(lambda m: m["type"] in ("hint", "refused"), timeout=20)
                assert answer["type"] == "hint", answer
            for seat in [probe, *askers]:
                await seat.close()
        asyncio.run(body())


def test_advice_past_its_bounds_is_refused_at_once_with_the_reason(stuck, monkeypatch):
    """Past the hints one address may have under way, and past those the whole server may,
    a hint is refused at once with its reason: nothing waits unboundedly."""
    monkeypatch.setattr(server_advice, "ADVICE_PER_ADDRESS", 2)
    with running_server() as server:
        async def body():
            seats = [await Seat.open(server.ws_url, computer(server.url)) for _ in range(3)]
            for seat in seats:
                await my_turn(seat)
            for seat in seats[:2]:
                await seat.send({"type": "hint"})
                # (taken: asked again on the same socket, it is pending; sockets are read in any order)
                assert (await ask(seat)).get("reason_id") == "hint_pending"
            answer = await ask(seats[2])
            assert answer["type"] == "refused" and answer["reason_id"] == "advice_busy_here", answer
            # The server's own bound, whoever asks.
            monkeypatch.setattr(server_advice, "ADVICE_PER_ADDRESS", 100)
            monkeypatch.setattr(server_advice, "HINTS_AT_ONCE", 2)
            answer = await ask(seats[2])
            assert answer["type"] == "refused" and answer["reason_id"] == "advice_busy", answer
            assert answer["reason"] == "the computer is busy with other players' hints: try again in a moment"
            stuck.free.set()
            for seat in seats[:2]:
                assert (await seat.until(lambda m: m["type"] in ("hint", "refused"), timeout=20))["type"] == "hint"
            # Once they are answered, there is room again: a refusal for the bounds cost no budget.
            assert (await ask(seats[2]))["type"] == "hint"
            for seat in seats:
                await seat.close()
        asyncio.run(body())


def test_the_sockets_of_one_seat_link_share_one_hint_budget(strongest, monkeypatch, store_db):
    strongest(Quick)
    monkeypatch.setattr(server_advice, "ADVICE_PER_SECOND", 1e-6)  # no refill while the test runs
    with running_server(store_db) as server:  # (on both stores)
        async def body():
            token = computer(server.url)
            sockets = [await Seat.open(server.ws_url, token) for _ in range(3)]
            for s in sockets:
                await my_turn(s)
            kinds = []
            for i in range(server_advice.ADVICE_BURST + 3):
                answer = await ask(sockets[i % 3])
                kinds.append(answer.get("reason_id", answer["type"]))
            assert kinds == ["hint"] * server_advice.ADVICE_BURST + ["too_many_advice"] * 3, kinds
            # A new socket of the seat (a reload) carries the link's budget on: no fresh burst.
            again = await Seat.open(server.ws_url, token)
            assert (await ask(again)).get("reason_id") == "too_many_advice"
            for s in [*sockets, again]:
                await s.close()
        asyncio.run(body())


def test_one_address_has_one_advice_budget_over_all_its_seat_links(strongest, store_db):
    """The hints of one client address over several tables: refused for the address once its
    burst is spent, though each seat link has budget left (the rate's refill while the test
    runs is counted)."""
    strongest(Quick)
    burst, rate = server_advice.ADDRESS_BURST, server_advice.ADDRESS_PER_SECOND
    links = burst // server_advice.ADVICE_BURST + 3  # more than the address's burst, over links with room
    with running_server(store_db) as server:  # (on both stores)
        async def body():
            seats = [await Seat.open(server.ws_url, computer(server.url)) for _ in range(links)]
            for seat in seats:
                await my_turn(seat)
            began = time.monotonic()
            answered, refusal = 0, None
            for seat in seats:
                for _ in range(server_advice.ADVICE_BURST - 1):  # (each link stays within its own budget)
                    answer = await ask(seat)
                    if answer["type"] != "hint":
                        refusal = answer
                        break
                    answered += 1
                if refusal is not None:
                    break
            refill = (time.monotonic() - began) * rate + 1
            for seat in seats:
                await seat.close()
            return answered, refusal, refill
        answered, refusal, refill = asyncio.run(body())
    assert refusal is not None and refusal.get("reason_id") == "too_many_advice_here", (answered, refusal)
    assert burst <= answered <= burst + refill, (answered, burst, refill)


@pytest.mark.parametrize("hints", [False, True])
def test_a_room_without_hints_refuses_reviews_too(strongest, hints, store_db):
    """After the count, where a review is otherwise answered (the room with hints)."""
    strongest(Quick)
    with running_server(store_db) as server:  # (on both stores)
        async def body():
            seats = [await Seat.open(server.ws_url, t) for t in room(server.url, 3, hints=hints)]
            for s in seats:
                await s.wait_state(lambda st: st["view"] is not None)
            await play_room_deal(seats, random.Random(3))
            for s in seats:
                answer = await ask(s, "review")
                if hints:
                    assert answer["type"] == "review", answer
                else:
                    assert answer["type"] == "refused" and answer["reason_id"] == "hints_off", answer
            for s in seats:
                await s.close()
        asyncio.run(body())


def test_a_relayed_socket_is_budgeted_by_its_clients_address(strongest, monkeypatch, tmp_path):
    """A site of two processes: the tables driven by A, their seats' sockets relayed by B. The
    page's address travels with its socket (site.py's ``open``), so A budgets the hints of
    every relayed page of one address together."""
    from tests.redis_server import RedisServer

    strongest(Quick)
    monkeypatch.setattr(server_advice, "ADDRESS_BURST", 2)
    monkeypatch.setattr(server_advice, "ADDRESS_PER_SECOND", 1e-6)
    db = str(tmp_path / "site.sqlite3")
    with RedisServer() as redis, running_server(db, bus=redis.url, process="A") as a, \
            running_server(db, bus=redis.url, process="B") as b:
        async def body():
            seats = [await Seat.open(b.ws_url, computer(a.url)) for _ in range(3)]  # made on A: A drives them
            kinds = []
            for seat in seats:
                await my_turn(seat)
                answer = await ask(seat)
                kinds.append(answer.get("reason_id", answer["type"]))
            for seat in seats:
                await seat.close()
            return kinds
        assert asyncio.run(body()) == ["hint", "hint", "too_many_advice_here"]


def test_the_advice_workers_take_hints_first_yet_reviews_move_on_and_nothing_queues_in_the_pool():
    """One worker, held by a review's decision while hints and reviews come: then two hints,
    a review, a hint, a review (at most HINTS_IN_A_ROW hints while a review waits); a hint no
    longer wanted, or given up while it waited, is never worked out; the pool never holds more
    than its one question at a time."""
    assert server_advice.HINTS_IN_A_ROW == 2
    done: list[str] = []
    running, most = [0], [0]
    gate = threading.Event()
    lock = threading.Lock()

    def work(name: str) -> str:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        gate.wait(10)
        with lock:
            running[0] -= 1
            done.append(name)
        return name

    async def body():
        pool = ThreadPoolExecutor(4)  # more threads than the workers given: the bound is AdviceWorkers'
        workers = AdviceWorkers(pool, 1)
        first = asyncio.create_task(workers.run(REVIEW, work, "r0"))
        await asyncio.sleep(0.05)
        asks = [(REVIEW, "r1", None), (HINT, "h1", None), (HINT, "gone", lambda: False), (HINT, "h2", None),
                (HINT, "given up", None), (HINT, "h3", None), (REVIEW, "r2", None)]
        tasks = {name: asyncio.create_task(workers.run(kind, work, name, wanted=wanted)) for kind, name, wanted in asks}
        await asyncio.sleep(0.05)
        tasks["given up"].cancel()
        gate.set()
        results = await asyncio.gather(first, *tasks.values(), return_exceptions=True)
        pool.shutdown()
        return results

    results = asyncio.run(body())
    assert done == ["r0", "h1", "h2", "r1", "h3", "r2"], done
    assert most[0] == 1
    assert results[3] is None and isinstance(results[5], asyncio.CancelledError)  # "gone", "given up"
