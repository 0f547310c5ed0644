"""Serving makes no cyclic garbage: neither playing (the hub, its tables, the engine's deals)
nor opening and closing websockets. The server keeps what survives a young collection out of
the collector's passes (server/collector.py), which is safe only while that holds: a cycle
made on these paths would be frozen and never freed (issue 39)."""

from __future__ import annotations

import asyncio
import base64
import collections
import gc
import json
import os
import random
import socket
import subprocess
import sys
import time

import httpx
import pytest

from tarocchi.server import collector
from tests.server.fake import new_hub, open_room, until
from tests.server.live import running_server

SERVER_MODULES = ("tarocchi", "uvicorn", "starlette", "httptools", "websockets.server", "asyncio")


def cyclic_garbage(during) -> list:
    """The objects that only the cyclic collector would have freed, of what ``during()`` did."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # every unreachable object is kept in gc.garbage, to look at
    try:
        during()
        gc.collect()
        return list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()


def kinds(objects: list) -> collections.Counter:
    return collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in objects)


def test_playing_through_the_hub_makes_no_cyclic_garbage(tmp_path):
    async def body():
        hub, store = new_hub(str(tmp_path / "t.sqlite3"))
        hub.start()
        rng = random.Random(5)
        for _ in range(3):
            await open_room(hub, store, 4, rng)
        await until(lambda: all(t.match is not None for t in hub.tables.values()))
        await asyncio.sleep(0.2)
        # Measured across awaits: DEBUG_SAVEALL is on while the rooms play for a while.
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            before = sum(t.version for t in hub.tables.values())
            await asyncio.sleep(1.5)
            events = sum(t.version for t in hub.tables.values()) - before
            gc.collect()
            garbage = list(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        assert events > 100, events  # the rooms did play (actions, deals, counts)
        assert not garbage, (events, kinds(garbage).most_common(10))
        await hub.stop()

    asyncio.run(body())


def handshake(port: int, token: str) -> socket.socket:
    """A websocket opened by hand (no client library, whose own cycles would count)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws/{token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += s.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return s


def send_text(s: socket.socket, text: str) -> None:
    data, mask = text.encode(), os.urandom(4)
    assert len(data) < 126
    s.sendall(bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def test_opening_and_closing_websockets_makes_no_cyclic_garbage():
    with running_server() as server:
        tokens = [link.removeprefix("/t/") for _ in range(5)
                  for link in httpx.post(f"{server.url}/api/rooms", json={"seats": 4}).json()["links"]]

        def sockets():
            opened = [handshake(server.port, t) for t in tokens]
            for s in opened:
                send_text(s, json.dumps({"type": "hello", "since": 0}))
            for s in opened:
                assert s.recv(65536)  # its state (the rooms start: every seat said hello)
            for s in opened:
                s.close()
            time.sleep(1.0)  # the server sees them go

        garbage = cyclic_garbage(sockets)
    servers = {k: n for k, n in kinds(garbage).items() if k.startswith(SERVER_MODULES)}
    # Before issue 39: about 20 objects per websocket (uvicorn's HTTP protocol and its parser).
    assert not servers, servers


def test_the_server_freezes_what_survives_and_logs_each_pause(tmp_path):
    """``tarocchi serve``'s collector settings, in a process of their own (they are global)."""
    log = tmp_path / "gc.log"
    script = (
        "import gc\n"
        "from tarocchi.server import collector\n"
        "collector.log_pauses(%r)\n"
        "collector.keep_long_lived_out()\n"
        "frozen = gc.get_freeze_count()\n"
        "held = [[i] for i in range(50_000)]  # long-lived: held by the table, say\n"
        "gc.collect(1)\n"
        "assert gc.get_freeze_count() >= frozen + 50_000, (frozen, gc.get_freeze_count())\n"
        "assert gc.get_objects(2) == [] or len(gc.get_objects(2)) < 1000\n" % str(log))
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    lines = [line.split() for line in log.read_text().splitlines()]
    assert lines and all(len(line) == 5 for line in lines)
    assert any(line[1] == "1" for line in lines)  # the collection of generation 1 asked for


def test_the_young_generation_is_collected_when_the_loop_rests_and_not_while_it_is_busy():
    """Issue 39: a loop with nothing to do collects the young generation within a few looks
    (once it holds IDLE_MIN objects more than it freed); a loop kept busy leaves the pass to the
    threshold (seldom), and a process that keeps nothing out starts no such looks. (A VM's stolen
    time is neither running nor waiting for a core: a busy loop may look idle once in a while,
    so the busy phase's 20 looks may make a pass or two, not one a look.)"""
    script = (
        "import asyncio, gc, time\n"
        "from tarocchi.server import collector\n"
        "assert collector.collect_when_idle(asyncio.new_event_loop()) is None  # (the tests' servers)\n"
        "collector.keep_long_lived_out()\n"
        "passes = []\n"
        "gc.callbacks.append(lambda phase, info: phase == 'stop' and passes.append(info['generation']))\n"
        "async def main():\n"
        "    loop = asyncio.get_running_loop()\n"
        "    resting = collector.collect_when_idle(loop)\n"
        "    held = []\n"
        "    end = time.perf_counter() + 20 * collector.IDLE_EVERY\n"
        "    while time.perf_counter() < end:  # busy: the loop never waits, and the objects grow\n"
        "        if len(held) < 10_000:  # (well under the threshold's 50,000)\n"
        "            held.append([len(held)])\n"
        "        await asyncio.sleep(0)\n"
        "    busy = len(passes)\n"
        "    held.extend([i] for i in range(collector.IDLE_MIN * 5))\n"
        "    await asyncio.sleep(10 * collector.IDLE_EVERY)  # at rest\n"
        "    resting.stop()\n"
        "    return busy, len(passes), len(held)\n"
        "busy, rested, made = asyncio.run(main())\n"
        "assert made > 20 * collector.IDLE_MIN, made  # (enough to collect at every look of the busy phase)\n"
        "assert busy <= 2, busy\n"
        "assert rested > busy and set(passes) == {0}, passes\n")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)


class Clocked(collector.RestingCollector):
    """The collector with a busy clock the test sets."""

    def __init__(self, loop):
        self.busy_now = 0.0
        super().__init__(loop)

    def busy(self) -> float:
        return self.busy_now


@pytest.mark.parametrize(("busy_share", "grown", "collects"), [
    (0.1, collector.IDLE_MIN * 3, True),    # at rest, and something to collect
    (0.95, collector.IDLE_MIN * 3, False),  # busy: the threshold's business
    (0.1, 0, False),                        # at rest, but nothing grown since the last pass
])
def test_a_look_collects_only_at_rest_and_with_something_to_collect(busy_share, grown, collects, monkeypatch):
    loop = asyncio.new_event_loop()
    try:
        clock = Clocked(loop)
        clock.handle.cancel()
        passes = []
        monkeypatch.setattr(collector.gc, "collect", lambda generation=2: passes.append(generation))
        monkeypatch.setattr(collector.gc, "get_count", lambda: (grown, 0, 0))
        then = loop.time() - collector.IDLE_EVERY
        clock.busy_now = busy_share * collector.IDLE_EVERY
        clock.look(then, 0.0)
        assert passes == ([0] if collects else [])
        clock.stop()
    finally:
        loop.close()
