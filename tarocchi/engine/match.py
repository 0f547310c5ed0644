"""A match of any game: the dealer moving on one seat a deal, totals carried (R4, R16, A16).

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
from typing import Any

from .game import DEFAULT, Game, get_game


class Match:
    """Deals by dealers in turn, totals carried. ``game`` is a Game or its name (Sicilian by
    default); its ``rounds`` option says how many deals each seat deals (Renaissance A16)."""

    def __init__(self, seats: int, first_dealer: int, options: Any = None, game: Game | str = DEFAULT):
        self.game = get_game(game) if isinstance(game, str) else game
        if seats not in self.game.seats:
            raise ValueError(f"a match of {self.game.title} is played at "
                             f"{' or '.join(str(n) for n in self.game.seats)} seats")
        self.seats = seats
        self.first_dealer = first_dealer
        self.options = options or self.game.options()
        self.deals: list[Any] = []  # every deal started, the current one last

    @classmethod
    def drawn(cls, seats: int, rng: random.Random, options: Any = None, game: Game | str = DEFAULT) -> Match:
        """A match whose first dealer is drawn at random (R4, A5)."""
        return cls(seats, rng.randrange(seats), options, game)

    @property
    def length(self) -> int | None:
        """One deal per seat a round (R4, A16); None for a match to a score (C21)."""
        return self.game.match_length(self.seats, self.options)

    @property
    def deals_played(self) -> int:
        return sum(1 for d in self.deals if d.done)

    @property
    def over(self) -> bool:
        if self.game.target is not None:  # C21, B26: after a deal, totals that reach the target end it
            return bool(self.deals) and self.deals[-1].done and self.game.is_decided(self.totals)
        return self.deals_played == self.length

    @property
    def current(self) -> Any:
        return self.deals[-1] if self.deals else None

    def dealer_of(self, index: int) -> int:
        return (self.first_dealer + index) % self.seats

    def start_deal(self, rng: random.Random | None = None, deck: list[int] | None = None) -> Any:
        if self.over:
            raise ValueError("the match is over")
        if self.deals and not self.deals[-1].done:
            raise ValueError("the deal in play is not finished")
        dealer = self.dealer_of(len(self.deals))
        totals = self.totals if self.game.deal_totals else None  # B26: the deal checks them itself
        if deck is None:
            deal = self.game.shuffled(self.seats, dealer, rng or random.Random(), self.options, totals=totals)
        else:
            deal = self.game.new_deal(self.seats, dealer, deck, self.options, totals=totals)
        self.deals.append(deal)
        return deal

    @property
    def totals(self) -> list[int]:
        """Running totals over the finished deals (R16, A16)."""
        out = [0] * self.seats
        for deal in self.deals:
            for s, p in enumerate(deal.returns()):
                out[s] += p
        return out

    def winners(self) -> list[int]:
        """The seats with the highest total; a tie at the top is shared (R16, A16)."""
        top = max(self.totals)
        return [s for s, t in enumerate(self.totals) if t == top]
