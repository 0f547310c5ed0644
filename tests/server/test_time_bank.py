"""The time bank of a live table's clock (issue 41, Table.bank): spare seconds each seat has for
the match, spent only by a turn that goes past the clock's own time; the deadline is the turn's
own time and then the bank; kept in the stream (a table rebuilt has the same)."""

from __future__ import annotations

import asyncio

from tarocchi.server.app import assemble
from tarocchi.server.core.messages import Act
from tarocchi.server.core.store import open_store
from tarocchi.server.core.tables import PLAYING, replay
from tests.server.test_away_timer import Clock
from tests.server.test_public import Page, settle, to_act


def test_a_seat_spends_its_bank_only_past_the_turns_own_time_and_the_clock_plays_when_both_are_gone(tmp_path):
    async def body():
        clock = Clock(asyncio.get_running_loop())
        store = open_store(str(tmp_path / "t.sqlite3"))
        hub = assemble(store, None, bot_delay=0.0, trick_pause=0.0, away_timeout=600, time_bank=8.0)
        hub.lobby.now = lambda: clock.now
        hub.start()
        table_id, tokens = hub.lobby.new_room(3, "sicilian", public=False, clock=10)
        pages = [Page(hub, t, clock) for t in tokens]
        for page in pages:
            page.open()
        await settle()
        table = pages[0].conn.table
        assert table.status == PLAYING and table.bank_left == [8.0, 8.0, 8.0]
        seat = to_act(table)
        assert table.deadline() == table.turn_since + 10 + 8
        summary = table.summary(0, [True] * 3)["clock"]
        assert summary["bank"] == [8.0] * 3 and summary["base"] == table.turn_since + 10
        # The seat takes 13 s: 3 of them from its bank.
        await settle(clock, clock.now + 13)
        assert table.acted[seat] == 0  # (past its own time, within the bank: nothing played)
        page = pages[[p.conn.seat for p in pages].index(seat)]
        choice = next(c["action"] for c in table.deal.view(seat)["choices"] if c["reason"] is None)
        hub.handle(page.conn, Act(action=choice, id="late-but-banked"))
        await settle()
        assert table.bank_left[seat] == 5.0 and sum(table.bank_left) == 5.0 + 16.0
        # A turn within its own time spends nothing.
        other = to_act(table)
        await settle(clock, clock.now + 4)
        page = pages[[p.conn.seat for p in pages].index(other)]
        choice = next(c["action"] for c in table.deal.view(other)["choices"] if c["reason"] is None)
        hub.handle(page.conn, Act(action=choice, id="in-time"))
        await settle()
        assert table.bank_left[other] == 8.0
        # Out of both: the clock plays at the turn's own time plus what is left of the bank.
        third = to_act(table)
        left = table.bank_left[third]
        version = table.version
        await settle(clock, clock.now + 10 + left - 0.5)
        assert table.version == version
        await settle(clock, clock.now + 0.6)
        assert table.version > version and table.bank_left[third] == 0.0
        played = [d for _, k, d in store.events(table_id) if k == "act"][-1]
        assert played["clock"] is True
        # The stream says it all: the table rebuilt has every bank as it is.
        assert replay(table_id, store.events(table_id)).bank_left == table.bank_left
        store.close()

    asyncio.run(body())
