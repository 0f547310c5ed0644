"""Server capacity: many rooms at once against one server process, every seat a websocket.

    .venv/bin/python bench/load.py --tables 250 --seats 4 --seconds 30

starts ``tarocchi serve`` as a subprocess on 127.0.0.1 (a fresh SQLite file, no bot delays),
creates the rooms, and splits them over ``--procs`` client processes (asyncio + websockets).
Each seat acts as soon as its own view says it is its turn, with a legal action from
``view["choices"]`` (a discard the rules allow, R11), and presses Next deal after a count: as
fast as the rules allow, or after ``--think`` seconds per action. It prints

- actions per second (accepted actions, all tables, over the measured window),
- latency from sending an action to the moment the last seat of the table has a state with a
  newer version (p50, p90, p99, max), measured in the client process that holds all the
  seats of that table (one clock),
- the server's RSS before the rooms, with every seat connected, and at the end; per table.

Bounded: ``--seconds`` of measured play after every seat is connected, then everything stops.
A table whose match ends starts a new room (so the load stays constant).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time

import httpx
import msgspec

SERVER_FLAGS = ["--bot-delay", "0", "--trick-pause", "0", "--bot-processes", "0",
                "--new-tables", "100000"]  # every room comes from this one address


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- one client process --------------------------------------------------------------------

def pick(view: dict, rng: random.Random) -> str:
    from tarocchi.engine.cards import mask_of
    from tarocchi.engine.sicilian import discard_refusal

    allowed = [c["action"] for c in view["choices"] if c["reason"] is None]
    if view["phase"] == "speak" and "vado solo" in allowed and rng.random() < 0.5:
        return "vado solo"  # most deals get played to the count
    if view["phase"] == "discard":
        hand = mask_of(view["hand"])
        for _ in range(200):
            three = rng.sample(allowed, 3)
            if discard_refusal(hand, mask_of(three)) is None:
                return "discard " + " ".join(three)
    return rng.choice(allowed)


class TableRun:
    """The seats of one room, in one client process."""

    def __init__(self, n: int):
        self.n = n
        self.sent_at: dict[int, float] = {}      # version acted on -> send time
        self.seen: dict[int, set[int]] = {}      # version acted on -> seats that saw a newer one
        self.over = False


async def seat_loop(url: str, token: str, seat_index: int, run: TableRun, stats: dict, think: float,
                    stop_at: list[float], rng: random.Random, gate: asyncio.Semaphore,
                    started: asyncio.Event) -> None:
    from websockets.asyncio.client import connect

    decode = msgspec.json.decode
    async with gate:  # connect a few at a time
        ws = await connect(url + "/ws/" + token, max_size=2**22, compression=None, open_timeout=60)
        await ws.send('{"type":"hello","since":0}')
    stats["connected"] += 1
    async with ws:
        acted_on = -1
        async for raw in ws:
            msg = decode(raw)
            if msg.get("type") != "state":
                if msg.get("type") in ("refused", "error"):
                    stats["refused"] += 1
                continue
            now = time.perf_counter()
            version = msg["version"]
            for v in [v for v in run.sent_at if v < version]:
                seen = run.seen[v]
                seen.add(seat_index)
                if len(seen) == run.n:
                    if stop_at[0] <= now <= stop_at[1]:
                        stats["latencies"].append(now - run.sent_at[v])
                    del run.sent_at[v], run.seen[v]
            if now > stop_at[1]:
                return
            table, view = msg["table"], msg["view"]
            if table["status"] == "over":
                run.over = True
                return
            if view is None:
                continue
            me = table["you"]
            if table["status"] == "between":
                if not table["ready"][me] and acted_on != version:
                    acted_on = version
                    await started.wait()
                    await ws.send('{"type":"next"}')
                continue
            if view["turn"] == me and view["phase"] != "done" and acted_on != version:
                acted_on = version
                await started.wait()  # nobody plays until every seat is connected
                action = pick(view, rng)
                if think:
                    await asyncio.sleep(think)
                run.sent_at[version] = time.perf_counter()
                run.seen[version] = set()
                await ws.send(msgspec.json.encode({"type": "act", "action": action, "id": version}))
                if stop_at[0] <= run.sent_at[version] <= stop_at[1]:
                    stats["actions"] += 1


async def client_main(url: str, rooms: list[list[str]], think: float, ready, go, result, seed: int) -> None:
    rng = random.Random(seed)
    stats = {"connected": 0, "actions": 0, "refused": 0, "latencies": [], "matches": 0}
    stop_at = [float("inf"), float("inf")]
    tasks = []
    gate = asyncio.Semaphore(32)
    started = asyncio.Event()

    async def table(tokens: list[str]):
        while True:
            run = TableRun(len(tokens))

            await asyncio.gather(*(seat_loop(url, t, i, run, stats, think, stop_at, rng, gate, started)
                                   for i, t in enumerate(tokens)))
            if not run.over or time.perf_counter() > stop_at[1]:
                return
            stats["matches"] += 1
            async with httpx.AsyncClient() as http:  # a finished match: a new room, same load
                r = await http.post(url.replace("ws://", "http://") + "/api/rooms", json={"seats": len(tokens)})
                tokens = [link.removeprefix("/t/") for link in r.json()["links"]]

    for tokens in rooms:
        tasks.append(asyncio.create_task(table(tokens)))
    while stats["connected"] < sum(len(r) for r in rooms):
        await asyncio.sleep(0.05)
        failed = [t for t in tasks if t.done() and t.exception()]
        if failed:
            raise SystemExit(f"a table failed: {failed[0].exception()!r}")
    ready.set()
    while not go.is_set():
        await asyncio.sleep(0.01)
    start = time.perf_counter()
    stop_at[0], stop_at[1] = start + go.warmup, start + go.warmup + go.seconds
    started.set()
    await asyncio.sleep(go.warmup)
    cpu1 = time.process_time()
    await asyncio.sleep(max(0.0, stop_at[1] - time.perf_counter()))
    stats["cpu"] = time.process_time() - cpu1
    await asyncio.wait(tasks, timeout=10)
    for t in tasks:
        t.cancel()
    result.put({k: v for k, v in stats.items()})


class Go:
    """A start signal shared with the client processes, with the window to measure."""

    def __init__(self, event, warmup: float, seconds: float):
        self.event, self.warmup, self.seconds = event, warmup, seconds

    def is_set(self) -> bool:
        return self.event.is_set()


def client_process(url, rooms, think, ready, go_event, warmup, seconds, result, seed):
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    asyncio.run(client_main(url, rooms, think, ready, Go(go_event, warmup, seconds), result, seed))


# --- the driver ----------------------------------------------------------------------------------

def percentile(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=250)
    p.add_argument("--seats", type=int, choices=(3, 4), default=4)
    p.add_argument("--seconds", type=float, default=30, help="measured play (after connecting and warm-up)")
    p.add_argument("--warmup", type=float, default=3)
    p.add_argument("--procs", type=int, default=2, help="client processes")
    p.add_argument("--think", type=float, default=0.0, help="seconds each seat waits before acting")
    p.add_argument("--profile", help="run the server under cProfile, write the stats here")
    args = p.parse_args()

    tmp = tempfile.TemporaryDirectory(prefix="tarocchi-load-")
    db = os.path.join(tmp.name, "load.sqlite3")
    port = free_port()
    cmd = [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port), "--db", db, *SERVER_FLAGS]
    if args.profile:
        cmd = [sys.executable, "-m", "cProfile", "-o", args.profile, *cmd[1:]]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/api/levels", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        rss0 = rss_kib(server.pid)
        with httpx.Client() as http:
            rooms = []
            for _ in range(args.tables):
                r = http.post(base + "/api/rooms", json={"seats": args.seats})
                rooms.append([link.removeprefix("/t/") for link in r.json()["links"]])
        ctx = mp.get_context("spawn")
        ready = [ctx.Event() for _ in range(args.procs)]
        go, result = ctx.Event(), ctx.Queue()
        procs = [ctx.Process(target=client_process, args=(f"ws://127.0.0.1:{port}", rooms[i::args.procs], args.think,
                                                          ready[i], go, args.warmup, args.seconds, result, i))
                 for i in range(args.procs)]
        t0 = time.perf_counter()
        for pr in procs:
            pr.start()
        for ev in ready:
            if not ev.wait(600):
                raise SystemExit("the clients did not connect in time")
        connect_s = time.perf_counter() - t0
        rss1 = rss_kib(server.pid)
        go.set()
        time.sleep(args.warmup)
        cpu1 = cpu_seconds(server.pid)
        outs = [result.get(timeout=args.seconds + 60) for _ in procs]
        cpu2 = cpu_seconds(server.pid)
        rss2 = rss_kib(server.pid)
        for pr in procs:
            pr.join(20)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        tmp.cleanup()
    lat = [x for o in outs for x in o["latencies"]]
    actions = sum(o["actions"] for o in outs)
    clients = args.tables * args.seats
    ms = lambda x: f"{x * 1000:.1f}"  # noqa: E731
    print(f"tables {args.tables} x {args.seats} seats = {clients} clients, {args.procs} client processes, "
          f"think {args.think} s; connected in {connect_s:.1f} s")
    print(f"actions/s {actions / args.seconds:,.0f} ({actions} in {args.seconds:.0f} s); "
          f"refused {sum(o['refused'] for o in outs)}; matches finished {sum(o['matches'] for o in outs)}")
    print(f"latency action -> last seat's update, ms: p50 {ms(percentile(lat, 50))} p90 {ms(percentile(lat, 90))} "
          f"p99 {ms(percentile(lat, 99))} max {ms(max(lat) if lat else float('nan'))} (n={len(lat)})")
    print(f"CPU while measured, % of one core: server {100 * (cpu2 - cpu1) / args.seconds:.0f}, clients "
          + " + ".join(f"{100 * o['cpu'] / args.seconds:.0f}" for o in outs)
          + f"; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"server RSS KiB: start {rss0:,}, all connected {rss1:,}, end {rss2:,}; "
          f"per table {(rss1 - rss0) / args.tables:,.0f} connected, {(rss2 - rss0) / args.tables:,.0f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
