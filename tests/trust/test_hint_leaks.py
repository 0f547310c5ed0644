"""Hints and reviews tell no secrets (issue 21): a deal of every game in a room that allows
hints, every seat a recorded test socket; the seat to act asks for a hint at most of its turns
and every seat asks for the review after the count. The player is the real strongest level,
watched (``Watching``): each view it is given is recorded.

- What the player is given is the seat's own view: for a hint, exactly the engine's
  projection for that seat at that version; for a review's decision, a view naming only the
  cards that seat had seen by that action (the harness's ``KNOWN``, accumulated over the deal
  replayed from the store), never the later ones.
- What comes back names no other card: a hint only the cards its seat may know at that
  version, its actions the seat's legal choices then; each review item only what the seat had
  seen by the decision it is about, and the action it says the seat took is the record's.
- A hint asked by a seat that is not to act, for another seat, or in a forged message is
  refused, and nothing is stored.
"""

from __future__ import annotations

import asyncio
import random
import re
import threading

import httpx
import pytest

from tarocchi.bots import advice, make_player
from tarocchi.engine.game import game_names, get_game
from tarocchi.engine.records import new_deal
from tarocchi.server import advice as server_advice
from tests.trust.harness import KNOWN, open_all, replay_stream, running, stream

TABLES = [(name, seats) for name in game_names() for seats in get_game(name).seats]
ADVICE_SECONDS = 0.03  # the player's CPU budget for one decision here (a test server's: 0.1)


class Watching:
    """The game's strongest player (``advice.strongest_level``), each view it evaluates
    recorded in ``WATCHED``."""

    def __init__(self, game: str, seconds: float = advice.ADVICE_SECONDS):
        self.game = game
        self.player = make_player(advice.strongest_level(game), game=game)
        self.player.time_limit = seconds

    def evaluate(self, view):
        with LOCK:
            WATCHED.append((self.game, view))
        return self.player.evaluate(view)


WATCHED: list[tuple[str, dict]] = []
LOCK = threading.Lock()


@pytest.fixture
def watched(monkeypatch):
    """The advice's player watched (a new one for each question: the pool's threads share none)."""
    WATCHED.clear()
    monkeypatch.setattr(server_advice, "ADVICE_BURST", 10_000)  # a hint at nearly every turn, at test speed
    monkeypatch.setattr(server_advice, "ADDRESS_BURST", 10_000)  # (every seat from this one address)
    monkeypatch.setattr(advice, "_player", Watching)
    return WATCHED


def codes(game: str, x) -> set[str]:
    """Every card code a JSON value names, wherever it stands in a string ("7C volo", "discard
    5C 6O MB", "declare cups:KC,QC"); a refusal's reason is prose ("at 10 cards"), not read."""
    deck = set(get_game(game).deck.codes)
    found: set[str] = set()

    def walk(v):
        if isinstance(v, str):
            found.update(tok for tok in re.split(r"[\s,:]+", v) if tok in deck)
        elif isinstance(v, dict):
            for k, item in v.items():
                if k != "reason":
                    walk(k)
                    walk(item)
        elif isinstance(v, list):
            for item in v:
                walk(item)
    walk(x)
    return found


def seen_by_action(game: str, record: dict) -> dict[tuple[int, int], frozenset]:
    """(seat, action index) -> the cards that seat had seen in the deal before that action."""
    deal = new_deal(record)
    known = [set() for _ in range(deal.seats)]
    out = {}
    for i, a in enumerate(record["actions"] + [None]):
        for s in range(deal.seats):
            known[s].update(KNOWN[game](deal, s))
            out[(s, i)] = frozenset(known[s])
        if a is not None:
            deal.apply(a["action"], a["seat"])
    return out


def legal(view: dict) -> list[str]:
    return [c["action"] for c in view["choices"] if c["reason"] is None]


