"""Advice for a person from the strongest computer player (issue 21): a hint for the decision in
front of a seat, and the review of a finished deal, decision by decision.

Both ask the game's strongest level (the last of ``levels_for(game)``) to ``evaluate`` one
seat's view: the actions it weighed with their mean score for that seat over the worlds it
sampled (in the game's units), the one it would play first. A hint is given the view the seat
has now; a review rebuilds, for each of the seat's own decisions, the view the seat had then
by replaying the deal's record up to that action, so that the player never sees more than
the seat saw at that moment (the record's hidden cards stay in this module).

These functions run on the server's advice workers (a thread or a worker process of their own,
apart from the tables' computers: ``server/advice.py``): plain data in and out, and the player
made once per worker, as ``hub.decide`` does.
"""

from __future__ import annotations

import math
import threading

from tarocchi.engine.game import get_game
from tarocchi.engine.records import new_deal

from . import levels_for, make_player
from .expert import TIME_LIMIT

HINT_ACTIONS = 3  # the best actions a hint shows
# The CPU seconds the player may spend on one hint or one decision of a review: the table's
# own budget by default (``serve --advice-seconds``; a busy site may want its hints cheaper).
ADVICE_SECONDS = TIME_LIMIT

_players = threading.local()


def strongest_level(game: str) -> str:
    """The game's strongest computer player: the last of its levels, weakest first."""
    return list(levels_for(game))[-1]


def _player(game: str, seconds: float = ADVICE_SECONDS):
    cache = getattr(_players, "cache", None)
    if cache is None:
        cache = _players.cache = {}
    level = strongest_level(game)
    if (game, level, seconds) not in cache:
        player = make_player(level, game=game)
        if hasattr(player, "time_limit"):
            player.time_limit = seconds
        cache[game, level, seconds] = player
    return cache[game, level, seconds]


def ranked(game: str, view: dict, seconds: float = ADVICE_SECONDS) -> list[dict]:
    """The strongest player's actions for ``view``, the one it plays first, then best first:
    {"action", "score"}, the score its mean for the seat rounded to hundredths, None where it
    weighed no alternative (a forced action, or a decision it leaves to its rules).
    ``seconds``: its CPU budget."""
    out = []
    for action, score in _player(game, seconds).evaluate(view):
        out.append({"action": action, "score": round(score, 2) if math.isfinite(score) else None})
    return out


def hint(game: str, view: dict, seconds: float = ADVICE_SECONDS) -> list[dict]:
    """The best actions for the seat of ``view`` (at most HINT_ACTIONS), the computer's own
    choice first."""
    return ranked(game, view, seconds)[:HINT_ACTIONS]


def view_before(record: dict, index: int) -> tuple[dict, str]:
    """The view of the seat that took action ``index`` of a deal's record, as it was just
    before, and that action."""
    deal = new_deal(record)
    actions = record["actions"]
    for a in actions[:index]:
        deal.apply(a["action"], a["seat"])
    seat = actions[index]["seat"]
    return deal.view(seat), actions[index]["action"]


def decisions(record: dict, seat: int) -> list[int]:
    """The indices in a deal's record of ``seat``'s own actions that were a choice (more than
    one action allowed then)."""
    deal = new_deal(record)
    out = []
    for i, a in enumerate(record["actions"]):
        if a["seat"] == seat:
            choices = deal.view(seat)["choices"]
            if sum(1 for c in choices if c["reason"] is None) > 1:
                out.append(i)
        deal.apply(a["action"], a["seat"])
    return out


def review(game: str, record: dict, index: int, seconds: float = ADVICE_SECONDS) -> dict:
    """One decision of a finished deal against the strongest player's from the same view:
    what the seat played and what the player would play, their scores, and the cost of the
    difference (the player's score for its action less its score for the seat's; None when it
    did not weigh the seat's action)."""
    view, played = view_before(record, index)
    options = ranked(game, view, seconds)
    parse = get_game(game).parse_action
    best = options[0]
    same = parse(best["action"]) == parse(played)  # (a discard names its cards in any order)
    mine = best if same else next((o for o in options if parse(o["action"]) == parse(played)), None)
    cost = None
    if mine is not None and best["score"] is not None and mine["score"] is not None:
        cost = round(best["score"] - mine["score"], 2)
    tricks = view.get("tricks")
    return {
        "index": index, "phase": view["phase"],
        "trick": sum(tricks) + 1 if view["phase"] == "play" and isinstance(tricks, list) else None,
        "played": played, "best": best["action"], "same": same,
        "best_score": best["score"], "played_score": None if mine is None else mine["score"], "cost": 0.0 if same else cost,
    }
