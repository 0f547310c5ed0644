"""Tournaments (issue 59): arenas, Swiss and duplicates, played at rooms like any other.

**Kinds.** *Arena*: for ``minutes`` from its start, whoever has joined and is free (their last
table ended, they have not left) is seated, as tables end, with players of near score, not the
same table-mates twice running where the numbers allow (core/pairing.py), nor two who block
each other (issue 58: in every kind, where the numbers allow); a player alone waits
``arena_wait`` seconds for others, then plays with computers. No table begins after the end;
those under way finish. *Swiss*: ``rounds`` rounds, each formed by standing once every table of
the one before has ended, nobody with the same people twice where the numbers allow; a short
table is filled by computers. *Duplicate*: ``rounds`` rounds; every table of a round plays the
same deck orders from the same first dealer (this feature deals them, from the tournament's
secret seed), players move so that they meet different people and hold different seats, and
each seat's result on a deal is compared with everyone who held those cards (matchpoints;
Ottocento: by side). The standings and tie-breaks are core/pairing.py's.

**Tables.** Each table is a room made as a challenge's is (``seat_room``: the lobby's room, each
seat held for its account), with a turn clock, not listed and never started early, listed or
played again (``Table.tournament``). Its people are told on their bell (``tournament``), with
their seat's link; ``GET /api/tournaments/<id>`` gives the asker theirs. A seat not opened within
``no_show`` seconds, or whose player has been gone ``leave_after`` seconds, is played by the
computer (a ``takeover``: the player's own when they come back), and a player the computer
played for most of a deal or more is placed as leavers are (after those who were there:
``people.places``). Rated if its maker said so: its matches are rated as rated rooms' are.

**Nothing lost.** The tournament, its players and tables are in the store
(store/tournaments.py); a table's result is written once its match is recorded (its own commit
records it), from the table's stream. Every process ticks: it starts the tournaments due,
writes the results of tables ended, forms the next tables (one process wins a round:
``claim_round``; a round claimed and left without tables by a killed process is formed again after
``FORMING_STALE``), so a killed process's tournament is carried on by the next, and its tables by
whoever takes them (as any room). The standings are worked out from the results, and
``tarocchi tournaments standings FILE`` works them out again from the records alone.

**What shows.** A duplicate's standings, records and tables' watch links show a round only once
every table of it has ended: the other tables are playing the same cards.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Literal

import msgspec

from tarocchi.engine.game import get_game
from tarocchi.engine.records import dumps, match_record

from .core.features import Feature
from .core.hub import stored_table
from .core.messages import GameName
from .core.pairing import Result, Seat, form_tables, meetings, seat_players, standings, swiss_order
from .core.store import off_loop
from .core.tables import BETWEEN, PLAYING, WAITING, shuffled_deck

if TYPE_CHECKING:
    from .core.hub import Hub
    from .core.tables import Table

log = logging.getLogger("tarocchi.server.tournaments")

KINDS = ("arena", "swiss", "duplicate")
CLOCK = 30.0  # seconds a turn at a tournament's table (the public tables' clock)
NO_SHOW = 60.0  # a seat not opened this long after its table was made is played by the computer
LEAVE_AFTER = 60.0  # ... one whose player has been gone this long too (theirs again when back)
ARENA_WAIT = 30.0  # an arena's player alone waits this long for others, then plays with computers
TICK = 1.0  # seconds between two looks at the tournaments under way
MOST_PLAYERS = 200
MOST_ROUNDS = 15
MOST_MINUTES = 240
LATEST_START = 7 * 24 * 3600  # a tournament starts within a week of being made
LISTED = 50  # tournaments each list of GET /api/tournaments shows
MADE_PER_DAY = 5  # tournaments an account may make a day
# (burst, per second): making per account and per address; joining and leaving per account
MAKING_PER_ACCOUNT = (3, 3 / 3600)
MAKING_PER_ADDRESS = (6, 6 / 3600)
JOINING_PER_ACCOUNT = (20, 10 / 60)
JOINING_PER_ADDRESS = (40, 20 / 60)
LOOKING_PER_ADDRESS = (60, 2.0)

SIGNED_OUT = "you are not signed in"
NO_SUCH_TOURNAMENT = "no such tournament"
TOO_MANY = "too many requests: wait a little and try again"
MADE_ENOUGH = f"you made {MADE_PER_DAY} tournaments today: make the next tomorrow"
WORKED_OUT = 100  # tournaments whose standings a process keeps (Tournaments.ranked)
FORMING_STALE = 30.0  # a round claimed this long ago with no tables (its process killed) is formed again
FINISHED = "this tournament is over"
STARTED = "this duplicate has started: its rounds are set"
FULL = f"this tournament has its {MOST_PLAYERS} players"
NOT_ENTERED = "you have not joined this tournament"

Seconds = Annotated[int, msgspec.Meta(ge=0, le=LATEST_START)]


class NewTournament(msgspec.Struct, forbid_unknown_fields=True):
    game: GameName
    seats: Literal[3, 4]
    kind: Literal["arena", "swiss", "duplicate"]
    starts: Seconds = 300
    minutes: Annotated[int, msgspec.Meta(ge=1, le=MOST_MINUTES)] | None = None
    rounds: Annotated[int, msgspec.Meta(ge=1, le=MOST_ROUNDS)] | None = None
    deals: Annotated[int, msgspec.Meta(ge=1, le=100)] | None = None
    rated: bool = False
    public: bool = True


def check_new(body: NewTournament, games: tuple[str, ...]) -> str | None:
    """Why a new tournament's settings are refused, or None."""
    if body.game not in games:
        return f"unknown game {body.game!r}"
    game = get_game(body.game)
    if body.seats not in game.seats:
        return f"{game.title} is played at {' or '.join(map(str, game.seats))} seats"
    if body.kind == "arena" and (body.minutes is None or body.rounds is not None):
        return "an arena lasts some minutes: give minutes, not rounds"
    if body.kind != "arena" and (body.rounds is None or body.minutes is not None):
        return f"a {body.kind} has a number of rounds: give rounds, not minutes"
    length = game.match_length(body.seats)
    if body.deals is not None and body.deals != length:
        # (a round is one match of the game, as a room plays it: issue 59's "deals a round" is
        # that match's length, not a setting of its own yet)
        return (f"a round is one match of {game.title}: " +
                (f"{length} deals at {body.seats} seats" if length else "played to its score, its deals as they come"))
    return None


