"""What friends, challenges and the bell cost the server (issue 58): figures, no pass or fail.

    .venv/bin/python bench/social.py                         # SQLite, and a throwaway PostgreSQL
    .venv/bin/python bench/social.py --postgres URL          # a PostgreSQL of your own
    .venv/bin/python bench/social.py --no-postgres --seconds 20

1. **The store** (each store, in this process): ``--players`` accounts (10,000), each the friend
   of ``--friends`` others (30: following each other), and the microseconds of one call of what
   the routes ask: a friends list (``People.following``), a bell item rung (``ring``, as a
   challenge rings it), the bell read (``bell``, 30 items on it) and marked read
   (``bell_read``), and the chat's per-line reads of bans and blocks, from the store and kept
   (``sanctioned_until`` against ``chat_banned_until``, ``blockers_among``).
2. **Who is online** on a site of two (in this process, ``Social`` on a stand-in hub): half of
   the players at a table of this process (a socket each), half on the other process, whose
   shared list is parsed as ``Leases.gathered`` parses Redis's (the Redis round trip itself left
   out). The microseconds of ``online_here``, ``shared`` (every few seconds), one gathering
   (``online`` before it was kept ``ONLINE_FRESH`` seconds) and ``online`` as it is now; and
   what a friends poll every ``--poll`` seconds by every player (10,000 / 30 s: 333 a second)
   costs a core, either way.
3. **A table's play under the load** (``tarocchi serve`` as a subprocess, SQLite, no bot delays):
   ``--tables`` computer tables played by one client each (act as soon as the state says, the
   latency from an action sent to the state that answers it), for ``--seconds`` alone, then as
   long again with ``--pollers`` signed-in players (each with ``--friends`` friends) asking
   ``GET /api/me/friends`` at ``--rate`` requests a second in all and the bell (``GET
   /api/me/bell``) at a tenth of it, and one challenge a second rung and read (from a client
   ``--load-procs`` processes of their own). Prints the moves' p50/p99 latency, the requests
   answered a second, and the server's CPU a second, both phases; and the server's CPU a request
   (what the load added, over the requests answered), times ``--rate``: on a machine whose
   clients cannot ask that many, what that many would cost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests/postgres.py, tests/server/seat.py
sys.path.insert(0, os.path.dirname(__file__))

import httpx  # noqa: E402

from load import cpu_seconds, free_port  # noqa: E402  (the load benchmark's)
from tarocchi.server.core.sessions import COOKIE  # noqa: E402
from tarocchi.server.core.store import open_store  # noqa: E402
from tarocchi.server.core.store.people import People  # noqa: E402
from tarocchi.server.social import Social  # noqa: E402

SERVER_FLAGS = ["--bot-delay", "0", "--trick-pause", "0", "--bot-processes", "0",
                "--new-tables", "1000000", "--connections-per-address", "100000"]


def people_with_friends(people: People, players: int, friends: int) -> list[str]:
    """``players`` accounts, each following and followed by its ``friends`` nearest in a ring
    (friends of each other), written a thousand rows a statement (no password hashing)."""
    ids = [f"{n:016x}" for n in range(players)]
    now = time.time()
    half = friends // 2
    accounts = [(ids[n], f"player{n}", f"player{n}", None, now) for n in range(players)]
    follows = [(ids[n], ids[(n + s * d) % players], now) for n in range(players) for d in range(1, half + 1)
               for s in (1, -1)]
    for table, columns, rows in (("accounts", "id, name, name_key, password, created_at", accounts),
                                 ("follows", "follower, followed, at", follows)):
        marks = "(" + ", ".join(["%s"] * len(rows[0])) + ")"
        with people.write() as tx:
            for start in range(0, len(rows), 1000):
                chunk = rows[start:start + 1000]
                tx.run(f"INSERT INTO {table} ({columns}) VALUES " + ", ".join([marks] * len(chunk)) +
                       " ON CONFLICT DO NOTHING", [v for row in chunk for v in row])
    return ids


def micros(work, calls: int) -> float:
    """Microseconds of one call of ``work(i)``, the median of five rounds of ``calls // 5``."""
    rounds = []
    for r in range(5):
        start = time.perf_counter()
        for i in range(calls // 5):
            work(r * calls + i)
        rounds.append((time.perf_counter() - start) / (calls // 5) * 1e6)
    return statistics.median(rounds)


def store_figures(name: str, db: str, players: int, friends: int) -> None:
    store = open_store(db)
    try:
        people = store.people
        t0 = time.perf_counter()
        ids = people_with_friends(people, players, friends)
        print(f"  {name}: {players:,} accounts, {players * friends:,} follows written in {time.perf_counter() - t0:.1f} s")
        rng = random.Random(1)
        pick = lambda i: ids[rng.randrange(players)]  # noqa: E731
        print(f"  {name}: following (a friends list of {friends}) {micros(lambda i: people.following(pick(i)), 500):8.0f} us")
        some = ids[:200]
        data = {"challenge": "c" * 16, "from": "player1", "game": "sicilian"}
        print(f"  {name}: ring (one challenge)            {micros(lambda i: people.ring(some[i % 200], 'challenge', data), 1000):8.0f} us")
        for account in some:  # (30 items on each bell)
            for _ in range(25):
                people.ring(account, "challenge", data)
        print(f"  {name}: bell (30 items)                 {micros(lambda i: people.bell(some[i % 200]), 1000):8.0f} us")
        latest = {a: people.bell(a)["items"][0]["id"] for a in some}
        print(f"  {name}: bell_read                       {micros(lambda i: people.bell_read(some[i % 200], latest[some[i % 200]]), 1000):8.0f} us")
        print(f"  {name}: a chat line's ban, from the store  {micros(lambda i: people.sanctioned_until(pick(i), 'chat'), 1000):6.1f} us"
              f"; kept: {micros(lambda i: people.chat_banned_until(some[i % 20]), 5000):6.2f} us")
        others = ids[1:4]
        people._blocks.clear()
        print(f"  {name}: a chat line's blocks (3 others), kept: {micros(lambda i: people.blockers_among(ids[i % 20], others), 5000):6.2f} us"
              f" (read once in CHAT_FRESH: {micros(lambda i: (people._blocks.clear(), people.blockers_among(pick(i), others)), 500):6.0f} us)")
    finally:
        store.close()


class StandInHub:
    """What ``Social`` reads of a hub: its sockets (one a player, at tables of four) and a site's
    ``Leases.gathered`` of the other process's shared list (parsed from its JSON, as Redis's)."""

    def __init__(self, here: list[str], there: list[str]):
        self.connections = {}
        for n in range(0, len(here), 4):
            table = SimpleNamespace(watch_token=f"watch{n:012d}")
            self.connections[f"t{n}"] = [SimpleNamespace(account={"id": a}, watching=False, table=table)
                                         for a in here[n:n + 4]]
        shared = {a: f"/w/elsewhere{n // 4:012d}" for n, a in enumerate(there)}
        self.row = json.dumps({"at": 0, "value": shared})
        self.leases = self

    async def gathered(self, name: str) -> list:
        return [json.loads(self.row)["value"]]


def online_figures(players: int, poll: float) -> None:
    ids = [f"{n:016x}" for n in range(players)]
    social = Social(StandInHub(ids[: players // 2], ids[players // 2:]))
    loop = asyncio.new_event_loop()
    here = micros(lambda i: social.online_here(), 50)
    shared = micros(lambda i: social.shared(), 50)
    gather = micros(lambda i: loop.run_until_complete(social._gather()), 50)
    async def many(n: int) -> float:
        await social.online()
        start = time.perf_counter()
        for _ in range(n):
            await social.online()
        return (time.perf_counter() - start) / n * 1e6
    kept = loop.run_until_complete(many(20_000))
    loop.close()
    rate = players / poll
    print(f"  online_here ({players // 2:,} sockets here) {here:8.0f} us; shared() {shared:8.0f} us (every 5 s)")
    print(f"  one gathering (here + the other process's {players - players // 2:,}) {gather:8.0f} us; "
          f"online() kept ONLINE_FRESH s {kept:6.1f} us")
    print(f"  a friends poll every {poll:.0f} s by each of {players:,}: {rate:,.0f} a second; who is online costs "
          f"{rate * gather / 1e6:.2f} of a core gathered for each, {rate * kept / 1e6 + gather / 2e6:.4f} kept")


# --- 3. a table's play under the load ------------------------------------------------------


async def play(ws_url: str, token: str, until: float, latencies: list[float], rng: random.Random) -> None:
    from tests.server.seat import Seat, pick_action
    seat = await Seat.open(ws_url, token)
    try:
        while time.monotonic() < until:
            if seat.state and seat.my_turn():
                action, version = pick_action(seat.view, rng, prefer=()), seat.version
                start = time.perf_counter()
                await seat.act(action)
                await seat.wait_state(lambda st, v=version: st["version"] > v)
                latencies.append(time.perf_counter() - start)
            elif seat.state and seat.state["table"]["status"] == "over":
                return
            else:
                await seat.quiet(0.02)
    finally:
        await seat.close()


async def tables_for(client: httpx.AsyncClient, ws_url: str, count: int, until: float, latencies: list[float]) -> None:
    rng = random.Random(3)

    async def one():
        while time.monotonic() < until:  # (a match over: another table)
            made = (await client.post("/api/computer", json={"game": "sicilian", "seats": 3, "level": "random"})).json()
            await play(ws_url, made["link"].removeprefix("/t/"), until, latencies, rng)
    await asyncio.gather(*(one() for _ in range(count)))


class Player:
    """A signed-in player's requests, on a client shared by all."""

    def __init__(self, client: httpx.AsyncClient, headers: dict):
        self.client, self.headers = client, headers

    async def get(self, path: str) -> httpx.Response:
        return await self.client.get(path, headers=self.headers)

    async def post(self, path: str, json: dict) -> httpx.Response:
        return await self.client.post(path, json=json, headers=self.headers)


async def social_load(url: str, cookies: list[str], names: list[str], rate: float, until: float, counts: dict) -> None:
    """``rate`` friends polls a second in all, the bell a tenth as often, one challenge a second
    (rung, then the challenged reads its bell and marks it read)."""
    # (one client, each request with its player's cookie: a client each would build an SSL
    # context each, seconds of the loop for hundreds)
    shared = httpx.AsyncClient(base_url=url, timeout=30, limits=httpx.Limits(max_connections=64))
    clients = [Player(shared, {"Cookie": f"{COOKIE}={c}"}) for c in cookies]
    try:
        async def ask(client: Player, kind: str, path: str):
            try:
                r = await client.get(path)
                key = kind if r.status_code == 200 else f"{kind} {r.status_code}"
            except httpx.HTTPError as e:
                key = f"{kind} {type(e).__name__}"
            counts[key] = counts.get(key, 0) + 1

        async def poll(kind: str, path: str, every: float):
            """One request every ``every`` seconds, each on its own (64 at most on their way)."""
            n, asking = 0, set()
            next_at = time.monotonic()
            while time.monotonic() < until:
                if len(asking) < 64:
                    task = asyncio.get_running_loop().create_task(ask(clients[n % len(clients)], kind, path))
                    asking.add(task)
                    task.add_done_callback(asking.discard)
                n += 1
                next_at += every
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            await asyncio.gather(*asking)

        async def challenges():
            n = 0
            while time.monotonic() < until:
                a, b = clients[n % len(clients)], (n + 1) % len(clients)
                n += 1
                r = await a.post("/api/challenges", json={"to": [names[b]], "game": "sicilian", "seats": 3})
                if r.status_code == 201:
                    items = (await clients[b].get("/api/me/bell")).json()["items"]
                    await clients[b].post("/api/me/bell/read", json={"upto": items[0]["id"]})
                    counts["challenges"] = counts.get("challenges", 0) + 1
                await asyncio.sleep(1.0)
        await asyncio.gather(poll("friends", "/api/me/friends", 1 / rate), poll("bell", "/api/me/bell", 10 / rate),
                             challenges())
    finally:
        await shared.aclose()


def load_process(url: str, cookies: list[str], names: list[str], rate: float, seconds: float, out) -> None:
    counts: dict = {}
    asyncio.run(social_load(url, cookies, names, rate, time.monotonic() + seconds, counts))
    out.put(counts)


def quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else float("nan")


def play_figures(players: int, friends: int, pollers: int, tables: int, rate: float, seconds: float,
                 procs: int = 4) -> None:
    with tempfile.TemporaryDirectory(prefix="tarocchi-social-") as tmp:
        db = os.path.join(tmp, "social.sqlite3")
        store = open_store(db)
        ids = people_with_friends(store.people, players, friends)
        cookies = [store.people.new_session(ids[n], "bench") for n in range(pollers)]
        store.close()
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "tarocchi.cli", "serve", "--port", str(port), "--db", db,
                                   *SERVER_FLAGS], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(url + "/api/games").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)

            async def phase(loaded: bool) -> tuple[list[float], dict, float]:
                latencies: list[float] = []
                counts: dict = {}
                cpu0 = cpu_seconds(server.pid)
                loaders = []
                if loaded:  # (processes of their own: the players' clients do not slow the tables')
                    results = mp.get_context("spawn").Queue()
                    names = [f"player{n}" for n in range(pollers)]
                    for k in range(procs):
                        loaders.append(mp.get_context("spawn").Process(
                            target=load_process, args=(url, cookies[k::procs], names[k::procs], rate / procs,
                                                       seconds, results)))
                        loaders[-1].start()
                until = time.monotonic() + seconds
                async with httpx.AsyncClient(base_url=url, timeout=30) as client:
                    await tables_for(client, ws_url, tables, until, latencies)
                for loader in loaders:
                    for kind, n in (await asyncio.to_thread(results.get, True, 120)).items():
                        counts[kind] = counts.get(kind, 0) + n
                    loader.join(30)
                return latencies, counts, (cpu_seconds(server.pid) - cpu0) / seconds

            idle = 0.0
            for loaded in (False, True):
                latencies, counts, cpu = asyncio.run(phase(loaded))
                load = (f"friends {counts.get('friends', 0) / seconds:,.0f}/s, bell {counts.get('bell', 0) / seconds:,.0f}/s, "
                        f"challenges {counts.get('challenges', 0) / seconds:.1f}/s" if loaded else "no social load")
                if errors := {k: v for k, v in counts.items() if " " in k}:
                    load += f" (not answered 200: {errors})"
                print(f"  {load:52} moves {len(latencies) / seconds:6.0f}/s  p50 {quantile(latencies, 0.5):6.2f} ms  "
                      f"p99 {quantile(latencies, 0.99):6.2f} ms  server CPU {cpu:.2f} s/s")
                if not loaded:
                    idle = cpu
                elif (asked := sum(counts.get(k, 0) for k in ("friends", "bell")) / seconds) > 0:
                    each = (cpu - idle) / asked  # (the challenges' few left in: an upper bound)
                    print(f"  the server's CPU a friends or bell request: {each * 1e3:.2f} ms; at {rate:.0f} friends "
                          f"polls a second and a tenth as many bells: {each * rate * 1.1:.2f} of a core")
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--friends", type=int, default=30)
    parser.add_argument("--poll", type=float, default=30.0, help="seconds between a player's friends polls")
    parser.add_argument("--postgres", help="a PostgreSQL URL (default: a throwaway cluster, if its programs are here)")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--pollers", type=int, default=500, help="signed-in players whose sessions poll")
    parser.add_argument("--rate", type=float, default=333.0, help="friends polls a second, all together")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--load-procs", type=int, default=4, help="client processes of the players' requests")
    args = parser.parse_args()

    print(f"python {platform.python_version()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"1. the store: {args.players:,} players, {args.friends} friends each")
    with tempfile.TemporaryDirectory(prefix="tarocchi-social-") as tmp:
        store_figures("sqlite", os.path.join(tmp, "people.sqlite3"), args.players, args.friends)
    if args.postgres:
        store_figures("postgresql", args.postgres, args.players, args.friends)
    elif not args.no_postgres:
        from tests.postgres import Cluster
        try:
            cluster = Cluster(durable=True)  # (every COMMIT flushed, as the server's default)
        except RuntimeError as e:
            print(f"  postgresql: {e} (or --postgres URL)")
        else:
            with cluster:
                store_figures("postgresql", cluster.new_database(), args.players, args.friends)
    print(f"2. who is online, a site of two, {args.players:,} online")
    online_figures(args.players, args.poll)
    print(f"3. {args.tables} computer tables played over sockets, {args.seconds:.0f} s a phase, one process (SQLite)")
    play_figures(args.players, args.friends, args.pollers, args.tables, args.rate, args.seconds, args.load_procs)


if __name__ == "__main__":
    main()
