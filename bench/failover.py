"""``kill -9`` of a site's process under load (issue 20): how long until its tables move, how
many acknowledged actions are lost (goal 0) and how many of the cut-off clients come back (goal
all).

Starts a PostgreSQL cluster of its own (the server's defaults: every commit flushed) and a
Redis, then two ``tarocchi serve`` processes A and B on them (``--lease`` seconds). Half the
rooms are made on A (A drives them), half on B; the seats of every room are spread over both
processes, so that each process holds its own tables' sockets and relays the other's. Every
seat plays flat out (it acts as soon as its turn comes, then Next deal after each count).
After ``--warmup`` seconds A gets SIGKILL. Every client whose socket closes reconnects by
itself (``hello`` with the last version it saw; to the survivor when its process is gone) and
resends an action that was not answered (same ``id``: applied once, docs/protocol.md).

An action is acknowledged when its client saw its seat's count of applied actions (``acted``
in every state, docs/protocol.md) pass the count it had when the action was sent (the
broadcast that follows a commit). At the end every acknowledged action's id is looked
up in the stored streams.

    .venv/bin/python bench/failover.py [--rooms 100] [--warmup 8] [--after 12] [--lease 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402
import websockets  # noqa: E402

from tarocchi.server.core.store import open_store  # noqa: E402
from tests.faults.server import ServerProcess  # noqa: E402
from tests.postgres import Cluster  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402
from tests.server.seat import new_room, pick_action  # noqa: E402


class Client:
    """One seat's socket, reconnecting by itself."""

    def __init__(self, token: str, home: ServerProcess, other: ServerProcess, rng: random.Random):
        self.token, self.home, self.other, self.rng = token, home, other, rng
        self.version = 0
        self.table_id: str | None = None
        self.pending: tuple[str, int, str] | None = None  # (id, the seat's actions before it, action)
        self.acked: list[str] = []
        self.sent = 0
        self.cut_at: float | None = None  # when its socket closed after the kill
        self.back_after: float | None = None  # seconds from the cut to its state again
        self.stop = False

    async def run(self) -> None:
        target = self.home
        while not self.stop:
            try:
                async with websockets.connect(f"{target.ws_url}/ws/{self.token}", open_timeout=5,
                                              max_size=None) as ws:
                    await ws.send(json.dumps({"type": "hello", "since": self.version}))
                    await self.play(ws)
            except (OSError, websockets.WebSocketException, asyncio.TimeoutError):
                pass
            if self.stop:
                return
            if self.cut_at is None:
                self.cut_at = time.monotonic()
            if target.proc.poll() is not None:  # its process is gone: the survivor
                target = self.other if target is self.home else self.home
            await asyncio.sleep(0.2 + self.rng.random() * 0.3)  # as the page's backoff

    async def play(self, ws) -> None:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] != "state":
                continue
            if self.cut_at is not None and self.back_after is None:
                self.back_after = time.monotonic() - self.cut_at
            self.table_id = message["table"]["id"]
            version = message["version"]
            view = message["view"]
            acted = message["acted"][message["table"]["you"]]
            # Answered: the table counts one more action of this seat (a seat's return also
            # moves the version on, so the version alone does not say).
            if self.pending and acted > self.pending[1]:
                self.acked.append(self.pending[0])
                self.pending = None
            self.version = max(self.version, version)
            if self.stop or view is None:
                continue
            if view["phase"] == "done":
                if message["table"]["status"] == "between":
                    await ws.send(json.dumps({"type": "next"}))
                continue
            if view["turn"] != message["table"]["you"] or view.get("automatic") is not None:
                continue  # (the server answers an automatic turn itself, R12: a page asks nothing)
            if self.pending:  # not answered before the cut: again, under the same id
                await ws.send(json.dumps({"type": "act", "action": self.pending[2], "id": self.pending[0]}))
                continue
            action = pick_action(view, self.rng)
            self.sent += 1
            self.pending = (f"{self.token[:8]}.{self.sent}", acted, action)
            await ws.send(json.dumps({"type": "act", "action": action, "id": self.pending[0]}))