def make(store, body: NewTournament, maker: str | None, now: float, minute: float = 60.0) -> dict:
    """A new tournament in the store (``maker``: its account; None: the operator's): {"id", "link"}.
    (``minute``: its seconds, shorter in a test's arena.)"""
    tid = secrets.token_urlsafe(9)
    starts = now + body.starts
    store.tournaments.create({
        "id": tid, "maker": maker, "game": body.game, "seats": body.seats, "kind": body.kind,
        "starts_at": starts, "ends_at": starts + minute * body.minutes if body.minutes else None,
        "rounds": body.rounds, "rated": body.rated, "public": body.public, "settings": {"deals": body.deals},
        "seed": secrets.token_hex(16)})  # (the duplicate's deck orders: never shown)
    return {"id": tid, "link": f"/tournament/{tid}"}


def schedule(store, body: dict) -> dict | str:
    """The operator's tournament (``tarocchi tournaments make``): ``body`` as POST /api/tournaments
    takes it; {"id", "link"}, or why it is refused."""
    from .core.hub import TABLE_GAMES

    try:
        found = msgspec.convert(body, NewTournament)
    except msgspec.ValidationError as e:
        return f"bad tournament: {e}"
    why = check_new(found, TABLE_GAMES)
    return why if why is not None else make(store, found, None, time.time())


