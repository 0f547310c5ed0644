"""Sicilian Tarocchi: one deal at three or four seats, from the deck order to the count, and the
game registered as ``sicilian`` (its deck is ``tarocchi.engine.cards``, shared with Calabresella).

The rules text is ``shared/seeds/000_*.txt``; the rulings ``shared/rules/RULINGS.md`` (cited
as R1..R17) settle what it leaves open. The state API follows OpenSpiel: ``to_act``,
``legal_actions()``, ``apply(action)``, ``view(seat)``; chance is explicit (the deck order).

>>> from tarocchi.games.sicilian import Deal, PASSO, VADO_SOLO
>>> d = Deal.from_seed(seats=3, dealer=2, seed=7)
>>> d.to_act, d.phase                       # the seat after the dealer speaks first (R5)
(0, 'speak')
>>> d.refusal(d.to_act, "pago")            # at five cards there is no pago
'pago and prendo come at 10 cards and later'
>>> d.apply("vado solo")                   # a solo on five cards: a stata
>>> d.refusal(d.to_act, "altre cinque")    # the seats after it may only pass (R5)
'after a vado solo only passo'
>>> d.apply("passo"); d.apply("passo")
>>> [d.hand_size(s) for s in range(3)], d.stata, d.phase   # the soloist holds the monte too
([23, 20, 20], True, 'discard')

Actions are small ints with a text notation (records, logs and the wire use the text):

>>> from tarocchi.games.sicilian import parse_action, action_text
>>> action_text(parse_action("discard MB 5c 6C")), action_text(parse_action("17"))
('discard 6C 5C MB', '17')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ..engine import tricks
from ..engine.choices import Combinations
from ..engine.deck import ActionError
from ..engine.discards import DiscardRule
from ..engine.game import Game, IllegalAction, plain, register
from ..engine.trickplay import TrickPlay
from ..engine.cards import (
    ARIE, CODES, DECK, DECK_SIZE, FOOL, FOOL_BIT, KINGS, LAST_TRICK_BONUS, LOW_TRUMPS, NEVER_DISCARD,
    PIGLIATA_TRUMPS, VALUES, CardError, card, cards_in, codes, display_order, mask_of,
    points, shown,
)

# --- actions: small ints, and their text notation -------------------------------------
#
# An action is an int: a card 0..62 is "play that card"; the spoken words and the yes/no
# answers are small constants; a discard is ``DISCARD | mask`` of its three cards. The text
# notation is what records, logs and the wire use (``action_text``, ``parse_action``).

PASSO: Final = 100
ALTRE_CINQUE: Final = 101
VADO_SOLO: Final = 102
PAGO: Final = 103
PRENDO: Final = 104
CHIAMO: Final = 105
SCOMMESSA: Final = 110
RIVANTO: Final = 111
NO: Final = 112  # the "no" answer to the Scommessa or Rivanto question
DISCARD: Final = 1 << 64  # flag bit; the low 63 bits hold the three discarded cards

WORDS: Final = {
    PASSO: "passo",
    ALTRE_CINQUE: "altre cinque",
    VADO_SOLO: "vado solo",
    PAGO: "pago",
    PRENDO: "prendo",
    CHIAMO: "chiamo",
    SCOMMESSA: "scommessa",
    RIVANTO: "rivanto",
    NO: "no",
}
ACTION_OF_WORD: Final = {w: a for a, w in WORDS.items()}
BIDS: Final = (PASSO, ALTRE_CINQUE, VADO_SOLO, PAGO, PRENDO, CHIAMO)


def action_text(action: int) -> str:
    if 0 <= action < DECK_SIZE:
        return CODES[action]  # the code itself: views spell out every action, so keep it cheap
    if action >= DISCARD:
        return "discard " + " ".join(codes(action & ~DISCARD))
    try:
        return WORDS[action]
    except KeyError:
        raise ActionError(f"{action!r} is not an action") from None


def parse_action(text: object) -> int:
    """An action from its text: a card code, one of the words, or ``discard C1 C2 C3``."""
    if not isinstance(text, str):
        raise ActionError(f"an action is a text, not {type(text).__name__}")
    t = " ".join(text.strip().split())
    low = t.lower()
    if low in ACTION_OF_WORD:
        return ACTION_OF_WORD[low]
    if low.startswith("discard"):
        parts = t.split()[1:]
        try:
            m = mask_of(parts)
        except CardError as e:
            raise ActionError(str(e)) from None
        if len(parts) != 3 or m.bit_count() != 3:
            raise ActionError("a discard names three different cards, e.g. 'discard 5C 6O MB'")
        return DISCARD | m
    try:
        return card(t)
    except CardError:
        raise ActionError(
            f"{shown(text)} is not an action: say a card code, one of "
            f"{', '.join(WORDS.values())}, or 'discard' and three cards") from None


__all__ = [
    "Deal", "IllegalAction", "SPEAK", "DISCARD_PHASE", "ANNOUNCE", "PLAY", "DONE",
    "PASSO", "ALTRE_CINQUE", "VADO_SOLO", "PAGO", "PRENDO", "CHIAMO", "SCOMMESSA", "RIVANTO", "NO",
    "DISCARD", "WORDS", "parse_action", "action_text", "SICILIAN",
]

SPEAK, DISCARD_PHASE, ANNOUNCE, PLAY, DONE = "speak", "discard", "announce", "play", "done"
PUBLIC_NO: Final = 1   # an R12 answer without a choice, as every seat can tell
PRIVATE_NO: Final = 2  # ... as only the seat asked can tell (its hand)
MONTE_SIZE: Final = 3
PACKET: Final = 5
# Cards each seat holds for play: 20 at three seats, 15 at four (R3).
FULL_HAND: Final = {3: 20, 4: 15}
COUNTING: Final = sum(1 << c for c in range(DECK_SIZE) if VALUES[c] >= 2 and c != FOOL)
BIG_TRUMPS: Final = (1 << 20) | (1 << 1) | FOOL_BIT  # what a Scommessa promises (R12, R15)

# Plain reasons for refused actions; the web catalogue translates them by this text.
NOT_YOUR_TURN: Final = "it is not your turn"
DEAL_OVER: Final = "the deal is over"
ONLY_FIRST_TWO_PAGO: Final = "only the first two seats may say pago"
PRENDO_WHO: Final = "only the second seat or the dealer may say prendo"
PRENDO_NEEDS_PAGO: Final = "prendo needs a pago first"
ONE_PRENDO: Final = "prendo was already said this round"
ONLY_PASSO_AFTER_SOLO: Final = "after a vado solo only passo"
NO_ALTRE_AT_20: Final = "no altre cinque at 20 cards"
PAGO_LATER: Final = "pago and prendo come at 10 cards and later"
CHIAMO_FOUR: Final = "chiamo is said only at four seats"
FIVE_CARDS_FOUR: Final = "with five cards only passo or vado solo"
ONE_CALL: Final = "there is already a call: passo or vado solo"
NO_PAGO_FOUR: Final = "pago and prendo are said only at three seats"
NO_ALTRE_FOUR: Final = "altre cinque is said only at three seats"
SPEAK_NOW: Final = "now is the time to speak"
DISCARD_NOW: Final = "now is the time to discard three cards"
ANSWER_NOW: Final = "now is the time to answer yes or no"
PLAY_NOW: Final = "now is the time to play a card"
DISCARD_THREE: Final = "discard three cards"
NO_TRUMP_DISCARD: Final = "you may not discard a trump, the Fool or a King"
LOW_TRUMPS_ONLY: Final = "only Miseria and trumps 2 to 15, and no more than you must"
SCOMMESSA_NEEDS: Final = "Scommessa needs the 20 and the Fool in your hand"
SCOMMESSA_BIDDER: Final = "only the bidder may announce Scommessa"
RIVANTO_WHO: Final = "only an opponent who spoke after the final bid may say Rivanto"
RIVANTO_ONCE: Final = "Rivanto was already announced"
RIVANTO_BIDDER: Final = "the bidder may not say Rivanto"
PARTNER_SILENT: Final = "the hidden partner may not announce anything"
NOT_NOW: Final = "that is not an action now"


# R11: never a trump, the Fool or a King; if fewer than three other cards are held, the
# missing ones are Miseria and trumps 2-15, no more than needed.
DISCARD_RULE: Final = DiscardRule(3, NEVER_DISCARD, LOW_TRUMPS, NO_TRUMP_DISCARD, LOW_TRUMPS_ONLY,
                                  not_in_hand=tricks.NOT_IN_HAND)


def discardable(hand: int) -> int:
    """The cards of ``hand`` that may go in a discard (R11): all but trumps, the Fool and
    Kings; with fewer than three of those, the least valuable trumps too."""
    return DISCARD_RULE.allowed(hand)


def discard_refusal(hand: int, cards: int) -> str | None:
    """Why ``cards`` (a mask) may not be the discard from ``hand``, or None (R11)."""
    return DISCARD_RULE.refusal(hand, cards)


def shuffled_deck(rng: random.Random) -> list[int]:
    """A uniformly shuffled deck order: the cards sorted by independent random keys (a
    uniform permutation, and several times cheaper than ``rng.shuffle``)."""
    rand = rng.random
    keys = [rand() for _ in range(DECK_SIZE)]
    return sorted(range(DECK_SIZE), key=keys.__getitem__)


@dataclass
class Options:
    """Table options (R10)."""

    forced_call: bool = True  # four seats, all pass: the holder of the 20 must call

    def to_json(self) -> dict:
        return {"forced_call": self.forced_call}

    @classmethod
    def from_json(cls, data: dict | None) -> Options:
        data = dict(data or {})
        forced = data.pop("forced_call", True)
        if data or not isinstance(forced, bool):
            raise ValueError(f"unknown table options {sorted(data) or forced!r}; known: forced_call (true/false)")
        return cls(forced_call=forced)


@dataclass
class Jocu:
    """One line of the count: who scores it and why (R15)."""

    name: str  # rimatura, vanto, kings, arie, arie_20, pigliata, scommessa
    side: str  # "bidder" or "others"
    value: int
    card: str | None = None  # the captured trump of a pigliata

    def to_json(self) -> dict:
        d = {"name": self.name, "side": self.side, "value": self.value}
        if self.card is not None:
            d["card"] = self.card
        return d


@dataclass
class Count:
    """The itemised count of a finished or abandoned deal (R6, R15)."""

    payments: list[int]
    abandoned: bool = False
    reason: str = ""  # why a deal was abandoned
    bidder: int | None = None
    partner: int | None = None
    alone: bool = False
    stata: bool = False
    sides: dict[str, list[int]] = field(default_factory=dict)
    card_points: dict[str, int] = field(default_factory=dict)
    piles: dict[str, int] = field(default_factory=dict)  # card masks; codes in to_json
    jochi: list[Jocu] = field(default_factory=list)
    net: int = 0
    stake: int = 1
    discard: int = 0  # the bidder's discard, a card mask
    called: str | None = None
    pago: list[int] = field(default_factory=list)
    prendo: int | None = None

    def to_json(self) -> dict:
        if self.abandoned:
            return {"abandoned": True, "reason": self.reason, "pago": self.pago,
                    "prendo": self.prendo, "payments": self.payments}
        return {
            "abandoned": False, "bidder": self.bidder, "partner": self.partner,
            "alone": self.alone, "stata": self.stata, "called": self.called,
            "sides": self.sides, "card_points": self.card_points,
            "piles": {side: codes(m) for side, m in self.piles.items()},
            "jochi": [j.to_json() for j in self.jochi],
            "totals": {side: sum(j.value for j in self.jochi if j.side == side)
                       for side in ("bidder", "others")},
            "net": self.net, "stake": self.stake, "payments": self.payments,
            "discard": codes(self.discard),
        }



# Everything a Deal holds beside the state of play (TrickPlay's); copy() copies these.
STATE_FIELDS: Final = (
    "dealer", "deck", "options", "dealt", "monte",
    "round_cards", "round_order", "round_pos", "round_solo", "round_pagos",
    "round_prendo", "round_altre", "round_call", "spoke_after", "dealer_looked", "monte_up",
    "bidder", "contract", "stata", "called", "partner", "partner_known", "discarded",
    "ask_pos", "scommessa", "rivanto", "count", "bids", "unasked", "_public",
)


class Deal(TrickPlay):
    """One deal. Seats are 0..n-1; play and dealing run to the next seat number (R3)."""

    def __init__(self, seats: int, dealer: int, deck: list[int], options: Options | None = None,
                 *, log: bool = True):
        if not self._init_table(seats, dealer, deck, options or Options(), (3, 4), DECK_SIZE,
                         "Sicilian Tarocchi is played at three or four seats",
                         "a deck order holds each of the 63 cards once (R3)"):
            return  # copy()'s blank deal: copy() sets every field
        self.hands = [0] * seats
        self.dealt = 0  # cards dealt from the top so far
        self.monte = sum(1 << c for c in deck[-MONTE_SIZE:])  # the last three (R3)
        self.phase = SPEAK
        self.to_act = None  # None once the deal is over
        self.history = []
        self.bids: list[tuple[int, int, int]] = []  # (seat, word, cards held): the announcements log
        self.events = [] if log else None
        self.dealer_looked = False
        self.monte_up = False
        self.bidder: int | None = None
        self.contract: str | None = None  # "solo", "chiamo", "forced"
        self.stata = False
        self.called: int | None = None
        self.partner: int | None = None  # the hidden partner's seat, once the call is made
        self.partner_known = False
        self.discarded = 0
        self.spoke_after: frozenset[int] = frozenset()
        self.scommessa = False
        self.rivanto: int | None = None
        self.ask_pos = 0
        # Per answer to the R12 question, in order: 0 a real choice, PUBLIC_NO when every seat
        # can tell Yes was impossible, PRIVATE_NO when only the seat asked can (its hand).
        self.unasked: list[int] = []
        self._init_tricks("sicilian", tricks.SICILIAN, CODES, 0, 0)  # the leader and the tricks: at R13
        self.discard_rule, self.discard_flag = DISCARD_RULE, DISCARD
        self.count: Count | None = None
        self._public: tuple[int, dict] | None = None  # (len(history), the public part of a view)
        self._deal_round()
        self._start_round()

    # --- construction -------------------------------------------------------------------

    @classmethod
    def from_seed(cls, seats: int, dealer: int, seed: int | str, options: Options | None = None) -> Deal:
        return cls.shuffled(seats, dealer, random.Random(seed), options)

    def _copy_rest(self, d: Deal) -> None:
        for name in STATE_FIELDS:
            setattr(d, name, getattr(self, name))
        d.bids = self.bids[:]
        d.unasked = self.unasked[:]
        d.round_pagos = self.round_pagos[:]

    # --- dealing (R3) -------------------------------------------------------------------

    def _deal_round(self) -> None:
        n = self.seats
        deck = self.deck
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            a, b, c, d, e = deck[self.dealt:self.dealt + PACKET]
            self.hands[seat] |= (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)
            self.dealt += PACKET
        if self.events is not None:
            self.events.append({"type": "dealt", "cards": self.dealt // n})

    def _deal_rest(self) -> None:
        while self.dealt < DECK_SIZE - MONTE_SIZE:
            self._deal_round()

    def _dealer_looks(self) -> None:
        self.dealer_looked = True
        if self.events is not None:
            self.events.append({"type": "look", "seat": self.dealer})

    # --- speaking (R5-R10) --------------------------------------------------------------

    def _start_round(self) -> None:
        n = self.seats
        self.round_cards = self.dealt // n
        self.round_order = [(self.dealer + 1 + i) % n for i in range(n)]
        self.round_pos = 0
        self.round_solo: int | None = None
        self.round_pagos: list[int] = []
        self.round_prendo: int | None = None
        self.round_altre = False
        self.round_call: int | None = None
        self.to_act = self.round_order[0]

    def _bid_refusal(self, action: int) -> str | None:
        pos = self.round_pos
        cards = self.round_cards
        if action == PASSO:
            return None
        if self.seats == 4:
            if action in (PAGO, PRENDO):
                return NO_PAGO_FOUR
            if action == ALTRE_CINQUE:
                return NO_ALTRE_FOUR
            if cards == PACKET:  # R7
                return None if action == VADO_SOLO else FIVE_CARDS_FOUR
            if action == CHIAMO and self.round_call is not None:  # R8
                return ONE_CALL
            return None if action in (CHIAMO, VADO_SOLO) else NOT_NOW
        # three seats (R5)
        if action == CHIAMO:
            return CHIAMO_FOUR
        if self.round_solo is not None:
            return ONLY_PASSO_AFTER_SOLO
        if action == VADO_SOLO:
            return None
        if action == ALTRE_CINQUE:
            return NO_ALTRE_AT_20 if cards == 20 else None
        if action == PAGO:
            if cards == PACKET:
                return PAGO_LATER
            return None if pos <= 1 else ONLY_FIRST_TWO_PAGO
        if action == PRENDO:
            if cards == PACKET:
                return PAGO_LATER
            if pos == 0:
                return PRENDO_WHO
            if self.round_prendo is not None:
                return ONE_PRENDO
            return None if self.round_pagos else PRENDO_NEEDS_PAGO
        return NOT_NOW

    def _apply_bid(self, seat: int, action: int) -> None:
        self.bids.append((seat, action, self.round_cards))
        if self.events is not None:
            self.events.append({"type": "bid", "seat": seat, "bid": WORDS[action], "cards": self.round_cards})
        self.round_pos += 1
        if action == VADO_SOLO:
            self.round_solo = seat
            if self.seats == 4:  # a four-seat solo ends the round at once (R7, R8)
                self._settle_round()
                return
        elif action == ALTRE_CINQUE:
            self.round_altre = True
        elif action == PAGO:
            self.round_pagos.append(seat)
        elif action == PRENDO:
            self.round_prendo = seat
        elif action == CHIAMO:
            self.round_call = seat
        if self.round_pos == self.seats:
            self._settle_round()
        else:
            self.to_act = self.round_order[self.round_pos]

    def _spoke_after(self, seat: int) -> frozenset[int]:
        i = self.round_order.index(seat)
        return frozenset(self.round_order[i + 1:self.round_pos])

    def _settle_round(self) -> None:
        n = self.seats
        if self.round_solo is not None:  # R6, R7, R8
            self.spoke_after = self._spoke_after(self.round_solo)
            self._contract(self.round_solo, "solo", stata=self.round_cards == PACKET)
            return
        if n == 3:
            if self.round_altre:  # R6: next packets; this round's pago and prendo are void
                self._deal_round()
                if self.dealt == DECK_SIZE - MONTE_SIZE:
                    self._dealer_looks()
                self._start_round()
                return
            payments = [0] * n
            if self.round_prendo is not None:
                for p in self.round_pagos:
                    payments[p] -= 1
                    payments[self.round_prendo] += 1
            if self.round_cards == FULL_HAND[n]:  # (no altre cinque at 20 cards, R5: no solo ends it)
                self._abandon("nobody said vado solo at 20 cards", payments)
            else:
                self._abandon("nobody said altre cinque", payments)
            return
        # four seats
        if self.round_cards == PACKET:  # R7: all passed, two more packets, the dealer looks
            self._deal_round()
            self._deal_round()
            self._dealer_looks()
            self._start_round()
            return
        if self.round_call is not None:  # R8, R9
            self.spoke_after = self._spoke_after(self.round_call)
            caller = self.round_call
            self.called = self._highest_missing(self.hands[caller])
            self._contract(caller, "chiamo", stata=False)
            return
        # R10: all four passed
        holder = next((s for s in range(n) if self.hands[s] >> 20 & 1), None)
        if not self.options.forced_call:
            self._abandon("all four passed", [0] * n)
        elif holder is None:
            self._abandon("all four passed and the 20 is in the monte", [0] * n)
        else:
            self.spoke_after = frozenset()
            self._contract(holder, "forced", stata=False)

    @staticmethod
    def _highest_missing(hand: int) -> int:
        """R9: the highest trump, 20 down to Miseria, not in ``hand``."""
        for t in range(20, -1, -1):
            if not hand >> t & 1:
                return t
        raise AssertionError("a hand cannot hold all 21 trumps")

    def _abandon(self, reason: str, payments: list[int]) -> None:
        self.phase = DONE
        self.to_act = None
        self.count = Count(payments=payments, abandoned=True, reason=reason,
                           pago=list(self.round_pagos) if self.round_prendo is not None else [],
                           prendo=self.round_prendo)
        if self.events is not None:
            self.events.append({"type": "abandoned", "reason": reason, "payments": payments})

    def _contract(self, bidder: int, kind: str, stata: bool) -> None:
        self.bidder = bidder
        self.contract = kind
        self.stata = stata
        self._deal_rest()
        if self.events is not None:
            self.events.append({"type": "contract", "seat": bidder, "contract": kind, "stata": stata,
                       "called": CODES[self.called] if self.called is not None else None})
        # R11: the monte is turned up for everyone, unless the dealer who looked goes solo.
        unseen = kind == "solo" and bidder == self.dealer and self.dealer_looked
        self.monte_up = not unseen
        if self.events is not None:
            self.events.append({"type": "monte", "seat": bidder, "cards": None if unseen else codes(self.monte)})
        self.hands[bidder] |= self.monte
        self.phase = DISCARD_PHASE
        self.to_act = bidder

    # --- the discard (R11) --------------------------------------------------------------

    def discardable(self) -> int:
        """The cards the bidder may put in a discard (R11)."""
        assert self.bidder is not None, "nobody has bid yet"
        return discardable(self.hands[self.bidder])

    def discard_choice(self) -> tuple[int, int, int]:
        """(the cards that must go, the cards the rest come from, how many more) (R11)."""
        assert self.bidder is not None, "nobody has bid yet"
        return DISCARD_RULE.choice(self.hands[self.bidder])

    def _apply_discard(self, seat: int, cards: int) -> None:
        self.hands[seat] &= ~cards
        self.discarded = cards
        if self.events is not None:
            self.events.append({"type": "discard", "seat": seat})
        if self.contract == "forced":  # R10: the call comes from the hand left
            self.called = self._highest_missing(self.hands[seat])
            if self.events is not None:
                self.events.append({"type": "call", "seat": seat, "called": CODES[self.called]})
        if self.called is not None:
            holder = next((s for s in range(self.seats) if s != seat and self.hands[s] >> self.called & 1), None)
            self.partner = holder  # None: in the monte or the discard, the caller is alone (R9)
        self.phase = ANNOUNCE
        self.ask_pos = 0
        self.to_act = seat

    # --- Scommessa and Rivanto (R12) ----------------------------------------------------

    def _announce_refusal(self, seat: int, action: int) -> str | None:
        if action == NO:
            return None
        if action == SCOMMESSA:
            if seat != self.bidder:
                return SCOMMESSA_BIDDER
            return None if self.hands[seat] & (1 << 20 | FOOL_BIT) == (1 << 20 | FOOL_BIT) else SCOMMESSA_NEEDS
        if action == RIVANTO:
            if seat == self.bidder:
                return RIVANTO_BIDDER
            if seat == self.partner:
                return PARTNER_SILENT
            if seat not in self.spoke_after:
                return RIVANTO_WHO
            if self.rivanto is not None:
                return RIVANTO_ONCE
            return None
        return ANSWER_NOW

    def _no_choice(self, seat: int) -> int:
        """Whether ``seat``, asked now, has only No (R12): 0 it has a choice (or must be asked
        as if it had one: the hidden partner, whom nothing may give away); PUBLIC_NO when every
        seat can tell (who spoke after the final bid, a Rivanto already announced); PRIVATE_NO
        when only its hand says so (the bidder without the 20 and the Fool)."""
        if seat == self.bidder:
            return 0 if self._announce_refusal(seat, SCOMMESSA) is None else PRIVATE_NO
        if seat not in self.spoke_after or self.rivanto is not None:
            return PUBLIC_NO
        return 0  # an opponent with the choice, or the partner, asked exactly like one

    def automatic(self) -> tuple[str, bool] | None:
        """The action the seat to act has no alternative to, and whether every seat can tell:
        the server answers No for a person who has no real choice (R12), at once when it is
        public, after a beat like a computer's when only that seat knows. None otherwise."""
        if self.phase != ANNOUNCE or self.to_act is None:
            return None
        kind = self._no_choice(self.to_act)
        return None if kind == 0 else (WORDS[NO], kind == PUBLIC_NO)

    def _apply_announce(self, seat: int, action: int) -> None:
        self.unasked.append(self._no_choice(seat))
        if action == SCOMMESSA:
            self.scommessa = True
        elif action == RIVANTO:
            self.rivanto = seat
        if self.events is not None:
            event: dict = {"type": "announce", "seat": seat, "announce": WORDS[action]}
            if self.unasked[-1] == PUBLIC_NO:
                event["possible"] = False  # everyone can tell: the log says it was not possible
            self.events.append(event)
        self.ask_pos += 1
        bidder = self.bidder
        assert bidder is not None
        if self.ask_pos == self.seats:
            self.phase = PLAY
            self.leader = (bidder + 1) % self.seats  # R13: the seat after the bidder leads
            self.to_act = self.leader
            self.tricks_left = FULL_HAND[self.seats]
            self.watched = self.called if self.called is not None else -1  # its play names the partner (R9)
        else:
            self.to_act = (bidder + self.ask_pos) % self.seats

    # --- play (R13, R14) ----------------------------------------------------------------

    def _log_play(self, seat: int, c: int) -> None:
        super()._log_play(seat, c)
        if c == self.called and self.partner is not None:
            assert self.events is not None
            self.events.append({"type": "partner", "seat": seat})

    def _heard(self, seat: int, c: int) -> None:
        self.partner_known = True  # the called trump is played: the partner is known (R9)

    # --- the count (R14, R15) -----------------------------------------------------------

    def side_of(self, seat: int) -> str:
        """'bidder' or 'others'; the partner is on the bidder's side (R15)."""
        return "bidder" if seat == self.bidder or seat == self.partner else "others"

    def _count(self) -> None:
        n = self.seats
        bidder_seats = [s for s in range(n) if self.side_of(s) == "bidder"]
        other_seats = [s for s in range(n) if s not in bidder_seats]
        piles = {"bidder": self.discarded, "others": 0}
        tricks_by_side = {"bidder": 0, "others": 0}
        played = {"bidder": 0, "others": 0}
        for s in range(n):
            side = self.side_of(s)
            piles[side] |= self.won[s]
            tricks_by_side[side] += self.tricks_won[s]
            played[side] |= self.played[s]
        # R14: the Fool goes to its player's side if that side won a trick, else to the
        # side that took the trick it was played in.
        # The Fool is always played: it can be neither discarded nor left in the monte.
        assert self.fool_by >= 0 and self.fool_to >= 0 and self.last_trick is not None
        fool_side = self.side_of(self.fool_by)
        if not tricks_by_side[fool_side]:
            fool_side = self.side_of(self.fool_to)
        piles[fool_side] |= FOOL_BIT
        last_side = self.side_of(self.last_trick[2])
        card_points = {side: points(piles[side]) + (LAST_TRICK_BONUS if side == last_side else 0)
                       for side in piles}
        jochi: list[Jocu] = []
        jochi.append(Jocu("rimatura", "bidder" if card_points["bidder"] >= 55 else "others", 1))
        jochi.append(Jocu("vanto", last_side, 2 if self.rivanto is not None else 1))
        for side in ("bidder", "others"):
            pile = piles[side]
            if pile & KINGS == KINGS:
                jochi.append(Jocu("kings", side, 1))
            if pile & ARIE == ARIE:
                jochi.append(Jocu("arie", side, 1))
                if pile >> 20 & 1:
                    jochi.append(Jocu("arie_20", side, 1))
        for side, other in (("bidder", "others"), ("others", "bidder")):
            # R15: a counting trump played by one side and won by the other
            for t in cards_in(played[other] & piles[side] & PIGLIATA_TRUMPS):
                jochi.append(Jocu("pigliata", side, 1, CODES[t]))
        if self.scommessa:
            made = piles["bidder"] & BIG_TRUMPS == BIG_TRUMPS
            jochi.append(Jocu("scommessa", "bidder" if made else "others", 1))
        net = (sum(j.value for j in jochi if j.side == "bidder")
               - sum(j.value for j in jochi if j.side == "others"))
        stake = 2 if self.stata else 1
        alone = len(bidder_seats) == 1
        payments = [0] * n
        for s in other_seats:
            payments[s] = -net * stake
        share = -sum(payments) // len(bidder_seats)  # 2x at three, 3x alone at four (R15)
        for s in bidder_seats:
            payments[s] = share
        self.count = Count(
            payments=payments, bidder=self.bidder, partner=self.partner, alone=alone,
            stata=self.stata, sides={"bidder": bidder_seats, "others": other_seats},
            card_points=card_points, piles=piles,
            jochi=jochi, net=net, stake=stake, discard=self.discarded,
            called=CODES[self.called] if self.called is not None else None,
        )
        self._end(self.count)

    # --- the state API (the engine's TrickPlay: refusal, apply, record) ----------------------

    def returns(self) -> list[int]:
        """Each seat's payment in jochi (R15, R6); [] before the deal is over."""
        return self.count.payments[:] if self.count is not None else []

    def _not_an_action(self, error: ValueError) -> str:
        return str(error)

    def _phase_words(self) -> str:
        return NOT_NOW

    def reason(self, seat: int, action: object) -> str | None:
        """``refusal``: Sicilian's refusals are plain texts (a client finds their ids by text, REASONS)."""
        return plain(self._why(seat, action))

    def _refusal(self, seat: int, action: int) -> str | None:
        phase = self.phase
        if phase == PLAY:
            if not 0 <= action < DECK_SIZE:
                return PLAY_NOW
            return tricks.SICILIAN.refusal(self.hands[seat], action, self.trick)
        if phase == SPEAK:
            if action not in (PASSO, ALTRE_CINQUE, VADO_SOLO, PAGO, PRENDO, CHIAMO):
                return SPEAK_NOW
            return self._bid_refusal(action)
        if phase == DISCARD_PHASE:
            if action < DISCARD:
                return DISCARD_NOW
            return discard_refusal(self.hands[seat], action & ~DISCARD)
        if action not in (SCOMMESSA, RIVANTO, NO):
            return ANSWER_NOW
        return self._announce_refusal(seat, action)

    def _take(self, seat: int, action: int) -> None:
        if self.phase == SPEAK:
            self._apply_bid(seat, action)
        elif self.phase == DISCARD_PHASE:
            self._apply_discard(seat, action & ~DISCARD)
        elif self.phase == ANNOUNCE:
            self._apply_announce(seat, action)
        else:
            self._play_card(seat, action)

    def legal_actions(self) -> Sequence[int]:
        """Every legal action of the seat to act. A discard lists every allowed set of three."""
        phase = self.phase
        seat = self.to_act
        if seat is None:
            return []
        if phase == PLAY:
            return self.legal_card_list()
        if phase == SPEAK:
            return [a for a in (PASSO, ALTRE_CINQUE, VADO_SOLO, PAGO, PRENDO, CHIAMO)
                    if self._bid_refusal(a) is None]
        if phase == ANNOUNCE:
            return [a for a in (SCOMMESSA, RIVANTO, NO) if self._announce_refusal(seat, a) is None]
        if phase == DISCARD_PHASE:  # every allowed set of three (R11), listed lazily
            must, pool, need = self.discard_choice()
            return Combinations(DISCARD, must, pool, need)
        return []

    def choices(self, seat: int) -> list[dict]:
        """What ``seat``'s screen offers now: each button or card with its reason if refused.

        For speaking, every word of the round; for the yes/no question, both answers; in play
        and the discard, every card of the hand (a discard card is allowed if some allowed
        discard holds it)."""
        if self.phase == DONE or seat != self.to_act:
            return []
        if self.phase == SPEAK:
            words = (PASSO, CHIAMO, VADO_SOLO) if self.seats == 4 else (PASSO, ALTRE_CINQUE, VADO_SOLO, PAGO, PRENDO)
            return [{"action": WORDS[a], "reason": self._bid_refusal(a)} for a in words]
        if self.phase == ANNOUNCE:
            word = SCOMMESSA if seat == self.bidder else RIVANTO
            return [{"action": WORDS[word], "reason": self._announce_refusal(seat, word)},
                    {"action": WORDS[NO], "reason": None}]
        hand = self.hands[seat]
        if self.phase == DISCARD_PHASE:
            ok = self.discardable()
            return [{"action": CODES[c], "reason": None if ok >> c & 1 else NO_TRUMP_DISCARD}
                    for c in display_order(hand)]
        legal = self.legal_cards()
        refused = None if legal == hand else tricks.SICILIAN.refusal(hand, (hand & ~legal).bit_length() - 1, self.trick)
        return [{"action": CODES[c], "reason": None if legal >> c & 1 else refused} for c in display_order(hand)]

    # --- what one seat may know ---------------------------------------------------------

    def view(self, seat: int) -> dict:
        """Everything ``seat`` may know, and nothing more: its hand and own discard, the cards
        in play, the monte once turned up (or for the dealer who looked, R11), the called trump,
        and the partner only once the called trump is played (R9). JSON-ready; the server sends
        exactly this to the seat and the bots decide from it alone. Treat it as read-only: the
        public part is shared by every seat's view of the same moment."""
        v = dict(self._public_view())
        v["seat"] = seat
        v["hand"] = codes(self.hands[seat])
        v["choices"] = self.choices(seat)
        if self.monte_up or (seat == self.dealer and self.dealer_looked):
            v["monte"] = codes(self.monte)
        if self.discarded and seat == self.bidder and self.phase != DONE:
            v["discard"] = codes(self.discarded)
            # The bidder's own discard in its action log (everyone else sees "discard").
            v["actions"] = [{"seat": s, "action": action_text(a)} if a >= DISCARD else e
                            for (s, a), e in zip(self.history, v["actions"])]
        if self.called is not None and self.hands[seat] >> self.called & 1 and seat != self.bidder:
            v["i_am_partner"] = True
        if seat == self.to_act and self.phase == ANNOUNCE and self._no_choice(seat) == PRIVATE_NO:
            v["automatic"] = WORDS[NO]  # the server answers for it after a beat: no question on screen
        if PRIVATE_NO in self.unasked:  # the seat's own No without a choice: its log says so
            v["announcements"] = [dict(a, possible=False) if a["seat"] == seat and kind == PRIVATE_NO else a
                                  for a, kind in zip(v["announcements"], self.unasked)]
        return v

    def public_view(self) -> dict:
        """What anyone at the table may know (a spectator): the auction, the called trump, the
        monte once turned up for all, the answers (a forced No that only its seat could tell
        reads as any No, R12), the partner once the called trump is played (R9), every card
        played, the discard at the count; no hand, no choices, nothing one seat alone knows."""
        v = dict(self._public_view())
        v["seat"] = None
        v["hand"] = []
        v["choices"] = []
        if self.monte_up:
            v["monte"] = codes(self.monte)
        return v

    def _public_view(self) -> dict:
        """The part of a view every seat shares, computed once per moment of the deal (every
        change of state appends to ``history``, so its length names the moment)."""
        moment = len(self.history)
        if self._public is not None and self._public[0] == moment:
            return self._public[1]
        n = self.seats
        done = self.phase == DONE
        pub: dict = {
            "game": self.game,
            "seats": n,
            "dealer": self.dealer,
            "phase": self.phase,
            "turn": self.to_act,
            "hand_counts": [h.bit_count() for h in self.hands],
            "cards_dealt": self.dealt // n,
            "bids": [{"seat": s, "bid": WORDS[a], "cards": k} for s, a, k in self.bids],
            "bidder": self.bidder,
            "contract": self.contract,
            "stata": self.stata,
            "called": CODES[self.called] if self.called is not None else None,
            "partner": self.partner if self.partner_known or done else None,
            "monte": None,
            "discard": codes(self.discarded) if done and self.discarded else None,
            "scommessa": self.scommessa,
            # The answers to the two questions (R12), in order: the screen's announcements log.
            # "possible": False when every seat can tell Yes was impossible (R12).
            "announcements": [{"seat": s, "announce": WORDS[a], "possible": kind != PUBLIC_NO}
                              for (s, a), kind in zip([h for h in self.history
                                                       if h[1] == SCOMMESSA or h[1] == RIVANTO or h[1] == NO],
                                                      self.unasked)],
            "rivanto": self.rivanto,
            "leader": self.leader if self.phase == PLAY else None,
            "trick": self.trick_json() if self.phase == PLAY else [],
            "last_trick": self.last_trick_json(),
            "tricks": self.tricks_won[:],
            "captured": [codes(w & COUNTING) for w in self.won],
            "fool": self.fool_by if self.fool_by >= 0 else None,
            "played": [codes(p) for p in self.played],
            # Every action in order; a discard is hidden until the count.
            "actions": [{"seat": s, "action": "discard" if a >= DISCARD and not done else action_text(a)}
                        for s, a in self.history],
            "count": self.count.to_json() if self.count else None,
        }
        self._public = (moment, pub)
        return pub


