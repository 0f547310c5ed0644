"""Connections before the app sees them: how many one address may hold open, and how long a
client may take to send its request headers (issue 10: silent and half-sent connections from
one address used to hold every descriptor, and nobody else got in).

uvicorn builds a protocol object per connection; ``protocols`` gives it subclasses of its own
HTTP and WebSocket protocols that ask a ``ConnectionGuard`` first. A WebSocket starts as an
HTTP request and is handed to the WebSocket protocol on the same transport, so the guard
counts transports, not protocol objects: one connection is counted once, from its first byte
to its close, whichever protocol has it then.
"""

from __future__ import annotations

import asyncio
import logging
import resource

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import get_remote_addr
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

log = logging.getLogger("tarocchi.server")

CONNECTIONS_PER_ADDRESS = 64  # open at once from one client address (a proxy's are not counted)
HEADER_TIMEOUT = 5.0  # seconds from a connection's first byte (or its opening) to its last header
TOO_MANY_CONNECTIONS = "too many connections from this address"


class ConnectionGuard:
    """Counts each client address's open connections and refuses one past ``per_address``;
    the addresses in ``trusted`` (a reverse proxy's, whose clients all share them) are not
    counted: the proxy limits its own clients."""

    def __init__(self, per_address: int = CONNECTIONS_PER_ADDRESS, header_timeout: float = HEADER_TIMEOUT,
                 trusted: frozenset[str] = frozenset()):
        self.per_address, self.header_timeout, self.trusted = per_address, header_timeout, trusted
        self.open: dict[str, int] = {}  # address -> connections open now
        self.held: dict[asyncio.BaseTransport, str] = {}  # counted connection -> its address

    def admit(self, transport: asyncio.BaseTransport, address: str | None) -> bool:
        if address is None or address in self.trusted:
            return True
        count = self.open.get(address, 0)
        if count >= self.per_address:
            return False
        self.open[address] = count + 1
        self.held[transport] = address
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        address = self.held.pop(transport, None)
        if address is not None:
            left = self.open[address] - 1
            if left:
                self.open[address] = left
            else:
                del self.open[address]


def protocols(guard: ConnectionGuard) -> tuple[type, type]:
    """uvicorn's HTTP and WebSocket protocol classes, guarded by ``guard`` (``uvicorn.Config``'s
    ``http`` and ``ws``)."""

    class GuardedHttp(HttpToolsProtocol):
        header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            client = get_remote_addr(transport)
            if not guard.admit(transport, client[0] if client else None):
                body = TOO_MANY_CONNECTIONS.encode()
                transport.write(b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n"
                                b"content-type: text/plain; charset=utf-8\r\ncontent-length: %d\r\n\r\n%b"
                                % (len(body), body))
                transport.close()
                return
            self._arm_header_timer()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.header_timer is None:  # the next request on a kept-alive connection
                self._arm_header_timer()

        def on_headers_complete(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None
            super().on_headers_complete()

        def connection_lost(self, exc) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
            guard.release(self.transport)
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            # The socket is the websocket protocol's now, and this one never hears of it again
            # (no connection_lost, where uvicorn drops its parser): the parser holds this
            # protocol's bound methods, a cycle that left about 20 objects per websocket opened
            # for the cyclic collector (docs/benchmarks.md, issue 39).
            self.parser = None

        def _arm_header_timer(self) -> None:
            self.header_timer = self.loop.call_later(guard.header_timeout, self._headers_too_slow)

        def _headers_too_slow(self) -> None:
            self.header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def connection_lost(self, exc) -> None:
            guard.release(self.transport)
            super().connection_lost(exc)

    return GuardedHttp, GuardedWebSocket


def raise_descriptor_limit() -> int:
    """Raise this process's open-file limit to the most the system allows (each connection
    is a descriptor; the common soft limit of 1,024 is far too few for a table server), and
    return the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as e:
            log.warning("could not raise the open-file limit from %d to %d: %s", soft, target, e)
    return soft