def deck_for(seed: str, round_: int, deal: int, table: Table) -> list[str]:
    """The deck order of a duplicate's deal ``deal`` (from 0) of round ``round_``: the same at
    every table of the round."""
    return shuffled_deck(random.Random(f"{seed}/{round_}/{deal}"), table.game)


def dealer_for(seed: str, round_: int, seats: int) -> int:
    return random.Random(f"{seed}/{round_}/dealer").randrange(seats)


def results_of(tables: list[dict], kind: str) -> list[Result]:
    """The finished tables' results as core/pairing.py reads them; a duplicate's rounds only
    once every table of the round has ended."""
    open_rounds = {t["round"] for t in tables if t["result"] is None}
    return [Result(t["round"], t["number"], [Seat(**s) for s in t["result"]]) for t in tables
            if t["result"] is not None and not (kind == "duplicate" and t["round"] in open_rounds)]


def table_result(table_id: str, events: list, players: list) -> list[dict]:
    """A tournament table's result from its stream: each seat's player (None: a computer),
    team, match total, whether the computer played for them most of a deal or more, and the
    result of each deal."""
    stored = stored_table(table_id, events)
    match, table = stored.matches[0], stored.table
    sides = table.game.sides
    return [{"player": players[s], "team": sides(s) if sides else s, "total": match.totals[s],
             "absent": bool(table.absent[s]), "deals": [d.returns()[s] for d in match.deals if d.done]}
            for s in range(table.seats)]


