"""Tournaments on a site of two processes (issue 59), played by simulated people over websockets.

Starts a PostgreSQL cluster (tests/postgres.py) and a Redis (tests/redis_server.py), then two
server processes (this file with ``--serve``: the app of ``tarocchi serve`` with a short arena
minute and tick) on them. ``--players`` accounts sign up (half on each process) and join an
arena; each plays the seat its bell rings it to (the bench reads the bell items from the
database, as the page's bell would show them), on its own process, over a websocket: a random
legal action ``--think`` seconds after its turn comes, "Next deal" between deals. Then the same
for a duplicate of ``--duplicate`` players and ``--rounds`` rounds.

It prints, for each event: the seating of each round or arena pass (the server's own timing of
``Tournaments.seat_arena``/``seat_round``, the search and the tables' making), the actions a
second the players had answered, p50/p99 of a move (its ``act`` sent until the state with it
is back on the same socket), the cost of ``GET /api/tournaments/<id>`` (the standings) seen by a
client and measured in the server, and each server process's CPU.

    PYTHONPATH=. .venv/bin/python bench/tournament_site.py [--players 1000] [--seconds 120]

``tournaments.MOST_PLAYERS`` (200) is raised in the bench's processes for its arena of 1,000.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TIMED = "BENCH "  # the server's lines of timings in its log


def serve(port: int, db: str, bus: str, name: str, players: int, every: float, minute: float) -> None:
    """One process of the site, its seating and standings timed into its log."""
    import functools
    import logging

    import uvicorn

    import tarocchi.server.tournaments as tournaments
    from tarocchi.server.app import create_app, server_config

    tournaments.MOST_PLAYERS = max(tournaments.MOST_PLAYERS, players)

    def note(**fields) -> None:
        print(TIMED + json.dumps(fields), file=sys.stderr, flush=True)

    def timed_async(method):
        @functools.wraps(method)
        async def wrapper(self, t, *args, **kw):
            start, cpu = time.perf_counter(), time.thread_time()
            made = len(self.rounds)
            await method(self, t, *args, **kw)
            if len(self.rounds) != made:  # (only the passes that seated someone)
                note(what=method.__name__, seconds=time.perf_counter() - start,
                     loop_cpu=time.thread_time() - cpu, tables=len(self.rounds) - made)
        return wrapper

    def timed_view(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kw):
            start = time.perf_counter()
            out = method(self, *args, **kw)
            note(what="view", seconds=time.perf_counter() - start, players=len(out["players"]))
            return out
        return wrapper

    tournaments.Tournaments.seat_arena = timed_async(tournaments.Tournaments.seat_arena)
    tournaments.Tournaments.seat_round = timed_async(tournaments.Tournaments.seat_round)
    tournaments.Tournaments.view = timed_view(tournaments.Tournaments.view)
    logging.basicConfig(level=logging.WARNING)
    app = create_app(db, bot_delay=0.3, trick_pause=0.3, bus=bus, process=name, lease=5.0,
                     new_tables=(1_000_000, 1000.0), lobby=(1_000_000, 1000.0), sign_in=(1_000_000, 1000.0),
                     budget=(1_000, 100.0),
                     tournaments={"every": every, "minute": minute, "no_show": 60.0, "leave_after": 60.0,
                                  "arena_wait": 5.0, "clock": 30.0})
    config = server_config(app, "127.0.0.1", port, proxy="127.0.0.1", connections_per_address=100_000,
                           header_timeout=30.0, log_level="warning", lifespan="on")
    uvicorn.Server(config).run()


class Server:
    def __init__(self, db: str, bus: str, name: str, players: int, every: float, minute: float, log: Path):
        from tests.server.live import free_port

        self.port, self.log_path, self.name = free_port(), log, name
        self.url, self.ws_url = f"http://127.0.0.1:{self.port}", f"ws://127.0.0.1:{self.port}"
        self.log = open(log, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(self.port), db, bus, name, str(players), str(every), str(minute)],
            stdout=subprocess.DEVNULL, stderr=self.log, env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def wait(self) -> None:
        import httpx

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/api/levels", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} did not start")

    def cpu(self) -> float:
        """The process's CPU seconds so far (user and system)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def timings(self) -> list[dict]:
        return [json.loads(line[len(TIMED):]) for line in self.log_path.read_text(errors="replace").splitlines()
                if line.startswith(TIMED)]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def address(n: int) -> dict:
    """Person ``n``'s own client address (the servers believe 127.0.0.1's X-Forwarded-For)."""
    return {"X-Forwarded-For": f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"}


class Stats:
    def __init__(self):
        self.moves: list[float] = []  # seconds, act sent -> its state back
        self.errors: list[str] = []
        self.seated = 0


async def play_seat(server: Server, cookie: str, token: str, think: float, rng: random.Random, stats: Stats,
                    stop: float) -> None:
    """One person's seat: every turn a random legal action, "Next deal" between deals, until
    the match is over or ``stop`` (the loop's clock)."""
    from tarocchi.server.core.sessions import COOKIE
    from tests.server.seat import Seat

    import websockets

    loop = asyncio.get_running_loop()
    opened = False
    while loop.time() < stop:
        seat = None
        for attempt in range(6):  # (as the page does: again, a little later)
            try:
                seat = await Seat.open(server.ws_url, token, headers={"Cookie": f"{COOKIE}={cookie}"})
                break
            except Exception as e:  # noqa: BLE001 (counted; past the last try the computer plays the seat)
                stats.errors.append(f"open: {e!r}")
                if attempt == 5 or loop.time() > stop:
                    return
                await asyncio.sleep(rng.uniform(1, 3))
        if not opened:
            stats.seated, opened = stats.seated + 1, True
        try:
            if await play_match(seat, think, rng, stats, stop):
                return
        except websockets.ConnectionClosed as e:  # (the table moved to the other process: again)
            stats.errors.append(f"closed: {e.rcvd.code if e.rcvd else None}")
        except (asyncio.TimeoutError, TimeoutError):
            return
        except Exception as e:  # noqa: BLE001
            stats.errors.append(f"play: {e!r}")
            return
        finally:
            try:
                await seat.close()
            except Exception:  # noqa: BLE001
                pass


async def play_match(seat, think: float, rng: random.Random, stats: Stats, stop: float) -> bool:
    """The seat played until its match is over (True) or ``stop``."""
    from tests.server.seat import pick_action

    loop = asyncio.get_running_loop()
    nexted = -1
    while loop.time() < stop:
        state = seat.state
        view = state["view"]
        if state["table"]["status"] == "over":
            return True
        if view is not None and view["phase"] == "done":
            if nexted != state["version"]:
                await seat.send({"type": "next"})
                nexted = state["version"]
            await seat.recv(timeout=max(0.1, stop - loop.time()))
            continue
        if seat.my_turn():
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if not seat.my_turn() or seat.state is not state:
                continue  # (something came meanwhile: look again)
            version = state["version"]
            sent = time.perf_counter()
            await seat.act(pick_action(seat.view, rng, prefer=()), f"b{version}", version)
            await seat.wait_state(lambda s: s["version"] > version, timeout=60)
            stats.moves.append(time.perf_counter() - sent)
        else:
            await seat.recv(timeout=max(0.1, stop - loop.time()))
    return False


async def run_event(servers: list[Server], db: str, body: dict, players: int, think: float, seconds: float,
                    looks: int, offset: int) -> dict:
    """Sign up ``players`` people, make the tournament, all join, play for ``seconds`` (or to its
    end); the figures."""
    import httpx
    import psycopg

    from tarocchi.server.core.sessions import COOKIE

    limits = httpx.Limits(max_connections=64)
    clients = [httpx.AsyncClient(base_url=s.url, timeout=120, limits=limits) for s in servers]
    gate = asyncio.Semaphore(16)

    def sign_up() -> list[tuple[int, str, str, str]]:
        """The accounts and their sessions straight in the store (the sign-up route's password
        hashing is not what is measured here, and a thousand of them take minutes on 2 cores)."""
        from tarocchi.server.core.store import open_store

        store = open_store(db)
        try:
            made = []
            for n in range(players):
                name = f"gioca{offset + n}"
                account = store.people.create_account(name, None, [])
                made.append((n, store.people.new_session(account, "bench"), name, account))
            return made
        finally:
            store.close()

    started = time.perf_counter()
    people = await asyncio.to_thread(sign_up)
    signed = time.perf_counter() - started
    cookie = {n: c for n, c, _, _ in people}
    maker = {"Cookie": f"{COOKIE}={cookie[0]}", **address(offset)}
    r = await clients[0].post("/api/tournaments", json={**body, "starts": 3600}, headers=maker)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]

    async def join(n: int) -> None:
        async with gate:
            r = await clients[n % 2].post(f"/api/tournaments/{tid}/join",
                                          headers={"Cookie": f"{COOKIE}={cookie[n]}", **address(offset + n)})
            assert r.status_code == 200, r.text

    started = time.perf_counter()
    await asyncio.gather(*(join(n) for n in range(players)))
    joined = time.perf_counter() - started
    by_account = {account: n for n, _, _, account in people}
    with psycopg.connect(db, autocommit=True) as conn:
        # (made to start in an hour, so that everyone joins first: it starts now, lasts the play)
        conn.execute("UPDATE tournaments SET starts_at = %s, ends_at = CASE WHEN ends_at IS NULL THEN NULL "
                     "ELSE %s END WHERE id = %s", (time.time(), time.time() + seconds - 10, tid))

    loop = asyncio.get_running_loop()
    stop = loop.time() + seconds
    stats = Stats()
    rng = random.Random(59)
    tasks: list[asyncio.Task] = []
    seen: set[str] = set()
    cpu0 = [s.cpu() for s in servers]
    wall0 = time.perf_counter()
    first_table = None
    with psycopg.connect(db, autocommit=True) as conn:
        while loop.time() < stop:
            rows = conn.execute("SELECT id, account_id, data FROM bell WHERE kind = 'tournament'").fetchall()
            for bell_id, account, data in rows:
                if bell_id in seen:
                    continue
                seen.add(bell_id)
                data = json.loads(data) if isinstance(data, str) else data
                if data.get("tournament") != tid or "link" not in data or account not in by_account:
                    continue
                n = by_account[account]
                first_table = first_table or time.perf_counter()
                tasks.append(loop.create_task(play_seat(servers[n % 2], cookie[n], data["link"].removeprefix("/t/"),
                                                        think, rng, stats, stop)))
            status = conn.execute("SELECT status FROM tournaments WHERE id = %s", (tid,)).fetchone()[0]
            if status == "finished":
                break
            await asyncio.sleep(0.5)
    wall = time.perf_counter() - wall0
    cpu = [s.cpu() - c for s, c in zip(servers, cpu0)]
    moves = len(stats.moves)
    # The standings at that size, as a client asks for them (one at a time: the request's own cost).
    looked = []
    for i in range(looks):
        start = time.perf_counter()
        r = await clients[i % 2].get(f"/api/tournaments/{tid}", headers={"Cookie": f"{COOKIE}={cookie[i % players]}",
                                                                          **address(offset + i % players)})
        looked.append(time.perf_counter() - start)
        assert r.status_code == 200, r.text
    page = r.json()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for c in clients:
        await c.aclose()
    return {"tid": tid, "signed_up": signed, "joined": joined, "wall": wall, "cpu": cpu, "moves": moves,
            "move_times": sorted(stats.moves), "seated": stats.seated, "errors": stats.errors[:5],
            "error_count": len(stats.errors), "looks": sorted(looked), "status": page["status"],
            "rounds": len(page["rounds"]), "tables": sum(len(x["tables"]) for x in page["rounds"]),
            "done": sum(t["done"] for x in page["rounds"] for t in x["tables"])}


def quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def report(name: str, out: dict, timings: list[list[dict]], since: list[int]) -> None:
    ms = lambda v: f"{1000 * v:.1f}"  # noqa: E731
    print(f"== {name}: tournament {out['tid']}, {out['status']}, {out['rounds']} rounds, "
          f"{out['tables']} tables ({out['done']} ended)")
    print(f"accounts made in {out['signed_up']:.1f} s, joined in {out['joined']:.1f} s; "
          f"{out['seated']} seats opened, {out['error_count']} errors (opening again: {out['errors']})")
    for p, (rows, first) in enumerate(zip(timings, since)):
        for row in rows[first:]:
            if row["what"] != "view":
                print(f"  process {p}: {row['what']} {row['tables']} tables in {ms(row['seconds'])} ms "
                      f"(the loop's CPU {ms(row['loop_cpu'])} ms)")
    print(f"play: {out['wall']:.1f} s, {out['moves']} moves by people, {out['moves'] / out['wall']:.1f} a second; "
          f"a move p50 {ms(quantile(out['move_times'], 0.5))} p99 {ms(quantile(out['move_times'], 0.99))} "
          f"max {ms(out['move_times'][-1]) if out['move_times'] else '?'} ms")
    print("server CPU: " + ", ".join(f"process {p} {c:.1f} s ({100 * c / out['wall']:.0f} %)"
                                     for p, c in enumerate(out["cpu"])))
    views = [r["seconds"] for rows, first in zip(timings, since) for r in rows[first:] if r["what"] == "view"]
    print(f"GET /api/tournaments/<id>: client p50 {ms(quantile(out['looks'], 0.5))} max {ms(out['looks'][-1])} ms; "
          f"the standings' view in the server p50 {ms(quantile(sorted(views), 0.5))} ms over {len(views)}", flush=True)


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        port, db, bus, name, players, every, minute = sys.argv[2:9]
        serve(int(port), db, bus, name, int(players), float(every), float(minute))
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=1000)
    p.add_argument("--seats", type=int, default=3)
    p.add_argument("--seconds", type=float, default=150, help="the arena's length: its play")
    p.add_argument("--duplicate", type=int, default=120, help="players of the duplicate (0: none)")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--dup-seconds", type=float, default=300)
    p.add_argument("--think", type=float, default=0.3, help="a person's seconds a move (0.5x to 1.5x)")
    p.add_argument("--looks", type=int, default=20)
    args = p.parse_args()
    from tests.postgres import Cluster
    from tests.redis_server import RedisServer

    logs = Path(tempfile.mkdtemp(prefix="tarocchi-tbench-"))
    events = [("arena", {"game": "sicilian", "seats": args.seats, "kind": "arena", "minutes": 5},
               args.players, args.seconds + 10)]
    if args.duplicate:
        events.append(("duplicate", {"game": "sicilian", "seats": args.seats, "kind": "duplicate",
                                     "rounds": args.rounds}, args.duplicate, args.dup_seconds))
    print(f"{time.strftime('%Y-%m-%d %H:%M')} UTC, load average {os.getloadavg()[0]:.1f}; "
          f"think {args.think} s; logs in {logs}", flush=True)
    with Cluster(durable=True) as cluster, RedisServer() as redis:
        for name, body, players, seconds in events:  # (each on a site of its own: a new database)
            db = cluster.new_database()
            servers = [Server(db, redis.url, f"{name}-{p}", players, 1.0, 60.0, logs / f"{name}-{p}.log")
                       for p in "AB"]
            try:
                for s in servers:
                    s.wait()
                out = asyncio.run(run_event(servers, db, body, players, args.think, seconds, args.looks, 0))
                report(f"{name} of {players}", out, [s.timings() for s in servers], [0, 0])
            finally:
                for s in servers:
                    s.stop()
        print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
