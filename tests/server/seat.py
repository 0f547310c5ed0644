"""A test seat: one real websocket to the server, keeping every frame it receives.

It picks legal actions from its own view's ``choices`` (as a browser would), and a discard
of three cards the rules allow (R11) with the engine's ``discard_refusal``.
"""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import websockets

from tarocchi.engine.cards import mask_of
from tarocchi.games.sicilian import discard_refusal

TIMEOUT = 20.0


def new_computer(base: str, seats: int, level: str = "random") -> str:
    r = httpx.post(f"{base}/api/computer", json={"seats": seats, "level": level})
    assert r.status_code == 200, r.text
    return r.json()["link"].removeprefix("/t/")


def new_room(base: str, seats: int) -> list[str]:
    r = httpx.post(f"{base}/api/rooms", json={"seats": seats})
    assert r.status_code == 200, r.text
    return [link.removeprefix("/t/") for link in r.json()["links"]]


def pick_action(view: dict, rng: random.Random, *, prefer: tuple[str, ...] = ("vado solo",)) -> str:
    """A legal action from the view: a preferred word when allowed (a solo gets a deal
    played to the count), else a random allowed one."""
    allowed = [c["action"] for c in view["choices"] if c["reason"] is None]
    assert allowed, f"no allowed choice in {view['choices']}"
    for word in prefer:
        if word in allowed:
            return word
    if view["phase"] == "discard":
        hand = mask_of(view["hand"])
        while True:
            three = rng.sample(allowed, 3)
            if discard_refusal(hand, mask_of(three)) is None:
                return "discard " + " ".join(three)
    return rng.choice(allowed)


class Seat:
    def __init__(self, ws, token: str):
        self.ws = ws
        self.token = token
        self.frames: list[dict] = []
        self.state: dict | None = None
        self.events: list[dict] = []
        self.chats: list[dict] = []

    @classmethod
    async def open(cls, ws_url: str, token: str, since: int = 0, headers: dict | None = None) -> Seat:
        """``headers``: the handshake's own (a session's ``Cookie``, say)."""
        seat = cls(await websockets.connect(f"{ws_url}/ws/{token}", additional_headers=headers), token)
        await seat.send({"type": "hello", "since": since})
        await seat.wait_state(lambda s: True)
        await seat.until(lambda m: m["type"] == "history")  # a hello's answer ends with the chat it missed
        return seat

    async def close(self) -> None:
        await self.ws.close()

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = TIMEOUT) -> dict:
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.frames.append(message)
        if message["type"] == "state":
            self.state = message
            self.events.extend(message["events"])
        elif message["type"] == "chat":
            self.chats.append(message)
        elif message["type"] == "history":
            self.chats.extend({"type": "chat", **line} for line in message["lines"])
        return message

    async def until(self, wanted, timeout: float = TIMEOUT) -> dict:
        """Receive until a message satisfies ``wanted``; that message."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.recv(max(0.01, end - loop.time()))
            if wanted(message):
                return message

    async def wait_state(self, wanted, timeout: float = TIMEOUT) -> dict:
        if self.state is not None and wanted(self.state):
            return self.state
        return await self.until(lambda m: m["type"] == "state" and wanted(m), timeout)

    async def quiet(self, seconds: float = 0.2) -> list[dict]:
        """Whatever arrives within ``seconds`` (to check that nothing does)."""
        got = []
        try:
            while True:
                got.append(await self.recv(seconds))
        except (asyncio.TimeoutError, TimeoutError):
            return got

    @property
    def version(self) -> int:
        return max([self.state["version"] if self.state else 0] + [c["version"] for c in self.chats])

    @property
    def view(self) -> dict | None:
        return self.state["view"] if self.state else None

    @property
    def you(self) -> int:
        return self.state["table"]["you"]

    def my_turn(self) -> bool:
        view = self.view
        return view is not None and view["phase"] != "done" and view["turn"] == self.you

    async def act(self, action: str, client_id: str | None = None, version: int | None = None) -> None:
        """``version``: the table version the act answers, as the page sends it (None: left
        out, as an older page or a script does)."""
        message = {"type": "act", "action": action, "id": client_id}
        if version is not None:
            message["version"] = version
        await self.send(message)


def deal_done(state: dict) -> bool:
    return state["view"] is not None and state["view"]["phase"] == "done"


async def play_computer_deal(seat: Seat, rng: random.Random, prefer: tuple[str, ...] = ("vado solo",)) -> dict:
    """Play the human seat of a computer table until the deal is counted; the last state."""
    n = 0
    while not deal_done(seat.state):
        if seat.my_turn():
            version = seat.state["version"]
            await seat.act(pick_action(seat.view, rng, prefer=prefer), f"a{n}")
            n += 1
            await seat.wait_state(lambda s: s["version"] > version)
        else:
            await seat.recv()
    return seat.state


async def play_room_deal(seats: list[Seat], rng: random.Random, prefer: tuple[str, ...] = ("vado solo",),
                         stop=lambda state: False) -> None:
    """Every seat of a room plays from its own socket until the deal is counted."""
    while not deal_done(seats[0].state) and not stop(seats[0].state):
        version = max(s.state["version"] for s in seats)
        for s in seats:
            await s.wait_state(lambda st: st["version"] >= version)
        (actor,) = [s for s in seats if s.my_turn()]
        await actor.act(pick_action(actor.view, rng, prefer=prefer), f"v{version}")
        for s in seats:
            await s.wait_state(lambda st: st["version"] > version)
