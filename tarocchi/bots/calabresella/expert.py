"""Calabresella's expert: the shared expert search (``bots.expert``) with this game's
knowledge (``search_bot.CalabresellaKnowledge``), the rule bot's card sense to finish a world
and the payment with a share of the side's card points as its value (``search_bot.Scored``);
the last ``EXACT_CARDS`` cards solved exactly, the challenger against the two (C6).
"""

from __future__ import annotations

from tarocchi.games.calabresella import DECK, SEATS, Deal

from ..expert import TIME_LIMIT, Expert
from .rule_bot import CalabresellaRuleBot
from .search_bot import CalabresellaKnowledge, Scored, finish

EXACT_CARDS = 15  # cards left in the three hands: solve exactly (docs/benchmarks.md, expert)


class CalabresellaExpert(Expert):
    game = "calabresella"
    exact_cards = EXACT_CARDS
    plain = DECK.full & ~DECK.fool_bit  # C17: a card counts by its points alone
    searched_phases = frozenset({"play"})

    def __init__(self, seed: int | None = None, time_limit: float | None = TIME_LIMIT):
        super().__init__(seed, time_limit)
        self.rule = CalabresellaRuleBot(seed)

    def knowledge(self, view: dict) -> CalabresellaKnowledge:
        return CalabresellaKnowledge(view)

    def finish(self, deal: Deal) -> Scored:
        return finish(deal)

    def score(self, deal: Deal, me: int) -> float:
        return Scored(deal).returns()[me]

    def maximising(self, deal: Deal, seat: int, me: int) -> bool:
        return deal.side_of(seat) == deal.side_of(me)
