"""The group commit (issue 5): the events of one turn of the event loop are stored in one
transaction, and no frame leaves the server before the events it tells of are committed.

The hub runs in this process with sockets that are plain objects (``tests/server/fake.py``),
so every frame can be checked against what the store had committed at the moment it was sent.
Both stores, SQLite and PostgreSQL (``store_db``).
"""

from __future__ import annotations

import asyncio
import random

from tarocchi.server.app import serve_socket
from tarocchi.server.core.hub import CLOSE_NOT_STORED
from tarocchi.server.core.messages import Budget
from tests.server.fake import Socket, new_hub, open_room, until
from tests.server.seat import pick_action


def test_events_of_one_turn_are_committed_together_and_none_is_told_before_its_commit(store_db):
    async def body():
        hub, store = new_hub(store_db)
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


def test_a_failed_commit_tells_nothing_and_the_table_comes_back_from_the_store(store_db):
    async def body():
        hub, store = new_hub(store_db)
        hub.start()
        rng = random.Random(9)
        table_id, tokens, sockets, tasks = await open_room(hub, store, 3, rng)
        # The other room stays quiet: its state is all committed.
        other_id, _, others, other_tasks = await open_room(hub, store, 3, rng, playing=False)
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
