"""The hub in this process, with sockets that are plain objects: ``serve_socket`` (the code the
websocket route runs) drives them, and every frame the server sends can be checked the moment
it is sent, against what the store had committed then."""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor

from tarocchi.server.app import assemble, serve_socket
from tarocchi.server.core.hub import Chance, Hub
from tarocchi.server.core.messages import Budget
from tarocchi.server.core.store import open_store
from tests.server.seat import pick_action


class RecordingStore:
    """A store (``open_store(db)``: SQLite or PostgreSQL) that remembers, per table, the last
    version committed; fails the commits it is told to."""

    def __init__(self, db: str):
        self.store = open_store(db)
        self.committed: dict[str, int] = {}
        self.commits: list[list[tuple[str, int]]] = []
        self.fail_next = False

    def append_many(self, events, finished=(), reopened=(), ended=()):
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        self.store.append_many(events, finished, reopened, ended)
        self.commits.append([(t, v) for t, v, *_ in events])
        for t, v, *_ in events:
            self.committed[t] = max(v, self.committed.get(t, 0))

    def __getattr__(self, name):  # the rest of the Store protocol, as the store has it
        return getattr(self.store, name)


class Socket:
    """One seat's socket: what the server sends lands in ``frames``, checked on arrival
    against the store; ``act`` plays as a browser would, from the seat's own view."""

    def __init__(self, store: RecordingStore, rng: random.Random):
        self.store, self.rng = store, rng
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.frames: list[dict] = []
        self.closed: tuple[int, str] | None = None
        self.acted_on = -1
        self.playing = True
        # What the seat plays, from its own view (a Sicilian seat's pick by default; a test of
        # another game gives that game's player, tarocchi.bots.make_player).
        self.choose = lambda view: pick_action(view, self.rng)

    # the websocket side, as serve_socket uses it
    async def receive(self) -> dict:
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        frame = json.loads(text)
        if frame["type"] == "state":
            table = frame["table"]["id"]
            # The frame tells of this version: it must already be committed.
            assert frame["version"] <= self.store.committed.get(table, 1), (frame["version"], self.store.committed)
        self.frames.append(frame)
        if self.playing and frame["type"] == "state":
            self._maybe_act(frame)

    async def send_json(self, data: dict) -> None:
        self.frames.append(data)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = (code, reason)
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": code})

    # the browser side
    def leave(self) -> None:
        """The page goes away."""
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": 1001})

    def say(self, message: dict) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    def _maybe_act(self, frame: dict) -> None:
        view, table = frame["view"], frame["table"]
        if view is None or frame["version"] == self.acted_on:
            return
        if table["status"] == "between" and not table["ready"][table["you"]]:
            self.acted_on = frame["version"]
            self.say({"type": "next"})
        if table["status"] != "playing":
            return
        if view["turn"] == table["you"] and view["phase"] != "done":
            self.acted_on = frame["version"]
            self.say({"type": "act", "action": self.choose(view), "id": f"v{frame['version']}"})

    @property
    def state(self) -> dict:
        return [f for f in self.frames if f["type"] == "state"][-1]


async def open_room(hub: Hub, store: RecordingStore, seats: int, rng: random.Random, playing: bool = True,
                    settings: dict | None = None):
    """A room with every seat's socket said hello; ``playing=False``: its seats never act;
    ``settings``: the room's (``Hub.new_room``)."""
    table_id, tokens = hub.new_room(seats, settings=settings)
    sockets, tasks = [], []
    for token in tokens:
        s = Socket(store, rng)
        s.playing = playing
        tasks.append(asyncio.create_task(serve_socket(hub, s, token, Budget(10_000, 10_000.0))))
        s.say({"type": "hello", "since": 0})
        sockets.append(s)
    return table_id, tokens, sockets, tasks


async def until(check, seconds: float = 10.0, every: float = 0.01) -> None:
    """Wait until ``check()`` holds, asking every ``every`` seconds (a check that asks a server
    over HTTP: less often), at most ``seconds``."""
    for _ in range(int(seconds / every)):
        if check():
            return
        await asyncio.sleep(every)
    raise AssertionError("timed out")


def new_hub(db: str) -> tuple[Hub, RecordingStore]:
    """A hub on the database ``db`` (a SQLite path or a PostgreSQL URL)."""
    store = RecordingStore(db)
    hub = assemble(store, ThreadPoolExecutor(1), bot_delay=0.0, trick_pause=0.0, chance=Chance(random.Random(3)))
    return hub, store
