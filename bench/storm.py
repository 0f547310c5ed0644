"""A hello storm (issue 10): many sockets on one seat link, each sending many hellos inside its
own message budget, while another room plays; how long that room's actions take to reach its
seats meanwhile, and what the storm cost the server.

    .venv/bin/python bench/storm.py                      # 600 sockets x 95 hellos, this tree
    .venv/bin/python bench/storm.py --tree /tmp/old      # the server of another worktree (its .venv)

Starts ``tarocchi serve`` as a subprocess on 127.0.0.1 with a fresh database, and stops it at
the end. Bounded: every socket is read for ``--seconds`` at most.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import cpu_seconds, free_port, rss_kib  # noqa: E402


async def seat(ws_url: str, token: str):
    ws = await websockets.connect(f"{ws_url}/ws/{token}", max_queue=None)
    await ws.send(json.dumps({"type": "hello", "since": 0}))
    return ws


async def latest_state(ws, state: dict, stop: asyncio.Event) -> None:
    """Keep ``state['last']`` the latest state frame and its arrival time."""
    try:
        while not stop.is_set():
            m = json.loads(await ws.recv())
            if m["type"] == "state":
                state["last"], state["at"] = m, time.monotonic()
    except websockets.ConnectionClosed:
        pass


async def storm_socket(ws_url: str, token: str, hellos: int, seconds: float) -> tuple[int, int]:
    """(frames received, states received) by one storm socket."""
    frames = states = 0
    try:
        async with websockets.connect(f"{ws_url}/ws/{token}", max_queue=None) as ws:
            hello = json.dumps({"type": "hello", "since": 0})
            for _ in range(hellos):
                await ws.send(hello)
            end = time.monotonic() + seconds
            while (left := end - time.monotonic()) > 0:
                m = json.loads(await asyncio.wait_for(ws.recv(), left))
                frames += 1
                states += m["type"] == "state"
    except (websockets.ConnectionClosed, TimeoutError, asyncio.TimeoutError, OSError):
        pass
    return frames, states


def run_storm(ws_url: str, token: str, sockets: int, hellos: int, seconds: float) -> list[tuple[int, int]]:
    async def storm():
        return await asyncio.gather(*[storm_socket(ws_url, token, hellos, seconds) for _ in range(sockets)])
    return asyncio.run(storm())


async def main_async(args, url: str, ws_url: str, pid: int) -> None:
    storm_room = httpx.post(f"{url}/api/rooms", json={"seats": 3}).json()["links"]
    quiet_room = httpx.post(f"{url}/api/rooms", json={"seats": 3}).json()["links"]
    tokens = [link.removeprefix("/t/") for link in quiet_room]
    quiet = [await seat(ws_url, t) for t in tokens]
    states = [{} for _ in quiet]
    stop = asyncio.Event()
    readers = [asyncio.create_task(latest_state(ws, st, stop)) for ws, st in zip(quiet, states)]
    while not all("last" in st and st["last"]["table"]["status"] == "playing" for st in states):
        await asyncio.sleep(0.05)
    cpu0 = cpu_seconds(pid)
    began = time.monotonic()
    # The storm from a process of its own, so that this one times the other room's actions
    # without sharing its event loop with 600 sockets.
    storm = multiprocessing.get_context("spawn").Pool(1).apply_async(
        run_storm, (ws_url, storm_room[0].removeprefix("/t/"), args.sockets, args.hellos, args.seconds))
    await asyncio.sleep(0.5)
    latencies = []
    while time.monotonic() - began < args.seconds and len(latencies) < 100:
        await asyncio.sleep(0.05)
        last = states[0]["last"]
        view, version = last["view"], last["version"]
        if any(st["last"]["version"] != version for st in states):
            continue  # not every seat has had this version yet
        sent = time.monotonic()
        if view["phase"] == "done":  # every seat presses Next deal; timed to the new deal
            for ws in quiet:
                await ws.send(json.dumps({"type": "next"}))
        else:
            turn = view["turn"]
            choices = states[turn]["last"]["view"]["choices"]
            words = [c["action"] for c in choices if c["reason"] is None]
            if view["phase"] == "discard":
                action = "discard " + " ".join(words[:3])
            else:
                action = next((w for w in ("vado solo", "passo", "no") if w in words), words[0])
            await quiet[turn].send(json.dumps({"type": "act", "action": action, "id": f"b{version}"}))
        while not all(st["last"]["version"] > version for st in states):
            if time.monotonic() - sent > args.seconds:
                break
            await asyncio.sleep(0.001)
        latencies.append(max(st["at"] for st in states) - sent)
    results = await asyncio.to_thread(storm.get)
    cpu = cpu_seconds(pid) - cpu0
    stop.set()
    for ws in quiet:
        await ws.close()
    for r in readers:
        r.cancel()
    frames = sum(f for f, _ in results)
    replays = sum(s for _, s in results)
    print(f"storm: {args.sockets} sockets x {args.hellos} hellos on one seat link")
    print(f"other room: {len(latencies)} actions, to every seat: median {statistics.median(latencies) * 1000:.0f} ms, "
          f"max {max(latencies) * 1000:.0f} ms")
    print(f"storm sockets got {frames} frames ({replays} states); server CPU {cpu:.2f} s; "
          f"RSS {rss_kib(pid) // 1024} MiB")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sockets", type=int, default=600)
    p.add_argument("--hellos", type=int, default=95)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--tree", default=str(Path(__file__).resolve().parents[1]),
                   help="the worktree whose server runs (its .venv)")
    args = p.parse_args()
    python = os.path.join(args.tree, ".venv", "bin", "python")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        flags = ["--port", str(port), "--db", os.path.join(tmp, "storm.sqlite3"), "--bot-processes", "0"]
        help_text = subprocess.run([python, "-m", "tarocchi.cli", "serve", "--help"], capture_output=True,
                                   text=True, cwd=args.tree).stdout
        if "--connections-per-address" in help_text:
            # every socket, the other room's too, comes from this one address: no cap
            flags += ["--connections-per-address", "100000"]
        server = subprocess.Popen([python, "-m", "tarocchi.cli", "serve", *flags], cwd=args.tree,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            url = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    httpx.get(url + "/api/levels", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.05)
            asyncio.run(main_async(args, url, f"ws://127.0.0.1:{port}", server.pid))
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
