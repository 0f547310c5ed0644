"""Spectators and looking back (issue 22): watch links, the spectator's projection, replays of
finished deals and a table's records to download.

**The watch link.** Each table has one watch token (192 bits, like a seat's), in the store's
``seats`` rows under the seat number ``WATCH_SEAT`` (a number no older code can take for a
playing seat: it indexes no seat list) and in the table's stream, so that every seat's state
can carry the link: a new table has it in its ``created`` event (``watch``), a table created
before there were watch links gets a ``watch`` event the first time a seat says hello (its older
events replay unchanged; older code, which did not know the key, ignores it in ``created``).

**What a spectator sees** is what anyone at the table may know, and nothing more: each game's
public projection (``public_view``, in the game's module: the shape of a seat's view with the
seat's own parts empty), never a mix of the seats' views. So a spectator never gets a card face
down to any player before the deal ends, nor any fact that differs between seats (who holds
the called trump, whose No was forced), and the frame is a function of what is public alone:
two deals alike in all that is public give the same bytes (``tests/trust/test_swap.py``). A spectator's socket runs the seats' protocol (``hello``, ``history``; the
frames are the same ``state``, ``chat`` and ``history``) but may not act: any request that would
change the table is refused with ``WATCH_ONLY`` and nothing changes.

**Looking back** reads the table's stored stream (any process of a site can: only committed
events are there), replays it with the server's own ``Table`` and keeps every deal that
reached its end. A replay steps through one such deal with the engine's replay of its record
(``engine.records``); the records to download are those deals and each finished match, as
``docs/records.md`` writes them. A deal not finished yet has no replay and is in no download:
its record holds the deck order, every hand.

**A rated match's link** (issue 55) names ``<table id>.<match>`` (``match_reference``) where the
routes take a token: the deals of that one match, under its players' names as recorded (a
deleted account's neutral), and never the table as it is now (no socket opens with it: no
rematch in play, no chat). A rated match's result is public, its deals with it; an unrated
match opens nothing so.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from typing import TYPE_CHECKING

from dataclasses import dataclass

from tarocchi.engine.records import dumps, match_record, new_deal

from .core.messages import (CLOSE_TOO_MANY, HELLO_BURST, HELLOS_PER_SECOND, TOO_MANY_HELLOS, TOO_MANY_LOOKS, Act, Budget,
                       Hello, History)
from .core.features import Spectators
from .core.hub import CLOSE_UNKNOWN, Connection, StoredTable, stored_table
from .core.tables import CHAT_KEPT, WATCH_SEAT, Table, chat_line, daily_hidden, match_reference, spectator_view
from .core.tables import encode_json as _encode

if TYPE_CHECKING:
    from .core.hub import Hub

WATCH_ONLY = "a watch link only watches: a spectator cannot play, chat or speak for a seat"
SPECTATORS_PER_TABLE = 200
TOO_MANY_SPECTATORS = f"this table has {SPECTATORS_PER_TABLE} spectators already: try again later"
NOT_FINISHED = "that deal is not finished: its replay opens at the count"
NO_SUCH_DEAL = "this table has no such deal"
BROKEN_PAST = "this table could not be restored after a problem on the server"
UNKNOWN_TABLE = "unknown link: this table does not exist"
# (issue 59: a daily deal's cards are others' still to play until its day is over)
DAILY_HIDDEN = "a daily deal's replay opens when its day is over (UTC): others are still to play these cards"
DAILY_WATCHED = "a daily deal's table is watched once its day is over (UTC): others are still to play these cards"


def watch_link(token: str) -> str:
    return f"/w/{token}"


# --- what anyone at the table may know ---------------------------------------------------------

def spectator_frame(table: Table, view: dict | None, since: int, connected: list[bool]) -> bytes:
    """The spectator's state frame: the table as every seat's summary has it (``you`` null, no
    seat to hand over), ``view`` (``spectator_view`` of the deal, or None), and the public
    events after ``since``. A function of what is public alone (the swap test)."""
    summary = table.summary(None, connected)
    summary["takeover"] = [False] * table.seats
    return _encode({"type": "state", "version": table.version, "acted": table.acted, "table": summary,
                    "view": view, "events": table.events_since(since)})


# --- spectators' sockets -------------------------------------------------------------------

class SpectatorConnection(Connection):
    """A spectator's socket: no seat, the spectator's projection."""
    watching = True

    def __init__(self, websocket, table: Table, watchers: Watchers):
        super().__init__(websocket, table, WATCH_SEAT)
        self.watchers = watchers
        self.hellos = Budget(HELLO_BURST, HELLOS_PER_SECOND)  # per socket: one link, many spectators

    def state_frame(self, hub: Hub) -> bytes:
        return self.watchers.state_frame(self)


class Watchers(Spectators):
    """The spectators of every table this process drives: their sockets, their state frames
    (one spectator projection per table and version, encoded once for all of them). The core
    hands it every socket opened with a watch token (``Spectators``)."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self.sockets: dict[str, list[Connection]] = {}  # table id -> its spectators' sockets
        self.views: dict[str, tuple[int, dict | None]] = {}  # table id -> (version, spectator view)
        self.frames: dict[tuple, bytes] = {}  # (table, version, since, *connected) -> frame
        self.looking = Looking(hub)  # the replays made lately

    def connection(self, websocket, table: Table) -> Connection:
        return SpectatorConnection(websocket, table, self)

    # --- the core's hooks (core/features.py) ------------------------------------------------

    def told(self, table: Table) -> None:
        self.tell(table)

    def chat(self, table: Table, frame: bytes) -> None:
        self.send(table.id, frame)

    def holds(self, table_id: str) -> bool:
        return self.watching(table_id)

    def unloaded(self, table_id: str, code: int, reason: str) -> None:
        self.drop(table_id, code, reason)

    def attach(self, conn: Connection) -> None:
        if daily_hidden(conn.table, self.hub.now()):  # (issue 59: the played cards would tell of deals others have yet to play)
            conn.send({"type": "error", "reason": DAILY_WATCHED})
            conn.close(CLOSE_UNKNOWN, DAILY_WATCHED)
            return
        sockets = self.sockets.setdefault(conn.table.id, [])
        if len(sockets) >= SPECTATORS_PER_TABLE:
            conn.send({"type": "error", "reason": TOO_MANY_SPECTATORS})
            conn.close(CLOSE_TOO_MANY, TOO_MANY_SPECTATORS)
        sockets.append(conn)

    def detach(self, conn: Connection) -> None:
        sockets = self.sockets.get(conn.table.id, [])
        if conn in sockets:
            sockets.remove(conn)
        if not sockets:
            self.sockets.pop(conn.table.id, None)
            self.views.pop(conn.table.id, None)
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().call_soon(self.hub.unload_if_idle, conn.table)

    def watching(self, table_id: str) -> bool:
        return bool(self.sockets.get(table_id))

    def tell(self, table: Table) -> None:
        """A new state for every spectator of ``table`` (its seats were just told)."""
        for conn in self.sockets.get(table.id, []):
            if conn.greeted:
                conn.push_state()

    def send(self, table_id: str, frame: bytes) -> None:
        """A frame every spectator gets as it is (a chat line)."""
        for conn in self.sockets.get(table_id, []):
            if conn.greeted:
                conn.send(frame)

    def drop(self, table_id: str, code: int, reason: str) -> None:
        """The table leaves this process's memory: its spectators reconnect (to whichever
        process drives it now), with nothing more sent."""
        for conn in self.sockets.pop(table_id, []):
            conn.abort(code, reason)
        self.views.pop(table_id, None)

    def view(self, table: Table) -> dict | None:
        kept = self.views.get(table.id)
        if kept is None or kept[0] != table.version:
            kept = self.views[table.id] = (table.version, spectator_view(table.deal) if table.deal is not None else None)
        return kept[1]

    def state_frame(self, conn: Connection) -> bytes:
        """The spectator's state: the table as every seat's summary has it (``you`` null, no
        seat to hand over), the spectator view, and the public events it has not had."""
        table = conn.table
        connected = self.hub.connected(table)
        # (a seat coming or going changes the frame, not the version)
        key = (table.id, table.version, conn.sent_version, *connected)
        frame = self.frames.get(key)
        if frame is not None:
            return frame
        if len(self.frames) > 1000:
            self.frames.clear()
        frame = self.frames[key] = spectator_frame(table, self.view(table), conn.sent_version, connected)
        return frame

    def handle(self, conn: Connection, message) -> None:
        """A spectator's message: a hello (the state, then the chat it missed), a request for
        older chat lines; anything else is refused, and nothing changes."""
        table = conn.table
        loop = asyncio.get_running_loop()
        if isinstance(message, Hello):
            if not conn.hellos.spend(loop.time()):
                conn.send({"type": "error", "reason": TOO_MANY_HELLOS})
                return conn.close(CLOSE_TOO_MANY, TOO_MANY_HELLOS)
            conn.sent_version = min(message.since, table.version)
            conn.greeted = True
            conn.push_state()
            conn.send(table.history_frame(conn.sent_version))
            return
        if not conn.greeted:
            return conn.send({"type": "error", "reason": "say hello first"})
        if isinstance(message, History):
            if not conn.hellos.spend(loop.time()):
                return self.refuse(conn, None, TOO_MANY_HELLOS)
            rows = self.hub.store.chat_before(table.id, message.before, CHAT_KEPT + 1)
            lines = [chat_line(table.name_at(data["seat"], version), data, version)
                     for version, data in reversed(rows[:CHAT_KEPT]) if not data.get("hidden")]  # (issue 58)
            return conn.send({"type": "history", "before": message.before, "lines": lines,
                              "more": len(rows) > CHAT_KEPT})
        self.refuse(conn, message.id if isinstance(message, Act) else None, WATCH_ONLY)

    @staticmethod
    def refuse(conn: Connection, client_id, reason: str) -> None:
        conn.send({"type": "refused", "id": client_id, "reason": reason, "version": conn.table.version})


