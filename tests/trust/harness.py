"""Shared pieces of the trust tests: a real server with options, scripted luck, rooms whose
every seat is a recorded test socket, a lockstep driver and the true state replayed from the
store.

``running(**options)`` starts uvicorn in a thread like ``tests/server/live.py``, but passes
any ``create_app`` option (``budget``, ``chance``...) through. ``Scripted`` is a ``Chance``
(the server's first dealers and deck orders) that a test fills per table id before the deal
starts. ``replay_stream`` rebuilds the table version by version from the SQLite stream, which
the server writes before it tells anyone (so the test's truth is the server's own record).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field


from tarocchi.engine.game import game_names, get_game
from tarocchi.server.core.hub import Chance
from tarocchi.server.core.tables import Table
from tests.server.live import running_server
from tests.server.seat import Seat, new_room  # noqa: F401  (re-exported for the tests)

# Every game's codes (a frame of any game is scanned for the codes of all of them).
CODE_SET = frozenset(code for name in game_names() for code in get_game(name).deck.codes)


@dataclass
class Server:
    url: str
    ws_url: str | list[str]  # a site of several processes: one per process, the seats spread over them
    db: str
    chance: Scripted


class Scripted(Chance):
    """Seeded luck, with per-table overrides: ``dealers[table_id]`` and ``decks[table_id]``
    (a list of deck orders, one per deal, as 63 codes)."""

    def __init__(self, seed: int = 0):
        super().__init__(random.Random(seed))
        self.dealers: dict[str, int] = {}
        self.decks: dict[str, list[list[str]]] = {}

    def first_dealer(self, table: Table) -> int:
        if table.id in self.dealers:
            return self.dealers[table.id]
        return super().first_dealer(table)

    def deck(self, table: Table) -> list[str]:
        scripted = self.decks.get(table.id)
        if scripted:
            return list(scripted.pop(0))
        return super().deck(table)


@contextlib.contextmanager
def running(seed: int = 0, site: bool = False, **options) -> Iterator[Server]:
    """A live server (bots fast) on a fresh database; ``options`` go to ``create_app``.
    ``site``: two processes of one site on PostgreSQL and a Redis bus (issue 20): tables are
    made on the first, and ``open_all`` puts the seats on both in turn, so that every other
    seat is relayed."""
    chance = options.pop("chance", None) or Scripted(seed)
    options.setdefault("bot_delay", 0.01)
    options.setdefault("trick_pause", 0.0)
    if not site:
        with running_server(chance=chance, **options) as live:
            yield Server(live.url, live.ws_url, live.db, chance)
        return
    from tests.postgres import Cluster
    from tests.redis_server import RedisServer

    with Cluster() as cluster, RedisServer() as redis:
        db = cluster.new_database()
        with running_server(db, chance=chance, bus=redis.url, process="A", **options) as a, \
                running_server(db, chance=chance, bus=redis.url, process="B", **options) as b:
            yield Server(a.url, [a.ws_url, b.ws_url], db, chance)


def run_async(coro):
    """asyncio.run, in a thread of its own (Playwright's sync API keeps a loop in this one)."""
    out: dict = {}

    def target():
        try:
            out["value"] = asyncio.run(coro)
        except BaseException as e:  # noqa: BLE001  (handed back to the caller)
            out["error"] = e
    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


def new_room_ids(base: str, seats: int, game: str = "sicilian") -> tuple[str, list[str]]:
    """A room: (table id, seat tokens)."""
    import httpx

    r = httpx.post(f"{base}/api/rooms", json={"seats": seats, "game": game})
    assert r.status_code == 200, r.text
    body = r.json()
    return body["table"], [link.removeprefix("/t/") for link in body["links"]]


async def open_all(ws_url: str | list[str], tokens: list[str]) -> list[Seat]:
    """Open every seat in order (deterministic), and wait for the deal to start; with several
    addresses (a site), seat i on the i-th in turn."""
    urls = ws_url if isinstance(ws_url, list) else [ws_url]
    seats = []
    for i, t in enumerate(tokens):
        seats.append(await Seat.open(urls[i % len(urls)], t))
    for s in seats:
        await s.wait_state(lambda st: st["view"] is not None)
    return seats


async def drain(seats: list[Seat], seconds: float = 0.1) -> None:
    for s in seats:
        await s.quiet(seconds)


async def play_deal(seats: list[Seat], policy: Callable[[dict], str],
                    stop: Callable[[Seat], bool] = lambda actor: False) -> None:
    """Lockstep: every seat has seen the last version before the seat to act acts (from its
    own socket, with the policy's choice from its own view). ``stop(actor)`` ends it early."""
    while True:
        version = max(s.state["version"] for s in seats)
        for s in seats:
            await s.wait_state(lambda st: st["version"] >= version)
        if seats[0].view["phase"] == "done":
            return
        actor = next(s for s in seats if s.my_turn())
        if stop(actor):
            return
        if not actor.view.get("automatic"):  # else the server answers for it after a beat (R12):
            await actor.act(policy(actor.view), f"v{version}")  # an answer sent too would race it
        for s in seats:
            await s.wait_state(lambda st: st["version"] > version)


async def next_deal(seats: list[Seat]) -> bool:
    """Everybody presses Next deal; False when the match is over."""
    if seats[0].state["table"]["status"] == "over":
        return False
    number = seats[0].state["table"]["deal_number"]
    for s in seats:
        await s.send({"type": "next"})
    for s in seats:
        await s.wait_state(lambda st: st["table"]["deal_number"] > number)
    return True


# --- the truth, from the store ----------------------------------------------------------------

def stream(db: str, table_id: str) -> list[tuple[int, str, dict]]:
    if "://" in db:  # PostgreSQL (a site)
        from tarocchi.server.core.store import open_store

        store = open_store(db)
        try:
            return store.events(table_id)
        finally:
            store.close()
    with contextlib.closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT version, kind, data FROM events WHERE table_id = ? ORDER BY version",
                            (table_id,)).fetchall()
    return [(v, k, json.loads(d)) for v, k, d in rows]