def stored_ids(db: str) -> set[tuple[str, str]]:
    with psycopg.connect(db) as conn:
        rows = conn.execute("SELECT table_id, data FROM events WHERE kind = 'act'").fetchall()
    return {(table_id, str(json.loads(data)["id"])) for table_id, data in rows if json.loads(data)["id"]}


async def measure(a: ServerProcess, b: ServerProcess, db: str, rooms: int, warmup: float, after: float,
                  lease: float) -> None:
    rng = random.Random(1)
    clients: list[Client] = []
    for r in range(rooms):
        maker = a if r % 2 == 0 else b
        for i, token in enumerate(new_room(maker.url, 4)):
            home, other = (a, b) if (r + i) % 2 == 0 else (b, a)
            clients.append(Client(token, home, other, random.Random(rng.random())))
    tasks = [asyncio.create_task(c.run()) for c in clients]
    await asyncio.sleep(warmup)
    store = open_store(db)
    tables = {c.table_id for c in clients if c.table_id}
    owners = store.lease_owners(tables)
    on_a = {t for t, owner in owners.items() if owner.endswith(f":{a.port}:{a.proc.pid}")}
    acked_before = sum(len(c.acked) for c in clients)
    a.kill9()
    killed = time.monotonic()
    moved_at = None
    while time.monotonic() - killed < after:
        if moved_at is None:
            held = store.lease_owners(on_a)
            if len(held) == len(on_a) and all(o.endswith(f":{b.port}:{b.proc.pid}") for o in held.values()):
                moved_at = time.monotonic() - killed
        await asyncio.sleep(0.1)
    store.close()
    for c in clients:
        c.stop = True
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    acked = {(c.table_id, i) for c in clients for i in c.acked}
    lost = acked - stored_ids(db)
    cut = [c for c in clients if c.cut_at is not None]
    back = [c.back_after for c in cut if c.back_after is not None]
    acked_after = sum(len(c.acked) for c in clients) - acked_before
    print(f"{len(clients)} clients at {rooms} rooms of 4, {len(tables)} tables ({len(on_a)} driven by the killed "
          f"process), lease {lease:g} s; load average {os.getloadavg()[0]:.1f}")
    print(f"before the kill: {acked_before:,} actions acknowledged in {warmup:g} s "
          f"({acked_before / warmup:,.0f}/s); after it: {acked_after:,} in {after:g} s")
    print(f"its tables moved {moved_at:.1f} s after the kill" if moved_at is not None
          else f"its tables had not all moved {after:g} s after the kill")
    print(f"acknowledged actions lost: {len(lost)} of {len(acked):,}")
    if back:
        print(f"clients cut off: {len(cut)}; back by themselves: {len(back)} (median {statistics.median(back):.1f} s, "
              f"max {max(back):.1f} s after their socket closed)")
    else:
        print(f"clients cut off: {len(cut)}; back by themselves: 0")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rooms", type=int, default=100)
    p.add_argument("--warmup", type=float, default=8, help="seconds of play before the kill")
    p.add_argument("--after", type=float, default=12, help="seconds of play after it")
    p.add_argument("--lease", type=float, default=2, help="the lease's seconds (tarocchi serve --lease)")
    args = p.parse_args()
    with Cluster(durable=True) as cluster, RedisServer() as redis:
        db = cluster.new_database()
        logs = Path(cluster.base)
        extra = ("--bus", redis.url, "--lease", str(args.lease), "--new-tables", "100000",
                 "--connections-per-address", "100000")  # every client comes from this one address
        a, b = (ServerProcess(db, extra=extra, log=str(logs / f"{n}.log"), away_timeout=600).start() for n in "AB")
        try:
            asyncio.run(measure(a, b, db, args.rooms, args.warmup, args.after, args.lease))
        finally:
            b.stop()
            a.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
