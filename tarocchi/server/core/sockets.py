"""Sockets: one seat's (or spectator's) websocket from its token to its close, and the client
address every feature reads the same way."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from .features import Elsewhere
from .hub import (
    BROKEN, CLOSE_BROKEN, CLOSE_UNKNOWN, LEFT_OUT, SERVER_FAILED, UNKNOWN_LINK, BrokenTable, Connection, Hub,
)
from .messages import CLOSE_NO_HELLO, CLOSE_TOO_MANY, NO_HELLO, TOO_MANY, BadMessage, Budget, decode
from .sessions import device_of, persons, signed_in
from .tables import WATCH_SEAT

log = logging.getLogger("tarocchi.server")


def client_address(connection) -> str | None:
    """The client's address as the app sees it, for a Request or a WebSocket: the peer's, or
    the one a trusted proxy forwards (``app.server_config``), or the one a relay sent with a
    relayed socket (site.RemoteSocket); None where none is known (a test's fake socket)."""
    client = getattr(connection, "client", None)
    return client.host if client else None


def socket_account(hub: Hub, websocket) -> dict | None:
    """The account a seat's socket was opened signed in to ({id, name}), or None: by its
    session cookie, or (a socket relayed from another process of a site) by the account the
    relay found so (``RemoteSocket.account``, looked up here again: gone, it is None)."""
    relayed = getattr(websocket, "account", None)
    if relayed is not None:
        found = hub.store.people.account(relayed)
        return {"id": found["id"], "name": found["name"]} if found else None
    if getattr(websocket, "cookies", None) is None:
        return None
    found = signed_in(hub.store.people, websocket)
    return {"id": found["id"], "name": found["name"]} if found else None


async def serve_socket(hub: Hub, websocket, token: str, budget: Budget | None = None) -> None:
    """One seat's socket, from the token to the close. Garbage gets an error, never a crash;
    a socket over its message budget gets an error and is closed (4429)."""
    budget = budget or Budget()
    loop = asyncio.get_running_loop()
    try:
        found = hub.find(token)
        watching = found is not None and found[1] == WATCH_SEAT  # a spectator (watch.py)
        if watching and hub.spectators is None:
            found = None  # (no feature serves spectators here)
        reason = (UNKNOWN_LINK if found is None else
                  None if watching else LEFT_OUT if found[0].seat_map[found[1]] is None else None)
        code = CLOSE_UNKNOWN
    except BrokenTable:  # it stays alone (the hub marked it broken): its seats are told, the site goes on
        found, reason, code = None, BROKEN, CLOSE_BROKEN
    except Elsewhere as e:  # another process drives the table: relay to it (site.py)
        note_opened(hub, e.table_id, websocket)
        return await hub.leases.relay(websocket, token, e)
    if reason:
        with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected):
            await websocket.send_json({"type": "error", "reason": reason})
            await websocket.close(code, reason)
        return
    # A spectator's socket runs the same loop; the spectators' feature attaches and answers it.
    if found[0].kind == "room":
        note_opened(hub, found[0].id, websocket)
    side = hub.spectators if watching else hub
    if watching:
        conn = side.connection(websocket, found[0])
    else:
        account = socket_account(hub, websocket) if found[0].kind == "room" else None
        conn = Connection(websocket, *found, token=token, address=client_address(websocket), account=account,
                          device=device_of(websocket, account and account["id"], client_address(websocket)))
    side.attach(conn)
    writer = asyncio.create_task(conn.write_loop(hub))
    hello_by = loop.time() + hub.hello_timeout  # a socket that never says hello holds nothing long
    try:
        while True:
            try:
                frame = await (websocket.receive() if conn.greeted
                               else asyncio.wait_for(websocket.receive(), hello_by - loop.time()))
            except TimeoutError:
                conn.send({"type": "error", "reason": NO_HELLO})
                conn.close(CLOSE_NO_HELLO, NO_HELLO)
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(writer), 5)
                break
            if frame["type"] == "websocket.disconnect":
                break
            if writer.done():
                break  # the writer closed the socket or lost it
            if not budget.spend(loop.time()):
                conn.send({"type": "error", "reason": TOO_MANY})
                conn.close(CLOSE_TOO_MANY, TOO_MANY)
                with contextlib.suppress(Exception):  # let the writer say it, then go
                    await asyncio.wait_for(asyncio.shield(writer), 5)
                break
            raw = frame.get("text") if frame.get("text") is not None else frame.get("bytes")
            try:
                message = decode(raw or "")
            except BadMessage as e:
                conn.send({"type": "error", "reason": str(e)})
                continue
            try:
                side.handle(conn, message)
            except Exception:
                log.exception("could not handle %r", message)
                conn.send({"type": "error", "reason": SERVER_FAILED})
    except WebSocketDisconnect:
        pass
    finally:
        side.detach(conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


def note_opened(hub: Hub, table_id: str, websocket) -> None:
    """A link of the table was opened by the socket's person (``Feature.opened``: the lobby hands
    them no second seat of it): their account, browser or address, as the handshake's cookies
    say (``sessions.persons``, issue 56). Told where the socket arrived and, for a relayed
    socket, again by the owner (the relay sends the keys it found); none without any."""
    keys = persons(hub.store.people, websocket, client_address(websocket))
    if keys:
        for feature in hub.hooked["opened"]:
            feature.opened(table_id, keys)
