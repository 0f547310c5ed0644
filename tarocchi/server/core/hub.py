"""The live side of the tables: sockets, bots and the order of things.

Every change goes the same way: check it (the table or the engine says why not), apply its
event to the table and stage it for the store, then tell the seats and wake the bots. A
request is one unit: if applying any of its events raises (code that cannot take it), all of
them are unstaged and the table is rebuilt as it was (``atomic``), so nothing is stored that
the table cannot apply. A table whose stream cannot be replayed is broken: it stays alone,
unloaded, its links say so, and every other table goes on (``_load``). The
events staged in one turn of the event loop are committed together at the end of that turn
(a group commit: one transaction, not one per action), and no frame leaves the server while
an event is staged but not committed: every socket's writer waits for the commit. So nothing
is acknowledged or broadcast before it is stored. The hub runs on one event loop, so a check
and its event never interleave with another request.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
import random
import secrets
import threading
import time
from concurrent.futures import Executor, ThreadPoolExecutor

from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from tarocchi.bots import DEFAULT_LEVEL, levels_for, make_player
from tarocchi.engine.game import DEFAULT, Game, get_game, reason_id
from tarocchi.engine.playout import random_action

from .features import CLOSE_MOVED, HOOKS, MOVED, Elsewhere, Feature, Leases, Spectators
from .messages import (
    CHAT_BURST, CHATS_PER_SECOND, CLOSE_REPLACED, CLOSE_TOO_MANY, CLOSE_TOO_SLOW, HELLO_BURST, HELLO_TIMEOUT,
    HELLOS_PER_SECOND, REPLACED, SOCKETS_PER_SEAT, TOO_MANY_CHATS, TOO_MANY_HELLOS, TOO_SLOW, Act, Budget, Chat,
    Hello, History, Message, Name, Next, Rematch, Start, Takeover, Visible,
)
from .store import Store, address_key
from .store.people import NEUTRAL_NAME, Ended, Player, forget_sitter, name_key, neutral
from .tables import (
    BETWEEN, CHAT_KEPT, COMPUTER_NAMES, COMPUTER_PLAYS, NEXT_DEAL, OVER, PLAYING, QUICK_NAMES, ROOM_NAMES, WAITING,
    WATCH_SEAT, Table, chat_line, new_watch_token, plain_name, replay, shuffled_deck,
)
from .tables import encode_json as _encode

log = logging.getLogger("tarocchi.server")

UNKNOWN_LINK = "unknown link: this seat does not exist"
LEFT_OUT = "the room started with three seats without this one"  # R17 (rule ids are for developers)
SAY_HELLO = "say hello first"
NOT_ANSWERED = "this server does not answer that request"
CLOSE_UNKNOWN = 4404
CLOSE_NOT_STORED = 1011
NOT_STORED = "the server could not store the last change: reconnect to carry on"
SERVER_ERROR = "the server could not send this seat its state: reconnect to carry on"
SERVER_FAILED = "the server could not do that; nothing changed"
CLOSE_BROKEN = 4410
BROKEN = "this table could not be restored after a problem on the server; the other tables are not affected"
FALLBACK_LEVEL = "rule"  # who plays a seat whose bot raised or gave an illegal action
# The games the web table offers: those whose screens the client has. The hub hosts any
# registered game; a game joins this list when its table is built (Calabresella's auction and
# monte screens come with issue 13).
TABLE_GAMES = ("sicilian", "renaissance", "calabresella", "ottocento")
# The message kinds the core answers itself; a feature answers the others it names (plug).
CORE_MESSAGES = (Hello, Act, Chat, History, Name, Rematch, Next, Takeover, Start)
WAKE_EVERY = 30.0  # seconds between two looks for the sleeping tables due (issue 41)

# What a person who came for a computer's seat mid-deal may ask until the deal ends (the rest is
# refused with NEXT_DEAL; an act, with COMPUTER_PLAYS, as for any seat a computer plays).
WHILE_WATCHING = (Hello, History, Name, Act, Visible)

_players = threading.local()  # one player per level per worker thread or process


def decide(game: str, level: str, view: dict) -> str:
    """A bot's action for ``view``; runs in the executor (a thread or another process)."""
    cache = getattr(_players, "cache", None)
    if cache is None:
        cache = _players.cache = {}
    if (game, level) not in cache:
        cache[game, level] = make_player(level, game=game)
    return cache[game, level](view)


class Connection:
    """One socket of one seat. Frames go out through a queue and one writer task, so a slow
    socket never holds up the table; queued states collapse into one, sent at its latest."""

    STATE = object()
    MAX_QUEUED = 500  # frames waiting for a socket that does not read: past this it is closed
    watching = False  # a spectator's socket (watch.py): no seat, the spectator's projection

    def __init__(self, websocket, table: Table, room_seat: int, token: str | None = None,
                 address: str | None = None, account: dict | None = None, device: str | None = None):
        self.websocket = websocket
        self.table = table
        self.room_seat = room_seat
        self.token = token  # the link it was opened with: checked again at each hello (a claim may replace it)
        # The client's address (the peer's, or the one a trusted proxy forwards, or the one a
        # relay sent with the socket); None where it is not known. Advice is budgeted by it.
        self.address = address
        # The account the socket was opened signed in to ({id, name}), or None: its seat is
        # that account's for rating, if no account sat there before (issue 56, ``sit``).
        self.account = account
        self.device = device  # the browser it came from, as a key (sessions.device_of), or None
        self.greeted = False
        self.sent_version = 0
        # A plain deque and one future to wake the writer: asyncio.Queue does more per frame,
        # and every action sends a frame to every seat.
        self.queue: collections.deque = collections.deque()
        self.wake: asyncio.Future | None = None  # set while the writer waits for a frame
        self.state_pending = False
        self.closing = False
        self.aborted = False  # the table was dropped: nothing more is sent but the close

    @property
    def seat(self) -> int | None:
        """The playing seat (a room started with three renumbers its seats, R17); None for a
        spectator."""
        return None if self.watching else self.table.seat_map[self.room_seat]

    def send(self, message: dict | bytes) -> None:
        """Queue a message, or a frame already encoded (bytes) when many sockets get it."""
        self._put(message)

    def push_state(self) -> None:
        if not self.state_pending:
            self.state_pending = True
            self._put(Connection.STATE)

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self._queue(("close", code, reason))

    def abort(self, code: int, reason: str) -> None:
        """Close without sending what is still queued (it may tell of events never stored)."""
        self.aborted = True
        self.close(code, reason)

    def _put(self, item) -> None:
        """Queue a frame; a socket that has fallen this far behind is closed instead, so one
        reader that never reads cannot make the server's memory grow."""
        if self.closing:
            return
        if len(self.queue) >= self.MAX_QUEUED:
            self.close(CLOSE_TOO_SLOW, TOO_SLOW)
            return
        self._queue(item)

    def _queue(self, item) -> None:
        self.queue.append(item)
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)

    async def write_loop(self, hub: Hub) -> None:
        # (One coroutine, not a loop inside a guard: a writer resumes with every frame it sends,
        # and each level of coroutines costs each resumption.)
        loop = asyncio.get_running_loop()
        try:
            while True:
                if not self.queue:
                    self.wake = loop.create_future()
                    await self.wake
                    continue
                while hub.staged or hub.committing:  # nothing leaves before the events applied so far are committed
                    await hub.committed.wait()
                item = self.queue.popleft()
                if isinstance(item, tuple):
                    await self.websocket.close(item[1], item[2])
                    return
                if self.aborted:
                    continue
                if item is Connection.STATE:
                    self.state_pending = False
                    if not self.watching and self.seat is None:
                        continue  # left out when the room started with three (R17): closing
                    version, frame = self.table.version, self.state_frame(hub)
                    self.sent_version = version
                    await self.websocket.send_text(stamped(frame, hub.now()))
                elif isinstance(item, bytes):
                    await self.websocket.send_text(item.decode())
                else:
                    await self.websocket.send_text(_encode(item).decode())
        except (WebSocketDisconnect, WebSocketDisconnected):
            # The page went away while a frame was on its way: nothing is wrong with the server.
            log.info("table %s seat %s: the socket closed while a frame was being sent", self.table.id, self.room_seat)
        except Exception:
            # A frame that cannot be made must not leave the socket open and silent forever:
            # the page reconnects and gets its state again.
            log.exception("could not send a frame to table %s seat %s", self.table.id, self.room_seat)
            with contextlib.suppress(Exception):
                await self.websocket.close(CLOSE_NOT_STORED, SERVER_ERROR)

    def state_frame(self, hub: Hub) -> bytes:
        """This socket's state frame: its seat's projection (a spectator's socket has its own,
        ``Spectators.connection``)."""
        return hub.state_frame(self)


