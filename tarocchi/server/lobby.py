"""The lobby (issue 22): public tables, Play now and the turn clock.

**Public tables.** A room's host may list it (at creation, or from the waiting room: a
``public`` event). The process that drives a listed table writes its *listing* to the store
whenever it changes (game, open seats, the names seated, since when); the lobby reads the
listings from the store, so every process of a site lists alike. A free seat is handed out by
a *claim* in the store, one transaction: of two strangers who click the same seat at once,
one gets it and the other the next free seat (or none). A claimed seat's link is made anew
(its old link, if the host shared one, opens nothing): the stranger's link is his alone. A
claim not used within CLAIM_SECONDS lapses. One seat a person (issue 56, point 7): whoever made a
table, opened one of its links or claimed a seat of it takes no other seat of it, a person being
their account, else their browser, else their address (``sessions.persons``); the address counts
only in the budget of unopened seats (CLAIMS_PER_ADDRESS), so a household shares a table.

**Play now.** One button per game: a seat at a listed table of that game that waits, else a
seat a computer holds at a Play now table under way (it is the person's from the next deal:
an ``arrive`` event, then ``return`` between deals, the stand-in machinery of the away
seats; one who came and left again before that keeps the seat, played by the computer until
they are back), else a new public table (``quick``) whose empty seats go to computers at its
``fill_at`` (FILL_SECONDS after it opened; ``fill`` events), which its page counts down.

**The turn clock.** A table with a ``clock`` (public ones: PUBLIC_CLOCK seconds; a room by
link only if its host set one) stamps every event it stores with ``at`` (seconds since the
epoch); the turn that the clock runs for began at the event that started it
(``Table.turn_since``), so the deadline comes from the stored stream and survives a restart
or a move to another process. When it passes, the computer (the stand-in level) plays for the
person to act, or presses Next deal for those who have not; an ``act`` or ``next`` event like
any other, marked ``clock``. The clock runs only while someone is at the table: a table whose
people are all away waits, as a room does. The person's own card, if it arrives after the
computer's, answers a turn that is over and is refused, never played on the next turn
(``Table.check_turn``).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from typing import TYPE_CHECKING

from tarocchi.engine.game import get_game
from tarocchi.engine.playout import random_action

from .core.store import CLAIM_HERE, CLAIM_TOO_MANY, CLAIM_WON, address_key
from .core.tables import BETWEEN, OVER, PLAYING, WAITING, WATCH_SEAT, Table
from .core.features import Feature
from .core.hub import decide
from .core.messages import Public

if TYPE_CHECKING:
    from .core.hub import Connection, Hub

log = logging.getLogger("tarocchi.server")

PUBLIC_CLOCK = 30.0  # seconds a player of a public table has for a turn
FILL_SECONDS = 20.0  # a Play now table waits this long for people, then computers sit down
CLAIM_SECONDS = 30.0  # a seat handed out from the lobby is held this long for its page to open
CLAIMS_PER_ADDRESS = 3  # seats handed out and not opened yet that one client address may hold at once
LISTED_FOR = 3600.0  # a public room waiting longer than this is no longer listed
CORRESPONDENCE_LISTED_FOR = 7 * 24 * 3600.0  # ... a room by correspondence: a week (issue 41)
DAY = 24 * 3600  # a correspondence table's clock is in days
TIME_BANK = 120.0  # seconds of spare time a seat has for a match at a live table with a clock
CORRESPONDENCE_DAYS = (1, 2, 3, 7)
SIGN_IN_FOR_CORRESPONDENCE = "a table by correspondence is for signed-in players: sign in first"
HOST_SEAT = 0  # the seat of whoever made the table (the host, or who pressed Play now): never handed out

SEAT_TAKEN = "that seat was just taken"
NO_FREE_SEAT = "this table has no free seat any more"
NOT_LISTED = "this table is no longer in the lobby"
AT_THIS_TABLE = "you are at this table already (a seat or its watch link): one seat a person"
TOO_MANY_CLAIMS = (f"this address holds {CLAIMS_PER_ADDRESS} seats from the lobby that are not open yet: "
                   f"open one, or wait {CLAIM_SECONDS:g} seconds")
REFUSED = {CLAIM_HERE: AT_THIS_TABLE, CLAIM_TOO_MANY: TOO_MANY_CLAIMS}  # the store's answers, in words
NOBODY_HERE = "nobody is at this table now"
PLAYING_KEPT = 2.0  # seconds the count of people playing is kept before it is counted again
MY_TABLES = 20  # seat links a browser may ask about at once (POST /api/my-tables)


def somebody_here(row: dict) -> bool:
    """A listed table somebody has open now (a listing written before presence was kept: yes).
    A table by correspondence is played by people who come and go over days: always."""
    return bool(row.get("correspondence")) or any(row.get("present") or [True])


def listed_for(row: dict) -> float:
    """How long a public room may wait for its players and still be listed."""
    return CORRESPONDENCE_LISTED_FOR if row.get("correspondence") else LISTED_FOR


class Lobby(Feature):
    """The hub's side of the lobby: listings, Play now, the fill and the turn clock. ``now``
    is the wall clock the deadlines are kept in (a test gives its own)."""

    def __init__(self, hub: Hub, *, fill_seconds: float = FILL_SECONDS, clock_seconds: float = PUBLIC_CLOCK,
                 time_bank: float = TIME_BANK):
        self.hub = hub
        self.fill_seconds, self.clock_seconds, self.time_bank = fill_seconds, clock_seconds, time_bank
        self.written: dict[str, dict | None] = {}  # table -> the listing last stored for it
        self.visited: dict[str, set[str]] = {}  # table held here -> the persons whose visit this process wrote
        self.counted: tuple[float, dict[str, int]] | None = None  # (when, people playing by game)
        self.timers: dict[str, asyncio.TimerHandle] = {}  # table -> its next fill or clock
        self.tasks: dict[str, asyncio.Task] = {}  # table -> the computer playing a turn out of time

    # --- what the hub calls -----------------------------------------------------------------

    def changed(self, table: Table) -> None:
        """After every change of a table, a socket come or gone (and when it is resumed): its
        listing, its timer."""
        # (who is here is asked only of a public room: this runs after every action of every table)
        listing = self.listing(table, self.hub.connected(table)) if table.public and table.kind == "room" else None
        if table.id in self.written or listing is not None:
            if self.written.get(table.id, False) != listing:
                try:  # (``since`` as first listed: the store keeps the first)
                    self.hub.store.put_listing(table.id, listing and {**listing, "since": round(time.time(), 3)})
                    self.written[table.id] = listing
                except Exception:  # the lobby is an index: the next change writes it again
                    log.exception("table %s: could not write its listing", table.id)
        self.arm(table)

    handles = (Public,)

    @property
    def now(self):
        """The wall clock the deadlines are kept in: the hub's (a test sets its own)."""
        return self.hub.now

    @now.setter
    def now(self, clock) -> None:
        self.hub.now = clock

    def handle(self, conn: Connection, message: Public) -> None:
        self.on_public(conn, message)

    def opened(self, table_id: str, persons: list[str]) -> None:
        for person in persons:
            self.visit(table_id, person)

    def unloaded(self, table_id: str, code: int, reason: str) -> None:
        self.forget(table_id)

    def advance(self, table: Table) -> bool:
        """What follows by itself in the lobby's tables (the hub's ``advance`` hook): computers fill the
        seats nobody took by ``fill_at`` (while someone is there to play with them), and
        between deals the people who came for a computer's seat get it. True if it wrote."""
        hub = self.hub
        if (table.status == WAITING and table.quick and table.fill_at is not None and not all(table.joined)
                and self.now() >= table.fill_at and any(hub.connected(table))):
            level = hub.standin_level(table.game)
            for seat in range(table.seats):
                if not table.joined[seat]:
                    hub.write(table, "fill", {"seat": seat, "level": level})
            return True
        if table.status in (BETWEEN, OVER) and any(table.arrived):
            # (one who came and went again keeps the seat: theirs when they are back, the
            # computer's meanwhile)
            here = hub.connected(table)
            coming = [s for s in range(table.seats) if table.arrived[s] and here[s]]
            for seat in coming:
                hub.write(table, "return", {"seat": seat})
            return bool(coming)
        return False

    def keeps_for_the_deal(self, table: Table, seat: int) -> bool:
        """A person opens a seat a computer filled: mid-deal it stays the computer's until
        the deal ends (an ``arrive`` event); True then. False: it is theirs at once."""
        if table.filled[seat] and table.status == PLAYING:
            if not table.arrived[seat]:
                self.hub.write(table, "arrive", {"seat": seat})
            return True
        return False

    def stamp(self, table: Table, data: dict) -> dict:
        """An event's data as stored: with ``at`` at a table with a clock (its deadlines)."""
        return {**data, "at": round(self.now(), 3)} if table.clock else data

    def on_public(self, conn: Connection, message: Public) -> None:
        """The host lists the room in the lobby, or takes it off."""
        table, hub = conn.table, self.hub
        reason = table.check_public(conn.room_seat)
        if reason:
            return hub.refuse(conn, None, reason)
        if table.public != message.public:
            data = {"public": message.public, "at": round(self.now(), 3)}
            if message.public and not table.clock:
                data["clock"] = self.clock_seconds
            hub.write(table, "public", data)
        hub.changed(table)

    def forget(self, table_id: str) -> None:
        self.written.pop(table_id, None)
        self.visited.pop(table_id, None)  # (written down: another visit is only written again)
        for handles in (self.timers, self.tasks):
            handle = handles.pop(table_id, None)
            if handle is not None:
                handle.cancel()

    async def stop(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        tasks = [t for t in self.tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # --- listings ------------------------------------------------------------------------------

    @staticmethod
    def listing(table: Table, present: list[bool] | None = None) -> dict | None:
        """What the lobby knows of a table: a public room that waits (its seats not joined
        are open), or a Play now table under way with seats a computer holds for whoever
        comes (those are open); None for any other. The host's seat is never open: its link
        is the host's, opened or not, here or away (issue 37). ``present``: the seats whose
        person has the table open now (a table nobody is at is not offered: issue 38)."""
        if not table.public or table.kind != "room":
            return None
        if table.status == WAITING:
            open_seats = [s for s in range(table.seats) if not table.joined[s] and s != HOST_SEAT]
        elif table.status in (PLAYING, BETWEEN) and table.quick:
            open_seats = [s for s in range(table.seats) if table.filled[s] and not table.arrived[s] and s != HOST_SEAT]
        else:
            return None
        if not open_seats:
            return None
        return {"game": table.game.name, "status": table.status, "open": open_seats,
                "seats": table.seats, "quick": table.quick, "clock": table.clock, "rated": table.rated,
                "correspondence": table.correspondence,
                "names": [table.names[s] if table.joined[s] and not table.filled[s] else None
                          for s in range(table.seats)],
                "present": list(present or [False] * table.seats),
                "watch": f"/w/{table.watch_token}" if table.watch_token else None}  # its spectators' link (watch.py)

    def public_tables(self, game: str | None = None) -> list[dict]:
        """The public rooms still waiting with somebody there, oldest first, as the lobby
        shows them."""
        now, out = time.time(), []
        for row in self.hub.store.listings(game, CLAIM_SECONDS):
            free = [s for s in row["open"] if s not in row["claimed"]]
            if row["status"] != WAITING or not free or now - row["since"] > listed_for(row) or not somebody_here(row):
                continue
            out.append({"table": row["table"], "game": row["game"], "seats": row["seats"], "free": free,
                        "names": row["names"], "present": row.get("present"),
                        "waiting": round(max(0.0, now - row["since"])),
                        "quick": row["quick"], "clock": row["clock"], "watch": row.get("watch"),
                        "rated": row.get("rated", True),  # (a listing from before: public, so rated)
                        "correspondence": row.get("correspondence")})
        return out

    def shared(self) -> dict:
        return {"playing": self.playing()}

    async def playing_on_the_site(self) -> dict[str, int]:
        """The people at a table of each game now: this process's, and on a site every other
        live process's last count (``Leases.gathered``)."""
        total = dict(self.playing())
        leases = self.hub.leases
        for counts in await leases.gathered("playing") if leases is not None else []:
            for game, n in (counts or {}).items():
                total[game] = total.get(game, 0) + int(n)
        return total

    def playing(self) -> dict[str, int]:
        """The people at this process's tables now (their seat open in a page), by game;
        kept a moment, as the lobby polls it."""
        now = time.monotonic()
        if self.counted is not None and now - self.counted[0] < PLAYING_KEPT:
            return self.counted[1]
        counts: dict[str, int] = {}
        for table in self.hub.tables.values():
            here = sum(self.hub.connected(table))
            if here:
                counts[table.game.name] = counts.get(table.game.name, 0) + here
        self.counted = (now, counts)
        return counts

    def claim(self, table_id: str, seat: int | None, address: str, account: str | None = None,
              persons: list[str] | None = None) -> tuple[str, int] | str:
        """A free seat of a listed table for the person ``persons`` (``sessions.persons``; by
        default the client address's key alone) asking from ``address``, ``seat`` if it is still
        free, else the next: (its new token, the seat), or why there is none (NOT_LISTED,
        NO_FREE_SEAT, AT_THIS_TABLE, TOO_MANY_CLAIMS). The store decides, one claim at a time
        for a table and for an address, on every process of a site (``Store.claim_seat``): one
        seat a person (issue 56: two people behind one address are two), a few unopened ones an
        address. A seat of a table by correspondence is for a signed-in player (``account``):
        it is that account's at once (issue 41)."""
        rows = [r for r in self.hub.store.listings(None, CLAIM_SECONDS) if r["table"] == table_id]
        if not rows:
            return NOT_LISTED
        row = rows[0]
        if not somebody_here(row):
            return NOBODY_HERE
        if row.get("correspondence") and account is None:
            return SIGN_IN_FOR_CORRESPONDENCE
        if self.blocked_at(table_id, account):
            return NO_FREE_SEAT  # (issue 58: never beside one they block or who blocks them; nobody is told why)
        free = [s for s in row["open"] if s not in row["claimed"]]
        key = address_key(address)
        persons = persons if persons is not None else [key]
        for s in ([seat] if seat in free else []) + [s for s in free if s != seat]:
            token = secrets.token_urlsafe(24)
            claimed = self.hub.store.claim_seat(table_id, s, token, CLAIM_SECONDS, persons, key, CLAIMS_PER_ADDRESS)
            if claimed == CLAIM_WON:
                self.hub.revoke(table_id, s)  # a socket opened on the old link holds nothing
                if account is not None:
                    self.hub.store.people.hold_seat(account, token)
                return token, s
            if claimed in REFUSED:
                return REFUSED[claimed]
        return NO_FREE_SEAT

    def visit(self, table_id: str, person: str) -> None:
        """The person ``person`` (a key of ``sessions.persons``) made the table or opened one of
        its links: they may not claim a seat of it (``claim``). Written once per table and
        person by this process; the lobby is an index, so a failure is logged and play goes on."""
        if person in self.visited.get(table_id, ()):
            return
        try:
            self.hub.store.visit(table_id, person)
        except Exception:
            log.exception("table %s: could not note a visit", table_id)
            return
        if len(self.visited) >= 100_000:
            self.visited.clear()  # bounded: a visit written again is harmless
        self.visited.setdefault(table_id, set()).add(person)

    async def seat_summary(self, link: str) -> dict:
        """What the lobby's "Your tables" shows of one of this browser's seat links: the table,
        its state and whose turn it is, or ``gone`` (the link opens nothing now: a seat handed
        to another from the lobby, a seat left out at R17, a table that could not be restored).
        A link is a seat's capability: it tells only what that seat already knows."""
        gone = {"link": link, "gone": True}
        found = self.hub.store.seat_of(link.removeprefix("/t/"))
        if found is None or found[1] == WATCH_SEAT or found[0] in self.hub.broken:
            return gone
        table_id, room_seat = found
        table = self.hub.tables.get(table_id)
        if table is None:  # (another process drives it, or it waits in the store: its stream says)
            try:
                table = (await self.hub.stored(table_id)).table
            except ValueError:
                return gone
        seat = table.seat_map[room_seat] if room_seat < len(table.seat_map) else None
        if seat is None or (table.kind == "computer" and room_seat != 0) or table.lesson:
            return gone  # (a lesson is not a table to come back to: issue 57)
        turn = table.deal.to_act if table.status == PLAYING else None
        yours = (turn == seat and table.bots[seat] is None) or (table.status == BETWEEN and not table.ready[seat])
        return {"link": link, "table": table.id, "game": table.game.name, "kind": table.kind, "seats": table.seats,
                "seat": seat, "status": table.status, "names": table.names, "turn": turn, "yours": yours,
                "deal": len(table.match.deals) if table.match else 0,
                # when the turn clock plays for the seats it runs for (every seat's the same
                # moment: issue 57), or None (no clock, or nobody's turn on it)
                "deadline": table.deadline()}

    def new_room(self, seats: int, game: str, *, public: bool, clock: float | None,
                 quick: bool = False, hints: bool = False, address: str | None = None,
                 rated: bool | None = None, correspondence: int | None = None,
                 persons: list[str] | None = None, tournament: str | None = None,
                 tournament_round: int | None = None) -> tuple[str, list[str]]:
        """A room by link, or a public one (listed at once; the host's seat is never handed
        to a stranger: ``listing``). ``hints``: the host lets the seats ask for hints
        (server/advice.py); ``persons``: who asked (``sessions.persons``; else ``address``, the
        client's address): they may not claim another seat. ``tournament``: the tournament whose
        table it is (server/tournaments.py, issue 59), ``tournament_round`` its round."""
        if correspondence:  # days a move (issue 41): the clock is the same clock, in days
            clock = correspondence * DAY
        if public and not clock:
            clock = self.clock_seconds
        settings = {"public": public, "clock": clock, "hints": hints, "correspondence": correspondence,
                    "tournament": tournament, "tournament_round": tournament_round,
                    # a live clock's time bank (issue 41): spare seconds a seat spends past a turn's own
                    "bank": self.time_bank if clock and not correspondence else None}
        if quick:
            settings |= {"quick": True, "fill_at": round(self.now() + self.fill_seconds, 3)}
        settings = {k: v for k, v in settings.items() if v}
        if rated is not None:  # (the host's choice, either way; else as public tables are)
            settings["rated"] = rated
        table_id, tokens = self.hub.new_room(seats, game, settings=settings)
        if persons is None:
            persons = [address_key(address)] if address is not None else []
        for person in persons:
            self.visit(table_id, person)
        self.changed(self.hub.tables[table_id])
        return table_id, tokens

    def _candidates(self, game: str) -> list[dict]:
        """The listings Play now may seat a player at: people waiting first, oldest first,
        then the seats computers hold at Play now tables under way."""
        if game not in self.hub.games:
            raise ValueError(f"unknown game {game!r}; the table offers {', '.join(self.hub.games)}")
        rows = [r for r in self.hub.store.listings(game, CLAIM_SECONDS)
                if any(s not in r["claimed"] for s in r["open"]) and somebody_here(r) and not r.get("correspondence")
                and not (r["status"] == WAITING and time.time() - r["since"] > listed_for(r))]
        return sorted(rows, key=lambda r: (r["status"] != WAITING, r["since"]))

    def has_seat_for(self, game: str) -> bool:
        """Whether Play now would find a seat (else it opens a table: a new table's budget)."""
        return bool(self._candidates(game))

    def blocked_at(self, table_id: str, account: str | None) -> bool:
        """Whether ``account`` and an account seated at the table (holding a seat's link, or
        sat there) block each other, either way (issue 58)."""
        if account is None:
            return False
        seated = list(self.hub.store.people.table_accounts(table_id).values())
        table = self.hub.tables.get(table_id)
        if table is not None:
            seated += [s["account"] for s in table.sitters if s is not None]
        return self.hub.store.people.blocks_any(account, seated)

    def play_now(self, game: str, address: str, persons: list[str] | None = None,
                 account: str | None = None) -> tuple[str, str, int, bool] | str:
        """Play now: (table id, token, seat, whether the table is new), or why not
        (TOO_MANY_CLAIMS). A table the person is at already, or where someone they block (or
        who blocks them) sits, is passed over (``claim``)."""
        for row in self._candidates(game):
            claimed = self.claim(row["table"], None, address, account, persons=persons)
            if isinstance(claimed, tuple):
                return row["table"], claimed[0], claimed[1], False
            if claimed == TOO_MANY_CLAIMS:
                return claimed
        rules = get_game(game)
        table_id, tokens = self.new_room(rules.seats[0], rules.name, public=True, clock=None, quick=True,
                                         address=address, persons=persons)
        return table_id, tokens[0], HOST_SEAT, True

    # --- the fill and the clock ----------------------------------------------------------------

    def wakes(self, table: Table) -> float | None:
        """A table by correspondence asleep wakes when its clock runs out (issue 41)."""
        return self._due(table)

    def _due(self, table: Table) -> float | None:
        """When the table's next fill or clock is due (wall clock), or None."""
        if table.status == WAITING and table.quick and table.fill_at is not None and not all(table.joined):
            return table.fill_at
        return table.deadline()

    def arm(self, table: Table) -> None:
        timer = self.timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        due = self._due(table)
        if due is None:
            return
        delay = max(0.0, due - self.now()) + 0.01
        self.timers[table.id] = asyncio.get_running_loop().call_later(delay, self._fire, table)

    def _fire(self, table: Table) -> None:
        self.timers.pop(table.id, None)
        hub = self.hub
        if hub.tables.get(table.id) is not table:
            return
        due = self._due(table)
        if due is None:
            return
        if due > self.now():  # (a timer a little early)
            return self.arm(table)
        if not any(hub.connected(table)) and not table.correspondence:
            return  # nobody here: the next hello arms it again (a table by correspondence plays on)
        if table.status == WAITING:
            try:
                with hub.atomic(table):
                    hub.changed(table)  # step() fills the seats
            except Exception:
                log.exception("table %s: filling its seats raised; undone", table.id)
            return
        task = self.tasks.get(table.id)
        if task is None or task.done():
            self.tasks[table.id] = asyncio.get_running_loop().create_task(self._out_of_time(table, table.turn_key()))

    async def _out_of_time(self, table: Table, key: tuple) -> None:
        """The clock ran out: the computer plays this turn for the person to act (or presses
        Next deal for those who have not)."""
        hub = self.hub
        seats = table.clock_seats()
        if table.status == BETWEEN:
            try:
                with hub.atomic(table):
                    for seat in seats:
                        hub.write(table, "next", {"seat": seat, "clock": True})
                    hub.changed(table)
            except Exception:
                log.exception("table %s: Next deal out of time raised; undone", table.id)
            return
        if not seats or table.automatic() is not None:
            return  # the server answers for that seat itself (R12)
        seat, deal = seats[0], table.deal
        try:
            action = await asyncio.get_running_loop().run_in_executor(
                hub.executor, decide, table.game.name, hub.standin_level(table.game), deal.view(seat))
        except Exception:
            log.exception("table %s: the stand-in bot raised on a turn out of time", table.id)
            action = None
        if hub.tables.get(table.id) is not table or table.turn_key() != key:
            return  # the person played meanwhile
        if not isinstance(action, str) or table.check_act(seat, action) is not None:
            action = table.game.action_text(random_action(deal.copy(), random.Random()))
        hub.write_alone(table, "act", {"seat": seat, "action": action, "id": None, "clock": True})


# --- the routes (app.create_app mounts them) ---------------------------------------------------


def lobby_routes(hub, may_browse, may_create, read_body, paused=lambda request: None) -> list:
    """``GET /api/public``, ``POST /api/public/{table}/seat``, ``POST /api/play-now``
    (docs/protocol.md). ``hub()`` is the app's hub; ``may_browse``/``may_create`` spend the
    client address's lobby and new-table budgets; ``read_body`` is app.read_body; ``paused``
    answers a rated seat asked for by a leaver paused from them (issue 56), else None. Each
    answer gives a browser that has none its id (``sessions.BROWSER_COOKIE``: one seat a
    person, issue 56)."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from .core.sessions import gives_browser_id, persons, signed_in
    from .core.sockets import client_address
    from .core.messages import TOO_MANY_LOBBY, TOO_MANY_TABLES, MyTables, PlayNow, TakeSeat

    def too_many():
        return JSONResponse({"error": TOO_MANY_LOBBY}, status_code=429)

    def person(request: Request) -> list[str]:
        return persons(hub().store.people, request, client_address(request), request.state.browser)

    async def public_tables(request: Request):
        if not await may_browse(request):
            return too_many()
        game = request.query_params.get("game") or None
        lobby = hub().lobby
        playing = await lobby.playing_on_the_site()
        return JSONResponse({"tables": lobby.public_tables(game), "fill_seconds": lobby.fill_seconds,
                             "clock": lobby.clock_seconds, "playing": playing}, headers={"Cache-Control": "no-store"})

    async def my_tables(request: Request):
        if not await may_browse(request):
            return too_many()
        body = await read_body(request, MyTables)
        if isinstance(body, JSONResponse):
            return body
        lobby = hub().lobby
        tables = [await lobby.seat_summary(link) for link in body.links]
        return JSONResponse({"tables": tables, "now": lobby.now()}, headers={"Cache-Control": "no-store"})

    async def take_seat(request: Request):
        if not await may_browse(request):
            return too_many()
        body = await read_body(request, TakeSeat)
        if isinstance(body, JSONResponse):
            return body
        account = signed_in(hub().store.people, request)
        if (refused := paused(request)) is not None and any(
                t["table"] == request.path_params["table"] and t["rated"] for t in hub().lobby.public_tables()):
            return JSONResponse(refused, status_code=403)
        claimed = hub().lobby.claim(request.path_params["table"], body.seat, client_address(request) or "?",
                                    account and account["id"], person(request))
        if isinstance(claimed, str):
            status = 429 if claimed == TOO_MANY_CLAIMS else 401 if claimed == SIGN_IN_FOR_CORRESPONDENCE else 409
            return JSONResponse({"error": claimed}, status_code=status)
        token, seat = claimed
        answer = {"table": request.path_params["table"], "link": f"/t/{token}", "seat": seat}
        if body.seat is not None and seat != body.seat:
            answer["taken"] = SEAT_TAKEN  # another was quicker: this is the next free seat
        return JSONResponse(answer)

    async def play_now(request: Request):
        if not await may_browse(request):
            return too_many()
        body = await read_body(request, PlayNow)
        if isinstance(body, JSONResponse):
            return body
        lobby = hub().lobby
        if (refused := paused(request)) is not None:  # (Play now's tables are public: rated)
            return JSONResponse(refused, status_code=403)
        try:
            if not lobby.has_seat_for(body.game) and not await may_create(request):
                return JSONResponse({"error": TOO_MANY_TABLES}, status_code=429)
            account = signed_in(hub().store.people, request)
            seated = lobby.play_now(body.game, client_address(request) or "?", person(request), account and account["id"])
        except ValueError as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        if isinstance(seated, str):
            return JSONResponse({"error": seated}, status_code=429)
        table_id, token, seat, new = seated
        return JSONResponse({"table": table_id, "link": f"/t/{token}", "seat": seat, "new": new})

    return [Route("/api/public", gives_browser_id(public_tables)),
            Route("/api/my-tables", gives_browser_id(my_tables), methods=["POST"]),
            Route("/api/public/{table}/seat", gives_browser_id(take_seat), methods=["POST"]),
            Route("/api/play-now", gives_browser_id(play_now), methods=["POST"])]
