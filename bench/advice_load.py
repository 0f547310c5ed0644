"""Advice against the tables' play (issue 37, item 7): does a load of hints and reviews delay
another table's computers?

    .venv/bin/python bench/advice_load.py --shared-executor

starts ``tarocchi serve`` as a subprocess on 127.0.0.1 (a fresh SQLite file, no bot delays,
the bots' worker processes as ``serve`` has them by default) and opens, every seat a websocket:

- the **probe**: a computer table (``--probe-level``, rule by default) whose person acts
  0.1 s into each turn (``THINK``: a socket may send 30 messages a second); each of its
  computers' turns is timed at the client, from the state that hands it the turn to the state
  with its action;
- ``--hint-tables`` computer tables (random computers: their own play costs nothing) spread
  over ``--addresses`` client addresses (127.0.0.2, 127.0.0.3, ...: loopback, distinct to the
  server), each asking a hint on every turn of its person and acting once it is answered (a
  refusal is asked again after half a second): a hint in flight at every table, all the time;
- ``--review-tables`` computer tables of one more address, each playing its deals to the
  count and asking for the review, again and again;
- a **victim** reviewer: one more table of its own address doing the same, quiet or not.

First the probe (and the victim) alone for ``--seconds``, then with the load, after
``--warmup`` seconds, for ``--seconds`` more. It prints the probe's computers' turn times
(median, p95, max) in both windows, the decisions the victim's reviews got through and the
reviews it ended, and what the load got: hints answered and how long each took, refusals by
reason. ``--shared-executor`` runs it all a first time on a server started with
``--advice-workers 0`` (advice on the tables' own bot workers, as before issue 37; the new
bounds and budgets still hold there, so it shows less than the old server did), and prints
both. The default run passes no new flag: on a checkout from before issue 37 it measures the
old server itself. Bounded: about 50 s a server.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

import httpx
import websockets

from tarocchi.bots import make_player

THINK = 0.1  # seconds each person takes to act
SERVER_FLAGS = ["--bot-delay", "0", "--trick-pause", "0", "--new-tables", "100000",
                "--connections-per-address", "100000"]


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Window:
    """Which measured window it is now: None (not measuring), "quiet" or "loaded"."""
    name: str | None = None


class Seat:
    """One seat's socket: the latest state, and the other messages in a queue."""

    def __init__(self, ws):
        self.ws = ws
        self.state: dict | None = None
        self.changed = asyncio.Event()
        self.messages: asyncio.Queue = asyncio.Queue()
        self.on_state = None  # called with each state as it arrives (the probe's timing)
        self.acted_on = 0  # the version this seat last acted on
        self.pressed: tuple | None = None  # the last Next deal or Play again, and for which deal
        self.reader = asyncio.get_running_loop().create_task(self.read())

    @classmethod
    async def open(cls, ws_url: str, token: str, address: str) -> Seat:
        ws = await websockets.connect(f"{ws_url}/ws/{token}", local_addr=(address, 0), max_size=2**22,
                                      compression=None, open_timeout=30)
        seat = cls(ws)
        await seat.send({"type": "hello", "since": 0})
        return seat

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if msg["type"] == "state":
                    self.state = msg
                    if self.on_state is not None:
                        self.on_state(msg)
                    self.changed.set()
                else:
                    self.messages.put_nowait(msg)
        except websockets.ConnectionClosed:
            pass

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def changes(self) -> None:
        """Until the next state (nothing runs between a check of ``state`` and this)."""
        self.changed.clear()
        await self.changed.wait()

    async def answer(self, kinds: tuple[str, ...], timeout: float = 120.0) -> dict:
        end = time.monotonic() + timeout
        while True:
            msg = await asyncio.wait_for(self.messages.get(), max(0.01, end - time.monotonic()))
            if msg["type"] in kinds:
                return msg

    async def press_on(self, s: dict) -> bool:
        """Next deal after a count, Play again after a match (once each); True if it pressed."""
        table = s["table"]
        me = table["you"]
        if table["status"] == "between" and not table["ready"][me]:
            press = ("next", table["deal_number"], len(table["sheet"]))
        elif table["status"] == "over" and not table["rematch"][me]:
            press = ("rematch", len(table["sheet"]), tuple(table["totals"]))
        else:
            return False
        if press == self.pressed:
            return False
        self.pressed = press
        await self.send({"type": press[0]})
        return True

    def to_act(self, s: dict) -> bool:
        table, view = s["table"], s["view"]
        return (view is not None and s["version"] > self.acted_on and table["status"] == "playing"
                and view["phase"] != "done" and view["turn"] == table["you"] and not view.get("automatic"))

    async def my_turn(self) -> dict:
        """The next state in which this seat must act, pressing Next deal (Play again) on the way."""
        while True:
            s = self.state
            if s is not None and s["view"] is not None:
                if await self.press_on(s):
                    continue
                if self.to_act(s):
                    return s
            await self.changes()

    async def act(self, state: dict) -> None:
        """After THINK seconds (a socket may send 30 messages a second: the computers answer at once)."""
        self.acted_on = state["version"]
        await asyncio.sleep(THINK)
        view = state["view"]
        await self.send({"type": "act", "action": make_player("random", state["version"], view["game"])(view),
                         "id": state["version"]})


