"""Computer players. Each decides from one seat's view (``Deal.view(seat)``) alone and
answers with an action in the text notation.

``make_player(level, seed)`` gives a callable ``view -> action text``; it is the entry point
for worker processes too (a player is picklable, and rebuilt from (level, seed) decides the
same). Levels, weakest first:

- ``random``: uniformly random legal actions, the floor;
- ``rule``: hand-strength bidding, a safe discard, voids and sides tracked (``rule_bot``);
- ``search``: determinized Monte Carlo over worlds sampled from the view, exact last tricks,
  simulated bidding (``search_bot``); at most about 0.6 s a decision.

Calabresella's (``calabresella_rule``, ``calabresella_search``): ``rule`` bids by calibrated
hand strength per contract, calls the highest trump it lacks, gives back and lays the cheapest
cards; ``search`` is the same off the cards and PIMC over worlds consistent with the view in play.
Renaissance and Ottocento have their own rule and search bots (``renaissance_rule``,
``renaissance_search``; ``ottocento_rule``, ``ottocento_search``: partnership play, declarations
and signals, searched by the side's margin).
"""

from __future__ import annotations

from collections.abc import Callable

from .calabresella_rule import CalabresellaRuleBot
from .calabresella_search import CalabresellaSearchBot
from .random_bot import RandomBot
from .ottocento_rule import OttocentoRuleBot
from .ottocento_search import OttocentoSearchBot
from .renaissance_rule import RenaissanceRuleBot
from .renaissance_search import RenaissanceSearchBot
from .rule_bot import RuleBot
from .search_bot import SearchBot

Player = Callable[[dict], str]
LEVELS = {"random": RandomBot, "rule": RuleBot, "search": SearchBot}  # Sicilian's, the first game's
# The levels of the other games; ``random`` plays any game.
GAME_LEVELS: dict[str, dict[str, Callable[..., Player]]] = {
    "renaissance": {"random": RandomBot, "rule": RenaissanceRuleBot, "search": RenaissanceSearchBot},
    "calabresella": {"random": RandomBot, "rule": CalabresellaRuleBot, "search": CalabresellaSearchBot},
    "ottocento": {"random": RandomBot, "rule": OttocentoRuleBot, "search": OttocentoSearchBot},
}
# The computer table's default, for a first game: the level a newcomer can beat sometimes
# (rule loses to search by a clear margin, docs/benchmarks.md "Bots"); the strongest, search,
# is one click away on the lobby (issue 12).
DEFAULT_LEVEL = "rule"


def levels_for(game: str) -> dict[str, Callable[..., Player]]:
    """The computer players that know ``game``, weakest first."""
    return GAME_LEVELS.get(game, LEVELS if game == "sicilian" else {"random": RandomBot})


def make_player(level: str, seed: int | None = None, game: str = "sicilian") -> Player:
    levels = levels_for(game)
    try:
        return levels[level](seed=seed)
    except KeyError:
        raise ValueError(f"unknown player {level!r} for {game}; known: {', '.join(levels)}") from None
