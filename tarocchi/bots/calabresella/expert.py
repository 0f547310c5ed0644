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
is weighed by the other seats' words. A word (and a called card) is valued by a playout from
every seat's own view (``Expert.from_views``): the rule bot plays each seat, the cards too,
knowing only what that seat would know at the table; played in full view of the world, the
challenger knows where every card lies and a contract looks better than it is
(docs/history/benchmarks.md, "A contract valued from the seats' views"). The give-back (C10), the
lays (C10-C13) and the scegliete takes (C12) are searched as well, from
``search_bot.CalabresellaKnowledge``'s worlds in that phase (the two other hands, and the
monte's hidden cards, dealt as the view allows): the rule bot's card and the ones it would part
with next, its lay and the sets drawn from it and the next cards it would lay, every take.
"""

from __future__ import annotations

import random

from tarocchi.engine.cards import FOOL, KINGS, VALUES, cards_in
from tarocchi.engine.game import IllegalAction
from tarocchi.games.calabresella import DECK, LAY_RULES, MONTE, PACKET, SEATS, Deal, parse_action

from ..expert import MAX_CANDIDATES, TIME_LIMIT, Expert, discard_candidates
from .rule_bot import CalabresellaRuleBot, choose_give, choose_lay, lay_score
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

EXACT_CARDS = 15  # cards left in the three hands: solve exactly (docs/history/benchmarks.md, expert)


class CalabresellaExpert(Expert):
    game = "calabresella"
    # Worlds a decision, at most: the weights leave about two thirds of them effective (Kish's
    # n, bench/expert_bench.py), and 24 worlds used a fifth of the CPU budget (docs/history/benchmarks.md).
    worlds = 48
    exact_cards = EXACT_CARDS
    plain = DECK.full & ~DECK.fool_bit  # C17: a card counts by its points alone
    quiet_words = frozenset({"passo", "sta bene"})  # C8: a contract only on a confident gain
    viewed_phases = frozenset(AUCTION_PHASES)  # a contract valued as the table would play it
    # Every phase is searched (searched_phases stays None): the auction, the call, the give-back,
    # the lays, the takes and the cards.
    # The cards are not anchored to the learned player's (``Expert.default``, issue 43): no gain
    # shown yet (+0.93 ± 0.95 points a deal, 120 deals: docs/benchmarks.md, "Part 3").

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
        hand = DECK.mask_of(view["hand"])
        if view["phase"] == "give":  # C10: the rule bot's card, then the ones it would lay, then the cheapest
            called = DECK.card(view["called"])
            first = choose_give(hand, called)
            four = choose_lay(hand, 4, exclude=1 << called)  # the give-back and the lay it would make
            rest = sorted(cards_in(hand & ~(1 << first | 1 << called)), key=lambda c: (not four >> c & 1, VALUES[c], c))
            gives = ["restituisco " + DECK.codes[c] for c in [first] + rest]
            return [g for g in gives if g in ok][:MAX_CANDIDATES]
        if view["phase"] in ("discard", "lay"):  # C13: the rule bot's lay, and sets drawn from it and the next
            n = view["lay"]
            rule = LAY_RULES[n]
            first = choose_lay(hand, n)
            must, pool, _ = rule.choice(hand)
            ranked = sorted(cards_in((must | pool) & ~first), key=lambda c: -lay_score(hand, 1 << c))
            lays = [m for m in discard_candidates(first, ranked, must | pool) if rule.refusal(hand, m) is None]
            return ["scarto " + " ".join(DECK.codes_of(m)) for m in lays]
        return super().candidates(view, ok)

    def finish(self, deal: Deal) -> Scored:
        return finish(deal)

    def score(self, deal: Deal, me: int) -> float:
        return Scored(deal).returns()[me]

    def maximising(self, deal: Deal, seat: int, me: int) -> bool:
        return deal.side_of(seat) == deal.side_of(me)
