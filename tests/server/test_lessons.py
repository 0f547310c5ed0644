"""A lesson's table on a real server (issue 42, server/lessons.py): dealt from the lesson's
deck with its first dealer, the script's moves played up to the person's first step, the next
moves after each step; a move the script did not expect leaves the script and the computers
play on at their level; unknown lessons are refused."""

from __future__ import annotations

import asyncio

import httpx

from tarocchi.engine.game import get_game
import pytest

from tarocchi.server.lessons import is_step, lesson, lessons_of
from tests.server.seat import Seat


def open_lesson(base: str, name: str) -> str:
    r = httpx.post(f"{base}/api/lessons/{name}")
    assert r.status_code == 200, r.text
    link = r.json()["link"]
    assert link.endswith(f"?lesson={name}")
    return link.removeprefix("/t/").split("?")[0]


def position_after_prefix(name: str):
    """The engine's deal at the lesson's first step, and that step."""
    one = lesson(name)
    game = name.split("/")[0]
    rules = get_game(game)
    deal = rules.new_deal(lessons_of(game)["seats"], one["dealer"], rules.deck.parse_order(one["deck"]))
    for entry in one["script"]:
        if is_step(entry):
            return deal, entry
        deal.apply(entry[1], entry[0])
    raise AssertionError("no step")


def test_the_lessons_are_listed_and_unknown_ones_refused(live_server):
    listed = httpx.get(f"{live_server.url}/api/lessons").json()["games"]
    assert listed["sicilian"][:3] == ["cards", "follow", "fool"]
    for game in ("calabresella", "renaissance", "ottocento"):
        assert listed[game] == [one["id"] for one in lessons_of(game)["lessons"]], game
    for bad in ("sicilian/99", "sicilian/0", "nogame/1"):
        assert httpx.post(f"{live_server.url}/api/lessons/{bad}").status_code == 404, bad


def test_a_lesson_is_dealt_from_its_deck_and_plays_its_script(live_server):
    async def body():
        seat = await Seat.open(live_server.ws_url, open_lesson(live_server.url, "sicilian/1"))
        deal, step = position_after_prefix("sicilian/1")
        state = await seat.wait_state(lambda s: s["view"] and s["view"]["turn"] == 0 and s["view"]["phase"] == "play")
        assert state["table"]["kind"] == "computer" and state["table"]["deal_number"] == 1
        assert state["view"]["hand"] == deal.view(0)["hand"]  # the lesson's own cards
        assert state["view"]["trick"] == deal.view(0)["trick"]  # and its position: the 19 led
        acted = state["acted"][0]
        await seat.send({"type": "act", "action": step["do"][0], "id": "a1", "version": seat.version})
        # The script's next move (the soloist's 2) comes at once; the person leads next.
        state = await seat.wait_state(lambda s: s["acted"][0] == acted + 1 and s["view"]["turn"] == 0)
        assert [c["card"] for c in state["view"]["last_trick"]["cards"]] == ["19", "20", "2"]
        await seat.close()

    asyncio.run(body())


def test_a_move_the_script_did_not_expect_leaves_it_and_the_computers_play_on(live_server):
    async def body():
        seat = await Seat.open(live_server.ws_url, open_lesson(live_server.url, "sicilian/1"))
        state = await seat.wait_state(lambda s: s["view"] and s["view"]["turn"] == 0 and s["view"]["phase"] == "play")
        acted = state["acted"][0]
        await seat.send({"type": "act", "action": "5", "id": "a1", "version": seat.version})  # legal, not taught
        state = await seat.wait_state(lambda s: s["acted"][0] == acted + 1 and s["view"]["turn"] == 0)
        assert state["view"]["last_trick"]["cards"][1]["card"] == "5"
        await seat.close()

    asyncio.run(body())


@pytest.mark.parametrize("game", ["calabresella", "renaissance", "ottocento"])
def test_each_game_s_first_lesson_reaches_its_first_step(live_server, game):
    """The other games' lessons: the table (three seats, or Ottocento's four) deals the lesson's
    deck and plays its script up to the person's first step: the engine's own hand and trick."""
    async def body():
        name = f"{game}/1"
        seat = await Seat.open(live_server.ws_url, open_lesson(live_server.url, name))
        deal, step = position_after_prefix(name)
        state = await seat.wait_state(lambda s: s["view"] and s["view"]["turn"] == 0 and s["view"]["phase"] == deal.phase)
        assert state["view"]["hand"] == deal.view(0)["hand"]
        assert state["view"]["trick"] == deal.view(0)["trick"]
        assert deal.refusal(0, step["do"][0]) is None
        await seat.close()

    asyncio.run(body())
