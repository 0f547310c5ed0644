"""A table played by the test instead of the server: the page's websocket is routed to this
object (Playwright's route_web_socket), which answers the hello with a state the test builds
from real engine views, and sends more states when the test says. The page's own files and
GET /api/games still come from the live server."""

from __future__ import annotations

import json
import random
import re

from tarocchi.engine.game import get_game


def table(seats: int = 3, game: str = "sicilian", kind: str = "computer", **more) -> dict:
    names = ["you"] + [f"computer {i}" for i in range(1, seats)] if kind == "computer" else \
        ["host", "guest 1", "guest 2", "guest 3"][:seats]
    t = {"id": "t1", "game": game, "kind": kind, "seats": seats, "status": "playing", "names": names,
         "joined": [True] * seats, "connected": [True] * seats, "bots": [kind == "computer" and s > 0 for s in range(seats)],
         "standin": [False] * seats, "takeover": [False] * seats, "deal_number": 1, "deals_in_match": 3, "target": None,
         "totals": [0] * seats, "ready": [False] * seats, "winners": None, "sheet": [], "rematch": [False] * seats, "you": 0}
    t.update(more)
    return t


def view(deal, seat: int = 0) -> dict:
    v = deal.view(seat)
    v.pop("actions", None)
    return v


def new_deal(seats: int = 3, game: str = "sicilian", dealer: int = 0, seed: int = 1):
    return get_game(game).shuffled(seats, dealer=dealer, rng=random.Random(seed))


class FakeServer:
    def __init__(self, page, tbl: dict, v: dict | None, events: list | None = None):
        self.page = page
        self.table, self.view, self.events = tbl, v, events or []
        self.version = 10
        self.sent: list[dict] = []
        self.ws = None
        page.route_web_socket(re.compile(r".*/ws/.*"), self._connect)

    def _connect(self, ws) -> None:
        self.ws = ws
        ws.on_message(self._message)

    def _message(self, raw) -> None:
        msg = json.loads(raw)
        self.sent.append(msg)
        if msg.get("type") == "hello":
            self.push(events=self.events)

    def push(self, tbl: dict | None = None, v: dict | None = None, events: list | None = None) -> None:
        if tbl is not None:
            self.table = tbl
        if v is not None:
            self.view = v
        self.version += 1
        self.ws.send(json.dumps({"type": "state", "version": self.version, "acted": [0] * self.table["seats"],
                                 "table": self.table, "view": self.view, "events": events or []}))

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))


def open_fake(page, base: str, tbl: dict, v: dict | None, events: list | None = None) -> FakeServer:
    fake = FakeServer(page, tbl, v, events)
    page.goto(base + "/t/faketoken00000000000000000000")
    page.locator(".table-page[data-version='11']").wait_for(state="attached")
    return fake