async def play_with_hints(room, game: str, rng: random.Random) -> list[tuple[int, int, dict, dict]]:
    """Lockstep to the count; the seat to act asks for a hint at most turns first (and an
    idle seat for one, refused). (version, seat, the seat's view, the hint) for each hint."""
    player = make_player("random", 5, game)

    def policy(view: dict) -> str:  # a contract when one may be had, so that the deal is played
        words = [w for w in ("vado solo", "gioco") if w in legal(view)]
        return words[0] if words else player(view)
    hints = []
    while True:
        version = max(s.state["version"] for s in room)
        for s in room:
            await s.wait_state(lambda st: st["version"] >= version)
        if room[0].view["phase"] == "done":
            return hints
        actor = next(s for s in room if s.my_turn())
        view = actor.view
        if len(legal(view)) > 1 and not view.get("automatic") and rng.random() < 0.8:
            await actor.send({"type": "hint"})
            answer = await actor.until(lambda m: m["type"] in ("hint", "refused", "error"), timeout=60)
            assert answer["type"] == "hint", answer
            hints.append((version, actor.you, view, answer))
            idle = next(s for s in room if s is not actor)
            for message in ({"type": "hint"}, {"type": "hint", "seat": actor.you}):
                await idle.send(message)
                got = await idle.until(lambda m: m["type"] in ("hint", "refused", "error"))
                assert got["type"] in ("refused", "error") and got["type"] != "hint", (message, got)
        await actor.act(policy(view), f"v{version}")
        for s in room:
            await s.wait_state(lambda st: st["version"] > version)


# The inner loop (-m "not slow") checks Sicilian at three seats; every other table is slow.
@pytest.mark.parametrize(("game", "seats"), [t if t == ("sicilian", 3) else pytest.param(*t, marks=pytest.mark.slow)
                                             for t in TABLES])
def test_hints_and_reviews_name_no_card_the_seat_may_not_see(watched, game, seats):
    rng = random.Random(seats * 7 + len(game))
    # (many messages a turn; each hint or review decision a few hundredths of a CPU second, at
    # least one world sampled: what the player is given and what it names do not depend on how
    # many worlds it samples, and each table's ~100 decisions took most of the test's time)
    with running(rng.randrange(1000), budget=(10_000, 1000.0), advice_seconds=ADVICE_SECONDS) as server:
        r = httpx.post(f"{server.url}/api/rooms", json={"seats": seats, "game": game, "hints": True})
        assert r.status_code == 200, r.text
        table_id, tokens = r.json()["table"], [link.removeprefix("/t/") for link in r.json()["links"]]

        async def body():
            room = await open_all(server.ws_url, tokens)
            hints = await play_with_hints(room, game, rng)
            reviews = {}
            for s in room:
                await s.send({"type": "review"})
            for s in room:
                reviews[s.you] = await s.until(lambda m: m["type"] == "review" and m["done"], timeout=120)
            for s in room:
                await s.close()
            return hints, reviews
        hints, reviews = asyncio.run(body())
        truth = replay_stream(table_id, stream(server.db, table_id))
    (deal,) = truth.deals
    record = deal.record()
    seen = seen_by_action(game, record)
    assert len(hints) > 5

    # The hints: from the projection, naming what the seat may know, its legal actions.
    for version, seat, view, hint in hints:
        assert view == truth.views[(version, seat)]
        allowed = set(legal(view)) | codes(game, view["choices"])
        known = truth.known[(version, seat)] | codes(game, view["choices"])
        leaked = codes(game, hint) - known
        assert not leaked, f"a hint to seat {seat} at v{version} names {sorted(leaked)}"
        assert 1 <= len(hint["actions"]) <= advice.HINT_ACTIONS
        for a in hint["actions"]:
            assert a["action"] in allowed or codes(game, a["action"]) <= set(view["hand"]), a

    # The reviews: each decision of the seat's, from what it had seen then.
    for seat, review in reviews.items():
        items = review["items"]
        assert review["decisions"] == len(items) and items, (seat, review)
        for item in items:
            i = item["index"]
            assert record["actions"][i]["seat"] == seat and item["played"] == record["actions"][i]["action"]
            leaked = codes(game, item) - seen[(seat, i)]
            assert not leaked, f"the review of seat {seat}'s action {i} names {sorted(leaked)}"

    # What the player was given: one seat's view, naming only what that seat had seen by then.
    views = [v for g, v in watched if g == game]
    assert len(views) >= len(hints) + sum(len(r["items"]) for r in reviews.values())
    projections = [v for v in views if any(v == {**h[2], "actions": v["actions"]} for h in hints)]
    assert len(projections) >= len(hints)
    for view in views:
        seat, index = view["seat"], len(view["actions"])
        leaked = codes(game, view) - seen[(seat, index)]
        assert not leaked, f"seat {seat}'s view at action {index} as the player got it names {sorted(leaked)}"
