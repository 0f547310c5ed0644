"""Renaissance tarocchi: three hands, 78 cards, from the deck order to the count.

The rules text is ``shared/seeds/001_5a4829a0310e0071.txt`` (the seed); the rulings
``shared/rules/RENAISSANCE.md`` (cited as A1..A17) settle what it leaves open. The state is the
engine's (``tarocchi.engine.game.State``): ``to_act``, ``legal_actions()``, ``apply(action)``,
``refusal(seat, action)``, ``view(seat)``, ``returns()``, ``copy()``, ``record()``.

>>> from tarocchi.games.renaissance import DECK, Deal
>>> d = Deal(3, 2, list(range(78)))          # the deck in code order, seat 2 deals
>>> d.phase, d.to_act, [d.hand_size(s) for s in range(3)]   # the dealer holds 28 (A6, A7)
('discard', 2, [25, 25, 28])
>>> DECK.codes_of(d.extra)                   # the last three cards: the dealer's alone
['KB', 'QB', 'HB']
>>> d.refusal(2, "discard KB 3C 4C")
'you may not discard a King, a trump or the Fool'
>>> d.apply("discard QB 3C 4C"); d.to_act    # dealer + 1 leads (A9)
0
>>> d.refusal(1, "KS"), d.refusal(0, "KC")
('it is not your turn', 'that card is not in your hand')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..engine.deck import ActionError, CardError, Deck, Suit, cut, shown
from ..engine.choices import Combinations
from ..engine.discards import DiscardRule
from ..engine.game import (
    DEAL_OVER, NOT_IN_HAND, NOT_YOUR_TURN, PLAY_NOW, Game, Reason, reason_id, register,
)
from ..engine.trickplay import TrickPlay
from ..engine.tricks import TrickRules

# --- the deck (A1-A4) -------------------------------------------------------------------

_HIGH_PIPS: Final = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10")  # swords, wands: 10 high
_LOW_PIPS: Final = ("10", "9", "8", "7", "6", "5", "4", "3", "2", "1")  # cups, coins: the ace high (A2)
_COURT: Final = ("M", "H", "Q", "K")
TRUMP_NAMES: Final = {
    "1": ("Magician", "Il Bagatto"), "2": ("High Priestess", "La Papessa"), "3": ("Empress", "L'Imperatrice"),
    "4": ("Emperor", "L'Imperatore"), "5": ("Hierophant", "Il Papa"), "6": ("Lovers", "Gli Amanti"),
    "7": ("Chariot", "Il Carro"), "8": ("Strength", "La Forza"), "9": ("Hermit", "L'Eremita"),
    "10": ("Wheel of Fortune", "La Ruota della Fortuna"), "11": ("Justice", "La Giustizia"),
    "12": ("Hanged Man", "L'Appeso"), "13": ("Death", "La Morte"), "14": ("Temperance", "La Temperanza"),
    "15": ("Devil", "Il Diavolo"), "16": ("Tower", "La Torre"), "17": ("Star", "La Stella"),
    "18": ("Moon", "La Luna"), "19": ("Sun", "Il Sole"), "20": ("Judgement", "Il Giudizio"),
    "21": ("World", "Il Mondo"), "F": ("Fool", "Il Matto"),
}
# A1: trumps 1..21, the Fool F; suit cards rank + suit, C cups, O pentacles (coins), S swords,
# B wands (batons). A2: each suit lowest first, so that a higher bit is a higher card.
DECK: Final = Deck(
    "renaissance", trumps=[str(n) for n in range(1, 22)], fool="F",
    suits=[Suit("C", "Cups", "Coppe", _LOW_PIPS + _COURT), Suit("O", "Pentacles", "Denari", _LOW_PIPS + _COURT),
           Suit("S", "Swords", "Spade", _HIGH_PIPS + _COURT), Suit("B", "Wands", "Bastoni", _HIGH_PIPS + _COURT)],
    values={"21": 5, "1": 5, "F": 5}, rank_values={"K": 5, "Q": 4, "H": 3, "M": 2},  # A3
    batch=3,  # A4: counted in threes
    trump_names=TRUMP_NAMES,
    code_hint="A1: 1-21, F, or rank+suit like KC, 10S, 1O",
)
SIZE: Final = 78
SEATS: Final = 3
HAND: Final = 25
PACKET: Final = 5
TRICKS: Final = 25
SHARE: Final = 26  # A15: the deck's 78 points over three seats
FOOL: Final = 21
FOOL_BIT: Final = 1 << 21
TRUMPS: Final = (1 << 21) - 1  # bit n-1 is trump n
assert DECK.size == SIZE and DECK.fool == FOOL and DECK.trumps == TRUMPS
KINGS: Final = DECK.kings
ONE_POINT: Final = sum(1 << c for c in range(SIZE) if DECK.values[c] == 1)  # the plain cards (A13)
DISCARD: Final = 1 << 80  # flag bit above the deck; the low bits hold the three cards

RULES: Final = TrickRules(DECK, fool_leads=True)  # A10, A11
SUIT_MASK_OF: Final = DECK.suit_mask_of

# --- refusals: a player's words, each with a stable id ------------------------------------

DISCARD_NOW: Final = Reason("discard_now", "now is the time to discard three cards")
DISCARD_THREE: Final = Reason("discard_three", "discard three cards")
NO_KING_TRUMP_FOOL: Final = Reason("discard_forbidden", "you may not discard a King, a trump or the Fool")
MIDDLE_TRUMPS_ONLY: Final = Reason("discard_fallback", "only trumps 2 to 20, and no more than you must")
PLAY_TRUMP: Final = Reason("play_trump", "play a trump")
FOLLOW: Final = {s.letter: Reason(f"follow_{s.english.lower()}", f"follow {s.english.lower()}") for s in DECK.suits}
REASONS: Final = {r.id: str(r) for r in (NOT_YOUR_TURN, DEAL_OVER, NOT_IN_HAND, DISCARD_NOW, PLAY_NOW,
                                         DISCARD_THREE, NO_KING_TRUMP_FOOL, MIDDLE_TRUMPS_ONLY, PLAY_TRUMP,
                                         *FOLLOW.values())}

# A7: never a King, a trump or the Fool; with fewer than three other cards, trumps 2-20.
DISCARD_RULE: Final = DiscardRule(3, never=TRUMPS | FOOL_BIT | KINGS, fallback=TRUMPS & ~1 & ~(1 << 20),
                                  never_words=NO_KING_TRUMP_FOOL, fallback_words=MIDDLE_TRUMPS_ONLY,
                                  not_in_hand=NOT_IN_HAND, size_words=DISCARD_THREE)

DISCARD_PHASE: Final = "discard"
PLAY: Final = "play"
DONE: Final = "done"


def action_text(action: int) -> str:
    if 0 <= action < SIZE:
        return DECK.codes[action]
    if action >= DISCARD:
        return "discard " + " ".join(DECK.codes_of(action & ~DISCARD))
    raise ActionError(f"{action!r} is not an action")


def parse_action(text: object) -> int:
    """A card code, or ``discard C1 C2 C3`` (A7). Nothing is said in this game (A8)."""
    if not isinstance(text, str):
        raise ActionError(f"an action is a text, not {type(text).__name__}")
    parts = text.split()
    if parts and parts[0].lower() == "discard":
        try:
            m = DECK.mask_of(parts[1:])
        except CardError as e:
            raise ActionError(str(e)) from None
        if len(parts) != 4 or m.bit_count() != 3:
            raise ActionError("a discard names three different cards, e.g. 'discard 10C 9O 2S'")
        return DISCARD | m
    try:
        return DECK.card(text)
    except CardError:
        raise ActionError(f"{shown(text)} is not an action: say a card code ({DECK.code_hint}) "
                          "or 'discard' and three cards") from None


@dataclass
class Options:
    """Table options: ``rounds`` of three deals in a match, 1 to 4 (A16)."""

    rounds: int = 1

    def to_json(self) -> dict:
        return {"rounds": self.rounds}

    @classmethod
    def from_json(cls, data: dict | None) -> Options:
        data = dict(data or {})
        rounds = data.pop("rounds", 1)
        if data:
            raise ValueError(f"unknown table options {cut(', '.join(sorted(data)))}; known: rounds (1 to 4)")
        if type(rounds) is not int or not 1 <= rounds <= 4:  # not True, not 2.0
            raise ValueError(f"rounds is a number of rounds, 1 to 4 (A16), not {shown(rounds)}")
        return cls(rounds=rounds)


@dataclass
class Count:
    """The count (A13-A15): each seat's pile, points and score, and where the Fool's card went."""

    piles: list[int]  # card masks, the Fool as settled
    points: list[int]
    scores: list[int]
    discard: int
    fool_by: int
    fool_to: int  # the winner of the Fool's trick
    paid: int  # the card that moved for the Fool (A13), or -1 when the Fool itself moved (A14)

    def to_json(self) -> dict:
        piles = []
        for s, pile in enumerate(self.piles):
            ones = (pile & ONE_POINT).bit_count()
            piles.append({"cards": DECK.codes_of(pile), "counting": DECK.codes_of(pile & ~ONE_POINT),
                          "ones": ones, "threes": pile.bit_count() // 3, "points": self.points[s],
                          "score": self.scores[s]})
        return {"piles": piles, "discard": DECK.codes_of(self.discard),
                "fool": {"seat": self.fool_by, "trick_winner": self.fool_to,
                         "paid": DECK.codes[self.paid] if self.paid >= 0 else None,
                         "surrendered": self.paid < 0},
                "scores": self.scores}


class Deal(TrickPlay):
    """One deal. Seats 0, 1, 2; deal and play go to the next seat number (A5)."""

    def __init__(self, seats: int, dealer: int, deck: list[int], options: Options | None = None,
                 *, log: bool = True):
        if not self._init_table(seats, dealer, deck, options or Options(), (SEATS,), SIZE,
                         "the Renaissance game is played at three seats",
                         "a deck order holds each of the 78 cards once (A6)"):
            return  # copy()'s blank deal: copy() sets every field
        self.hands = [0, 0, 0]
        self._deal(HAND // PACKET * SEATS, PACKET)  # A6: cards 1-75 in packets of five, five rounds
        self.extra = sum(1 << c for c in deck[SIZE - 3:])
        self.hands[dealer] |= self.extra
        self.phase = DISCARD_PHASE
        self.to_act = dealer  # A7: the dealer discards before the first lead
        self.discarded = 0
        self.history = []
        self.events = [] if log else None
        self._init_tricks("renaissance", RULES, DECK.codes, (dealer + 1) % SEATS, TRICKS)  # A9: dealer + 1 leads
        self.discard_rule, self.discard_flag = DISCARD_RULE, DISCARD  # A7
        self.wins: list[tuple[int, list[int]]] = []  # (winner, cards in play order) per trick (A13)
        self.count: Count | None = None

    # --- construction -------------------------------------------------------------------

    @classmethod
    def from_seed(cls, dealer: int, seed: int | str, options: Options | None = None) -> Deal:
        return cls.shuffled(SEATS, dealer, random.Random(seed), options)

    def _copy_rest(self, d: Deal) -> None:
        d.extra = self.extra
        d.discarded, d.wins, d.count = self.discarded, self.wins[:], self.count

    # --- the state API (the engine's TrickPlay: refusal, apply, record) ----------------------

    def returns(self) -> list[int]:
        """Each seat's score, points - 26 (A15); [] before the count."""
        return self.count.scores[:] if self.count is not None else []

    def discardable(self) -> int:
        return DISCARD_RULE.allowed(self.hands[self.dealer])

    def legal_actions(self) -> Sequence[int]:
        """Every legal action of the seat to act; a discard lists every allowed set of three."""
        if self.phase == PLAY:
            return self.legal_card_list()
        if self.phase == DISCARD_PHASE:  # every allowed set of three (A7), listed lazily
            must, pool, need = self.discard_choice()
            return Combinations(DISCARD, must, pool, need)
        return []

    def _phase_words(self) -> str:
        return PLAY_NOW if self.phase == PLAY else DISCARD_NOW

    def _refusal(self, seat: int, action: int) -> str | None:
        if self.phase == DISCARD_PHASE:
            if action < DISCARD:
                return DISCARD_NOW
            return DISCARD_RULE.refusal(self.hands[seat], action & ~DISCARD)
        if not 0 <= action < SIZE:
            return PLAY_NOW
        return self._card_refusal(self.hands[seat], action)

    def _card_refusal(self, hand: int, c: int) -> str | None:
        """A10: follow the suit (named), else play a trump."""
        if not hand >> c & 1:
            return NOT_IN_HAND
        if RULES.legal(hand, self.trick) >> c & 1:
            return None
        led = RULES.led_suit(self.trick)
        if hand & SUIT_MASK_OF[led]:
            return FOLLOW[DECK.codes[led][-1]] if led > FOOL else PLAY_TRUMP
        return PLAY_TRUMP

    def _take(self, seat: int, action: int) -> None:
        self._discard(action & ~DISCARD)  # a card is played by the engine's apply

    # --- the discard (A7) ---------------------------------------------------------------

    def _discard(self, cards: int) -> None:
        self.hands[self.dealer] &= ~cards
        self.discarded = cards
        if self.events is not None:
            self.events.append({"type": "discard", "seat": self.dealer})
        self.phase = PLAY
        self.to_act = self.leader  # A9: dealer + 1 leads the first trick

    # --- play (A9-A12: the engine's trick play, TrickRules with the Fool leading) ------------

    def _trick_closed(self, winner: int) -> None:
        """A13: the tricks in the order each seat won them, for the card the Fool pays."""
        assert self.last_trick is not None
        self.wins.append((winner, self.last_trick[1]))

    # --- the count (A13-A15) ------------------------------------------------------------

    def fool_card(self, pile_order: list[int]) -> int:
        """A13: the first 1-point card in ``pile_order``, or -1 when there is none (A14)."""
        for c in pile_order:
            if ONE_POINT >> c & 1:
                return c
        return -1

    def pile_order(self, seat: int) -> list[int]:
        """A seat's pile in A13's order: the dealer's discard in display order, then its
        tricks in the order it won them, each in play order (the Fool left out)."""
        out = DECK.display_order(self.discarded) if seat == self.dealer else []
        for winner, cards in self.wins:
            if winner == seat:
                out += [c for c in cards if c != FOOL]
        return out

    def _count(self) -> None:
        piles = self.won[:]
        piles[self.dealer] |= self.discarded  # A7: the discard starts the dealer's pile
        by, to = self.fool_by, self.fool_to
        paid = self.fool_card(self.pile_order(by))
        if paid >= 0:  # A13: the Fool stays, one plain card moves to its trick's winner
            piles[by] = piles[by] ^ (1 << paid) | FOOL_BIT
            piles[to] |= 1 << paid
        else:  # A14: no 1-point card to give: the Fool itself moves
            piles[to] |= FOOL_BIT
        points = [DECK.points(p) for p in piles]  # A4
        scores = [p - SHARE for p in points]  # A15
        self.count = Count(piles=piles, points=points, scores=scores, discard=self.discarded,
                           fool_by=by, fool_to=to, paid=paid)
        self._end(self.count)

    # --- what one seat may know ---------------------------------------------------------

    def choices(self, seat: int) -> list[dict]:
        """Each card of ``seat``'s hand with its reason if refused now (the discard: a card
        some allowed discard holds is allowed); [] when it is not ``seat``'s turn."""
        if self.phase == DONE or seat != self.to_act:
            return []
        hand = self.hands[seat]
        if self.phase == DISCARD_PHASE:
            ok = self.discardable()
            out = []
            for c in DECK.display_order(hand):
                r = None if ok >> c & 1 else NO_KING_TRUMP_FOOL
                out.append({"action": DECK.codes[c], "reason": None if r is None else str(r), "reason_id": reason_id(r)})
            return out
        legal = self.legal_cards()
        refused = None if legal == hand else self._card_refusal(hand, (hand & ~legal).bit_length() - 1)
        rid = reason_id(refused)
        text = None if refused is None else str(refused)
        return [{"action": DECK.codes[c], "reason": None if legal >> c & 1 else text,
                 "reason_id": None if legal >> c & 1 else rid} for c in DECK.display_order(hand)]

    def view(self, seat: int) -> dict:
        """Everything ``seat`` may know, and nothing more: its hand, the dealer's three extra
        cards and discard to the dealer alone (shown to all at the count, A7), every card
        played. JSON-ready. The deck itself is described by ``DECK.describe()``."""
        return self._view(seat)

    def public_view(self) -> dict:
        """What anyone at the table may know (a spectator): every card played, the dealer's
        discard at the count (A7); no hand, no extra cards, no discard before the count."""
        return self._view(None)

    def _view(self, seat: int | None) -> dict:
        """A seat's view, or (``seat`` None) the public one: what only the dealer knows goes
        to ``seat == self.dealer`` alone."""
        done = self.phase == DONE
        n = SEATS
        dealer = seat is not None and seat == self.dealer
        v: dict = {
            **self.seat_view(seat),
            "extra": DECK.codes_of(self.extra) if dealer else None,
            "discard": DECK.codes_of(self.discarded) if self.discarded and (done or dealer) else None,
            "choices": self.choices(seat) if seat is not None else [],
            "leader": self.leader if self.phase == PLAY else None,
            "trick": self.trick_json(),
            "last_trick": self.last_trick_json(),
            "tricks": self.tricks_won[:],
            "pile_sizes": [w.bit_count() + (3 if s == self.dealer and self.discarded else 0)
                           + (1 if s == self.fool_by and self.fool_to >= 0 else 0) for s, w in enumerate(self.won)],
            "played": [DECK.codes_of(p) for p in self.played],
            "fool": self._fool_line(),
            "actions": [{"seat": s, "action": "discard" if a >= DISCARD and not (done or dealer)
                         else action_text(a)} for s, a in self.history],
            "count": self.count.to_json() if self.count else None,
        }
        return v

    def _fool_line(self) -> dict | None:
        """Who played the Fool into whose trick, and whether a plain card is still owed: none
        in the player's pile yet (A13, A14). Public: every pile's cards were played face up,
        except the dealer's discard, which only the dealer's own debt could reveal, so the
        dealer's debt counts his tricks alone until the count."""
        if self.fool_to < 0:
            return None
        tricks = 0
        for w, cards in self.wins:
            if w == self.fool_by:
                tricks |= sum(1 << c for c in cards)
        return {"seat": self.fool_by, "owes": self.fool_to, "owed": not tricks & ONE_POINT}


RENAISSANCE: Final = register(Game(
    name="renaissance", title="Renaissance tarocchi", seats=(SEATS,), deck=DECK, deal=Deal, options=Options,
    parse_action=parse_action, action_text=action_text, rounds=lambda options: options.rounds,
    discard_rule=DISCARD_RULE, reasons=REASONS,
))
