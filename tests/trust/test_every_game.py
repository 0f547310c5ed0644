"""Trust holds for every registered game (issue 11): whole matches in rooms through the real
server, every frame of every seat checked against the truth replayed from the store (no card
a seat may not know, the view exactly the engine's projection for that seat); a seat acts
only for itself and only when the rules let it; garbage changes nothing; a SIGKILL loses
nothing that was acknowledged. The Sicilian-only paths (every way of speaking, the hidden
partner) have their own tests (test_no_leaks, test_authority, test_fuzz)."""

from __future__ import annotations

import itertools

import httpx

import pytest

from tarocchi.bots import make_player
from tarocchi.engine.game import game_names, get_game
from tarocchi.server.core.hub import TABLE_GAMES
from tests.faults.server import ServerProcess, run
from tests.server.seat import Seat
from tests.trust.harness import (
    card_codes, new_room_ids, next_deal, open_all, play_deal, replay_stream, run_async, running, stream,
)

# Every registered game at each of its table sizes: the server hosts any of them (the web
# table offers those it has screens for, hub.TABLE_GAMES; these tests open them all).
TABLES = [(name, seats) for name in game_names() for seats in get_game(name).seats]
EVERY_GAME = tuple(game_names())


def policy(game: str, seed: int):
    """A random legal action from the seat's own view, as a browser would send it."""
    player = make_player("random", seed, game)
    return lambda view: player(view)


def check_seat(truth, seat: int, frames: list[dict]) -> int:
    """Every frame to ``seat`` against the truth; how many states were checked."""
    checked = 0
    for f in frames:
        if f["type"] == "history":
            assert f == {"type": "history", "lines": [], "more": False}, f
            continue
        assert f["type"] == "state", f
        v = f["version"]
        if f["view"] is None:
            continue
        leaked = card_codes(f) - truth.known[(v, seat)]
        assert not leaked, f"seat {seat} at v{v} was sent {sorted(leaked)}"
        assert f["view"] == truth.views[(v, seat)], f"seat {seat} at v{v}: not its projection"
        checked += 1
    return checked


# The same on a site of two processes (PostgreSQL, Redis), every other seat relayed: each game
# at its largest table (slow: the inner loop, -m "not slow", runs the embedded server's).
ON_SITE = [pytest.param(name, "site", get_game(name).seats[-1], marks=pytest.mark.slow) for name in game_names()]


@pytest.mark.parametrize(("game", "where", "seats"), [(g, "embedded", n) for g, n in TABLES] + ON_SITE)
def test_a_whole_match_leaks_nothing_and_every_view_is_the_seats_projection(game, where, seats):
    async def body(server):
        table_id, tokens = new_room_ids(server.url, seats, game)
        room = await open_all(server.ws_url, tokens)
        decide = policy(game, 7)
        deals = 0
        while True:
            await play_deal(room, decide)
            deals += 1
            if not await next_deal(room):
                break
        for s in room:
            await s.quiet(0.1)
        truth = replay_stream(table_id, stream(server.db, table_id))
        assert truth.table.game.name == game and truth.table.status == "over"
        assert deals == len(truth.deals) and truth.table.match.over
        if truth.table.match.length is not None:  # (a match to a score has no fixed length, C21)
            assert deals == truth.table.match.length
        checked = [check_seat(truth, s, room[s].frames) for s in range(seats)]
        assert min(checked) > 20, checked
        # The payments of a match sum to zero, as every deal's do; Ottocento's sides each add
        # their own score (B24), the partners' totals equal.
        totals = room[0].state["table"]["totals"]
        if game == "ottocento":
            assert totals[0] == totals[2] and totals[1] == totals[3] and truth.table.match.game.is_decided(totals)
        else:
            assert sum(totals) == 0
        for s in room:
            await s.close()

    with running(seed=31, games=EVERY_GAME, site=where == "site") as server:
        run_async(body(server))