# --- looking back -----------------------------------------------------------------------------

@dataclass
class Past:
    """A table's finished deals, in the order they were dealt, and its matches; or (``only``)
    one finished match's alone, under its players' names as recorded."""
    table: Table
    deals: list  # (match index, deal index in the match, the engine's deal), finished only
    matches: list  # every Match of the table, in order
    only: int | None = None  # the index of the one match looked back at (a match's link)
    recorded_names: list[str] | None = None  # that match's players, as its record has them

    @property
    def names(self) -> list[str]:
        return self.recorded_names if self.recorded_names is not None else self.table.names


def one_match(past: Past, match: int, names: list[str]) -> Past:
    """``past`` cut to match ``match`` (from 1): its finished deals, numbered from 1."""
    return Past(past.table, [d for d in past.deals if d[0] == match - 1], past.matches, match - 1, names)


def past_from(stored: StoredTable) -> Past:
    """The finished deals of a table read from its stream (``Hub.stored``)."""
    deals = [(m, k, d) for m, match in enumerate(stored.matches) for k, d in enumerate(match.deals) if d.done]
    return Past(stored.table, deals, stored.matches)


def past_of(table_id: str, events: list[tuple[int, str, dict]]) -> Past:
    """The past of the table whose stream is ``events``."""
    return past_from(stored_table(table_id, events))


