"""A match: one deal per seat, the dealer moving on one seat a deal, totals carried (R4, R16).

>>> import random
>>> from tarocchi.engine.match import Match
>>> m = Match(seats=3, first_dealer=1)
>>> [m.dealer_of(i) for i in range(3)]
[1, 2, 0]
>>> deal = m.start_deal(random.Random(5))
>>> for _ in range(3): deal.apply("passo")      # abandoned, but it counts as dealt (R4)
>>> m.deals_played, m.over, m.totals
(1, False, [0, 0, 0])
"""

from __future__ import annotations

import random

from .sicilian import Deal, Options


class Match:
    def __init__(self, seats: int, first_dealer: int, options: Options | None = None):
        if seats not in (3, 4):
            raise ValueError("a match is played at three or four seats")
        self.seats = seats
        self.first_dealer = first_dealer
        self.options = options or Options()
        self.deals: list[Deal] = []  # every deal started, the current one last

    @classmethod
    def drawn(cls, seats: int, rng: random.Random, options: Options | None = None) -> Match:
        """A match whose first dealer is drawn at random (R4)."""
        return cls(seats, rng.randrange(seats), options)

    @property
    def length(self) -> int:
        return self.seats  # one deal per seat (R4)

    @property
    def deals_played(self) -> int:
        return sum(1 for d in self.deals if d.done)

    @property
    def over(self) -> bool:
        return self.deals_played == self.length

    @property
    def current(self) -> Deal | None:
        return self.deals[-1] if self.deals else None

    def dealer_of(self, index: int) -> int:
        return (self.first_dealer + index) % self.seats

    def start_deal(self, rng: random.Random | None = None, deck: list[int] | None = None) -> Deal:
        if self.over:
            raise ValueError("the match is over")
        if self.deals and not self.deals[-1].done:
            raise ValueError("the deal in play is not finished")
        dealer = self.dealer_of(len(self.deals))
        if deck is None:
            deal = Deal.shuffled(self.seats, dealer, rng or random.Random(), self.options)
        else:
            deal = Deal(self.seats, dealer, deck, self.options)
        self.deals.append(deal)
        return deal

    @property
    def totals(self) -> list[int]:
        """Running jochi totals over the finished deals (R16)."""
        out = [0] * self.seats
        for deal in self.deals:
            if deal.count is not None:
                for s, p in enumerate(deal.count.payments):
                    out[s] += p
        return out

    def winners(self) -> list[int]:
        """The seats with the highest total; a tie at the top is shared (R16)."""
        top = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == top]