@dataclass
class Truth:
    """What the replayed table was at each version: every seat's view, what each seat may
    know of the cards of the deal then (``known``), and facts for the structural checks."""
    table: Table
    views: dict[tuple[int, int], dict] = field(default_factory=dict)    # (version, seat) -> view
    known: dict[tuple[int, int], frozenset] = field(default_factory=dict)  # (version, seat) -> codes
    facts: dict[int, dict] = field(default_factory=dict)                 # version -> facts
    log: list[tuple[int, dict]] = field(default_factory=list)            # (version, public event)
    deals: list = field(default_factory=list)                            # the engine's deals


def sicilian_known(d, s: int) -> set[str]:
    """What seat ``s`` may know of a Sicilian deal now: its hand, every card played, the
    monte once turned up (or for the dealer who looked, R11), the called trump's name (not
    where it is), and the discard once counted."""
    codes = get_game("sicilian").deck.codes_of
    k = set(codes(d.hands[s]))
    for p in d.played:
        k.update(codes(p))
    k.update(codes(sum(1 << c for c in d.trick)))
    if d.monte_up or (s == d.dealer and d.dealer_looked):
        k.update(codes(d.monte))
    if d.called is not None:
        k.update(codes(1 << d.called))
    if d.done:
        k.update(codes(d.discarded))
    return k


def renaissance_known(d, s: int) -> set[str]:
    """What seat ``s`` may know of a Renaissance deal now: its hand (the dealer's with his
    three extra cards), its own discard (the dealer's, A7), every card played; at the count
    every pile and the discard (A13-A15)."""
    deck = get_game("renaissance").deck
    if d.done:
        return set(deck.codes)
    k = set(deck.codes_of(d.hands[s]))
    for p in d.played:
        k.update(deck.codes_of(p))
    k.update(deck.codes_of(sum(1 << c for c in d.trick)))
    if s == d.dealer:
        k.update(deck.codes_of(d.discarded))
    return k


