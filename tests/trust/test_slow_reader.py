"""A socket that never reads cannot make the server hold its frames without bound (issue 5)."""

import asyncio

from tarocchi.server.core.hub import CLOSE_TOO_SLOW, TOO_SLOW, Connection
from tarocchi.server.core.tables import Table


def table() -> Table:
    return Table("t", {"kind": "room", "seats": 3, "names": ["host", "guest 1", "guest 2"],
                       "bots": [None, None, None]})


def test_a_socket_that_falls_too_far_behind_is_closed_and_queues_no_more():
    async def body():
        conn = Connection(websocket=None, table=table(), room_seat=0)
        for i in range(Connection.MAX_QUEUED + 200):
            conn.send({"type": "chat", "text": str(i)})
            conn.push_state()
        items = list(conn.queue)
        assert len(items) == Connection.MAX_QUEUED + 1
        assert items[-1] == ("close", CLOSE_TOO_SLOW, TOO_SLOW)
        assert items.count(Connection.STATE) == 1  # states collapse into one
        conn.send({"type": "chat", "text": "late"})
        assert len(conn.queue) == len(items)  # closing: nothing more is queued

    asyncio.run(body())


def test_a_reader_that_keeps_up_is_never_closed():
    async def body():
        conn = Connection(websocket=None, table=table(), room_seat=0)
        for i in range(5 * Connection.MAX_QUEUED):
            conn.send({"type": "chat", "text": str(i)})
            conn.queue.popleft()  # the writer keeps up
        assert not conn.closing

    asyncio.run(body())