def stamped(frame: bytes, now: float) -> str:
    """A state frame (encoded once for the seats of a version, and kept) with the server's wall
    clock as it leaves, ``now``: a page counts the table's deadlines down against it, not
    against its own clock, which may be minutes wrong (a phone set by hand)."""
    return (b'{"now":%.3f,%b' % (now, frame[1:])).decode()


class SeatLink:
    """What one seat link may still cost, whichever of its sockets asks, and its open
    sockets, oldest first (at most SOCKETS_PER_SEAT: a new one closes the oldest)."""

    def __init__(self):
        self.hellos = Budget(HELLO_BURST, HELLOS_PER_SECOND)  # hellos and history requests replay the past
        self.chat = Budget(CHAT_BURST, CHATS_PER_SECOND)  # a chat line goes to every socket
        self.sockets: list[Connection] = []


class Chance:
    """Where the tables' luck comes from: each match's first dealer (R4) and each deck order
    (R3). The server draws from SystemRandom; a test may pass a seeded or scripted one to
    ``create_app`` (its only use)."""

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng or random.SystemRandom()

    def first_dealer(self, table: Table) -> int:
        return self.rng.randrange(table.seats)

    def deck(self, table: Table) -> list[str]:
        return shuffled_deck(self.rng, table.game)


STORED_KEPT = 32  # tables read from their streams kept at once (Hub.stored)


@dataclasses.dataclass
class StoredTable:
    """A table as its stored stream leaves it, and each match it played, in order."""
    table: Table
    matches: list  # every Match of the table: the current one last


def stored_table(table_id: str, events: list[tuple[int, str, dict]]) -> StoredTable:
    """Replay the stream with the server's own ``Table``, keeping each match as it ends or is
    replaced by the next (a rematch)."""
    table = replay(table_id, events[:1])
    matches: list = []
    for version, kind, data in events[1:]:
        table.apply_event(version, kind, data)
        if table.match is not None and (not matches or matches[-1] is not table.match):
            matches.append(table.match)
    return StoredTable(table, matches)


class BrokenTable(Exception):
    """The table a link opens could not be restored from its stream (``Hub.broken``)."""


