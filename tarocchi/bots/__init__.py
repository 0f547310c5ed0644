"""Computer players. Each decides from one seat's view (``Deal.view(seat)``) alone and
answers with an action in the text notation.

``make_player(level, seed)`` gives a callable ``view -> action text``.
"""

from __future__ import annotations

from collections.abc import Callable

from .random_bot import RandomBot
from .rule_bot import RuleBot
from .search_bot import SearchBot

Player = Callable[[dict], str]
LEVELS = {"random": RandomBot, "rule": RuleBot, "search": SearchBot}


def make_player(level: str, seed: int | None = None) -> Player:
    try:
        return LEVELS[level](seed=seed)
    except KeyError:
        raise ValueError(f"unknown player {level!r}; known: {', '.join(LEVELS)}") from None
