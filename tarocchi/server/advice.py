"""Hints and reviews at the table (issue 21; the players' side is ``tarocchi.bots.advice``).

A **hint** answers a seat's ``hint`` on its own turn: the strongest computer player's best
actions from the seat's own view (``deal.view(seat)``, never the deal), worked out in the bot
executor. It never holds the table up: the table plays on while it thinks, and a hint whose
position has moved on by the time it is ready (the seat acted, a deal began) is dropped. A
**review** answers a seat's ``review`` once a deal is counted: each of that seat's decisions
against the player's from the view the seat had then, worked out one decision at a time in
the background (one review decision at a time on the whole server, so the bots of every
table keep the other workers), each sent as it is ready; the next deal does not wait for it.
Both go to the asking socket alone, are limited per socket (``ADVICE_BURST``, then
``ADVICE_PER_SECOND``), and are refused for a seat a computer plays; a hint only where the
table allows hints (a computer table, or a room whose host allowed them).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tarocchi.bots import advice
from tarocchi.engine.game import Reason, State

from .messages import Budget
from .tables import BETWEEN, COMPUTER_PLAYS, OVER, PLAYING

if TYPE_CHECKING:
    from .hub import Connection, Hub

log = logging.getLogger("tarocchi.server")

ADVICE_BURST, ADVICE_PER_SECOND = 6, 0.5  # hints and reviews a socket may ask for: at once, then a second
HINTS_OFF = Reason("hints_off", "the host did not allow hints at this table")
HINTS_OFF_HERE = Reason("hints_off_here", "hints are not given at this table")  # (a Play now table: no host)
HINT_NOT_NOW = Reason("hint_not_now", "a hint is for your own turn")
HINT_PENDING = Reason("hint_pending", "the computer is still thinking about your last hint")
REVIEW_NOT_NOW = Reason("review_not_now", "a deal is reviewed once it is counted")
TOO_MANY_ADVICE = Reason("too_many_advice", f"too many hints and reviews: at most {ADVICE_BURST} at once, "
                                            f"then one every {1 / ADVICE_PER_SECOND:g} seconds")
NO_ADVICE = Reason("no_advice", "the computer could not work that out; try again")


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

    def message(self) -> dict:
        return {"type": "review", "deal": self.deal_number, "decisions": None if self.decisions is None
                else len(self.decisions), "items": self.items, "done": self.done}


class Advisor:
    def __init__(self, hub: Hub):
        self.hub = hub
        self.budgets: weakref.WeakKeyDictionary[Connection, Budget] = weakref.WeakKeyDictionary()
        self.hints: dict[tuple[str, int], asyncio.Task] = {}  # (table, seat) -> the hint on its way
        self.reviews: dict[tuple[str, int], Reviewing] = {}  # (table, seat) -> its latest deal's review
        self._slot: asyncio.Semaphore | None = None  # one review decision at a time, server-wide

    def _spend(self, conn: Connection) -> bool:
        budget = self.budgets.get(conn)
        if budget is None:
            budget = self.budgets[conn] = Budget(ADVICE_BURST, ADVICE_PER_SECOND)
        return budget.spend(asyncio.get_running_loop().time())

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
        reason = self.hint_refusal(conn)
        if reason is None and not self._spend(conn):
            reason = TOO_MANY_ADVICE
        if reason is not None:
            return self.hub._refuse(conn, None, reason)
        key = (conn.table.id, conn.seat)
        # The position is taken now, not when the task first runs: the seat's next message (its
        # action) may be handled before that, and the hint would be for the turn after it.
        table = conn.table
        position = (table.deal, len(table.deal.history), table.deal.view(conn.seat))
        task = self.hints[key] = asyncio.get_running_loop().create_task(self._hint(conn, *position))

        def finished(done: asyncio.Task) -> None:
            if self.hints.get(key) is done:
                del self.hints[key]
        task.add_done_callback(finished)

    async def _hint(self, conn: Connection, deal: State, moves: int, view: dict) -> None:
        """``view`` is all the seat may know, and nothing more (``deal.view(seat)``)."""
        table, seat = conn.table, conn.seat
        loop = asyncio.get_running_loop()
        try:
            actions = await loop.run_in_executor(self.hub.executor, advice.hint, table.game.name, view,
                                                 self.hub.advice_seconds)
        except Exception:
            log.exception("table %s seat %s: the hint raised", table.id, seat)
            return self.hub._refuse(conn, None, NO_ADVICE)
        if table.deal is not deal or len(deal.history) != moves or conn.seat != seat or not self._open(conn):
            return  # the seat acted meanwhile (or the deal moved on, or the socket went): for the past
        conn.send({"type": "hint", "deal": len(table.match.deals), "acted": sum(table.acted), "actions": actions})

    # --- reviews ------------------------------------------------------------------------------

    def review(self, conn: Connection) -> None:
        table, seat = conn.table, conn.seat
        reason = None
        if seat is None:
            reason = REVIEW_NOT_NOW
        elif table.bots[seat] is not None:
            reason = COMPUTER_PLAYS
        elif table.status not in (BETWEEN, OVER) or table.deal is None or not table.deal.done:
            reason = REVIEW_NOT_NOW
        if reason is None and not self._spend(conn):
            reason = TOO_MANY_ADVICE
        if reason is not None:
            return self.hub._refuse(conn, None, reason)
        key = (table.id, seat)
        number = len(table.match.deals)
        entry = self.reviews.get(key)
        if entry is None or entry.deal_number != number:
            if entry is not None and entry.task is not None:
                entry.task.cancel()
            entry = self.reviews[key] = Reviewing(number)
            entry.task = asyncio.get_running_loop().create_task(
                self._review(entry, table.game.name, table.deal.record(), seat))
        entry.sockets.add(conn)
        conn.send(entry.message())

    async def _review(self, entry: Reviewing, game: str, record: dict, seat: int) -> None:
        loop = asyncio.get_running_loop()
        if self._slot is None:
            self._slot = asyncio.Semaphore(1)
        try:
            async with self._slot:
                entry.decisions = await loop.run_in_executor(self.hub.executor, advice.decisions, record, seat)
            self._tell(entry)
            for index in entry.decisions:
                async with self._slot:
                    item = await loop.run_in_executor(self.hub.executor, advice.review, game, record, index,
                                                      self.hub.advice_seconds)
                entry.items.append(item)
                self._tell(entry)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a review of seat %s raised; it stops at %d decisions", seat, len(entry.items))
        entry.done = True
        self._tell(entry)

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

    def forget(self, table_id: str) -> None:
        for key in [k for k in self.hints if k[0] == table_id]:
            self.hints.pop(key).cancel()
        for key in [k for k in self.reviews if k[0] == table_id]:
            task = self.reviews.pop(key).task
            if task is not None:
                task.cancel()

    async def stop(self) -> None:
        tasks = list(self.hints.values()) + [r.task for r in self.reviews.values() if r.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.hints.clear()
        self.reviews.clear()