class Tournaments(Feature):
    """Ticks the tournaments along; deals a duplicate's tables; answers the routes."""

    def __init__(self, hub: Hub, *, clock: float = CLOCK, no_show: float = NO_SHOW, leave_after: float = LEAVE_AFTER,
                 arena_wait: float = ARENA_WAIT, every: float = TICK, minute: float = 60.0):
        self.hub = hub
        self.minute = minute  # an arena's minute in seconds (a test's are shorter)
        self.clock, self.no_show, self.leave_after = clock, no_show, leave_after
        self.arena_wait, self.every = arena_wait, every
        # (seats, game, rated, clock, holders {id, name} or None by seat, tournament, round) -> (table, links); the app's
        self.seat_room: Callable[..., tuple[str, list[str]]] | None = None
        self.task: asyncio.Task | None = None
        self.seeds: dict[str, tuple[str, str]] = {}  # tournament -> (kind, seed)
        self.rounds: dict[str, int] = {}  # a tournament's table -> its round
        self.gone: dict[tuple[str, int], float] = {}  # (table, seat) -> when its person was first seen gone
        # (tournament, whose: "entered" or "present") -> (the results shown and the players, their
        # standings): worked out again only when a result comes or a player joins or leaves (a
        # thousand players' take 0.1-0.5 s of CPU); the latest WORKED_OUT tournaments' kept
        self.worked_out: dict[tuple[str, str], tuple[tuple, list[dict]]] = {}

    @property
    def store(self):
        return self.hub.store.tournaments

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.tick()
            except Exception:  # (the store away: the next tick)
                log.exception("the tournaments' tick raised")

    # --- the hub's hooks -----------------------------------------------------------------------

    def advance(self, table: Table) -> bool:
        """A duplicate's table is dealt the round's deck orders, from the round's first dealer."""
        if not table.tournament or table.status not in (WAITING, BETWEEN):
            return False
        found = self._seed(table.tournament)
        if found is None or found[0] != "duplicate":
            return False
        round_ = self._round(table.id)
        if round_ is None:
            return False
        seed = found[1]
        if table.status == WAITING and all(table.joined) and table.match is None:
            self.hub.write(table, "match", {"first_dealer": dealer_for(seed, round_, table.seats)})
            self.hub.write(table, "deal", {"deck": deck_for(seed, round_, 0, table)})
            return True
        if table.status == BETWEEN and table.all_ready():
            self.hub.write(table, "deal", {"deck": deck_for(seed, round_, len(table.match.deals), table)})
            return True
        return False

    def _seed(self, tid: str) -> tuple[str, str] | None:
        if tid not in self.seeds:
            t = self.store.get(tid)
            if t is None:
                return None
            self.seeds[tid] = (t["kind"], t["seed"])
        return self.seeds[tid]

    def _round(self, table_id: str) -> int | None:
        if table_id not in self.rounds:
            found = self.store.of_table(table_id)
            if found is None:
                return None
            self.rounds[table_id] = found[1]
        return self.rounds[table_id]

    def unloaded(self, table_id: str, code: int, reason: str) -> None:
        self.rounds.pop(table_id, None)
        for key in [k for k in self.gone if k[0] == table_id]:
            del self.gone[key]

    # --- the tick ----------------------------------------------------------------------------------

    async def off(self, work: Callable, *args):
        """``work(*args)`` off the event loop where the store is used from threads (PostgreSQL's
        round trips), on it for SQLite (its one connection is the loop's), as ratings.py."""
        return await off_loop(self.hub.store, work, *args)

    async def tick(self) -> None:
        """Results of the tables ended, tournaments started, tables formed, tournaments finished,
        seats of the absent played by the computer. (The results' reads and replays off the
        loop; a step, which makes tables, on it.)"""
        now = self.hub.now()
        for tid, table_id in await self.off(self.store.ended):
            await self.record(tid, table_id, now)
        for tid in await self.off(self.store.due, now):
            try:
                await self.step(tid, now)
            except Exception:
                log.exception("tournament %s: its step raised", tid)
        self.absent(now)

    async def record(self, tid: str, table_id: str, now: float) -> None:
        tables = await self.off(self.store.tables, tid)
        row = next((t for t in tables if t["table"] == table_id), None)
        if row is None:
            return
        events = await self.off(self.hub.store.events, table_id)
        try:  # (a whole match replayed: in a thread, as Hub.stored does)
            result = await asyncio.to_thread(table_result, table_id, events, row["players"])
        except Exception:
            log.exception("tournament %s: the result of table %s could not be read", tid, table_id)
            return
        await self.off(self.store.set_result, table_id, result, now)

    async def step(self, tid: str, now: float) -> None:
        t = await self.off(self.store.get, tid)
        if t is None:
            return
        players = [p for p in await self.off(self.store.players, tid) if p["present"]]
        if t["status"] == "upcoming":
            if len(players) < 2:  # (nobody to play with: it ends unplayed)
                await self.off(lambda: self.store.set_status(tid, "upcoming", "finished", finished_at=now))
                return
            if not await self.off(self.store.set_status, tid, "upcoming", "running"):
                return
            t["status"] = "running"
            for p in players:
                await self.off(self.hub.store.people.ring, p["account"], "tournament",
                               {"tournament": tid, "game": t["game"], "started": True})
        tables = await self.off(self.store.tables, tid)
        still = [x for x in tables if x["result"] is None]
        forming = t["round"] and not any(x["round"] == t["round"] for x in tables)
        if t["kind"] == "arena":
            if now >= t["ends_at"]:
                if not still:
                    await self.off(self.finish, t, now)
            elif not forming:
                await self.seat_arena(t, players, tables, now)
            elif now - (t["round_at"] or 0.0) >= FORMING_STALE:
                await self.seat_arena(t, players, tables, now, again=True)
            # (else another process claimed this seating and is making its tables: seating the
            # players it seats again would put them at two tables at once)
            return
        if still:
            return
        if forming:
            # (claimed, and its tables never written: the process that claimed it was killed)
            if now - (t["round_at"] or 0.0) >= FORMING_STALE:
                await self.seat_round(t, players, tables, again=True)
            return
        if t["round"] >= t["rounds"] or len(players) < 2:
            await self.off(self.finish, t, now)
            return
        await self.seat_round(t, players, tables)

    async def seat_round(self, t: dict, players: list[dict], tables: list[dict], again: bool = False) -> None:
        """A Swiss's or a duplicate's next round (``again``: the round claimed and left without
        tables). The seating is searched in a thread (a second or so for 200 players): the tables
        play on meanwhile."""
        size = t["seats"]
        numbers = [p["number"] for p in players]
        last = t["round"] - 1 if again else t["round"]
        before = [[x["players"] for x in tables if x["round"] == r] for r in range(1, last + 1)]
        met = await self.blocked(players, meetings(before))
        if t["kind"] == "swiss":
            rows = await asyncio.to_thread(self.ranked, t, tables, numbers, "present")
            formed = await asyncio.to_thread(form_tables, swiss_order(rows, numbers), size, met)
        else:
            held: dict = {}
            for x in tables:
                for s, p in enumerate(x["players"]):
                    if p is not None:
                        held.setdefault(p, {}).setdefault(s, 0)
                        held[p][s] += 1
            formed = [seat_players(table, held) for table in await asyncio.to_thread(form_tables, numbers, size, met)]
        await self.seat(t, formed, players, t["round"] if again else last, last + 1)

    async def seat_arena(self, t: dict, players: list[dict], tables: list[dict], now: float,
                         again: bool = False) -> None:
        """The arena's free players at new tables: as many full tables as they make, those free
        longest first, by score; one left alone long enough plays with computers. (``again``:
        the seating claimed and left without tables by a killed process.)"""
        busy = {p for x in tables if x["result"] is None for p in x["players"] if p is not None}
        free_since: dict[int, float] = {}
        last: dict[int, list] = {}
        for x in tables:  # (in order: each player's latest table last)
            for p in x["players"]:
                if p is not None:
                    free_since[p] = x["ended_at"] or now
                    last[p] = x["players"]
        free = sorted((p for p in players if p["number"] not in busy),
                      key=lambda p: (free_since.get(p["number"], t["starts_at"]), p["number"]))
        size = t["seats"]
        take = len(free) // size * size
        if take == 0 and free and now - free_since.get(free[0]["number"], t["starts_at"]) >= self.arena_wait:
            take = len(free)
        if take == 0:
            return
        chosen = free[:take]
        rows = await asyncio.to_thread(self.ranked, t, tables, [p["number"] for p in players], "present")
        points = {r["player"]: r["points"] for r in rows}
        order = sorted((p["number"] for p in chosen), key=lambda n: (-points.get(n, 0.0), n))
        met = await self.blocked(chosen, {n: {q for q in last.get(n, []) if q is not None and q != n} for n in order})
        await self.seat(t, await asyncio.to_thread(form_tables, order, size, met), players, t["round"],
                        t["round"] if again else t["round"] + 1)

    async def blocked(self, players: list[dict], met: dict) -> dict:
        """``met`` with every two of ``players`` who block each other, either way (issue 58):
        seated apart where the numbers allow, as if they had met."""
        people = self.hub.store.people
        accounts = {p["account"]: p["number"] for p in players}
        if not await self.off(people.block_between, list(accounts)):
            return met
        for p in players:
            for other in await self.off(people.blocked_among, p["account"], list(accounts)):
                met.setdefault(p["number"], set()).add(accounts[other])
                met.setdefault(accounts[other], set()).add(p["number"])
        return met

    async def seat(self, t: dict, formed: list[list], players: list[dict], round_was: int, round_now: int) -> None:
        """Claim the round (one process forms it), make the formed tables (player numbers by
        seat, None a computer) and write them; each person is told on their bell. (The claim,
        the tables' rows and the bell items off the loop: a thousand players' round trips; the
        rooms on it, as the hub's.)"""
        if not await self.off(self.store.claim_round, t["id"], round_was, round_now, self.hub.now(), t["round_at"]):
            return  # (another process forms it)
        accounts = {p["number"]: {"id": p["account"], "name": p["name"]} for p in players}
        made = []
        for i, numbers in enumerate(formed):
            holders = [accounts.get(n) if n is not None else None for n in numbers]
            table_id, links = self.seat_room(t["seats"], t["game"], t["rated"], self.clock, holders, t["id"],
                                              round_now)
            made.append((i + 1, table_id, numbers, holders, links))
            self.rounds[table_id] = round_now
        await self.off(self.store.put_tables, t["id"], round_now, [(n, tid, nums) for n, tid, nums, _, _ in made])
        for number, table_id, numbers, holders, links in made:
            table = self.hub.tables.get(table_id)
            if table is not None and any(h is None for h in holders):
                with self.hub.atomic(table):
                    for seat, holder in enumerate(holders):
                        if holder is None:
                            self.hub.write(table, "fill", {"seat": seat, "level": self.hub.standin_level(table.game)})
                    self.hub.changed(table)
        await self.off(self.ring_seats, t["id"], t["game"], round_now, made)

    def ring_seats(self, tid: str, game: str, round_: int, made: list[tuple]) -> None:
        for number, _, _, holders, links in made:
            for holder, link in zip(holders, links):
                if holder is not None:
                    self.hub.store.people.ring(holder["id"], "tournament", {
                        "tournament": tid, "game": game, "round": round_, "table": number, "link": link})

    def finish(self, t: dict, now: float) -> None:
        if not self.store.set_status(t["id"], "running", "finished", finished_at=now):
            return
        for row in self.standings(t):
            if row.get("account"):
                self.hub.store.people.ring(row["account"], "tournament", {
                    "tournament": t["id"], "game": t["game"], "finished": True, "rank": row["rank"]})

    def absent(self, now: float) -> None:
        """The seats of this process's tournament tables whose person never came (``no_show``
        after the table was made) or is gone (``leave_after``): the computer plays them."""
        hub = self.hub
        for table in list(hub.tables.values()):
            if not table.tournament or table.status not in (WAITING, PLAYING, BETWEEN):
                continue
            here = hub.connected(table)
            late = []
            for seat in range(table.seats):
                key = (table.id, seat)
                if here[seat] or table.bots[seat] is not None:
                    self.gone.pop(key, None)
                    continue
                since = self.gone.setdefault(key, now)
                wait = self.no_show if not table.joined[seat] else self.leave_after
                if now - since >= wait:
                    late.append(seat)
            if not late:
                continue
            try:
                with hub.atomic(table):
                    for seat in late:
                        if not table.joined[seat]:
                            hub.write(table, "join", {"seat": seat})
                        hub.write(table, "takeover", {"seat": seat, "by": None, "level": hub.standin_level(table.game)})
                    hub.changed(table)
            except Exception:
                log.exception("table %s: the computer could not take the absent seats", table.id)

    # --- what the routes show ----------------------------------------------------------------------------

    def standings(self, t: dict, tables: list[dict] | None = None, players: list[dict] | None = None) -> list[dict]:
        """The standings with each player's name (and account, for this module only)."""
        tables = self.store.tables(t["id"]) if tables is None else tables
        players = self.store.players(t["id"]) if players is None else players
        by_number = {p["number"]: p for p in players}
        rows = [dict(row) for row in self.ranked(t, tables, list(by_number), "entered")]
        for row in rows:
            p = by_number.get(row["player"])
            row["number"] = row.pop("player")
            row["name"] = p["name"] if p else None
            row["account"] = p["account"] if p else None
            row["present"] = p["present"] if p else False
        return rows

    def ranked(self, t: dict, tables: list[dict], numbers: list[int], whose: str) -> list[dict]:
        """core/pairing.py's standings of the results shown and the players ``numbers`` (``whose``:
        "entered" or "present"): the last ones worked out while neither has changed (a result is
        written once, never changed). Not to be changed by the caller."""
        results = results_of(tables, t["kind"])
        key = (tuple((r.round, r.table) for r in results), tuple(numbers))
        found = self.worked_out.get((t["id"], whose))
        if found is None or found[0] != key:
            found = (key, standings(t["kind"], results, numbers))
            self.worked_out.pop((t["id"], whose), None)
            self.worked_out[(t["id"], whose)] = found  # (the latest last)
            while len(self.worked_out) > WORKED_OUT:
                self.worked_out.pop(next(iter(self.worked_out)), None)
        return found[1]

    def summary(self, t: dict) -> dict:
        out = {k: t[k] for k in ("id", "game", "seats", "kind", "status", "rounds", "round", "rated", "public")}
        out |= {"starts": t["starts_at"], "ends": t["ends_at"], "players": t["entries"],
                "link": f"/tournament/{t['id']}"}
        return out

    def view(self, t: dict, account: str | None) -> dict:
        tables = self.store.tables(t["id"])
        players = self.store.players(t["id"])
        rows = self.standings(t, tables, players)
        names = {p["number"]: p["name"] for p in players}
        open_rounds = {x["round"] for x in tables if x["result"] is None}
        tokens = self.hub.store.people.watch_tokens([x["table"] for x in tables])
        rounds: dict[int, list] = {}
        mine = None
        number = next((p["number"] for p in players if account and p["account"] == account), None)
        for x in tables:
            hidden = t["kind"] == "duplicate" and x["round"] in open_rounds
            rounds.setdefault(x["round"], []).append({
                "table": x["number"], "names": [names.get(p, "a former player") if p is not None else None
                                                for p in x["players"]],
                "done": x["result"] is not None,
                # (a duplicate's table is watched once its round is over: the others play its cards)
                "watch": f"/w/{tokens[x['table']]}" if x["table"] in tokens and not hidden else None})
            if number is not None and x["result"] is None and number in x["players"]:
                token = self.hub.store.people.seat_link_at(x["table"], account)
                mine = f"/t/{token}" if token else None
        out = self.summary(t)
        out["players"] = [{k: r[k] for k in r if k != "account"} for r in rows]
        out["rounds"] = [{"round": r, "tables": v} for r, v in sorted(rounds.items())]
        out["podium"] = [{"name": r["name"], "rank": r["rank"]} for r in rows if r["rank"] <= 3] \
            if t["status"] == "finished" else None
        out["joined"] = number is not None
        out["seat"] = mine
        return out

    async def records(self, t: dict) -> str:
        """Each finished match's record (docs/records.md), with its round, table and players:
        the streams read from the store, the matches replayed in a thread."""
        tables = await self.off(self.store.tables, t["id"])
        players = {p["number"]: p["name"] for p in await self.off(self.store.players, t["id"])}
        shown = {(r.round, r.table) for r in results_of(tables, t["kind"])}
        tables = [x for x in tables if (x["round"], x["number"]) in shown]
        streams = [await self.off(self.hub.store.events, x["table"]) for x in tables]
        return await asyncio.to_thread(records_text, t, tables, players, streams)