def calabresella_known(d, s: int) -> set[str]:
    """What seat ``s`` may know of a Calabresella deal now: its hand, every card played, the
    monte as turned up for all (C10-C12), the called card and the card given back, its own
    dividete cards (C11) and its own cards laid face down; at the count, every card (C16)."""
    deck = get_game("calabresella").deck
    if d.count is not None and not d.thrown_in:
        return set(deck.codes)
    seen = d.hands[s] | sum(d.played) | sum(1 << c for c in d.trick) | d.turned_up | d.took[s] | d.laid[s]
    for c in (d.called, d.given_back):
        if c >= 0:
            seen |= 1 << c
    return set(deck.codes_of(seen))


def ottocento_known(d, s: int) -> set[str]:
    """What seat ``s`` may know of an Ottocento deal now: its hand (five cards until the a
    monte question ends, B7), every card played, every declared card (face up for all, B9), its
    own discard if it deals (B8); at the count of a played hand, every card (B25)."""
    deck = get_game("ottocento").deck
    if d.count is not None and not d.thrown_in and not d.count.at_declarations:
        return set(deck.codes)
    seen = d.hands[s] | sum(d.played) | sum(1 << c for c in d.trick) | sum(d.declared_cards)
    if s == d.dealer:
        seen |= d.discarded
    return set(deck.codes_of(seen))


KNOWN = {"sicilian": sicilian_known, "renaissance": renaissance_known,
         "calabresella": calabresella_known, "ottocento": ottocento_known}  # every registered game


def replay_stream(table_id: str, events: list[tuple[int, str, dict]]) -> Truth:
    """Replay the stream one event at a time with the server's own ``Table`` and the engine,
    keeping, after each version, each seat's view and the cards it may know (``KNOWN``: all
    it has known so far in this deal), and, for Sicilian, facts for the structural checks."""
    (_, _, created), *rest = events
    table = Table(table_id, created)
    truth = Truth(table)
    known: list[set[str]] = []
    deal = None
    for version, kind, data in rest:
        table.apply_event(version, kind, data)
        d = table.deal
        if d is None:
            continue
        if d is not deal:
            deal = d
            truth.deals.append(d)
            known = [set() for _ in range(d.seats)]
        for s in range(d.seats):
            k = known[s]
            k.update(KNOWN[table.game.name](d, s))
            # What the socket is sent: the engine's view without its actions list (the events
            # carry them, docs/protocol.md).
            truth.views[(version, s)] = {k: v for k, v in d.view(s).items() if k != "actions"}
            truth.known[(version, s)] = frozenset(k)
        if table.game.name != "sicilian":
            continue
        truth.facts[version] = {
            "deal": len(truth.deals) - 1, "phase": d.phase, "dealer": d.dealer, "bidder": d.bidder,
            "monte_up": d.monte_up, "dealer_looked": d.dealer_looked, "partner": d.partner,
            "partner_known": d.partner_known, "called": d.called, "done": d.done,
            "holder": next((h for h in range(d.seats) if d.called is not None and h != d.bidder
                            and d.hands[h] >> d.called & 1), None),
        }
    truth.log = list(table.log)
    return truth


def strings(x, out: list[str] | None = None) -> list[str]:
    """Every string anywhere in a JSON value, keys included."""
    out = [] if out is None else out
    if isinstance(x, str):
        out.append(x)
    elif isinstance(x, dict):
        for k, v in x.items():
            out.append(k)
            strings(v, out)
    elif isinstance(x, list):
        for v in x:
            strings(v, out)
    return out


def card_codes(x) -> set[str]:
    """Every card code a JSON value names: a string that is a code, or a code inside a
    discard action (``"discard 5C 6O MB"``)."""
    found = set()
    for s in strings(x):
        if s in CODE_SET:
            found.add(s)
        elif s.startswith("discard "):
            found.update(w for w in s.split()[1:] if w in CODE_SET)
    return found
