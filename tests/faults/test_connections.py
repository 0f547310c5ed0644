"""What a real ``tarocchi serve`` does with connections that hold without asking, with floods
from one address, with huge bodies and with forged forwarded headers (issue 10)."""

from __future__ import annotations

import asyncio
import json
import resource
import socket
import time

import httpx
import pytest
import websockets

from tarocchi.server.guard import TOO_MANY_CONNECTIONS
from tarocchi.server.core.messages import BODY_TOO_LARGE, CLOSE_NO_HELLO, MAX_BODY, NO_HELLO, TOO_MANY_TABLES
from tests.faults.server import ServerProcess, run
from tests.server.seat import Seat, new_room

CAP = 24
TIMEOUTS = ("--header-timeout", "1", "--hello-timeout", "1")


@pytest.fixture
def server(tmp_path):
    with ServerProcess(str(tmp_path / "t.sqlite3"),
                       extra=("--connections-per-address", str(CAP), *TIMEOUTS)) as s:
        yield s


def raw(port: int, data: bytes = b"") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    if data:
        s.sendall(data)
    return s


def closed_by_server(s: socket.socket, within: float) -> bool:
    """True once the server has closed ``s`` (EOF or reset) within ``within`` seconds."""
    s.settimeout(within)
    try:
        while s.recv(65536):
            pass
        return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    finally:
        s.close()


def rooms(server: ServerProcess) -> int:
    return sum(1 for _, v, kind, _ in server.stream() if kind == "created")


@pytest.mark.slow
def test_silent_and_half_sent_connections_and_helloless_websockets_are_closed(server):
    half = [raw(server.port, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ") for _ in range(6)]
    silent = [raw(server.port) for _ in range(6)]
    token = new_room(server.url, 3)[0]

    async def mute_websockets():
        sockets = [await websockets.connect(f"{server.ws_url}/ws/{token}") for _ in range(3)]
        began = time.monotonic()
        for ws in sockets:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    assert message == {"type": "error", "reason": NO_HELLO}
            assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (CLOSE_NO_HELLO, NO_HELLO)
        assert time.monotonic() - began < 3

    run(mute_websockets())
    for s in half + silent:
        assert closed_by_server(s, 3), "a connection that never finished its headers is still open"
    # A request that finishes its headers in time is served as always.
    assert httpx.get(server.url + "/api/levels", timeout=5).status_code == 200


def test_one_address_holds_at_most_its_cap_and_the_others_still_get_in(server):
    held = [raw(server.port) for _ in range(CAP)]
    time.sleep(0.2)
    over = raw(server.port)
    over.settimeout(3)
    answer = over.recv(4096)
    assert answer.startswith(b"HTTP/1.1 503") and TOO_MANY_CONNECTIONS.encode() in answer
    assert closed_by_server(over, 3)
    for s in held:  # the header timeout frees them, and the address gets in again
        assert closed_by_server(s, 3)
    assert httpx.get(server.url + "/api/levels", timeout=5).status_code == 200


@pytest.mark.slow
def test_a_played_table_is_not_counted_against_its_own_sockets(server):
    """A room's websockets each count as one connection, from the HTTP upgrade to the close:
    the cap admits new ones again once they are gone."""
    async def body():
        for _ in range(3):  # three rounds of nearly CAP sockets, each closed before the next
            tokens = [t for _ in range(CAP // 3) for t in new_room(server.url, 3)][:CAP - 2]
            seats = [await Seat.open(server.ws_url, t) for t in tokens]
            for s in seats:
                await s.close()
            await asyncio.sleep(0.3)

    run(body())


def test_the_server_raises_its_descriptor_limit_and_says_so(server):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with open(f"/proc/{server.proc.pid}/limits") as f:
        line = next(x for x in f if x.startswith("Max open files"))
    server_soft = int(line.split()[3])
    assert server_soft == hard or hard == resource.RLIM_INFINITY
    assert server_soft >= soft


def test_a_body_over_the_limit_is_refused_before_it_is_read(server):
    before = rooms(server)
    # Content-Length says 64 MiB and only a little is sent: the answer comes all the same.
    s = raw(server.port, b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n{\"seats\": 3" % (64 << 20))
    s.settimeout(5)
    answer = b""
    while BODY_TOO_LARGE.encode() not in answer and (more := s.recv(4096)):
        answer += more
    s.close()
    assert answer.startswith(b"HTTP/1.1 413") and BODY_TOO_LARGE.encode() in answer
    # Chunked, with no length: refused once it passes the limit.
    def chunks():
        yield b'{"seats": 3, "x": "'
        for _ in range(64):
            yield b"y" * 1024
        yield b'"}'
    r = httpx.post(server.url + "/api/rooms", content=chunks(), timeout=5)
    assert r.status_code == 413 and r.json() == {"error": BODY_TOO_LARGE}
    # Just under the limit is read (and refused for what it says, not for its size).
    body = b'{"seats": 3, "x": "' + b"y" * (MAX_BODY - 40) + b'"}'
    r = httpx.post(server.url + "/api/rooms", content=body, timeout=5)
    assert r.status_code == 400 and "x" in r.json()["error"]
    assert rooms(server) == before


def test_forwarded_headers_are_believed_only_from_the_named_proxy(tmp_path):
    limits = ("--new-tables", "2", "--new-tables-per-second", "0.001")
    with ServerProcess(str(tmp_path / "a.sqlite3"), extra=limits) as plain:
        codes = [httpx.post(plain.url + "/api/rooms", json={"seats": 3},
                            headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code for n in range(3)]
        assert codes == [200, 200, 429]  # a forged header is no new address
        assert httpx.post(plain.url + "/api/rooms", json={"seats": 3}).json() == {"error": TOO_MANY_TABLES}
    with ServerProcess(str(tmp_path / "b.sqlite3"), extra=(*limits, "--proxy", "127.0.0.1")) as proxied:
        codes = [httpx.post(proxied.url + "/api/rooms", json={"seats": 3},
                            headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code for n in range(3)]
        assert codes == [200, 200, 200]  # behind the proxy: each client address its own budget
        same = [httpx.post(proxied.url + "/api/rooms", json={"seats": 3},
                           headers={"X-Forwarded-For": "198.51.100.7"}).status_code for _ in range(3)]
        assert same == [200, 200, 429]