class Looking:
    """The replays made lately, kept: asked again, none is worked out again. The work itself
    (every seat's view at every step of a deal: tens to hundreds of milliseconds) runs in a
    thread, not on the event loop every table shares, as the stream's replay does (``Hub.stored``)."""

    def __init__(self, hub: Hub, kept: int = 32):
        self.hub, self.kept = hub, kept
        self.replays: collections.OrderedDict[tuple, bytes] = collections.OrderedDict()

    def table_of(self, token: str) -> str | None:
        """The table a seat's or the watch token names. (What it opens here is public: deals
        that reached their count, the names; any token of the table may ask.)"""
        found = self.hub.store.seat_of(token)
        if found is None:
            return None
        return found[0]

    def match_of(self, reference: str) -> tuple[str, int, list[str]] | None:
        """(table, match, its players' names) of a rated match's reference (``match_reference``),
        None for anything else: an unrated or unknown match opens nothing (issue 55)."""
        table_id, dot, number = reference.rpartition(".")
        if not dot or not table_id or not number.isdigit() or len(number) > 6:
            return None
        names = self.hub.store.people.rated_match_names(table_id, int(number))
        return None if names is None else (table_id, int(number), names)

    async def past(self, table_id: str) -> Past:
        return past_from(await self.hub.stored(table_id))

    async def replay(self, past: Past, number: int) -> bytes:
        """``replay_of`` as JSON; LookupError for no such finished deal."""
        # (a replay of the same stream, the same match and names: a deleted name is gone from it)
        key = (past.table.id, past.table.version, number, past.only, tuple(past.names))
        body = self.replays.get(key)
        if body is None:
            body = self.replays[key] = await asyncio.to_thread(lambda: _encode(replay_of(past, number)))
            while len(self.replays) > self.kept:
                self.replays.popitem(last=False)
        return body