def records_text(t: dict, tables: list[dict], players: dict, streams: list) -> str:
    lines = []
    for x, events in zip(tables, streams):
        record = match_record(stored_table(x["table"], events).matches[0])
        record["meta"] = {"tournament": t["id"], "kind": t["kind"], "round": x["round"], "table": x["number"],
                          "players": [{"seat": s, "player": p, "name": players.get(p) if p is not None else None,
                                       "computer": p is None, "absent": x["result"][s]["absent"]}
                                      for s, p in enumerate(x["players"])]}
        lines.append(dumps(record))
    return "".join(line + "\n" for line in lines)


# --- the routes (app.create_app mounts them) ---------------------------------------------------


def routes(of: Callable[[], Tournaments], read_body, client_address, spend: Callable[..., Awaitable[bool]],
           games: Callable[[], tuple[str, ...]], paused: Callable[[str], dict | None]) -> list:
    """The routes of docs/protocol.md, "Tournaments". ``spend(kind, key, limits)``: a budget kept
    for the site (False: a 429); ``paused(account)``: the refusal of a rated seat, or None."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route

    from .core.sessions import signed_in

    headers = {"Cache-Control": "no-store"}

    def error(text: str, status: int) -> JSONResponse:
        return JSONResponse({"error": text}, status_code=status, headers=headers)

    def me(request: Request) -> dict | None:
        return signed_in(of().hub.store.people, request)

    async def run(work: Callable, *args):
        return await off_loop(of().hub.store, work, *args)

    async def looked(request: Request) -> bool:
        return await spend("tournaments-looking", client_address(request) or "?", LOOKING_PER_ADDRESS)

    async def listing(request: Request):
        if not await looked(request):
            return error(TOO_MANY, 429)
        t = of()
        out = {status: [t.summary(x) for x in await run(t.store.listed, status, LISTED)]
               for status in ("upcoming", "running", "finished")}
        return JSONResponse(out, headers=headers)

    async def create(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        body = await read_body(request, NewTournament)
        if isinstance(body, Response):
            return body
        if (why := check_new(body, games())) is not None:
            return error(why, 400)
        if not await spend("tournaments-made", account["id"], MAKING_PER_ACCOUNT) or \
                not await spend("tournaments-made-address", client_address(request) or "?", MAKING_PER_ADDRESS):
            return error(TOO_MANY, 429)
        if body.rated and (refused := paused(account["id"])):
            return JSONResponse(refused, status_code=403, headers=headers)
        t = of()
        if await run(t.store.made_since, account["id"], time.time() - 24 * 3600) >= MADE_PER_DAY:
            return error(MADE_ENOUGH, 429)
        made = await run(make, t.hub.store, body, account["id"], t.hub.now(), t.minute)
        return JSONResponse(made, status_code=201, headers=headers)

    async def found(request: Request) -> dict | None:
        tid = request.path_params["id"]
        return None if len(tid) > 40 else await run(of().store.get, tid)

    async def one(request: Request):
        if not await looked(request):
            return error(TOO_MANY, 429)
        t = await found(request)
        if t is None:
            return error(NO_SUCH_TOURNAMENT, 404)
        account = me(request)
        return JSONResponse(await run(of().view, t, account and account["id"]), headers=headers)

    async def join(request: Request):
        account = me(request)
        if account is None:
            return error(SIGNED_OUT, 401)
        if not await spend("tournaments-joining", account["id"], JOINING_PER_ACCOUNT) or \
                not await spend("tournaments-joining-address", client_address(request) or "?", JOINING_PER_ADDRESS):
            return error(TOO_MANY, 429)
        t = await found(request)
        if t is None:
            return error(NO_SUCH_TOURNAMENT, 404)
        store = of().store
        if request.method == "DELETE":
            if not await run(store.leave, t["id"], account["id"], t["status"] == "upcoming"):
                return error(NOT_ENTERED, 404)
            return Response(status_code=204, headers=headers)
        if t["status"] == "finished":
            return error(FINISHED, 409)
        if t["status"] == "running" and t["kind"] == "duplicate" and \
                account["id"] not in [p["account"] for p in await run(store.players, t["id"])]:
            return error(STARTED, 409)
        if t["rated"] and (refused := paused(account["id"])):
            return JSONResponse(refused, status_code=403, headers=headers)
        number = await run(store.join, t["id"], account["id"], MOST_PLAYERS)
        if number == "full":
            return error(FULL, 409)
        return JSONResponse({"id": t["id"], "number": number, "status": t["status"]}, headers=headers)

    async def records(request: Request):
        if not await looked(request):
            return error(TOO_MANY, 429)
        t = await found(request)
        if t is None:
            return error(NO_SUCH_TOURNAMENT, 404)
        body = await of().records(t)
        return PlainTextResponse(body, media_type="application/x-ndjson", headers=headers)

    return [Route("/api/tournaments", listing, methods=["GET"]),
            Route("/api/tournaments", create, methods=["POST"]),
            Route("/api/tournaments/{id}", one),
            Route("/api/tournaments/{id}/join", join, methods=["POST", "DELETE"]),
            Route("/api/tournaments/{id}/records", records)]
