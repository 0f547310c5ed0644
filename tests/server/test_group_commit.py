"""The group commit (issue 5): the events of one turn of the event loop are stored in one
transaction, and no frame leaves the server before the events it tells of are committed.

The hub runs in this process with sockets that are plain objects (``serve_socket`` is the same
code the websocket route runs), so every frame can be checked against what the store had
committed at the moment it was sent.
"""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor

from tarocchi.server.app import serve_socket
from tarocchi.server.hub import CLOSE_NOT_STORED, Chance, Hub
from tarocchi.server.messages import Budget
from tarocchi.server.store import SqliteStore
from tests.server.seat import pick_action


class RecordingStore(SqliteStore):
    """Remembers, per table, the last version committed; fails the commits it is told to."""

    def __init__(self, path: str):
        super().__init__(path)
        self.committed: dict[str, int] = {}
        self.commits: list[list[tuple[str, int]]] = []
        self.fail_next = False

    def append_many(self, events, finished=()):
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        super().append_many(events, finished)
        self.commits.append([(t, v) for t, v, *_ in events])
        for t, v, *_ in events:
            self.committed[t] = max(v, self.committed.get(t, 0))


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
    def say(self, message: dict) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    def _maybe_act(self, frame: dict) -> None:
        view, table = frame["view"], frame["table"]
        if view is None or frame["version"] == self.acted_on or table["status"] != "playing":
            return
        if view["turn"] == table["you"] and view["phase"] != "done":
            self.acted_on = frame["version"]
            self.say({"type": "act", "action": pick_action(view, self.rng), "id": f"v{frame['version']}"})

    @property
    def state(self) -> dict:
        return [f for f in self.frames if f["type"] == "state"][-1]


async def open_room(hub: Hub, store: RecordingStore, seats: int, rng: random.Random):
    table_id, tokens = hub.new_room(seats)
    sockets, tasks = [], []
    for token in tokens:
        s = Socket(store, rng)
        tasks.append(asyncio.create_task(serve_socket(hub, s, token, Budget(10_000, 10_000.0))))
        s.say({"type": "hello", "since": 0})
        sockets.append(s)
    return table_id, tokens, sockets, tasks


async def until(check, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


def new_hub(tmp_path) -> tuple[Hub, RecordingStore]:
    store = RecordingStore(str(tmp_path / "group.sqlite3"))
    hub = Hub(store, ThreadPoolExecutor(1), bot_delay=0.0, trick_pause=0.0, chance=Chance(random.Random(3)))
    return hub, store


def test_events_of_one_turn_are_committed_together_and_none_is_told_before_its_commit(tmp_path):
    async def body():
        hub, store = new_hub(tmp_path)
        hub.start()
        rng = random.Random(8)
        rooms = [await open_room(hub, store, 4, rng) for _ in range(6)]
        sockets = [s for _, _, room, _ in rooms for s in room]
        # Six rooms play at once, each seat acting the moment its own frame says so.
        await until(lambda: sum(len(store.commits[i]) for i in range(len(store.commits))) > 400)
        for s in sockets:
            s.playing = False
        await hub.stop()
        # Every state frame was checked on arrival (Socket.send_text); they were many.
        assert sum(len(s.frames) for s in sockets) > 1000
        # Commits carried the events of several tables at once.
        assert max(len({t for t, _ in c}) for c in store.commits) > 1
        assert len(store.commits) < sum(len(c) for c in store.commits) / 2
        # The store holds every event each table applied, in order and without a gap.
        for table_id, *_ in rooms:
            versions = [v for v, _, _ in store.events(table_id)]
            assert versions == list(range(1, hub.tables[table_id].version + 1))
        for _, _, _, tasks in rooms:
            for t in tasks:
                t.cancel()
        store.close()

    asyncio.run(body())


def test_a_failed_commit_tells_nothing_and_the_table_comes_back_from_the_store(tmp_path):
    async def body():
        hub, store = new_hub(tmp_path)
        hub.start()
        rng = random.Random(9)
        table_id, tokens, sockets, tasks = await open_room(hub, store, 3, rng)
        other_id, _, others, other_tasks = await open_room(hub, store, 3, rng)
        for s in others:
            s.playing = False  # the other room stays quiet: its state is all committed
        await until(lambda: hub.tables[table_id].version >= 12)
        for s in sockets:
            s.playing = False
        await asyncio.sleep(0.05)
        stored = store.committed[table_id]
        assert stored == hub.tables[table_id].version
        seen = [len(s.frames) for s in sockets]
        # The next action cannot be stored.
        actor = next(s for s in sockets if s.state["view"]["turn"] == s.state["table"]["you"])
        action = pick_action(actor.state["view"], rng)
        store.fail_next = True
        actor.say({"type": "act", "action": action, "id": "lost"})
        await until(lambda: all(s.closed for s in sockets))
        # Every socket of that table is closed with 1011, and was told nothing after the action.
        assert {s.closed[0] for s in sockets} == {CLOSE_NOT_STORED}
        assert [len(s.frames) for s in sockets] == seen
        assert store.committed[table_id] == stored and table_id not in hub.tables
        # The other room is untouched.
        assert all(s.closed is None for s in others) and hub.tables[other_id].version == store.committed[other_id]
        # A page that opens the seat again gets the stored table, and its resent action is
        # applied once.
        again = Socket(store, rng)
        again.playing = False
        task = asyncio.create_task(serve_socket(hub, again, tokens[sockets.index(actor)], Budget()))
        again.say({"type": "hello", "since": 0})
        await until(lambda: again.frames)
        assert again.state["version"] == stored
        assert again.state["view"] == actor.state["view"]
        again.say({"type": "act", "action": action, "id": "lost"})
        await until(lambda: again.state["version"] == stored + 1)
        assert store.committed[table_id] == stored + 1
        await hub.stop()
        for t in [*tasks, *other_tasks, task]:
            t.cancel()
        store.close()

    asyncio.run(body())