def deal_list(past: Past) -> dict:
    """The finished deals as the table page lists them for replay."""
    table = past.table
    return {
        "table": table.id, "game": table.game.name, "names": past.names,
        # (a finished match's link leads to nothing live: issue 55)
        "watch": watch_link(table.watch_token) if table.watch_token and past.only is None else None,
        "deals": [{"number": n + 1, "match": m + 1, "deal": k + 1, "dealer": d.dealer, "payments": d.returns()}
                  for n, (m, k, d) in enumerate(past.deals)],
    }


def _card_lists(view: dict, codes: frozenset) -> dict:
    """The fields of a view that are lists of card codes (a discard, a monte, extra cards)."""
    return {k: v for k, v in view.items()
            if k not in ("hand", "choices") and isinstance(v, list) and v and all(isinstance(c, str) and c in codes for c in v)}


def replay_of(past: Past, number: int) -> dict:
    """Finished deal ``number`` (from 1, in the order dealt) step by step, every hand face up:
    after each action, each seat's hand, the cards only some seats saw (each seat's own card
    lists that are not public: a discard, the monte looked at, extra cards), the public view
    (the trick, the auction, declarations...) and the public events the action made. LookupError
    when there is no such finished deal."""
    if not 1 <= number <= len(past.deals):
        raise LookupError(NO_SUCH_DEAL)
    m, k, done = past.deals[number - 1]
    record = done.record()
    deal = new_deal(record)
    codes = frozenset(deal.codes) if hasattr(deal, "codes") else frozenset(past.table.game.deck.codes)

    def step(seat, action, events_from):
        views = [deal.view(s) for s in range(deal.seats)]
        shared = deal.public_view()
        public = _card_lists(shared, codes)
        seen = [{key: cards for key, cards in _card_lists(v, codes).items() if public.get(key) != cards} for v in views]
        return {"seat": seat, "action": action, "phase": shared.get("phase"), "turn": shared.get("turn"),
                "hands": [v.get("hand", []) for v in views], "seen": seen, "shown": public,
                "trick": shared.get("trick") or [], "last_trick": shared.get("last_trick"),
                "events": list((deal.events or [])[events_from:])}

    steps = [step(None, None, 0)]
    for item in record["actions"]:
        before = len(deal.events or [])
        deal.apply(item["action"], item["seat"])
        steps.append(step(item["seat"], item["action"], before))
    final = deal.public_view()
    return {
        "table": past.table.id, "game": past.table.game.name, "seats": deal.seats, "names": past.names,
        "number": number, "of": len(past.deals), "match": m + 1, "deal": k + 1, "dealer": record["dealer"],
        "steps": steps, "count": final.get("count"), "payments": deal.returns(),
    }


