"""Tables by correspondence waiting for a move cost nothing (issue 41): many of them on one server
process, each started (every seat said hello) and then left by everyone, as players who come
back tomorrow leave them.

    .venv/bin/python bench/correspondence.py --tables 10000 --idle 30

starts ``tarocchi serve`` as a subprocess (a fresh SQLite file), signs one account up, makes the
rooms (Calabresella, three seats, 1 day a move) ``--batch`` at a time over websockets, and prints
the server's RSS as the tables grow (flat: an asleep table is a row in the store, not an object
in memory), how many are asleep, and the server's CPU over ``--idle`` seconds with all of them
waiting. ``--live`` makes the same rooms without correspondence, for comparison: they stay in
memory while nobody is there."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import httpx
import websockets

sys.path.insert(0, os.path.dirname(__file__))
from load import cpu_seconds, free_port, rss_kib  # noqa: E402  (the load benchmark's)

SERVER_FLAGS = ["--bot-delay", "0", "--trick-pause", "0", "--bot-processes", "0",
                "--new-tables", "1000000", "--connections-per-address", "100000"]


async def start_and_leave(ws_url: str, tokens: list[str]) -> None:
    """Every seat says hello (the match starts), then every page goes."""
    sockets = []
    for t in tokens:  # (each says hello at once: a socket has 5 s to)
        sockets.append(ws := await websockets.connect(f"{ws_url}/ws/{t}", max_size=None))
        await ws.send(json.dumps({"type": "hello", "since": 0}))
    while True:  # the last seat's frames: until the match has started
        frame = json.loads(await sockets[-1].recv())
        if frame["type"] == "state" and frame["table"]["status"] == "playing":
            break
    for ws in sockets:
        await ws.close()


async def make_tables(base: str, ws_url: str, count: int, batch: int, live: bool, cookie: str,
                      report) -> None:
    async with httpx.AsyncClient(base_url=base, cookies={"tarocchi_session": cookie}, timeout=60) as http:
        made = 0
        while made < count:
            n = min(batch, count - made)
            ask = {"seats": 3, "game": "calabresella"} | ({} if live else {"correspondence": 1})
            rooms = await asyncio.gather(*[http.post("/api/rooms", json=ask) for _ in range(n)])
            links = [r.json()["links"] for r in rooms]
            await asyncio.gather(*[start_and_leave(ws_url, [x.removeprefix("/t/") for x in ls]) for ls in links])
            made += n
            report(made)


def asleep(db: str) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT count(*) FROM sleeping").fetchone()[0]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=10_000)
    p.add_argument("--batch", type=int, default=50, help="rooms made (and left) at once")
    p.add_argument("--idle", type=float, default=30.0, help="seconds measured with every table waiting")
    p.add_argument("--live", action="store_true", help="rooms without correspondence (they stay in memory)")
    args = p.parse_args()
    tmp = tempfile.TemporaryDirectory(prefix="tarocchi-corr-")
    db = os.path.join(tmp.name, "corr.sqlite3")
    port = free_port()
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port), "--db", db,
                               *SERVER_FLAGS], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/api/levels", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        r = httpx.post(base + "/api/account", json={"name": "bench", "password": "bench-password"})
        cookie = r.cookies["tarocchi_session"]
        rss0 = rss_kib(server.pid)
        print(f"{'live rooms' if args.live else 'tables by correspondence'}: {args.tables}, made {args.batch} at a time")
        print(f"server RSS before: {rss0:,} KiB")
        marks = {max(args.batch, args.tables // 10 * k // args.batch * args.batch) for k in (1, 2, 5)} | {args.tables}
        t0, cpu0 = time.time(), cpu_seconds(server.pid)

        def report(made: int) -> None:
            if made in marks:
                time.sleep(0.5)  # (the last ones asleep)
                print(f"  {made:>6} tables: RSS {rss_kib(server.pid):,} KiB, asleep {asleep(db):,}, "
                      f"{time.time() - t0:.0f} s, server CPU {cpu_seconds(server.pid) - cpu0:.1f} s")

        asyncio.run(make_tables(base, ws_url, args.tables, args.batch, args.live, cookie, report))
        time.sleep(2.0)
        cpu1, rss1 = cpu_seconds(server.pid), rss_kib(server.pid)
        time.sleep(args.idle)
        cpu2, rss2 = cpu_seconds(server.pid), rss_kib(server.pid)
        print(f"all made: RSS {rss1:,} KiB ({(rss1 - rss0) / args.tables:.1f} KiB a table over the empty server), "
              f"asleep {asleep(db):,}")
        print(f"idle {args.idle:.0f} s with every table waiting: server CPU {cpu2 - cpu1:.2f} s "
              f"({100 * (cpu2 - cpu1) / args.idle:.2f} % of a core), RSS {rss2:,} KiB")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        tmp.cleanup()


if __name__ == "__main__":
    main()
