"""Spectators and replays leak nothing (issue 22): whole matches of every game through the real
server, random legal play, with a spectator on the table's watch link; every frame it gets is
checked against the truth replayed from the store. A spectator may know only what every seat
may know (the intersection of the seats' ``known`` cards: played cards, a monte turned up for
all, declarations, and every card at the count), never a hand or a face-down card before the
deal ends; it can never act; a replay or a download never shows a deal before its count."""

from __future__ import annotations

import json

import httpx
import pytest

from tarocchi.bots import make_player
from tarocchi.engine.game import game_names, get_game
from tests.server.seat import Seat
from tests.trust.harness import (
    card_codes, new_room_ids, next_deal, open_all, play_deal, replay_stream, run_async, running, stream,
)

EVERY_GAME = tuple(game_names())
TABLES = [(name, seats) for name in game_names() for seats in get_game(name).seats]


def spectator_known(truth, version: int, seats: int) -> frozenset:
    """What every seat may know at ``version``: all a spectator may be told."""
    return frozenset.intersection(*(truth.known[(version, s)] for s in range(seats)))


def check_spectator(truth, frames: list[dict], seats: int) -> int:
    """Every state a spectator got against the truth; how many carried a deal."""
    checked = 0
    for f in frames:
        if f["type"] != "state" or f["view"] is None:
            continue
        v = f["version"]
        leaked = card_codes(f) - spectator_known(truth, v, seats)
        assert not leaked, f"the spectator at v{v} was sent {sorted(leaked)}"
        assert f["view"]["hand"] == [] and f["view"]["choices"] == [] and f["table"]["you"] is None
        # Whatever the spectator is shown of the deal, every seat's own view shows alike.
        for key, value in f["view"].items():
            if value is not None and key not in ("hand", "choices"):
                seat_values = [truth.views[(v, s)].get(key) for s in range(seats)]
                if all(x == seat_values[0] for x in seat_values):
                    assert value == seat_values[0], (v, key)
        checked += 1
    return checked


def watch_token(seat: Seat) -> str:
    link = seat.state["table"]["watch"]
    assert link and link.startswith("/w/")
    return link.removeprefix("/w/")


@pytest.mark.parametrize(("game", "where", "seats"),
                         [(g, "embedded", n) for g, n in TABLES]
                         + [pytest.param(g, "site", get_game(g).seats[-1], marks=pytest.mark.slow)  # a site: slow
                            for g in game_names()])
def test_a_spectator_is_never_sent_a_card_face_down_to_any_seat(game, where, seats):
    async def body(server):
        table_id, tokens = new_room_ids(server.url, seats, game)
        room = await open_all(server.ws_url, tokens)
        token = watch_token(room[0])
        assert {s.state["table"]["watch"] for s in room} == {f"/w/{token}"}  # one link, every seat told
        # On a site, the spectator reaches the other process: its socket is relayed.
        urls = server.ws_url if isinstance(server.ws_url, list) else [server.ws_url]
        spectator = await Seat.open(urls[-1], token)
        player = make_player("random", 11, game)
        while True:
            await play_deal(room, player)
            await spectator.wait_state(lambda st: st["version"] >= room[0].state["version"])
            if not await next_deal(room):
                break
        await spectator.quiet(0.2)
        truth = replay_stream(table_id, stream(server.db, table_id))
        assert truth.table.status == "over"
        assert check_spectator(truth, spectator.frames, seats) > 20
        # At the count the spectator sees the whole count, as the seats do.
        done = [f for f in spectator.frames if f["type"] == "state" and f["view"] and f["view"]["phase"] == "done"]
        assert done and all(f["view"]["count"] is not None for f in done)
        for s in room + [spectator]:
            await s.close()

    with running(seed=41, games=EVERY_GAME, site=where == "site") as server:
        run_async(body(server))


@pytest.mark.parametrize("where", ["embedded", pytest.param("site", marks=pytest.mark.slow)])
@pytest.mark.parametrize("game", [g if g in ("sicilian", "calabresella") else pytest.param(g, marks=pytest.mark.slow)
                                  for g in game_names()])  # the inner loop: the two fastest games
