"""Learn to play (issue 42): each game's lessons, played on a real computer table.

A lesson is data, one file per game (``web/static/lessons/<game>.json``, read by the page
too): per lesson a first dealer and a deck order (the engine deals it: no rules code here),
and a script, one entry per action of the deal in order. An entry is either a move the table
makes by itself (``[seat, action]``: the computers', or the person's own before the lesson
starts, to reach its position) or a step of the person (``{"do": [...], "text": ...}``) that
the table waits for. ``POST /api/lessons/{game}/{n}`` makes a computer table for lesson ``n``
(its creation says so: ``Table.lesson``); this feature deals it from the lesson's deck and,
while the deal follows the script, plays the script's moves at once. Once the script is over,
or left (a move it did not expect), the computers play at the ``rule`` level as at any
computer table: it decides the same from the same view (bots/sicilian/rule_bot.py), so a
lesson replays the same every time, and tests/games/test_lessons.py replays each one.

Why scripted moves, not the computers' own: a step teaches one thing in one position, and
the position after it must be the one the next step's text describes; a computer's choice
could change with any improvement of the bots. The moves are checked by the rules like
anyone's (``Table.check_act``): a script the rules refuse stops, logged, and the computers
play on.

Progress is kept in the browser only (lessons.js); nothing about a lesson is stored but its
table, as any computer table.
"""

from __future__ import annotations

import functools
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from tarocchi.engine.game import get_game

from .core.features import Feature
from .core.tables import PLAYING, WAITING

if TYPE_CHECKING:
    from .core.hub import Hub
    from .core.tables import Table

log = logging.getLogger("tarocchi.server.lessons")
LESSONS = Path(__file__).resolve().parent.parent / "web" / "static" / "lessons"
PERSON = 0  # the person's seat at a computer table
LEVEL = "rule"  # the computers' level once a lesson's script is over (deterministic per view)


@functools.cache
def lessons_of(game: str) -> dict | None:
    """The lesson file of ``game``, or None where it has none (read once: not to be changed by
    the caller)."""
    path = LESSONS / f"{game}.json"
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def lesson(name: str | None) -> dict | None:
    """The lesson ``"<game>/<n>"`` (n from 1), or None."""
    if not name or "/" not in name:
        return None
    game, _, n = name.partition("/")
    data = lessons_of(game) if game.isidentifier() else None
    if data is None or not n.isdigit() or not 1 <= int(n) <= len(data["lessons"]):
        return None
    return data["lessons"][int(n) - 1]


def is_step(entry) -> bool:
    """A script entry the person plays (the table waits), rather than a move it makes."""
    return isinstance(entry, dict)


def on_script(table: Table, script: list) -> bool:
    """Whether the deal so far is the script's: each move as written, each step one of its ``do``."""
    game = table.game
    for (seat, action), entry in zip(table.deal.history, script):
        text = game.action_text(action)
        if is_step(entry):
            if seat != PERSON or (entry["do"] != "any" and text not in entry["do"]):
                return False
        elif [seat, text] != list(entry):
            return False
    return True


class Lessons(Feature):
    """Deals a lesson's table from its deck and plays its script's moves."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self.off: set[str] = set()  # tables whose deal left the script: the computers play on

    def advance(self, table: Table) -> bool:
        found = lesson(table.lesson)
        if found is None:
            return False
        if table.status == WAITING and all(table.joined) and table.match is None:
            self.hub.write(table, "match", {"first_dealer": found["dealer"]})
            self.hub.write(table, "deal", {"deck": list(found["deck"])})  # (a copy: the lesson file is read once)
            return True
        if table.status != PLAYING or len(table.match.deals) != 1 or table.id in self.off:
            return False  # (the lesson is its first deal; a next deal is any deal)
        deal, script = table.deal, found["script"]
        moment = len(deal.history)
        if moment >= len(script) or is_step(script[moment]):
            return False
        seat, action = script[moment]
        why = "the deal left the script" if not on_script(table, script) else (
            "not its turn" if deal.to_act != seat else table.check_act(seat, action))
        if why is not None:
            self.off.add(table.id)
            log.warning("lesson %s at table %s: move %d %r not played (%s); the computers play on",
                        table.lesson, table.id, moment, action, why)
            return False
        self.hub.write(table, "act", {"seat": seat, "action": action, "id": None})
        return True

    def unloaded(self, table_id: str, code: int, reason: str) -> None:
        self.off.discard(table_id)


def routes(hub, may_create) -> list:
    """``GET /api/lessons``: the games with lessons, their ids in order. ``POST /api/lessons/{game}/{n}``: a computer table for that lesson, ``{"table", "link"}``
    (the link opens the seat with the guide: ``?lesson=<game>/<n>``). ``hub()`` is the app's
    hub; ``may_create`` spends the address's new-table budget."""
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from .core.messages import TOO_MANY_TABLES

    async def new_lesson(request: Request):
        if not await may_create(request):
            return JSONResponse({"error": TOO_MANY_TABLES}, status_code=429)
        game, n = request.path_params["game"], request.path_params["n"]
        name = f"{game}/{n}"
        if lesson(name) is None:
            return JSONResponse({"error": f"no lesson {name}"}, status_code=404)
        seats = lessons_of(game)["seats"]
        try:
            table_id, token = hub().new_computer(seats, LEVEL, get_game(game).name, settings={"lesson": name})
        except (ValueError, KeyError) as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        return JSONResponse({"table": table_id, "link": f"/t/{token}?lesson={name}"})

    async def list_lessons(request: Request):
        # The games that have lessons, with each lesson's id in order (the lobby's "Learn to play").
        games = {name: [one["id"] for one in data["lessons"]]
                 for name in hub().games if (data := lessons_of(name)) is not None}
        return JSONResponse({"games": games}, headers={"Cache-Control": "no-cache"})

    return [Route("/api/lessons", list_lessons),
            Route("/api/lessons/{game}/{n:int}", new_lesson, methods=["POST"])]
