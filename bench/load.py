"""Server capacity: many rooms at once against one server process, every seat a websocket.

    .venv/bin/python bench/load.py --tables 250 --seats 4 --seconds 30

starts ``tarocchi serve`` as a subprocess on 127.0.0.1 (a fresh SQLite file, no bot delays),
creates the rooms, and splits them over ``--procs`` client processes (asyncio on uvloop, each
seat a websocket). Each seat acts as soon as its own state frame says it is its turn, with a
legal action from that view's ``choices`` (a discard the rules allow, R11), and presses Next
deal once after a count: as fast as the rules allow, or after ``--think`` seconds per action.
The client processes read their sockets every ``--batch`` seconds (0.5 ms; 0: on every
frame), see ``read_in_batches``. It prints

- actions per second (accepted actions, all tables, over the measured window),
- latency from sending an action to the moment the last seat of the table has a state with a
  newer version (p50, p90, p99, max), measured in the client process that holds all the
  seats of that table (one clock),
- the CPU of the server and of each client process while measured, and the server's CPU
  time per action,
- the server's RSS before the rooms, with every seat connected, and at the end; per table,
- the frames the seats received per second, and their mean size on the wire,
- the server's cyclic garbage collections while measured: how many of each generation, and the
  longest pause (``TAROCCHI_GC_LOG``, server/collector.py; a server from before it reports none).

Bounded: ``--seconds`` of measured play after every seat is connected, then everything stops.
A table whose match ends starts a new room (so the load stays constant). Tables that all start
at once also end their matches together, some 17 s later, and 250 new rooms then connect at
once; ``--stagger S`` starts each table at a random moment within S seconds (the measured
window then begins after S seconds plus the warm-up), as tables are on a server that has been
up a while. ``--deflate`` offers permessage-deflate on every socket, as browsers do.
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
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Opcode
from websockets.frames import Frame as WsFrame
from websockets.http11 import Response
from websockets.uri import parse_uri

from tarocchi.engine.cards import mask_of
from tarocchi.games.sicilian import discard_refusal

SERVER_FLAGS = ["--bot-delay", "0", "--trick-pause", "0", "--bot-processes", "0",
                "--new-tables", "100000", "--connections-per-address", "100000"]  # every room comes from this one address


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def family(pid: int) -> list[int]:
    """The server process and its children (the workers of ``--workers``)."""
    out = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            for child in f.read().split():
                out += family(int(child))
    except OSError:
        pass
    return out


def rss_kib(pid: int) -> int:
    total = 0
    for p in family(pid):
        with open(f"/proc/{p}/status") as f:
            total += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
    return total


def cpu_seconds(pid: int) -> float:
    total = 0.0
    for p in family(pid):
        with open(f"/proc/{p}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


# --- one client process --------------------------------------------------------------------
#
# Lean on purpose: the client processes share the two cores with the server, so every
# microsecond a client spends on a frame is one the server does not get. A seat is a bare
# asyncio protocol driving websockets' sans-I/O state machine (no task or future per frame), a
# frame is decoded into the few fields the seat reads (msgspec skips the rest), and the
# choices are decoded only when it is the seat's turn. Each seat still waits for its own
# ``state`` frame and acts only on what that frame says.


class Summary(msgspec.Struct):
    status: str
    ready: list[bool]
    you: int
    deal_number: int


class Moment(msgspec.Struct):
    phase: str
    turn: int | None
    automatic: str | None = None  # the server answers for this seat (R12): a page asks nothing


class Frame(msgspec.Struct):
    type: str
    version: int = 0
    table: Summary | None = None
    view: Moment | None = None


class Choice(msgspec.Struct):
    action: str
    reason: str | None


class Choosing(msgspec.Struct):
    phase: str
    hand: list[str]
    choices: list[Choice]


class Full(msgspec.Struct):
    view: Choosing


decode_frame = msgspec.json.Decoder(Frame).decode
decode_full = msgspec.json.Decoder(Full).decode


def pick(view: Choosing, rng: random.Random) -> str:
    allowed = [c.action for c in view.choices if c.reason is None]
    if view.phase == "speak" and "vado solo" in allowed and rng.random() < 0.5:
        return "vado solo"  # most deals get played to the count
    if view.phase == "discard":
        hand = mask_of(view.hand)
        for _ in range(200):
            three = rng.sample(allowed, 3)
            if discard_refusal(hand, mask_of(three)) is None:
                return "discard " + " ".join(three)
    return rng.choice(allowed)


class Client:
    """What one client process shares: its statistics, the measured window and the start."""

    def __init__(self, think: float, seed: int, deflate: bool = False, stagger: float = 0.0):
        self.think = think
        self.stagger = stagger  # tables start at random moments within this many seconds
        self.deflate = deflate  # offer permessage-deflate, as browsers do
        self.rng = random.Random(seed)
        self.stats = {"connected": 0, "actions": 0, "refused": 0, "latencies": [], "matches": 0,
                      "deflated": 0, "wire_bytes": 0, "frames": 0}
        self.stop_at = [float("inf"), float("inf")]
        self.started = False
        self.waiting: list = []  # seats that may act once every seat is connected
        self.runs: set[TableRun] = set()

    def start(self) -> None:
        self.started = True
        loop = asyncio.get_running_loop()
        for act in self.waiting:
            if self.stagger:
                loop.call_later(self.rng.uniform(0, self.stagger), act)
            else:
                act()
        self.waiting.clear()


class TableRun:
    """The seats of one room, in one client process."""

    def __init__(self, n: int):
        self.n = n
        self.sent_at: dict[int, float] = {}      # version acted on -> send time
        self.seen: dict[int, set[int]] = {}      # version acted on -> seats that saw a newer one
        self.over = False
        self.done = asyncio.get_running_loop().create_future()  # the match ended or time is up

    def finish(self) -> None:
        if not self.done.done():
            self.done.set_result(None)


class SeatSocket(asyncio.Protocol):
    """One seat: its websocket and what it does on each frame."""

    def __init__(self, client: Client, run: TableRun, index: int, host: str, path: str):
        self.client, self.run, self.index = client, run, index
        self.ws = ClientProtocol(parse_uri(f"ws://{host}{path}"), max_size=2**22,
                                 extensions=[ClientPerMessageDeflateFactory()] if client.deflate else None)
        self.transport: asyncio.Transport | None = None
        self.opened = asyncio.get_running_loop().create_future()
        self.acted_on = -1  # the version this seat last acted on
        self.next_for = 0  # the deal after which it last pressed Next deal

    # the socket

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        stats = self.client.stats
        if self.client.stop_at[0] <= time.perf_counter() <= self.client.stop_at[1]:
            stats["wire_bytes"] += len(data)  # as sent: compressed, if permessage-deflate is on
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, WsFrame):
                if event.opcode is Opcode.TEXT:
                    self.on_frame(event.data)
            elif isinstance(event, Response):
                if not self.opened.done():
                    if self.ws.handshake_exc is not None:
                        self.opened.set_exception(self.ws.handshake_exc)
                    else:
                        self.opened.set_result(None)
        self._flush()

    def connection_lost(self, exc) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("closed before the handshake"))
        self.run.finish()

    def send(self, text: bytes) -> None:
        self.ws.send_text(text)
        self._flush()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def _flush(self) -> None:
        out = self.ws.data_to_send()
        if out and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(out))

    # the seat

    def on_frame(self, raw: bytes) -> None:
        client, run = self.client, self.run
        msg = decode_frame(raw)
        if client.stop_at[0] <= time.perf_counter() <= client.stop_at[1]:
            client.stats["frames"] += 1
        if msg.type != "state":
            if msg.type in ("refused", "error"):
                client.stats["refused"] += 1
            return
        now = time.perf_counter()
        version = msg.version
        for v in [v for v in run.sent_at if v < version]:
            seen = run.seen[v]
            seen.add(self.index)
            if len(seen) == run.n:
                if client.stop_at[0] <= now <= client.stop_at[1]:
                    client.stats["latencies"].append(now - run.sent_at[v])
                del run.sent_at[v], run.seen[v]
        if now > client.stop_at[1]:
            run.finish()
            return
        table, view = msg.table, msg.view
        if table.status == "over":
            run.over = True
            run.finish()
            return
        if view is None or self.acted_on == version:
            return
        me = table.you
        if table.status == "between":
            if not table.ready[me] and self.next_for != table.deal_number:
                self.next_for = table.deal_number  # once per deal, whatever the others do
                self._when_started(lambda: self.send(b'{"type":"next"}'))
            return
        if view.turn == me and view.phase != "done" and view.automatic is None:
            self.acted_on = version
            action = pick(decode_full(raw).view, client.rng)
            self._when_started(lambda: self._act(version, action))

    def _when_started(self, act) -> None:
        """Nobody plays until every seat of the process is connected; then after the think time."""
        if not self.client.started:
            self.client.waiting.append(lambda: self._when_started(act))
        elif self.client.think:
            asyncio.get_running_loop().call_later(self.client.think, act)
        else:
            act()

    def _act(self, version: int, action: str) -> None:
        run, client = self.run, self.client
        if run.done.done():
            return
        run.sent_at[version] = sent = time.perf_counter()
        run.seen[version] = set()
        self.send(msgspec.json.encode({"type": "act", "action": action, "id": version}))
        if client.stop_at[0] <= sent <= client.stop_at[1]:
            client.stats["actions"] += 1


async def open_seat(client: Client, run: TableRun, index: int, host: str, port: int, token: str,
                    gate: asyncio.Semaphore) -> SeatSocket:
    loop = asyncio.get_running_loop()
    async with gate:  # connect a few at a time
        _, seat = await loop.create_connection(
            lambda: SeatSocket(client, run, index, f"{host}:{port}", "/ws/" + token), host, port)
        await asyncio.wait_for(seat.opened, 60)
        client.stats["deflated"] += bool(seat.ws.extensions)
        seat.send(b'{"type":"hello","since":0}')
    client.stats["connected"] += 1
    return seat


async def read_in_batches(seconds: float, until: float) -> None:
    """Let frames gather for ``seconds``, then handle all that came. A client process asleep
    in epoll is woken by the kernel for every frame, and on one machine that wake-up (an
    interrupt to the other core, dear on a VM) is paid inside the server's write: a cost that
    clients on other machines never put on it. Sleeping outside epoll keeps it off the
    server; every frame is still read and timed when this process gets to it."""
    while time.perf_counter() < until:
        time.sleep(seconds)  # blocks the loop on purpose: the sockets fill meanwhile
        await asyncio.sleep(0)


async def client_main(url: str, rooms: list[list[str]], think: float, ready, go, result, seed: int,
                      deflate: bool, stagger: float) -> None:
    client = Client(think, seed, deflate, stagger)
    stats = client.stats
    host, port = url.removeprefix("ws://").rsplit(":", 1)
    gate = asyncio.Semaphore(32)
    # One HTTP client for the process: making one (an SSL context) stalls the loop for
    # milliseconds, which would show up as latency of every seat in the process.
    http = httpx.AsyncClient()

    async def table(tokens: list[str]):
        while True:
            run = TableRun(len(tokens))
            client.runs.add(run)
            seats = await asyncio.gather(*(open_seat(client, run, i, host, int(port), t, gate)
                                           for i, t in enumerate(tokens)))
            await run.done
            for seat in seats:
                seat.close()
            if not run.over or time.perf_counter() > client.stop_at[1]:
                return
            stats["matches"] += 1
            # A finished match: a new room, same load.
            r = await http.post(url.replace("ws://", "http://") + "/api/rooms", json={"seats": len(tokens)})
            tokens = [link.removeprefix("/t/") for link in r.json()["links"]]

    tasks = [asyncio.create_task(table(tokens)) for tokens in rooms]
    while stats["connected"] < sum(len(r) for r in rooms):
        await asyncio.sleep(0.05)
        failed = [t for t in tasks if t.done() and t.exception()]
        if failed:
            raise SystemExit(f"a table failed: {failed[0].exception()!r}")
    ready.set()
    while not go.is_set():
        await asyncio.sleep(0.01)
    start = time.perf_counter()
    client.stop_at[0], client.stop_at[1] = start + go.warmup, start + go.warmup + go.seconds
    if go.batch:
        asyncio.create_task(read_in_batches(go.batch, client.stop_at[1] + 1))
    client.start()
    await asyncio.sleep(go.warmup)
    cpu1 = time.process_time()
    await asyncio.sleep(max(0.0, client.stop_at[1] - time.perf_counter()))
    stats["cpu"] = time.process_time() - cpu1
    for run in client.runs:
        run.finish()
    await asyncio.wait(tasks, timeout=10)
    for t in tasks:
        t.cancel()
    result.put({k: v for k, v in stats.items()})


class Go:
    """A start signal shared with the client processes, with the window to measure."""

    def __init__(self, event, warmup: float, seconds: float, batch: float):
        self.event, self.warmup, self.seconds, self.batch = event, warmup, seconds, batch

    def is_set(self) -> bool:
        return self.event.is_set()


def client_process(url, rooms, think, ready, go_event, warmup, seconds, batch, result, seed, deflate, stagger):
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    asyncio.run(client_main(url, rooms, think, ready, Go(go_event, warmup, seconds, batch), result, seed, deflate,
                            stagger))


# --- the driver ----------------------------------------------------------------------------------

def collections_between(path: str, start: float, end: float) -> list[tuple[int, float, float]]:
    """(generation, pause, CPU in seconds) of the server's collections that ended in [start,
    end]: the lines server/collector.py writes when TAROCCHI_GC_LOG names a file."""
    try:
        with open(path) as f:
            lines = [line.split() for line in f]
    except OSError:
        return []
    return [(int(gen), float(pause), float(cpu)) for at, gen, pause, _, cpu in lines if start <= float(at) <= end]


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
    p.add_argument("--batch", type=float, default=0.0005,
                   help="client processes read their sockets every so many seconds (0: woken per frame)")
    p.add_argument("--stagger", type=float, default=0.0,
                   help="start each table at a random moment within this many seconds (then warm up), so "
                        "that matches do not all end together as they do when every table starts at once")
    p.add_argument("--deflate", action="store_true",
                   help="offer permessage-deflate as browsers do (a server that accepts it compresses every frame)")
    p.add_argument("--profile", help="run the server under cProfile, write the stats here")
    p.add_argument("--db", help="the server's database (a PostgreSQL URL; default: a new SQLite file)")
    p.add_argument("--workers", type=int, default=1, help="server processes, one site (needs --bus)")
    p.add_argument("--bus", help="the site's Redis URL (tarocchi serve --bus)")
    args = p.parse_args()

    tmp = tempfile.TemporaryDirectory(prefix="tarocchi-load-")
    db = args.db or os.path.join(tmp.name, "load.sqlite3")
    port = free_port()
    site = ["--workers", str(args.workers)] + (["--bus", args.bus] if args.bus else [])
    cmd = [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port), "--db", db, *SERVER_FLAGS, *site]
    if args.profile:
        cmd = [sys.executable, "-m", "cProfile", "-o", args.profile, *cmd[1:]]
    # The server's collections, each timed (server/collector.py); kept where TAROCCHI_GC_LOG says.
    gc_log = os.environ.get("TAROCCHI_GC_LOG") or os.path.join(tmp.name, "gc.log")
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env={**os.environ, "TAROCCHI_GC_LOG": gc_log})
    base = f"http://127.0.0.1:{port}"
    wall1 = wall2 = 0.0
    try:
        for _ in range(300):
            try:
                if httpx.get(base + "/api/levels", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        if args.workers > 1:
            time.sleep(2.0)  # every worker up: each takes its share of the connections
        rss0 = rss_kib(server.pid)
        with httpx.Client() as http:
            rooms = []
            for _ in range(args.tables):
                r = http.post(base + "/api/rooms", json={"seats": args.seats})
                rooms.append([link.removeprefix("/t/") for link in r.json()["links"]])
        ctx = mp.get_context("spawn")
        ready = [ctx.Event() for _ in range(args.procs)]
        go, result = ctx.Event(), ctx.Queue()
        warmup = args.stagger + args.warmup  # measured once every table has been playing a while
        procs = [ctx.Process(target=client_process, args=(f"ws://127.0.0.1:{port}", rooms[i::args.procs], args.think,
                                                          ready[i], go, warmup, args.seconds, args.batch, result, i,
                                                          args.deflate, args.stagger))
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
        time.sleep(warmup)
        cpu1, wall1 = cpu_seconds(server.pid), time.time()
        outs = [result.get(timeout=args.seconds + 60) for _ in procs]
        cpu2, wall2 = cpu_seconds(server.pid), time.time()
        rss2 = rss_kib(server.pid)
        for pr in procs:
            pr.join(20)
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        gc_reported = os.path.exists(gc_log)  # (made when the server starts, if it logs them)
        pauses = collections_between(gc_log, wall1, wall2) if gc_reported and wall2 else []
        tmp.cleanup()
    lat = [x for o in outs for x in o["latencies"]]
    actions = sum(o["actions"] for o in outs)
    clients = args.tables * args.seats
    ms = lambda x: f"{x * 1000:.1f}"  # noqa: E731
    deflated, opened = sum(o["deflated"] for o in outs), sum(o["connected"] for o in outs)
    deflate = f", permessage-deflate offered: {deflated} of {opened} sockets use it" if args.deflate else ""
    print(f"tables {args.tables} x {args.seats} seats = {clients} clients, {args.procs} client processes, "
          f"think {args.think} s, batch {args.batch * 1000:g} ms, starts staggered over {args.stagger:g} s{deflate}; connected in {connect_s:.1f} s")
    print(f"actions/s {actions / args.seconds:,.0f} ({actions} in {args.seconds:.0f} s); "
          f"refused {sum(o['refused'] for o in outs)}; matches finished {sum(o['matches'] for o in outs)}")
    print(f"latency action -> last seat's update, ms: p50 {ms(percentile(lat, 50))} p90 {ms(percentile(lat, 90))} "
          f"p99 {ms(percentile(lat, 99))} max {ms(max(lat) if lat else float('nan'))} (n={len(lat)})")
    print(f"CPU while measured, % of one core: server {100 * (cpu2 - cpu1) / args.seconds:.0f}, clients "
          + " + ".join(f"{100 * o['cpu'] / args.seconds:.0f}" for o in outs)
          + f"; server {1e6 * (cpu2 - cpu1) / max(1, actions):.0f} us CPU per action"
          + f"; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"server RSS KiB: start {rss0:,}, all connected {rss1:,}, end {rss2:,}; "
          f"per table {(rss1 - rss0) / args.tables:,.0f} connected, {(rss2 - rss0) / args.tables:,.0f} at the end")
    by_gen = [sum(1 for p in pauses if p[0] == gen) for gen in range(3)]
    longest = max(pauses, key=lambda p: p[1], default=None)
    print("server collections while measured: " + (
        f"{by_gen[0]} / {by_gen[1]} / {by_gen[2]} of generations 0 / 1 / 2; longest pause "
        + (f"{ms(longest[1])} ms (generation {longest[0]}, {ms(longest[2])} ms of CPU), all pauses "
           f"{ms(sum(p[1] for p in pauses))} ms ({ms(sum(p[2] for p in pauses))} ms of CPU)" if longest else "none")
        if gc_reported else "not reported (a server from before TAROCCHI_GC_LOG)"))
    frames = sum(o["frames"] for o in outs)
    print(f"frames to the seats {frames / args.seconds:,.0f}/s, {sum(o['wire_bytes'] for o in outs) / max(1, frames):,.0f} "
          f"bytes each on the wire")
    return 0


if __name__ == "__main__":
    sys.exit(main())