class Hub:
    """The core: tables, their streams and units of work, their sockets, the bots' driving.
    It knows no feature: the app plugs them in (``plug``, core/features.py)."""

    def __init__(self, store: Store, executor: Executor, *, bot_delay: float = 1.0,
                 trick_pause: float = 1.0, bot_level_default: str = DEFAULT_LEVEL,
                 away_timeout: float = 60.0, chance: Chance | None = None,
                 hello_timeout: float = HELLO_TIMEOUT, games: tuple[str, ...] = TABLE_GAMES,
                 wake_every: float = WAKE_EVERY):
        """``executor``: where the tables' computers think (and the turn clock's stand-in);
        ``wake_every``: how often the store is asked for sleeping tables due (issue 41)."""
        self.wake_every = wake_every
        self.waker: asyncio.Task | None = None
        self.store = store
        self.executor = executor
        self.bot_delay = bot_delay
        self.trick_pause = trick_pause
        self.bot_level_default = bot_level_default
        self.chance = chance or Chance()
        self.now = time.time  # the wall clock of deadlines and frames (a test gives its own)
        self.tables: dict[str, Table] = {}
        self.connections: dict[str, list[Connection]] = {}
        self.links: dict[str, dict[int, SeatLink]] = {}  # table -> room seat -> its link
        self.hello_timeout = hello_timeout  # seconds a new socket has to say hello
        self.games = games  # the games new tables may be of
        self.bot_tasks: dict[str, asyncio.Task] = {}
        # Tables whose stream does not replay (or whose next step raises): id -> why. Kept
        # until a restart, untouched in the store for the operator (docs/operations.md).
        self.broken: dict[str, str] = {}
        # (table, seat) -> the level playing it since its own bot raised or gave an illegal
        # action (in memory: after a restart the seat's bot is tried again).
        self.fallback: dict[tuple[str, int], str] = {}
        # A room seat away this long (seconds) may be handed to the computer by the others.
        self.away_timeout = away_timeout
        self.away_since: dict[tuple[str, int], float] = {}  # (table, seat) -> loop time it left
        self.away_timers: dict[str, asyncio.TimerHandle] = {}
        self.presence: dict[str, tuple[list[bool], list[bool]]] = {}  # see _presence
        self.started_at = 0.0
        # The group commit: events applied but not yet stored, the tables whose match they
        # ended, and the commit at the end of this loop turn (see write and _commit).
        self.staged: list[tuple[str, int, str, dict]] = []
        self.finished: list[str] = []
        self.reopened: list[str] = []  # finished tables whose seats begin another match
        self.ended: list[Ended] = []  # the matches that end with the staged events (store/people.py)
        self.committed = asyncio.Event()  # set whenever nothing is staged or being stored
        self.committed.set()
        self._commit_soon: asyncio.Handle | None = None
        # A store whose commits may run off the event loop (PostgreSQL: a commit waits for the
        # database's disk, and every table would wait with it) commits in a thread of its own,
        # one batch at a time; ``committing`` is the batch on its way. SQLite commits in
        # microseconds, on the loop.
        self.committing: list[tuple[str, int, str, dict]] = []
        self.store_thread = (ThreadPoolExecutor(1, thread_name_prefix="commit")
                             if getattr(store, "commits_off_loop", False) else None)
        # The features plugged in (core/features.py), in order; who handles which message kind
        # (the core's own: ``_handle``); who serves the watch links; who says where a table runs.
        self.features: list[Feature] = []
        # Per hook, the features that override it: the hooks run after every action of every
        # table, and most features leave most of them as they are.
        self.hooked: dict[str, list[Feature]] = {name: [] for name in HOOKS}
        self.handlers: dict[type, Feature] = {}
        self.spectators: Spectators | None = None
        self.leases: Leases | None = None
        self.stored_tables: collections.OrderedDict[str, tuple[list, StoredTable]] = collections.OrderedDict()

    def plug(self, feature: Feature) -> Feature:
        """Plug a feature in (the app does, in one place): its hooks are called from now on,
        and it answers the message kinds it names, each kind one module's alone."""
        for kind in feature.handles:
            if kind in self.handlers or kind in CORE_MESSAGES:
                raise ValueError(f"{kind.__name__} is handled already")
            self.handlers[kind] = feature
        if isinstance(feature, Spectators):
            self.spectators = feature
        if isinstance(feature, Leases):
            self.leases = feature
        self.features.append(feature)
        for name, features in self.hooked.items():
            if getattr(type(feature), name) is not getattr(Feature, name):
                features.append(feature)
        return feature

    # --- start and stop ---------------------------------------------------------------------

    def start(self) -> None:
        """Rebuild every unfinished table from its stream, and let its bots carry on. A table
        that cannot be rebuilt, or whose next step raises, is left broken; the rest start."""
        self.started_at = asyncio.get_running_loop().time()  # nobody is here yet: away since now
        for table_id in self.store.unfinished():
            self.resume(table_id)
        if self.store.sleepers.count():
            self._start_waker()

    def _start_waker(self) -> None:
        """The waker runs once any table sleeps (none on a server without correspondence)."""
        if self.waker is None:
            self.waker = asyncio.get_running_loop().create_task(self._wake_due())

    async def _wake_due(self) -> None:
        """Wake the sleeping tables whose time has come (``unload_if_idle``), every
        ``wake_every`` seconds: each is loaded, and carries on (its clock plays)."""
        while True:
            await asyncio.sleep(self.wake_every)
            try:
                due = self.store.sleepers.due(self.now())
            except Exception:  # (the store away: the next round)
                log.exception("could not ask the store for the tables to wake")
                continue
            for table_id in due:
                if table_id not in self.tables:
                    self.resume(table_id)
                    if table_id not in self.tables and table_id not in self.broken:
                        continue  # (another process of the site drives it: it wakes it)
                with contextlib.suppress(Exception):
                    self.store.sleepers.wake(table_id)

    def resume(self, table_id: str) -> None:
        """Load an unfinished table (unless another process drives it) and carry it on."""
        try:
            table = self._load(table_id)
        except Elsewhere:
            return
        if table is None:
            return
        try:
            with self.atomic(table):
                self._advance(table)
        except Exception as e:
            self.unload(table_id)
            self._mark_broken(table_id, f"its next step raises {type(e).__name__}: {e}")
            return
        self._wake_bots(table)
        for feature in self.hooked["changed"]:
            feature.changed(table)

    def let_go(self, table_id: str) -> None:
        """Another process drives the table now (its lease was taken): forget it here, its
        pages reconnecting to the owner, without giving back a lease this process lost."""
        for conn in self.connections.get(table_id, []):
            conn.abort(CLOSE_MOVED, MOVED)
        self.unload(table_id, release=False)

    async def stop(self) -> None:
        if self.waker is not None:
            self.waker.cancel()
        for timer in self.away_timers.values():
            timer.cancel()
        tasks = [t for t in self.bot_tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for feature in self.features:
            await feature.stop()
        if self._commit_soon is not None:
            self._commit_soon.cancel()
            self._commit()
        while self.staged or self.committing:
            await self.committed.wait()
        if self.store_thread is not None:
            self.store_thread.shutdown()
        if self.leases is not None:  # let the others take this process's tables at once
            for table_id in list(self.tables):
                with contextlib.suppress(Exception):
                    self.leases.release(table_id)

    def _load(self, table_id: str) -> Table | None:
        """The table in memory, rebuilt from its stream if need be; None if it is broken;
        Elsewhere if another process drives it (a site of several)."""
        table = self.tables.get(table_id)
        if table is None and self.leases is not None:
            self.leases.acquire(table_id)  # (Elsewhere if another process drives it)
        if table is None and table_id not in self.broken:
            try:
                table = self.tables[table_id] = replay(table_id, self.store.events(table_id) + self._pending(table_id))
            except ValueError as e:  # BrokenStream, or a row that is not JSON
                self._mark_broken(table_id, str(e))
            if table is not None and table.correspondence:
                self.store.sleepers.wake(table_id)  # (in memory now: awake, whoever woke it)
        return table

    async def stored(self, table_id: str) -> StoredTable:
        """The table as its stored stream leaves it, with every match it played (any process of a
        site may read it: only committed events are there), kept by stream length for the
        tables asked about lately; replayed in a thread, not on the loop every table shares.
        ValueError for a stream that does not replay."""
        events = self.store.events(table_id)  # (on the loop: the store is used from it)
        kept = self.stored_tables.get(table_id)
        # The same events, not only as many: a deleted account's name leaves stored events
        # (issue 55), on any process of a site.
        if kept is not None and kept[0] == events:
            self.stored_tables.move_to_end(table_id)
            return kept[1]
        found = await asyncio.to_thread(stored_table, table_id, events)
        self.stored_tables[table_id] = (events, found)
        while len(self.stored_tables) > STORED_KEPT:
            self.stored_tables.popitem(last=False)
        return found

    def _mark_broken(self, table_id: str, reason: str) -> None:
        if table_id not in self.broken:
            log.error("table %s could not be restored and is left alone: %s (its stream is kept "
                      "untouched; tarocchi check-db lists it)", table_id, reason)
        self.broken[table_id] = reason

    # --- new tables ---------------------------------------------------------------------------

    def default_level(self, game: Game) -> str:
        """The computer table's level when none is asked for: the server's default where the
        game has it, else the game's strongest."""
        levels = list(levels_for(game.name))
        return self.bot_level_default if self.bot_level_default in levels else levels[-1]

    @staticmethod
    def standin_level(game: Game) -> str:
        """Who plays for an away human: "rule" where the game has it (quick and sound)."""
        levels = list(levels_for(game.name))
        return "rule" if "rule" in levels else levels[-1]

    def new_computer(self, seats: int, level: str | None = None, game: str = DEFAULT,
                     settings: dict | None = None) -> tuple[str, str]:
        """A computer table: the human at seat 0, bots in the others. (table id, token).
        ``settings``: a feature's, stored in its creation (a lesson's name: lessons.py)."""
        rules = self._game(game, seats)
        level = level or self.default_level(rules)
        if level not in levels_for(rules.name):
            raise ValueError(f"unknown level {level!r} for {rules.title}; known: {', '.join(levels_for(rules.name))}")
        table_id, tokens = self._create(rules, "computer", COMPUTER_NAMES[:seats], [None] + [level] * (seats - 1),
                                        settings)
        return table_id, tokens[0]

    def new_room(self, seats: int, game: str = DEFAULT, settings: dict | None = None) -> tuple[str, list[str]]:
        """A room: every seat human, one link each. (table id, tokens by seat). ``settings``:
        the lobby's (public, clock, ...: lobby.Lobby.new_room), stored in its creation. A
        Play now table (``quick``) has no host: its seats are players'."""
        names = QUICK_NAMES if (settings or {}).get("quick") else ROOM_NAMES
        return self._create(self._game(game, seats), "room", names[:seats], [None] * seats, settings)

    def _game(self, name: str, seats: int) -> Game:
        if name not in self.games:
            raise ValueError(f"unknown game {name!r}; the table offers {', '.join(self.games)}")
        game = get_game(name)
        if seats not in game.seats:
            raise ValueError(f"{game.title} is played at {' or '.join(map(str, game.seats))} seats")
        return game

    def _create(self, game: Game, kind: str, names: list[str], bots: list[str | None],
                settings: dict | None = None) -> tuple[str, list[str | None]]:
        table_id = secrets.token_urlsafe(9)
        # 192 bits: a capability. A bot seat gets none: nobody may act for it from outside.
        tokens = [secrets.token_urlsafe(24) if b is None else None for b in bots]
        watch = new_watch_token()  # the table's public link (its spectators', where they are served)
        created = {"game": game.name, "kind": kind, "seats": len(names), "names": names, "bots": bots,
                   "options": game.options().to_json(), "watch": watch, **(settings or {})}
        self.store.create_table(table_id, kind, tokens, created, more=[(WATCH_SEAT, watch)])
        if self.leases is not None:
            self.leases.acquire(table_id, new=True)  # a new id: nobody else has it
        self.tables[table_id] = Table(table_id, created)
        return table_id, tokens

    # --- sockets --------------------------------------------------------------------------------

    def find(self, token: str) -> tuple[Table, int] | None:
        """The table and room seat a token opens, or None; BrokenTable if that table could
        not be restored."""
        found = self.store.seat_of(token)
        if found is None:
            return None
        table_id, room_seat = found
        table = self._load(table_id)
        if table is None:
            raise BrokenTable(table_id)
        if table.kind == "computer" and room_seat not in (0, WATCH_SEAT):
            return None  # a bot's token from an older database: it opens nothing
        return table, room_seat

    def attach(self, conn: Connection) -> None:
        self.connections.setdefault(conn.table.id, []).append(conn)
        sockets = self.link(conn).sockets
        sockets.append(conn)
        if len(sockets) > SOCKETS_PER_SEAT:  # a reload storm on one link ends with the oldest
            oldest = sockets.pop(0)
            oldest.send({"type": "error", "reason": REPLACED})
            oldest.close(CLOSE_REPLACED, REPLACED)

    def revoke(self, table_id: str, room_seat: int) -> None:
        """A seat's link was made anew (handed out from the lobby): the sockets this process
        holds on the old one close now (a hello on any other is refused: ``_hello``)."""
        for conn in list(self.connections.get(table_id, [])):
            if conn.room_seat == room_seat:
                conn.send({"type": "error", "reason": UNKNOWN_LINK})
                conn.close(CLOSE_UNKNOWN, UNKNOWN_LINK)

    def link(self, conn: Connection) -> SeatLink:
        links = self.links.setdefault(conn.table.id, {})
        link = links.get(conn.room_seat)
        if link is None:
            link = links[conn.room_seat] = SeatLink()
        return link

    def detach(self, conn: Connection) -> None:
        conns = self.connections.get(conn.table.id, [])
        if conn in conns:
            conns.remove(conn)
            sockets = self.link(conn).sockets
            if conn in sockets:
                sockets.remove(conn)
            if not conns and (conn.table.status == OVER or conn.table.correspondence):  # (asleep: issue 41)
                # After this turn's commit, so a page that opens it again meanwhile finds it
                # whole, in memory or in the store.
                asyncio.get_running_loop().call_soon(self.unload_if_idle, conn.table)
            if conn.greeted:
                seat = conn.seat
                if seat is not None and not self.connected(conn.table)[seat]:
                    self.away_since[(conn.table.id, seat)] = asyncio.get_running_loop().time()
                self._tell_all(conn.table)
                for feature in self.hooked["changed"]:  # who is here has changed (the lobby lists it, issue 38)
                    feature.changed(conn.table)

    def state_frame(self, conn: Connection) -> bytes:
        """The state frame for a socket: its seat's projection and the events it has not had."""
        table = conn.table
        presence = self.presence.get(table.id) or self._presence(table)
        return table.state_frame(conn.seat, conn.sent_version, *presence)

    def _presence(self, table: Table) -> tuple[list[bool], list[bool]]:
        """Who is connected, and which seats the others may hand to the computer. Kept from
        one telling of the seats to the next (every change of either tells them), so the
        frames to the seats of one version do not work it out again."""
        connected = self.connected(table)
        presence = self.presence[table.id] = (connected, self._takeover_open(table, connected))
        return presence

    def connected(self, table: Table) -> list[bool]:
        out, seat_map = [False] * table.seats, table.seat_map
        for c in self.connections.get(table.id, ()):
            if c.greeted and not c.watching and (seat := seat_map[c.room_seat]) is not None:
                out[seat] = True
        return out

    def _tell_all(self, table: Table) -> None:
        connected, _ = self._presence(table)
        seat_map = table.seat_map
        for c in self.connections.get(table.id, ()):
            if c.greeted and not c.watching and seat_map[c.room_seat] is not None:
                c.push_state()
        for feature in self.hooked["told"]:
            feature.told(table)
        self._arm_away_timer(table, connected)

    # --- away seats ---------------------------------------------------------------------------------

    def _away_for(self, table: Table, seat: int, connected: list[bool]) -> float | None:
        """How long the human of a room seat has been away, or None (here, or not a human's)."""
        if table.kind != "room" or connected[seat] or table.bots[seat] is not None:
            return None
        since = self.away_since.get((table.id, seat), self.started_at)
        return asyncio.get_running_loop().time() - since

    def _takeover_open(self, table: Table, connected: list[bool]) -> list[bool]:
        """The seats the others may now hand to the computer (away for the room's time)."""
        if table.kind != "room" or all(connected) or table.status not in (PLAYING, BETWEEN):
            return [False] * table.seats
        out = []
        for s in range(table.seats):
            away = self._away_for(table, s, connected)
            out.append(away is not None and away >= self.away_timeout)
        return out

    def _arm_away_timer(self, table: Table, connected: list[bool]) -> None:
        """Tell the seats again when the next away seat's time runs out (its button appears).
        The timer is made anew each time the seats are told: keeping one that looked pending
        lost a seat's time when the one kept was the timer firing at that moment, or was set
        for a seat that has come back since (issue 10)."""
        timer = self.away_timers.pop(table.id, None)
        if timer is not None:
            timer.cancel()
        if table.kind != "room" or all(connected) or not any(connected) or table.status not in (PLAYING, BETWEEN):
            return
        left = [self.away_timeout - a for s in range(table.seats)
                if (a := self._away_for(table, s, connected)) is not None and a < self.away_timeout]
        if left:
            self.away_timers[table.id] = asyncio.get_running_loop().call_later(
                min(left) + 0.01, self._tell_all, table)

    # --- messages ---------------------------------------------------------------------------------

    def handle(self, conn: Connection, message: Message) -> None:
        """One message of a socket, as one unit: if anything it changes raises, none of it is
        stored and the table is as it was; the sender is told so."""
        if conn.aborted:
            return  # its table was dropped (an event could not be stored): the socket is closing
        table = conn.table
        try:
            with self.atomic(table):
                self._handle(conn, message)
        except Exception:
            log.exception("table %s: a %s raised; undone, nothing of it stored", table.id, type(message).__name__)
            if not conn.aborted:
                self.refuse(conn, getattr(message, "id", None), SERVER_FAILED)
                if conn.greeted:
                    conn.push_state()

    def _handle(self, conn: Connection, message: Message) -> None:
        if isinstance(message, Hello):
            return self._hello(conn, message)
        if not conn.greeted:
            return conn.send({"type": "error", "reason": SAY_HELLO})
        table, seat = conn.table, conn.seat
        if seat is not None and table.arrived[seat] and not isinstance(message, WHILE_WATCHING):
            # Came for a computer's seat mid-deal: a spectator of this deal, a player from the next.
            return self.refuse(conn, getattr(message, "id", None), NEXT_DEAL)
        feature = self.handlers.get(type(message))
        if feature is not None:  # a kind a feature answers (a hint, a listing in the lobby...)
            return feature.handle(conn, message)
        if isinstance(message, Act):
            return self._act(conn, message)
        if isinstance(message, Chat):
            reason = table.check_chat(message.text)
            if reason is None and not self.link(conn).chat.spend(asyncio.get_running_loop().time()):
                reason = TOO_MANY_CHATS
            for feature in self.hooked["may_chat"]:  # (issue 58: a chat ban)
                reason = reason or feature.may_chat(conn, message.text)
            if reason:
                return self.refuse(conn, None, reason)
            data = {"seat": seat, "text": message.text, "name": table.names[seat]}
            if any(f.hides_chat(table, message.text) for f in self.hooked["hides_chat"]):
                # Hidden from the others (a word list's, issue 58): stored (a report carries
                # it), said to its sender alone, kept out of the table's chat.
                self.write(table, "chat", {**data, "hidden": True})
                return conn.send({"type": "chat", **chat_line(data["name"], data, table.version)})
            self.write(table, "chat", data)
            line = _encode({"type": "chat", **table.chat[-1]})  # once for every socket
            blocking = self._blocking(table, conn.account)
            for c in self.connections.get(table.id, []):
                if c.greeted and c.seat is not None and not (c.account and c.account["id"] in blocking):
                    c.send(line)
            for feature in self.hooked["chat"]:
                feature.chat(table, line)  # (spectators read the chat)
            return
        if isinstance(message, History):
            return self._history(conn, message.before)
        if isinstance(message, Name):
            reason = table.check_rename(seat) or table.check_name(message.name)
            if reason:
                return self.refuse(conn, None, reason)
            return self._rename(table, seat, message.name)
        if isinstance(message, Rematch):
            reason = table.check_rematch()
            if reason:
                return self.refuse(conn, None, reason)
            if not table.rematch[seat]:
                self.write(table, "rematch", {"seat": seat})
            return self.changed(table)
        if isinstance(message, Next):
            reason = table.check_next(seat)
            if reason:
                return self.refuse(conn, None, reason)
            if not table.ready[seat]:
                self.write(table, "next", {"seat": seat})
            return self.changed(table)
        if isinstance(message, Takeover):
            connected = self.connected(table)
            away = message.seat < table.seats and self._takeover_open(table, connected)[message.seat]
            reason = table.check_takeover(seat, message.seat, away)
            if reason:
                return self.refuse(conn, None, reason)
            self.write(table, "takeover", {"seat": message.seat, "level": self.standin_level(table.game), "by": seat})
            return self.changed(table)
        if isinstance(message, Start):
            reason = table.check_start(conn.room_seat)
            if reason:
                return self.refuse(conn, None, reason)
            self.write(table, "start", {})
            self.changed(table)
            for c in self.connections.get(table.id, []):  # (after the match began: it may raise)
                if c.seat is None:
                    c.send({"type": "error", "reason": LEFT_OUT})
                    c.close(CLOSE_UNKNOWN, LEFT_OUT)
            return
        # A kind no module answers here (a feature this server runs without): said, not ignored.
        self.refuse(conn, getattr(message, "id", None), NOT_ANSWERED)

    def _hello(self, conn: Connection, hello: Hello) -> None:
        table, seat = conn.table, conn.seat
        if not self.link(conn).hellos.spend(asyncio.get_running_loop().time()):
            conn.send({"type": "error", "reason": TOO_MANY_HELLOS})
            return conn.close(CLOSE_TOO_MANY, TOO_MANY_HELLOS)
        if table.kind == "room" and conn.token is not None and self.store.seat_of(conn.token) != (table.id, conn.room_seat):
            # The seat was handed out from the lobby since this socket opened (on any process):
            # its old link opens nothing, on a socket already open too (issue 37).
            conn.send({"type": "error", "reason": UNKNOWN_LINK})
            return conn.close(CLOSE_UNKNOWN, UNKNOWN_LINK)
        conn.sent_version = min(hello.since, table.version)
        if not conn.greeted:
            conn.greeted = True
            self.away_since.pop((table.id, seat), None)
        # (Not only at the first hello: a hello whose join was undone may come again.)
        if not table.joined[seat]:
            self.write(table, "join", {"seat": seat})
        if table.standin[seat] and not any(f.keeps_for_the_deal(table, seat) for f in self.hooked["keeps_for_the_deal"]):
            self.write(table, "return", {"seat": seat})  # back: the human plays again
        if conn.account is not None and table.kind == "room" and table.sitters[seat] is None and table.status != OVER:
            # The first account to open the seat signed in sits there: its match is rated for
            # that account, under its name (issue 56).
            self.write(table, "sit", {"seat": seat, "account": conn.account["id"], "name": conn.account["name"],
                                      "address": address_key(conn.address) if conn.address else None,
                                      "device": conn.device})
            try:  # (kept for a deletion to find this table by: issue 55)
                self.store.people.sat_at(conn.account["id"], table.id,
                                         address_key(conn.address) if conn.address else None)
            except Exception:
                log.exception("table %s: could not note who sat at seat %d", table.id, seat)
        if hello.name is not None and table.check_name(hello.name) is None and table.check_rename(seat) is None:
            self._rename(table, seat, hello.name)  # (a bad name in a hello is left out, not refused)
        self._ensure_watch(table)
        for feature in self.hooked["hello"]:
            feature.hello(conn)
        # The state first (with the events it missed), then the latest chat lines it missed
        # in one frame: however long the chat, a reload always gets its state.
        self.changed(table)
        conn.push_state()
        muted = self._muted_seats(conn)
        if not muted:
            conn.send(table.history_frame(conn.sent_version))
        else:  # (a block: the blocked's lines are left out of the blocker's history, issue 58)
            lines = [line for line in table.chat if line["version"] > conn.sent_version and line["seat"] not in muted]
            conn.send({"type": "history", "lines": lines, "more": conn.sent_version < table.chat_dropped_upto})

    def _blocking(self, table: Table, account: dict | None) -> set[str]:
        """The accounts signed in at this table's seats that block ``account`` (the sender of a
        chat line): their sockets do not get its lines (issue 58)."""
        if not account:
            return set()
        others = {c.account["id"] for c in self.connections.get(table.id, [])
                  if c.account and c.seat is not None and c.account["id"] != account["id"]}
        return self.store.people.blockers_among(account["id"], sorted(others)) if others else set()

    def _muted_seats(self, conn: Connection) -> set[int]:
        """The seats whose sitter's account ``conn``'s account blocks: their chat lines are not
        sent to it (issue 58)."""
        table = conn.table
        if not conn.account:
            return set()
        sitters = {s["account"]: seat for seat, s in enumerate(table.sitters)
                   if s is not None and s.get("account") and s["account"] != conn.account["id"]}
        if not sitters:
            return set()
        blocked = self.store.people.blocked_among(conn.account["id"], sorted(sitters))
        return {sitters[a] for a in blocked}

    def _ensure_watch(self, table: Table) -> None:
        """Give a table from before watch links its token: a seats row, then a ``watch`` event
        (staged with the request that asked, like any event of the table)."""
        if table.watch_token is not None:
            return
        token = new_watch_token()
        self.store.add_token(table.id, WATCH_SEAT, token)
        self.write(table, "watch", {"token": token})

    def rename(self, table_id: str, room_seat: int, text: str) -> bool:
        """Name a seat of a table this process holds (a room seat's number, as its link has
        it), as its player's own ``name`` message would: whether it was held here and named."""
        table = self.tables.get(table_id)
        seat = table.seat_map[room_seat] if table is not None and room_seat < len(table.seat_map) else None
        if seat is None or table.check_name(text) or table.check_rename(seat):
            return False
        with self.atomic(table):
            self._rename(table, seat, text)
        return True

    async def forget(self, name: str, table_ids: list[str], account: str = "") -> None:
        """A deleted account's name leaves the tables this process holds (issue 55; the store
        has put the neutral name in their stored events already, ``People.delete_account``):
        a seat so named is renamed (a ``name`` event: its match's record keeps no name), and
        the chat lines in memory, the names before an early start and the events staged or on
        their way lose it too. Once those are stored, the store's rewrite runs again for these
        tables (a chat line committed meanwhile)."""
        key, held = name_key(name), [t for t in table_ids if t in self.tables]
        for table_id in table_ids:
            self.stored_tables.pop(table_id, None)
        if not held:
            return
        for _, _, _, data in self.committing + self.staged:  # (the staged are still to be encoded)
            neutral(data, key)
            forget_sitter(data, account)
        for table_id in held:
            table = self.tables[table_id]
            table.forget_name(lambda n: name_key(n) == key, NEUTRAL_NAME)
            for sitter in table.sitters:
                if sitter is not None:
                    forget_sitter(sitter, account)
            renamed = [seat for seat, n in enumerate(table.names) if name_key(n) == key]
            if renamed:
                with self.atomic(table):
                    for seat in renamed:
                        self.write(table, "name", {"seat": seat, "name": NEUTRAL_NAME})
                self.changed(table)
        await self.committed.wait()
        self.store.people.forget_name(name, held, account)

    def _rename(self, table: Table, seat: int, text: str) -> None:
        name = plain_name(text)
        if name != table.names[seat]:
            self.write(table, "name", {"seat": seat, "name": name})
            self.changed(table)

    def _history(self, conn: Connection, before: int) -> None:
        """The chat lines before version ``before``, at most CHAT_KEPT, from the store (a
        table keeps only its latest lines in memory)."""
        if not self.link(conn).hellos.spend(asyncio.get_running_loop().time()):
            return self.refuse(conn, None, TOO_MANY_HELLOS)
        table = conn.table
        rows = self.store.chat_before(table.id, before, CHAT_KEPT + 1)
        muted = self._muted_seats(conn)  # (and a line hidden by the word list: its sender's alone)
        lines = [chat_line(table.name_at(data["seat"], version), data, version)
                 for version, data in reversed(rows[:CHAT_KEPT])
                 if data["seat"] not in muted and not (data.get("hidden") and data["seat"] != conn.seat)]
        conn.send({"type": "history", "before": before, "lines": lines, "more": len(rows) > CHAT_KEPT})

    def _act(self, conn: Connection, act: Act) -> None:
        table, seat = conn.table, conn.seat
        if act.id is not None and (seat, str(act.id)) in table.action_ids:
            return conn.push_state()  # a resent action: applied once, answered with the state
        if table.bots[seat] is not None:
            return self.refuse(conn, act.id, COMPUTER_PLAYS)
        if (late := table.check_turn(seat, act.version)) is not None:
            # It answers a turn that is over (the clock's computer played it, say): applied, it
            # would land on a later turn the player never saw. The reason, then where things stand.
            self.refuse(conn, act.id, late)
            return conn.push_state()
        if reason := table.check_act(seat, act.action):
            return self.refuse(conn, act.id, reason)
        self.write(table, "act", {"seat": seat, "action": act.action, "id": act.id})
        self.changed(table)

    def refuse(self, conn: Connection, client_id, reason: str) -> None:
        # The English text, and the rules' stable id where the game gives one (a client's
        # catalogue translates by the id, so it does not depend on the wording).
        refused = {"type": "refused", "id": client_id, "reason": str(reason), "version": conn.table.version}
        if (rid := reason_id(reason)) is not None:
            refused["reason_id"] = rid
        conn.send(refused)

    # --- changing a table ------------------------------------------------------------------------

    def write(self, table: Table, kind: str, data: dict) -> None:
        """Apply the event and stage it for the commit at the end of this loop turn. The
        sockets' writers send nothing while it is staged (Connection.write_loop)."""
        version = table.version + 1
        for feature in self.hooked["stamp"]:
            data = feature.stamp(table, data)
        was_over = table.status == OVER
        table.apply_event(version, kind, data)
        self.staged.append((table.id, version, kind, data))
        if table.status == OVER:
            self.finished.append(table.id)
            if not was_over:  # the match ends with this event: recorded with it (store/people.py)
                self.ended.append(self._ended(table, data.get("at")))
        self.committed.clear()
        if self._commit_soon is None and not self.committing:
            # call_soon: after the handlers already woken in this turn, so they commit together.
            # (With a batch on its way, the next one starts when it is stored.)
            self._commit_soon = asyncio.get_running_loop().call_soon(self._commit)

    def _ended(self, table: Table, at: float | None) -> Ended:
        """The record of a match that just ended, for every feature to add to (the ratings
        set its ``rater``)."""
        totals, sides = table.match.totals, table.game.sides
        # Each seat's account is the one that sat there (``Table.sitters``, by playing seat: a
        # room started with three has renumbered them with its seats, R17; issue 56).
        players = [Player(seat, table.names[seat], sides(seat) if sides else seat, totals[seat], table.absent[seat],
                          (table.sitters[seat] or {}).get("account"))
                   for seat in range(table.seats)]
        ended = Ended(table.id, table.matches, table.game.name, table.seats, at or time.time(), players)
        for feature in self.hooked["ended"]:
            feature.ended(table, ended)
        return ended

    def _pending(self, table_id: str) -> list[tuple[int, str, dict]]:
        """The table's events applied but not yet in the store: on their way, then staged."""
        return [(v, kind, data) for t, v, kind, data in self.committing + self.staged if t == table_id]

    @contextlib.contextmanager
    def atomic(self, table: Table):
        """Whatever the block stages for ``table``: all of it, or (if it raises) none of it,
        and the table rebuilt as it was before the block."""
        marks = len(self.staged), len(self.finished), len(self.reopened), len(self.ended)
        try:
            yield
        except Exception:
            self._undo(table, marks)
            raise

    def _undo(self, table: Table, marks: tuple[int, int, int, int]) -> None:
        """Unstage what was staged since ``marks`` (one request's events, all of ``table``:
        the hub runs a request to its end before the next) and rebuild the table from its
        stream and the events still staged for it, in place (``Table.restore``)."""
        staged_at, finished_at, reopened_at, ended_at = marks
        del self.staged[staged_at:], self.finished[finished_at:], self.reopened[reopened_at:], self.ended[ended_at:]
        try:
            table.restore(replay(table.id, self.store.events(table.id) + self._pending(table.id)))
        except Exception as e:
            self._mark_broken(table.id, f"it could not be rebuilt after a request raised: {e}")
            for conn in self.connections.get(table.id, []):
                conn.abort(CLOSE_BROKEN, BROKEN)
            self.unload(table.id)

    def _commit(self) -> None:
        """Store every staged event in one transaction, then let the writers go."""
        self._commit_soon = None
        batch = self.staged, self.finished, self.reopened, self.ended
        self.staged, self.finished, self.reopened, self.ended = [], [], [], []
        if self.store_thread is None:
            return self._stored(batch, self._store(batch))
        self.committing = batch[0]
        stored = asyncio.get_running_loop().run_in_executor(self.store_thread, self._store, batch)
        stored.add_done_callback(lambda done: self._stored(batch, done.result()))

    def _store(self, batch: tuple[list, list, list, list]) -> BaseException | None:
        try:
            self.store.append_many(*batch)
        except Exception as e:
            return e
        return None

    def _stored(self, batch: tuple[list, list, list, list], error: BaseException | None) -> None:
        self.committing = []
        if error is not None:
            events = batch[0]
            log.error("could not store %d events; their tables are dropped and reloaded", len(events),
                      exc_info=error)
            lost = set(t for t, *_ in events)
            # Events staged since for those tables stand on the lost ones: they go too.
            self.staged = [e for e in self.staged if e[0] not in lost]
            self.finished = [t for t in self.finished if t not in lost]
            self.reopened = [t for t in self.reopened if t not in lost]
            self.ended = [e for e in self.ended if e.table_id not in lost]
            for table_id in lost:
                self._drop(table_id)
        if not self.staged:
            self.committed.set()
        elif self._commit_soon is None:
            self._commit_soon = asyncio.get_running_loop().call_soon(self._commit)

    def _drop(self, table_id: str) -> None:
        """A table whose events could not be stored is ahead of its stream: forget it (the
        next socket to open it reloads it from the store) and close its sockets without
        another frame. Its lease is kept, not released (the database is likely away, and a
        release would hold the loop for the store's timeout, table after table): the next
        socket here takes it again, or it runs out and another process carries the table on."""
        for conn in self.connections.get(table_id, []):
            conn.abort(CLOSE_NOT_STORED, NOT_STORED)
        self.unload(table_id, release=False)

    def unload_if_idle(self, table: Table) -> None:
        """A finished match that nobody has open leaves memory: the store keeps it, and a
        link opened again reloads it. (A server that kept every match grew without bound.)
        So does a table by correspondence that waits for a person with nobody there: it
        sleeps, written down with when it must wake (the earliest a feature asks for: its
        deadline), and costs nothing meanwhile (issue 41)."""
        if (self.tables.get(table.id) is not table or self.connections.get(table.id)
                or any(feature.holds(table.id) for feature in self.hooked["holds"])):
            return
        if table.status == OVER:
            return self.unload(table.id)
        task = self.bot_tasks.get(table.id)
        if not table.correspondence or table.bot_to_act() is not None or (task is not None and not task.done()):
            return
        wakes = [at for feature in self.hooked["wakes"] if (at := feature.wakes(table)) is not None]
        try:
            self.store.sleepers.sleep(table.id, min(wakes, default=None))
        except Exception:
            log.exception("table %s could not be put to sleep; it stays in memory", table.id)
            return
        self.unload(table.id)
        self._start_waker()

    def unload(self, table_id: str, release: bool = True) -> None:
        """Forget a table held in memory: its sockets, bots, timers and presence (and, in a
        site of several, its lease: another process may drive it now)."""
        table = self.tables.pop(table_id, None)
        if release and table is not None and self.leases is not None:
            with contextlib.suppress(Exception):  # (it runs out by itself otherwise)
                self.leases.release(table_id)
        self.connections.pop(table_id, None)
        for seat in range(table.seats if table else 0):
            self.fallback.pop((table_id, seat), None)
        self.presence.pop(table_id, None)
        self.links.pop(table_id, None)
        for handles in (self.bot_tasks, self.away_timers):
            handle = handles.pop(table_id, None)
            if handle is not None:
                handle.cancel()
        for seat in range(table.seats if table else 0):
            self.away_since.pop((table_id, seat), None)
        for feature in self.hooked["unloaded"]:  # (spectators reconnect, as after a move)
            feature.unloaded(table_id, CLOSE_MOVED, MOVED)

    def changed(self, table: Table) -> None:
        self._advance(table)
        self._tell_all(table)
        self._wake_bots(table)
        for feature in self.hooked["changed"]:
            feature.changed(table)
        if table.correspondence and not self.connections.get(table.id):  # (its clock played: asleep again)
            asyncio.get_running_loop().call_soon(self.unload_if_idle, table)

    def _a_feature_advanced(self, table: Table) -> bool:
        for feature in self.hooked["advance"]:
            if feature.advance(table):
                return True
        return False

    def _advance(self, table: Table) -> None:
        """What follows by itself: the match starts once every seat has joined; the next deal
        once every seat pressed Next deal (bots are always ready)."""
        while True:
            if self._a_feature_advanced(table):  # (Play now's computers come and go)
                continue
            if table.status == WAITING and all(table.joined):
                if table.match is None:
                    self.write(table, "match", {"first_dealer": self.chance.first_dealer(table)})  # R4
                self.write(table, "deal", {"deck": self.chance.deck(table)})
            elif table.status == BETWEEN and table.all_ready():
                self.write(table, "deal", {"deck": self.chance.deck(table)})
            elif (forced := table.automatic()) is not None and forced[2]:
                # No real choice, and everyone can tell: answered at once, never asked (R12).
                self.write(table, "act", {"seat": forced[0], "action": forced[1], "id": None})
            elif table.status == OVER and table.all_rematch():
                self.reopened.append(table.id)  # playing again: reloaded at a restart
                self.write(table, "match", {"first_dealer": self.chance.first_dealer(table)})
            else:
                return

    # --- bots ------------------------------------------------------------------------------------

    def _wake_bots(self, table: Table) -> None:
        if table.bot_to_act() is None and table.automatic() is None:
            return
        task = self.bot_tasks.get(table.id)
        if task is None or task.done():
            self.bot_tasks[table.id] = asyncio.get_running_loop().create_task(self._run_bots(table))

    async def _answer_for(self, table: Table, seat: int, action: str, public: bool) -> bool:
        """A person's answer without a choice that only its seat can tell (the bidder without
        the 20 and the Fool, R12): given after a computer's beat, with some spread, so that
        the other seats cannot tell it from a quick No by choice. False if it raised."""
        deal, moves = table.deal, len(table.deal.history)
        await asyncio.sleep(0.0 if public else self.bot_delay * (1 + random.random()))
        if table.deal is deal and len(deal.history) == moves and table.automatic() == (seat, action, public):
            return self.write_alone(table, "act", {"seat": seat, "action": action, "id": None})
        return True

    def write_alone(self, table: Table, kind: str, data: dict) -> bool:
        """An event nobody asked for (a bot's action, an automatic answer) and what follows
        it, as one unit (``atomic``). False if it raised: undone and logged, and the table
        waits (its bots stop until the next request wakes them), so one table's fault never
        spins or stops the others."""
        try:
            with self.atomic(table):
                self.write(table, kind, data)
                self.changed(table)
        except Exception:
            log.exception("table %s: a %s by the server raised; undone, nothing of it stored", table.id, kind)
            return False
        return True

    def bot_level(self, table: Table, seat: int) -> str:
        """The level that plays a bot seat: its own, or the rule bot once its own failed."""
        return self.fallback.get((table.id, seat)) or table.bot_level(seat)

    def _bot_failed(self, table: Table, seat: int, level: str, what: str) -> bool:
        """A bot raised or gave an illegal action: the rule bot plays the seat from now on
        (logged once), unless the rule bot is the one that failed. True if it takes over."""
        if level == FALLBACK_LEVEL or FALLBACK_LEVEL not in levels_for(table.game.name):
            log.error("bot %s %s at table %s seat %s; playing a random legal action", level, what, table.id, seat)
            return False
        log.error("bot %s %s at table %s seat %s; the %s bot plays that seat from now on",
                  level, what, table.id, seat, FALLBACK_LEVEL)
        self.fallback[(table.id, seat)] = FALLBACK_LEVEL
        return True

    async def _run_bots(self, table: Table) -> None:
        """Play for the bot seats while the game waits for one. A bot answers after a beat;
        the beat is a floor, its thinking time counts towards it."""
        loop = asyncio.get_running_loop()
        while True:
            seat = table.bot_to_act()
            if seat is None:
                if (forced := table.automatic()) is None:
                    return
                if not await self._answer_for(table, *forced):
                    return
                continue
            deal, moves = table.deal, len(table.deal.history)
            beat = self.bot_delay + (self.trick_pause if table.trick_just_closed() else 0.0)
            began = loop.time()
            level = self.bot_level(table, seat)
            try:
                action = await loop.run_in_executor(self.executor, decide, table.game.name, level, deal.view(seat))
                failure = None if isinstance(action, str) else f"gave {action!r}"
            except Exception as e:
                log.debug("bot %s raised", level, exc_info=True)
                action, failure = None, f"raised {type(e).__name__}: {e}"
            await asyncio.sleep(max(0.0, beat - (loop.time() - began)))
            if table.deal is not deal or len(deal.history) != moves or table.bot_to_act() != seat:
                continue  # the table moved on meanwhile (or the human came back); think again
            if failure is None and (why := table.check_act(seat, action)) is not None:
                failure = f"gave the illegal {action!r} ({why})"
            if failure is not None:
                if self._bot_failed(table, seat, level, failure):
                    continue  # the rule bot thinks again (after a beat: the seat does not rush)
                action = table.game.action_text(random_action(deal.copy(), random.Random()))
            if not self.write_alone(table, "act", {"seat": seat, "action": action, "id": None}):
                return
