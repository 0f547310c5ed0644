"""Computer players. Each decides from one seat's view (``Deal.view(seat)``) alone and
answers with an action in the text notation.

``make_player(level, seed)`` gives a callable ``view -> action text``; it is the entry point
for worker processes too (a player is picklable, and rebuilt from (level, seed) decides the
same). Levels, weakest first:

- ``random``: uniformly random legal actions, the floor;
- ``rule``: hand-strength bidding, a safe discard, voids and sides tracked (``sicilian/rule_bot``);
- ``search``: determinized Monte Carlo over worlds sampled from the view, exact last tricks,
  simulated bidding (``sicilian/search_bot``); at most about 0.6 s a decision;
- ``learned`` (every game, issue 43): a small network trained on the ``search`` level's
  decisions (Sicilian at three seats: the expert's) plays the cards, and at Sicilian another
  speaks in the auction; the rule bot the other phases (``learned/policy``); in the last tricks
  the expert's search over a few worlds solved exactly may overrule the network's card where
  it is confident; p95 under 5 ms of CPU a decision;
- ``expert``: the shared expert search (``expert``): worlds weighted by what the other seats
  did (at three Sicilian seats their words by the learned auction's chances, and its card the
  learned player's unless the search is confident of a better one), the exact solver
  (``solver``) for the cards once a world is small enough, and every phase the game's worlds
  allow (the auction, the discard, the call) decided by the same search (``<game>/expert``); at
  most 0.6 s of CPU a decision. ``DUEL_LEVELS`` keeps the experts before those steps
  (``expert-1``; Sicilian's ``expert-2``, with the learned words alone) and the learned level
  before its last tricks were searched (``learned-1``) for the duel alone.

The layout follows ``tarocchi/games/``: what every game's bots share is here (the search loop
``pimc``, the expert search ``expert``, the worlds ``worlds``, the exact solver ``solver``, the
duel, ``random_bot``); each
game's own players are in ``tarocchi/bots/<game>/`` (``rule_bot``, ``search_bot``, its knowledge
of a view, ``expert``). Every game's levels end with ``expert``, its strongest (the hint reads
the last level's ``evaluate``). Calabresella's ``rule`` bids by calibrated hand strength per contract, calls the
highest trump it lacks, gives back and lays the cheapest cards; ``search`` is the same off the
cards and PIMC over worlds consistent with the view in play. Renaissance and Ottocento have their
own rule and search bots (Ottocento: partnership play, declarations and signals, searched by the
side's margin).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from .calabresella.expert import CalabresellaExpert
from .calabresella.rule_bot import CalabresellaRuleBot
from .calabresella.search_bot import CalabresellaSearchBot
from .learned.policy import LEARNED
from .ottocento.expert import OttocentoExpert
from .ottocento.rule_bot import OttocentoRuleBot
from .ottocento.search_bot import OttocentoSearchBot
from .random_bot import RandomBot
from .renaissance.expert import RenaissanceExpert
from .renaissance.rule_bot import RenaissanceRuleBot
from .renaissance.search_bot import RenaissanceSearchBot
from .sicilian.expert import SicilianExpert, SicilianExpert1, SicilianExpert2
from .sicilian.rule_bot import RuleBot
from .sicilian.search_bot import SearchBot

Player = Callable[[dict], str]
# Each game's rule and search bots: the learned level plays the phases before the cards with the
# first, and falls back to the second when its model is missing or damaged (``learned.policy``).
GAME_RULES: dict[str, tuple[Callable[..., Player], Callable[..., Player]]] = {
    "sicilian": (RuleBot, SearchBot), "renaissance": (RenaissanceRuleBot, RenaissanceSearchBot),
    "calabresella": (CalabresellaRuleBot, CalabresellaSearchBot), "ottocento": (OttocentoRuleBot, OttocentoSearchBot),
}
# Sicilian's, the first game's
LEVELS = {"random": RandomBot, "rule": RuleBot, "search": SearchBot, "learned": LEARNED["sicilian"], "expert": SicilianExpert}
# The levels of the other games; ``random`` plays any game.
GAME_LEVELS: dict[str, dict[str, Callable[..., Player]]] = {
    "renaissance": {"random": RandomBot, "rule": RenaissanceRuleBot, "search": RenaissanceSearchBot,
                    "learned": LEARNED["renaissance"], "expert": RenaissanceExpert},
    "calabresella": {"random": RandomBot, "rule": CalabresellaRuleBot, "search": CalabresellaSearchBot,
                     "learned": LEARNED["calabresella"], "expert": CalabresellaExpert},
    "ottocento": {"random": RandomBot, "rule": OttocentoRuleBot, "search": OttocentoSearchBot,
                  "learned": LEARNED["ottocento"], "expert": OttocentoExpert},
}
# Levels a duel may name that no table offers: the players that were, to measure the ones that
# are against them (issue 43: ``expert-1`` before part 3, ``expert-2`` before its anchored cards;
# ``learned-1``, every game, the network alone, before the last tricks were searched).
DUEL_LEVELS: dict[str, dict[str, Callable[..., Player]]] = {
    g: {"learned-1": partial(learned, endgame=False)} for g, learned in LEARNED.items()}
DUEL_LEVELS["sicilian"].update({"expert-1": SicilianExpert1, "expert-2": SicilianExpert2})
# The computer table's default, for a first game: the level a newcomer can beat sometimes
# (rule loses to search by a clear margin, docs/benchmarks.md "Bots"); the strongest (expert,
# issue 21) is one click away on the lobby (issue 12).
DEFAULT_LEVEL = "rule"


def levels_for(game: str) -> dict[str, Callable[..., Player]]:
    """The computer players that know ``game``, weakest first."""
    return GAME_LEVELS.get(game, LEVELS if game == "sicilian" else {"random": RandomBot})


def make_player(level: str, seed: int | None = None, game: str = "sicilian", duel: bool = False) -> Player:
    """A computer player of ``level`` (a table's, or with ``duel`` one of ``DUEL_LEVELS`` too)."""
    levels = {**levels_for(game), **DUEL_LEVELS.get(game, {})} if duel else levels_for(game)
    try:
        return levels[level](seed=seed)
    except KeyError:
        raise ValueError(f"unknown player {level!r} for {game}; known: {', '.join(levels)}") from None
