"""Calabresella's expert: the shared expert search (``bots.expert``) with this game's
knowledge (``search_bot.CalabresellaKnowledge``), the rule bot's card sense to finish a world
and the payment with a share of the side's card points as its value (``search_bot.Scored``);
the last ``EXACT_CARDS`` cards solved exactly, the challenger against the two (C6).

The whole auction is searched (C8, C9): each word the auction allows, solissimo, dividete and
scegliete included, is said in every world and the deal played out by the rule bot for every
seat (the call, the give-back, the lays, the takes, then the cards), so a contract is bid when
it pays over the worlds, not from a threshold. So is the called card (C10), among the trumps
from the 11 up, the Fool and the Kings the caller lacks. An auction world deals the cards the
seat has not seen into the other two hands and the monte (nothing else is shown yet: C7) and
is weighed by the other seats' words. The give-back, the lays and the takes are the rule bot's.
"""

from __future__ import annotations

import random

from tarocchi.engine.cards import FOOL, KINGS, cards_in
from tarocchi.engine.game import IllegalAction
from tarocchi.games.calabresella import DECK, MONTE, PACKET, SEATS, Deal, parse_action

from ..expert import TIME_LIMIT, Expert
from .rule_bot import CalabresellaRuleBot
from .search_bot import CalabresellaKnowledge, Scored, finish
from ..worlds import Slot, assign

AUCTION_PHASES = ("speak", "call")


class AuctionKnowledge:
    """What a seat knows before the monte is seen: its hand and the words said (C7-C10)."""

    def __init__(self, view: dict):
        self.me: int = view["seat"]
        self.dealer: int = view["dealer"]
        self.hand = DECK.mask_of(view["hand"])
        self.counts: list[int] = view["hand_counts"]
        self.actions = [(a["seat"], parse_action(a["action"])) for a in view["actions"]]

    def world(self, rng: random.Random, relax: bool = False) -> Deal | None:
        others = [s for s in range(SEATS) if s != self.me]
        slots = [Slot(("hand", s), self.counts[s]) for s in others] + [Slot(("monte",), MONTE)]
        hidden = list(cards_in(DECK.full & ~self.hand))
        everywhere = (1 << len(slots)) - 1
        if not assign(hidden, slots, dict.fromkeys(hidden, everywhere), rng):
            return None
        hands = [0] * SEATS
        hands[self.me] = self.hand
        for s, slot in zip(others, slots):
            hands[s] = slot.cards
        lists = [list(cards_in(h)) for h in hands]
        deck: list[int] = []
        for r in range(4):  # C7: packets from the dealer's right, then the monte
            for i in range(SEATS):
                deck.extend(lists[(self.dealer + 1 + i) % SEATS][PACKET * r:PACKET * (r + 1)])
        deck.extend(cards_in(slots[-1].cards))
        try:
            deal = Deal(SEATS, self.dealer, deck, log=False)
            for seat, a in self.actions:
                deal.apply(a, seat)
        except (IllegalAction, ValueError):
            return None
        return deal if deal.to_act == self.me else None

EXACT_CARDS = 15  # cards left in the three hands: solve exactly (docs/benchmarks.md, expert)


class CalabresellaExpert(Expert):
    game = "calabresella"
    # Worlds a decision, at most: the weights leave about two thirds of them effective (Kish's
    # n, bench/expert_bench.py), and 24 worlds used a fifth of the CPU budget (docs/benchmarks.md).
    worlds = 48
    exact_cards = EXACT_CARDS
    plain = DECK.full & ~DECK.fool_bit  # C17: a card counts by its points alone
    quiet_words = frozenset({"passo", "sta bene"})  # C8: a contract only on a confident gain
    searched_phases = frozenset({"play", *AUCTION_PHASES})

    def __init__(self, seed: int | None = None, time_limit: float | None = TIME_LIMIT, worlds: int | None = None):
        super().__init__(seed, time_limit, worlds)
        self.rule = CalabresellaRuleBot(seed)

    def knowledge(self, view: dict) -> CalabresellaKnowledge | AuctionKnowledge:
        return AuctionKnowledge(view) if view["phase"] in AUCTION_PHASES else CalabresellaKnowledge(view)

    def candidates(self, view: dict, ok: list[str]) -> list[str]:
        if view["phase"] == "call":  # C10: a high trump, the Fool or a King the caller lacks
            hand = DECK.mask_of(view["hand"])
            wanted = [t for t in range(20, 10, -1)] + [FOOL] + list(cards_in(KINGS))
            calls = ["chiamo " + DECK.codes[c] for c in wanted if not hand >> c & 1]
            return [c for c in calls if c in ok][:8] or super().candidates(view, ok)
        return super().candidates(view, ok)

    def finish(self, deal: Deal) -> Scored:
        return finish(deal)

    def score(self, deal: Deal, me: int) -> float:
        return Scored(deal).returns()[me]

    def maximising(self, deal: Deal, seat: int, me: int) -> bool:
        return deal.side_of(seat) == deal.side_of(me)