@pytest.mark.parametrize("where", ["embedded", pytest.param("site", marks=pytest.mark.slow)])
@pytest.mark.parametrize("game", game_names())
def test_a_seat_acts_for_itself_only_when_the_rules_let_it_and_garbage_changes_nothing(game, where):
    async def body(server):
        seats = get_game(game).seats[0]
        table_id, tokens = new_room_ids(server.url, seats, game)
        room = await open_all(server.ws_url, tokens)
        version = room[0].state["version"]
        actor = next(s for s in room if s.my_turn())
        idle = next(s for s in room if not s.my_turn())
        attempts = [
            (idle, idle.view["hand"][0]),                # not its turn
            (actor, "discard"), (actor, "KX"), (actor, "x" * 64), (actor, ""),
            (actor, next(c for c in get_game(game).deck.codes if c not in actor.view["hand"])),  # not held
        ]
        for who, action in attempts:
            await who.act(action, f"bad-{action[:8]}")
            refused = await who.until(lambda m: m["type"] == "refused")
            assert refused["version"] == version and refused["reason"], (action, refused)
        for junk in ('{"type": "act"}', '{"type": "act", "action": 5}', "[]", "{", '{"type": "takeover", "seat": 9}'):
            await actor.ws.send(junk)
            answer = await actor.until(lambda m: m["type"] in ("error", "refused"))
            assert answer["reason"], junk
        for s in room:
            assert all(m["type"] != "state" or m["version"] == version for m in await s.quiet(0.2))
        assert stream(server.db, table_id)[-1][0] == version  # nothing stored
        # The seat to act still acts, once, for itself.
        await actor.act(policy(game, 1)(actor.view), "good")
        for s in room:
            st = await s.wait_state(lambda st: st["version"] == version + 1)
        assert st["acted"][actor.you] == 1 and sum(st["acted"]) == 1
        for s in room:
            await s.close()

    with running(seed=32, games=EVERY_GAME, site=where == "site") as server:
        run_async(body(server))


# A real `tarocchi serve` for each of the table's games; the inner loop (-m "not slow") kills Sicilian's.
@pytest.mark.parametrize("game", [g if g == "sicilian" else pytest.param(g, marks=pytest.mark.slow) for g in TABLE_GAMES])
def test_a_sigkill_loses_no_acknowledged_action(tmp_path, game):
    """Play part of a deal, SIGKILL the server, start it again on the same file: every seat
    opening its link afresh sees exactly what it saw acknowledged before, and play goes on."""
    async def body(server: ServerProcess):
        seats = get_game(game).seats[0]
        _, tokens = new_room_ids(server.url, seats, game)
        room = await open_all(server.ws_url, tokens)
        decide = policy(game, 3)
        moves = itertools.count(1)
        await play_deal(room, decide, stop=lambda actor: next(moves) > 12)
        before = [(s.state["version"], s.view) for s in room]
        server.kill9()
        server.start()
        again = [await Seat.open(server.ws_url, t) for t in tokens]
        assert [(s.state["version"], s.view) for s in again] == before
        actor = next(s for s in again if s.my_turn())
        await actor.act(decide(actor.view), "after")
        for s in again:
            await s.wait_state(lambda st: st["version"] == before[0][0] + 1)
        assert "Traceback" not in server.errors()

    with ServerProcess(str(tmp_path / f"{game}.sqlite3")) as server:
        run(body(server))


def test_a_renaissance_refusal_carries_its_reason_id():
    """A refusal travels as its English text and, where the game gives one, its stable id
    (the client's catalogue translates by the id)."""
    async def body(server):
        _, tokens = new_room_ids(server.url, 3, "renaissance")
        room = await open_all(server.ws_url, tokens)
        idle = next(s for s in room if not s.my_turn())
        await idle.act(idle.view["hand"][0], "early")
        refused = await idle.until(lambda m: m["type"] == "refused")
        assert (refused["reason"], refused["reason_id"]) == ("it is not your turn", "not_your_turn")
        dealer = next(s for s in room if s.my_turn())
        hand = dealer.view["hand"]
        trump = next(c for c in hand if c.isdigit())
        plain = [c for c in hand if not c.isdigit() and c != "F" and not c.startswith("K")][:2]
        await dealer.act(f"discard {trump} {' '.join(plain)}", "trump")
        refused = await dealer.until(lambda m: m["type"] == "refused")
        assert (refused["reason"], refused["reason_id"]) == \
            ("you may not discard a King, a trump or the Fool", "discard_forbidden")  # A7
        for s in room:
            await s.close()

    with running(seed=33) as server:
        run_async(body(server))


def test_the_table_offers_only_the_games_it_has_screens_for():
    """A registered game the web client cannot show yet is not offered, and no table of it
    can be made; the engine and the command line know it all the same."""
    with running() as server:
        offered = [g["name"] for g in httpx.get(f"{server.url}/api/games").json()["games"]]
        assert offered == list(TABLE_GAMES)
        for other in set(game_names()) - set(TABLE_GAMES):
            for path in ("/api/rooms", "/api/computer"):
                r = httpx.post(f"{server.url}{path}", json={"game": other, "seats": 3})
                assert r.status_code == 400 and "the table offers" in r.json()["error"], (other, r.text)
