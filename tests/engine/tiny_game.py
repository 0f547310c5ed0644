"""Tre carte: the smallest complete game on the engine's trick play, as docs/games.md shows it.

Two seats, six cards (trumps 1 and 2, the Fool, and the 2, 1 and King of cups), three each
from the seat after the dealer, who leads; follow, else trump, the Fool as an excuse that may
lead (``TrickRules``); the Fool goes to its player's pile; points counted in threes. Not
registered: the table never offers it, and ``TINY`` is its Game value all the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from tarocchi.engine.deck import Deck, Suit
from tarocchi.engine.game import PLAY_NOW, Game, NoOptions
from tarocchi.engine.playout import PLAY
from tarocchi.engine.trickplay import TrickPlay
from tarocchi.engine.tricks import TrickRules

DECK = Deck("tre carte", trumps=["1", "2"], fool="F", suits=[Suit("C", "Cups", "Coppe", ("2", "1", "K"))],
            values={"F": 4}, rank_values={"K": 4}, batch=3)
RULES = TrickRules(DECK, fool_leads=True)


@dataclass
class Count:
    payments: list[int]

    def to_json(self) -> dict:
        return {"payments": self.payments}


def parse_action(text: object) -> int:
    return DECK.card(text)  # a card code: the only action (a CardError is a ValueError)


def action_text(action: int) -> str:
    return DECK.codes[action]


class Deal(TrickPlay):
    def __init__(self, seats: int, dealer: int, deck: list[int], options: NoOptions | None = None,
                 *, log: bool = True):
        if not self._init_table(seats, dealer, deck, options or NoOptions(), (2,), DECK.size,
                                "Tre carte is played at two seats", "a deck order holds each of the 6 cards once"):
            return
        self.history, self.events, self.count = [], [] if log else None, None
        self._init_tricks("tre carte", RULES, DECK.codes, (dealer + 1) % 2, 3)
        self.hands = [0, 0]
        self.hands[self.leader], self.hands[dealer] = DECK.mask_of(deck[:3]), DECK.mask_of(deck[3:])
        self.phase, self.to_act = PLAY, self.leader

    def _notation(self) -> Game:
        return TINY

    def legal_actions(self) -> list[int]:
        return self.legal_card_list() if self.to_act is not None else []

    def _phase_words(self) -> str:
        return PLAY_NOW

    def _refusal(self, seat: int, action: int) -> str | None:
        return RULES.refusal(self.hands[seat], action, self.trick) if 0 <= action < DECK.size else PLAY_NOW

    def _count(self) -> None:
        piles = self.won[:]
        piles[self.fool_by] |= DECK.fool_bit
        points = [DECK.points(p) for p in piles]
        self.count = Count([points[s] - points[1 - s] for s in range(2)])
        self._end(self.count)

    def returns(self) -> list[int]:
        return self.count.payments[:] if self.count is not None else []

    def view(self, seat: int) -> dict:
        return dict(self.seat_view(seat), trick=self.trick_json(), last_trick=self.last_trick_json())

    def public_view(self) -> dict:
        return dict(self.seat_view(None), trick=self.trick_json(), last_trick=self.last_trick_json())

    def _copy_rest(self, d: Deal) -> None:
        d.count = self.count


TINY = Game(name="tre carte", title="Tre carte", seats=(2,), deck=DECK, deal=Deal, options=NoOptions,
            parse_action=parse_action, action_text=action_text)