def test_a_spectator_cannot_act_and_no_replay_or_download_shows_a_deal_before_its_count(game, where):
    async def body(server):
        seats = get_game(game).seats[0]
        table_id, tokens = new_room_ids(server.url, seats, game)
        room = await open_all(server.ws_url, tokens)
        token = watch_token(room[1])
        urls = server.ws_url if isinstance(server.ws_url, list) else [server.ws_url]
        spectator = await Seat.open(urls[-1], token)
        version = room[0].state["version"]
        actor = next(s for s in room if s.my_turn())
        # A forged act with the very action the seat to act may take, then every other request.
        legal = make_player("random", 1, game)(actor.view)
        forged = [{"type": "act", "action": legal, "id": "forged"}, {"type": "chat", "text": "hello"},
                  {"type": "name", "name": "intruder"}, {"type": "next"}, {"type": "start"},
                  {"type": "rematch"}, {"type": "takeover", "seat": 0}]
        for message in forged:
            await spectator.send(message)
            refused = await spectator.until(lambda m: m["type"] == "refused")
            assert refused["reason"] == "a watch link only watches: a spectator cannot play, chat or speak for a seat"
            assert refused["version"] == version
        assert stream(server.db, table_id)[-1][0] == version  # nothing stored
        for s in room:
            assert all(m["type"] != "state" or m["version"] == version for m in await s.quiet(0.2))
        assert not any(c["text"] == "hello" for s in room for c in s.chats)
        # The deal in play has no replay, and no download holds its deck (its hands).
        for t in (token, tokens[0]):
            r = httpx.get(f"{server.url}/api/replay/{t}/1")
            assert r.status_code == 404 and r.json() == {"error": "that deal is not finished: its replay opens at the count"}
            assert httpx.get(f"{server.url}/api/records/{t}").text == ""
            assert httpx.get(f"{server.url}/api/deals/{t}").json()["deals"] == []
        # Chat lines reach the spectator (read-only), as they reach the seats.
        await room[0].send({"type": "chat", "text": "ciao a tutti"})
        line = await spectator.until(lambda m: m["type"] == "chat")
        assert line["text"] == "ciao a tutti" and line["seat"] == 0
        # Once the deal is over its replay opens with every hand, and the download holds it.
        await play_deal(room, make_player("random", 2, game))
        deck = stream(server.db, table_id)
        first_deck = next(d["deck"] for _, kind, d in deck if kind == "deal")
        replay = httpx.get(f"{server.url}/api/replay/{token}/1").json()
        hands = [set(h) for h in replay["steps"][0]["hands"]]
        assert set().union(*hands) <= set(first_deck) and sum(map(len, hands)) >= 5 * seats
        lines = [json.loads(x) for x in httpx.get(f"{server.url}/api/records/{token}").text.splitlines()]
        assert [x["deck"] for x in lines] == [first_deck]
        # Any process of a site answers from the stored stream, the table's owner or not.
        other = urls[-1].replace("ws://", "http://")
        assert httpx.get(f"{other}/api/replay/{token}/1").json() == replay
        assert httpx.get(f"{other}/api/records/{token}").text == httpx.get(f"{server.url}/api/records/{token}").text
        if not await next_deal(room):
            return
        # The next deal is in play: still nothing of it.
        assert httpx.get(f"{server.url}/api/replay/{token}/2").status_code == 404
        assert len(httpx.get(f"{server.url}/api/records/{token}").text.splitlines()) == 1
        for s in room + [spectator]:
            await s.close()

    with running(seed=42, games=EVERY_GAME, site=where == "site") as server:
        run_async(body(server))


def test_an_unknown_watch_token_opens_nothing():
    async def body(server):
        seat = Seat(None, "x")
        import websockets

        seat.ws = await websockets.connect(f"{server.ws_url}/ws/{'A' * 32}")
        error = await seat.until(lambda m: m["type"] == "error")
        assert error["reason"] == "unknown link: this seat does not exist"
        for path in ("/api/deals/", "/api/records/", "/api/replay/"):
            r = httpx.get(f"{server.url}{path}{'A' * 32}" + ("/1" if "replay" in path else ""))
            assert r.status_code == 404

    with running() as server:
        run_async(body(server))
