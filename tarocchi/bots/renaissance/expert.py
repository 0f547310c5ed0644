"""Renaissance's expert: the shared expert search (``bots.expert``) with this game's
knowledge (``search_bot.Knowledge``) and the rule bot's play to finish a world; the last
``EXACT_CARDS`` cards solved exactly, each seat for itself (the other two seats play against
the seat searched: A15 scores each hand alone). The dealer's discard (A7) is the rule bot's.
"""

from __future__ import annotations

from tarocchi.games.renaissance import DECK, Deal

from ..expert import TIME_LIMIT, Expert
from .rule_bot import RenaissanceRuleBot
from .search_bot import Knowledge, finish

EXACT_CARDS = 18  # cards left in the three hands: solve exactly (docs/benchmarks.md, expert)


class RenaissanceExpert(Expert):
    game = "renaissance"
    exact_cards = EXACT_CARDS
    plain = DECK.full & ~DECK.fool_bit  # A4: a card counts by its points alone
    searched_phases = frozenset({"play"})

    def __init__(self, seed: int | None = None, time_limit: float | None = TIME_LIMIT):
        super().__init__(seed, time_limit)
        self.rule = RenaissanceRuleBot(seed)

    def knowledge(self, view: dict) -> Knowledge:
        return Knowledge(view)

    def finish(self, deal: Deal) -> Deal:
        return finish(deal, self.rule)

    def score(self, deal: Deal, me: int) -> float:
        return deal.returns()[me]

    def maximising(self, deal: Deal, seat: int, me: int) -> bool:
        return seat == me

    def key_extra(self, deal: Deal) -> tuple:
        # A13: the Fool pays the first 1-point card of its player's pile, in the order won
        return tuple(deal.fool_card(deal.pile_order(s)) for s in range(3))