def records_of(past: Past) -> str:
    """The table's records as JSON lines (docs/records.md): each finished deal's record, then
    each finished match's record. An unfinished deal is left out (its deck order is every hand),
    and so is the match it belongs to until it is over."""
    table = past.table
    lines = []
    for n, (m, k, deal) in enumerate(past.deals):
        record = deal.record()
        record["meta"] = {"table": table.id, "deal": n + 1, "match": m + 1, "names": past.names}
        lines.append(dumps(record))
    for m, match in enumerate(past.matches):
        if match.over and past.only in (None, m):
            record = match_record(match)
            record["meta"] = {"table": table.id, "match": m + 1, "names": past.names}
            lines.append(dumps(record))
    return "".join(line + "\n" for line in lines)


# --- HTTP: the watch link, replays, downloads ----------------------------------------------------

def routes(watchers_of, page, may_look) -> list:
    """The routes of watching and looking back (docs/protocol.md): the pages (``page``: the
    client's one page) and the JSON a page reads. Any seat or watch token opens them: what they
    give is public once a deal is over. ``may_look(request)`` spends the client address's
    budget for the JSON (each replays a stored stream): False, a 429."""
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    async def past_for(request):
        if not await may_look(request):
            return JSONResponse({"error": TOO_MANY_LOOKS}, status_code=429)
        watchers = watchers_of()
        hub = watchers.hub
        token = request.path_params["token"]
        match = watchers.looking.match_of(token) if "." in token else None
        table_id = match[0] if match else watchers.looking.table_of(token)
        if table_id is None:
            return JSONResponse({"error": UNKNOWN_TABLE}, status_code=404)
        if table_id in hub.broken:
            return JSONResponse({"error": BROKEN_PAST}, status_code=410)
        try:
            past = await watchers.looking.past(table_id)
        except ValueError:  # a stream that does not replay (tarocchi check-db says why)
            return JSONResponse({"error": BROKEN_PAST}, status_code=410)
        return one_match(past, match[1], match[2]) if match else past

    async def deals(request):
        past = await past_for(request)
        return past if isinstance(past, Response) else JSONResponse(deal_list(past))

    async def replay_deal(request):
        past = await past_for(request)
        if isinstance(past, Response):
            return past
        if daily_hidden(past.table, watchers_of().hub.now()):
            return JSONResponse({"error": DAILY_HIDDEN}, status_code=403)
        number = request.path_params["number"]
        if number > len(past.deals):
            table = past.table
            unfinished = (past.only is None and table.deal is not None and not table.deal.done
                          and number == len(past.deals) + 1)
            return JSONResponse({"error": NOT_FINISHED if unfinished else NO_SUCH_DEAL}, status_code=404)
        try:
            return Response(await watchers_of().looking.replay(past, number), media_type="application/json")
        except LookupError as e:
            return JSONResponse({"error": str(e)}, status_code=404)

    async def records(request):
        past = await past_for(request)
        if isinstance(past, Response):
            return past
        if daily_hidden(past.table, watchers_of().hub.now()):
            return JSONResponse({"error": DAILY_HIDDEN}, status_code=403)
        name = f"tarocchi-{past.table.game.name}-{past.table.id}.jsonl"
        body = await asyncio.to_thread(records_of, past)  # every deal's record: not on the loop
        return Response(body, media_type="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})

    return [
        Route("/w/{token}", page),
        Route("/r/{token}/{number:int}", page),
        Route("/api/deals/{token}", deals),
        Route("/api/replay/{token}/{number:int}", replay_deal),
        Route("/api/records/{token}", records),
    ]
