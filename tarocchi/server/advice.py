"""Hints and reviews at the table (issue 21; the players' side is ``tarocchi.bots.advice``).

A **hint** answers a seat's ``hint`` on its own turn: the strongest computer player's best
actions from the seat's own view (``deal.view(seat)``, never the deal). It never holds the
table up: the table plays on while it thinks, and a hint whose position has moved on by the
time it is ready (the seat acted, a deal began) is dropped, or never worked out if it had not
started. A **review** answers a seat's ``review`` once a deal is counted: each of that seat's
decisions against the player's from the view the seat had then, worked out one decision at a
time in the background, each sent as it is ready; the next deal does not wait for it. Both go
to the asking socket alone, and are refused for a seat a computer plays and where the table
does not allow hints (a computer table does; a room if its host allowed them).

Advice thinks on workers of its own (``AdviceWorkers``: ``serve --advice-workers``, one by
default), never on the tables' (``hub.executor``): a table's computers and the turn clock's
stand-in never wait behind a hint or a review (issue 37: thirty hints in flight once took
another table's bot turns from 0.02 s to 1.09 s). A hint goes before a review's next decision
(but at most two in a row while one waits).
What may wait for those workers is bounded: at most ``HINTS_AT_ONCE`` hints and
``REVIEWS_AT_ONCE`` reviews under way on the server, ``ADVICE_PER_ADDRESS`` of them from one
client address; past that a question is refused at once with the reason, never queued. What
may be asked is budgeted per seat link (every socket of the link shares it: ``ADVICE_BURST``,
then ``ADVICE_PER_SECOND``) and per client address (``ADDRESS_BURST``, then
``ADDRESS_PER_SECOND``). The address is the socket's (``Connection.address``: the peer's, or
the one a trusted proxy forwards; a relayed socket's comes with it over the bus); a socket
whose address is not known (a relay that did not send it) is held to its seat link's budget
and the server's bounds alone. On a site of several processes each process counts its own:
the workers it protects are its own.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tarocchi.bots import advice
from tarocchi.engine.game import Reason, State

from .core.features import Feature
from .core.messages import Budget, Hint, Review
from .core.tables import BETWEEN, COMPUTER_PLAYS, OVER, PLAYING

if TYPE_CHECKING:
    from .core.hub import Connection, Hub

log = logging.getLogger("tarocchi.server")

ADVICE_BURST, ADVICE_PER_SECOND = 6, 0.5  # hints and reviews a seat link may ask for: at once, then a second
ADDRESS_BURST, ADDRESS_PER_SECOND = 12, 0.5  # ... and a client address, over all its seat links
ADVICE_WORKERS = 1  # the advice's own workers (serve --advice-workers)
# Under way at once (waiting for a worker or being worked out). A hint waits for the hints
# before it and a review decision every two hints, each at most the advice's CPU budget (0.6 s
# by default); a review takes one decision at a time, interleaved with the other reviews'.
# One address never fills the server's bounds alone.
HINTS_AT_ONCE = 8  # on the server (one process)
REVIEWS_AT_ONCE = 6  # on the server
ADVICE_PER_ADDRESS = 4  # hints and reviews from one client address (a room of four behind one router)
HINTS_OFF = Reason("hints_off", "the host did not allow hints at this table")
HINTS_OFF_HERE = Reason("hints_off_here", "hints are not given at this table")  # (a Play now table: no host)
HINT_NOT_NOW = Reason("hint_not_now", "a hint is for your own turn")
HINT_PENDING = Reason("hint_pending", "the computer is still thinking about your last hint")
REVIEW_NOT_NOW = Reason("review_not_now", "a deal is reviewed once it is counted")
TOO_MANY_ADVICE = Reason("too_many_advice", f"too many hints and reviews: at most {ADVICE_BURST} at once, "
                                            f"then one every {1 / ADVICE_PER_SECOND:g} seconds")
TOO_MANY_ADVICE_HERE = Reason("too_many_advice_here", f"too many hints and reviews from this address: at most "
                                                      f"{ADDRESS_BURST} at once, then one every "
                                                      f"{1 / ADDRESS_PER_SECOND:g} seconds")
ADVICE_BUSY = Reason("advice_busy", "the computer is busy with other players' hints: try again in a moment")
ADVICE_BUSY_HERE = Reason("advice_busy_here", f"{ADVICE_PER_ADDRESS} hints and reviews from this address are "
                                              "under way already: try again when one is done")
NO_ADVICE = Reason("no_advice", "the computer could not work that out; try again")

HINT, REVIEW = "hint", "review"
# Who goes to a free advice worker: a hint (its turn is running) before a review's next
# decision, but never more than this many hints in a row while a review waits: under a steady
# stream of hints the reviews still move on (with hints always first, bench/advice_load.py's
# flood of hints ended no review at all).
HINTS_IN_A_ROW = 2
ADDRESSES_KEPT = 10_000  # address budgets kept; past it they start afresh (a fresh burst, no more)


class AdviceWorkers:
    """The advice's own workers: ``executor`` (a pool of ``workers``, apart from the tables'),
    handed out one question at a time: hints first (``HINTS_IN_A_ROW``), each kind in the order
    asked. A worker is taken back when the executor has finished with it, not when the one who
    asked stops waiting (a cancelled question still runs to its end in a thread), so the
    executor never holds more than ``workers`` questions and never queues one."""

    def __init__(self, executor: Executor, workers: int):
        self.executor = executor
        self.workers = workers
        self.busy = 0
        self.waiting: dict[str, collections.deque[asyncio.Future]] = {HINT: collections.deque(),
                                                                      REVIEW: collections.deque()}
        self.hints_in_a_row = 0

    async def run(self, kind: str, work, *args, wanted: Callable[[], bool] | None = None):
        """``work(*args)`` on an advice worker once one is free and it is ``kind``'s turn (HINT or
        REVIEW); None, without asking it, if ``wanted()`` says no by then (a hint for a turn
        already played)."""
        loop = asyncio.get_running_loop()
        if self.busy < self.workers and not any(self.waiting.values()):
            self.busy += 1
        else:
            turn = loop.create_future()
            self.waiting[kind].append(turn)
            try:
                await turn  # the worker is handed over with it (``busy`` already counts it)
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._release()  # handed over just as it was cancelled: to the next
                raise
        try:
            if wanted is not None and not wanted():
                self._release()
                return None
            done = self.executor.submit(work, *args)
            # (counted once it is worked out: a hint no longer wanted costs the reviews no turn)
            self.hints_in_a_row = self.hints_in_a_row + 1 if kind == HINT else 0
        except BaseException:
            self._release()
            raise
        done.add_done_callback(lambda _: self._release_from(loop))
        return await asyncio.wrap_future(done)

    def _release_from(self, loop: asyncio.AbstractEventLoop) -> None:
        """(The executor's thread, or the process pool's manager thread.)"""
        try:
            loop.call_soon_threadsafe(self._release)
        except RuntimeError:
            pass  # the loop has closed: the server has stopped

    def _release(self) -> None:
        """A worker is free: to the next question waiting, or idle."""
        hints, reviews = self.waiting[HINT], self.waiting[REVIEW]
        for queue in (hints, reviews):
            while queue and queue[0].done():  # (cancelled while waiting)
                queue.popleft()
        if hints or reviews:
            kind = REVIEW if reviews and (not hints or self.hints_in_a_row >= HINTS_IN_A_ROW) else HINT
            self.waiting[kind].popleft().set_result(None)
            return
        self.busy -= 1


@dataclass
class Reviewing:
    """One seat's review of one deal: the decisions found, the items worked out so far, and
    the sockets waiting for them."""
    deal_number: int
    decisions: list[int] | None = None
    items: list[dict] = field(default_factory=list)
    done: bool = False
    sockets: set = field(default_factory=set)
    task: asyncio.Task | None = None
    end: Callable[..., None] | None = None  # takes it off the reviews under way (once)

    def message(self) -> dict:
        return {"type": "review", "deal": self.deal_number, "decisions": None if self.decisions is None
                else len(self.decisions), "items": self.items, "done": self.done}


class Advisor(Feature):
    """Hints and reviews: a feature of the table (core/features.py), on workers of its own."""
    handles = (Hint, Review)

    def __init__(self, hub: Hub, executor: Executor | None = None, workers: int = ADVICE_WORKERS,
                 seconds: float = advice.ADVICE_SECONDS):
        """``executor``: where hints and reviews think, ``workers`` at once; by default a
        thread pool of its own, made here and shut down with it."""
        self.hub = hub
        self.seconds = seconds  # the player's CPU budget for one hint or review decision
        self.own_executor = None
        if executor is None:
            executor = self.own_executor = ThreadPoolExecutor(workers, thread_name_prefix="advice")
        self.workers = AdviceWorkers(executor, workers)
        self.link_budgets: dict[tuple[str, int], Budget] = {}  # (table, room seat) -> what its link may still ask
        self.hints: dict[tuple[str, int], asyncio.Task] = {}  # (table, seat) -> the hint on its way
        self.reviews: dict[tuple[str, int], Reviewing] = {}  # (table, seat) -> its latest deal's review
        self.under_way: collections.Counter[str] = collections.Counter()  # HINT or REVIEW -> how many
        self.from_address: collections.Counter[str] = collections.Counter()  # address -> how many of those
        self.address_budgets: dict[str, Budget] = {}  # address -> what it may still ask

    # --- what may be asked ----------------------------------------------------------------------

    def _admit(self, conn: Connection, kind: str | None) -> Reason | None:
        """Why a hint or a review (``kind``; None: one that joins a review under way, no new
        work) may not start now, or None: then it has spent the seat link's and the address's
        budgets. The bounds are asked first: a question refused for them costs nothing."""
        address = conn.address
        if kind is not None:
            if self.under_way[kind] >= (HINTS_AT_ONCE if kind == HINT else REVIEWS_AT_ONCE):
                return ADVICE_BUSY
            if address is not None and self.from_address[address] >= ADVICE_PER_ADDRESS:
                return ADVICE_BUSY_HERE
        now = asyncio.get_running_loop().time()
        # (one budget for every socket of the seat link, kept while the table is in memory)
        link = self.link_budgets.get((conn.table.id, conn.room_seat))
        if link is None:
            link = self.link_budgets[(conn.table.id, conn.room_seat)] = Budget(ADVICE_BURST, ADVICE_PER_SECOND)
        if not link.spend(now):
            return TOO_MANY_ADVICE
        if address is not None:
            budget = self.address_budgets.get(address)
            if budget is None:
                if len(self.address_budgets) >= ADDRESSES_KEPT:
                    self.address_budgets.clear()  # forgetting old addresses only gives them a fresh burst
                budget = self.address_budgets[address] = Budget(ADDRESS_BURST, ADDRESS_PER_SECOND)
            if not budget.spend(now):
                link.tokens += 1  # (not spent after all: the address said no)
                return TOO_MANY_ADVICE_HERE
        return None

    def _start(self, kind: str, address: str | None) -> Callable[..., None]:
        """Count a hint or a review under way; the function that ends it, whoever calls it
        first (its task's end, or a review replaced by the next deal's)."""
        self.under_way[kind] += 1
        if address is not None:
            self.from_address[address] += 1
        ended = False

        def end(*_) -> None:
            nonlocal ended
            if ended:
                return
            ended = True
            self.under_way[kind] -= 1
            if address is not None:
                self.from_address[address] -= 1
                if not self.from_address[address]:
                    del self.from_address[address]
        return end

    # --- hints --------------------------------------------------------------------------------

    def hint_refusal(self, conn: Connection) -> Reason | None:
        table, seat = conn.table, conn.seat
        if not table.hints:
            return HINTS_OFF_HERE if table.quick else HINTS_OFF
        if seat is None:
            return HINT_NOT_NOW
        if table.bots[seat] is not None:
            return COMPUTER_PLAYS
        deal = table.deal
        if table.status != PLAYING or deal.to_act != seat or table.automatic() is not None:
            return HINT_NOT_NOW
        if (table.id, seat) in self.hints:
            return HINT_PENDING
        return None

    def hint(self, conn: Connection) -> None:
        reason = self.hint_refusal(conn) or self._admit(conn, HINT)
        if reason is not None:
            return self.hub.refuse(conn, None, reason)
        key = (conn.table.id, conn.seat)
        # The position is taken now, not when the task first runs: the seat's next message (its
        # action) may be handled before that, and the hint would be for the turn after it.
        table = conn.table
        position = (table.deal, len(table.deal.history), table.deal.view(conn.seat))
        task = self.hints[key] = asyncio.get_running_loop().create_task(self._hint(conn, *position))
        task.add_done_callback(self._start(HINT, conn.address))

        def finished(done: asyncio.Task) -> None:
            if self.hints.get(key) is done:
                del self.hints[key]
        task.add_done_callback(finished)

    async def _hint(self, conn: Connection, deal: State, moves: int, view: dict) -> None:
        """``view`` is all the seat may know, and nothing more (``deal.view(seat)``)."""
        table, seat = conn.table, conn.seat

        def wanted() -> bool:  # the seat has not acted meanwhile, the deal not moved on, the socket not gone
            return table.deal is deal and len(deal.history) == moves and conn.seat == seat and self._open(conn)
        try:
            actions = await self.workers.run(HINT, advice.hint, table.game.name, view, self.seconds,
                                             wanted=wanted)
        except Exception:
            log.exception("table %s seat %s: the hint raised", table.id, seat)
            return self.hub.refuse(conn, None, NO_ADVICE)
        if actions is None or not wanted():
            return  # for the past
        conn.send({"type": "hint", "deal": len(table.match.deals), "acted": sum(table.acted), "actions": actions})

    # --- reviews ------------------------------------------------------------------------------

    def review(self, conn: Connection) -> None:
        table, seat = conn.table, conn.seat
        key = (table.id, seat)
        number = len(table.match.deals) if table.match is not None else 0
        entry = self.reviews.get(key)
        reason = None
        if not table.hints:
            reason = HINTS_OFF  # a review is the same advice as a hint
        elif seat is None:
            reason = REVIEW_NOT_NOW
        elif table.bots[seat] is not None:
            reason = COMPUTER_PLAYS
        elif table.status not in (BETWEEN, OVER) or table.deal is None or not table.deal.done:
            reason = REVIEW_NOT_NOW
        if reason is None:
            fresh = entry is None or entry.deal_number != number
            if fresh and entry is not None:
                self._stop(entry)  # the last deal's: this seat has moved on from it
            reason = self._admit(conn, REVIEW if fresh else None)
        if reason is not None:
            return self.hub.refuse(conn, None, reason)
        if fresh:
            entry = self.reviews[key] = Reviewing(number)
            entry.end = self._start(REVIEW, conn.address)
            entry.task = asyncio.get_running_loop().create_task(
                self._review(entry, table.game.name, table.deal.record(), seat))
            entry.task.add_done_callback(entry.end)
        entry.sockets.add(conn)
        conn.send(entry.message())

    async def _review(self, entry: Reviewing, game: str, record: dict, seat: int) -> None:
        # (A review goes on without its page: a reload asks for it again, and gets it so far.)
        try:
            entry.decisions = await self.workers.run(REVIEW, advice.decisions, record, seat)
            self._tell(entry)
            for index in entry.decisions:
                item = await self.workers.run(REVIEW, advice.review, game, record, index, self.seconds)
                entry.items.append(item)
                self._tell(entry)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a review of seat %s raised; it stops at %d decisions", seat, len(entry.items))
        entry.done = True
        self._tell(entry)

    def _stop(self, entry: Reviewing) -> None:
        if entry.task is not None:
            entry.task.cancel()
        if entry.end is not None:
            entry.end()

    def _tell(self, entry: Reviewing) -> None:
        message = entry.message()
        for conn in list(entry.sockets):
            if self._open(conn):
                conn.send(message)
            else:
                entry.sockets.discard(conn)

    def _open(self, conn: Connection) -> bool:
        """The socket is still attached to its table (a page that went away gets nothing)."""
        return not conn.closing and conn in self.hub.connections.get(conn.table.id, ())

    # --- a table leaves memory, the server stops ----------------------------------------------------

    def handle(self, conn: Connection, message: Hint | Review) -> None:
        if isinstance(message, Hint):
            self.hint(conn)
        else:
            self.review(conn)

    def unloaded(self, table_id: str, code: int, reason: str) -> None:
        self.forget(table_id)

    def forget(self, table_id: str) -> None:
        for key in [k for k in self.link_budgets if k[0] == table_id]:
            del self.link_budgets[key]
        for key in [k for k in self.hints if k[0] == table_id]:
            self.hints.pop(key).cancel()
        for key in [k for k in self.reviews if k[0] == table_id]:
            self._stop(self.reviews.pop(key))

    async def stop(self) -> None:
        tasks = list(self.hints.values()) + [r.task for r in self.reviews.values() if r.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.hints.clear()
        self.reviews.clear()
        if self.own_executor is not None:
            self.own_executor.shutdown(wait=False, cancel_futures=True)