async def probe(seat: Seat, turns: dict[str, list[float]]) -> None:
    """The person acts at once; each computer turn timed from the state handing it the turn."""
    pending: list = []  # [version, time] while a computer is to act

    def timed(s: dict) -> None:
        now = time.perf_counter()
        if pending and s["version"] > pending[0]:
            if Window.name is not None:
                turns[Window.name].append(now - pending[1])
            pending.clear()
        table, view = s["table"], s["view"]
        if (view is not None and table["status"] == "playing" and view["phase"] != "done"
                and view["turn"] != table["you"] and table["bots"][view["turn"]] and not view.get("automatic")):
            pending[:] = [s["version"], now]
    seat.on_state = timed
    while True:
        await seat.act(await seat.my_turn())


async def hinter(seat: Seat, stats: dict) -> None:
    """A hint on every turn, asked again after a refusal; the seat acts once it is answered."""
    while True:
        state = await seat.my_turn()
        while True:
            asked = time.perf_counter()
            await seat.send({"type": "hint"})
            answer = await seat.answer(("hint", "refused"))
            if answer["type"] == "hint":
                stats["hint_seconds"].append(time.perf_counter() - asked)
                break
            stats["refused"][answer.get("reason_id") or answer["reason"]] += 1
            await asyncio.sleep(0.5)
        await seat.act(state)


async def reviewer(seat: Seat, reviews: list[float], stats: dict | None = None,
                   decisions: collections.Counter | None = None) -> None:
    """Plays each deal to its count, then asks for its review (again after a refusal) and
    waits for it to end; then the next deal. ``reviews``: each review's seconds; ``decisions``:
    the decisions reviewed in each window."""
    reviewed = False  # this deal's
    while True:
        s = seat.state
        if s is not None and s["view"] is not None:
            done = s["view"]["phase"] == "done"
            reviewed = reviewed and done
            if done and not reviewed:
                reviewed = True
                asked = time.perf_counter()
                while True:
                    await seat.send({"type": "review"})
                    answer = await seat.answer(("review", "refused"))
                    if answer["type"] == "review":
                        break
                    if stats is not None:
                        stats["refused"][answer.get("reason_id") or answer["reason"]] += 1
                    await asyncio.sleep(1.0)
                seen = len(answer["items"])
                while not answer["done"]:
                    answer = await seat.answer(("review",))
                    if decisions is not None and Window.name is not None:
                        decisions[Window.name] += len(answer["items"]) - seen
                    seen = len(answer["items"])
                reviews.append(time.perf_counter() - asked)
                continue
            if await seat.press_on(s):
                continue
            if seat.to_act(s):
                await seat.act(s)
                continue
        await seat.changes()


