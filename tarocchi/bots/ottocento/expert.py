"""Ottocento's expert: the shared expert search (``bots.expert``) with this game's knowledge
(``search_bot.Knowledge``), the rule bot's play to finish a world and the side's margin as the
value (B24: a side's hand score less the other's); the last ``EXACT_CARDS`` cards solved
exactly, partners together (B5). On a lead the cards are searched without signals and the card
chosen carries the rule bot's signal (B22), as the search bot does.
"""

from __future__ import annotations

from tarocchi.games.ottocento import DECK, Deal, Options

from ..expert import TIME_LIMIT, Expert
from .common import Seen
from .rule_bot import SIGNAL_WORDS, OttocentoRuleBot
from .search_bot import Knowledge, Margins, finish

EXACT_CARDS = 14  # cards left in the four hands: solve exactly (docs/benchmarks.md, expert)


class OttocentoExpert(Expert):
    game = "ottocento"
    exact_cards = EXACT_CARDS
    plain = 0  # B25: the combinations name cards one by one: none is merged
    searched_phases = frozenset({"play"})

    def __init__(self, seed: int | None = None, time_limit: float | None = TIME_LIMIT, worlds: int | None = None):
        super().__init__(seed, time_limit, worlds)
        self.rule = OttocentoRuleBot(seed)

    def knowledge(self, view: dict) -> Knowledge:
        return Knowledge(view)

    def finish(self, deal: Deal) -> Margins:
        return Margins(finish(deal, self.rule))

    def score(self, deal: Deal, me: int) -> float:
        return Margins(finish(deal, self.rule)).returns()[me]

    def last_trick(self, deal: Deal, me: int) -> float:
        return Margins(finish(deal, self.rule)).returns()[me]  # on masks: the engine's count is slow

    def maximising(self, deal: Deal, seat: int, me: int) -> bool:
        return seat & 1 == me & 1

    def restart(self, world: Deal) -> Deal:
        t = world.totals_before
        return Deal(4, world.dealer, list(world.deck), Options.from_json(world.options.to_json()), log=False,
                    totals=[t[0], t[1], t[0], t[1]])

    def evaluate(self, view: dict) -> list[tuple[str, float]]:
        if view["phase"] != "play" or view["trick"]:
            return super().evaluate(view)
        # A lead: the cards searched alone; the card chosen carries the rule bot's signal (B22).
        plain = dict(view, choices=[c for c in view["choices"] if " " not in c["action"]])
        ranked = super().evaluate(plain)
        if not ranked:
            return ranked
        seen = Seen(view)
        st = seen.state(DECK.mask_of(c["action"] for c in plain["choices"] if c["reason"] is None))
        def signalled(text: str) -> str:
            signal = self.rule.signal(st, DECK.card(text.split()[0]))
            return text.split()[0] + (" " + SIGNAL_WORDS[signal] if signal else "")

        if self.last is not None:  # the rule bot's choice and the texts as they will be played
            texts, per_world, preferred = self.last
            self.last = ([signalled(t) for t in texts], per_world, signalled(preferred))
        return [(signalled(text), value) for text, value in ranked]
