"""A finished match that nobody has open leaves the server's memory (the store keeps it), and
its links still open it; a match still on stays in memory when its seats leave."""

from __future__ import annotations

import asyncio
import random

from tarocchi.server.app import serve_socket
from tarocchi.server.core.messages import Budget
from tests.server.fake import Socket, new_hub, open_room, until

HIDE = ("connected", "takeover")  # who is connected is not part of the match


def test_a_finished_match_leaves_memory_when_its_last_page_goes_and_still_opens(tmp_path):
    async def body():
        hub, store = new_hub(str(tmp_path / "unload.sqlite3"))
        hub.start()
        rng = random.Random(4)
        table_id, tokens, sockets, tasks = await open_room(hub, store, 3, rng)
        # That match waits for its first action.
        other_id, _, others, other_tasks = await open_room(hub, store, 3, rng, playing=False)
        await until(lambda: sockets[0].frames and sockets[0].state["table"]["status"] == "over", 60)
        final = sockets[0].state
        assert final["table"]["winners"]
        # The other match is still on when all its pages go: it stays (its seats are away).
        assert hub.tables[other_id].status == "playing"
        for s in others:
            s.leave()
        sockets[0].leave()
        sockets[1].leave()
        await asyncio.sleep(0.05)
        assert table_id in hub.tables and other_id in hub.tables  # one page still has it open
        sockets[2].leave()
        await until(lambda: table_id not in hub.tables)
        assert table_id not in hub.connections and table_id not in hub.presence
        assert other_id in hub.tables
        # The link still opens the match, exactly as it ended.
        again = Socket(store, rng)
        again.playing = False
        task = asyncio.create_task(serve_socket(hub, again, tokens[0], Budget()))
        again.say({"type": "hello", "since": 0})
        await until(lambda: again.frames)
        assert again.state["version"] == final["version"] and again.state["view"] == final["view"]
        assert ({k: v for k, v in again.state["table"].items() if k not in HIDE}
                == {k: v for k, v in final["table"].items() if k not in HIDE})
        await hub.stop()
        for t in [*tasks, *other_tasks, task]:
            t.cancel()
        store.close()

    asyncio.run(body())