async def run_server_load(args, shared: bool) -> dict:
    tmp = tempfile.TemporaryDirectory(prefix="tarocchi-advice-load-")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port),
           "--db", os.path.join(tmp.name, "advice.sqlite3"), *SERVER_FLAGS]
    if args.bot_processes is not None:
        cmd += ["--bot-processes", str(args.bot_processes)]
    if shared:
        cmd += ["--advice-workers", "0"]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    tasks: list[asyncio.Task] = []
    seats: list[Seat] = []
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            for _ in range(300):
                try:
                    if (await http.get(base + "/api/levels")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.1)
            else:
                raise SystemExit("the server did not start")

            async def table(level: str) -> str:
                r = await http.post(base + "/api/computer", json={"seats": 3, "level": level, "game": "sicilian"})
                r.raise_for_status()
                return r.json()["link"].removeprefix("/t/")

            turns: dict[str, list[float]] = {"quiet": [], "loaded": []}
            victim: dict[str, list[float]] = {"quiet": [], "loaded": []}
            stats = {"hint_seconds": [], "refused": collections.Counter(), "reviews": []}
            probe_seat = await Seat.open(ws_url, await table(args.probe_level), "127.0.0.1")
            victim_seat = await Seat.open(ws_url, await table("random"), "127.0.0.254")
            seats += [probe_seat, victim_seat]
            victim_reviews: list[float] = []
            victim_decisions: collections.Counter = collections.Counter()
            tasks += [asyncio.create_task(probe(probe_seat, turns)),
                      asyncio.create_task(reviewer(victim_seat, victim_reviews, decisions=victim_decisions))]
            await asyncio.sleep(2.0)  # the processes warm up
            Window.name = "quiet"
            await asyncio.sleep(args.seconds)
            Window.name = None
            victim["quiet"], victim_reviews[:] = list(victim_reviews), []
            for i in range(args.hint_tables):
                seat = await Seat.open(ws_url, await table("random"), f"127.0.0.{2 + i % args.addresses}")
                seats.append(seat)
                tasks.append(asyncio.create_task(hinter(seat, stats)))
            for _ in range(args.review_tables):
                seat = await Seat.open(ws_url, await table("random"), "127.0.0.253")
                seats.append(seat)
                tasks.append(asyncio.create_task(reviewer(seat, stats["reviews"], stats)))
            await asyncio.sleep(args.warmup)
            stats["hint_seconds"].clear()
            stats["refused"].clear()
            victim_reviews.clear()
            Window.name = "loaded"
            await asyncio.sleep(args.seconds)
            Window.name = None
            victim["loaded"] = list(victim_reviews)
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for seat in seats:
            await seat.ws.close()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
        tmp.cleanup()
    return {"turns": turns, "victim": victim, "victim_decisions": victim_decisions, **stats}


def report(title: str, r: dict, seconds: float) -> None:
    ms = lambda xs, q: f"{percentile(xs, q) * 1000:.0f}"  # noqa: E731
    print(title)
    for window in ("quiet", "loaded"):
        xs = r["turns"][window]
        print(f"  {window:6}  the probe's computer turns: n={len(xs)}, median {ms(xs, 0.5)} ms, p95 {ms(xs, 0.95)} ms, "
              f"max {max(xs, default=float('nan')) * 1000:.0f} ms; the victim: {r['victim_decisions'][window]} "
              f"decisions reviewed, reviews ended: " + (", ".join(f"{x:.1f} s" for x in r["victim"][window])
                                                          or "none"))
    hs = r["hint_seconds"]
    refused = ", ".join(f"{k} {v}" for k, v in sorted(r["refused"].items())) or "none"
    print(f"  the load in {seconds:g} s: {len(hs)} hints answered ({len(hs) / seconds:.1f}/s), each in median "
          f"{percentile(hs, 0.5):.2f} s, p95 {percentile(hs, 0.95):.2f} s; {len(r['reviews'])} reviews ended "
          f"(median {percentile(r['reviews'], 0.5):.1f} s); refused: {refused}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hint-tables", type=int, default=30)
    p.add_argument("--addresses", type=int, default=10, help="client addresses the hint tables come from")
    p.add_argument("--review-tables", type=int, default=10, help="tables of one more address asking for reviews")
    p.add_argument("--seconds", type=float, default=20, help="each measured window")
    p.add_argument("--warmup", type=float, default=5, help="seconds of load before its window")
    p.add_argument("--probe-level", default="rule")
    p.add_argument("--bot-processes", type=int, default=None, help="the server's (default: serve's own)")
    p.add_argument("--shared-executor", action="store_true",
                   help="first a server with advice on the tables' bot workers (--advice-workers 0), for comparison")
    args = p.parse_args()
    if not 1 <= args.addresses <= 250:
        p.error("--addresses: 1 to 250")
    print(f"{args.hint_tables} hint tables over {args.addresses} addresses, {args.review_tables} review tables "
          f"from one more, probe level {args.probe_level}; {os.cpu_count()} cores", flush=True)
    runs = [True, False] if args.shared_executor else [False]
    for shared in runs:
        began = time.monotonic()
        result = asyncio.run(run_server_load(args, shared))
        title = ("advice on the tables' bot workers (serve --advice-workers 0, as before issue 37)" if shared else
                 "advice on its own worker (serve's default)")
        report(f"{title}; {time.monotonic() - began:.0f} s", result, args.seconds)
        sys.stdout.flush()
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