# Its refusals by stable id: the constant's name in lower case ("not_your_turn"). The engine's
# refusals are these texts, unchanged (R1-R17's wording is what players and tests know).
REASONS: Final = {r.lower(): t for r, t in (
    ("NOT_YOUR_TURN", NOT_YOUR_TURN), ("DEAL_OVER", DEAL_OVER), ("ONLY_FIRST_TWO_PAGO", ONLY_FIRST_TWO_PAGO),
    ("PRENDO_WHO", PRENDO_WHO), ("PRENDO_NEEDS_PAGO", PRENDO_NEEDS_PAGO), ("ONE_PRENDO", ONE_PRENDO),
    ("ONLY_PASSO_AFTER_SOLO", ONLY_PASSO_AFTER_SOLO), ("NO_ALTRE_AT_20", NO_ALTRE_AT_20),
    ("PAGO_LATER", PAGO_LATER), ("CHIAMO_FOUR", CHIAMO_FOUR), ("FIVE_CARDS_FOUR", FIVE_CARDS_FOUR),
    ("ONE_CALL", ONE_CALL), ("NO_PAGO_FOUR", NO_PAGO_FOUR), ("NO_ALTRE_FOUR", NO_ALTRE_FOUR),
    ("SPEAK_NOW", SPEAK_NOW), ("DISCARD_NOW", DISCARD_NOW), ("ANSWER_NOW", ANSWER_NOW), ("PLAY_NOW", PLAY_NOW),
    ("DISCARD_THREE", DISCARD_THREE), ("NO_TRUMP_DISCARD", NO_TRUMP_DISCARD),
    ("LOW_TRUMPS_ONLY", LOW_TRUMPS_ONLY), ("SCOMMESSA_NEEDS", SCOMMESSA_NEEDS),
    ("SCOMMESSA_BIDDER", SCOMMESSA_BIDDER), ("RIVANTO_WHO", RIVANTO_WHO), ("RIVANTO_ONCE", RIVANTO_ONCE),
    ("RIVANTO_BIDDER", RIVANTO_BIDDER), ("PARTNER_SILENT", PARTNER_SILENT), ("NOT_NOW", NOT_NOW),
)}
REASONS.update({"follow_suit": tricks.FOLLOW_SUIT, "play_trump": tricks.PLAY_TRUMP,
                "fool_cannot_lead": tricks.FOOL_CANNOT_LEAD, "not_in_hand": tricks.NOT_IN_HAND})

SICILIAN: Final = register(Game(
    name="sicilian", title="Tarocchi Siciliani", seats=(3, 4), deck=DECK, deal=Deal, options=Options,
    parse_action=parse_action, action_text=action_text, discard_rule=DISCARD_RULE, reasons=REASONS,
))
