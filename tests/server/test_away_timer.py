"""Every away seat's "Let the computer play" appears at its time, whatever the order of
reloads, closes and returns (issue 10). The hub runs on a loop whose clock and timers the test
drives: a timer fires a little before its time, as libuv's millisecond timers do under uvloop
(the loop the server runs on), which is what made the hub take the timer firing at that
moment for one still to come, and never tell the seats."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from tarocchi.server.app import assemble
from tarocchi.server.core.hub import Connection, Hub
from tarocchi.server.core.messages import Hello
from tarocchi.server.core.store import SqliteStore

AWAY = 5.0


class FakeTimer:
    def __init__(self, when: float, callback, args):
        self._when, self.callback, self.args, self.cancelled_ = when, callback, args, False

    def when(self) -> float:
        return self._when

    def cancel(self) -> None:
        self.cancelled_ = True

    def cancelled(self) -> bool:
        return self.cancelled_


class Clock:
    """The loop's time and call_later, in the test's hands."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.now, self.timers = 1000.0, []
        loop.time = lambda: self.now
        loop.call_later = self.call_later

    def call_later(self, delay, callback, *args):
        timer = FakeTimer(self.now + delay, callback, args)
        self.timers.append(timer)
        return timer

    def advance(self, to: float, early: float = 0.0005) -> None:
        """Run the timers due by ``to`` in order, each ``early`` seconds before its time."""
        while True:
            due = sorted((t for t in self.timers if not t.cancelled_ and t.when() <= to), key=FakeTimer.when)
            if not due:
                break
            timer = due[0]
            self.timers.remove(timer)
            self.now = max(self.now, timer.when() - early)
            timer.callback(*timer.args)
        self.now = max(self.now, to)


class Page:
    """A seat's socket as the hub sees it: what it was told, and when."""

    def __init__(self, hub: Hub, token: str, clock: Clock):
        self.hub, self.clock = hub, clock
        self.conn = Connection(None, *hub.find(token))
        self.told: list[tuple[float, list[bool]]] = []
        self.conn.push_state = self._told  # the state it would be sent: the takeover flags then

    def _told(self) -> None:
        presence = self.hub.presence.get(self.conn.table.id) or self.hub._presence(self.conn.table)
        self.told.append((self.clock.now, list(presence[1])))

    def open(self) -> None:
        self.hub.attach(self.conn)
        self.hub.handle(self.conn, Hello(since=0))

    def close(self) -> None:
        self.hub.detach(self.conn)


# Each script: (seconds from the start, seat, "close" | "open"); a reload is a close and an
# open. At the end some seats are away: each must see the others' buttons at its time.
SCRIPTS = {
    "the host reloads, then guest 1 leaves": [(0.0, 0, "close"), (0.3, 0, "open"), (1.5, 1, "close")],
    "guest 1 leaves, then the host reloads": [(0.0, 1, "close"), (1.0, 0, "close"), (1.2, 0, "open")],
    "guest 1 leaves and comes back, then guest 2 leaves": [(0.0, 1, "close"), (2.0, 1, "open"), (3.0, 2, "close")],
    "guest 1 leaves, guest 2 leaves later": [(0.0, 1, "close"), (2.5, 2, "close")],
    "two reloads, then guest 2 leaves": [(0.0, 0, "close"), (0.1, 0, "open"), (0.2, 1, "close"), (0.4, 1, "open"),
                                         (4.9, 2, "close")],
    "guest 2 leaves at the moment another's time runs out": [(0.0, 1, "close"), (0.5, 1, "open"), (5.01, 2, "close")],
}


async def playing_room(tmp_path):
    """A hub on the test's clock with a three-seat room whose seats are all open (the match
    under way): (clock, store, hub, table id, tokens, pages)."""
    clock = Clock(asyncio.get_running_loop())
    store = SqliteStore(str(tmp_path / "t.sqlite3"))
    hub = assemble(store, None, away_timeout=AWAY)
    hub.start()
    table_id, tokens = hub.new_room(3)
    pages = [Page(hub, t, clock) for t in tokens]
    for p in pages:
        p.open()
    await asyncio.sleep(0)  # the group commit
    return clock, store, hub, table_id, tokens, pages


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_away_seat_button_appears_at_its_time(tmp_path, name):
    async def body():
        clock, store, hub, _, tokens, pages = await playing_room(tmp_path)
        start, left_at = clock.now, {}
        for at, seat, what in SCRIPTS[name]:
            clock.advance(start + at)
            if what == "close":
                pages[seat].close()
                left_at[seat] = clock.now
            else:
                pages[seat] = Page(hub, tokens[seat], clock)
                pages[seat].open()
                left_at.pop(seat)
            await asyncio.sleep(0)
        end = max(left_at.values()) + AWAY + 1
        clock.advance(end)
        assert left_at, "the script leaves somebody away"
        for away, since in left_at.items():
            for seat, page in enumerate(pages):
                if seat in left_at:
                    continue
                shown = [t for t, flags in page.told if flags[away]]
                assert shown, f"{name}: seat {seat} never got the button for seat {away}"
                assert since + AWAY <= shown[0] <= since + AWAY + 0.05, (name, seat, away, shown[0] - since)
        store.close()

    asyncio.run(body())


def test_the_timer_is_one_per_table_and_gone_when_nobody_is_away(tmp_path):
    """Made anew at each telling, a timer never piles up: one per table at most, none once
    every seat is back."""
    async def body():
        clock, store, hub, table_id, tokens, pages = await playing_room(tmp_path)
        for step in itertools.islice(itertools.cycle([1, 2]), 6):
            pages[step].close()
            clock.advance(clock.now + 0.4)
            pages[step] = Page(hub, tokens[step], clock)
            pages[step].open()
        live = [t for t in clock.timers if not t.cancelled_]
        assert live == [] and table_id not in hub.away_timers
        pages[1].close()
        assert len([t for t in clock.timers if not t.cancelled_]) == 1
        store.close()

    asyncio.run(body())
